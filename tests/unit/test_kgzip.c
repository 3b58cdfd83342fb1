/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kimage/kgzip.c: the one gzip inflater, on whole, cut, damaged and bounded streams. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "unit.h"
#include "kimage/kgzip.h"

/* @text gzipped into @gz (of @cap); its length. */
static size_t gzip_of(const char *text, size_t n, unsigned char *gz, size_t cap)
{
	z_stream s;

	memset(&s, 0, sizeof(s));
	assert_int_equal(deflateInit2(&s, 9, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	s.next_in = (unsigned char *)text;
	s.avail_in = (uInt)n;
	s.next_out = gz;
	s.avail_out = (uInt)cap;
	assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
	deflateEnd(&s);
	return (size_t)s.total_out;
}

/* Grows by 7 bytes whenever full, up to a limit in *ctx (0: none). */
static int small_steps(struct kbuf *o, void *ctx, struct bt_error *e)
{
	size_t limit = *(size_t *)ctx;
	unsigned char *p;

	if (o->n < o->cap)
		return 0;
	if (limit && o->cap + 7 > limit)
		return limit == 1 ? bt_error_set(e, BT_EXIT_ENV, NULL, "no room") : 1;
	p = realloc(o->p, o->cap + 7);
	assert_non_null(p);
	o->p = p;
	o->cap += 7;
	return 0;
}

static char text[4000];

static size_t fill(void)
{
	size_t i;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + (i * 7 + i / 13) % 26);
	return sizeof(text);
}

static void whole_stream(void **state)
{
	unsigned char gz[8192];
	size_t n = fill(), len = gzip_of(text, n, gz, sizeof(gz)), used, limit = 0;
	struct kbuf o = { NULL, 0, 0 };
	struct bt_error e;

	(void)state;
	bt_error_clear(&e);
	assert_int_equal(kgz_inflate(gz, len, &o, small_steps, &limit, &used, &e), KGZ_END);
	assert_int_equal(o.n, n);
	assert_memory_equal(o.p, text, n);
	assert_int_equal(used, len);
	free(o.p);
}

static void cut_and_damaged(void **state)
{
	unsigned char gz[8192];
	size_t n = fill(), len = gzip_of(text, n, gz, sizeof(gz)), used, limit = 0;
	struct kbuf o = { NULL, 0, 0 };
	struct bt_error e;

	(void)state;
	bt_error_clear(&e);
	assert_int_equal(kgz_inflate(gz, len / 2, &o, small_steps, &limit, &used, &e), KGZ_SHORT);
	assert_int_equal(used, len / 2);
	free(o.p);
	o = (struct kbuf){ NULL, 0, 0 };
	gz[3] = 0xff;	/* reserved flag bits: not a gzip header */
	assert_int_equal(kgz_inflate(gz, len, &o, small_steps, &limit, &used, &e), KGZ_CORRUPT);
	free(o.p);
	o = (struct kbuf){ NULL, 0, 0 };
	assert_int_equal(kgz_inflate((const unsigned char *)"plain", 5, &o, small_steps, &limit, &used, &e), KGZ_CORRUPT);
	free(o.p);
}

static void bounded_by_the_caller(void **state)
{
	unsigned char gz[8192];
	size_t n = fill(), len = gzip_of(text, n, gz, sizeof(gz)), used, limit = 700;
	struct kbuf o = { NULL, 0, 0 };
	struct bt_error e;

	(void)state;
	bt_error_clear(&e);
	assert_int_equal(kgz_inflate(gz, len, &o, small_steps, &limit, &used, &e), KGZ_FULL);
	assert_true(o.n <= 700 && o.n == o.cap);
	assert_memory_equal(o.p, text, o.n);
	free(o.p);
	o = (struct kbuf){ NULL, 0, 0 };
	limit = 1;	/* refuse the first growth with an error */
	assert_int_equal(kgz_inflate(gz, len, &o, small_steps, &limit, &used, &e), KGZ_ERR);
	assert_string_equal(e.msg, "no room");
	free(o.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_stream),
		cmocka_unit_test(cut_and_damaged),
		cmocka_unit_test(bounded_by_the_caller),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
