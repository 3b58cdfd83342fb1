/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Words, merging, kernel capabilities, plan and routes, below the CLI. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "compile/emit.h"
#include "kernel/kcaps.h"
#include "kernel/params.h"
#include "plan/plan.h"
#include "compile/route.h"
#include "util/source.h"

static void split_join(const char *line, const char *want, size_t n)
{
	struct words w;
	char *s;

	words_init(&w);
	assert_int_equal(words_split(&w, line), 0);
	assert_int_equal(w.n, n);
	s = words_join(&w);
	assert_string_equal(s, want);
	assert_int_equal(words_join_len(&w), strlen(want));
	free(s);
	words_free(&w);
}

static void test_words_split(void **state)
{
	(void)state;
	split_join("  a b=\"c d\"\t\"e f\" g", "a b=\"c d\" \"e f\" g", 4);
	split_join("", "", 0);
	split_join("x=\"open quote to the end", "x=\"open quote to the end", 1);
}

static void test_words_find(void **state)
{
	struct words w;

	(void)state;
	words_init(&w);
	assert_int_equal(words_split(&w, "console=ttyS0 ftrace-filter=a \"trace_options=b c\" quiet"), 0);
	assert_int_equal(words_find(&w, "ftrace_filter", 0), 1);
	assert_int_equal(words_find(&w, "trace_options", 0), 2);
	assert_int_equal(words_find(&w, "quiet", 0), 3);
	assert_int_equal(words_find(&w, "quie", 0), -1);
	assert_int_equal(words_find(&w, "console", 1), -1);
	words_remove(&w, 0);
	assert_int_equal(words_find(&w, "quiet", 0), 2);
	words_free(&w);
}

static void test_words_add_param(void **state)
{
	struct bt_error e;
	struct words w;

	(void)state;
	words_init(&w);
	assert_int_equal(words_add_param(&w, "foo", "a b", "kernel.foo", &e), 0);
	assert_string_equal(w.v[0], "foo=\"a b\"");
	assert_int_equal(words_add_param(&w, "bar", NULL, "kernel.bar", &e), 0);
	assert_string_equal(w.v[1], "bar");
	assert_int_equal(words_add_param(&w, "x", "a\nb", "kernel.x", &e), -1);
	assert_non_null(strstr(e.msg, "kernel.x: "));
	assert_non_null(strstr(e.msg, "newline"));
	assert_int_equal(w.n, 2);
	words_free(&w);
}

static void merge_expect(const char *base, const char *add, const char *want)
{
	struct words b, a, out;
	struct bt_error e;
	char *s;

	words_init(&b);
	words_init(&a);
	words_init(&out);
	words_split(&b, base);
	words_split(&a, add);
	assert_int_equal(emit_merge(&b, &a, &out, 0, &e), 0);
	s = words_join(&out);
	assert_string_equal(s, want);
	free(s);
	words_free(&b);
	words_free(&a);
	words_free(&out);
}

static void test_merge(void **state)
{
	(void)state;
	/* In place, stale tracing words dropped, new ones at the end. */
	merge_expect("console=ttyS0 ftrace=nop root=/dev/sda ftrace_notrace=x quiet",
		     "ftrace=function ftrace_filter=f",
		     "console=ttyS0 ftrace=function root=/dev/sda quiet ftrace_filter=f");
	/* Repeats of a tracing word collapse into the one replacement. */
	merge_expect("trace_options=a trace_options=b", "trace_options=c",
		     "trace_options=c");
	/* Init's arguments stay after "--"; ours go before it. */
	merge_expect("ro -- single ftrace=x", "ftrace=function",
		     "ro ftrace=function -- single ftrace=x");
	/* boottrace.* words are ours too; '-' and '_' are one parameter. */
	merge_expect("boottrace.arm=a:mod:b ftrace-filter=x", "ftrace_filter=y",
		     "ftrace_filter=y");
	merge_expect("", "bootconfig", "bootconfig");
}

