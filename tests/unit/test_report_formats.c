/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace formats report recognizes (issue 15 class 6): the tracer
 * table (read, read as a graph, refused with its name), syscall events,
 * function_graph (nesting, durations, a task moving CPUs, returns named
 * in a comment), trace-cmd's report text and its funcgraph events. Lines
 * follow the kernel's printing code (kernel/trace/trace_functions_graph.c,
 * trace_syscalls.c of 6.1) and tests/data/traces/qemu-6.1-amd64-*.trace.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/out/report.h"

static void feed(struct report *r, const char *text)
{
	report_init(r);
	assert_int_equal(report_feed(r, text, strlen(text), 1), (long)strlen(text));
}

static const struct rp_fn *fn(const struct report *r, const char *name)
{
	uint32_t id = rp_intern_find(&r->names, name, strlen(name)), i;

	assert_true(id != RP_NONE);
	for (i = 0; i < r->nfn; i++)
		if (r->fn[i].name == id)
			return &r->fn[i];
	fail_msg("no function %s", name);
	return NULL;
}

static int has_parent(const struct report *r, const char *f, const char *p)
{
	uint32_t a = rp_intern_find(&r->names, f, strlen(f));
	uint32_t b = rp_intern_find(&r->names, p, strlen(p));

	return a != RP_NONE && b != RP_NONE &&
	       rp_pairs_find(&r->fn_parent, a, b) != NULL;
}

static void test_tracer_table(void **state)
{
	static const struct { const char *tracer; int refused; } t[] = {
		{ "function", 0 }, { "function_graph", 0 }, { "nop", 0 },
		{ "irqsoff", 0 }, { "wakeup_rt", 0 }, { "osnoise", 1 },
		{ "timerlat", 1 }, { "hwlat", 1 }, { "blk", 1 },
		{ "mmiotrace", 1 }, { "something_new", 1 },
	};
	char text[128];
	struct bt_error e;
	struct report r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(text, sizeof(text), "# tracer: %s\r\n#\n", t[i].tracer);
		feed(&r, text);
		bt_error_clear(&e);
		assert_int_equal(report_refused(&r, "x", &e), t[i].refused ? -1 : 0);
		if (t[i].refused) {
			assert_int_equal(e.code, BT_EXIT_INPUT);
			assert_non_null(strstr(e.msg, t[i].tracer));
		}
		report_free(&r);
	}
}

static void test_syscall_lines(void **state)
{
	static const char *const a = "          insmod-97      [000] ...1.     8.026033: sys_finit_module(fd: 3, uargs: 1e3a36a0, flags: 0)";
	static const char *const b = "          insmod-97      [000] ...1.     8.048884: sys_finit_module -> 0xffffffffffffffef";
	struct rp_line l;
	struct report r;

	(void)state;
	rp_parse_line(a, a + strlen(a), &l);
	assert_int_equal(l.kind, RP_EVENT);
	assert_int_equal(l.sys, 1);
	assert_int_equal(l.a_len, strlen("sys_finit_module"));
	rp_parse_line(b, b + strlen(b), &l);
	assert_int_equal(l.kind, RP_EVENT);
	assert_int_equal(l.sys, 2);
	assert_int_equal(l.a_len, strlen("sys_finit_module"));
	feed(&r, "# tracer: nop\n");
	report_free(&r);
	{
		char t[512];

		snprintf(t, sizeof(t), "# tracer: nop\n%s\n%s\n", a, b);
		feed(&r, t);
		assert_int_equal(fn(&r, "sys_enter_finit_module")->hits, 1);
		assert_int_equal(fn(&r, "sys_exit_finit_module")->hits, 1);
		assert_true(fn(&r, "sys_exit_finit_module")->is_event);
		assert_int_equal(r.skip.lines, 0);
		report_free(&r);
	}
}

/* The kernel layout: CPU column, durations, a migration, a named return. */
static const char graph[] =
	"# tracer: function_graph\n"
	"#\n"
	"# CPU  DURATION                  FUNCTION CALLS\n"
	"# |     |   |                     |   |   |   |\n"
	" 1)               |  register_netdevice() {\n"
	" 1)   1.183 us    |    __cond_resched();\n"
	" 1)               |    bond_init [bonding]() {\n"
	" 1)               |      alloc_workqueue() {\n"
	" 0) # 2736.053 us |      } /* alloc_workqueue */\n"
	" 0) + 13.015 us   |      bond_prepare_sysfs_group [bonding]();\n"
	" 0) # 3758.927 us |    } /* bond_init [bonding] */\n"
	" 0)               |    netdev_register_kobject() {\n"
	" 0) ! 110.009 us  |      device_initialize();\n"
	" 0) * 10940.10 us |    }\n"
	" 0) * 31139.92 us |  } /* register_netdevice */\n"
	" ------------------------------------------\n"
	" 0)  insmod-98    =>  kworker-7   \n"
	" ------------------------------------------\n"
	"\n"
	" 0)   2.000 us    |  linkwatch_event();\n";

