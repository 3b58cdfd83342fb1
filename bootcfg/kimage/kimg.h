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

/* ---- link addresses (kimg_addr.c) ------------------------------------ */

#define KIMG_ADDR_SEGS 16

struct kimg_rela {
	uint64_t off, add;	/* r_offset, r_addend */
};

/* Where a link address is in an unpacked kernel, and what a pointer there holds. */
struct kimg_addr {
	uint64_t va[KIMG_ADDR_SEGS], off[KIMG_ADDR_SEGS], len[KIMG_ADDR_SEGS];
	int n;			/* an ELF kernel's PT_LOAD segments; 0: raw */
	uint64_t base;		/* raw: the link address of byte 0 */
	int ptr, big;		/* pointer bytes (4, 8), byte order */
	struct kimg_rela *rel;	/* raw arm64: R_AARCH64_RELATIVE, by r_offset */
	size_t nrel, relat;	/* their number and the table's byte */
};

/*
 * The map of @k: an ELF kernel's program headers (its class and byte
 * order), else raw from @base with @ptr-byte pointers (and, 64-bit
 * little-endian, the image's R_AARCH64_RELATIVE table when it has one:
 * kernel-facts 106). -1: no memory.
 */
int kimg_addr_init(struct kimg_addr *m, const struct kimg *k, uint64_t base,
		   int ptr, int big);
void kimg_addr_free(struct kimg_addr *m);
/*
 * A raw image's byte 0 is linked at, or a little below, its first text
 * symbol (_text; MIPS: _stext 0x400 above it; arm64 without _text: 64 KiB
 * below _stext): guess @g of KIMG_ADDR_GUESSES, @text rounded down to
 * nothing, 4 KiB, 64 KiB, 1 MiB. A reader keeps the guess its table proves.
 */
#define KIMG_ADDR_GUESSES 4
uint64_t kimg_addr_guess(uint64_t text, int g);
/* The byte of @k at link address @va, or -1. */
long long kimg_addr_byte(const struct kimg_addr *m, const struct kimg *k,
			 uint64_t va);
/* The pointer stored at byte @at (its relocation's value where it is 0 in the file); 0 past the end. */
uint64_t kimg_addr_ptr_at(const struct kimg_addr *m, const struct kimg *k,
			  size_t at);
/*
 * An array found by its shape: the longest run of pointer words of @k (at
 * every word) whose values @ok accepts, its byte in *@at (untouched when
 * none). Returns its length, 0 when no word is accepted.
 */
size_t kimg_addr_run(const struct kimg_addr *m, const struct kimg *k,
		     int (*ok)(uint64_t v, void *ctx), void *ctx, size_t *at);
/*
 * The array of pointers from link address @start to @stop (two symbols):
 * its byte in *@at and its length in *@n; -1 when it is not inside @k or
 * longer than @max.
 */
int kimg_addr_array(const struct kimg_addr *m, const struct kimg *k,
		    uint64_t start, uint64_t stop, size_t max, size_t *at,
		    size_t *n);
/* The same at link address @va: 0, or -1 when @va is not in the image. */
int kimg_addr_ptr(const struct kimg_addr *m, const struct kimg *k,
		  uint64_t va, uint64_t *out);
/*
 * The printable name at link address @va (no blank or control byte,
 * NUL-terminated within @max bytes): its length, or 0.
 */
size_t kimg_addr_string(const struct kimg_addr *m, const struct kimg *k,
			uint64_t va, size_t max);
/* The same at byte @at (-1: none). */
size_t kimg_str_at(const struct kimg *k, long long at, size_t max);
/*
 * The addresses of the @n (at most 32) symbols @names in System.map text
 * (kimg_kallsyms's) into @addr: a bit set for each one found.
 */
unsigned kimg_syms(const char *symtext, size_t len, const char *const *names,
		   uint64_t *addr, int n);

/* The boot parameters of an image: its __setup/early_param table. */
struct kimg_params {
	char **name;		/* "ftrace=", "tp_printk", as the table has them */
	size_t n;
	size_t early;		/* of them, early_param()s */
	size_t at;		/* the table's byte in the unpacked kernel */
	size_t relocated;	/* its pointers from this many R_AARCH64_RELATIVE relocations; 0: in place */
};

/*
 * Find the table of boot parameters in @k (kimg_params.c) with the
 * function symbols of @symtext (System.map text, kimg_kallsyms's). -1 with
 * @e naming @path when no table is found.
 */
int kimg_params(const struct kimg *k, const char *symtext, size_t symlen,
		const char *path, struct kimg_params *out, struct bt_error *e);
void kimg_params_free(struct kimg_params *p);

/* ---- what the image offers to tracing (kimg_mcount.c, kimg_events.c) -- */

/*
 * The ftrace-able call sites of @k mapped by @m: the words between
 * __start_mcount_loc and __stop_mcount_loc of @symtext (kallsyms lists
 * both only with CONFIG_KALLSYMS_ALL), sorted, in *@sites (malloc'd) and
 * their number in *@n. 1 found; 2 found by its shape (no such symbols:
 * the longest run of text addresses, given _stext, _etext, _sinittext and
 * _einittext); 0 not found; -1 with @e naming @path when what lies between
 * the symbols is no table of sites in the text.
 */
int kimg_mcount(const struct kimg *k, const struct kimg_addr *m,
		const char *symtext, size_t symlen, const char *path,
		uint64_t **sites, size_t *n, struct bt_error *e);

/* The trace events built into an image, "system:event", sorted. */
struct kimg_events {
	char **name;
	size_t n, nsystems;
	size_t unread;		/* entries that led to no name (at most 1%) */
	/*
	 * built in but not listed: ftrace's own entry types, and syscall
	 * events whose syscall is not in sys_call_table
	 */
	size_t unlisted;
	int syscall_table;	/* sys_call_table read: 1 by its symbol, 2 by its shape */
	int by_shape;		/* no symbols: the array found by its shape */
	size_t entries;		/* the array's length */
};

/*
 * The events of @k (between __start_ftrace_events and
 * __stop_ftrace_events, CONFIG_KALLSYMS_ALL): 1 found; 2 found by its
 * shape (no such symbols: the longest run of pointers that each lead to an
 * event, at least 100); 0 not found; -1 with @e naming @path when the
 * symbols' array leads to no events.
 */
int kimg_events(const struct kimg *k, const struct kimg_addr *m,
		const char *symtext, size_t symlen, const char *path,
		struct kimg_events *ev, struct bt_error *e);
void kimg_events_free(struct kimg_events *ev);
/* Is @system (with @event, or any when NULL) among @ev? */
int kimg_events_has(const struct kimg_events *ev, const char *system,
		    const char *event);

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
