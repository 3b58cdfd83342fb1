/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Kernel images (kimage/kimg.h, docs/kernel-image.md): small images built
 * here. A kallsyms table encoded in the layouts of kernel-facts 103-105
 * (6.1 with and without kallsyms_seqs_of_names, the newer layout with the
 * addresses after the token index; base-relative with and without
 * absolute per-CPU symbols, absolute addresses; 32/64-bit, little and big
 * endian) must decode to the symbols it was made of, and a damaged one
 * must be refused. A bzImage whose payload is gzip, xz, LZ4 (legacy) or
 * zstd, an ELF self-decompressor and a compressed Image must unpack to
 * their kernel; other formats and damage are errors naming the byte.
 */
#include "unit.h"

#include <lz4.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>
#include <unistd.h>
#include <zstd.h>

#include "check/check.h"
#include "kimage/kimage.h"
#include "kimage/kimg.h"

/* ---- a growing byte image ------------------------------------------- */
struct img {
	unsigned char *p;
	size_t n, cap;
	int big, ws;
	size_t rela_at;		/* where kallsyms_relative_base is */
};

static void put(struct img *m, const void *b, size_t n)
{
	if (m->n + n > m->cap) {
		m->cap = (m->n + n) * 2 + 4096;
		m->p = realloc(m->p, m->cap);
		assert_non_null(m->p);
	}
	memcpy(m->p + m->n, b, n);
	m->n += n;
}

static void put_word(struct img *m, uint64_t v, int w)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < w; i++)
		b[m->big ? w - 1 - i : i] = (unsigned char)(v >> (8 * i));
	put(m, b, (size_t)w);
}

/* ALGN: each table starts on a word boundary (scripts/kallsyms.c) */
static void align(struct img *m)
{
	static const unsigned char z[8];

	while (m->n % (size_t)m->ws)
		put(m, z, 1);
}

/* ---- the symbols and their encoding -------------------------------- */
#define NSYM 700
#define NPCPU 4

struct layout {
	int ws, big;
	int mode;	/* 0 relative, 1 relative + absolute per-CPU, 2 absolute */
	int seqs;	/* kallsyms_seqs_of_names after the markers */
	int newer;	/* num_syms, names, markers, tokens, index, then addresses */
	int rela;	/* arm64: relative_base 0, an R_AARCH64_RELATIVE entry gives it */
};

static uint64_t sym_addr(const struct layout *l, int i)
{
	uint64_t base = l->ws == 8 ? 0xffffffff81000000ull : 0xc0000000ull;

	if (l->mode == 1 && i < NPCPU)
		return (uint64_t)i * 0x1000;
	return base + (uint64_t)i * 0x20 + (i > 600 ? 0x100000 : 0);
}

static void sym_name(const struct layout *l, int i, char *out, size_t cap)
{
	if (l->mode == 1 && i < NPCPU)
		snprintf(out, cap, "Dpcpu_var_%d", i);
	else if (i == 10 || i == 11)	/* the nop and function tracers built */
		snprintf(out, cap, "t%s_trace_init", i == 10 ? "nop" : "function");
	else if (i % 7 == 0)
		snprintf(out, cap, "Tnet_func_%04d_init", i);
	else if (i % 3 == 0)
		snprintf(out, cap, "W__weak_hook_%d", i);
	else
		snprintf(out, cap, "tlocal_helper_%d.isra.0", i);
}

/* Token 1 is "_init", token 2 "net_", every printable byte itself; others "?". */
static const char *token(int c, char *one)
{
	if (c == 1)
		return "_init";
	if (c == 2)
		return "net_";
	if (c > 0x20 && c < 0x7f) {
		one[0] = (char)c;
		one[1] = '\0';
		return one;
	}
	return "Zz";
}

static size_t encode(const char *name, unsigned char *out)
{
	size_t n = 0;

	while (*name) {
		if (!strncmp(name, "_init", 5)) {
			out[n++] = 1;
			name += 5;
		} else if (!strncmp(name, "net_", 4)) {
			out[n++] = 2;
			name += 4;
		} else {
			out[n++] = (unsigned char)*name++;
		}
	}
	return n;
}

