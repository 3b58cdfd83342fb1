// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record/record_join.c: the time and CPU of a trace line in each layout the
 * kernel prints with times, and the join of a snapshot's trace with the live
 * one (per CPU, ties, gaps, a cut last line, a side without times), on
 * traces captured from real boots (tests/data/traces) and small fixtures.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "record/record.h"
#include "report/out/report.h"

static int line(const char *s, int *cpu, uint64_t *ts, int *raw)
{
	return report_line_time(s, s + strlen(s), cpu, ts, raw);
}

static void test_line_time(void **state)
{
	int cpu = -1, raw = -1;
	uint64_t ts = 0;

	(void)state;
	/* 6.1 default layout with irq-info flags */
	assert_int_equal(line("         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create", &cpu, &ts, &raw), 1);
	assert_int_equal(cpu, 0);
	assert_int_equal(raw, 0);
	assert_true(ts == 2406358000ull);
	/* the TGID column, CPU 12 */
	assert_int_equal(line("          <idle>-0       (-------) [012] d..2.   123.000001: foo <-bar", &cpu, &ts, &raw), 1);
	assert_int_equal(cpu, 12);
	assert_true(ts == 123000001000ull);
	/* without irq-info: the time right after the CPU */
	assert_int_equal(line("            init-1     [001]    0.912001: do_one_initcall <-kernel_init", &cpu, &ts, &raw), 1);
	assert_int_equal(cpu, 1);
	assert_true(ts == 912001000ull);
	/* a counter clock */
	assert_int_equal(line("              sh-5     [003] .....  98765432: sched_process_exec: filename=/bin/ip", &cpu, &ts, &raw), 1);
	assert_int_equal(raw, 1);
	assert_true(ts == 98765432ull);
	/* a task name with spaces and brackets before the CPU column */
	assert_int_equal(line("  kworker/u4:0 [x]-7     [001] .....     5.000000: f <-g", &cpu, &ts, &raw), 1);
	assert_int_equal(cpu, 1);
	/* not events */
	assert_int_equal(line("# entries-in-buffer/entries-written: 2/2   #P:2", &cpu, &ts, &raw), 0);
	assert_int_equal(line(" => register_netdevice", &cpu, &ts, &raw), 0);
	assert_int_equal(line("##### CPU 1 buffer started ####", &cpu, &ts, &raw), 0);
	assert_int_equal(line(" 1)   0.123 us    |  foo();", &cpu, &ts, &raw), 0);
	assert_int_equal(line("", &cpu, &ts, &raw), 0);
	/* the body's own words are not the time */
	assert_int_equal(line("            init-1     [001] .... x y 5.0: f", &cpu, &ts, &raw), 0);
}

