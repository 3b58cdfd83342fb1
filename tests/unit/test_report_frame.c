/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Frame normalization (report_frame.c, called by rp_check): the parts of
 * a sym-offset frame, ftrace's own frames, an offset past its function's
 * size, and a module's freed init code named after the module loaded into
 * it later, on lines of a real capture (tests/data/traces/
 * debian-6.1-amd64-frames.trace) and on the cases it does not hold.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/out/report.h"

static void test_parse(void **state)
{
	struct rp_frame_text ft;
	const char *f;

	(void)state;
	f = "dummy_change_carrier+0x4/0x30 [dummy]";
	rp_frame_parse(f, strlen(f), &ft);
	assert_int_equal(ft.name_len, 20);
	assert_true(ft.has_off);
	assert_true(ft.off == 4 && ft.size == 0x30);
	assert_int_equal(ft.mod_len, 5);
	assert_memory_equal(ft.mod, "dummy", 5);
	f = "register_netdevice+0x1/0x7e0";
	rp_frame_parse(f, strlen(f), &ft);
	assert_int_equal(ft.name_len, 18);
	assert_true(ft.off == 1 && ft.size == 0x7e0);
	assert_null(ft.mod);
	f = "bond_create";
	rp_frame_parse(f, strlen(f), &ft);
	assert_int_equal(ft.name_len, 11);
	assert_false(ft.has_off);
	assert_null(ft.mod);
	f = "0xffffffffc0383083";
	rp_frame_parse(f, strlen(f), &ft);
	assert_int_equal(ft.name_len, strlen(f));
	assert_false(ft.has_off);
	/* not a module: a blank inside, or no closing bracket */
	f = "foo+0x1/0x2 [a b]";
	rp_frame_parse(f, strlen(f), &ft);
	assert_null(ft.mod);
	f = "foo+0x1/0x2 [ab";
	rp_frame_parse(f, strlen(f), &ft);
	assert_null(ft.mod);
	/* an offset with no size is no sym-offset pair */
	f = "foo+0x10 [m]";
	rp_frame_parse(f, strlen(f), &ft);
	assert_false(ft.has_off);
}

static struct report *checked(const char *text, struct rp_findings *q)
{
	struct report *r = report_new();

	assert_non_null(r);
	assert_true(report_feed(r, text, strlen(text), 1) >= 0);
	assert_int_equal(rp_check(r, NULL, NULL, q), 0);
	return r;
}

/* Frame @i of the stack that has frame @name, or NULL. */
static const char *frame_of(const struct report *r, const char *name,
			    uint32_t i)
{
	uint32_t k, j;

	for (k = 0; k < r->stacks.n; k++)
		for (j = 0; j < r->stacks.s[k].nframes; j++)
			if (!strcmp(rp_str(&r->names, r->stacks.s[k].frame[j]), name))
				return i < r->stacks.s[k].nframes ?
				       rp_str(&r->names, r->stacks.s[k].frame[i]) : NULL;
	return NULL;
}

static int has_finding(const struct rp_findings *q, const char *code)
{
	int k;

	for (k = 0; k < q->n; k++)
		if (!strcmp(q->v[k].code, code))
			return 1;
	return 0;
}

#define HDR "# tracer: function\n"
#define LOAD(t, m) "          insmod-97      [001] .....     " t ": module_load: " m " \n"
#define HIT "          insmod-97      [001] ...1.     3.979217: register_netdevice+0x0/0x7e0 <-bond_create+0x62/0xb0 [bonding]\n" \
	"          insmod-97      [001] ...1.     3.979248: <stack trace>\n"
#define TAIL " => do_one_initcall+0x59/0x220\n => do_init_module+0x4a/0x1f0\n" \
	" => __do_sys_finit_module+0xac/0x120\n => do_syscall_64+0x5d/0x90\n"
#define LATER "        modprobe-103     [001] .....     4.250983: module_load: dummy \n"