static void put_addresses(struct img *m, const struct layout *l)
{
	uint64_t base = sym_addr(l, l->mode == 1 ? NPCPU : 0);
	int i;

	align(m);
	for (i = 0; i < NSYM; i++) {
		uint64_t a = sym_addr(l, i);

		if (l->mode == 2)
			put_word(m, a, l->ws);
		else if (l->mode == 1 && i < NPCPU)
			put_word(m, a, 4);
		else if (l->mode == 1)
			put_word(m, (uint32_t)(int32_t)(int64_t)(base - a - 1), 4);
		else
			put_word(m, a - base, 4);
	}
	if (l->mode != 2) {
		align(m);
		m->rela_at = m->n;
		put_word(m, l->rela ? 0 : base, l->ws);
	}
}

/* The kallsyms tables in layout @l, after @junk bytes of other data. */
static void build_kallsyms(struct img *m, const struct layout *l, size_t junk)
{
	uint32_t markers[(NSYM + 255) / 256];
	size_t off = 0, i, toff[256], t = 0;
	char one[2];

	memset(m, 0, sizeof(*m));
	m->big = l->big;
	m->ws = l->ws;
	for (i = 0; i < junk; i++)
		put(m, (unsigned char[]){ (unsigned char)(i * 37 + 11) }, 1);
	if (!l->newer)
		put_addresses(m, l);
	align(m);
	put_word(m, NSYM, 4);
	align(m);
	for (i = 0; i < NSYM; i++) {
		char name[64];
		unsigned char enc[64], len;

		sym_name(l, (int)i, name, sizeof(name));
		len = (unsigned char)encode(name, enc);
		if (!(i & 255))
			markers[i >> 8] = (uint32_t)off;
		put(m, &len, 1);
		put(m, enc, len);
		off += 1 + len;
	}
	align(m);
	for (i = 0; i < (NSYM + 255) / 256; i++)
		put_word(m, markers[i], 4);
	if (l->seqs) {
		align(m);
		for (i = 0; i < NSYM; i++)
			put(m, (unsigned char[]){ 0, (unsigned char)(i >> 8), (unsigned char)i }, 3);
	}
	align(m);
	for (i = 0; i < 256; i++) {
		const char *s = token((int)i, one);

		toff[i] = t;
		put(m, s, strlen(s) + 1);
		t += strlen(s) + 1;
	}
	align(m);
	for (i = 0; i < 256; i++)
		put_word(m, toff[i], 2);
	if (l->newer)
		put_addresses(m, l);
	for (i = 0; i < 100; i++)
		put(m, "\xee", 1);
	if (l->rela) {	/* Elf64_Rela: the image's first byte is linked at the base */
		uint64_t base = sym_addr(l, 0);

		align(m);
		put_word(m, base + m->rela_at, 8);
		put_word(m, 1027, 8);
		put_word(m, base, 8);
	}
}

static char *expected(const struct layout *l)
{
	char *t = malloc(NSYM * 64), *p = t, name[64];
	int i;

	for (i = 0; i < NSYM; i++) {
		sym_name(l, i, name, sizeof(name));
		p += sprintf(p, "%0*llx %c %s\n", l->ws * 2,
			     (unsigned long long)sym_addr(l, i), name[0], name + 1);
	}
	return t;
}

static int decode(struct img *m, int elf_class, char **text, size_t *len,
		  struct bt_error *e)
{
	struct kimg k = { 0 };
	char how[400];
	size_t n;

	k.data = m->p;
	k.len = m->n;
	k.elf_class = elf_class;
	return kimg_kallsyms(&k, "test.img", text, len, &n, how, sizeof(how), e);
}

