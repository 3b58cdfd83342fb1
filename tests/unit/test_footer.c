/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The initrd footer codec: bconf_checksum, bconf_footer_*. */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "bconf.h"

/* A file image: @initrd_size bytes of noise, then the blob for @conf. */
struct image {
	unsigned char *buf;
	size_t len;		/* whole file */
	size_t blob_off;	/* == initrd size */
	size_t blob_len;
};

static void image_make(struct image *im, size_t initrd_size, const char *conf,
		       size_t conf_len, size_t grub_pad)
{
	size_t i, n;

	im->blob_len = bconf_footer_blob_len(conf_len, initrd_size);
	assert_true(im->blob_len > 0);
	im->blob_off = initrd_size;
	im->len = initrd_size + im->blob_len + grub_pad;
	im->buf = calloc(1, im->len ? im->len : 1);
	assert_non_null(im->buf);
	/* Noise that is neither NUL nor magic-like. */
	for (i = 0; i < initrd_size; i++)
		im->buf[i] = (unsigned char)(0x80 + (i * 7) % 97);
	n = bconf_footer_build(conf, conf_len, initrd_size,
			       im->buf + initrd_size, im->blob_len);
	assert_int_equal(n, im->blob_len);
}

static uint32_t le32_at(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le32_at(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

/* Run bconf_footer_find on the last @tail_len bytes of @im. */
static int find_tail(const struct image *im, size_t tail_len, unsigned int slack,
		     struct bconf_footer *f, struct bconf_error *err)
{
	return bconf_footer_find(im->buf + im->len - tail_len, tail_len,
				 im->len, slack, f, err);
}

static int find_all(const struct image *im, unsigned int slack,
		    struct bconf_footer *f, struct bconf_error *err)
{
	return find_tail(im, im->len, slack, f, err);
}

static void test_checksum_values(void **state)
{
	static const unsigned char high[4] = { 0xff, 0x80, 0x81, 0xfe };
	unsigned char *big;
	size_t n = 16843010;	/* * 255 wraps past 2^32 */

	(void)state;
	assert_int_equal(bconf_checksum(NULL, 0), 0);
	assert_int_equal(bconf_checksum("", 1), 0);
	assert_int_equal(bconf_checksum("abc", 4), 97 + 98 + 99);
	/* Bytes are unsigned: 0xff counts 255, not -1. */
	assert_int_equal(bconf_checksum(high, 4), 0xff + 0x80 + 0x81 + 0xfe);

	big = malloc(n);
	assert_non_null(big);
	memset(big, 0xff, n);
	assert_int_equal(bconf_checksum(big, n), (uint32_t)(n * 255ULL));
	assert_int_equal(bconf_checksum(big, n), 254);
	free(big);
}

/* Exact bytes of a known blob, checked by hand. */
static void test_build_exact_bytes(void **state)
{
	static const unsigned char want[] = {
		'a', '=', '1', '\n', 0,		/* text + NUL */
		0, 0, 0,			/* pad: 0 + 5 + 20 = 25 -> 28 */
		8, 0, 0, 0,			/* size 8 */
		217, 0, 0, 0,			/* 97 + 61 + 49 + 10 */
		'#', 'B', 'O', 'O', 'T', 'C', 'O', 'N', 'F', 'I', 'G', '\n',
	};
	unsigned char out[64];

	(void)state;
	assert_int_equal(bconf_footer_blob_len(5, 0), sizeof(want));
	memset(out, 0xaa, sizeof(out));
	assert_int_equal(bconf_footer_build("a=1\n", 5, 0, out, sizeof(out)),
			 sizeof(want));
	assert_memory_equal(out, want, sizeof(want));
	assert_int_equal(out[sizeof(want)], 0xaa);	/* no overrun */

	/* After a 3-byte initrd: 3 + 5 + 20 = 28, no pad at all. */
	assert_int_equal(bconf_footer_blob_len(5, 3), 25);
	assert_int_equal(bconf_footer_build("a=1\n", 5, 3, out, sizeof(out)),
			 25);
	assert_int_equal(le32_at(out + 5), 5);
	assert_int_equal(le32_at(out + 9), 217);
	assert_memory_equal(out + 13, BCONF_MAGIC, BCONF_MAGIC_LEN);
}

/* A size >= 256 catches byte-order mistakes in the le32 fields. */
static void test_build_le32_fields(void **state)
{
	char conf[301];
	unsigned char out[400];
	size_t n;

	(void)state;
	memset(conf, 'z', 300);	/* 'z' = 122 */
	conf[300] = '\0';
	/* initrd 1: 1 + 301 + 20 = 322 -> pad 2, size 303 = 0x12f */
	n = bconf_footer_build(conf, sizeof(conf), 1, out, sizeof(out));
	assert_int_equal(n, 301 + 2 + 20);
	assert_int_equal(out[303], 0x2f);
	assert_int_equal(out[304], 0x01);
	assert_int_equal(out[305], 0);
	assert_int_equal(out[306], 0);
	/* 300 * 122 = 36600 = 0x8ef8 */
	assert_int_equal(out[307], 0xf8);
	assert_int_equal(out[308], 0x8e);
	assert_int_equal(out[309], 0);
	assert_int_equal(out[310], 0);
}

/* build -> find for every initrd size mod 4 and several text lengths. */
static void test_round_trip(void **state)
{
	static const char text[] = "key.sub = \"v\xe9lue\"\nk2 = 1, 2\n";
	size_t initrd, clen;

	(void)state;
	for (initrd = 0; initrd < 12; initrd++) {
		for (clen = 1; clen <= 9; clen++) {
			struct image im;
			struct bconf_footer f;
			struct bconf_error err = { .msg = NULL, .pos = -1 };
			char conf[16];
			size_t pad, i;
			unsigned int slack;

			memcpy(conf, text, clen - 1);
			conf[clen - 1] = '\0';
			image_make(&im, initrd, conf, clen, 0);
			assert_int_equal(im.len % BCONF_ALIGN, 0);
			pad = im.blob_len - clen - BCONF_FOOTER_LEN;
			assert_true(pad < BCONF_ALIGN);
			for (i = 0; i < pad; i++)
				assert_int_equal(im.buf[initrd + clen + i], 0);
			assert_int_equal(le32_at(im.buf + im.len - 20),
					 clen + pad);
			assert_int_equal(le32_at(im.buf + im.len - 16),
					 bconf_checksum(conf, clen));

			for (slack = 0; slack <= 3; slack += 3) {
				memset(&f, 0x5a, sizeof(f));
				assert_int_equal(find_all(&im, slack, &f, &err),
						 1);
				assert_int_equal(f.data_off, initrd);
				assert_int_equal(f.size, clen + pad);
				assert_int_equal(f.csum,
						 bconf_checksum(conf, clen));
				assert_int_equal(f.end, im.len);
				assert_int_equal(f.aligned, 1);
				/* Exactly the blob is enough. */
				assert_int_equal(find_tail(&im, im.blob_len,
							   slack, &f, &err),
						 1);
				assert_int_equal(f.data_off, initrd);
			}
			assert_memory_equal(im.buf + f.data_off, conf, clen);
			free(im.buf);
		}
	}
}

static void test_build_cap_and_overflow(void **state)
{
	unsigned char out[64];
	size_t need = bconf_footer_blob_len(5, 0);

	(void)state;
	assert_int_equal(need, 28);
	memset(out, 0xaa, sizeof(out));
	assert_int_equal(bconf_footer_build("a=1\n", 5, 0, out, need - 1), 0);
	assert_int_equal(out[0], 0xaa);	/* nothing written */
	assert_int_equal(bconf_footer_build("a=1\n", 5, 0, NULL, 0), 0);
	assert_int_equal(bconf_footer_build("a=1\n", 5, 0, out, need), need);

	/* The size field is 32 bits: larger texts cannot be described. */
	assert_int_equal(bconf_footer_blob_len(SIZE_MAX, 0), 0);
	assert_int_equal(bconf_footer_blob_len(SIZE_MAX - 30, 1), 0);
	if (sizeof(size_t) > 4) {
		assert_int_equal(bconf_footer_blob_len(UINT32_MAX, 0), 0);
		assert_int_equal(bconf_footer_blob_len(UINT32_MAX - 3, 0),
				 (size_t)UINT32_MAX - 3 + 20);
	}
	/* Huge initrd sizes only matter mod 4. */
	assert_int_equal(bconf_footer_blob_len(5, UINT64_MAX), 5 + 20);
	assert_int_equal(bconf_footer_blob_len(5, UINT64_MAX - 3), 5 + 3 + 20);
}

static void test_no_magic(void **state)
{
	unsigned char zeros[100] = { 0 };
	unsigned char almost[40];
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };

	(void)state;
	assert_int_equal(bconf_footer_find(zeros, 100, 100, 0, &f, &err), 0);
	assert_int_equal(bconf_footer_find(zeros, 100, 100, 3, &f, &err), 0);
	assert_int_equal(bconf_footer_find(zeros, 5, 5, 3, &f, &err), 0);
	assert_int_equal(bconf_footer_find(NULL, 0, 0, 3, &f, &err), 0);
	/* Only the tail is given: still sure there is no magic at the end. */
	assert_int_equal(bconf_footer_find(zeros, 100, 1000000, 3, &f, &err),
			 0);

	/* Magic without its newline is no magic. */
	memset(almost, 0, sizeof(almost));
	memcpy(almost + 28, "#BOOTCONFIG ", 12);
	assert_int_equal(bconf_footer_find(almost, 40, 40, 3, &f, &err), 0);
	assert_null(err.msg);
}

/* GRUB may round the initrd up: the magic then ends 1..3 bytes early. */
static void test_magic_early(void **state)
{
	size_t k, initrd;

	(void)state;
	for (initrd = 0; initrd < 4; initrd++) {
		for (k = 1; k <= 5; k++) {
			struct image im;
			struct bconf_footer f;
			struct bconf_error err = { .msg = NULL, .pos = -1 };
			unsigned int slack;

			image_make(&im, 40 + initrd, "x=y", 4, k);
			assert_int_equal(find_all(&im, 0, &f, &err), 0);
			for (slack = 1; slack <= 4; slack++) {
				int want = k <= slack;

				memset(&f, 0, sizeof(f));
				assert_int_equal(find_all(&im, slack, &f, &err),
						 want);
				if (!want)
					continue;
				assert_int_equal(f.end, im.len - k);
				assert_int_equal(f.data_off, 40 + initrd);
				assert_int_equal(f.aligned, (im.len - k) % 4 == 0);
				assert_int_equal(f.aligned, 1);
			}
			assert_null(err.msg);
			free(im.buf);
		}
	}
}

/* A footer whose own end is not 4-aligned is found, and flagged. */
static void test_unaligned_footer(void **state)
{
	struct image im;
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };

	(void)state;
	image_make(&im, 8, "x=y", 4, 0);
	/* Shift the blob one byte: the file is now 1 byte longer. */
	im.buf = realloc(im.buf, im.len + 1);
	assert_non_null(im.buf);
	memmove(im.buf + 9, im.buf + 8, im.blob_len);
	im.buf[8] = 0x80;
	im.len++;
	assert_int_equal(find_all(&im, 0, &f, &err), 1);
	assert_int_equal(f.end, im.len);
	assert_int_equal(f.aligned, 0);
	assert_int_equal(f.data_off, 9);
	free(im.buf);
}