static void test_kcaps_version(void **state)
{
	struct kcaps k;
	struct bt_error e;

	(void)state;
	memset(&k, 0, sizeof(k));
	assert_int_equal(kcaps_has(&k, KF_BOOTCONFIG), -1);
	assert_int_equal(kcaps_set_version(&k, "5.10.0-28-amd64", &e), 0);
	assert_int_equal(k.version, KVER(5, 10));
	assert_int_equal(kcaps_has(&k, KF_KPROBE_EVENT), 1);
	assert_int_equal(kcaps_has(&k, KF_BOOT_SNAPSHOT), 0);
	assert_int_equal(kcaps_node_max(&k), 1024);
	assert_int_equal(kcaps_set_version(&k, "v6.1", &e), 0);
	assert_int_equal(kcaps_node_max(&k), 8192);
	assert_int_equal(kcaps_has(&k, KF_TRACE_INSTANCE), 0);
	assert_int_equal(kcaps_set_version(&k, "6.3", &e), 0);
	assert_int_equal(kcaps_has(&k, KF_TRACE_INSTANCE), 1);
	assert_int_equal(kcaps_set_version(&k, "six", &e), -1);
	assert_int_equal(e.code, BT_EXIT_USAGE);
	assert_int_equal(kcaps_set_version(&k, "6", &e), -1);
	assert_int_equal(kcaps_set_version(&k, "6.1x", &e), -1);
}

static void test_kcaps_config(void **state)
{
	char path[] = "/tmp/bt-kconfig-XXXXXX";
	struct kcaps k;
	struct bt_error e;
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	(void)state;
	fputs("# Linux/arm64 5.15.0 Kernel Configuration\nCONFIG_BOOT_CONFIG=y\n"
	      "# CONFIG_BOOTTIME_TRACING is not set\nCONFIG_KPROBE_EVENTS=m\n", f);
	fclose(f);
	memset(&k, 0, sizeof(k));
	assert_int_equal(kcaps_load_config(&k, path, &e), 0);
	assert_int_equal(k.version, KVER(5, 15));
	assert_int_equal(kcaps_opt(&k, KO_BOOT_CONFIG), KO_YES);
	assert_int_equal(kcaps_opt(&k, KO_BOOTTIME_TRACING), KO_NO);
	assert_int_equal(kcaps_opt(&k, KO_KPROBE_EVENTS), KO_YES);
	/* Not mentioned in a .config: not built. */
	assert_int_equal(kcaps_opt(&k, KO_SYNTH_EVENTS), KO_NO);
	f = fopen(path, "w");
	fputs("hello\n", f);
	fclose(f);
	memset(&k, 0, sizeof(k));
	assert_int_equal(kcaps_load_config(&k, path, &e), -1);
	assert_non_null(strstr(e.msg, "not a kernel .config"));
	unlink(path);
}

/*
 * Route @text as cmdline for kernel @kver on a board of @arch ("" =
 * unknown): 0 with the line and the hook's own words (malloc'd), or -1
 * with the message in @err.
 */
static int route_run(const char *text, const char *kver, const char *arch,
		     const struct route_opts *o, char **line, char **hook,
		     char *err, size_t esize)
{
	struct source src;
	struct board b;
	struct kcaps k;
	struct bt_error e;
	struct plan p;
	struct route r;
	int ret;

	memset(&k, 0, sizeof(k));
	memset(&b, 0, sizeof(b));
	b.cmdline_max = 2048;
	snprintf(b.arch, sizeof(b.arch), "%s", arch);
	bt_error_clear(&e);
	if (kver)
		assert_int_equal(kcaps_set_version(&k, kver, &e), 0);
	assert_int_equal(source_load_text("t.bconf", text, strlen(text), &src, &e), 0);
	ret = plan_build(&p, &src, &e);
	if (!ret) {
		route_init(&r, &p, &k, &b, o);
		ret = route_cmdline(&r, &e);
		if (!ret) {
			*line = words_join(&r.words);
			*hook = words_join(&r.hook_words);
		}
		route_free(&r);
		plan_free(&p);
	}
	if (ret)
		snprintf(err, esize, "%s", e.msg);
	source_free(&src);
	return ret;
}

/* Compile as route_run; compare, or expect an error. */
static void route_expect_arch(const char *text, const char *kver,
			      const char *arch, int drop, const char *want,
			      const char *err)
{
	struct route_opts o = { .allow_drop = drop };
	char *line, *hook, msg[1024], *en;

	if (route_run(text, kver, arch, &o, &line, &hook, msg, sizeof(msg))) {
		if (!err)
			fail_msg("unexpected error: %s", msg);
		if (!strstr(msg, err))
			fail_msg("error '%s' lacks '%s'", msg, err);
		return;
	}
	/* The hook's opt-in word has its own test (test_route_enable). */
	en = strstr(line, " boottrace.enable=1");
	if (en)
		memmove(en, en + 19, strlen(en + 19) + 1);
	else if (!strncmp(line, "boottrace.enable=1", 18))
		memmove(line, line + 18 + (line[18] == ' '), strlen(line + 18 + (line[18] == ' ')) + 1);
	assert_null(err);
	assert_string_equal(line, want);
	free(line);
	free(hook);
}

