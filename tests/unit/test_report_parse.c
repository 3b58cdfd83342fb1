/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rp_parse_line on the kernel's line layouts (default, record-tgid, 4.x
 * irq-info, latency format, counter clocks), and report_feed on chunked
 * input: any split of a trace must give the same counts as one feed, and
 * a file counted on a second thread the same as one thread.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "report/out/report.h"

static void parse(const char *s, struct rp_line *l)
{
	rp_parse_line(s, s + strlen(s), l);
}

static void expect_str(const char *p, size_t n, const char *want)
{
	assert_int_equal(n, strlen(want));
	assert_memory_equal(p, want, n);
}

static void test_default_line(void **state)
{
	struct rp_line l;

	(void)state;
	parse("         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create", &l);
	assert_int_equal(l.kind, RP_FUNC);
	expect_str(l.task, l.task_len, "busybox-92");
	assert_int_equal(l.pid, 92);
	assert_int_equal(l.cpu, 0);
	assert_int_equal(l.flags_w, 5);
	assert_true(l.ts == 2406358000ULL);
	expect_str(l.a, l.a_len, "register_netdevice");
	expect_str(l.b, l.b_len, "bond_create");
}

static void test_comm_with_spaces_and_brackets(void **state)
{
	struct rp_line l;

	(void)state;
	parse("  kworker/0:1 [x]-45      [003] d..1.    10.000001: f <-g", &l);
	assert_int_equal(l.kind, RP_FUNC);
	expect_str(l.task, l.task_len, "kworker/0:1 [x]-45");
	assert_int_equal(l.cpu, 3);
	parse("       swapper/0-1       (      1) [001] .....     0.5: h", &l);
	assert_int_equal(l.kind, RP_FUNC);
	expect_str(l.task, l.task_len, "swapper/0-1");
	assert_int_equal(l.b_len, 0);
}

static void test_old_layout_and_counter_clock(void **state)
{
	struct rp_line l;

	(void)state;
	parse("          insmod-95    [001] d..1     2.100001: register_netdevice <-bond_create", &l);
	assert_int_equal(l.kind, RP_FUNC);
	assert_int_equal(l.flags_w, 4);
	parse("          insmod-95    [001] 123456789: <stack trace>", &l);
	assert_int_equal(l.kind, RP_STACK);
	assert_int_equal(l.ts_raw, 1);
	assert_true(l.ts == 123456789ULL);
}

static void test_latency_line(void **state)
{
	struct rp_line l;

	(void)state;
	parse(" busybox-92        0..... 2406358us : register_netdevice <-bond_create", &l);
	assert_int_equal(l.kind, RP_FUNC);
	expect_str(l.task, l.task_len, "busybox-92");
	assert_int_equal(l.cpu, 0);
	assert_true(l.ts == 2406358000ULL);
	parse(" busybox-92        1d.h1. 2406534us+: <stack trace>", &l);
	assert_int_equal(l.kind, RP_STACK);
	assert_int_equal(l.cpu, 1);
}

static void test_event_and_other_lines(void **state)
{
	struct rp_line l;

	(void)state;
	parse("         busybox-93      [001] .....     2.988190: rnd: (register_netdevice+0x0/0x7e0) name=\"bond%d\"", &l);
	assert_int_equal(l.kind, RP_EVENT);
	expect_str(l.a, l.a_len, "rnd");
	assert_int_equal(l.b[0], '(');
	parse(" => bond_create+0x1a8/0x3e0 [bonding]", &l);
	assert_int_equal(l.kind, RP_FRAME);
	assert_int_equal(rp_sym_len(l.a, l.a_len), strlen("bond_create"));
	parse("##### CPU 1 buffer started ####", &l);
	assert_int_equal(l.kind, RP_CPUSTART);
	parse("# tracer: function\r", &l);
	assert_int_equal(l.kind, RP_COMMENT);
	parse("", &l);
	assert_int_equal(l.kind, RP_BLANK);
	parse("[    3.849253] sysrq: Power Off", &l);
	assert_int_equal(l.kind, RP_BAD);
	parse("   x-1 [000] .....  :", &l);
	assert_int_equal(l.kind, RP_BAD);
	parse("   x-1 [000] .....  1.0:", &l);
	assert_int_equal(l.kind, RP_BAD);
}

