/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel image into the kernel's own bytes (kimg.h, docs/kernel-image.md):
 *  - an ELF vmlinux is taken as it is (it has the kernel's sections);
 *  - an x86 bzImage: the setup header's payload_offset/payload_length
 *    (kernel-facts 100) locate the compressed vmlinux;
 *  - another ELF file (the MIPS vmlinuz self-decompressor, kernel-facts 101)
 *    carries the compressed vmlinux.bin among its data: the first stream
 *    with a known magic that unpacks is taken;
 *  - a file that is one compressed stream (arm64 Image.gz) is unpacked;
 *  - anything else (an arm64 Image, a raw vmlinux.bin) is taken as is.
 * gzip (kgzip.c), xz and lzma (liblzma), LZ4 legacy frames (liblz4) and zstd
 * (libzstd) are unpacked; bzip2 and LZO are named and refused. Nothing is
 * read or written past KIMG_MAX.
 */
#include <lz4.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "kimage/kgzip.h"
#include "kimage/kimg.h"
#include "util/readfile.h"

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

const char *kimg_compression(const unsigned char *p, size_t n)
{
	if (n >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8)
		return "gzip";
	if (n >= 6 && !memcmp(p, "\xfd" "7zXZ\0", 6))
		return "xz";
	if (n >= 4 && !memcmp(p, "\x02\x21\x4c\x18", 4))
		return "lz4";
	if (n >= 4 && !memcmp(p, "\x28\xb5\x2f\xfd", 4))
		return "zstd";
	if (n >= 4 && !memcmp(p, "BZh", 3) && p[3] >= '1' && p[3] <= '9')
		return "bzip2";
	if (n >= 4 && !memcmp(p, "\x89LZO", 4))
		return "lzo";
	if (n >= 13 && p[0] == 0x5d && !p[1] && !p[2])
		return "lzma";
	return NULL;
}

/* The output buffer (a struct kbuf, kgzip.h) grows by doubling up to KIMG_MAX. */
static int unbuf_room(struct kbuf *o, size_t want)
{
	size_t cap = o->cap ? o->cap : (size_t)4 << 20;
	unsigned char *np;

	if (o->cap - o->n >= want)
		return 0;
	if (o->n + want > KIMG_MAX + 1 || o->n + want < o->n)
		return -1;
	while (cap - o->n < want)
		cap *= 2;
	if (cap > KIMG_MAX + 1)
		cap = KIMG_MAX + 1;
	np = realloc(o->p, cap);
	if (!np)
		return -2;
	o->p = np;
	o->cap = cap;
	return 0;
}

static int un_room(struct kbuf *o, size_t want, const char *path,
		   const char *fmt, size_t at, struct bt_error *e)
{
	int r = unbuf_room(o, want);

	if (r == -1)
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the %s stream unpacks to more than %zu MiB, the most a kernel image may hold here: not a kernel image?", at, fmt, KIMG_MAX >> 20);
	if (r == -2)
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory unpacking the %s stream at byte %zu", fmt, at);
	return 0;
}

/* Where a gzip stream is, for its room and its messages. */
struct un_where {
	const char *path;
	size_t at;
};

/* A megabyte free before each step of inflating. */
static int un_gzip_room(struct kbuf *o, void *ctx, struct bt_error *e)
{
	const struct un_where *w = ctx;

	return un_room(o, (size_t)1 << 20, w->path, "gzip", w->at, e) ? -1 : 0;
}

static int un_gzip(const unsigned char *in, size_t len, size_t at,
		   const char *path, struct kbuf *o, struct bt_error *e)
{
	struct un_where w = { path, at };
	size_t used;
	enum kgz_end r = kgz_inflate(in, len, o, un_gzip_room, &w, &used, e);

	if (r == KGZ_ERR)
		return -1;
	if (r == KGZ_NOSTART)
		return bt_error_set(e, BT_EXIT_ENV, path, "zlib: cannot start inflating");
	if (r != KGZ_END)
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the gzip stream starting at byte %zu is %s; the image is damaged or cut short (download it again)", at + used, at, r == KGZ_SHORT ? "cut short" : "corrupt");
	return 0;
}

static int un_xz(const unsigned char *in, size_t len, size_t at, int alone,
		 const char *path, struct kbuf *o, struct bt_error *e)
{
	lzma_stream s = LZMA_STREAM_INIT;
	const char *fmt = alone ? "lzma" : "xz";
	lzma_ret r;

	r = alone ? lzma_alone_decoder(&s, (uint64_t)KIMG_MAX * 2)
		  : lzma_stream_decoder(&s, (uint64_t)KIMG_MAX * 2, 0);
	if (r != LZMA_OK)
		return bt_error_set(e, BT_EXIT_ENV, path, "liblzma: cannot start unpacking");
	s.next_in = in;
	s.avail_in = len;
	do {
		if (un_room(o, (size_t)1 << 20, path, fmt, at, e)) {
			lzma_end(&s);
			return -1;
		}
		s.next_out = o->p + o->n;
		s.avail_out = o->cap - o->n;
		r = lzma_code(&s, s.avail_in ? LZMA_RUN : LZMA_FINISH);
		o->n = o->cap - s.avail_out;
	} while (r == LZMA_OK);
	lzma_end(&s);
	if (r != LZMA_STREAM_END)
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the %s stream starting at byte %zu is %s; the image is damaged or cut short (download it again)", at + (size_t)s.total_in, fmt, at, r == LZMA_BUF_ERROR ? "cut short" : "corrupt");
	return 0;
}

static int un_zstd(const unsigned char *in, size_t len, size_t at,
		   const char *path, struct kbuf *o, struct bt_error *e)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, len, 0 };
	size_t r = 1;

	if (!d)
		return bt_error_set(e, BT_EXIT_ENV, path, "libzstd: cannot start unpacking");
	/* the kernel's zstd -22 --ultra window, bounded like the output */
	ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 29);
	while (r) {
		ZSTD_outBuffer ob;

		if (un_room(o, (size_t)1 << 20, path, "zstd", at, e)) {
			ZSTD_freeDStream(d);
			return -1;
		}
		ob.dst = o->p + o->n;
		ob.size = o->cap - o->n;
		ob.pos = 0;
		r = ZSTD_decompressStream(d, &ob, &ib);
		o->n += ob.pos;
		if (ZSTD_isError(r) || (r && ib.pos == ib.size && ob.pos < ob.size)) {
			ZSTD_freeDStream(d);
			return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the zstd stream starting at byte %zu is %s; the image is damaged or cut short (download it again)", at + ib.pos, at, ZSTD_isError(r) ? ZSTD_getErrorName(r) : "cut short");
		}
	}
	ZSTD_freeDStream(d);
	return 0;
}