static int memfd_of(const char *text)
{
	int fd = memfd_create("trace", 0);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

/* Join two texts; the output in a malloc'd string. */
static char *join(const char *snap, const char *live, struct record_join *j)
{
	struct bt_error e;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int s = memfd_of(snap), l = live ? memfd_of(live) : -1;

	assert_non_null(f);
	bt_error_clear(&e);
	assert_int_equal(record_join(s, "snap", l, "live", f, j, &e), 0);
	fclose(f);
	close(s);
	if (l >= 0)
		close(l);
	return out;
}

#define HDR "# tracer: function\n#\n"
#define EV(cpu, t, body) "          task-1     [00" #cpu "] .....     " t ": " body "\n"

static void test_join_overlap_and_ties(void **state)
{
	struct record_join j;
	const char *snap = HDR EV(0, "1.000000", "a") EV(1, "1.500000", "b")
		EV(0, "2.000000", "c") " => frame_c\n" EV(0, "2.000000", "d");
	const char *live = HDR "# entries-in-buffer/entries-written: 7/9   #P:2\n"
		EV(0, "1.000000", "a") EV(1, "1.500000", "b") EV(0, "2.000000", "c")
		" => frame_c\n" EV(0, "2.000000", "d") EV(0, "2.000000", "e")
		" => frame_e\n" EV(1, "1.700000", "f") EV(0, "3.000000", "g");
	char *out;

	(void)state;
	out = join(snap, live, &j);
	/* the snapshot whole, then e (a third event at CPU 0's last time,
	 * with its frame), f, g */
	assert_string_equal(out, "# tracer: function\n#\n" EV(0, "1.000000", "a") EV(1, "1.500000", "b")
		EV(0, "2.000000", "c") " => frame_c\n" EV(0, "2.000000", "d")
		EV(0, "2.000000", "e") " => frame_e\n" EV(1, "1.700000", "f") EV(0, "3.000000", "g"));
	assert_int_equal(j.snap_events, 4);
	assert_int_equal(j.live_events, 3);
	assert_int_equal(j.overlap, 4);
	assert_int_equal(j.ngaps, 0);
	assert_int_equal(j.untimed, 0);
	assert_int_equal(j.have_live_entries, 1);
	assert_true(j.live_in_buffer == 7 && j.live_written == 9);
	assert_true(j.snap_last == 2000000000ull);
	assert_true(j.live_first == 2000000000ull && j.live_last == 3000000000ull);
	free(out);
	record_join_free(&j);
}

static void test_join_gaps(void **state)
{
	struct record_join j;
	const char *snap = HDR EV(0, "1.000000", "a") EV(1, "1.500000", "b") EV(2, "1.600000", "c");
	/* CPU 0 wrapped (starts at 4), CPU 1 still reaches back, CPU 2 cleared */
	const char *live = HDR "##### CPU 0 buffer started ####\n" EV(1, "1.500000", "b")
		EV(0, "4.000000", "x") EV(1, "5.000000", "y");
	char *out = join(snap, live, &j);
	char t[32];

	(void)state;
	assert_int_equal(j.live_events, 2);
	assert_int_equal(j.ngaps, 2);
	assert_int_equal(j.gaps[0].cpu, 0);
	assert_int_equal(j.gaps[0].cleared, 0);
	assert_true(j.gaps[0].from == 1000000000ull && j.gaps[0].to == 4000000000ull);
	assert_int_equal(j.gaps[1].cpu, 2);
	assert_int_equal(j.gaps[1].cleared, 1);
	record_time_str(j.gaps[1].from, j.raw, t, sizeof(t));
	assert_string_equal(t, "1.600000");
	/* the live header and the CPU-start line before the first kept event are not copied */
	assert_null(strstr(out + strlen(snap), "#####"));
	free(out);
	record_join_free(&j);
}

static void test_join_cut_and_older(void **state)
{
	struct record_join j;
	const char *snap = HDR EV(0, "1.000000", "a") "          task-1     [001] .....     1.2";
	/* CPU 1 has no event in the snapshot: its 0.5 s event is older than
	 * the snapshot's end and left out, its 1.2 s event is new */
	const char *live = HDR EV(0, "1.000000", "a") EV(1, "0.500000", "old") EV(1, "1.200000", "cut");
	char *out = join(snap, live, &j);

	(void)state;
	assert_int_equal(j.snap_cut, 1);
	assert_int_equal(j.older, 1);
	assert_int_equal(j.live_events, 1);
	assert_string_equal(out, HDR EV(0, "1.000000", "a") EV(1, "1.200000", "cut"));
	free(out);
	record_join_free(&j);
}

static void test_join_untimed(void **state)
{
	struct record_join j;
	const char *graph = "# tracer: function_graph\n#\n 0)   0.123 us    |  foo();\n";
	char *out = join(graph, HDR EV(0, "1.000000", "a"), &j);

	(void)state;
	assert_int_equal(j.untimed, 1);
	assert_string_equal(out, graph);
	free(out);
	record_join_free(&j);
	/* a counter against seconds */
	out = join(HDR EV(0, "1.000000", "a"), HDR EV(0, "5000", "b"), &j);
	assert_int_equal(j.untimed, 1);
	assert_int_equal(j.live_events, 0);
	free(out);
	record_join_free(&j);
	/* no live trace at all (not joined by the caller) */
	out = join(HDR EV(0, "1.000000", "a"), NULL, &j);
	assert_int_equal(j.snap_events, 1);
	assert_int_equal(j.live_events, 0);
	free(out);
	record_join_free(&j);
}

/* A real capture joined with itself: every event is overlap. */
static void test_join_real_trace(void **state)
{
	static const char *const files[] = {
		"tests/data/traces/debian-6.1-amd64-stack.trace",
		"tests/data/traces/debian-6.1-mips64el-parent.trace",
		"tests/data/traces/qemu-6.1-amd64-syscalls.trace",
		"tests/data/traces/qemu-6.1-amd64-function-graph-abstime-proc.trace",
	};
	struct record_join j;
	struct bt_error e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *f = fopen("/dev/null", "w");
		FILE *s = fopen(files[i], "r"), *l = fopen(files[i], "r");

		assert_non_null(s);
		assert_non_null(l);
		bt_error_clear(&e);
		assert_int_equal(record_join(fileno(s), files[i], fileno(l), files[i], f, &j, &e), 0);
		if (!strstr(files[i], "function-graph")) {
			assert_true(j.snap_events > 0);
			assert_int_equal(j.untimed, 0);
			assert_int_equal(j.live_events, 0);
			assert_int_equal(j.overlap, j.snap_events);
			assert_int_equal(j.ngaps, 0);
		}
		record_join_free(&j);
		fclose(s);
		fclose(l);
		fclose(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_time),
		cmocka_unit_test(test_join_overlap_and_ties),
		cmocka_unit_test(test_join_gaps),
		cmocka_unit_test(test_join_cut_and_older),
		cmocka_unit_test(test_join_untimed),
		cmocka_unit_test(test_join_real_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