static const char trace[] =
	"# tracer: function\n"
	"# entries-in-buffer/entries-written: 5/6   #P:2\n"
	"         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create\n"
	"         busybox-92      [000] .....     2.406534: <stack trace>\n"
	" => 0xffffffffc00ef083\n => register_netdevice\n => bond_create\n"
	" => bonding_init\n => do_one_initcall\n => do_init_module\n"
	"       swapper/0-1       [001] .....     0.6: register_netdevice <-register_netdev\n"
	"         busybox-92      [000] .....     2.5: register_netdevice <-bond_create\n"
	"         busybox-92      [000] .....     2.6: <stack trace>\n"
	" => 0xffffffffc00ef083\n => register_netdevice\n => bond_create\n"
	" => bonding_init\n => do_one_initcall\n => do_init_module\n"
	"not a trace line\n";

static void summary(const struct report *r, char *buf, size_t cap)
{
	snprintf(buf, cap, "l%llu e%llu f%u s%u bad%llu first%llu hdr%llu/%llu n%llu",
		 (unsigned long long)r->lines, (unsigned long long)r->entries,
		 r->nfn, r->stacks.n, (unsigned long long)r->skip.lines,
		 (unsigned long long)r->skip.first_line,
		 (unsigned long long)r->hdr.in_buffer,
		 (unsigned long long)r->hdr.written,
		 (unsigned long long)r->fn[0].hits);
}

typedef void summary_fn(const struct report *r, char *buf, size_t cap);

/*
 * Every split point of @t: the same summary as feeding it whole, @want.
 * The text is copied into a buffer of its own size at each split, so that
 * a read past the bytes fed shows under ASan.
 */
static void every_split(const char *t, size_t len, summary_fn *sum,
			const char *want)
{
	char got[256];
	struct report r;
	size_t cut;

	report_init(&r);
	assert_int_equal(report_feed(&r, t, len, 1), (long)len);
	sum(&r, got, sizeof(got));
	assert_string_equal(got, want);
	report_free(&r);
	for (cut = 0; cut <= len; cut++) {
		char *buf = malloc(len ? len : 1);
		long used;

		memcpy(buf, t, len);
		report_init(&r);
		used = report_feed(&r, buf, cut, 0);
		assert_true(used >= 0 && (size_t)used <= cut);
		assert_int_equal(report_feed(&r, buf + used, len - (size_t)used, 1),
				 (long)(len - (size_t)used));
		sum(&r, got, sizeof(got));
		assert_string_equal(got, want);
		report_free(&r);
		free(buf);
	}
}

static void test_chunked_feed(void **state)
{
	(void)state;
	every_split(trace, strlen(trace), summary,
		    "l20 e5 f1 s1 bad1 first20 hdr5/6 n3");
}

/* Fractions of every width, the SWAR path (eight digits at once) too. */
static void test_timestamps(void **state)
{
	static const struct { const char *ts; unsigned long long ns; } c[] = {
		{ "2.406358", 2406358000ULL },
		{ "0.000083", 83000ULL },
		{ "12.123456789", 12123456789ULL },
		{ "3.1", 3100000000ULL },
		{ "3.1234567", 3123456700ULL },
		{ "3.12345678", 3123456780ULL },
		{ "3.1234567891", 3123456789ULL },	/* below a nanosecond */
		{ "99999.999999", 99999999999000ULL },
	};
	char line[160];
	struct rp_line l;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(line, sizeof(line), "          task-1  [000] ..... %12s: f <-g", c[i].ts);
		parse(line, &l);
		assert_int_equal(l.kind, RP_FUNC);
		if (l.ts != c[i].ns)
			fail_msg("%s: %llu, want %llu", c[i].ts, (unsigned long long)l.ts, c[i].ns);
	}
	parse("          task-1  [000] .....     3.12a456: f <-g", &l);
	assert_int_equal(l.kind, RP_BAD);
}