static void test_size_too_big(void **state)
{
	struct image im;
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };
	size_t size_off;

	(void)state;
	image_make(&im, 100, "x=y", 4, 0);
	size_off = im.len - 20;
	put_le32_at(im.buf + size_off, 40000);
	assert_int_equal(find_all(&im, 3, &f, &err), -1);
	assert_non_null(err.msg);
	assert_non_null(strstr(err.msg, "larger than the file"));
	assert_int_equal(err.pos, (long)size_off);
#ifdef BCONF_ERROR_TEXT_MAX
	assert_non_null(strstr(err.msg, "bootconfig size 40000 is larger"));
#endif

	/* Exactly everything before the footer is fine (no initrd)... */
	put_le32_at(im.buf + size_off, (uint32_t)size_off);
	put_le32_at(im.buf + size_off + 4,
		    bconf_checksum(im.buf, size_off));
	err.msg = NULL;
	assert_int_equal(find_all(&im, 3, &f, &err), 1);
	assert_int_equal(f.data_off, 0);
	/* ...one more byte is not. */
	put_le32_at(im.buf + size_off, (uint32_t)size_off + 1);
	assert_int_equal(find_all(&im, 3, &f, &err), -1);
	assert_int_equal(err.pos, (long)size_off);
	free(im.buf);
}