static void test_kallsyms_layouts(void **state)
{
	static const struct layout ls[] = {
		{ 8, 0, 1, 1, 0, 0 },	/* Debian 6.1 amd64: per-CPU absolute, seqs */
		{ 8, 0, 0, 1, 0, 0 },	/* Debian 6.1 mips64el: relative, seqs */
		{ 8, 0, 0, 0, 0, 0 },	/* 6.1 without seqs */
		{ 8, 0, 1, 0, 1, 0 },	/* newer: addresses after the token index */
		{ 4, 1, 0, 1, 0, 0 },	/* 32-bit big-endian */
		{ 4, 0, 2, 0, 0, 0 },	/* 32-bit absolute addresses */
		{ 8, 1, 2, 1, 1, 0 },	/* 64-bit big-endian, absolute, newer */
		{ 8, 0, 0, 1, 0, 1 },	/* arm64 Image: the base from its relocation */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ls) / sizeof(*ls); i++) {
		struct img m;
		struct bt_error e = { 0 };
		char *text = NULL, *want = expected(&ls[i]);
		size_t len = 0;

		build_kallsyms(&m, &ls[i], 1000 + i);
		if (decode(&m, 0, &text, &len, &e))
			fail_msg("layout %zu: %s", i, e.msg);
		assert_int_equal(len, strlen(want));
		assert_memory_equal(text, want, len);
		free(text);
		free(want);
		free(m.p);
	}
}

/* A false match is refused: a marker off by one, addresses that fall, no table. */
static void test_kallsyms_refused(void **state)
{
	static const struct layout l = { 8, 0, 0, 1, 0, 0 };
	struct img m;
	struct bt_error e = { 0 };
	char *text = NULL;
	size_t len, at;
	unsigned char *p;

	(void)state;
	build_kallsyms(&m, &l, 64);
	/* markers[1] (the 2nd of the 3) one byte off */
	p = memmem(m.p, m.n, "\x00\x00\x00\x00", 4);
	assert_non_null(p);
	for (at = 0; at + 12 <= m.n; at += 8) {
		uint32_t a, b;

		memcpy(&a, m.p + at, 4);
		memcpy(&b, m.p + at + 4, 4);
		if (a == 0 && b > 512 && b < 20000 && m.p[at + 8] > 0) {
			m.p[at + 4]++;
			break;
		}
	}
	assert_int_equal(decode(&m, 64, &text, &len, &e), -1);
	assert_non_null(strstr(e.msg, "do not check out"));
	free(m.p);

	/* an address that falls */
	build_kallsyms(&m, &l, 64);
	m.p[64 + 4 * 300 + 1] ^= 0x40;
	bt_error_clear(&e);
	assert_int_equal(decode(&m, 64, &text, &len, &e), -1);
	free(m.p);

	/* no table at all */
	m.p = calloc(1, 4096);
	m.n = 4096;
	bt_error_clear(&e);
	assert_int_equal(decode(&m, 0, &text, &len, &e), -1);
	assert_non_null(strstr(e.msg, "no kallsyms table"));
	free(m.p);
}

/* ---- compressed payloads -------------------------------------------- */
static unsigned char *payload(size_t *n)
{
	unsigned char *p = malloc(300000);
	size_t i;

	for (i = 0; i < 300000; i++)
		p[i] = (unsigned char)((i * 2654435761u) >> 13 & (i % 5 ? 0x0f : 0xff));
	*n = 300000;
	return p;
}