/*
 * LZ4 legacy frames (kernel-facts 102): the magic, then blocks of a 32-bit
 * little-endian size and that many bytes, each unpacking to at most 8 MiB;
 * the kernel's build appends the unpacked size, which ends the walk as a
 * block that does not fit.
 */
static int un_lz4(const unsigned char *in, size_t len, size_t at,
		  const char *path, struct kbuf *o, struct bt_error *e)
{
	size_t i = 4, blocks = 0;

	while (i + 4 <= len) {
		uint32_t n = le32(in + i);
		int r;

		if (n == 0x184c2102u) {	/* a new frame of the same stream */
			i += 4;
			continue;
		}
		if (!n || n > len - i - 4 || n > (uint32_t)LZ4_compressBound(8 << 20))
			break;
		if (un_room(o, (size_t)8 << 20, path, "lz4", at, e))
			return -1;
		r = LZ4_decompress_safe((const char *)in + i + 4,
					(char *)o->p + o->n, (int)n,
					(int)(o->cap - o->n > (size_t)8 << 20 ? (size_t)8 << 20 : o->cap - o->n));
		if (r < 0)
			return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the LZ4 block of %u bytes there is corrupt (LZ4 legacy stream starting at byte %zu); the image is damaged (download it again)", at + i, n, at);
		o->n += (size_t)r;
		i += 4 + n;
		blocks++;
	}
	if (!blocks)
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the LZ4 legacy stream starting at byte %zu holds no block; the image is damaged or cut short (download it again)", at + 4, at);
	return 0;
}

/* Unpack the stream of @fmt at @in (@at: its offset in the file, for messages). */
static int unpack_stream(const char *fmt, const unsigned char *in, size_t len,
			 size_t at, const char *path, struct kbuf *o,
			 struct bt_error *e)
{
	if (!strcmp(fmt, "gzip"))
		return un_gzip(in, len, at, path, o, e);
	if (!strcmp(fmt, "xz") || !strcmp(fmt, "lzma"))
		return un_xz(in, len, at, fmt[0] == 'l', path, o, e);
	if (!strcmp(fmt, "zstd"))
		return un_zstd(in, len, at, path, o, e);
	if (!strcmp(fmt, "lz4"))
		return un_lz4(in, len, at, path, o, e);
	return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the kernel is compressed with %s, which is not read here (gzip, xz, lzma, lz4 and zstd are); unpack it yourself (the kernel's scripts/extract-vmlinux does) and give the result as --kernel", at, fmt);
}

static int take_stream(struct kimg *k, const char *fmt, const unsigned char *in,
		       size_t len, size_t at, const char *path,
		       struct bt_error *e)
{
	struct kbuf o = { NULL, 0, 0 };