static void test_size_over_max(void **state)
{
	size_t len = 50000, size_off = len - 20;
	unsigned char *buf = calloc(1, len);
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };

	(void)state;
	assert_non_null(buf);
	memcpy(buf + len - 12, BCONF_MAGIC, 12);
	put_le32_at(buf + size_off, 40000);
	assert_int_equal(bconf_footer_find(buf, len, len, 0, &f, &err), -1);
	assert_non_null(strstr(err.msg, "maximum of 32767 bytes"));
	assert_int_equal(err.pos, (long)size_off);
#ifdef BCONF_ERROR_TEXT_MAX
	assert_non_null(strstr(err.msg, "size 40000 exceeds"));
#endif

	/* The boundary: 32767 passes (all NULs sum to 0), 32768 fails. */
	put_le32_at(buf + size_off, BCONF_DATA_MAX);
	assert_int_equal(bconf_footer_find(buf, len, len, 0, &f, &err), 1);
	assert_int_equal(f.size, BCONF_DATA_MAX);
	assert_int_equal(f.data_off, size_off - BCONF_DATA_MAX);
	put_le32_at(buf + size_off, BCONF_DATA_MAX + 1);
	assert_int_equal(bconf_footer_find(buf, len, len, 0, &f, &err), -1);
	assert_non_null(strstr(err.msg, "maximum"));

	/* A size of 0 is a valid (empty) footer: the parser rejects it. */
	put_le32_at(buf + size_off, 0);
	assert_int_equal(bconf_footer_find(buf, len, len, 0, &f, &err), 1);
	assert_int_equal(f.size, 0);
	assert_int_equal(f.data_off, size_off);
	free(buf);
}

