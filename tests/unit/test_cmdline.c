/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel command-line tokenizer and quoter. */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "bconf.h"

struct word {
	const char *param;
	const char *val;	/* NULL: no '=' */
};

/*
 * Split @line and compare with @want (@n words). Also checks that param
 * and val point into the buffer and that no pointer runs past its end.
 */
static void split_expect(const char *line, const struct word *want, size_t n)
{
	size_t len = strlen(line), i = 0;
	char *buf = malloc(len + 1);
	char *p;
	struct bconf_arg arg;

	assert_non_null(buf);
	memcpy(buf, line, len + 1);
	p = buf;
	while ((p = bconf_cmdline_next(p, &arg))) {
		assert_true(i < n);
		assert_true(p >= buf && p <= buf + len);
		assert_true(arg.param >= buf && arg.param <= buf + len);
		assert_string_equal(arg.param, want[i].param);
		if (want[i].val) {
			assert_non_null(arg.val);
			assert_true(arg.val >= buf && arg.val <= buf + len);
			assert_string_equal(arg.val, want[i].val);
		} else {
			assert_null(arg.val);
		}
		i++;
	}
	assert_int_equal(i, n);
	free(buf);
}

/* The buffer after splitting all of @line must be the @len bytes @image. */
static void image_expect(const char *line, const char *image, size_t len)
{
	char buf[64];
	char *p = buf;
	struct bconf_arg arg;

	assert_true(strlen(line) + 1 == len && len <= sizeof(buf));
	memcpy(buf, line, len);
	while ((p = bconf_cmdline_next(p, &arg)))
		;
	assert_memory_equal(buf, image, len);
}

#define W(p, v) { (p), (v) }
#define SPLIT(line, ...) do { \
	static const struct word w_[] = { __VA_ARGS__ }; \
	split_expect((line), w_, sizeof(w_) / sizeof(w_[0])); \
} while (0)

static void test_next_kernel_examples(void **state)
{
	(void)state;
	SPLIT("a=\"b c\" d", W("a", "b c"), W("d", NULL));
	SPLIT("\"quoted param\"", W("quoted param", NULL));
	SPLIT("x=", W("x", ""));
	SPLIT("=y", W("=y", NULL));
	/* A '=' in front belongs to the name; the next one splits. */
	SPLIT("==y", W("=", "y"));
	SPLIT("=a=b=c", W("=a", "b=c"));
	SPLIT("a==b", W("a", "=b"));
	SPLIT("root=/dev/sda1 ro quiet",
	      W("root", "/dev/sda1"), W("ro", NULL), W("quiet", NULL));
	SPLIT("console=ttyS0,115200n8 -- init-arg",
	      W("console", "ttyS0,115200n8"), W("--", NULL),
	      W("init-arg", NULL));
}

static void test_next_whitespace(void **state)
{
	(void)state;
	SPLIT("   a  b   ", W("a", NULL), W("b", NULL));
	SPLIT("\t\na=1\v\fb=2\r", W("a", "1"), W("b", "2"));
	SPLIT("a b\t", W("a", NULL), W("b", NULL));
	/* Inside quotes whitespace stays, tabs and newlines included. */
	SPLIT("a=\"x\ty\nz\" b", W("a", "x\ty\nz"), W("b", NULL));
}

static void test_next_empty(void **state)
{
	struct bconf_arg arg = { (char *)"untouched", NULL };
	char empty[] = "", spaces[] = " \t\n \r";

	(void)state;
	assert_null(bconf_cmdline_next(NULL, &arg));
	assert_null(bconf_cmdline_next(empty, &arg));
	assert_null(bconf_cmdline_next(spaces, &arg));
	assert_string_equal(arg.param, "untouched");
	/* Leading spaces are skipped, not modified. */
	assert_string_equal(spaces, " \t\n \r");
}

static void test_next_quotes(void **state)
{
	(void)state;
	/* Unbalanced: the open quote swallows the rest of the line. */
	SPLIT("a=\"b c d", W("a", "b c d"));
	SPLIT("a\"b c", W("a\"b c", NULL));
	SPLIT("a=b\"c d\" e", W("a", "b\"c d\""), W("e", NULL));
	SPLIT("\"", W("", NULL));
	SPLIT("\"\" x", W("", NULL), W("x", NULL));
	SPLIT("a=\"\" b", W("a", ""), W("b", NULL));
	SPLIT("a=\"", W("a", ""));
	/* A quoted word: the closing quote goes only if it is last. */
	SPLIT("\"a=b\"", W("a", "b"));
	SPLIT("\"quoted param\"=x", W("quoted param\"", "x"));
	SPLIT("\"a b\"c d", W("a b\"c", NULL), W("d", NULL));
	/* The value's opening quote closes the word's: the space splits. */
	SPLIT("\"a=\"b c\"\"", W("a", "b"), W("c\"\"", NULL));
	SPLIT("p=\"\"x\"\"", W("p", "\"x\""));
	SPLIT("p=x\"\"", W("p", "x\"\""));
}

