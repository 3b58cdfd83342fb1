// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Key words by (parent, word), so a config with many sibling keys parses
 * in linear time where the kernel scans every sibling with strcmp().
 * Open addressing over 16-bit node numbers, kept at most half full.
 */
#include <stdlib.h>
#include <string.h>

#include "bconf_int.h"

uint32_t bconf_word_hash(const char *w, size_t len)
{
	return bconf_word_hash_inline(w, len);
}

int bconf_lookup_word(const struct bconf *bc, unsigned parent, const char *w,
		      size_t wlen)
{
	return bconf_lookup_hashed(bc, parent, w, wlen,
				   bconf_word_hash(w, wlen));
}

static void slot_put(struct bconf *bc, unsigned n)
{
	unsigned i = bconf_slot_of(bc, bc->nodes[n].parent, bc->whash[n]);

	while (bc->slots[i])
		i = (i + 1) & bc->slot_mask;
	bc->slots[i] = (uint16_t)(n + 1);
}

static int slots_grow(struct bconf *bc)
{
	unsigned old_size = bc->slot_mask + 1, i;
	uint16_t *old = bc->slots;

	bc->slots = calloc(2 * old_size, sizeof(*bc->slots));
	if (!bc->slots) {
		bc->slots = old;
		return -1;
	}
	bc->slot_mask = 2 * old_size - 1;
	for (i = 0; i < old_size; i++)
		if (old[i])
			slot_put(bc, old[i] - 1u);
	free(old);
	return 0;
}

int bconf_index_word(struct bconf *bc, unsigned n, size_t wlen, uint32_t h)
{
	bc->wlen[n] = (uint16_t)wlen;
	bc->whash[n] = h;
	if (2 * (bc->slot_used + 1) > bc->slot_mask + 1 && slots_grow(bc))
		return -1;
	bc->slot_used++;
	slot_put(bc, n);
	return 0;
}
