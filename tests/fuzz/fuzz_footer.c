/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the initrd footer codec.
 *
 * Input: [mode][slack][8 bytes: file size delta][payload]
 *
 * mode bit 0 clear: the payload is the tail of a file whose size is derived
 * from the delta (sometimes smaller than the tail: a caller bug that must be
 * refused, never read out of bounds). Whatever bconf_footer_find() says must
 * be consistent with the bytes.
 * mode bit 0 set: the payload is split into initrd and config, the blob is
 * built and appended, and find must give exactly that footer back.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Whether the magic ends @back bytes before the end of the file. */
static int magic_at(const unsigned char *tail, size_t tail_len,
		    uint64_t file_size, uint64_t back)
{
	if (file_size < BCONF_MAGIC_LEN + back || tail_len < BCONF_MAGIC_LEN + back)
		return 0;
	return !memcmp(tail + tail_len - BCONF_MAGIC_LEN - back, BCONF_MAGIC,
		       BCONF_MAGIC_LEN);
}

static void check_found(const unsigned char *tail, size_t tail_len,
			uint64_t file_size, unsigned int slack,
			const struct bconf_footer *f)
{
	uint64_t toff = file_size - tail_len, back = file_size - f->end, k;

	assert(f->data_off + f->size + BCONF_FOOTER_LEN == f->end);
	assert(f->end <= file_size);
	assert(back <= slack);
	/* The kernel takes the first magic from the end. */
	for (k = 0; k < back; k++)
		assert(!magic_at(tail, tail_len, file_size, k));
	assert(magic_at(tail, tail_len, file_size, back));
	assert(f->size <= BCONF_DATA_MAX);
	assert(f->data_off >= toff);
	assert(le32(tail + (f->end - 20 - toff)) == f->size);
	assert(le32(tail + (f->end - 16 - toff)) == f->csum);
	assert(bconf_checksum(tail + (f->data_off - toff), f->size) == f->csum);
	assert(f->aligned == (f->end % BCONF_ALIGN == 0));
}

static void check_any(const unsigned char *tail, size_t tail_len,
		      uint64_t file_size, unsigned int slack)
{
	struct bconf_footer f, f2;
	struct bconf_error err = { .msg = NULL, .pos = -2 };
	struct bconf_error err2 = { .msg = NULL, .pos = -2 };
	int ret, ret2;
	uint64_t k;

	memset(&f, 0, sizeof(f));
	memset(&f2, 0, sizeof(f2));
	ret = bconf_footer_find(tail, tail_len, file_size, slack, &f, &err);
	ret2 = bconf_footer_find(tail, tail_len, file_size, slack, &f2, &err2);
	assert(ret == ret2 && err.pos == err2.pos && !err.msg == !err2.msg);
	assert(!err.msg || !strcmp(err.msg, err2.msg));

	if ((uint64_t)tail_len > file_size) {
		assert(ret == -1 && err.msg && err.pos == -1);
		return;
	}
	switch (ret) {
	case 1:
		assert(!memcmp(&f, &f2, sizeof(f)));
		check_found(tail, tail_len, file_size, slack, &f);
		assert(err.msg == NULL);
		break;
	case 0:
		assert(err.msg == NULL && err.pos == -2);
		for (k = 0; k <= slack; k++)
			assert(!magic_at(tail, tail_len, file_size, k));
		break;
	case -1:
		assert(err.msg && *err.msg);
		assert(err.pos == -1 || (uint64_t)err.pos < file_size);
		break;
	default:
		assert(0);
	}
}

static void round_trip(const uint8_t *data, size_t size, unsigned int slack,
		       uint64_t delta)
{
	size_t initrd = size ? data[0] % (size + 1) : 0;
	size_t conf_len = size - initrd;
	size_t grub = delta % 4, blob_len, len;
	unsigned char *file;
	struct bconf_footer f;
	struct bconf_error err = { .msg = NULL, .pos = -2 };
	int ret;

	if (!conf_len)
		return;
	blob_len = bconf_footer_blob_len(conf_len, initrd);
	assert(blob_len >= conf_len + BCONF_FOOTER_LEN);
	assert(blob_len <= conf_len + BCONF_FOOTER_LEN + 3);
	len = initrd + blob_len + grub;
	file = malloc(len);
	assert(file);
	memcpy(file, data, initrd);
	assert(bconf_footer_build((const char *)data + initrd, conf_len,
				  initrd, file + initrd, blob_len - 1) == 0);
	assert(bconf_footer_build((const char *)data + initrd, conf_len,
				  initrd, file + initrd, blob_len) == blob_len);
	memset(file + initrd + blob_len, 0, grub);
	assert((initrd + blob_len) % BCONF_ALIGN == 0);

	ret = bconf_footer_find(file, len, len, slack, &f, &err);
	if (grub > slack) {
		assert(ret == 0);	/* the magic is out of reach */
	} else if (blob_len - BCONF_FOOTER_LEN > BCONF_DATA_MAX) {
		assert(ret == -1);	/* too big for the kernel */
		assert(err.pos == (long)(initrd + blob_len - 20));
	} else {
		assert(ret == 1);
		assert(f.data_off == initrd);
		assert(f.end == initrd + blob_len);
		assert(f.size == blob_len - BCONF_FOOTER_LEN);
		assert(f.csum == bconf_checksum(data + initrd, conf_len));
		assert(f.aligned);
		assert(!memcmp(file + f.data_off, data + initrd, conf_len));
	}
	check_any(file, len, len, slack);
	free(file);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int mode, slack;
	uint64_t delta, file_size;
	unsigned char *tail;

	if (size < 10)
		return 0;
	mode = data[0];
	slack = data[1] % 8;
	delta = get64(data + 2);
	data += 10;
	size -= 10;

	if (mode & 1) {
		round_trip(data, size, slack, delta);
		return 0;
	}

	/* An exact-size copy, so that any overread hits ASan's redzone. */
	tail = malloc(size ? size : 1);
	assert(tail);
	memcpy(tail, data, size);
	switch ((mode >> 1) % 4) {
	case 0:		/* the whole file */
		file_size = size;
		break;
	case 1:		/* a tail of a larger file, maybe a huge one */
		file_size = size + (delta >> (delta % 64));
		if (file_size < size)
			file_size = UINT64_MAX;
		break;
	case 2:		/* a tail longer than the file: caller bug */
		file_size = delta % (size + 1);
		break;
	default:	/* a few bytes more, near the interesting limits */
		file_size = size + delta % 64;
		break;
	}
	check_any(size ? tail : NULL, size, file_size, slack);
	free(tail);
	return 0;
}