static unsigned char *compress_as(const char *fmt, const unsigned char *in,
				  size_t n, size_t *out)
{
	size_t cap = n * 2 + 65536;
	unsigned char *o = malloc(cap + 4);

	if (!strcmp(fmt, "gzip")) {
		z_stream s = { 0 };

		assert_int_equal(deflateInit2(&s, 9, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
		s.next_in = (unsigned char *)in;
		s.avail_in = (uInt)n;
		s.next_out = o;
		s.avail_out = (uInt)cap;
		assert_int_equal(deflate(&s, Z_FINISH), Z_STREAM_END);
		*out = s.total_out;
		deflateEnd(&s);
	} else if (!strcmp(fmt, "xz")) {
		*out = 0;
		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, in, n, o, out, cap), LZMA_OK);
	} else if (!strcmp(fmt, "zstd")) {
		*out = ZSTD_compress(o, cap, in, n, 19);
		assert_false(ZSTD_isError(*out));
	} else {	/* lz4 legacy: magic, then blocks of <= 8 MiB (here 100000 bytes) */
		size_t i = 0, w = 4;

		memcpy(o, "\x02\x21\x4c\x18", 4);
		while (i < n) {
			size_t b = n - i > 100000 ? 100000 : n - i;
			int c = LZ4_compress_default((const char *)in + i, (char *)o + w + 4, (int)b, (int)(cap - w - 4));

			assert_true(c > 0);
			o[w] = (unsigned char)c;
			o[w + 1] = (unsigned char)(c >> 8);
			o[w + 2] = (unsigned char)(c >> 16);
			o[w + 3] = (unsigned char)(c >> 24);
			w += 4 + (size_t)c;
			i += b;
		}
		*out = w;
	}
	/* the kernel's build appends the unpacked size (size_append) */
	o[*out] = (unsigned char)n;
	o[*out + 1] = (unsigned char)(n >> 8);
	o[*out + 2] = (unsigned char)(n >> 16);
	o[*out + 3] = (unsigned char)(n >> 24);
	*out += 4;
	return o;
}

/* A bzImage: 1 + setup_sects sectors of real-mode code, then the payload. */
static unsigned char *bzimage(const unsigned char *pl, size_t pn, size_t *n)
{
	size_t setup = 3, pm = (setup + 1) * 512, poff = 0x123;
	unsigned char *b = calloc(1, pm + poff + pn);

	b[0x1f1] = (unsigned char)setup;
	memcpy(b + 0x202, "HdrS", 4);
	b[0x206] = 0x0f;	/* protocol 2.15 */
	b[0x207] = 0x02;
	b[0x238] = 0xff;	/* cmdline_size 2047: COMMAND_LINE_SIZE 2048 */
	b[0x239] = 0x07;
	b[0x248] = (unsigned char)poff;
	b[0x249] = (unsigned char)(poff >> 8);
	b[0x24c] = (unsigned char)pn;
	b[0x24d] = (unsigned char)(pn >> 8);
	b[0x24e] = (unsigned char)(pn >> 16);
	memcpy(b + pm + poff, pl, pn);
	*n = pm + poff + pn;
	return b;
}

static void test_bzimage_payloads(void **state)
{
	static const char *const fmts[] = { "gzip", "xz", "lz4", "zstd" };
	size_t pn, i;
	unsigned char *pl = payload(&pn);

	(void)state;
	for (i = 0; i < 4; i++) {
		size_t cn, bn;
		unsigned char *c = compress_as(fmts[i], pl, pn, &cn);
		unsigned char *b = bzimage(c, cn, &bn);
		struct kimg k;
		struct bt_error e = { 0 };

		if (kimg_unpack(b, bn, "bzImage", &k, &e))
			fail_msg("%s: %s", fmts[i], e.msg);
		assert_int_equal(k.len, pn);
		assert_memory_equal(k.data, pl, pn);
		assert_non_null(strstr(k.how, fmts[i]));
		assert_non_null(strstr(k.how, "bzImage"));
		kimg_free(&k);

		/* cut short in the middle of the stream: an error at a byte */
		memset(b + bn - cn / 2, 0, cn / 2);
		bt_error_clear(&e);
		assert_int_equal(kimg_unpack(b, bn, "bzImage", &k, &e), -1);
		assert_non_null(strstr(e.msg, "byte "));
		free(b);
		free(c);
	}
	free(pl);
}

