/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Issue 14, class 1: a value never becomes more than one setting. Random
 * configs with hostile values (quotes of both kinds, line breaks, '#', ';',
 * '}', ',', '=', spaces) in every key family are compiled to the command
 * line and to bootconfig and read back (tests/fuzz/values_rt.h): exactly
 * the config's settings come back, or the compiler refuses at FILE:LINE:COL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "../fuzz/values_rt.h"

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Per value: plain, with quotes and delimiters, or anything hostile. */
static const char *const alphabets[] = {
	"abx.-:_", "ab x='\"#;}.", "ab \"'\n#;},{=\t.\\x:-",
};

/* A random value written so that our parser reads it back; 0 if it cannot be. */
static int put_value(char *out, size_t size, int nonempty)
{
	const char *alphabet = alphabets[rnd(3)];
	char v[16];
	size_t n = (size_t)rnd(9) + (size_t)(nonempty != 0), i;

	for (i = 0; i < n; i++)
		v[i] = alphabet[rnd((unsigned)strlen(alphabet))];
	v[n] = '\0';
	if (!strchr(v, '"'))
		return snprintf(out, size, "\"%s\"", v) > 0;
	if (!strchr(v, '\''))
		return snprintf(out, size, "'%s'", v) > 0;
	/* Both quotes: only unquoted, without delimiters or outer spaces. */
	if (strpbrk(v, ",;\n#}{= \t") || v[0] == '"' || v[0] == '\'')
		return 0;
	return snprintf(out, size, "%s", v) > 0;
}

static size_t put_values(char *out, size_t size, int nonempty)
{
	size_t at = 0;
	unsigned i, n = 1 + rnd(3);

	for (i = 0; i < n; i++) {
		if (i)
			at += (size_t)snprintf(out + at, size - at, ", ");
		if (!put_value(out + at, size - at, nonempty))
			return 0;
		at += strlen(out + at);
	}
	return at;
}

static const char *const keys[] = {
	"kernel.k0", "kernel.k1.sub", "init.i0", "init.i1",
	"ftrace.ftrace.filters", "ftrace.event.sched.sched_switch.filter",
	"boottrace.at", "boottrace.init", "verbatim.kernel", "verbatim.init",
};

static void test_values_round_trip(void **state)
{
	char text[1024], why[2048];
	unsigned i, tried = 0, refused = 0, ok = 0;

	(void)state;
	for (i = 0; i < 3000; i++) {
		size_t at = 0, k;
		int r, good = 1;

		for (k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
			if (rnd(2))
				continue;
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s = ", keys[k]);
			/* One value for a filter; none for a bare kernel key. */
			if (k >= 5) {
				good &= put_value(text + at, sizeof(text) - at, 0);
				at += strlen(text + at);
			} else {
				size_t n = put_values(text + at, sizeof(text) - at, k == 4);

				good &= n > 0;
				at += n;
			}
			at += (size_t)snprintf(text + at, sizeof(text) - at, "\n");
		}
		if (!good || !at)
			continue;
		tried++;
		why[0] = '\0';
		r = vrt_check(text, at, why, sizeof(why));
		if (r < 0)
			fail_msg("config:\n%s\n%s", text, why);
		ok += r == 0;
		refused += r == 1;
	}
	print_message("values: %u configs (%u not configs); %lu outputs read back, %lu refusals at their place\n",
		      tried, refused, vrt_compiled, vrt_refused);
	assert_true(ok > 500);
}

/* Cases that made a second key or word before (kept as they were found). */
static void test_values_cases(void **state)
{
	static const char *const cases[] = {
		/* init.* values went into bootconfig text unchecked. */
		"init.foo = 'x\"\ninit.evil = \"1'\n",
		"init.foo = 'x\" # c'\n",
		/* ... and with an ftrace.* key it came out as a second init key. */
		"ftrace.event.sched.sched_switch.filter = a\ninit.foo = 'x\"\ninit.evil = \"1'\n",
		/* kernel.* value the kernel gives back without its quotes. */
		"kernel.bar = '\"q\"'\n",
		/* A list item with ',' came back as two items. */
		"ftrace.ftrace.filters = \"a,b\"\n",
		/* Only kernel.* / init.* keys: the first one was copied twice. */
		"init.x = 1\n",
		"kernel.y = 2\ninit.x = 1\n",
		/* The hook's words went the same unchecked way. */
		"ftrace.event.sched.sched_switch.filter = a\nboottrace.at = 'x\"\nkernel.evil = \"1'\n",
		/* A value with both quote kinds (unquoted in the config). */
		"kernel.z = a\"b'c\n",
		"ftrace.event.sched.sched_switch.filter = a\"b'c\n",
		/* Bootloader forms merged into a base with "--": a second "--". */
		"init.i1 = b\n",
		/* A word GRUB cannot carry was dropped without its place. */
		"kernel.bar = '\"q\"'\n",
	};
	char why[2048];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		why[0] = '\0';
		if (vrt_check(cases[i], strlen(cases[i]), why, sizeof(why)) < 0)
			fail_msg("config:\n%s\n%s", cases[i], why);
	}
}

/* -t bootconfig text of @text for 6.1 (boot-time tracing assumed), or NULL. */
static char *bconf_of(const char *text)
{
	struct route_opts o = { .allow_drop = 0 };
	struct source src;
	struct bt_error e;
	struct board b;
	struct kcaps k;
	struct plan p;
	struct route r;
	char *out = NULL;

	memset(&k, 0, sizeof(k));
	memset(&b, 0, sizeof(b));
	b.cmdline_max = 4096;
	bt_error_clear(&e);
	assert_int_equal(kcaps_set_version(&k, "6.1", &e), 0);
	assert_int_equal(source_load_text("s.bconf", text, strlen(text), &src, &e), 0);
	assert_int_equal(plan_build(&p, &src, &e), 0);
	route_init(&r, &p, &k, &b, &o);
	if (route_bootconfig(&r, &e) == 0)
		out = strdup(r.bconf);
	else
		fail_msg("%s", e.msg);
	route_free(&r);
	plan_free(&p);
	source_free(&src);
	return out;
}