/* The real capture: bonding's init read as dummy's code (dummy loaded later). */
static void test_late_module(void **state)
{
	struct rp_findings q;
	struct report *r = checked(HDR LOAD("3.964928", "bonding") HIT
				   " => arch_ftrace_ops_list_func+0x112/0x1d0\n"
				   " => ftrace_regs_call+0x5/0x52\n"
				   " => register_netdevice+0x5/0x7e0\n"
				   " => bond_create+0x62/0xb0 [bonding]\n"
				   " => dummy_change_carrier+0x4/0x30 [dummy]\n" TAIL LATER, &q);

	(void)state;
	assert_string_equal(frame_of(r, "do_one_initcall", 4), "[init of bonding]");
	assert_string_equal(frame_of(r, "do_one_initcall", 3), "bond_create");
	assert_true(has_finding(&q, "freed-init"));
	assert_int_equal(q.frames.init_renamed, 1);
	/* ftrace's own frames are machinery, not callers */
	assert_true(r->stacks.s[0].flag[0] & RP_FR_TRAMP);
	assert_true(r->stacks.s[0].flag[1] & RP_FR_TRAMP);
	report_delete(r);
}

/* The init's own module shown: its name is believed. */
static void test_own_module_kept(void **state)
{
	struct rp_findings q;
	struct report *r = checked(HDR LOAD("3.964928", "bonding") HIT
				   " => bond_create+0x62/0xb0 [bonding]\n"
				   " => bonding_init+0x4/0x90 [bonding]\n" TAIL LATER, &q);

	(void)state;
	assert_string_equal(frame_of(r, "do_one_initcall", 1), "bonding_init");
	assert_false(has_finding(&q, "freed-init"));
	report_delete(r);
}

/* No module shown (no sym-offset): believed unless a module came later. */
static void test_no_module_shown(void **state)
{
	struct rp_findings q;
	struct report *r = checked(HDR LOAD("3.964928", "bonding") HIT
				   " => bond_create\n => dummy_change_carrier\n"
				   " => do_one_initcall\n => do_init_module\n" LATER, &q);

	(void)state;
	assert_string_equal(frame_of(r, "do_one_initcall", 1), "[init of bonding]");
	report_delete(r);
	r = checked(HDR LOAD("3.964928", "bonding") HIT
		    " => bond_create\n => bonding_init\n"
		    " => do_one_initcall\n => do_init_module\n", &q);
	assert_string_equal(frame_of(r, "do_one_initcall", 1), "bonding_init");
	assert_false(has_finding(&q, "freed-init"));
	report_delete(r);
}

/*
 * No module_load event: not decidable, said so; the name is marked
 * unverified, never printed as a plain name (issue 22).
 */
static void test_no_module_events(void **state)
{
	struct rp_findings q;
	struct report *r = checked(HDR HIT " => bond_create\n => bonding_init\n"
				   " => do_one_initcall\n => do_init_module\n", &q);

	(void)state;
	assert_string_equal(frame_of(r, "do_one_initcall", 1), "[unverified bonding_init]");
	assert_string_equal(frame_of(r, "bond_create", 0), "bond_create");
	assert_true(has_finding(&q, "init-unchecked"));
	assert_int_equal(q.frames.init_unchecked, 1);
	report_delete(r);
	/* a built-in initcall is no module's init: nothing to check */
	r = checked(HDR "            init-1       [000] .....     1.254900: register_netdevice <-register_netdev\n"
		    "            init-1       [000] .....     1.254901: <stack trace>\n"
		    " => register_netdev\n => loopback_net_init\n => do_one_initcall\n => kernel_init_freeable\n", &q);
	assert_false(has_finding(&q, "init-unchecked"));
	report_delete(r);
}

/* A deeper frame of a module loaded after the stack: init code too. */
static void test_deeper_late_frame(void **state)
{
	struct rp_findings q;
	struct report *r = checked(HDR LOAD("3.964928", "bonding") HIT
				   " => sr_done+0x10/0x40 [sr_mod]\n"
				   " => bonding_init+0x4/0x90 [bonding]\n" TAIL
				   "        modprobe-103     [001] .....     4.250983: module_load: sr_mod \n", &q);

	(void)state;
	assert_string_equal(frame_of(r, "do_one_initcall", 0), "[init of bonding]");
	assert_string_equal(frame_of(r, "do_one_initcall", 1), "bonding_init");
	report_delete(r);
}