static void test_unpack_other_forms(void **state)
{
	size_t pn, cn, bn;
	unsigned char *pl = payload(&pn), *c, *b;
	struct kimg k;
	struct bt_error e = { 0 };

	(void)state;
	/* an ELF with no kernel sections carrying an xz vmlinux.bin (MIPS vmlinuz) */
	c = compress_as("xz", pl, pn, &cn);
	bn = 0x1000 + cn + 64;
	b = calloc(1, bn);
	memcpy(b, "\x7f" "ELF\x02\x01\x01", 7);
	memcpy(b + 0x1000, c, cn);
	assert_int_equal(kimg_unpack(b, bn, "vmlinuz", &k, &e), 0);
	assert_int_equal(k.len, pn);
	assert_memory_equal(k.data, pl, pn);
	assert_non_null(strstr(k.how, "xz stream at byte 4096"));
	kimg_free(&k);
	free(b);
	free(c);

	/* Image.gz: one gzip stream */
	c = compress_as("gzip", pl, pn, &cn);
	assert_int_equal(kimg_unpack(c, cn, "Image.gz", &k, &e), 0);
	assert_memory_equal(k.data, pl, pn);
	kimg_free(&k);
	free(c);

	/* bzip2 is named, not read */
	b = bzimage((const unsigned char *)"BZh91AY&SY0123456789", 20, &bn);
	assert_int_equal(kimg_unpack(b, bn, "bzImage", &k, &e), -1);
	assert_non_null(strstr(e.msg, "bzip2"));
	assert_non_null(strstr(e.msg, "byte 2339"));
	/* a payload past the end of the file */
	b[0x24d] = 0x70;
	bt_error_clear(&e);
	assert_int_equal(kimg_unpack(b, bn, "bzImage", &k, &e), -1);
	assert_non_null(strstr(e.msg, "byte 584"));
	free(b);

	/* more than KIMG_MAX is refused before a byte is read */
	bt_error_clear(&e);
	assert_int_equal(kimg_unpack(pl, KIMG_MAX + 1, "huge", &k, &e), -1);
	assert_non_null(strstr(e.msg, "512 MiB"));
	free(pl);
}

/* A bzImage (LZ4) whose kernel carries kallsyms, into the symbol table. */
static void test_symbol_table_from_image(void **state)
{
	static const struct layout l = { 8, 0, 1, 1, 0, 0 };
	struct img m;
	struct ksyms t = { 0 };
	struct bt_error e = { 0 };
	char path[] = "/tmp/test_kimg.XXXXXX", how[600];
	size_t cn, bn;
	unsigned char *c, *b;
	int fd;
	FILE *f;

	(void)state;
	build_kallsyms(&m, &l, 4096);
	c = compress_as("lz4", m.p, m.n, &cn);
	b = bzimage(c, cn, &bn);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_int_equal(fwrite(b, 1, bn, f), bn);
	fclose(f);
	if (ksyms_load_kimage(&t, path, how, sizeof(how), &e))
		fail_msg("%s", e.msg);
	assert_non_null(strstr(how, "lz4 payload"));
	assert_non_null(strstr(how, "700 symbols"));
	assert_int_equal(ksyms_index(&t), 0);
	assert_true(ksyms_bucket(&t, "net_func_0007_init") != 0);
	assert_true(ksyms_bucket(&t, "local_helper_1") != 0);
	ksyms_free(&t);
	unlink(path);
	free(b);
	free(c);
	free(m.p);
}

/* ---- the image's own .config, release and command-line size --------- */

#define TEST_CONFIG "#\n# Automatically generated file; DO NOT EDIT.\n# Linux/x86 6.1.0 Kernel Configuration\n#\n" \
	"CONFIG_IKCONFIG=y\nCONFIG_BOOT_CONFIG=y\nCONFIG_BOOTTIME_TRACING=y\nCONFIG_FTRACE=y\n" \
	"CONFIG_HAVE_FUNCTION_TRACER=y\nCONFIG_FUNCTION_TRACER=y\nCONFIG_DYNAMIC_FTRACE=y\nCONFIG_KPROBES=y\n" \
	"# CONFIG_KPROBE_EVENTS is not set\n"

