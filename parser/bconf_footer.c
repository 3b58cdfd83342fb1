/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The initrd footer that tools/bootconfig -a appends and the kernel looks
 * for at the end of the initrd:
 *
 *   [config text][NUL][NUL pad][size le32][checksum le32]["#BOOTCONFIG\n"]
 *
 * size counts text, NUL and pad; the checksum is the 32-bit sum of those
 * bytes (the pad, being NULs, adds nothing). The pad makes the whole file,
 * initrd included, a multiple of BCONF_ALIGN long.
 *
 * Everything here works on bytes, never on host integers laid over the
 * buffer, so the result is the same on any endianness and alignment.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bconf.h"

/* Offsets of the two le32 fields, counted back from the magic. */
#define FOOTER_SIZE_BACK 8
#define FOOTER_CSUM_BACK 4

static uint32_t bconf_get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 |
	       (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void bconf_put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

uint32_t bconf_checksum(const void *data, size_t size)
{
	const unsigned char *p = data;
	uint32_t sum = 0;

	/* Unsigned bytes: a plain char sum would go wrong on x86 for >= 0x80. */
	while (size--)
		sum += *p++;
	return sum;
}

/* Errors carry their numbers, formatted into err->text. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int bconf_footer_fail(struct bconf_error *err, uint64_t pos,
			     const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
	err->msg = err->text;
	/* A 32-bit long cannot hold every file offset: say "no place" then. */
	err->pos = pos <= (uint64_t)LONG_MAX ? (long)pos : -1;
	err->line = 0;
	err->col = 0;
	return -1;
}

/*
 * Validate the footer whose magic starts at file offset @magic_off: the
 * caller has checked that the magic and both fields are inside @tail.
 * @toff is the file offset of tail[0], @file_size where the tail ends.
 */
static int bconf_footer_check(const unsigned char *tail, uint64_t toff,
			      uint64_t file_size, uint64_t magic_off,
			      struct bconf_footer *f, struct bconf_error *err)
{
	uint64_t size_off = magic_off - FOOTER_SIZE_BACK;
	uint64_t csum_off = magic_off - FOOTER_CSUM_BACK;
	uint32_t size = bconf_get_le32(tail + (size_t)(size_off - toff));
	uint32_t csum = bconf_get_le32(tail + (size_t)(csum_off - toff));
	uint64_t data_off;
	uint32_t sum;

	if (size > size_off)
		return bconf_footer_fail(err, size_off,
			"bootconfig size %lu is larger than the file (%llu bytes before the footer): the footer is corrupt, re-apply the bootconfig or delete it (bootconfig -d)",
			(unsigned long)size, (unsigned long long)size_off);
	/*
	 * Checked before the checksum (the kernel checks it after) so that
	 * a tail of BCONF_DATA_MAX + BCONF_FOOTER_LEN + slack bytes is always
	 * enough to judge any footer.
	 */
	if (size > BCONF_DATA_MAX)
		return bconf_footer_fail(err, size_off,
			"bootconfig size %lu exceeds the kernel's maximum of %d bytes: shrink the config and re-apply it",
			(unsigned long)size, BCONF_DATA_MAX);

	data_off = size_off - size;
	if (data_off < toff)
		return bconf_footer_fail(err, size_off,
			"bootconfig data starts at offset %llu, before the tail that was passed in (offset %llu): pass at least the last %llu bytes of the file",
			(unsigned long long)data_off, (unsigned long long)toff,
			(unsigned long long)(file_size - data_off));

	sum = bconf_checksum(tail + (size_t)(data_off - toff), size);
	if (sum != csum)
		return bconf_footer_fail(err, csum_off,
			"bootconfig checksum mismatch: footer says %lu, data sums to %lu: the data or footer is corrupt, re-apply the bootconfig",
			(unsigned long)csum, (unsigned long)sum);

	if (f) {
		f->data_off = data_off;
		f->size = size;
		f->csum = csum;
		f->end = magic_off + BCONF_MAGIC_LEN;
		f->aligned = f->end % BCONF_ALIGN == 0;
	}
	return 1;
}

int bconf_footer_find(const unsigned char *tail, size_t tail_len,
		      uint64_t file_size, unsigned int slack,
		      struct bconf_footer *f, struct bconf_error *err)
{
	uint64_t toff, back;