/*
 * Class 3: a setting written as kernel.* starts early in boot; its ftrace.*
 * form starts at core_initcall_sync. It must stay kernel.*; ftrace.* ones
 * may move to kernel.* (earlier), never the other way.
 */
static void test_start_points(void **state)
{
	char *s;

	(void)state;
	s = bconf_of("kernel.ftrace = function\nkernel.trace_event = \"initcall:*\"\n");
	assert_non_null(strstr(s, "\nkernel.ftrace = \"function\"\n"));
	assert_non_null(strstr(s, "\nkernel.trace_event = \"initcall:*\"\n"));
	assert_null(strstr(s, "\nftrace."));
	free(s);
	/* One of the group written as kernel.*: the whole group is kernel.*. */
	s = bconf_of("ftrace.tracer = function\nkernel.ftrace_filter = \"vfs*\"\n");
	assert_non_null(strstr(s, "\nkernel.ftrace = \"function\"\n"));
	assert_non_null(strstr(s, "\nkernel.ftrace_filter = \"vfs*\"\n"));
	assert_null(strstr(s, "\nftrace."));
	free(s);
	/* kernel.trace_clock stays a command-line clock. */
	s = bconf_of("kernel.trace_clock = local\nftrace.tracer = function\n");
	assert_non_null(strstr(s, "\nkernel.trace_clock = \"local\"\n"));
	assert_null(strstr(s, "ftrace.trace_clock"));
	free(s);
	/* Written as ftrace.*: stays ftrace.* (no reason to move). */
	s = bconf_of("ftrace.tracer = function\nftrace.events = \"sched:*\"\n");
	assert_non_null(strstr(s, "\nftrace.tracer = \"function\"\n"));
	assert_non_null(strstr(s, "\nftrace.events = \"sched:*\"\n"));
	free(s);
}

/* -t cmdline of @text for kernel @kver: 0, or -1 with the message in @msg. */
static int cmdline_of(const char *text, const char *kver, int drop, char *msg,
		      size_t size)
{
	struct route_opts o = { .allow_drop = drop };
	struct source src;
	struct bt_error e;
	struct board b;
	struct kcaps k;
	struct plan p;
	struct route r;
	int ret;

	memset(&k, 0, sizeof(k));
	memset(&b, 0, sizeof(b));
	b.cmdline_max = 2048;
	bt_error_clear(&e);
	assert_int_equal(kcaps_set_version(&k, kver, &e), 0);
	assert_int_equal(source_load_text("s.bconf", text, strlen(text), &src, &e), 0);
	assert_int_equal(plan_build(&p, &src, &e), 0);
	route_init(&r, &p, &k, &b, &o);
	ret = route_cmdline(&r, &e);
	if (ret)
		snprintf(msg, size, "%.*s:%d:%d: %s", 100, e.file, e.line, e.col, e.msg);
	else
		snprintf(msg, size, "%s", r.words.n ? r.words.v[0] : "");
	route_free(&r);
	plan_free(&p);
	source_free(&src);
	return ret;
}

/*
 * Class 4: what the kernel would cut (its buffer sizes, params.h) or drop
 * (a repeated parameter replaces the first) is refused with the numbers,
 * and a kernel.* key passed through gets the table's version check.
 */
static void test_param_rules(void **state)
{
	char msg[1024], text[512];
	int n, start;

	(void)state;
	n = start = snprintf(text, sizeof(text), "ftrace.tracer = function\nkernel.trace_options = \"");
	/* 13 options, 116 bytes: trace_options= has a 100-byte buffer. */
	while (n - start < 116)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "sym-addr,");
	snprintf(text + n - 1, sizeof(text) - (size_t)n + 1, "\"\n");
	assert_int_equal(cmdline_of(text, "6.1", 0, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "s.bconf:2:"));
	assert_non_null(strstr(msg, "buffer of 100 bytes"));
	/* Two kprobe_event= words: the kernel keeps the last. */
	assert_int_equal(cmdline_of("kernel.kprobe_event = \"p:a vfs_read\", \"p:b vfs_write\"\n",
				    "6.1", 0, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "keeps only the last"));
	/* Passed through, yet version-checked (or dropped, not emitted). */
	assert_int_equal(cmdline_of("kernel.kprobe_event = \"p:a vfs_read\"\n", "4.9", 0, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "5.3"));
	assert_int_equal(cmdline_of("kernel.kprobe_event = \"p:a vfs_read\"\n", "4.9", 1, msg, sizeof(msg)), 0);
	/* Dropped: only the hook's opt-in word is left. */
	assert_string_equal(msg, "boottrace.enable=1");
	assert_int_equal(cmdline_of("kernel.trace_instance = \"foo,sched:*\"\n", "6.1", 0, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "6.3"));
	/* trace_instance= adds one instance per word: a repeat is fine. */
	assert_int_equal(cmdline_of("kernel.trace_instance = \"a,sched:*\", \"b,irq:*\"\n", "6.6", 0, msg, sizeof(msg)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_param_rules),
		cmocka_unit_test(test_start_points),
		cmocka_unit_test(test_values_cases),
		cmocka_unit_test(test_values_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