/* On a MIPS board: the trace clock never switches at boot (route_clock.c). */
static void route_expect(const char *text, const char *kver, int drop,
			 const char *want, const char *err)
{
	route_expect_arch(text, kver, "mips64el", drop, want, err);
}

static void test_route_clock(void **state)
{
	const char *fn = "ftrace.tracer = function\n";

	(void)state;
	/* Unknown or x86: trace_clock=global keeps the boot's trace. */
	route_expect_arch(fn, NULL, "", 0, "ftrace=function trace_clock=global", NULL);
	route_expect_arch(fn, NULL, "unknown", 0, "ftrace=function trace_clock=global", NULL);
	route_expect_arch(fn, NULL, "x86_64", 0, "ftrace=function trace_clock=global", NULL);
	route_expect_arch("ftrace.events = irq:*\n", NULL, "x86_64", 0,
			  "trace_clock=global trace_event=irq:*", NULL);
	/* The user's clock wins; nothing traced, nothing added. */
	route_expect_arch("ftrace.tracer = function\nftrace.trace_clock = local\n",
			  NULL, "x86_64", 0, "ftrace=function trace_clock=local", NULL);
	route_expect_arch("ftrace.tracer = nop\nkernel.quiet\n", NULL, "x86_64", 0,
			  "ftrace=nop quiet", NULL);
	route_expect_arch("boottrace.snapshot = console\n", NULL, "", 0,
			  "boottrace.snapshot=console", NULL);
	/* arm64, MIPS: sched_clock is not switched there. */
	route_expect_arch(fn, NULL, "arm64", 0, "ftrace=function", NULL);
}

/* Words of @text for 6.1, the hook's settings apart with @apart. */
static void route_enable_case(const char *text, int apart, const char *line,
			      const char *hook)
{
	struct route_opts o = { .hook_apart = apart };
	char *l, *h, msg[1024];

	assert_int_equal(route_run(text, "6.1", "mips64el", &o, &l, &h, msg, sizeof(msg)), 0);
	assert_string_equal(l, line);
	assert_string_equal(h, hook);
	free(l);
	free(h);
}

/*
 * Issue 15, class 1: every compiled line asks the installed hook into the
 * boot, once: boottrace.enable=1 unless a boottrace.* word already does
 * or the config says enable itself; with the settings in a file, the
 * word still goes on the line.
 */
static void test_route_enable(void **state)
{
	(void)state;
	route_enable_case("kernel.quiet\n", 0, "boottrace.enable=1 quiet", "");
	route_enable_case("init.x = 1\n", 0, "boottrace.enable=1 -- x=1", "");
	route_enable_case("boottrace.snapshot = console\n", 0, "boottrace.snapshot=console", "");
	route_enable_case("boottrace.enable = 0\nboottrace.raw = 1\n", 0, "boottrace.enable=0 boottrace.raw=1", "");
	route_enable_case("boottrace.snapshot = console\n", 1, "boottrace.enable=1", "boottrace.snapshot=console");
	route_enable_case("boottrace.arm = \"a:mod:b\"\n", 1, "boottrace.enable=1", "boottrace.arm=a:mod:b");
}