static void test_function_graph(void **state)
{
	const struct rp_fn *f;
	struct report r;

	(void)state;
	feed(&r, graph);
	assert_int_equal(r.skip.lines, 0);
	assert_int_equal(r.entries, 12);
	f = fn(&r, "register_netdevice");
	assert_int_equal(f->hits, 1);
	assert_int_equal(f->dur_n, 1);
	assert_true(f->dur_total == 31139920);
	f = fn(&r, "alloc_workqueue");	/* returned on CPU 0 */
	assert_true(f->dur_total == 2736053);
	assert_true(has_parent(&r, "alloc_workqueue", "bond_init"));
	/* a call on CPU 0 below a call opened on CPU 1 */
	assert_true(has_parent(&r, "bond_prepare_sysfs_group", "bond_init"));
	assert_true(fn(&r, "bond_init")->dur_total == 3758927);
	assert_true(has_parent(&r, "device_initialize", "netdev_register_kobject"));
	assert_true(fn(&r, "netdev_register_kobject")->dur_total == 10940100);
	assert_true(has_parent(&r, "netdev_register_kobject", "register_netdevice"));
	/* the context switch names the task of the CPU */
	assert_true(rp_intern_find(&r.tasks, "kworker-7", 9) != RP_NONE);
	report_free(&r);
}

/* funcgraph-abstime and funcgraph-proc: the time and task of each call. */
static void test_function_graph_abstime_proc(void **state)
{
	static const char t[] =
		"# tracer: function_graph\n"
		"#\n"
		"#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		"#      |          |     |    |           |   |                     |   |   |   |\n"
		"    4.290720 |   0)  insmod-98    |               |  register_netdevice() {\n"
		"    4.290725 |   0)  insmod-98    |   1.183 us    |    __cond_resched();\n"
		"    4.290900 |   0)  insmod-98    | ! 180.000 us  |  }\n";
	const struct rp_fn *f;
	struct report r;

	(void)state;
	feed(&r, t);
	assert_int_equal(r.skip.lines, 0);
	assert_int_equal(r.ts_raw, 0);
	f = fn(&r, "__cond_resched");
	assert_true(f->first == 4290725000ULL);
	assert_true(has_parent(&r, "__cond_resched", "register_netdevice"));
	assert_true(fn(&r, "register_netdevice")->dur_total == 180000);
	assert_true(rp_intern_find(&r.tasks, "insmod-98", 9) != RP_NONE);
	report_free(&r);
}

/* The latency-format option adds a flags column (print_graph_lat_fmt). */
static void test_function_graph_latency_format(void **state)
{
	static const char t[] =
		"# tracer: function_graph\n"
		" 0)  d..1. |               |  register_netdevice() {\n"
		" 0)  d..1. |   1.183 us    |    __cond_resched();\n"
		" 0)  d..1. | ! 180.000 us  |  }\n";
	struct report r;

	(void)state;
	feed(&r, t);
	assert_int_equal(r.skip.lines, 0);
	assert_true(has_parent(&r, "__cond_resched", "register_netdevice"));
	assert_true(fn(&r, "register_netdevice")->dur_total == 180000);
	report_free(&r);
}

/* Any split of the text counts as one feed does. */
static void test_graph_chunked(void **state)
{
	size_t len = strlen(graph), cut;
	struct report a, b;
	long used;

	(void)state;
	feed(&a, graph);
	for (cut = 0; cut <= len; cut++) {
		report_init(&b);
		used = report_feed(&b, graph, cut, 0);
		assert_true(used >= 0 && (size_t)used <= cut);
		assert_int_equal(report_feed(&b, graph + used, len - (size_t)used, 1),
				 (long)(len - (size_t)used));
		assert_int_equal(a.entries, b.entries);
		assert_int_equal(a.nfn, b.nfn);
		assert_true(fn(&b, "register_netdevice")->dur_total == 31139920);
		report_free(&b);
	}
	report_free(&a);
}

static void test_trace_cmd(void **state)
{
	static const char t[] =
		"version = 6\n"
		"cpus=2\n"
		"CPU 1 is empty\n"
		"          insmod-115   [000]    11.216021: sys_enter_finit_module: fd: 0x00000003, uargs: 0x3ecf7710, flags: 0x00000000\n"
		"          insmod-115   [000]    11.246302: function:             register_netdevice <-- bond_create\n"
		"          insmod-122   [000]    26.482787: funcgraph_entry:                   |  register_netdevice() {\n"
		"          insmod-122   [000]    26.482816: funcgraph_entry:        2.886 us   |    mutex_is_locked();\n"
		"          insmod-122   [000]    26.482828: funcgraph_exit:       + 18.044 us  |  }\n";
	struct report r;

	(void)state;
	feed(&r, t);
	assert_int_equal(r.skip.lines, 0);
	assert_int_equal(r.hdr.tracecmd, 1);
	assert_int_equal(r.hdr.ncpu, 2);
	assert_int_equal(fn(&r, "register_netdevice")->hits, 2);
	assert_false(fn(&r, "register_netdevice")->is_event);
	assert_true(has_parent(&r, "register_netdevice", "bond_create"));
	assert_true(has_parent(&r, "mutex_is_locked", "register_netdevice"));
	assert_true(fn(&r, "register_netdevice")->dur_total == 18044);
	assert_true(fn(&r, "mutex_is_locked")->first == 26482816000ULL);
	assert_true(rp_intern_find(&r.names, "function", 8) == RP_NONE);
	report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracer_table),
		cmocka_unit_test(test_syscall_lines),
		cmocka_unit_test(test_function_graph),
		cmocka_unit_test(test_function_graph_abstime_proc),
		cmocka_unit_test(test_function_graph_latency_format),
		cmocka_unit_test(test_graph_chunked),
		cmocka_unit_test(test_trace_cmd),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
