/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rp_dump_extract (report_dump.c, issue 18): an ftrace_dump_on_oops dump in
 * a serial log. Real captures of tests/e2e/crash.sh's boots (panic, hang,
 * oops in a module's init, tests/data/traces/README.md) and variants made
 * from them by hand: cut in the middle of the dump, other console lines
 * and a lost-events line inside it, a minicom-style capture (timestamps,
 * escape codes). The trace of a damaged variant must be the real one's:
 * nothing guessed in, nothing of the other output let through.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "util/readfile.h"
#include "report/out/report.h"

#define DATA "tests/data/traces/"

struct got {
	struct rp_dump *d;
	char *trace;
	size_t len;
};

static char *slurp(const char *path, size_t *len)
{
	struct bt_error e;
	char *t = readfile(path, 1u << 24, 0, "a test log", len, &e);

	assert_non_null(t);
	return t;
}

static void extract(const char *path, struct got *g)
{
	struct bt_error e;
	size_t len;
	char *log = slurp(path, &len);

	bt_error_clear(&e);
	assert_int_equal(rp_dump_extract(log, len, &g->d, &g->trace, &g->len,
					 path, &e), 0);
	assert_non_null(g->d);
	free(log);
}

static void got_free(struct got *g)
{
	rp_dump_free(g->d);
	free(g->trace);
}

static int has_call(const struct rp_dump *d, const char *fn)
{
	unsigned i;

	for (i = 0; i < d->ncalls; i++)
		if (!strcmp(d->calls[i], fn))
			return 1;
	return 0;
}

static int last_has(const struct rp_dump_cpu *c, const char *s)
{
	unsigned k;

	for (k = 0; k < c->nlast; k++)
		if (strstr(c->last[(c->head + RP_DUMP_LAST - c->nlast + k) % RP_DUMP_LAST], s))
			return 1;
	return 0;
}

static void test_real_panic(void **state)
{
	struct got g = { 0 };

	(void)state;
	extract(DATA "qemu-6.1-dump-panic.log", &g);
	assert_string_equal(g.d->panic, "crashmod: device 0 failed to come up");
	assert_string_equal(g.d->oops, "");
	assert_string_equal(g.d->who, "CPU: 1 PID: 89 Comm: insmod");
	assert_true(has_call(g.d, "crashmod_init [crashmod]"));
	assert_true(has_call(g.d, "do_init_module"));
	assert_false(has_call(g.d, "0xffffffffc02b1000"));	/* "? " frames */
	assert_false(g.d->truncated);
	assert_int_equal(g.d->interleaved, 0);
	assert_int_equal(g.d->ndumps, 1);
	assert_int_equal(g.d->nopen, 1);
	assert_string_equal(g.d->open[0].func, "crashmod_init");
	assert_string_equal(g.d->open[0].module, "crashmod");
	assert_string_equal(g.d->open[0].task, "insmod-89");	/* "<...>-89" named */
	assert_int_equal(g.d->open[0].cpu, 1);
	assert_true(g.d->ncpu >= 2);
	assert_string_equal(g.d->cpu[1].task, "insmod-89");
	assert_true(last_has(&g.d->cpu[1], "crashmod_probe_device: "));
	assert_true(last_has(&g.d->cpu[1], "panic <-crashmod_init"));
	assert_false(last_has(&g.d->cpu[1], "<stack trace>"));
	/* the trace: no printk time, no CR, its stacks whole */
	assert_true(g.len > 0);
	assert_null(strstr(g.trace, "[    "));
	assert_null(strchr(g.trace, '\r'));
	assert_non_null(strstr(g.trace, "<stack trace>\n => "));
	assert_null(strstr(g.trace, "Dumping"));
	assert_null(strstr(g.trace, "-----"));
	got_free(&g);
}

static void test_real_hang(void **state)
{
	struct got g = { 0 };

	(void)state;
	extract(DATA "qemu-6.1-dump-hang.log", &g);
	assert_string_equal(g.d->panic, "softlockup: hung tasks");
	assert_non_null(strstr(g.d->oops, "BUG: soft lockup - CPU#0 stuck"));
	assert_string_equal(g.d->rip, "crashmod_spin+0xe/0x10 [crashmod]");
	assert_string_equal(g.d->open[0].func, "crashmod_init");
	assert_int_equal(g.d->open[0].cpu, 0);
	assert_string_equal(g.d->cpu[0].task, "insmod-89");
	assert_true(last_has(&g.d->cpu[0], "panic <-watchdog_timer_fn.cold"));
	assert_string_equal(g.d->cpu[1].task, "<idle>-0");
	got_free(&g);
}