static void test_checksum_mismatch(void **state)
{
	struct image im;
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };
	size_t csum_off;

	(void)state;
	image_make(&im, 17, "abc=def", 8, 0);
	csum_off = im.len - 16;

	im.buf[17] = 'b';	/* 'a' -> 'b': one more */
	assert_int_equal(find_all(&im, 3, &f, &err), -1);
	assert_non_null(strstr(err.msg, "checksum mismatch"));
	assert_int_equal(err.pos, (long)csum_off);
#ifdef BCONF_ERROR_TEXT_MAX
	assert_non_null(strstr(err.msg, "footer says 658, data sums to 659"));
#endif
	im.buf[17] = 'a';
	assert_int_equal(find_all(&im, 3, &f, &err), 1);
	assert_int_equal(f.csum, 658);

	/* A NUL in the padding turned into something else counts too. */
	im.buf[17 + 8] = 1;
	assert_int_equal(find_all(&im, 3, &f, &err), -1);
	assert_int_equal(err.pos, (long)csum_off);
	im.buf[17 + 8] = 0;

	/* And a damaged checksum field. */
	im.buf[csum_off + 3] ^= 0x40;
	assert_int_equal(find_all(&im, 3, &f, &err), -1);
	assert_non_null(strstr(err.msg, "checksum mismatch"));
	free(im.buf);
}

static void test_truncated_tail(void **state)
{
	struct image im;
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };
	size_t t;

	(void)state;
	image_make(&im, 64, "k = \"v\"", 8, 0);

	/* Footer visible but the data is not: the caller must pass more. */
	for (t = 20; t < im.blob_len; t++) {
		err.msg = NULL;
		assert_int_equal(find_tail(&im, t, 0, &f, &err), -1);
		assert_non_null(strstr(err.msg, "before the tail"));
		assert_int_equal(err.pos, (long)(im.len - 20));
	}
	/* Magic visible, fields not. */
	for (t = 12; t < 20; t++) {
		err.msg = NULL;
		assert_int_equal(find_tail(&im, t, 0, &f, &err), -1);
		assert_non_null(strstr(err.msg, "too short"));
		assert_int_equal(err.pos, -1);
	}
	/* Not even the magic. */
	for (t = 0; t < 12; t++) {
		err.msg = NULL;
		assert_int_equal(find_tail(&im, t, 0, &f, &err), -1);
		assert_non_null(strstr(err.msg, "too short"));
	}
	/* With slack, the earlier positions must be visible as well... */
	im.buf[im.len - 1] = 'X';	/* break the magic at the end */
	err.msg = NULL;
	assert_int_equal(find_tail(&im, 13, 3, &f, &err), -1);
	assert_non_null(strstr(err.msg, "too short"));
	/* ...but a long enough tail answers "none". */
	assert_int_equal(find_tail(&im, 40, 3, &f, &err), 0);
	free(im.buf);
}