/*
 * Stack blocks long enough for rp_stack_guess (RP_GUESS_LEN bytes): the
 * same block again is found by its start; a block with the same start but
 * other frames after it, and one with an extra frame, are not taken for
 * it. Every split of the input gives the same stacks and counts.
 */
static const char long_frames[] =
	" => 0xffffffffc00ef083\n => register_netdevice\n => bond_create\n"
	" => bonding_init\n => do_one_initcall\n => do_init_module\n"
	" => __do_sys_finit_module\n => do_syscall_64\n";

static void guess_summary(const struct report *r, char *buf, size_t cap)
{
	snprintf(buf, cap, "l%llu e%llu s%u n%llu ws%llu orphan%llu",
		 (unsigned long long)r->lines, (unsigned long long)r->entries,
		 r->stacks.n, (unsigned long long)r->fn[0].hits,
		 (unsigned long long)r->fn[0].with_stack,
		 (unsigned long long)r->skip.orphan_stacks);
}

static void test_stack_guess(void **state)
{
	const char *hit = "         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create\n"
			  "         busybox-92      [000] .....     2.406359: <stack trace>\n";
	char *t = malloc(8192);
	size_t len = 0;
	struct report r;
	int i;

	(void)state;
	for (i = 0; i < 3; i++)	/* the same stack three times */
		len += (size_t)sprintf(t + len, "%s%s", hit, long_frames);
	/* same first frames, another outer frame */
	len += (size_t)sprintf(t + len, "%s%s => entry_SYSCALL_64_after_hwframe\n",
			       hit, long_frames);
	/* the first stack with one more frame: not the first stack */
	len += (size_t)sprintf(t + len, "%s%s => x64_sys_call\n", hit, long_frames);
	len += (size_t)sprintf(t + len, "%s%s", hit, long_frames);
	report_init(&r);
	assert_int_equal(report_feed(&r, t, len, 1), (long)len);
	assert_true(r.stacks.nguess > 0);	/* the guess path ran */
	report_free(&r);
	/* 12 lines of hits, 8+8+8+9+9+8 frame lines */
	every_split(t, len, guess_summary, "l62 e12 s3 n6 ws6 orphan0");
	free(t);
}

static void test_truncated_last_line(void **state)
{
	const char *t = "         busybox-92      [000] .....     2.406358: register_netdevice <-bond_cr";
	struct report r;

	(void)state;
	report_init(&r);
	assert_int_equal(report_feed(&r, t, strlen(t), 0), 0);
	assert_int_equal(report_feed(&r, t, strlen(t), 1), (long)strlen(t));
	assert_int_equal(r.skip.truncated, 1);
	assert_int_equal(r.entries, 1);
	report_free(&r);
}

/*
 * A 10 MB trace (a mapped file counted on a second thread: 8 MB or more)
 * of 24 tasks on 4 CPUs, 40 functions, 600 stacks and parent chains.
 */
