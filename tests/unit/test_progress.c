/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * util/progress.c on a real pseudo-terminal (posix_openpt) and on a pipe:
 * drawn only on a terminal that is not dumb and not quiet, at most one line
 * per BT_PROGRESS_MS (a clock set here, and the real one), cleared at the end.
 */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "util/progress.h"

struct pty {
	int master, slave;
};

static void pty_open(struct pty *t, unsigned short cols)
{
	struct termios tio;
	struct winsize ws = { .ws_row = 24, .ws_col = cols };

	t->master = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(t->master >= 0);
	assert_int_equal(grantpt(t->master), 0);
	assert_int_equal(unlockpt(t->master), 0);
	t->slave = open(ptsname(t->master), O_RDWR | O_NOCTTY);
	assert_true(t->slave >= 0);
	assert_int_equal(tcgetattr(t->slave, &tio), 0);
	cfmakeraw(&tio);	/* the bytes as written, no "\n" -> "\r\n" */
	assert_int_equal(tcsetattr(t->slave, TCSANOW, &tio), 0);
	assert_int_equal(ioctl(t->slave, TIOCSWINSZ, &ws), 0);
}

static void pty_close(struct pty *t)
{
	close(t->slave);
	close(t->master);
}

/* What arrived on @fd within @ms (a pty hands bytes over a little later). */
static size_t drain(int fd, char *buf, size_t cap, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t n = 0;

	while (n + 1 < cap && poll(&pfd, 1, ms) == 1 && (pfd.revents & POLLIN)) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);

		if (r <= 0)
			break;
		n += (size_t)r;
		ms = 100;	/* the rest of a burst follows at once */
	}
	buf[n] = '\0';
	return n;
}

static uint64_t fake_ns;
static uint64_t fake_clock(void)
{
	return fake_ns;
}

static void draws_on_a_terminal(void **state)
{
	struct bt_progress p;
	struct pty t;
	char buf[1024];

	(void)state;
	pty_open(&t, 80);
	setenv("TERM", "xterm", 1);
	bt_progress_init(&p, t.slave, 0, "boottrace check");
	assert_true(bt_progress_on(&p));
	fake_ns = 1000000000u;
	p.clock = fake_clock;
	bt_progress_stage(&p, "reading modules", 4);
	fake_ns += 200000000u;
	bt_progress_update(&p, 1, "bonding");
	bt_progress_end(&p);
	drain(t.master, buf, sizeof(buf), 1000);
	assert_string_equal(buf, "\rboottrace check: reading modules 0/4 (0%)\033[K"
			    "\rboottrace check: reading modules 1/4 (25%) bonding\033[K"
			    "\r\033[K");
	/* after the end nothing more */
	bt_progress_update(&p, 2, "x");
	assert_int_equal(drain(t.master, buf, sizeof(buf), 200), 0);
	pty_close(&t);
}

static void nothing_in_a_pipe_dumb_or_quiet(void **state)
{
	struct bt_progress p;
	struct pty t;
	char buf[256];
	int fds[2];

	(void)state;
	setenv("TERM", "xterm", 1);
	assert_int_equal(pipe(fds), 0);
	bt_progress_init(&p, fds[1], 0, "w");
	assert_false(bt_progress_on(&p));
	bt_progress_stage(&p, "s", 3);
	bt_progress_update(&p, 1, "x");
	bt_progress_end(&p);
	close(fds[1]);
	assert_int_equal(drain(fds[0], buf, sizeof(buf), 200), 0);
	close(fds[0]);

	pty_open(&t, 80);
	setenv("TERM", "dumb", 1);
	bt_progress_init(&p, t.slave, 0, "w");
	assert_false(bt_progress_on(&p));
	unsetenv("TERM");
	bt_progress_init(&p, t.slave, 0, "w");
	assert_false(bt_progress_on(&p));
	setenv("TERM", "", 1);
	bt_progress_init(&p, t.slave, 0, "w");
	assert_false(bt_progress_on(&p));
	setenv("TERM", "xterm", 1);
	bt_progress_init(&p, t.slave, 1, "w");	/* quiet */
	assert_false(bt_progress_on(&p));
	bt_progress_stage(&p, "s", 3);
	bt_progress_update(&p, 1, "x");
	bt_progress_end(&p);
	assert_int_equal(drain(t.master, buf, sizeof(buf), 200), 0);
	/* NULL is "no progress" everywhere */
	assert_false(bt_progress_on(NULL));
	bt_progress_stage(NULL, "s", 1);
	bt_progress_update(NULL, 1, "x");
	bt_progress_clear(NULL);
	bt_progress_end(NULL);
	pty_close(&t);
}

