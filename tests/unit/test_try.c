/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace try below the CLI: the plan -> writes mapping (order, files,
 * texts, config positions), the undo list, and a whole run on a directory
 * that stands in for a tracefs (the bookkeeping only: that the kernel takes
 * or refuses the writes is tests/e2e/try.sh's).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "unit.h"
#include "plan/plan.h"
#include "try/try.h"
#include "util/source.h"

static const char conf[] =
	"ftrace {\n"
	"\ttracer = function\n"
	"\toptions = sym-addr, func_stack_trace\n"
	"\tftrace.filters = vfs_read, \"vfs_write\"\n"
	"\tevent.kprobes.myprobe.probes = \"vfs_read $arg1\", \"vfs_write\"\n"
	"\tevent.synthetic.lat.fields = \"u64 lat\", \"pid_t pid\"\n"
	"\tevent.sched.enable\n"
	"\tevent.sched.sched_switch {\n"
	"\t\tfilter = \"prev_pid == 1\"\n"
	"\t\tactions = \"traceoff\"\n"
	"\t\tenable\n"
	"\t}\n"
	"\tfgraph.filters = schedule\n"
	"\tinstance.foo.tracer = function_graph\n"
	"}\n"
	"kernel.tp_printk\n";

struct want {
	enum try_op op;
	const char *path, *text;
	int line;	/* of the setting; 0: none */
};

static void load(struct source *src, struct plan *p, const char *text)
{
	struct bt_error e;

	bt_error_clear(&e);
	memset(p, 0, sizeof(*p));
	assert_int_equal(source_load_text("t.bconf", text, strlen(text), src, &e), 0);
	assert_int_equal(plan_build(p, src, &e), 0);
}

static int line_of(const struct source *src, int node)
{
	int line = 0, col = 0;

	if (node == BCONF_NONE)
		return 0;
	source_locate(src, bconf_pos(src->bc, node), &line, &col);
	return line;
}

static void test_plan_steps(void **state)
{
	static const struct want want[] = {
		{ TRY_KPROBE, "kprobe_events", "p:kprobes/myprobe vfs_read $arg1", 5 },
		{ TRY_KPROBE, "kprobe_events", "p:kprobes/myprobe vfs_write", 5 },
		{ TRY_SYNTH, "synthetic_events", "lat u64 lat; pid_t pid", 6 },
		{ TRY_TOP, "set_graph_function", "schedule", 13 },
		{ TRY_MKDIR, "instances/boottrace-try-42", "", 0 },
		{ TRY_APPEND, "instances/boottrace-try-42/trace_options", "sym-addr", 3 },
		{ TRY_REPLACE, "instances/boottrace-try-42/events/sched/sched_switch/filter", "prev_pid == 1", 9 },
		{ TRY_APPEND, "instances/boottrace-try-42/events/sched/sched_switch/trigger", "traceoff", 10 },
		{ TRY_REPLACE, "instances/boottrace-try-42/events/sched/sched_switch/enable", "1", 8 },
		{ TRY_REPLACE, "instances/boottrace-try-42/events/sched/enable", "1", 7 },
		{ TRY_APPEND, "instances/boottrace-try-42/set_ftrace_filter", "vfs_read", 4 },
		{ TRY_APPEND, "instances/boottrace-try-42/set_ftrace_filter", "vfs_write", 4 },
		{ TRY_TRACER, "instances/boottrace-try-42/current_tracer", "function", 2 },
		{ TRY_OPTION, "instances/boottrace-try-42/trace_options", "func_stack_trace", 3 },
		{ TRY_MKDIR, "instances/boottrace-try-42-foo", "", 14 },
		{ TRY_TRACER, "instances/boottrace-try-42-foo/current_tracer", "function_graph", 14 },
	};
	struct source src = { 0 };
	struct try_steps st;
	struct bt_error e;
	struct plan p;
	size_t i;

	(void)state;
	load(&src, &p, conf);
	assert_int_equal(try_plan_steps(&p, 42, &st, &e), 0);
	for (i = 0; i < st.n && i < sizeof(want) / sizeof(want[0]); i++) {
		assert_int_equal(st.s[i].op, want[i].op);
		assert_string_equal(st.s[i].path, want[i].path);
		assert_string_equal(st.s[i].text, want[i].text);
		if (want[i].line)
			assert_int_equal(line_of(&src, st.s[i].node), want[i].line);
	}
	assert_int_equal(st.n, sizeof(want) / sizeof(want[0]));
	/* kernel.tp_printk is a boot parameter: listed as not tried, at line 16 */
	assert_int_equal(st.nskip, 1);
	assert_int_equal(line_of(&src, st.skip[0].node), 16);
	try_steps_free(&st);
	plan_free(&p);
	source_free(&src);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_undo_list(void **state)
{
	char dir[] = "/tmp/bt-try-undo-XXXXXX", p1[64], p2[64], p3[64];
	struct try_undo u = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(p1, sizeof(p1), "%s/inst", dir);
	snprintf(p2, sizeof(p2), "%s/list", dir);
	snprintf(p3, sizeof(p3), "%s/kprobe_events", dir);
	assert_int_equal(mkdir(p1, 0755), 0);
	put(p2, "ours\n");
	put(p3, "");
	/* recorded in the order made: restore of a saved list, a delete, a dir */
	assert_int_equal(try_undo_push(&u, TRY_U_RESTORE, p2, "a\nb\n", 0), 0);
	assert_int_equal(try_undo_push(&u, TRY_U_DELETE, p3, "-:kprobes/x", 2), 0);
	assert_int_equal(try_undo_push(&u, TRY_U_RMDIR, p1, NULL, 0), 0);
	assert_true(try_undo_saved(&u, p2));
	assert_false(try_undo_saved(&u, p1));
	assert_non_null(try_undo_delete_of(&u, "-:kprobes/x"));
	assert_null(try_undo_delete_of(&u, "-:kprobes/y"));
	assert_int_equal(try_undo_run(&u), 0);
	assert_int_equal(u.n, 0);
	assert_int_equal(access(p1, F_OK), -1);
	/* the saved lines back, one write each, the first through O_TRUNC */
	assert_string_equal(slurp(p2), "a\nb\n");
	/* one delete per probe added */
	assert_string_equal(slurp(p3), "-:kprobes/x\n-:kprobes/x\n");
	/* an empty saved list: the file cleared, nothing written */
	put(p2, "ours\n");
	assert_int_equal(try_undo_push(&u, TRY_U_RESTORE, p2, "", 0), 0);
	/* a failure is counted, and the rest still undone */
	assert_int_equal(try_undo_push(&u, TRY_U_RESTORE, "/nonexistent/bt-try/x", "a", 0), 0);
	assert_int_equal(try_undo_run(&u), 1);
	assert_string_equal(slurp(p2), "");
	try_undo_free(&u);
	unlink(p2);
	unlink(p3);
	rmdir(dir);
}

/* A whole run on a stand-in tracefs: every change undone, refusals counted. */
static void test_run_fake_tracefs(void **state)
{
	char dir[] = "/tmp/bt-try-fake-XXXXXX", path[160], stale[160], *out = NULL;
	struct source src = { 0 };
	struct try_opts o = { 0 };
	struct bt_error e;
	struct plan p;
	size_t outlen = 0;
	pid_t dead;
	int ret;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/instances", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/set_graph_function", dir);
	put(path, "#### all functions enabled ####\n");
	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	put(path, "p:kprobes/theirs vfs_open\n");
	snprintf(path, sizeof(path), "%s/error_log", dir);
	put(path, "");
	/* a tracer's option is the top level's too: saved and written back */
	snprintf(path, sizeof(path), "%s/options", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/options/func_stack_trace", dir);
	put(path, "0\n");
	/* buffers not expanded yet: an empty line to set_event expands them */
	snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
	put(path, "7 (expanded: 1408)\n");
	snprintf(path, sizeof(path), "%s/set_event", dir);
	put(path, "");
	/* an instance of a run that is gone */
	dead = fork();
	if (!dead)
		_exit(0);
	waitpid(dead, NULL, 0);
	snprintf(stale, sizeof(stale), "%s/instances/" TRY_PREFIX "%ld", dir, (long)dead);
	assert_int_equal(mkdir(stale, 0755), 0);

	load(&src, &p, conf);
	o.tracefs = dir;
	o.out = open_memstream(&out, &outlen);
	assert_non_null(o.out);

	ret = try_run(&p, &o, &e);
	fclose(o.out);
	/* the instance's files do not exist in a plain directory: refused */
	assert_int_equal(ret, 1);
	assert_non_null(strstr(out, "t.bconf:4:"));
	assert_non_null(strstr(out, "refused: function filter 'vfs_read'"));
	assert_non_null(strstr(out, "(ENOENT)"));
	assert_non_null(strstr(out, "t.bconf:16:8: not tried: "));
	assert_non_null(strstr(out, "everything added was removed"));
	/* ours gone, the stale one left (no --remove-stale), files restored */
	snprintf(path, sizeof(path), "%s/instances/" TRY_PREFIX "%ld", dir, (long)getpid());
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(stale, F_OK), 0);
	snprintf(path, sizeof(path), "%s/set_graph_function", dir);
	assert_string_equal(slurp(path), "");
	snprintf(path, sizeof(path), "%s/options/func_stack_trace", dir);
	assert_string_equal(slurp(path), "0\n");
	snprintf(path, sizeof(path), "%s/set_event", dir);
	assert_string_equal(slurp(path), "\n");
	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	assert_string_equal(slurp(path), "p:kprobes/theirs vfs_open\n"
			    "p:kprobes/myprobe vfs_read $arg1\np:kprobes/myprobe vfs_write\n"
			    "-:kprobes/myprobe\n-:kprobes/myprobe\n");
	free(out);

	/* --remove-stale removes it */
	o.remove_stale = 1;
	out = NULL;
	o.out = open_memstream(&out, &outlen);
	ret = try_run(&p, &o, &e);
	fclose(o.out);
	assert_int_equal(ret, 1);
	assert_int_equal(access(stale, F_OK), -1);
	free(out);

	/* no tracefs there: an environment error */
	o.tracefs = "/nonexistent/bt-try";
	assert_int_equal(try_run(&p, &o, &e), -1);
	assert_int_equal(e.code, BT_EXIT_ENV);
	bt_voice_level(BT_NORMAL);
	plan_free(&p);
	source_free(&src);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_steps),
		cmocka_unit_test(test_undo_list),
		cmocka_unit_test(test_run_fake_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
