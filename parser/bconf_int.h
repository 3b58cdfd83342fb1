/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libbconf internals shared by the parser, tree API and printers. */
#ifndef BCONF_INT_H
#define BCONF_INT_H

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
};

struct bconf {
	char *text;		/* private NUL-terminated copy, cut up in place */
	size_t size;		/* bytes of input, without our NUL */
	struct bconf_node *nodes;
	unsigned count, max;
	uint16_t *tail;		/* last child of each key, for O(1) append */
	uint16_t top_tail;	/* last top-level key */
	uint16_t *wlen;		/* length of each key word */
	uint32_t *whash;	/* bconf_word_hash() of each key word */
	uint16_t *slots;	/* open-addressing table: (parent, word) -> node+1 */
	unsigned slot_mask, slot_used;
	unsigned char cls[256];
};

static inline int bn_is_value(const struct bconf_node *n)
{
	return (n->data & BN_VALUE) != 0;
}

static inline const char *bn_text(const struct bconf *bc, unsigned idx)
{
	return bc->text + (bc->nodes[idx].data & ~BN_VALUE);
}

/*
 * The word index (bconf_index.c). A word hashes by its length and five of
 * its bytes (first two, middle, last two): constant work per word, so the
 * scanner's per-byte loop stays a bare class test. Collisions only cost a
 * compare.
 */
static inline uint32_t bconf_word_hash_inline(const char *w, size_t len)
{
	const unsigned char *u = (const unsigned char *)w;
	uint32_t h;

	if (!len)
		return 0;
	h = (uint32_t)len * 0x9e3779b1u;
	h ^= u[0] | (uint32_t)u[len > 1] << 8 | (uint32_t)u[len / 2] << 16 |
	     (uint32_t)u[len - 1] << 24;
	h *= 0x85ebca6bu;
	h ^= (uint32_t)u[len > 2 ? len - 2 : 0] * 0xc2b2ae35u;
	return h;
}

uint32_t bconf_word_hash(const char *w, size_t len);
/* Key node for word @w under @parent (BN_NOPARENT = top), or -1. */
int bconf_lookup_word(const struct bconf *bc, unsigned parent, const char *w,
		      size_t wlen);
/* The parent is mixed in last, so a word hashes once for any parent. */
static inline unsigned bconf_slot_of(const struct bconf *bc, unsigned parent,
				     uint32_t h)
{
	h ^= parent * 0x9e3779b1u;
	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	return h & bc->slot_mask;
}

/* Inline: the parser calls it for every key word it reads. */
static inline int bconf_lookup_hashed(const struct bconf *bc, unsigned parent,
				      const char *w, size_t wlen, uint32_t h)
{
	unsigned i = bconf_slot_of(bc, parent, h), n;
	const char *t;
	size_t j;

	while ((n = bc->slots[i]) != 0) {
		n--;
		if (bc->whash[n] == h && bc->nodes[n].parent == parent &&
		    bc->wlen[n] == wlen) {
			t = bn_text(bc, n);
			for (j = 0; j < wlen && t[j] == w[j]; j++)
				;
			if (j == wlen)
				return (int)n;
		}
		i = (i + 1) & bc->slot_mask;
	}
	return -1;
}
/* Add key node @n (its word is @wlen bytes, hash @h); -1 out of memory. */
int bconf_index_word(struct bconf *bc, unsigned n, size_t wlen, uint32_t h);

/* Key fast path (bconf_keyscan.c): a plain dotted key read in one pass. */
struct bconf_keyscan {
	int n;
	char *w[BCONF_DEPTH_MAX];
	uint16_t len[BCONF_DEPTH_MAX];
	uint32_t h[BCONF_DEPTH_MAX];
};

/*
 * Read the key at @p. Returns the tree delimiter after it with @ks filled,
 * or NULL when the region needs the slow path.
 */
char *bconf_scan_key(const struct bconf *bc, char *p, struct bconf_keyscan *ks);

#endif /* BCONF_INT_H */