/* The names of @fn's "<-parent" column, "NAME:COUNT ..." */
static void parents_of(const struct report *r, const char *fn, char *buf,
		       size_t cap)
{
	struct rp_count **v;
	uint32_t id;
	size_t n, i, len = 0;

	buf[0] = '\0';
	for (id = 0; id < r->names.n; id++)
		if (!strcmp(rp_str(&r->names, id), fn))
			break;
	v = rp_pairs_of(&r->fn_parent, id, &n);
	assert_non_null(v);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s:%llu",
					i ? " " : "",
					rp_str(&r->names, rp_key_b(v[i])),
					(unsigned long long)v[i]->n);
	free(v);
}

/*
 * The real capture of tests/e2e/frames.sh: ifb's init called
 * register_netdevice directly, nlmon loaded into its freed code later, so
 * the "<-parent" column says nlmon_validate. The column is named when the
 * trace is read, as the stack is, and must say what the stack says.
 */
static void test_parent_column(void **state)
{
	char buf[256];
	struct rp_findings q;
	struct report *r = checked(HDR "          insmod-100     [000] .....     4.750000: module_load: ifb \n"
				   "          insmod-100     [000] ...1.     4.756488: register_netdevice+0x0/0x7e0 <-nlmon_validate+0x2/0x20 [nlmon]\n"
				   "          insmod-100     [000] ...1.     4.756629: <stack trace>\n"
				   " => arch_ftrace_ops_list_func+0x112/0x1d0\n => ftrace_regs_call+0x5/0x52\n"
				   " => register_netdevice+0x5/0x7e0\n => nlmon_validate+0x2/0x20 [nlmon]\n" TAIL
				   "          insmod-101     [000] ...1.     4.900000: register_netdevice+0x0/0x7e0 <-nlmon_validate+0x2/0x20 [nlmon]\n"
				   "          insmod-104     [000] .....     5.037305: module_load: nlmon \n", &q);

	(void)state;
	assert_string_equal(frame_of(r, "do_one_initcall", 3), "[init of ifb]");
	/* the hit with the stack follows it; the one without keeps the column */
	parents_of(r, "register_netdevice", buf, sizeof(buf));
	assert_non_null(strstr(buf, "[init of ifb]:1"));
	assert_non_null(strstr(buf, "nlmon_validate:1"));
	assert_int_equal(strlen(buf), strlen("[init of ifb]:1 nlmon_validate:1"));
	report_delete(r);
}

/* The id of @name in @r's names (it must be there). */
static uint32_t name_id(const struct report *r, const char *name)
{
	uint32_t id = rp_intern_find(&r->names, name, strlen(name));

	assert_int_not_equal(id, RP_NONE);
	return id;
}

/*
 * sym-offset's " [MODULE]" is kept and shown (issue 22 item 5): from a
 * stack frame, from a function line's parent and from its function, each
 * name printed "NAME [MODULE]"; a core name and a renamed frame as they
 * are; a name shown in two modules (two static functions of one name)
 * with neither, since the merged counts belong to both.
 */
