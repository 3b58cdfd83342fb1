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
	uint64_t a = 0, b = 0;

	memcpy(&a, w, len < 8 ? len : 8);
	if (len > 8)
		memcpy(&b, w + len - 8, 8);
	return bconf_hash_mix(a, b, len);
}

/*
 * For callers outside the parser: @w may be any string, with no slack
 * after it for bconf_words_equal(), so compare with memcmp.
 */
int bconf_lookup_word(const struct bconf *bc, unsigned parent, const char *w,
		      size_t wlen)
{
	uint32_t h = bconf_word_hash(w, wlen);
	unsigned i = bconf_slot_of(bc, parent, h), n;

	while ((n = bc->slots[i]) != 0) {
		n--;
		if (bc->whash[n] == h && bc->nodes[n].parent == parent &&
		    bc->wlen[n] == wlen && !memcmp(bn_text(bc, n), w, wlen))
			return (int)n;
		i = (i + 1) & bc->slot_mask;
	}
	return -1;
}

static void slot_put(struct bconf *bc, unsigned n)
{
	unsigned i = bconf_slot_of(bc, bc->nodes[n].parent, bc->whash[n]);

	while (bc->slots[i])
		i = (i + 1) & bc->slot_mask;
	bc->slots[i] = (uint16_t)(n + 1);
}

int bconf_index_grow(struct bconf *bc)
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

