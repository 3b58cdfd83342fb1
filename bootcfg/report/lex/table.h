/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's hash tables (report_table.c): strings interned to dense
 * ids, and counters keyed by a pair of ids. Every stage of the report
 * uses them; they know nothing of traces.
 *
 * Memory is bounded by what is distinct in a trace (names, tasks, stacks,
 * chains), never by its size: the trace is fed in chunks and nothing is
 * allocated per line.
 */
#ifndef BT_REPORT_TABLE_H
#define BT_REPORT_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define RP_NONE UINT32_MAX

/* ---- interned strings (report_table.c): the symbol table's names ------ */

/* Strings interned to dense ids; each copy is NUL-terminated. */
struct rp_intern {
	char *arena;
	size_t alen, acap;
	struct rp_istr { uint32_t off, len; } *str;
	uint32_t n;
	size_t cap;
	uint32_t *slot;		/* id + 1, 0 = empty */
	uint32_t nslot;		/* power of two */
};

uint32_t rp_intern(struct rp_intern *t, const char *s, size_t len);
uint32_t rp_intern_find(const struct rp_intern *t, const char *s, size_t len);
static inline const char *rp_str(const struct rp_intern *t, uint32_t id)
{
	return t->arena + t->str[id].off;
}
void rp_intern_free(struct rp_intern *t);

/* ---- pair counters (report_table.c) ------------------------------------ */

/* Counters keyed by a pair of ids: (function, task), (function, stack)... */
struct rp_count {
	uint64_t key;		/* (a << 32 | b) + 1, 0 = empty */
	uint64_t n;
	uint64_t first, last;	/* timestamps, ns (or raw counter) */
};

struct rp_pairs {
	struct rp_count *slot;
	size_t cap, used;
	/* rp_pairs_index: the used entries sorted by (a, count desc, ...) */
	struct rp_count **by_a;
	size_t nby_a;
	size_t iused;		/* used when indexed: the index is current */
};

/* The slot a key starts probing at (report_table.c's hash, inlined). */
static inline size_t rp_pairs_start(uint64_t key, size_t cap)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

/* The table must grow first (report_table.c). */
struct rp_count *rp_pairs_add_slow(struct rp_pairs *p, uint32_t a,
				   uint32_t b, uint64_t ts);

/*
 * Count one more (a, b) at @ts; NULL when out of memory. Inline: a
 * trace line counts six or eight pairs, and the call cost as much as
 * the probe.
 */
static inline struct rp_count *rp_pairs_add(struct rp_pairs *p, uint32_t a,
					    uint32_t b, uint64_t ts)
{
	uint64_t key = ((uint64_t)a << 32 | b) + 1;
	struct rp_count *c;
	size_t i;

	if ((p->used + 1) * 2 > p->cap)
		return rp_pairs_add_slow(p, a, b, ts);
	for (i = rp_pairs_start(key, p->cap);; i = (i + 1) & (p->cap - 1)) {
		c = &p->slot[i];
		if (c->key == key)
			break;
		if (!c->key) {
			c->key = key;
			c->first = ts;
			p->used++;
			break;
		}
	}
	c->n++;
	c->last = ts;
	return c;
}
static inline uint32_t rp_key_a(const struct rp_count *c)
{
	return (uint32_t)((c->key - 1) >> 32);
}
static inline uint32_t rp_key_b(const struct rp_count *c)
{
	return (uint32_t)(c->key - 1);
}
/* The entry (a, b) or NULL. */
struct rp_count *rp_pairs_find(const struct rp_pairs *p, uint32_t a,
			       uint32_t b);
/*
 * Sort the used entries once, by a, then count (desc): rp_pairs_of is
 * then a binary search, not a scan of the table per function. Call it
 * when the counting is over (rp_pairs_add drops the index). -1: no memory.
 */
int rp_pairs_index(struct rp_pairs *p);
/* The used entries whose a == @a, sorted by count (desc); malloc'd. */
struct rp_count **rp_pairs_of(const struct rp_pairs *p, uint32_t a,
			      size_t *n);
void rp_pairs_free(struct rp_pairs *p);

uint64_t rp_hash(const void *p, size_t len);

/*
 * A slot key of @nwords eight-byte words at @p, for the direct-mapped
 * memos (line prefixes, stack guesses): each word rotated by its own
 * amount and folded, one multiply. Weaker than rp_hash, three times
 * cheaper; a collision there only costs a miss, as the memos compare the
 * bytes themselves.
 */
static inline uint64_t rp_fold(const char *p, unsigned nwords)
{
	uint64_t h = 0, w;
	unsigned i;

	for (i = 0; i < nwords; i++) {
		memcpy(&w, p + 8 * i, 8);
		h ^= (w << (7 * i % 64)) | (w >> ((64 - 7 * i % 64) % 64));
	}
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

#endif /* BT_REPORT_TABLE_H */
