/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel image as it is installed (docs/kernel-image.md): an ELF vmlinux,
 * an x86 bzImage, a MIPS vmlinuz (an ELF self-decompressor), an arm64
 * Image or Image.gz, a raw image, compressed with gzip, xz, LZ4 (legacy
 * frame) or zstd. kimg_unpack.c turns it into the kernel's own bytes;
 * kimg_kallsyms.c finds and decodes the symbol table CONFIG_KALLSYMS
 * compiled into those bytes.
 */
#ifndef BT_KIMAGE_KIMG_H
#define BT_KIMAGE_KIMG_H

#include <stddef.h>
#include <stdint.h>

#include "util/bt_error.h"

/* The largest image read and the largest kernel it may unpack to. */
#define KIMG_MAX ((size_t)512 << 20)

struct kimg {
	unsigned char *data;	/* the unpacked kernel (malloc'd) */
	size_t len;
	char how[160];		/* "bzImage, LZ4 payload at byte 17052", for -v */
	int elf_class;		/* 32 or 64 when @data is an ELF file, else 0 */
	int elf_big;		/* 1: big-endian ELF */
	/*
	 * An x86 bzImage's setup header cmdline_size (boot protocol 2.06+,
	 * kernel-facts 110): the most bytes of command line the kernel takes,
	 * its NUL not counted; 0 when the image has no such header.
	 */
	unsigned cmdline_size;
};

/*
 * Read @path (at most KIMG_MAX bytes; never a FIFO or device) and unpack
 * it. 0, or -1 with @e naming the file, the byte offset and what to do.
 */
int kimg_load(const char *path, struct kimg *k, struct bt_error *e);
/* The same from memory: @buf (@len bytes) is only read. */
int kimg_unpack(const unsigned char *buf, size_t len, const char *path,
		struct kimg *k, struct bt_error *e);
void kimg_free(struct kimg *k);

/* The @n-byte unsigned integer at @p, big-endian when @big (the image's words). */
uint64_t kimg_rd(const unsigned char *p, int n, int big);

/* Compression of the bytes at @p: "gzip", "xz", "lz4", "zstd", "bzip2", "lzma", "lzo", or NULL. */
const char *kimg_compression(const unsigned char *p, size_t n);

/*
 * The symbols of kallsyms in @k as System.map text ("ADDR TYPE NAME\n",
 * sorted by address as the kernel keeps them) in *@text (malloc'd, @len
 * bytes), their number in *@nsyms, and what was found in @how (for -v).
 * -1 with @e when no table is found or what is found fails validation.
 */
int kimg_kallsyms(const struct kimg *k, const char *path, char **text,
		  size_t *len, size_t *nsyms, char *how, size_t howcap,
		  struct bt_error *e);

/*
 * kimg_load and kimg_kallsyms in one: the symbol text of the image at
 * @path, with in @how how it was unpacked and what was found.
 */
int kimg_load_kallsyms(const char *path, char **text, size_t *len,
		       size_t *nsyms, char *how, size_t howcap,
		       struct bt_error *e);

/* The boot parameters of an image: its __setup/early_param table. */
struct kimg_params {
	char **name;		/* "ftrace=", "tp_printk", as the table has them */
	size_t n;
	size_t early;		/* of them, early_param()s */
	size_t at;		/* the table's byte in the unpacked kernel */
};

/*
 * Find the table of boot parameters in @k (kimg_params.c) with the
 * function symbols of @symtext (System.map text, kimg_kallsyms's). -1 with
 * @e naming @path when no table is found.
 */
int kimg_params(const struct kimg *k, const char *symtext, size_t symlen,
		const char *path, struct kimg_params *out, struct bt_error *e);
void kimg_params_free(struct kimg_params *p);

/* ---- the image's own .config and release (kimg_config.c) ----------- */

/* The most an embedded .config may unpack to. */
#define KIMG_IKCONFIG_MAX ((size_t)1 << 20)

/*
 * The .config CONFIG_IKCONFIG=y keeps in the kernel (kernel-facts 111):
 * the gzip stream between the markers "IKCFG_ST" and "IKCFG_ED". 1 with
 * the text in *@text (malloc'd, NUL-terminated, @len bytes) and the
 * stream's byte in the unpacked kernel in *@at; 0 when @k has none; -1
 * with @e naming @path and the byte when the stream is damaged or unpacks
 * to more than KIMG_IKCONFIG_MAX.
 */
int kimg_ikconfig(const struct kimg *k, const char *path, char **text,
		  size_t *len, size_t *at, struct bt_error *e);

/*
 * The kernel release of @k's banner ("Linux version 6.1.0-26-amd64 (...",
 * kernel-facts 112) in @buf: 0, or -1 when the kernel has no such banner.
 */
int kimg_release(const struct kimg *k, char *buf, size_t cap);

#endif /* BT_KIMAGE_KIMG_H */
