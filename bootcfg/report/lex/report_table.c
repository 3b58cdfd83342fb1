// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Hash tables of the report: interned strings and pair counters. Open
 * addressing with linear probing; both grow by doubling, so the cost per
 * trace line is a hash and (almost always) one probe.
 */
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/lex/table.h"

#define K1 0x9e3779b97f4a7c15ULL
#define K2 0xbf58476d1ce4e5b9ULL

static uint64_t mix(uint64_t h)
{
	h ^= h >> 31;
	h *= K2;
	h ^= h >> 29;
	return h;
}

/*
 * Names and new stack blocks are hashed whole. Two lanes of eight bytes
 * keep the multiplier busy; the tail is one load that overlaps the bytes
 * before it (when there are eight), not a byte loop.
 */
uint64_t rp_hash(const void *p, size_t len)
{
	const unsigned char *s = p;
	uint64_t a = K1 ^ len, b = K2, w, v;
	size_t n = len;

	while (n >= 16) {
		memcpy(&w, s, 8);
		memcpy(&v, s + 8, 8);
		a = (a ^ w) * K1;
		b = (b ^ v) * K2;
		a ^= a >> 32;
		b ^= b >> 29;
		s += 16;
		n -= 16;
	}
	if (n >= 8) {
		memcpy(&w, s, 8);
		a = (a ^ w) * K1;
		s += 8;
		n -= 8;
	}
	if (n) {
		w = 0;
		if (len >= 8)
			memcpy(&w, s + n - 8, 8);
		else
			memcpy(&w, s, n);
		b = (b ^ w) * K2;
	}
	return mix(a ^ (b * K1));
}

/* ---- interned strings -------------------------------------------------- */

static int intern_grow_slots(struct rp_intern *t)
{
	uint32_t n = t->nslot ? t->nslot * 2 : 256, i, id;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (id = 0; id < t->n; id++) {
		i = (uint32_t)rp_hash(t->arena + t->str[id].off, t->str[id].len) & (n - 1);
		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = id + 1;
	}
	free(t->slot);
	t->slot = s;
	t->nslot = n;
	return 0;
}

static uint32_t *intern_probe(const struct rp_intern *t, const char *s,
			      size_t len)
{
	uint32_t i = (uint32_t)rp_hash(s, len) & (t->nslot - 1), id;

	while ((id = t->slot[i])) {
		id--;
		if (t->str[id].len == len && !memcmp(t->arena + t->str[id].off, s, len))
			break;
		i = (i + 1) & (t->nslot - 1);
	}
	return &t->slot[i];
}

uint32_t rp_intern_find(const struct rp_intern *t, const char *s, size_t len)
{
	uint32_t *slot;

	if (!t->nslot)
		return RP_NONE;
	slot = intern_probe(t, s, len);
	return *slot ? *slot - 1 : RP_NONE;
}

static int intern_room(struct rp_intern *t, size_t len)
{
	/* a string is found by its offset in the arena, a uint32_t */
	if (BT_GROW(t->str, (size_t)t->n + 1, t->cap) ||
	    t->alen + len + 1 > UINT32_MAX ||
	    BT_GROW(t->arena, t->alen + len + 1, t->acap))
		return -1;
	return 0;
}

uint32_t rp_intern(struct rp_intern *t, const char *s, size_t len)
{
	uint32_t *slot;

	if ((!t->nslot || (t->n + 1) * 2 > t->nslot) && intern_grow_slots(t))
		return RP_NONE;
	slot = intern_probe(t, s, len);
	if (*slot)
		return *slot - 1;
	if (intern_room(t, len))
		return RP_NONE;
	memcpy(t->arena + t->alen, s, len);
	t->arena[t->alen + len] = '\0';
	t->str[t->n].off = (uint32_t)t->alen;
	t->str[t->n].len = (uint32_t)len;
	t->alen += len + 1;
	*slot = ++t->n;
	return t->n - 1;
}