static void test_route_cmdline(void **state)
{
	(void)state;
	route_expect("ftrace.tracer = function\nftrace.ftrace.filters = a, b\n"
		     "ftrace.options = func_stack_trace, sym-addr\n", "4.9", 0,
		     "ftrace=function ftrace_filter=a,b trace_options=func_stack_trace,sym-addr",
		     NULL);
	route_expect("ftrace.event.sched.enable\nftrace.events = irq:*\n"
		     "ftrace.event.enable\n", NULL, 0,
		     "trace_event=irq:*,sched:*,*:*", NULL);
	route_expect("ftrace.cpumask = 3\n", NULL, 0, NULL, "cpumask has no command-line");
	route_expect("ftrace.cpumask = 3\nkernel.quiet\n", NULL, 1, "quiet", NULL);
	route_expect("ftrace.event.sched.sched_switch.actions = stacktrace\n", "6.1", 0,
		     NULL, "needs kernel 6.2");
	route_expect("ftrace.event.sched.sched_switch.actions = stacktrace, traceoff\n",
		     "6.2", 0, "trace_trigger=sched_switch.stacktrace,sched_switch.traceoff",
		     NULL);
	route_expect("ftrace.boot_snapshot\n", "5.10", 0, NULL, "needs kernel 5.18");
	route_expect("ftrace.dump_on_oops = 2\nftrace.tp_printk\n", NULL, 0,
		     "tp_printk ftrace_dump_on_oops=orig_cpu", NULL);
	route_expect("ftrace.fgraph.filters = a\nftrace.fgraph.max_depth = 2\n"
		     "ftrace.tracer = function_graph\n", NULL, 0,
		     "ftrace=function_graph ftrace_graph_filter=a ftrace_graph_max_depth=2",
		     NULL);
	route_expect("ftrace.ftrace.filters = f, \"g h\"\n", NULL, 0, NULL,
		     "contains a space");
	route_expect("ftrace.buffer_size = lots\n", NULL, 0, NULL, "not a number");
	route_expect("ftrace.event.synthetic.s.fields = \"int x\"\n", NULL, 0, NULL,
		     "synthetic events have no command-line");
	route_expect("boottrace.arm = bond_create\n", NULL, 0, NULL,
		     "is not FUNC:mod:MODULE");
	route_expect("boottrace.snapshot = console\nboottrace.arm = f:mod:m\n", NULL, 0,
		     "boottrace.arm=f:mod:m boottrace.snapshot=console", NULL);
	route_expect("boottrace.snapsht = console\n", NULL, 0, NULL,
		     "did you mean 'boottrace.snapshot'");
	route_expect("foo.bar = 1\n", NULL, 0, NULL, "unknown top-level key 'foo'");
	route_expect("ftrace.instance.a.tracer = function\n", "6.6", 0, NULL,
		     "trace_instance= carries only events");
}

/*
 * Every word boottrace.crash and boottrace.hang write is a row of
 * kernel/params.c (its name, version, .config option and early flag live
 * there only), and every crash row of it is written by some preset: a
 * parameter spelled in compile/route_crash.c itself, or a row it no
 * longer uses, fails here.
 */
static void crash_words(const char *text, unsigned char *seen)
{
	struct route_opts o = { 0 };
	struct source src;
	struct board b;
	struct kcaps k;
	struct bt_error e;
	struct plan p;
	struct route r;
	size_t i;

	memset(&k, 0, sizeof(k));
	memset(&b, 0, sizeof(b));
	b.cmdline_max = 2048;
	snprintf(b.arch, sizeof(b.arch), "x86_64");
	snprintf(b.console, sizeof(b.console), "ttyS0");
	snprintf(b.pstore_address, sizeof(b.pstore_address), "0x1f000000");
	b.pstore_size = 0x100000;
	snprintf(b.pstore_reserve, sizeof(b.pstore_reserve), "memmap");
	bt_error_clear(&e);
	assert_int_equal(kcaps_set_version(&k, "6.12", &e), 0);
	assert_int_equal(source_load_text("t.bconf", text, strlen(text), &src, &e), 0);
	assert_int_equal(plan_build(&p, &src, &e), 0);
	route_init(&r, &p, &k, &b, &o);
	if (route_cmdline(&r, &e))
		fail_msg("%s", e.msg);
	for (i = 0; i < r.words.n; i++) {
		const char *w = r.words.v[i];
		enum kparam id;

		if (!strncmp(w, "boottrace.", 10))
			continue;	/* the hook's, not the kernel's */
		id = kparam_find_any(w, words_param_len(w));
		if (id == KP_N)
			fail_msg("'%s' is written by a crash preset but is no row of kernel/params.c", w);
		seen[id] = 1;
	}
	route_free(&r);
	plan_free(&p);
	source_free(&src);
}

static void test_route_crash_params(void **state)
{
	unsigned char seen[KP_N] = { 0 };
	size_t i;

	(void)state;
	crash_words("boottrace.crash = console, pstore\nboottrace.hang = panic\nboottrace.hang_seconds = 60\n", seen);
	crash_words("kernel.trace_event = \"initcall:*\"\nboottrace.crash = persistent\nboottrace.hang = panic\n", seen);
	for (i = 0; i < KP_N; i++)
		if (kparam_get((enum kparam)i)->use == KPU_CRASH && !seen[i])
			fail_msg("kernel/params.c's crash row %s is written by no preset", kparam_name((enum kparam)i));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words_split),
		cmocka_unit_test(test_words_find),
		cmocka_unit_test(test_words_add_param),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_kcaps_version),
		cmocka_unit_test(test_kcaps_config),
		cmocka_unit_test(test_route_cmdline),
		cmocka_unit_test(test_route_enable),
		cmocka_unit_test(test_route_clock),
		cmocka_unit_test(test_route_crash_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
