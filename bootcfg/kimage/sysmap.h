/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one reader of System.map and /proc/kallsyms text: "ADDR TYPE NAME",
 * kallsyms adding "\t[module]". It splits lines and fields only; what a
 * symbol means is the caller's (ksyms_sysmap.c fills the symbol table,
 * report/input/report_sym.c names raw frame addresses).
 */
#ifndef BT_KIMAGE_SYSMAP_H
#define BT_KIMAGE_SYSMAP_H

#include <stddef.h>
#include <stdint.h>

struct kimage_sysmap_line {
	int lineno;		/* from 1 */
	const char *bad;	/* why this is no symbol line, or NULL */
	uint64_t addr;
	char type;		/* 't', 'T', 'd', ... */
	const char *name;	/* @namelen bytes, not NUL-terminated */
	size_t namelen;
	const char *mod;	/* inside the brackets, @modlen bytes; NULL: none */
	size_t modlen;
};

/*
 * Nonzero ends the walk. The fields point into the text; the walk has
 * left the line when @fn is called, so @fn may write into it.
 */
typedef int (*kimage_sysmap_fn)(void *ctx, const struct kimage_sysmap_line *l);

/*
 * Call @fn for each line of @text (@len bytes) that is not blank, with
 * the fields or (for a malformed line) @bad set. 0 after the last line,
 * else @fn's nonzero return.
 */
int kimage_sysmap_each(const char *text, size_t len, kimage_sysmap_fn fn,
		       void *ctx);

/*
 * Is @text Debian's placeholder System.map (kernel-facts 16), the one line
 * "ffffffffffffffff B The real System.map is in the PACKAGE package"?
 * 1 with the package named in @pkg (@cap bytes; "" if it names none), else 0.
 */
int kimage_sysmap_placeholder(const char *text, size_t len, char *pkg,
			      size_t cap);

#endif /* BT_KIMAGE_SYSMAP_H */