void rp_intern_free(struct rp_intern *t)
{
	free(t->arena);
	free(t->str);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- pair counters ----------------------------------------------------- */

static struct rp_count *pairs_probe(struct rp_count *slot, size_t cap,
				    uint64_t key)
{
	size_t i = rp_pairs_start(key, cap);

	while (slot[i].key && slot[i].key != key)
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static int pairs_grow(struct rp_pairs *p)
{
	size_t cap = p->cap ? p->cap * 2 : 256, i;
	struct rp_count *s = calloc(cap, sizeof(*s));

	if (!s)
		return -1;
	for (i = 0; i < p->cap; i++)
		if (p->slot[i].key)
			*pairs_probe(s, cap, p->slot[i].key) = p->slot[i];
	free(p->slot);
	p->slot = s;
	p->cap = cap;
	return 0;
}

struct rp_count *rp_pairs_add_slow(struct rp_pairs *p, uint32_t a,
				   uint32_t b, uint64_t ts)
{
	free(p->by_a);	/* entries move: the index is gone */
	p->by_a = NULL;
	p->nby_a = 0;
	if (pairs_grow(p))
		return NULL;
	return rp_pairs_add(p, a, b, ts);
}

struct rp_count *rp_pairs_find(const struct rp_pairs *p, uint32_t a,
			       uint32_t b)
{
	struct rp_count *c;

	if (!p->cap)
		return NULL;
	c = pairs_probe(p->slot, p->cap, ((uint64_t)a << 32 | b) + 1);
	return c->key ? c : NULL;
}

static int by_count(const void *x, const void *y)
{
	const struct rp_count *a = *(struct rp_count *const *)x;
	const struct rp_count *b = *(struct rp_count *const *)y;

	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return a->key < b->key ? -1 : a->key > b->key;
}

static int by_a_count(const void *x, const void *y)
{
	uint32_t a = rp_key_a(*(struct rp_count *const *)x);
	uint32_t b = rp_key_a(*(struct rp_count *const *)y);

	if (a != b)
		return a < b ? -1 : 1;
	return by_count(x, y);
}

int rp_pairs_index(struct rp_pairs *p)
{
	size_t i, n = 0;

	free(p->by_a);
	p->by_a = malloc((p->used ? p->used : 1) * sizeof(*p->by_a));
	p->nby_a = 0;
	if (!p->by_a)
		return -1;
	for (i = 0; i < p->cap; i++)	/* n 0: counted away (report_frame.c) */
		if (p->slot[i].key && p->slot[i].n)
			p->by_a[n++] = &p->slot[i];
	qsort(p->by_a, n, sizeof(*p->by_a), by_a_count);
	p->nby_a = n;
	p->iused = p->used;
	return 0;
}

/* The first index entry whose a is >= @a. */
static size_t index_lower(const struct rp_pairs *p, uint32_t a)
{
	size_t lo = 0, hi = p->nby_a;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rp_key_a(p->by_a[mid]) < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct rp_count **rp_pairs_of(const struct rp_pairs *p, uint32_t a, size_t *n)
{
	struct rp_count **v;
	size_t i, k = 0;

	*n = 0;
	if (p->by_a && p->iused == p->used) {
		size_t lo = index_lower(p, a), hi = lo;

		while (hi < p->nby_a && rp_key_a(p->by_a[hi]) == a)
			hi++;
		v = malloc((hi > lo ? hi - lo : 1) * sizeof(*v));
		if (!v)
			return NULL;
		memcpy(v, p->by_a + lo, (hi - lo) * sizeof(*v));
		*n = hi - lo;
		return v;
	}
	for (i = 0; i < p->cap; i++)
		if (p->slot[i].key && p->slot[i].n && rp_key_a(&p->slot[i]) == a)
			k++;
	v = malloc((k ? k : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < p->cap; i++)
		if (p->slot[i].key && p->slot[i].n && rp_key_a(&p->slot[i]) == a)
			v[(*n)++] = &p->slot[i];
	qsort(v, *n, sizeof(*v), by_count);
	return v;
}

void rp_pairs_free(struct rp_pairs *p)
{
	free(p->by_a);
	free(p->slot);
	memset(p, 0, sizeof(*p));
}