static size_t count_draws(const char *s)
{
	size_t n = 0;

	for (; (s = strstr(s, "\033[K")); s += 3)
		n++;
	return n;
}

/* The clock set here: a line per BT_PROGRESS_MS, however many updates. */
static void rate_limited_by_the_clock(void **state)
{
	struct bt_progress p;
	struct pty t;
	static char buf[65536];
	unsigned i;

	(void)state;
	pty_open(&t, 80);
	setenv("TERM", "xterm", 1);
	bt_progress_init(&p, t.slave, 0, "w");
	p.clock = fake_clock;
	fake_ns = 5000000000u;
	bt_progress_stage(&p, "s", 100000);
	for (i = 1; i <= 10000; i++)
		bt_progress_update(&p, i, NULL);	/* no time passes */
	assert_int_equal(p.draws, 1);
	fake_ns += (uint64_t)BT_PROGRESS_MS * 1000000u - 1;
	bt_progress_update(&p, 10001, NULL);
	assert_int_equal(p.draws, 1);
	fake_ns += 1;
	bt_progress_update(&p, 10002, NULL);
	assert_int_equal(p.draws, 2);
	/* a new stage within the interval waits for the next update too */
	bt_progress_stage(&p, "t", 0);
	assert_int_equal(p.draws, 2);
	/* 10 s of updates every 1 ms: 100 lines, not 10000 */
	for (i = 0; i < 10000; i++) {
		fake_ns += 1000000u;
		bt_progress_update(&p, i, NULL);
	}
	assert_int_equal(p.draws, 102);
	drain(t.master, buf, sizeof(buf), 1000);
	assert_int_equal(count_draws(buf), 102);
	/* the total not known: done alone */
	assert_non_null(strstr(buf, "\rw: t 9999\033[K"));
	bt_progress_end(&p);
	pty_close(&t);
}

/* The real clock: a busy loop of 350 ms draws at most 4 lines (0, 100, 200, 300 ms). */
static void rate_limited_in_real_time(void **state)
{
	struct bt_progress p;
	struct timespec a, b;
	struct pty t;
	static char buf[65536];
	unsigned long long i = 0;
	long ms;

	(void)state;
	pty_open(&t, 80);
	setenv("TERM", "xterm", 1);
	bt_progress_init(&p, t.slave, 0, "w");
	clock_gettime(CLOCK_MONOTONIC, &a);
	bt_progress_stage(&p, "s", 0);
	do {
		bt_progress_update(&p, ++i, NULL);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	} while (ms < 350);
	bt_progress_end(&p);
	assert_true(i > 100);
	assert_true(p.draws >= 2);
	assert_true(p.draws <= 4);
	drain(t.master, buf, sizeof(buf), 1000);
	assert_int_equal(count_draws(buf), p.draws + 1);	/* + the clearing */
	pty_close(&t);
}

/* The line fits the terminal (a wrapped line cannot be redrawn); names are made safe. */
static void fits_the_width_and_escapes(void **state)
{
	struct bt_progress p;
	struct pty t;
	char buf[1024];

	(void)state;
	pty_open(&t, 20);
	setenv("TERM", "xterm", 1);
	bt_progress_init(&p, t.slave, 0, "w");
	bt_progress_stage(&p, "s", 2);
	bt_progress_end(&p);
	drain(t.master, buf, sizeof(buf), 1000);
	assert_string_equal(buf, "\rw: s 0/2 (0%)\033[K\r\033[K");

	bt_progress_init(&p, t.slave, 0, "w");
	p.clock = fake_clock;
	bt_progress_stage(&p, "s", 2);
	fake_ns += 1000000000u;
	bt_progress_update(&p, 3, "a\nb\033\xc3\xa9 and a long name");
	drain(t.master, buf, sizeof(buf), 1000);
	/* 19 columns of 20; more done than the total is 100% */
	assert_string_equal(buf, "\rw: s 0/2 (0%)\033[K\rw: s 3/2 (100%) a?b\033[K");
	fake_ns += 1000000000u;
	bt_progress_update(&p, 1, "x\ty\x7f");
	bt_progress_end(&p);
	drain(t.master, buf, sizeof(buf), 1000);
	assert_string_equal(buf, "\rw: s 1/2 (50%) x?y?\033[K\r\033[K");
	pty_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(draws_on_a_terminal),
		cmocka_unit_test(nothing_in_a_pipe_dumb_or_quiet),
		cmocka_unit_test(rate_limited_by_the_clock),
		cmocka_unit_test(rate_limited_in_real_time),
		cmocka_unit_test(fits_the_width_and_escapes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
