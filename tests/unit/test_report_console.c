/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rp_console_extract on messy serial logs (issue 15 class 5): escape
 * sequences before a marker on its line, capture timestamps, CR/LF, a
 * kernel message in the middle of a content line; and every part checked
 * against the size, lines and md5 of its marker (rp_md5_hex against the
 * RFC 1321 test vectors and md5sum's answer for the trace below).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/out/report.h"

/* md5sum of the two lines below, as the hook would print it */
#define TRACE_L1 "          insmod-98 [000] .....     4.290720: register_netdevice <-bond_create"
#define TRACE_L2 "          insmod-98 [000] .....     4.290721: bond_init <-register_netdevice"

static char trace_md5[33];
static size_t trace_size;

static void test_md5_vectors(void **state)
{
	char out[33];

	(void)state;
	rp_md5_hex("", 0, out);
	assert_string_equal(out, "d41d8cd98f00b204e9800998ecf8427e");
	rp_md5_hex("abc", 3, out);
	assert_string_equal(out, "900150983cd24fb0d6963f7d28e17f72");
	rp_md5_hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890", 80, out);
	assert_string_equal(out, "57edf4a22be3c955ac49da2e2107b67a");
	/* `md5sum` of the two trace lines the logs below carry */
	assert_string_equal(trace_md5, "31374b22e16307cddc22e4c1c3f157cf");
}

/* A log of one snapshot, each line made by @line(prefix, text, suffix). */
static char *make_log(const char *prefix, const char *eol, const char *glue,
		      int drop_l2, const char *l1)
{
	char *buf = malloc(8192);
	int n;

	assert_non_null(buf);
	n = snprintf(buf, 8192,
		     "%sSeaBIOS (version 1.16.2)%s"
		     "%s%s=== boottrace snapshot begin abc-123 ===%s"
		     "%s--- boottrace file trace size=%zu lines=2 eol=1 enc=text md5=%s ---%s"
		     "%s|%s%s"
		     "%s%s"
		     "%s--- boottrace end trace ---%s"
		     "%s--- boottrace file COMPLETE size=0 lines=0 eol=1 enc=text md5=d41d8cd98f00b204e9800998ecf8427e ---%s"
		     "%s--- boottrace end COMPLETE ---%s"
		     "%s=== boottrace snapshot end abc-123 files=2 ===%s",
		     prefix, eol, prefix, glue, eol,
		     prefix, trace_size, trace_md5, eol,
		     prefix, l1, eol,
		     drop_l2 ? "" : prefix, drop_l2 ? "" : "|" TRACE_L2 "\n",
		     prefix, eol, prefix, eol, prefix, eol, prefix, eol);
	assert_true(n > 0 && n < 8192);
	return buf;
}

static void extract(const char *log, struct rp_snap *s)
{
	struct bt_error e;

	memset(s, 0, sizeof(*s));
	bt_error_clear(&e);
	assert_int_equal(rp_console_extract(log, strlen(log), 0, s, "log", &e), 0);
	assert_int_equal(s->nboots, 1);
	assert_string_equal(s->boot_id, "abc-123");
}

static void expect_whole(const char *log)
{
	struct rp_snap s;

	extract(log, &s);
	assert_int_equal(s.damaged, 0);
	assert_int_equal(s.trace_len, trace_size);
	assert_memory_equal(s.trace, TRACE_L1 "\n" TRACE_L2 "\n", trace_size);
	assert_int_equal(s.complete, 1);
	rp_snap_free(&s);
}

static void test_clean_and_messy(void **state)
{
	static const char *const glue[] = {
		"", "\x1b" "c\x1b[?7l\x1b[2J", "\x1b[2J\x1b[01;01H", "login: ",
	};
	static const char *const prefix[] = {
		"", "[2026-11-25 10:00:00.123] ", "[    1.234567] ",
		"[0:00:01.234567 0:00:00.000100] ",
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(glue) / sizeof(glue[0]); i++)
		for (j = 0; j < sizeof(prefix) / sizeof(prefix[0]); j++) {
			char *log = make_log(prefix[j], j & 1 ? "\r\n" : "\n",
					     glue[i], 0, TRACE_L1);

			expect_whole(log);
			free(log);
		}
}

static void test_kernel_message_mid_line(void **state)
{
	char *log;

	(void)state;
	log = make_log("", "\r\n", "", 0,
		       "          insmod-98 [000] .....     4.290720: register_net"
		       "[    5.123456] random: crng init done\r\n"
		       "device <-bond_create");
	expect_whole(log);
	free(log);
}

static void test_lost_line_named(void **state)
{
	struct rp_snap s;
	char *log = make_log("", "\n", "", 1, TRACE_L1);

	(void)state;
	extract(log, &s);
	assert_int_equal(s.damaged, 1);
	assert_int_equal(s.trace_damaged, 1);
	assert_non_null(strstr(s.damage, "part 'trace' has 1 of its 2 lines"));
	rp_snap_free(&s);
	free(log);
}

static void test_garbled_line_named(void **state)
{
	struct rp_snap s;
	char *log = make_log("", "\n", "", 0,
			     "          insmod-98 [000] .....     4.290720: register_netdevixe <-bond_create");

	(void)state;
	extract(log, &s);
	assert_int_equal(s.trace_damaged, 1);
	assert_non_null(strstr(s.damage, "part 'trace' is garbled (md5"));
	rp_snap_free(&s);
	free(log);
}

static void test_old_framing(void **state)
{
	static const char log[] =
		"=== boottrace snapshot begin old ===\n"
		"--- boottrace file trace size=3 eol=1 enc=text md5=- ---\n"
		"|ab\n"
		"--- boottrace end trace ---\n"
		"=== boottrace snapshot end old ===\n";
	struct bt_error e;
	struct rp_snap s;

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(rp_console_extract(log, sizeof(log) - 1, 0, &s, "log", &e), 0);
	assert_int_equal(s.damaged, 0);
	assert_int_equal(s.trace_len, 3);
	rp_snap_free(&s);
}

int main(void)
{
	static const char t[] = TRACE_L1 "\n" TRACE_L2 "\n";
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_md5_vectors),
		cmocka_unit_test(test_clean_and_messy),
		cmocka_unit_test(test_kernel_message_mid_line),
		cmocka_unit_test(test_lost_line_named),
		cmocka_unit_test(test_garbled_line_named),
		cmocka_unit_test(test_old_framing),
	};

	trace_size = sizeof(t) - 1;
	rp_md5_hex(t, trace_size, trace_md5);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
