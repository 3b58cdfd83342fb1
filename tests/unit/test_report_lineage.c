/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lineage (report_proc.c, report_lineage.c, report_who.c): the lineage
 * events' bodies, the process table in trace order, and the answer in
 * words, on lines from a real capture (tests/data/traces/
 * debian-6.1-amd64-lineage.trace) and on the cases it does not hold
 * (blanks and "pid=" in names, pid reuse, a trace that starts late).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/out/report.h"

static int proc(const char *s, struct rp_proc_ev *pe)
{
	struct rp_line l;

	rp_parse_line(s, s + strlen(s), &l);
	return rp_proc_parse(&l, pe);
}

static void expect_s(const struct rp_proc_ev *pe, const char *want)
{
	assert_int_equal(pe->s_len, strlen(want));
	assert_memory_equal(pe->s, want, pe->s_len);
}

static void test_bodies(void **state)
{
	struct rp_proc_ev pe;

	(void)state;
	assert_int_equal(proc("            init-1       [001] .....     3.539704: sched_process_fork: comm=init pid=1 child_comm=init child_pid=85", &pe), 1);
	assert_int_equal(pe.kind, RP_PROC_FORK);
	assert_int_equal(pe.pid, 1);
	assert_int_equal(pe.child, 85);
	expect_s(&pe, "init");
	assert_int_equal(proc(" load-bonding.sh-91      [000] .....     3.792884: sched_process_exec: filename=/bin/load-bonding.sh pid=91 old_pid=91", &pe), 1);
	assert_int_equal(pe.kind, RP_PROC_EXEC);
	assert_int_equal(pe.pid, 91);
	expect_s(&pe, "/bin/load-bonding.sh");
	assert_int_equal(proc("          insmod-95      [001] .....     4.099856: sched_process_exit: comm=insmod pid=95 prio=120", &pe), 1);
	assert_int_equal(pe.kind, RP_PROC_EXIT);
	assert_int_equal(pe.pid, 95);
	expect_s(&pe, "insmod");
	assert_int_equal(proc("          insmod-95      [001] .....     4.063254: module_load: bonding ", &pe), 1);
	assert_int_equal(pe.kind, RP_PROC_MODLOAD);
	assert_int_equal(pe.pid, 95);
	expect_s(&pe, "bonding");
	assert_int_equal(proc("              ip-100     [001] .....     4.242822: module_request: rtnl-link-dummy wait=1 call_site=__rtnl_newlink", &pe), 1);
	assert_int_equal(pe.kind, RP_PROC_MODREQ);
	assert_int_equal(pe.pid, 100);
	expect_s(&pe, "rtnl-link-dummy");
	/* a comm with blanks and "pid=" in it, a path with blanks */
	assert_int_equal(proc("     Web Content-7       [000] .....     9.000001: sched_process_fork: comm=Web pid=3 x pid=7 child_comm=a pid=2 b child_pid=8", &pe), 1);
	assert_int_equal(pe.pid, 7);
	assert_int_equal(pe.child, 8);
	expect_s(&pe, "a pid=2 b");
	assert_int_equal(proc("            sh-9       [000] .....     9.000002: sched_process_exec: filename=/opt/my tools/run pid=9 old_pid=9", &pe), 1);
	expect_s(&pe, "/opt/my tools/run");
	/* not lineage, or not readable: 0 */
	assert_int_equal(proc("            sh-9       [000] .....     9.000003: sched_switch: prev_comm=sh prev_pid=9", &pe), 0);
	assert_int_equal(proc("            sh-9       [000] .....     9.000004: sched_process_fork: comm=sh pid=9 child_comm=x child_pid=99999999", &pe), 0);
	assert_int_equal(proc("            sh-9       [000] .....     9.000005: sched_process_exec: pid=9 old_pid=9", &pe), 0);
	assert_int_equal(proc("            sh-9       [000] .....     9.000006: register_netdevice <-bond_create", &pe), 0);
}