	if (unpack_stream(fmt, in, len, at, path, &o, e)) {
		free(o.p);
		return -1;
	}
	k->data = o.p;
	k->len = o.n;
	return 0;
}

/* ---- ELF: a vmlinux, or a self-decompressor --------------------------- */

uint64_t kimg_rd(const unsigned char *p, int n, int big)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[big ? i : n - 1 - i];
	return v;
}

/*
 * Has the ELF file a section of the kernel proper (.init.text, __ksymtab,
 * __param)? A self-decompressor has only its own small .text and .data.
 */
static int elf_is_vmlinux(const unsigned char *b, size_t len, int is64, int big)
{
	uint64_t shoff = is64 ? kimg_rd(b + 0x28, 8, big) : kimg_rd(b + 0x20, 4, big);
	size_t shent = (size_t)kimg_rd(b + (is64 ? 0x3a : 0x2e), 2, big);
	size_t shnum = (size_t)kimg_rd(b + (is64 ? 0x3c : 0x30), 2, big);
	size_t shstr = (size_t)kimg_rd(b + (is64 ? 0x3e : 0x32), 2, big);
	uint64_t stroff, strsz;
	size_t i;

	if (shent < (is64 ? 64u : 40u) || shoff > len || shstr >= shnum ||
	    shnum > (len - shoff) / shent)
		return 0;
	stroff = is64 ? kimg_rd(b + shoff + shstr * shent + 0x18, 8, big)
		      : kimg_rd(b + shoff + shstr * shent + 0x10, 4, big);
	strsz = is64 ? kimg_rd(b + shoff + shstr * shent + 0x20, 8, big)
		     : kimg_rd(b + shoff + shstr * shent + 0x14, 4, big);
	if (stroff > len || strsz > len - stroff)
		return 0;
	for (i = 1; i < shnum; i++) {
		uint64_t nm = kimg_rd(b + shoff + i * shent, 4, big);
		const char *s = (const char *)b + stroff + nm;
		size_t room = nm < strsz ? (size_t)(strsz - nm) : 0;

		if (!room)
			continue;
		if (!strncmp(s, ".init.text", room) || !strncmp(s, "__ksymtab", room) ||
		    !strncmp(s, "__param", room))
			return 1;
	}
	return 0;
}

/* The first embedded stream with a known magic that unpacks to at least 64 KiB. */
static int scan_streams(struct kimg *k, const unsigned char *b, size_t len,
			size_t from, const char *path, const char *outer,
			struct bt_error *e)
{
	static const char *const tried[] = { "gzip", "xz", "lz4", "zstd" };
	size_t i;

	for (i = from; i + 16 <= len; i++) {
		const char *fmt = kimg_compression(b + i, len - i);
		struct bt_error ign = { 0 };
		size_t j;

		if (!fmt)
			continue;
		for (j = 0; j < sizeof(tried) / sizeof(*tried); j++)
			if (!strcmp(fmt, tried[j]))
				break;
		if (j == sizeof(tried) / sizeof(*tried))
			continue;
		if (take_stream(k, fmt, b + i, len - i, i, path, &ign) ||
		    k->len < ((size_t)64 << 10)) {
			free(k->data);
			k->data = NULL;
			k->len = 0;
			bt_error_clear(&ign);
			continue;
		}
		snprintf(k->how, sizeof(k->how), "%s, %s stream at byte %zu", outer, fmt, i);
		return 0;
	}
	return bt_error_set(e, BT_EXIT_INPUT, path, "%s without a kernel inside: no gzip, xz, lz4 or zstd stream from byte %zu on unpacks; give the vmlinux (or the -dbg package's) as --kernel", outer, from);
}

static int unpack(const unsigned char *b, size_t len, const char *path,
		struct kimg *k, struct bt_error *e)
{
	const char *fmt;

