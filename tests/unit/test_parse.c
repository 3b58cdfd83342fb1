// SPDX-License-Identifier: GPL-2.0-or-later
/* Parser: accepted language, error texts and positions, kernel limits. */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "bconf.h"

static struct bconf *parse_opts(const char *s, const struct bconf_opts *o,
				struct bconf_error *e)
{
	return bconf_parse(s, strlen(s) + 1, o, e);
}

static struct bconf *parse(const char *s, struct bconf_error *e)
{
	return parse_opts(s, NULL, e);
}

static struct bconf *must_parse(const char *s)
{
	struct bconf_error e;
	struct bconf *bc = parse(s, &e);

	if (!bc)
		fail_msg("'%s' rejected: %s at %d:%d", s, e.msg, e.line, e.col);
	return bc;
}

static void expect_error(const char *s, const char *msg, int line, int col)
{
	struct bconf_error e;
	struct bconf *bc = parse(s, &e);

	if (bc) {
		bconf_free(bc);
		fail_msg("'%s' accepted, expected %s", s, msg);
	}
	assert_string_equal(e.msg, msg);
	assert_int_equal(e.line, line);
	assert_int_equal(e.col, col);
}

static void test_values(void **state)
{
	struct bconf *bc = must_parse(
		"ftrace.tracer = function\n"
		"ftrace { options = sym-addr, \"func stack\" ; flag }\n"
		"kernel.x = '\"q\"'   # comment\n");
	int v;

	(void)state;
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "ftrace.tracer", NULL),
			    "function");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "ftrace.options", &v),
			    "sym-addr");
	assert_true(bconf_is_array(bc, v));
	assert_string_equal(bconf_data(bc, bconf_child(bc, v)), "func stack");
	assert_int_equal(bconf_child(bc, bconf_child(bc, v)), BCONF_NONE);
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "ftrace.flag", &v), "");
	assert_int_equal(v, BCONF_NONE);
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "kernel.x", NULL),
			    "\"q\"");
	/* a key with only subkeys has no value */
	assert_null(bconf_find_value(bc, BCONF_NONE, "ftrace", NULL));
	assert_null(bconf_find_value(bc, BCONF_NONE, "nope", NULL));
	assert_int_equal(bconf_find(bc, BCONF_NONE, "ftrace.tracer"),
			 bconf_find(bc, bconf_find(bc, BCONF_NONE, "ftrace"), "tracer"));
	bconf_free(bc);
}

static void test_trailing_spaces(void **state)
{
	struct bconf *bc = must_parse("a = val  \t;b = \"v \" \nc = end   ");

	(void)state;
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "a", NULL), "val");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "b", NULL), "v ");
	/* the kernel does not trim a value cut off by the end of the text */
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "c", NULL), "end   ");
	bconf_free(bc);
}

static void test_operators(void **state)
{
	struct bconf *bc = must_parse("k = a, b\nk += c\nk.sub = s\nj = 1, 0\nj := 2, 3\n");
	int v, n = 0;
	const char *want[] = { "a", "b", "c" };

	(void)state;
	bconf_find_value(bc, BCONF_NONE, "k", &v);
	for (; v != BCONF_NONE; v = bconf_child(bc, v))
		assert_string_equal(bconf_data(bc, v), want[n++]);
	assert_int_equal(n, 3);
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "k.sub", NULL), "s");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "j", &v), "2");
	assert_string_equal(bconf_data(bc, bconf_child(bc, v)), "3");
	/* := reuses the first node; the old "0" stays allocated and counted */
	assert_int_equal(bconf_node_count(bc), 10);
	bconf_free(bc);

	/* override keeps subkeys; += and := on a key without value define it */
	bc = must_parse("m.x = 1\nm = v\nm := w\nn += 1\no := 2\n");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "m", NULL), "w");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "m.x", NULL), "1");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "n", NULL), "1");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "o", NULL), "2");
	bconf_free(bc);
}

static void test_braces_merge(void **state)
{
	struct bconf *bc = must_parse("foo\nbar\nfoo { buz }\na { b { c = 1 } }\na.b { d = 2 }");
	int foo;

	(void)state;
	foo = bconf_find(bc, BCONF_NONE, "foo");
	assert_int_not_equal(foo, BCONF_NONE);
	assert_string_equal(bconf_data(bc, bconf_subkey(bc, foo)), "buz");
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "a.b.d", NULL), "2");
	assert_int_equal(bconf_next(bc, bconf_find(bc, BCONF_NONE, "a.b.c")),
			 bconf_find(bc, BCONF_NONE, "a.b.d"));
	bconf_free(bc);
}