/* The bytes the kernel leaves behind, NULs included. */
static void test_next_in_place(void **state)
{
	(void)state;
	image_expect("a=\"b c\" d", "a\0\"b c\0\0d", 10);
	image_expect("\"q p\"", "\"q p\0", 6);
	image_expect("  x=1  y ", "  x\0" "1\0 y\0", 10);
	image_expect("\"a=b\"", "\"a\0b\0", 6);
	image_expect("a=\"", "a\0\0", 4);
}

/* The returned pointer is the next word, spaces already skipped. */
static void test_next_return(void **state)
{
	char line[] = "ab=1   cd \"e\"";
	struct bconf_arg arg;
	char *p;

	(void)state;
	p = bconf_cmdline_next(line, &arg);
	assert_ptr_equal(p, line + 7);
	assert_ptr_equal(arg.param, line);
	assert_ptr_equal(arg.val, line + 3);
	p = bconf_cmdline_next(p, &arg);
	assert_ptr_equal(p, line + 10);
	assert_ptr_equal(arg.param, line + 7);
	p = bconf_cmdline_next(p, &arg);
	assert_ptr_equal(p, line + 13);
	assert_ptr_equal(arg.param, line + 11);
	assert_string_equal(arg.param, "e");
	assert_null(bconf_cmdline_next(p, &arg));
}

static int quote(const char *param, const char *val, char *buf, size_t size,
		 struct bconf_error *err)
{
	memset(err, 0, sizeof(*err));
	err->pos = -2;
	return bconf_cmdline_quote(param, val, buf, size, err);
}

static void test_quote_forms(void **state)
{
	struct bconf_error err;
	char buf[64];

	(void)state;
	assert_int_equal(quote("quiet", NULL, buf, sizeof(buf), &err), 5);
	assert_string_equal(buf, "quiet");
	assert_int_equal(quote("root", "/dev/sda1", buf, sizeof(buf), &err), 14);
	assert_string_equal(buf, "root=/dev/sda1");
	assert_int_equal(quote("a", "b c", buf, sizeof(buf), &err), 7);
	assert_string_equal(buf, "a=\"b c\"");
	assert_int_equal(quote("a", "", buf, sizeof(buf), &err), 2);
	assert_string_equal(buf, "a=");
	assert_int_equal(quote("a", " ", buf, sizeof(buf), &err), 5);
	assert_string_equal(buf, "a=\" \"");
	/* A '"' inside is fine while the quotes pair up and nothing splits. */
	assert_int_equal(quote("a", "x\"y\"", buf, sizeof(buf), &err), 6);
	assert_string_equal(buf, "a=x\"y\"");
	/* A leading '"' would be eaten: wrap it. */
	assert_int_equal(quote("a", "\"x\"", buf, sizeof(buf), &err), 7);
	assert_string_equal(buf, "a=\"\"x\"\"");
	assert_int_equal(quote("a", "\"\"", buf, sizeof(buf), &err), 6);
	assert_string_equal(buf, "a=\"\"\"\"");
	/* '=' in a value is kept: only the first one splits. */
	assert_int_equal(quote("init", "/bin/sh=x", buf, sizeof(buf), &err), 14);
	assert_string_equal(buf, "init=/bin/sh=x");
	assert_int_equal(err.pos, -2);	/* untouched on success */
}

static void test_quote_truncation(void **state)
{
	struct bconf_error err;
	char buf[16];

	(void)state;
	memset(buf, 'Z', sizeof(buf));
	assert_int_equal(quote("a", "hello world", buf, 6, &err), 15);
	assert_string_equal(buf, "a=\"he");
	assert_int_equal(buf[6], 'Z');
	assert_int_equal(quote("a", "hello world", NULL, 0, &err), 15);
	assert_int_equal(quote("abc", "d", buf, 1, &err), 5);
	assert_string_equal(buf, "");
	assert_int_equal(quote("abc", "d e", buf, 8, &err), 9);
	assert_string_equal(buf, "abc=\"d ");
	assert_int_equal(quote("abc", "d e", buf, 9, &err), 9);
	assert_string_equal(buf, "abc=\"d e");
	assert_int_equal(quote("abc", "d e", buf, 10, &err), 9);
	assert_string_equal(buf, "abc=\"d e\"");
}

struct reject {
	const char *param, *val;
	const char *why;	/* substring of err.msg */
	long pos;
};