	memset(k, 0, sizeof(*k));
	if (len > KIMG_MAX)
		return bt_error_set(e, BT_EXIT_INPUT, path, "%zu bytes: more than the %zu MiB a kernel image may have here", len, KIMG_MAX >> 20);
	if (len >= 0x40 && !memcmp(b, "\x7f" "ELF", 4) &&
	    (b[4] == 1 || b[4] == 2) && (b[5] == 1 || b[5] == 2)) {
		int is64 = b[4] == 2, big = b[5] == 2;

		if (!elf_is_vmlinux(b, len, is64, big))
			return scan_streams(k, b, len, 0x40, path,
					    "an ELF file that is no vmlinux (a self-decompressing vmlinuz)", e);
		k->data = malloc(len ? len : 1);
		if (!k->data)
			return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
		memcpy(k->data, b, len);
		k->len = len;
		k->elf_class = is64 ? 64 : 32;
		k->elf_big = big;
		snprintf(k->how, sizeof(k->how), "ELF vmlinux (%d-bit, %s-endian)", is64 ? 64 : 32, big ? "big" : "little");
		return 0;
	}
	if (len >= 0x250 && !memcmp(b + 0x202, "HdrS", 4)) {
		/* x86 boot protocol (kernel-facts 100) */
		unsigned setup = b[0x1f1] ? b[0x1f1] : 4;
		unsigned ver = (unsigned)kimg_rd(b + 0x206, 2, 0);
		size_t pm = ((size_t)setup + 1) * 512;
		uint32_t off = le32(b + 0x248), plen = le32(b + 0x24c);

		if (ver < 0x208)
			return bt_error_set(e, BT_EXIT_INPUT, path, "byte 518: boot protocol %u.%02u has no payload_offset (2.08 or later needed): too old a bzImage to read; give its vmlinux as --kernel", ver >> 8, ver & 0xff);
		if (pm > len || off > len - pm || plen > len - pm - off || plen < 16)
			return bt_error_set(e, BT_EXIT_INPUT, path, "byte 584: the setup header's payload (offset %u, %u bytes, after %zu setup bytes) lies outside the file's %zu bytes: the bzImage is cut short or damaged", off, plen, pm, len);
		fmt = kimg_compression(b + pm + off, plen);
		if (!fmt)
			return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: the bzImage payload starts with %02x %02x %02x %02x, no compression known here (gzip, xz, lzma, lz4, zstd; bzip2 and lzo are named but not read): give the vmlinux as --kernel", pm + off, b[pm + off], b[pm + off + 1], b[pm + off + 2], b[pm + off + 3]);
		if (take_stream(k, fmt, b + pm + off, plen, pm + off, path, e))
			return -1;
		snprintf(k->how, sizeof(k->how), "x86 bzImage (boot protocol %u.%02u), %s payload at byte %zu", ver >> 8, ver & 0xff, fmt, pm + off);
		/* 2.06+: cmdline_size (kernel-facts 110); the 2.08 above has it */
		k->cmdline_size = le32(b + 0x238);
		return 0;
	}
	fmt = kimg_compression(b, len);
	if (fmt) {
		if (take_stream(k, fmt, b, len, 0, path, e))
			return -1;
		snprintf(k->how, sizeof(k->how), "%s-compressed image%s", fmt,
			 k->len >= 0x40 && !memcmp(k->data + 0x38, "ARM\x64", 4) ? " (arm64 Image)" : "");
		return 0;
	}
	k->data = malloc(len ? len : 1);
	if (!k->data)
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	memcpy(k->data, b, len);
	k->len = len;
	snprintf(k->how, sizeof(k->how), "%s",
		 len >= 0x40 && !memcmp(b + 0x38, "ARM\x64", 4) ? "arm64 Image" : "raw image (no header known here: read as it is)");
	return 0;
}

/*
 * An unpacked kernel that is an ELF file (an x86 bzImage's payload is
 * vmlinux) says its class and byte order, whatever it was packed in.
 */
int kimg_unpack(const unsigned char *b, size_t len, const char *path,
		struct kimg *k, struct bt_error *e)
{
	if (unpack(b, len, path, k, e))
		return -1;
	if (!k->elf_class && k->len >= 0x40 && !memcmp(k->data, "\x7f" "ELF", 4) &&
	    (k->data[4] == 1 || k->data[4] == 2) && (k->data[5] == 1 || k->data[5] == 2)) {
		k->elf_class = k->data[4] == 2 ? 64 : 32;
		k->elf_big = k->data[5] == 2;
	}
	return 0;
}

int kimg_load(const char *path, struct kimg *k, struct bt_error *e)
{
	size_t len;
	char *b = readfile(path, KIMG_MAX, 0, "a kernel image (vmlinux, vmlinuz, bzImage, Image)", &len, e);
	int r;

	memset(k, 0, sizeof(*k));
	if (!b)
		return -1;
	r = kimg_unpack((const unsigned char *)b, len, path, k, e);
	free(b);
	return r;
}

void kimg_free(struct kimg *k)
{
	free(k->data);
	memset(k, 0, sizeof(*k));
}