static void test_array_comments(void **state)
{
	struct bconf *bc = must_parse("key =\t# c\n\t\"v1\",  # c1\n\n\t\"v2\" , # c2\n\tv3\n");
	int v;

	(void)state;
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "key", &v), "v1");
	v = bconf_child(bc, v);
	assert_string_equal(bconf_data(bc, v), "v2");
	assert_string_equal(bconf_data(bc, bconf_child(bc, v)), "v3");
	bconf_free(bc);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("# only a comment\n", "Empty config", 1, 1);
	expect_error("key,word\n", "Invalid keyword", 1, 1);
	expect_error("k {\n .w = 1\n}\n", "Invalid keyword", 2, 2);
	expect_error("{}\n", "Invalid keyword", 1, 1);
	/* an all-space key is reported at its first byte, not after it */
	expect_error("  = 1\n", "Invalid keyword", 1, 1);
	expect_error("a\n\t {\n", "Invalid keyword", 2, 1);
	/* the fast key path gives up mid-key and puts the text back */
	expect_error("a.b c = 1\n", "Invalid keyword", 1, 3);
	expect_error("new.key.here x\n", "Invalid keyword", 1, 9);
	expect_error("key . word\n", "Invalid keyword", 1, 1);
	expect_error("k = \"a\" \"b\"\n", "No value delimiter", 1, 9);
	expect_error("k = \"open\n\n", "No closing quotes", 3, 1);
	expect_error("k = \"\x02\"\n", "Non printable value", 1, 6);
	expect_error("k = 1\nk = 2\n", "Value is redefined", 2, 5);
	expect_error("a {\n b {\n c = 1\n}\n", "Brace is not closed", 1, 1);
	expect_error("a = 1 }\n", "Unexpected closing brace", 1, 7);
	expect_error("}\n", "Unexpected closing brace", 1, 1);
	expect_error("a + 1\n", "Wrong '+' operator", 1, 3);
	expect_error("a : 1\n", "Wrong ':' operator", 1, 3);
	expect_error("a = 1\nstray", "No delimiter", 2, 1);
	expect_error("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q\n", "Too many key words", 1, 33);
}

static void test_data_limits(void **state)
{
	struct bconf_error e;
	char *buf = malloc(BCONF_DATA_MAX + 2);

	(void)state;
	assert_null(bconf_parse("", 0, NULL, &e));
	assert_string_equal(e.msg, "Config data is empty");
	assert_int_equal(e.pos, -1);
	/* 32767 bytes including the NUL is the largest accepted */
	memset(buf, ' ', BCONF_DATA_MAX + 1);
	memcpy(buf, "k=v", 3);
	buf[BCONF_DATA_MAX - 1] = '\0';
	bconf_free(must_parse(buf));
	assert_null(bconf_parse(buf, BCONF_DATA_MAX + 1, NULL, &e));
	assert_string_equal(e.msg, "Config data is too big");
	/* text ends at its first NUL, as in the kernel */
	bconf_free(must_parse("a = 1\n\0garbage {"));
	free(buf);
}

static void test_node_limit(void **state)
{
	struct bconf_opts old = { .node_max = BCONF_NODE_MAX_OLD };
	size_t cap = 5 * 8200 + 16;
	char *buf = malloc(cap), *p;
	struct bconf_error e;
	struct bconf *bc;
	int i;

	(void)state;
	/* short distinct words, so 8192 of them fit in 32767 bytes */
	for (p = buf, i = 0; i < BCONF_NODE_MAX; i++)
		p += i < 26 ? sprintf(p, "%c\n", 'A' + i) :
		     sprintf(p, "%c%c%c\n", 'A' + i % 26, 'A' + i / 26 % 26,
			     'A' + i / 676);
	bc = must_parse(buf);
	assert_int_equal(bconf_node_count(bc), BCONF_NODE_MAX);
	bconf_free(bc);
	assert_null(parse_opts(buf, &old, &e));
	assert_string_equal(e.msg, "Too many nodes");
	assert_int_equal(e.line, BCONF_NODE_MAX_OLD + 1);
	sprintf(p, "badnode\n");
	assert_null(parse(buf, &e));
	assert_string_equal(e.msg, "Too many nodes");
	assert_int_equal(e.line, BCONF_NODE_MAX + 1);
	free(buf);
}

static void test_key_limits(void **state)
{
	char key[400];

	(void)state;
	/* 256 counts every word plus one separator: 255 characters fit */
	memset(key, 'k', 255);
	strcpy(key + 255, "\n");
	bconf_free(must_parse(key));
	memset(key, 'k', 256);
	strcpy(key + 256, "\n");
	expect_error(key, "Too long key length", 1, 1);
	/* 16 words fit, the 17th fails at its own position */
	bconf_free(must_parse("a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p = 1\n"));
	/*
	 * Under a key that has a value the kernel measures nothing: it treats
	 * such a key as a leaf. Accepted at boot, so accepted here.
	 */
	bconf_free(must_parse("a = 1\na.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r = 2\n"));
}