/* Lines of the real capture, cut to what the cases need. */
static const char capture[] =
	"# tracer: function\n"
	"          <idle>-0       [000] ...1.     0.230385: sched_process_fork: comm=swapper/0 pid=0 child_comm=swapper/0 child_pid=1\n"
	"          <idle>-0       [000] .N.1.     0.233958: sched_process_fork: comm=swapper/0 pid=0 child_comm=swapper/0 child_pid=2\n"
	"        kthreadd-2       [000] .....     0.872044: sched_process_fork: comm=kthreadd pid=2 child_comm=kthreadd child_pid=29\n"
	"            init-1       [001] .....     1.195419: register_netdevice <-register_netdev\n"
	"            init-1       [001] .....     3.372909: sched_process_exec: filename=/init pid=1 old_pid=1\n"
	"            init-1       [000] .....     3.788599: sched_process_fork: comm=init pid=1 child_comm=init child_pid=91\n"
	" load-bonding.sh-91      [000] .....     3.792884: sched_process_exec: filename=/bin/load-bonding.sh pid=91 old_pid=91\n"
	" load-bonding.sh-91      [000] .....     3.991131: sched_process_fork: comm=load-bonding.sh pid=91 child_comm=load-bonding.sh child_pid=95\n"
	"          insmod-95      [001] .....     4.063254: module_load: bonding \n"
	"          insmod-95      [001] .....     4.067390: register_netdevice <-bond_create\n"
	"          insmod-95      [001] .....     4.099856: sched_process_exit: comm=insmod pid=95 prio=120\n"
	"            init-1       [001] .....     4.138617: sched_process_fork: comm=init pid=1 child_comm=init child_pid=97\n"
	"   make-links.sh-97      [001] .....     4.147445: sched_process_exec: filename=/bin/make-links.sh pid=97 old_pid=97\n"
	"   make-links.sh-97      [001] .....     4.233575: sched_process_fork: comm=make-links.sh pid=97 child_comm=make-links.sh child_pid=100\n"
	"              ip-100     [001] .....     4.242822: module_request: rtnl-link-dummy wait=1 call_site=__rtnl_newlink\n"
	"    kworker/u4:1-29      [000] .....     4.250726: sched_process_fork: comm=kworker/u4:1 pid=29 child_comm=kworker/u4:1 child_pid=101\n"
	"        modprobe-101     [000] .....     4.257701: sched_process_exec: filename=/sbin/modprobe pid=101 old_pid=101\n"
	"        modprobe-101     [000] .....     4.290851: module_load: dummy \n"
	"        modprobe-101     [000] .....     4.305487: register_netdevice <-dummy_init_module\n"
	"              ip-100     [001] .....     4.326677: sched_process_exit: comm=ip pid=100 prio=120\n"
	/* pid 95 again, a new life: its lineage is the new one's */
	"   make-links.sh-97      [001] .....     5.000000: sched_process_fork: comm=make-links.sh pid=97 child_comm=make-links.sh child_pid=95\n"
	"          ip-95          [001] .....     5.000100: sched_process_exec: filename=/sbin/ip pid=95 old_pid=95\n";

static struct report *fed(const char *text)
{
	struct report *r = report_new();

	assert_non_null(r);
	assert_true(report_feed(r, text, strlen(text), 1) >= 0);
	return r;
}

#define S(x) ((uint64_t)(x * 1e6 + 0.5) * 1000ULL)