static void test_module_shown(void **state)
{
	char buf[256];
	struct rp_findings q;
	struct report *r = checked(HDR LOAD("3.964928", "bonding") HIT
				   " => register_netdevice+0x5/0x7e0\n"
				   " => bond_create+0x62/0xb0 [bonding]\n"
				   " => dummy_change_carrier+0x4/0x30 [dummy]\n" TAIL LATER
				   "          insmod-98      [001] ...1.     4.000000: veth_newlink+0x0/0x90 [veth] <-rtnl_newlink+0x40/0x90\n"
				   "          insmod-98      [001] ...1.     4.100000: setup+0x0/0x10 [veth] <-veth_newlink+0x5/0x90 [veth]\n"
				   "          insmod-98      [001] ...1.     4.200000: setup+0x0/0x10 [vrf] <-veth_newlink+0x5/0x90 [veth]\n", &q);

	(void)state;
	assert_string_equal(rp_name(r, name_id(r, "bond_create")), "bond_create [bonding]");
	assert_string_equal(rp_name_module(r, name_id(r, "bond_create")), "bonding");
	assert_string_equal(rp_name(r, name_id(r, "veth_newlink")), "veth_newlink [veth]");
	/* a function's own " [MODULE]" before "<-" still leaves its parent */
	parents_of(r, "veth_newlink", buf, sizeof(buf));
	assert_string_equal(buf, "rtnl_newlink:1");
	assert_string_equal(rp_name(r, name_id(r, "register_netdevice")), "register_netdevice");
	assert_null(rp_name_module(r, name_id(r, "register_netdevice")));
	assert_string_equal(rp_name(r, name_id(r, "rtnl_newlink")), "rtnl_newlink");
	/* the frame renamed [init of bonding] keeps no module of dummy's */
	assert_string_equal(rp_name(r, name_id(r, "[init of bonding]")), "[init of bonding]");
	/* dummy's code was there: its own name keeps its module */
	assert_string_equal(rp_name(r, name_id(r, "dummy_change_carrier")), "dummy_change_carrier [dummy]");
	assert_string_equal(rp_name(r, name_id(r, "setup")), "setup");
	assert_null(rp_name_module(r, name_id(r, "setup")));
	report_delete(r);
}

/* The culprit-side name of the chain node of @fn under do_one_initcall. */
static const char *chain_entry(const struct report *r)
{
	uint32_t n;

	for (n = 0; n < r->chains.n; n++) {
		uint32_t up = r->chains.node[n].up;

		if (up != RP_NONE &&
		    !strcmp(rp_str(&r->names, r->chains.node[up].fn), "do_one_initcall"))
			return rp_str(&r->names, r->chains.node[n].fn);
	}
	return NULL;
}

/* A chain node @fn whose parent node is @up. */
static int has_parent_chain(const struct report *r, const char *up, const char *fn)
{
	uint32_t n;

	for (n = 0; n < r->chains.n; n++) {
		uint32_t u = r->chains.node[n].up;

		if (u != RP_NONE &&
		    !strcmp(rp_str(&r->names, r->chains.node[n].fn), fn) &&
		    !strcmp(rp_str(&r->names, r->chains.node[u].fn), up))
			return 1;
	}
	return 0;
}

#define CHAIN "         busybox-85      [000] .....     3.109408: bonding_init <-do_one_initcall\n" \
	"         busybox-85      [000] .....     3.111247: bond_create <-bonding_init\n"

/*
 * Parent chains (tests/data/traces/debian-6.1-mips64el-parent.trace): a
 * module-loading task's "F <-do_one_initcall" is a module's init entry,
 * checked as a stack's; a built-in initcall's is not.
 */