static void test_quote_rejects(void **state)
{
	static const struct reject r[] = {
		{ "a", "x\" y", "both '\"' and whitespace", 3 },
		{ "a", "\"x y\"", "both", 2 },
		{ "a", "x\"", "unbalanced", 3 },
		{ "a", "\"", "unbalanced", 2 },
		{ "a", "x\"y\"z\"", "unbalanced", 3 },
		{ "a", "x\ny", "newline", 3 },
		{ "a", "x\ty", "non-printable", 3 },
		{ "a", "\r", "non-printable", 2 },
		{ "ab", "caf\xc3\xa9", "non-printable", 6 },
		{ "a", "\xa0", "non-printable", 2 },
		{ "a", "\x7f", "non-printable", 2 },
		{ "", "x", "name is empty", -1 },
		{ "", NULL, "name is empty", -1 },
		{ NULL, "x", "name is empty", -1 },
		{ "a=b", NULL, "contains '='", 1 },
		{ "=", "x", "contains '='", 0 },
		{ "a b", "x", "space", 1 },
		{ "\"a\"", NULL, "quote", 0 },
		{ "a\"", "x", "quote", 1 },
		{ "a\nb", "x", "newline", 1 },
		{ "a\tb", NULL, "non-printable", 1 },
	};
	struct bconf_error err;
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		memset(buf, 'Z', sizeof(buf));
		assert_int_equal(quote(r[i].param, r[i].val, buf, sizeof(buf),
				       &err), -1);
		assert_non_null(err.msg);
		if (!strstr(err.msg, r[i].why))
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, err.msg,
				 r[i].why);
		assert_int_equal(err.pos, r[i].pos);
		assert_int_equal(buf[0], '\0');
	}
	/* No err to fill: still refused. */
	assert_int_equal(bconf_cmdline_quote("a", "\n", buf, sizeof(buf), NULL),
			 -1);
}

/* Split @line (one word expected first) and compare. */
static void round_trip_one(const char *param, const char *val,
			   const char *quoted)
{
	char line[128];
	char *p;
	struct bconf_arg arg;

	/* Neighbours on both sides catch words that leak into others. */
	assert_true(snprintf(line, sizeof(line), "x=1 %s y=\"2 3\"", quoted) <
		    (int)sizeof(line));
	p = bconf_cmdline_next(line, &arg);
	assert_string_equal(arg.param, "x");
	p = bconf_cmdline_next(p, &arg);
	assert_non_null(p);
	assert_string_equal(arg.param, param);
	if (val) {
		assert_non_null(arg.val);
		assert_string_equal(arg.val, val);
	} else {
		assert_null(arg.val);
	}
	p = bconf_cmdline_next(p, &arg);
	assert_non_null(p);
	assert_string_equal(arg.param, "y");
	assert_string_equal(arg.val, "2 3");
	assert_null(bconf_cmdline_next(p, &arg));
}

/* Everything the quoter accepts comes back unchanged. */
static void test_quote_round_trip(void **state)
{
	static const char alpha[] = "ab=\" \t\n,.-_/\\'\x7f\xa0";
	unsigned long seed = 20240611;
	unsigned int accepted = 0, refused = 0, i, j;

	(void)state;
	round_trip_one("quiet", NULL, "quiet");
	for (i = 0; i < 20000; i++) {
		char param[8], val[12], buf[64];
		struct bconf_error err;
		size_t plen, vlen;
		int n;

		seed = seed * 6364136223846793005UL + 1442695040888963407UL;
		plen = 1 + (seed >> 33) % 4;
		vlen = (seed >> 40) % 10;
		for (j = 0; j < plen; j++) {
			seed = seed * 6364136223846793005UL + 1;
			param[j] = "abc_.-"[(seed >> 33) % 6];
		}
		param[plen] = '\0';
		for (j = 0; j < vlen; j++) {
			seed = seed * 6364136223846793005UL + 1;
			val[j] = alpha[(seed >> 33) % (sizeof(alpha) - 1)];
		}
		val[vlen] = '\0';

		n = quote(param, (i % 17) ? val : NULL, buf, sizeof(buf), &err);
		if (n < 0) {
			assert_non_null(err.msg);
			refused++;
			continue;
		}
		assert_int_equal((size_t)n, strlen(buf));
		round_trip_one(param, (i % 17) ? val : NULL, buf);
		accepted++;
	}
	/* Both outcomes must be exercised for this to mean anything. */
	assert_true(accepted > 2000);
	assert_true(refused > 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_next_kernel_examples),
		cmocka_unit_test(test_next_whitespace),
		cmocka_unit_test(test_next_empty),
		cmocka_unit_test(test_next_quotes),
		cmocka_unit_test(test_next_in_place),
		cmocka_unit_test(test_next_return),
		cmocka_unit_test(test_quote_forms),
		cmocka_unit_test(test_quote_truncation),
		cmocka_unit_test(test_quote_rejects),
		cmocka_unit_test(test_quote_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