static void test_table(void **state)
{
	struct report *r = fed(capture);
	struct rp_lin_step st[RP_LIN_MAX];
	const char *task, *mod;
	uint64_t at;
	uint32_t n;

	(void)state;
	assert_true(rp_lineage_any(r));
	assert_int_equal(r->lin.n[RP_PROC_FORK], 9);
	/* lineage events are not listed as hits unless asked */
	n = 0;
	free(rp_fn_order(r, NULL, &n));
	assert_int_equal(n, 1);
	/* the TASK column says init-1 at 1.195 s, but pid 1 exec'd /init only at 3.37 s */
	n = rp_lineage_of(r, 1, S(1.195419), st, RP_LIN_MAX);
	assert_int_equal(n, 1);
	assert_null(st[0].prog);
	assert_true(st[0].kernel);
	/* insmod: a fork of the script that never exec'd */
	n = rp_lineage_of(r, 95, S(4.067390), st, RP_LIN_MAX);
	assert_int_equal(n, 3);
	assert_null(st[0].prog);
	assert_int_equal(st[0].name_len, 6);
	assert_memory_equal(st[0].name, "insmod", 6);
	assert_string_equal(st[1].prog, "/bin/load-bonding.sh");
	assert_true(st[1].exec_ts == S(3.792884));
	assert_string_equal(st[2].prog, "/init");
	assert_int_equal(st[2].pid, 1);
	assert_string_equal(rp_lineage_module(r, 95, S(4.067390)), "bonding");
	assert_null(rp_lineage_module(r, 95, S(4.0)));
	/* pid 95 reused at 5.0 s: the later life */
	n = rp_lineage_of(r, 95, S(5.0002), st, RP_LIN_MAX);
	assert_string_equal(st[0].prog, "/sbin/ip");
	assert_string_equal(st[1].prog, "/bin/make-links.sh");
	/* modprobe, started by a kernel worker: the request before its fork */
	n = rp_lineage_of(r, 101, S(4.305487), st, RP_LIN_MAX);
	assert_int_equal(n, 2);
	assert_string_equal(st[0].prog, "/sbin/modprobe");
	assert_true(st[1].kernel);
	assert_int_equal(st[1].name_len, 12);
	assert_memory_equal(st[1].name, "kworker/u4:1", 12);
	assert_int_equal(rp_lineage_request(r, st[0].fork_ts, &task, &mod, &at), 1);
	assert_string_equal(task, "ip-100");
	assert_string_equal(mod, "rtnl-link-dummy");
	/* a pid the trace never saw */
	n = rp_lineage_of(r, 4242, S(4.0), st, RP_LIN_MAX);
	assert_int_equal(n, 1);
	assert_int_equal(st[0].life, RP_NONE);
	report_delete(r);
}

static uint32_t id(struct report *r, const char *name)
{
	return rp_intern(&r->names, name, strlen(name));
}

static void test_answers(void **state)
{
	struct report *r = fed(capture);
	struct rp_who w;
	uint32_t p[8];

	(void)state;
	p[0] = id(r, "entry_SYSCALL_64_after_hwframe");
	p[1] = id(r, "do_syscall_64");
	p[2] = id(r, "__do_sys_finit_module");
	p[3] = id(r, "do_init_module");
	p[4] = id(r, "do_one_initcall");
	p[5] = id(r, "bonding_init");
	p[6] = id(r, "register_netdevice");
	assert_int_equal(rp_who(r, p, 7, "insmod-95", S(4.067390), &w), 0);
	assert_int_equal(w.kind, RP_WHO_MODULE);
	assert_string_equal(w.module, "bonding");
	assert_non_null(strstr(w.text, "the init of module bonding, loaded by insmod (pid 95: forked at 3.991131 s and never exec'd, so it runs /bin/load-bonding.sh"));
	assert_non_null(strstr(w.text, "run by /bin/load-bonding.sh (pid 91), run by /init (pid 1)"));
	assert_int_equal(rp_who(r, p, 7, "modprobe-101", S(4.305487), &w), 0);
	assert_non_null(strstr(w.text, "loaded by /sbin/modprobe (pid 101), run by the kernel worker kworker/u4:1 (pid 29), for the module request 'rtnl-link-dummy' of ip-100"));
	p[2] = id(r, "__sys_sendmsg");
	p[3] = id(r, "netlink_sendmsg");
	p[4] = id(r, "rtnl_newlink");
	p[5] = id(r, "bond_newlink");
	assert_int_equal(rp_who(r, p, 7, "ip-100", S(4.30), &w), 0);
	assert_int_equal(w.kind, RP_WHO_REQUEST);
	assert_string_equal(w.via, "netlink");
	assert_non_null(strstr(w.text, "a userspace request (netlink) from ip (pid 100"));
	p[0] = id(r, "ret_from_fork");
	p[1] = id(r, "kernel_init");
	p[2] = id(r, "kernel_init_freeable");
	p[3] = id(r, "do_one_initcall");
	p[4] = id(r, "net_dev_init");
	p[5] = id(r, "register_netdevice");
	assert_int_equal(rp_who(r, p, 6, "init-1", S(1.195419), &w), 0);
	assert_int_equal(w.kind, RP_WHO_INITCALL);
	assert_non_null(strstr(w.text, "a kernel initcall (built-in driver code, net_dev_init), run by the kernel's init thread (pid 1, before it execs init)"));
	report_delete(r);
	/* no lineage events: nothing to say */
	r = fed("# tracer: function\n          insmod-95      [001] .....     4.067390: register_netdevice <-bond_create\n");
	assert_int_equal(rp_who(r, p, 6, "insmod-95", S(4.067390), &w), -1);
	report_delete(r);
}