static void test_real_oops(void **state)
{
	struct got g = { 0 };

	(void)state;
	extract(DATA "qemu-6.1-dump-oops.log", &g);
	assert_string_equal(g.d->panic, "");
	assert_string_equal(g.d->oops, "BUG: kernel NULL pointer dereference, address: 0000000000000000");
	assert_string_equal(g.d->rip, "crashmod_init+0x77/0x1000 [crashmod]");
	assert_string_equal(g.d->open[0].func, "crashmod_init");
	got_free(&g);
}

/* Cut in the middle: said, and the initcall not claimed open or closed. */
static void test_truncated(void **state)
{
	struct got g = { 0 }, real = { 0 };

	(void)state;
	extract(DATA "hand-dump-truncated.log", &g);
	extract(DATA "qemu-6.1-dump-panic.log", &real);
	assert_true(g.d->truncated);
	assert_true(g.d->lines < real.d->lines);
	assert_int_equal(g.d->nopen, 0);
	/* what came is the start of the real trace, nothing added */
	assert_true(g.len < real.len);
	assert_memory_equal(g.trace, real.trace, g.len);
	assert_string_equal(g.d->panic, real.d->panic);
	got_free(&g);
	got_free(&real);
}

/* Other console lines and a lost-events line inside it (one in a stack). */
static void test_interleaved(void **state)
{
	struct got g = { 0 }, real = { 0 };

	(void)state;
	extract(DATA "hand-dump-interleaved.log", &g);
	extract(DATA "qemu-6.1-dump-panic.log", &real);
	assert_int_equal(g.d->interleaved, 2);
	assert_string_equal(g.d->first_interleaved, "random: crng init done");
	assert_int_equal(g.d->lost, 17);
	assert_int_equal(g.d->cpu[1].lost, 17);
	assert_int_equal(g.d->lines, real.d->lines);
	assert_int_equal(g.len, real.len);
	assert_memory_equal(g.trace, real.trace, g.len);
	got_free(&g);
	got_free(&real);
}

/* Capture timestamps and escape codes: cleaned as report_console.c does. */
static void test_minicom(void **state)
{
	struct got g = { 0 }, real = { 0 };

	(void)state;
	extract(DATA "hand-dump-minicom.log", &g);
	extract(DATA "qemu-6.1-dump-hang.log", &real);
	assert_int_equal(g.len, real.len);
	assert_memory_equal(g.trace, real.trace, g.len);
	assert_string_equal(g.d->panic, real.d->panic);
	assert_string_equal(g.d->rip, real.d->rip);
	got_free(&g);
	got_free(&real);
}

static struct rp_dump *inline_dump(const char *log, char **trace)
{
	struct rp_dump *d = NULL;
	struct bt_error e;
	size_t len;

	bt_error_clear(&e);
	assert_int_equal(rp_dump_extract(log, strlen(log), &d, trace, &len,
					 "log", &e), 0);
	return d;
}

#define T(cpu, ts, body) "[    1.000000]   insmod-88        " cpu "..... " ts "us : " body "\n"

