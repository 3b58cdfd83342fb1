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
};

struct bconf {
	char *text;		/* private NUL-terminated copy, cut up in place */
	size_t size;		/* bytes of input, without our NUL */
	struct bconf_node *nodes;
	unsigned count, max;
	uint16_t *tail;		/* last child of each key, for O(1) append */
	uint16_t top_tail;	/* last top-level key */
	uint16_t *slots;	/* open-addressing table: (parent, word) -> node+1 */
	unsigned slot_mask;
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

/* Key node for word @w under @parent (BN_NOPARENT = top), or -1. */
int bconf_lookup_word(const struct bconf *bc, unsigned parent, const char *w,
		      size_t wlen);

#endif /* BCONF_INT_H */