/* A lineage event with a stack (stacktrace trigger) stays a listed event. */
static void test_event_with_stack(void **state)
{
	struct report *r = fed("# tracer: nop\n"
			       "          insmod-95      [001] .....     4.063254: module_load: bonding \n"
			       "          insmod-95      [001] .....     4.063260: <stack trace>\n"
			       " => do_init_module\n => __do_sys_finit_module\n");
	uint32_t n = 0;

	(void)state;
	free(rp_fn_order(r, NULL, &n));
	assert_int_equal(n, 1);
	assert_int_equal(r->lin.n[RP_PROC_MODLOAD], 1);
	report_delete(r);
}

/* systemd execs as /sbin/init and renames itself: its own lines say so */
static void test_renamed_after_exec(void **state)
{
	struct report *r = fed("# tracer: function\n"
		"          <idle>-0       [000] ...1.     0.230385: sched_process_fork: comm=swapper/0 pid=0 child_comm=swapper/0 child_pid=1\n"
		"       systemd-1       [001] .....     3.372909: sched_process_exec: filename=/init pid=1 old_pid=1\n"
		"       systemd-1       [001] .....     5.000000: sched_process_exec: filename=/sbin/init pid=1 old_pid=1\n"
		"       systemd-1       [000] .....     9.100000: sched_process_fork: comm=systemd pid=1 child_comm=systemd child_pid=400\n"
		"    make-bond.sh-400   [000] .....     9.200000: sched_process_exec: filename=/usr/local/sbin/make-bond.sh pid=400 old_pid=400\n");
	struct rp_lin_step st[RP_LIN_MAX];
	char one[200];
	uint32_t n;

	(void)state;
	n = rp_lineage_of(r, 400, S(9.3), st, RP_LIN_MAX);
	assert_int_equal(n, 2);
	assert_string_equal(st[1].prog, "/sbin/init");
	rp_who_step(r, st, 2, 1, one, sizeof(one));
	assert_string_equal(one, "/sbin/init (pid 1, named systemd)");
	/* at 4 s pid 1 ran /init, an earlier exec: no name of its own is known */
	n = rp_lineage_of(r, 1, S(4.0), st, RP_LIN_MAX);
	rp_who_step(r, st, n, 0, one, sizeof(one));
	assert_string_equal(one, "/init (pid 1)");
	report_delete(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bodies),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_answers),
		cmocka_unit_test(test_event_with_stack),
		cmocka_unit_test(test_renamed_after_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