static void test_inline_cases(void **state)
{
	struct rp_dump *d;
	struct bt_error e;
	char *tr;

	(void)state;
	/* an initcall that finished is not named; uncounted lost events */
	d = inline_dump("[    1.0] Dumping ftrace buffer:\n"
			"[    1.0] ---------------------------------\n"
			T("0", "100", "initcall_start: func=foo_init+0x0/0x10")
			"[    1.0] CPU:0 [LOST EVENTS]\n"
			T("0", "200", "initcall_finish: func=foo_init+0x0/0x10 ret=0")
			"[    1.0] ---------------------------------\n", &tr);
	assert_int_equal(d->nopen, 0);
	assert_int_equal(d->initcall_events, 2);
	assert_true(d->lost_uncounted);
	assert_true(d->cpu[0].lost_uncounted);
	assert_int_equal(d->interleaved, 0);
	assert_false(d->truncated);
	rp_dump_free(d);
	free(tr);
	/* an empty buffer; two dumps (the first is read) */
	d = inline_dump("Dumping ftrace buffer:\n   (ftrace buffer empty)\n"
			"Dumping ftrace buffer:\n---------------------------------\n", NULL);
	assert_true(d->empty);
	assert_int_equal(d->ndumps, 2);
	assert_int_equal(d->later_empty, 0);
	assert_false(d->truncated);
	assert_int_equal(d->lines, 0);
	rp_dump_free(d);
	/* an oops, then the panic it caused (oops=panic): the second dump is empty */
	d = inline_dump("[    3.9] Oops: 0000 [#1] PREEMPT SMP NOPTI\n"
			"[    3.9] Dumping ftrace buffer:\n"
			"[    3.9] ---------------------------------\n"
			T("1", "100", "initcall_start: func=crashmod_init+0x0/0x1000 [crashmod]")
			"[    3.9] ---------------------------------\n"
			"[    5.3] Kernel panic - not syncing: Fatal exception\n"
			"[    5.3] Dumping ftrace buffer:\n"
			"[    5.3]    (ftrace buffer empty)\n", &tr);
	assert_int_equal(d->ndumps, 2);
	assert_int_equal(d->later_empty, 1);
	assert_false(d->empty);
	assert_int_equal(d->lines, 1);
	assert_string_equal(d->panic, "Fatal exception");
	assert_string_equal(d->oops, "Oops: 0000 [#1] PREEMPT SMP NOPTI");
	assert_string_equal(d->open[0].func, "crashmod_init");
	assert_string_equal(d->open[0].task, "insmod-88");
	rp_dump_free(d);
	free(tr);
	/* no dump: an error that says what to add */
	bt_error_clear(&e);
	d = (struct rp_dump *)1;
	assert_int_not_equal(rp_dump_extract("hello\n", 6, &d, NULL, NULL, "log", &e), 0);
	assert_null(d);
	assert_non_null(strstr(e.msg, "ftrace_dump_on_oops"));
	/* the log ends right after the first dashes */
	d = inline_dump("Dumping ftrace buffer:\n---------------------------------\n", NULL);
	assert_true(d->truncated);
	rp_dump_free(d);
}

/* A log with a console snapshot and a dump: the snapshot, the dump beside. */
/*
 * One pairing rule for initcalls (report_initcall.c): a finish closes its
 * own task's latest start, whatever function name it prints; a finish of
 * another task under the same name leaves the start open.
 */
static void test_initcall_by_task(void **state)
{
	struct rp_dump *d;
	char *tr;

	(void)state;
	d = inline_dump("[    1.0] Dumping ftrace buffer:\n"
			"[    1.0] ---------------------------------\n"
			T("1", "100", "initcall_start: func=crashmod_init+0x0/0x1000 [crashmod]")
			"[    1.0]  swapper/0-1       0..... 150us : initcall_finish: func=crashmod_init+0x0/0x1000 ret=0\n"
			"[    1.0]   modprobe-90       0..... 160us : initcall_start: func=0xffffffffc0101000\n"
			"[    1.0]   modprobe-90       0..... 170us : initcall_finish: func=other_init+0x0/0x10 ret=0\n"
			"[    1.0] ---------------------------------\n", &tr);
	assert_int_equal(d->nopen, 1);
	assert_string_equal(d->open[0].func, "crashmod_init");
	assert_string_equal(d->open[0].task, "insmod-88");
	rp_dump_free(d);
	free(tr);
}

static void test_input_both(void **state)
{
	char path[] = "/tmp/bt-test-dump-XXXXXX", *trace_path;
	struct rp_snap s;
	struct bt_error e;
	const char *kind;
	size_t a, b;
	char *snap = slurp(DATA "debian-6.1-console-stack.log", &a);
	char *dump = slurp(DATA "qemu-6.1-dump-panic.log", &b);
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	assert_non_null(f = fdopen(fd, "w"));
	fwrite(snap, 1, a, f);
	fwrite(dump, 1, b, f);
	fclose(f);
	bt_error_clear(&e);
	assert_int_equal(rp_input_open(path, 0, &s, &kind, &trace_path, &e), 0);
	assert_string_equal(kind, "console");
	assert_non_null(s.trace);
	assert_non_null(strstr(s.trace, "register_netdevice"));
	assert_non_null(s.dump);
	assert_string_equal(s.dump->panic, "crashmod: device 0 failed to come up");
	rp_snap_free(&s);
	free(trace_path);
	/* the dump alone */
	assert_int_equal(rp_input_open(DATA "qemu-6.1-dump-panic.log", 0, &s,
				       &kind, &trace_path, &e), 0);
	assert_string_equal(kind, "dump");
	assert_non_null(s.dump);
	assert_non_null(strstr(s.trace, "crashmod_probe_device: "));
	rp_snap_free(&s);
	free(trace_path);
	unlink(path);
	free(snap);
	free(dump);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_panic),
		cmocka_unit_test(test_real_hang),
		cmocka_unit_test(test_real_oops),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_minicom),
		cmocka_unit_test(test_inline_cases),
		cmocka_unit_test(test_input_both),
		cmocka_unit_test(test_initcall_by_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
