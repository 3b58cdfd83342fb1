/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The valid-UTF-8 output stream (util/utf8out.c): bytes that are not
 * UTF-8 come out as \xNN, valid sequences whole, also when a write cuts
 * one in two, and a cut sequence the close finds is escaped.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/utf8out.h"

/* Each of @parts written in turn (fwrite + fflush, so each is a write). */
static char *through(const char *const *parts, size_t n)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *mem = open_memstream(&buf, &len);
	FILE *g;

	assert_non_null(mem);
	g = bt_utf8_guard(mem);
	assert_non_null(g);
	for (i = 0; i < n; i++) {
		fwrite(parts[i], 1, strlen(parts[i]), g);
		fflush(g);
	}
	assert_int_equal(fclose(g), 0);
	fclose(mem);
	return buf;
}

static void test_whole(void **state)
{
	const char *p[] = { "caf\xc3\xa9 \xff x \xed\xa0\x80 \xe0\x80 ok\n\ttab" };
	char *s = through(p, 1);

	(void)state;
	assert_string_equal(s, "caf\xc3\xa9 \\xff x \\xed\\xa0\\x80 \\xe0\\x80 ok\n\ttab");
	free(s);
}

static void test_cut(void **state)
{
	/* "é" and a four-byte emoji cut across writes */
	const char *p[] = { "a\xc3", "\xa9" "b\xf0\x9f", "\x98", "\x80" "c" };
	const char *q[] = { "x\xe2\x82" };	/* cut and never finished */
	const char *r[] = { "\xc3", "z" };	/* a lead byte, then no continuation */
	char *s;

	(void)state;
	s = through(p, 4);
	assert_string_equal(s, "a\xc3\xa9" "b\xf0\x9f\x98\x80" "c");
	free(s);
	s = through(q, 1);
	assert_string_equal(s, "x\\xe2\\x82");
	free(s);
	s = through(r, 2);
	assert_string_equal(s, "\\xc3z");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole),
		cmocka_unit_test(test_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
