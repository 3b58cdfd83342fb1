/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbconf internals shared by the parser, tree API and printers. */
#ifndef BCONF_INT_H
#define BCONF_INT_H

#include <string.h>

#include "bconf.h"

/*
 * Node links are 16-bit like the kernel's, and 0 means "none" for next and
 * child: node 0 is always the first top-level key, so nothing can point at
 * it. The public API converts to BCONF_NONE.
 */
#define BN_NOPARENT 0xffffu
#define BN_VALUE    0x8000u	/* flag in .data: this is a value node */

struct bconf_node {
	uint16_t next;
	uint16_t child;
	uint16_t parent;
	uint16_t data;		/* offset into text, | BN_VALUE */
};

/* Character classes, one table per ctype profile. */
enum {
	BC_SPACE = 1,
	BC_PRINT = 2,
	BC_WORD = 4,		/* may appear in a key word */
	BC_VDELIM = 8,		/* ends a value: , ; \n # } */
	BC_TREE = 16,		/* ends a key: { } = + ; : \n # */
	BC_PLAIN = 32,		/* may sit in an unquoted value: printable or
				 * space, and not a value delimiter */
	BC_INDQ = 64,		/* may sit inside "...": printable or space */
	BC_INSQ = 128,		/* may sit inside '...' */
	BC_KEYTEXT = 256,	/* neither NUL nor a tree delimiter */
	BC_HSPACE = 512,	/* a space that is not a newline */
};

struct bconf {
	char *text;		/* private NUL-terminated copy, cut up in place,
				 * with 8 zero bytes of slack after the NUL */
	size_t size;		/* bytes of input, without our NUL */
	struct bconf_node *nodes;
	unsigned count, max;
	uint16_t *tail;		/* last child of each key, for O(1) append */
	uint16_t top_tail;	/* last top-level key */
	uint16_t *wlen;		/* length of each key word */
	uint32_t *whash;	/* bconf_word_hash() of each key word */
	uint16_t *slots;	/* open-addressing table: (parent, word) -> node+1 */
	unsigned slot_mask, slot_used;
	uint16_t cls[256];
};

/*
 * First byte at or after @p whose class has none of @mask, four bytes per
 * step. Every class lacks the NUL, and the text has 8 bytes of zeroed
 * slack after its NUL, so the look-ahead stays inside the buffer.
 */
static inline char *bconf_span(const uint16_t *cls, char *p,
			       unsigned mask)
{
	const unsigned char *u = (const unsigned char *)p;

	for (;; u += 4) {
		if (!(cls[u[0]] & mask))
			break;
		if (!(cls[u[1]] & mask))
			return (char *)u + 1;
		if (!(cls[u[2]] & mask))
			return (char *)u + 2;
		if (!(cls[u[3]] & mask))
			return (char *)u + 3;
	}
	return (char *)u;
}

static inline int bn_is_value(const struct bconf_node *n)
{
	return (n->data & BN_VALUE) != 0;
}

static inline const char *bn_text(const struct bconf *bc, unsigned idx)
{
	return bc->text + (bc->nodes[idx].data & ~BN_VALUE);
}

/*
 * The word index (bconf_index.c). A word hashes by its length, its first
 * eight bytes and its last eight: constant work per word, so the scanner's
 * per-byte loop stays a bare class test, and every word of up to 16 bytes
 * is hashed whole.
 */
static inline uint32_t bconf_hash_mix(uint64_t first, uint64_t last,
				      size_t len)
{
	uint64_t x = (first ^ (last * 0x9e3779b97f4a7c15ull) ^ len) *
		     0xff51afd7ed558ccdull;

	return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

/* Keep the first @len (< 8) bytes of an 8-byte load, in memory order. */
static inline uint64_t bconf_keep_bytes(uint64_t x, size_t len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return x & ~(~0ull >> (8 * len));
#else
	return x & ((1ull << (8 * len)) - 1);
#endif
}

/*
 * For words inside a tree's text, which has 8 bytes of zeroed slack after
 * its NUL: the loads may run past the word but stay in the buffer.
 */
static inline uint32_t bconf_word_hash_text(const char *w, size_t len)
{
	uint64_t a, b = 0;

	memcpy(&a, w, 8);
	if (len < 8)
		a = bconf_keep_bytes(a, len);
	else if (len > 8)
		memcpy(&b, w + len - 8, 8);
	return bconf_hash_mix(a, b, len);
}

/* The same value for any string (no reads past @len). */
uint32_t bconf_word_hash(const char *w, size_t len);
/* Key node for word @w under @parent (BN_NOPARENT = top), or -1. */
int bconf_lookup_word(const struct bconf *bc, unsigned parent, const char *w,
		      size_t wlen);
/* The parent is mixed in last, so a word hashes once for any parent. */
static inline unsigned bconf_slot_of(const struct bconf *bc, unsigned parent,
				     uint32_t h)
{
	h = (h ^ parent * 0x9e3779b1u) * 0x2c1b3c6du;
	return (h ^ h >> 15) & bc->slot_mask;
}

/*
 * Equal words, compared eight bytes at a time: every text buffer has 8
 * bytes of zeroed slack after its NUL, so the loads stay inside it.
 */
static inline int bconf_words_equal(const char *a, const char *b, size_t len)
{
	uint64_t x, y;

	for (; len >= 8; len -= 8, a += 8, b += 8) {
		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		if (x != y)
			return 0;
	}
	if (!len)
		return 1;
	memcpy(&x, a, 8);
	memcpy(&y, b, 8);
	x ^= y;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (x >> (64 - 8 * len)) == 0;
#else
	return (x << (64 - 8 * len)) == 0;
#endif
}

/*
 * Inline: the parser calls it for every key word it reads. @w must lie in
 * the tree's own text (see bconf_words_equal()). Returns the node, or -1
 * with *@slot set to where the word would go (for bconf_index_at()).
 */
static inline int bconf_probe(const struct bconf *bc, unsigned parent,
			      const char *w, size_t wlen, uint32_t h,
			      unsigned *slot)
{
	unsigned i = bconf_slot_of(bc, parent, h), n;

	while ((n = bc->slots[i]) != 0) {
		n--;
		if (bc->whash[n] == h && bc->nodes[n].parent == parent &&
		    bc->wlen[n] == wlen && bconf_words_equal(bn_text(bc, n), w, wlen))
			return (int)n;
		i = (i + 1) & bc->slot_mask;
	}
	*slot = i;
	return -1;
}

int bconf_index_grow(struct bconf *bc);

/*
 * Add key node @n (its word is @wlen bytes, hash @h) at the @slot that
 * bconf_probe() found empty; -1 when the table could not grow.
 */
static inline int bconf_index_at(struct bconf *bc, unsigned n, size_t wlen,
				 uint32_t h, unsigned slot)
{
	bc->wlen[n] = (uint16_t)wlen;
	bc->whash[n] = h;
	bc->slots[slot] = (uint16_t)(n + 1);
	/* Grown after the insert: the table stays at most half full. */
	if (2 * ++bc->slot_used > bc->slot_mask + 1)
		return bconf_index_grow(bc);
	return 0;
}

#endif /* BCONF_INT_H */
