/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one JSON string escaper (util/json.c): valid UTF-8 kept, any other
 * byte as \u00XX, so that every JSON output is valid UTF-8. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/json.h"

static void expect(const char *in, size_t n, const char *want)
{
	struct textbuf t = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	json_fput(f, in, n);
	fclose(f);
	assert_string_equal(buf, want);
	json_tput(&t, in, n);
	textbuf_put(&t, "", 1);
	assert_false(t.failed);
	assert_string_equal(t.s, want);
	free(buf);
	textbuf_free(&t);
}

static void test_escapes(void **state)
{
	(void)state;
	expect("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	expect("l1\nl2\tx\r\x01\x7f", 10, "\"l1\\nl2\\tx\\u000d\\u0001\\u007f\"");
	/* stops at the length or at a NUL */
	expect("abc", 2, "\"ab\"");
	expect("a\0b", 3, "\"a\"");
}

static void test_utf8(void **state)
{
	(void)state;
	/* valid: 2, 3 and 4 byte forms kept */
	expect("caf\xc3\xa9", 5, "\"caf\xc3\xa9\"");
	expect("\xe2\x82\xac \xf0\x9f\x98\x80", 8, "\"\xe2\x82\xac \xf0\x9f\x98\x80\"");
	/* invalid: a stray byte, a cut sequence, overlong, surrogate, > U+10FFFF */
	expect("b\xff.bconf", 8, "\"b\\u00ff.bconf\"");
	expect("x\xc3", 2, "\"x\\u00c3\"");
	expect("\xc0\x80", 2, "\"\\u00c0\\u0080\"");
	expect("\xe0\x80\x80", 3, "\"\\u00e0\\u0080\\u0080\"");
	expect("\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\"");
	expect("\xf4\x90\x80\x80", 4, "\"\\u00f4\\u0090\\u0080\\u0080\"");
	expect("\xe2\x82", 2, "\"\\u00e2\\u0082\"");
}

static void test_null(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	json_fputs(f, NULL);
	json_fputs(f, "x");
	fclose(f);
	assert_string_equal(buf, "null\"x\"");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escapes),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