	if ((uint64_t)tail_len > file_size || (!tail && tail_len))
		return bconf_footer_fail(err, (uint64_t)-1,
			"bootconfig footer: the tail passed in (%llu bytes) is longer than the file (%llu bytes) (caller bug)",
			(unsigned long long)tail_len,
			(unsigned long long)file_size);
	toff = file_size - tail_len;

	/*
	 * Like the kernel: the very end first, then up to @slack bytes
	 * earlier, and the first magic found decides even when its footer
	 * turns out to be corrupt.
	 */
	for (back = 0; back <= slack; back++) {
		uint64_t magic_end = BCONF_MAGIC_LEN + back;
		uint64_t magic_off;

		if (file_size < magic_end)
			break;	/* no room for the magic here or further back */
		if (tail_len < magic_end)
			return bconf_footer_fail(err, (uint64_t)-1,
				"bootconfig footer: the tail passed in (%llu bytes) is too short to look for the magic %llu bytes from the end: pass more of the end of the file",
				(unsigned long long)tail_len,
				(unsigned long long)magic_end);
		magic_off = file_size - magic_end;
		if (memcmp(tail + (size_t)(magic_off - toff), BCONF_MAGIC,
			   BCONF_MAGIC_LEN))
			continue;
		/*
		 * tools/bootconfig ignores files shorter than a footer; a
		 * magic with no room for its fields is still a broken
		 * bootconfig, and saying so beats claiming there is none.
		 */
		if (magic_off < FOOTER_SIZE_BACK)
			return bconf_footer_fail(err, magic_off,
				"bootconfig magic found at offset %llu but the file is too short for the size and checksum: the footer is truncated, re-apply the bootconfig",
				(unsigned long long)magic_off);
		if (magic_off - FOOTER_SIZE_BACK < toff)
			return bconf_footer_fail(err, (uint64_t)-1,
				"bootconfig footer: the tail passed in (%llu bytes) is too short to hold the footer (%llu bytes): pass more of the end of the file",
				(unsigned long long)tail_len,
				(unsigned long long)(BCONF_FOOTER_LEN + back));
		return bconf_footer_check(tail, toff, file_size, magic_off,
					  f, err);
	}
	return 0;
}

/* NUL bytes that make initrd + blob end on a BCONF_ALIGN boundary. */
static size_t bconf_footer_pad(size_t conf_len, uint64_t initrd_size)
{
	/* Sum the remainders: initrd_size + conf_len could overflow. */
	unsigned int r = (unsigned int)(initrd_size % BCONF_ALIGN +
				    conf_len % BCONF_ALIGN +
				    BCONF_FOOTER_LEN % BCONF_ALIGN) % BCONF_ALIGN;

	return (BCONF_ALIGN - r) % BCONF_ALIGN;
}

/*
 * 0 when the blob cannot exist: its size field is 32 bits wide. The text
 * itself is not checked (length, NUL, syntax): that is bconf_parse()'s job.
 */
size_t bconf_footer_blob_len(size_t conf_len, uint64_t initrd_size)
{
	size_t pad = bconf_footer_pad(conf_len, initrd_size);

	if ((uint64_t)conf_len > (uint64_t)UINT32_MAX - pad)
		return 0;
	if (conf_len + pad > SIZE_MAX - BCONF_FOOTER_LEN)
		return 0;
	return conf_len + pad + BCONF_FOOTER_LEN;
}

size_t bconf_footer_build(const char *conf, size_t conf_len,
			  uint64_t initrd_size, unsigned char *out, size_t cap)
{
	size_t need = bconf_footer_blob_len(conf_len, initrd_size);
	size_t pad = bconf_footer_pad(conf_len, initrd_size);
	unsigned char *p = out;

	if (!need || cap < need || !out || (!conf && conf_len))
		return 0;
	if (conf_len)
		memcpy(p, conf, conf_len);
	p += conf_len;
	memset(p, 0, pad);
	p += pad;
	bconf_put_le32(p, (uint32_t)(conf_len + pad));
	p += 4;
	bconf_put_le32(p, bconf_checksum(conf, conf_len));
	p += 4;
	memcpy(p, BCONF_MAGIC, BCONF_MAGIC_LEN);
	return need;
}