static void test_chain_entry(void **state)
{
	struct rp_findings q;
	struct report *r = checked(HDR CHAIN, &q);

	(void)state;
	assert_string_equal(chain_entry(r), "[unverified bonding_init]");
	assert_true(has_finding(&q, "init-unchecked"));
	report_delete(r);
	/* its task's module_load, nothing loaded after: believed */
	r = checked(HDR "         busybox-85      [000] .....     3.100000: module_load: bonding \n" CHAIN, &q);
	assert_string_equal(chain_entry(r), "bonding_init");
	assert_false(has_finding(&q, "init-unchecked"));
	report_delete(r);
	/* a module loaded since: the init of the task's module */
	r = checked(HDR "         busybox-85      [000] .....     3.100000: module_load: bonding \n" CHAIN
		    "         busybox-90      [000] .....     4.000000: module_load: sr_mod \n", &q);
	assert_string_equal(chain_entry(r), "[init of bonding]");
	assert_true(has_finding(&q, "freed-init"));
	report_delete(r);
	/* sym-offset shows the entry in the task's module: believed though a module came later */
	r = checked(HDR "         busybox-85      [000] .....     3.100000: module_load: bonding \n"
		    "         busybox-85      [000] .....     3.109408: bonding_init+0x0/0x90 [bonding] <-do_one_initcall+0x59/0x220\n"
		    "         busybox-90      [000] .....     4.000000: module_load: sr_mod \n", &q);
	assert_string_equal(chain_entry(r), "bonding_init");
	assert_false(has_finding(&q, "freed-init"));
	report_delete(r);
	/* a deeper parent shown in a module first loaded after the hit: init code too */
	r = checked(HDR "         busybox-85      [000] .....     3.100000: module_load: bonding \n"
		    "         busybox-85      [000] .....     3.109408: bonding_init+0x0/0x90 [bonding] <-do_one_initcall+0x59/0x220\n"
		    "         busybox-85      [000] .....     3.109900: sr_done+0x0/0x40 [sr_mod] <-bonding_init+0x20/0x90 [bonding]\n"
		    "         busybox-85      [000] .....     3.110000: bond_create+0x0/0xb0 [bonding] <-sr_done+0x10/0x40 [sr_mod]\n"
		    "         busybox-90      [000] .....     4.000000: module_load: sr_mod \n", &q);
	assert_true(has_parent_chain(r, "[init of bonding]", "bond_create"));
	assert_int_equal(q.frames.init_renamed, 1);
	report_delete(r);
	/* swapper's initcall is built in: never freed before the read */
	r = checked(HDR "       swapper/0-1       [000] .....     0.285107: net_dev_init <-do_one_initcall\n", &q);
	assert_string_equal(chain_entry(r), "net_dev_init");
	assert_false(has_finding(&q, "init-unchecked"));
	report_delete(r);
}

/* An offset at or past the function's size: not that function. */
static void test_offset_past_size(void **state)
{
	struct rp_findings q;
	struct report *r = checked(HDR "              ip-100     [000] ...1.     4.082514: register_netdevice+0x0/0x7e0 <-bond_newlink+0x2a/0x60 [bonding]\n"
				   "              ip-100     [000] ...1.     4.082515: <stack trace>\n"
				   " => bond_newlink+0x2a/0x60 [bonding]\n"
				   " => __rtnl_newlink+0x6c0/0x6b0\n"
				   " => rtnl_newlink+0x44/0x70\n", &q);

	(void)state;
	assert_string_equal(frame_of(r, "bond_newlink", 1), "[unverified __rtnl_newlink]");
	assert_string_equal(frame_of(r, "bond_newlink", 2), "rtnl_newlink");
	assert_true(has_finding(&q, "unverified-frames"));
	report_delete(r);
}

/*
 * A kprobe reached through ftrace: the tracer's frames, ftrace's list
 * function, then the trampoline's raw address: all machinery.
 */
static void test_kprobe_machinery(void **state)
{
	struct rp_findings q;
	struct report *r = checked("# tracer: nop\n"
				   "          insmod-97      [001] ...1.     3.971907: rnd: (register_netdevice+0x0/0x7e0) name=\"bond%d\"\n"
				   "          insmod-97      [001] ...1.     3.979097: <stack trace>\n"
				   " => kprobe_trace_func+0x1/0x10\n => kprobe_dispatcher+0x1/0x10\n"
				   " => kprobe_ftrace_handler+0x1/0x10\n => arch_ftrace_ops_list_func+0x112/0x1d0\n"
				   " => 0xffffffffc0383083\n => register_netdevice+0x5/0x7e0\n"
				   " => bond_create+0x62/0xb0 [bonding]\n", &q);
	const struct rp_stack *s = &r->stacks.s[0];

	(void)state;
	assert_true(s->flag[3] & RP_FR_TRAMP);
	assert_true(s->flag[4] & RP_FR_TRAMP);
	assert_false(s->flag[6] & (RP_FR_TRAMP | RP_FR_TRACER));
	report_delete(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_late_module),
		cmocka_unit_test(test_own_module_kept),
		cmocka_unit_test(test_no_module_shown),
		cmocka_unit_test(test_no_module_events),
		cmocka_unit_test(test_deeper_late_frame),
		cmocka_unit_test(test_offset_past_size),
		cmocka_unit_test(test_parent_column),
		cmocka_unit_test(test_module_shown),
		cmocka_unit_test(test_chain_entry),
		cmocka_unit_test(test_kprobe_machinery),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