/* Files too short for a footer: no magic, or a magic without fields. */
static void test_short_files(void **state)
{
	unsigned char buf[20] = { 0 };
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };
	size_t len;

	(void)state;
	for (len = 12; len < 20; len++) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf + len - 12, BCONF_MAGIC, 12);
		err.msg = NULL;
		assert_int_equal(bconf_footer_find(buf, len, len, 0, &f, &err),
				 -1);
		assert_non_null(strstr(err.msg, "truncated"));
		assert_int_equal(err.pos, (long)(len - 12));
	}
	/* 20 bytes: size 0, checksum 0 is complete. */
	memset(buf, 0, sizeof(buf));
	memcpy(buf + 8, BCONF_MAGIC, 12);
	assert_int_equal(bconf_footer_find(buf, 20, 20, 0, &f, &err), 1);
	assert_int_equal(f.data_off, 0);
	assert_int_equal(f.size, 0);
	assert_int_equal(f.end, 20);
}

static void test_tail_longer_than_file(void **state)
{
	unsigned char buf[64] = { 0 };
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = 7 };

	(void)state;
	memcpy(buf + 52, BCONF_MAGIC, 12);
	assert_int_equal(bconf_footer_find(buf, 64, 63, 3, &f, &err), -1);
	assert_non_null(strstr(err.msg, "longer than the file"));
	assert_int_equal(err.pos, -1);
	assert_int_equal(bconf_footer_find(buf, 1, 0, 0, &f, &err), -1);
	assert_int_equal(bconf_footer_find(NULL, 5, 100, 0, &f, &err), -1);
	/* NULL err and f are tolerated. */
	assert_int_equal(bconf_footer_find(buf, 64, 63, 3, NULL, NULL), -1);
}

/* The file offsets in err->pos and f count from the file, not the tail. */
static void test_offsets_are_file_offsets(void **state)
{
	struct image im;
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -1 };
	unsigned char *tail;
	uint64_t big = 5000000000ULL;	/* a 5 GB "file" */

	(void)state;
	image_make(&im, 2, "a=b", 4, 0);	/* 2 + 4 + 2 + 20 = 28 */
	tail = im.buf + 2;
	/* Pretend the initrd was 5 GB - 26; the alignment differs, fine. */
	assert_int_equal(bconf_footer_find(tail, 26, big, 0, &f, &err), 1);
	assert_int_equal(f.data_off, big - 26);
	assert_int_equal(f.end, big);
	assert_int_equal(f.aligned, big % 4 == 0);
	tail[0] ^= 1;
	assert_int_equal(bconf_footer_find(tail, 26, big, 0, &f, &err), -1);
	if (sizeof(long) > 4)
		assert_int_equal(err.pos, (long)(big - 16));
	free(im.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksum_values),
		cmocka_unit_test(test_build_exact_bytes),
		cmocka_unit_test(test_build_le32_fields),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_build_cap_and_overflow),
		cmocka_unit_test(test_no_magic),
		cmocka_unit_test(test_magic_early),
		cmocka_unit_test(test_unaligned_footer),
		cmocka_unit_test(test_size_too_big),
		cmocka_unit_test(test_size_over_max),
		cmocka_unit_test(test_checksum_mismatch),
		cmocka_unit_test(test_truncated_tail),
		cmocka_unit_test(test_short_files),
		cmocka_unit_test(test_tail_longer_than_file),
		cmocka_unit_test(test_offsets_are_file_offsets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
