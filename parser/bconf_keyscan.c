// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The parser's fast path for keys. Most keys in a real config are plain
 * dotted words, so a region that is exactly "spaces word(.word)* spaces"
 * before a tree delimiter is read in one pass, each word measured and
 * hashed once. Anything else (empty words, bad characters, more than
 * BCONF_DEPTH_MAX words, no delimiter) is left to the kernel-shaped slow
 * path, which finds the kernel's error.
 *
 * (A cache of recent keys, matched with memcmp to skip lookups, was tried
 * and cost more than it saved: most keys start from a fresh node.)
 */
#include "bconf_int.h"

char *bconf_scan_key(const struct bconf *bc, char *p, struct bconf_keyscan *ks)
{
	const unsigned char *cls = bc->cls;
	char *w;

	ks->n = 0;
	while ((cls[(unsigned char)*p] & (BC_SPACE | BC_TREE)) == BC_SPACE)
		p++;
	for (;;) {
		w = p;
		while (cls[(unsigned char)*p] & BC_WORD)
			p++;
		if (p == w || ks->n == BCONF_DEPTH_MAX)
			return NULL;
		ks->w[ks->n] = w;
		ks->len[ks->n] = (uint16_t)(p - w);
		ks->h[ks->n++] = bconf_word_hash_inline(w, (size_t)(p - w));
		if (*p != '.')
			break;
		p++;
	}
	while ((cls[(unsigned char)*p] & (BC_SPACE | BC_TREE)) == BC_SPACE)
		p++;
	return cls[(unsigned char)*p] & BC_TREE ? p : NULL;
}
