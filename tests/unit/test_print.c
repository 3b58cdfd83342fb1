// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Printers: expected texts are what tools/bootconfig (linux-source-6.1)
 * prints for the same input, including its misplaced closing brace after a
 * key that has a value and one subkey.
 */
#include <stdlib.h>

#include "unit.h"
#include "bconf.h"

struct sink {
	char buf[4096];
	size_t len;
	int fail_after;		/* fail the n-th write; 0 = never */
};

static int sink_write(void *ctx, const char *s, size_t n)
{
	struct sink *k = ctx;

	if (k->fail_after && --k->fail_after == 0)
		return -1;
	if (k->len + n >= sizeof(k->buf))
		return -1;
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = '\0';
	return 0;
}

static void expect(const char *conf, const char *tree, const char *list)
{
	struct bconf_error e;
	struct bconf *bc = bconf_parse(conf, strlen(conf) + 1, NULL, &e);
	struct sink k = { .len = 0 };

	assert_non_null(bc);
	assert_int_equal(bconf_print_tree(bc, sink_write, &k), 0);
	assert_string_equal(k.buf, tree);
	k.len = 0;
	k.buf[0] = '\0';
	assert_int_equal(bconf_print_list(bc, sink_write, &k), 0);
	assert_string_equal(k.buf, list);
	bconf_free(bc);
}

static void test_simple(void **state)
{
	(void)state;
	expect("# A good simple bootconfig\n\nkey.word1 = 1\nkey.word2=2\nkey.word3 = 3;\n\n"
	       "key {\nword4 = 4 }\n\nkey { word5 = 5; word6 = 6 }\n",
	       "key {\n\tword1 = \"1\";\n\tword2 = \"2\";\n\tword3 = \"3\";\n"
	       "\tword4 = \"4\";\n\tword5 = \"5\";\n\tword6 = \"6\";\n}\n",
	       "key.word1 = \"1\"\nkey.word2 = \"2\"\nkey.word3 = \"3\"\n"
	       "key.word4 = \"4\"\nkey.word5 = \"5\"\nkey.word6 = \"6\"\n");
}

static void test_mixed(void **state)
{
	(void)state;
	expect("key = value\nkey {\n\tsubkey1\n\tsubkey2 = foo\n}\n",
	       "key = \"value\";\nkey {\n\tsubkey1;\n\tsubkey2 = \"foo\";\n}\n",
	       "key = \"value\"\nkey.subkey1 = \"\"\nkey.subkey2 = \"foo\"\n");
	expect("k = \"\", \"b\"\nm = 1\nm.n.o = 2\n",
	       "k = \"\", \"b\";\nm = \"1\";\nm.n.o = \"2\";\n",
	       "k = \"\"\nm = \"1\"\nm.n.o = \"2\"\n");
}

static void test_tool_brace_quirk(void **state)
{
	(void)state;
	expect("a { b = 2; b.c = 3; x = 1 }\nz = 1\n",
	       "a {\n\tb = \"2\";\n\tb.c = \"3\";\n}\nx = \"1\";\nz = \"1\";\n",
	       "a.b = \"2\"\na.b.c = \"3\"\na.x = \"1\"\nz = \"1\"\n");
	expect("p { q { a = 1; a.b = 2; c = 3 } ; r = 4 }\ns\n",
	       "p {\n\tq {\n\t\ta = \"1\";\n\t\ta.b = \"2\";\n\t}\n\tc = \"3\";\n}\n"
	       "r = \"4\";\ns;\n",
	       "p.q.a = \"1\"\np.q.a.b = \"2\"\np.q.c = \"3\"\np.r = \"4\"\ns = \"\"\n");
}

static void test_quotes(void **state)
{
	(void)state;
	expect("k = '\"x\"', \"it's\"\n",
	       "k = '\"x\"', \"it's\";\n",
	       "k = '\"x\"', \"it's\"\n");
}

static void test_list_stops_at_16_words(void **state)
{
	const char *conf = "a = 1\na.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p = 2\nz = 3\n";
	struct bconf_error e;
	struct bconf *bc = bconf_parse(conf, strlen(conf) + 1, NULL, &e);
	struct sink k = { .len = 0 };

	(void)state;
	assert_non_null(bc);
	assert_int_equal(bconf_print_list(bc, sink_write, &k), 1);
	assert_string_equal(k.buf, "a = \"1\"\n");
	bconf_free(bc);
}

static void test_write_failure(void **state)
{
	const char *conf = "a.b = 1\nc = 2\n";
	struct bconf_error e;
	struct bconf *bc = bconf_parse(conf, strlen(conf) + 1, NULL, &e);
	struct sink k = { .len = 0, .fail_after = 2 };

	(void)state;
	assert_int_equal(bconf_print_tree(bc, sink_write, &k), -1);
	k.fail_after = 1;
	assert_int_equal(bconf_print_list(bc, sink_write, &k), -1);
	bconf_free(bc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_tool_brace_quirk),
		cmocka_unit_test(test_quotes),
		cmocka_unit_test(test_list_stops_at_16_words),
		cmocka_unit_test(test_write_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