static char *big_trace(size_t *len)
{
	size_t cap = 11u << 20, n = 0;
	char *t = malloc(cap);
	unsigned i;

	assert_non_null(t);
	n += (size_t)sprintf(t, "# tracer: function\n#\n");
	for (i = 0; n < (10u << 20); i++) {
		unsigned s = i * 7919 % 600, cpu = i % 4, task = i % 24;
		unsigned long long us = 1000000ULL + 3ULL * i;

		n += (size_t)sprintf(t + n,
			"       task%u-%u [%03u] .....  %5llu.%06llu: fn_%u <-caller_%u\n"
			"       task%u-%u [%03u] .....  %5llu.%06llu: <stack trace>\n"
			" => 0xffffffffc03fd083\n => fn_%u\n => caller_%u\n"
			" => outer_%u\n => do_one_initcall\n => do_init_module\n",
			task, 100 + task, cpu, us / 1000000, us % 1000000,
			(i * 31 + s / 7) % 40, s % 17,
			task, 100 + task, cpu, us / 1000000, us % 1000000 + 1,
			(i * 31 + s / 7) % 40, s % 17, s);
		if (i % 5 == 0)	/* the caller's own hit: a parent chain */
			n += (size_t)sprintf(t + n,
				"       task%u-%u [%03u] .....  %5llu.%06llu: caller_%u <-outer_%u\n",
				task, 100 + task, cpu, us / 1000000,
				us % 1000000 + 2, s % 17, s);
	}
	*len = n;
	return t;
}

static void big_summary(const struct report *r, char *buf, size_t cap)
{
	uint64_t hits = 0, ws = 0, first = 0, last = 0;
	uint32_t i;

	for (i = 0; i < r->nfn; i++) {
		hits += r->fn[i].hits;
		ws += r->fn[i].with_stack;
		first ^= r->fn[i].first * (i + 1);
		last ^= r->fn[i].last * (i + 1);
	}
	snprintf(buf, cap, "l%llu e%llu f%u s%u c%u h%llu ws%llu %llx %llx "
		 "ft%zu fs%zu fc%zu fp%zu st%zu ct%zu oom%d",
		 (unsigned long long)r->lines, (unsigned long long)r->entries,
		 r->nfn, r->stacks.n, r->chains.n, (unsigned long long)hits,
		 (unsigned long long)ws, (unsigned long long)first,
		 (unsigned long long)last, r->fn_task.used, r->fn_stack.used,
		 r->fn_chain.used, r->fn_parent.used, r->stack_task.used,
		 r->chain_task.used, r->oom);
}

/* Feed the file @path through report_feed_fd; its summary into @buf. */
static void feed_file(const char *path, char *buf, size_t cap)
{
	struct bt_error e;
	struct report r;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	report_init(&r);
	bt_error_clear(&e);
	assert_int_equal(report_feed_fd(&r, fileno(f), NULL, 0, path, &e), 0);
	assert_null(r.pipe);	/* the thread is gone */
	big_summary(&r, buf, cap);
	report_free(&r);
	fclose(f);
}

static void test_threaded_feed(void **state)
{
	char path[] = "/tmp/bt-unit-trace.XXXXXX", want[512], got[512];
	struct report r;
	size_t len;
	char *t = big_trace(&len);
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, t, len), (ssize_t)len);
	close(fd);
	report_init(&r);
	assert_int_equal(report_feed(&r, t, len, 1), (long)len);
	big_summary(&r, want, sizeof(want));
	assert_true(r.stacks.n >= 600);
	assert_true(r.chains.n > 0);
	report_free(&r);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		print_message("one CPU: the counting thread is not tested\n");
	unsetenv("BOOTTRACE_THREADS");
	feed_file(path, got, sizeof(got));
	assert_string_equal(got, want);
	setenv("BOOTTRACE_THREADS", "1", 1);
	feed_file(path, got, sizeof(got));
	assert_string_equal(got, want);
	unsetenv("BOOTTRACE_THREADS");
	unlink(path);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_line),
		cmocka_unit_test(test_comm_with_spaces_and_brackets),
		cmocka_unit_test(test_old_layout_and_counter_clock),
		cmocka_unit_test(test_latency_line),
		cmocka_unit_test(test_event_and_other_lines),
		cmocka_unit_test(test_chunked_feed),
		cmocka_unit_test(test_truncated_last_line),
		cmocka_unit_test(test_timestamps),
		cmocka_unit_test(test_stack_guess),
		cmocka_unit_test(test_threaded_feed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