static void test_brace_depth(void **state)
{
	char buf[256] = "", *p = buf;
	int i;

	(void)state;
	for (i = 0; i < 16; i++)
		p += sprintf(p, "k%d {\n", i);
	/* 16 braces deep holds 16 words: nothing fits inside the last one */
	strcpy(p, "}}}}}}}}}}}}}}}}\n");
	bconf_free(must_parse(buf));
	for (p = buf, i = 0; i < 17; i++)
		p += sprintf(p, "k%d {", i);
	strcpy(p, "v = 1 }}}}}}}}}}}}}}}}}\n");
	expect_error(buf, "Exceed max depth of braces", 1, 75);
}

static void test_ctype_profiles(void **state)
{
	struct bconf_opts kern = { .ctype = BCONF_CTYPE_KERNEL };
	struct bconf_error e;
	struct bconf *bc;

	(void)state;
	/* tools/bootconfig (glibc, C locale) rejects what the kernel accepts */
	expect_error("k = caf\xc3\xa9\n", "Non printable value", 1, 8);
	bc = parse_opts("k = caf\xe9\n", &kern, &e);
	assert_non_null(bc);
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "k", NULL), "caf\xe9");
	bconf_free(bc);
	/* 0x80-0x9f are not printable in the kernel either */
	assert_null(parse_opts("k = \xc3\x89\n", &kern, &e));
	assert_string_equal(e.msg, "Non printable value");
	/* Latin-1 letters are key characters for the kernel */
	bc = parse_opts("\xe9t\xe9 = 1\n", &kern, &e);
	assert_non_null(bc);
	bconf_free(bc);
	expect_error("\xe9t\xe9 = 1\n", "Invalid keyword", 1, 1);
	/* and 0xa0 is a space the kernel trims */
	bc = parse_opts("k = v\xa0\n", &kern, &e);
	assert_string_equal(bconf_find_value(bc, BCONF_NONE, "k", NULL), "v");
	bconf_free(bc);
}

static void test_leaves_and_keys(void **state)
{
	struct bconf *bc = must_parse("a = 1\na.b = 2\na.c\nd.e.f = 3, 4\n");
	const char *want[] = { "a", "a.b", "a.c", "d.e.f" };
	char key[64];
	int leaf = BCONF_NONE, n = 0, v;

	(void)state;
	while ((leaf = bconf_next_leaf(bc, BCONF_NONE, leaf)) != BCONF_NONE) {
		assert_true(n < 4);
		assert_int_equal(bconf_compose_key(bc, BCONF_NONE, leaf, key, sizeof(key)),
				 (int)strlen(want[n]));
		assert_string_equal(key, want[n++]);
	}
	assert_int_equal(n, 4);
	/* relative to a root, from a value node in an array, truncated */
	bconf_find_value(bc, BCONF_NONE, "d.e.f", &v);
	v = bconf_child(bc, v);
	assert_int_equal(bconf_compose_key(bc, bconf_find(bc, BCONF_NONE, "d"), v,
					   key, sizeof(key)), 3);
	assert_string_equal(key, "e.f");
	assert_int_equal(bconf_compose_key(bc, BCONF_NONE, v, key, 4), 5);
	assert_string_equal(key, "d.e");
	/* leaves under a subtree only */
	leaf = bconf_next_leaf(bc, bconf_find(bc, BCONF_NONE, "a"), BCONF_NONE);
	assert_int_equal(leaf, bconf_find(bc, BCONF_NONE, "a"));
	bconf_free(bc);
}

static void test_positions(void **state)
{
	struct bconf *bc = must_parse("# x\n  key.sub = \"val\"\n");

	(void)state;
	assert_int_equal(bconf_pos(bc, bconf_find(bc, BCONF_NONE, "key")), 6);
	assert_int_equal(bconf_pos(bc, bconf_find(bc, BCONF_NONE, "key.sub")), 10);
	bconf_free(bc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_trailing_spaces),
		cmocka_unit_test(test_operators),
		cmocka_unit_test(test_braces_merge),
		cmocka_unit_test(test_array_comments),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_data_limits),
		cmocka_unit_test(test_node_limit),
		cmocka_unit_test(test_key_limits),
		cmocka_unit_test(test_brace_depth),
		cmocka_unit_test(test_ctype_profiles),
		cmocka_unit_test(test_leaves_and_keys),
		cmocka_unit_test(test_positions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