/* gzip of @n bytes of @in, as kernel/Makefile makes config_data.gz */
static unsigned char *gz(const void *in, size_t n, size_t *out)
{
	unsigned char *c = compress_as("gzip", in, n, out);

	*out -= 4;	/* compress_as's size_append is not there */
	return c;
}

/*
 * A kernel: the kallsyms tables of the 6.1 layout, its banner, and with
 * @conf (@cn bytes, NULL: none) the IKCONFIG markers around a gzip of it.
 */
static void build_kernel(struct img *m, const char *conf, size_t cn)
{
	static const struct layout l = { 8, 0, 1, 1, 0, 0 };
	static const char banner[] = "Linux version 6.1.0-99-test (x@y) (gcc 12) #1 SMP\n";

	build_kallsyms(m, &l, 4096);
	/* an older banner-like text first: no digit after it */
	put(m, "\0Linux version %s\0", 18);
	put(m, banner, sizeof(banner));
	if (conf) {
		size_t zn;
		unsigned char *z = gz(conf, cn, &zn);

		put(m, "IKCFG_ST", 8);
		put(m, z, zn);
		put(m, "IKCFG_ED", 8);
		free(z);
	}
	put(m, "\0\0\0\0\0\0\0\0", 8);
}

static void test_ikconfig(void **state)
{
	struct img m;
	struct kimg k;
	struct bt_error e = { 0 };
	struct kcaps *caps = calloc(1, sizeof(*caps));
	char *text, rel[64];
	size_t len, at, cn, bn;
	unsigned char *c, *b;

	(void)state;
	build_kernel(&m, TEST_CONFIG, strlen(TEST_CONFIG));
	c = compress_as("gzip", m.p, m.n, &cn);
	b = bzimage(c, cn, &bn);
	if (kimg_unpack(b, bn, "bzImage", &k, &e))
		fail_msg("%s", e.msg);
	/* the setup header's cmdline_size, the NUL not counted */
	assert_int_equal(k.cmdline_size, 2047);
	assert_int_equal(kimg_ikconfig(&k, "bzImage", &text, &len, &at, &e), 1);
	assert_int_equal(len, strlen(TEST_CONFIG));
	assert_string_equal(text, TEST_CONFIG);
	assert_memory_equal(k.data + at - 8, "IKCFG_ST", 8);
	assert_int_equal(kimg_release(&k, rel, sizeof(rel)), 0);
	assert_string_equal(rel, "6.1.0-99-test");
	/* too small a buffer for the release: none rather than a cut one */
	assert_int_equal(kimg_release(&k, rel, 5), -1);
	/* the text is a .config: the options and the version of its header */
	assert_int_equal(kcaps_load_config_text(caps, text, len, "the .config embedded in bzImage", &e), 0);
	assert_int_equal(caps->version, KVER(6, 1));
	assert_string_equal(caps->config_release, "6.1.0");
	assert_string_equal(caps->config_path, "the .config embedded in bzImage");
	assert_int_equal(kcaps_opt(caps, KO_BOOT_CONFIG), KO_YES);
	assert_int_equal(kcaps_opt(caps, KO_KPROBE_EVENTS), KO_NO);
	assert_int_equal(kcaps_opt(caps, KO_HIST_TRIGGERS), KO_NO);
	free(text);
	kimg_free(&k);
	free(b);
	free(c);

	/* an ELF self-decompressor (no setup header): no cmdline_size */
	{
		static const unsigned char zero[1024];

		for (len = 0; len < 64; len++)	/* it takes kernels of 64 KiB or more */
			put(&m, zero, sizeof(zero));
	}
	c = compress_as("xz", m.p, m.n, &cn);
	b = calloc(1, 0x40 + cn);
	memcpy(b, "\x7f" "ELF\2\1\1", 7);
	memcpy(b + 0x40, c, cn);
	if (kimg_unpack(b, 0x40 + cn, "vmlinuz", &k, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(k.cmdline_size, 0);
	assert_int_equal(kimg_ikconfig(&k, "vmlinuz", &text, &len, &at, &e), 1);
	assert_string_equal(text, TEST_CONFIG);
	free(text);
	kimg_free(&k);
	free(b);
	free(c);
	free(m.p);
	free(caps);
}

static void test_ikconfig_refused(void **state)
{
	struct img m;
	struct kimg k = { 0 };
	struct bt_error e = { 0 };
	char *text, *big, rel[64];
	size_t len, at, i;

	(void)state;
	/* no markers: none, and no error */
	build_kernel(&m, NULL, 0);
	k.data = m.p;
	k.len = m.n;
	assert_int_equal(kimg_ikconfig(&k, "img", &text, &len, &at, &e), 0);
	assert_null(text);
	free(m.p);

	/* a marker not followed by a gzip stream is some other text: skipped */
	memset(&m, 0, sizeof(m));
	put(&m, "xx IKCFG_ST is a marker\0", 24);
	k.data = m.p;
	k.len = m.n;
	assert_int_equal(kimg_ikconfig(&k, "img", &text, &len, &at, &e), 0);
	assert_int_equal(kimg_release(&k, rel, sizeof(rel)), -1);
	free(m.p);

	/* more than 1 MiB unpacked: refused, naming the byte */
	big = malloc(KIMG_IKCONFIG_MAX + 2);
	for (i = 0; i < KIMG_IKCONFIG_MAX + 1; i++)
		big[i] = i % 64 == 63 ? '\n' : 'y';
	build_kernel(&m, big, KIMG_IKCONFIG_MAX + 1);
	k.data = m.p;
	k.len = m.n;
	bt_error_clear(&e);
	assert_int_equal(kimg_ikconfig(&k, "img", &text, &len, &at, &e), -1);
	assert_non_null(strstr(e.msg, "unpacks to more than 1024 KiB"));
	assert_non_null(strstr(e.msg, "give the kernel's .config as --kernel-config"));
	free(m.p);
	/* exactly 1 MiB is taken */
	build_kernel(&m, big, KIMG_IKCONFIG_MAX);
	k.data = m.p;
	k.len = m.n;
	assert_int_equal(kimg_ikconfig(&k, "img", &text, &len, &at, &e), 1);
	assert_int_equal(len, KIMG_IKCONFIG_MAX);
	free(text);
	free(m.p);
	free(big);

	/* damaged: the stream cut short by its end marker, then no end marker */
	build_kernel(&m, TEST_CONFIG, strlen(TEST_CONFIG));
	{
		unsigned char *st = memmem(m.p, m.n, "IKCFG_ST", 8);
		unsigned char *ed = memmem(m.p, m.n, "IKCFG_ED", 8);

		memmove(st + 8 + 20, ed, (size_t)(m.p + m.n - ed));
		m.n -= (size_t)(ed - (st + 8 + 20));
		k.data = m.p;
		k.len = m.n;
		bt_error_clear(&e);
		assert_int_equal(kimg_ikconfig(&k, "img", &text, &len, &at, &e), -1);
		assert_non_null(strstr(e.msg, "of the unpacked kernel: the embedded .config (IKCONFIG) is a gzip stream that is"));
		memcpy(st + 8 + 20, "IKCFG_XX", 8);
		bt_error_clear(&e);
		assert_int_equal(kimg_ikconfig(&k, "img", &text, &len, &at, &e), -1);
		assert_non_null(strstr(e.msg, "no IKCFG_ED marker ends it"));
	}
	free(m.p);
}

/* check_image_kconfig: embedded, else config-RELEASE beside the image, else none. */
static void test_image_kconfig_routes(void **state)
{
	char dir[] = "/tmp/test_kimg_cfg.XXXXXX", img[256], cfg[256];
	struct kcaps *caps = calloc(1, sizeof(*caps));
	struct bt_error e = { 0 };
	struct img m;
	struct kimg k = { 0 };
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/vmlinuz-6.1.0-99-test", dir);
	snprintf(cfg, sizeof(cfg), "%s/config-6.1.0-99-test", dir);

	/* embedded */
	build_kernel(&m, TEST_CONFIG, strlen(TEST_CONFIG));
	k.data = m.p;
	k.len = m.n;
	assert_int_equal(check_image_kconfig(&k, img, "x", caps, &e), 0);
	assert_non_null(strstr(caps->config_path, "the .config embedded in "));
	assert_int_equal(kcaps_opt(caps, KO_BOOT_CONFIG), KO_YES);
	free(m.p);

	/* none embedded, none beside: no config, not an error */
	memset(caps, 0, sizeof(*caps));
	build_kernel(&m, NULL, 0);
	k.data = m.p;
	k.len = m.n;
	assert_int_equal(check_image_kconfig(&k, img, "x", caps, &e), 0);
	assert_null(caps->config_path);

	/* config-RELEASE beside it (the release from the banner) */
	f = fopen(cfg, "w");
	assert_non_null(f);
	fputs("# Linux/x86 6.1.0 Kernel Configuration\n# CONFIG_BOOT_CONFIG is not set\n", f);
	fclose(f);
	assert_int_equal(check_image_kconfig(&k, img, "x", caps, &e), 0);
	assert_string_equal(caps->config_path, cfg);
	assert_int_equal(kcaps_opt(caps, KO_BOOT_CONFIG), KO_NO);
	assert_int_equal(caps->version, KVER(6, 1));
	free(m.p);
	unlink(cfg);
	rmdir(dir);
	free(caps);
}

/*
 * BT_KIMG_FIXTURE=FILE: write the LZ4 bzImage of test_symbol_table_from_image
 * to FILE (tests/data/kimg/bzImage-lz4, used by tests/cli/kernel-image.bats,
 * was made so) and stop.
 */
static int write_fixture(const char *path)
{
	static const struct layout l = { 8, 0, 1, 1, 0, 0 };
	struct img m;
	size_t cn, bn;
	unsigned char *c, *b;
	FILE *f;
	int bad;

	build_kallsyms(&m, &l, 4096);
	c = compress_as("lz4", m.p, m.n, &cn);
	b = bzimage(c, cn, &bn);
	f = fopen(path, "wb");
	bad = !f || fwrite(b, 1, bn, f) != bn;
	bad |= f && fclose(f);
	free(b);
	free(c);
	free(m.p);
	return bad;
}

/*
 * BT_KIMG_IKCONFIG_FIXTURE=FILE: a gzip bzImage of the same symbols with a
 * banner (6.1.0-99-test) and TEST_CONFIG embedded as IKCONFIG
 * (tests/data/kimg/bzImage-ikconfig, used by tests/cli/kernel-config.bats).
 */
static int write_ikconfig_fixture(const char *path)
{
	struct img m;
	size_t cn, bn;
	unsigned char *c, *b;
	FILE *f;
	int bad;

	build_kernel(&m, TEST_CONFIG, strlen(TEST_CONFIG));
	c = compress_as("gzip", m.p, m.n, &cn);
	b = bzimage(c, cn, &bn);
	f = fopen(path, "wb");
	bad = !f || fwrite(b, 1, bn, f) != bn;
	bad |= f && fclose(f);
	free(b);
	free(c);
	free(m.p);
	return bad;
}

int main(void)
{
	if (getenv("BT_KIMG_IKCONFIG_FIXTURE"))
		return write_ikconfig_fixture(getenv("BT_KIMG_IKCONFIG_FIXTURE"));
	if (getenv("BT_KIMG_FIXTURE"))
		return write_fixture(getenv("BT_KIMG_FIXTURE"));
	{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kallsyms_layouts),
		cmocka_unit_test(test_kallsyms_refused),
		cmocka_unit_test(test_bzimage_payloads),
		cmocka_unit_test(test_unpack_other_forms),
		cmocka_unit_test(test_symbol_table_from_image),
		cmocka_unit_test(test_ikconfig),
		cmocka_unit_test(test_ikconfig_refused),
		cmocka_unit_test(test_image_kconfig_routes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
	}
}
