// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot in time, counted in the one pass over the trace (report_agg.c
 * calls in, maybe on the counting thread, so nothing here reads the
 * lexer's tables while counting):
 *
 * - the kernel's own boundaries: each initcall_level event, and each
 *   initcall_start paired with its initcall_finish by report_initcall.c's
 *   one rule (the same task's latest open start), so an initcall's time
 *   is its finish less its start (docs/kernel-facts.md 75);
 * - each (function, task) and (function, CPU) pair's hits in
 *   RP_TL_BUCKETS time buckets: the buckets start one nanosecond (or raw
 *   count) wide at the first hit and double in width, merging pairs of
 *   neighbours, whenever a hit falls past the last, so the counts are
 *   always over the whole trace so far. At most RP_TL_SERIES pairs are
 *   counted (the first seen): memory stays bounded, and the hits of the
 *   others are counted as dropped for the page to say.
 *
 * After the pass, report_phase.c draws the phases on the time axis from
 * these, the hook's snapshot time (meta uptime_start) and pid 1's execs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/lex/count.h"

#define SLOTS (2 * RP_TL_SERIES)	/* a power of two, half full at most */

void rp_tl_free(struct rp_timeline *t)
{
	free(t->level);
	free(t->icall);
	if (t->open)
		rp_icalls_free(t->open);
	free(t->open);
	free(t->slot_key);
	free(t->slot_of);
	free(t->series);
	free(t->count);
	memset(t, 0, sizeof(*t));
}

int rp_tl_icall(struct rp_timeline *t, const struct rp_ev *ev)
{
	char key[16];
	size_t ref;
	int len;

	if (!t->open && !(t->open = calloc(1, sizeof(*t->open))))
		return -1;
	/* the task as report_initcall.c's key: its interned id, one per "comm-pid" */
	len = snprintf(key, sizeof(key), "%u", ev->task);
	switch ((enum rp_icall_kind)ev->aux) {
	case RP_IC_LEVEL:
		if (BT_GROW(t->level, (size_t)t->nlevel + 1, t->caplevel))
			return -1;
		t->level[t->nlevel++] = (struct rp_tl_level){ ev->fn, ev->task, ev->ts };
		return 0;
	case RP_IC_START:
		if (BT_GROW(t->icall, (size_t)t->nicall + 1, t->capicall) ||
		    rp_icalls_start(t->open, key, (size_t)len, t->nicall))
			return -1;
		t->icall[t->nicall] = (struct rp_tl_icall){
			.fn = ev->fn, .task = ev->task, .start = ev->ts,
			/* a level's initcalls run on the task that began it */
			.level = t->nlevel && t->level[t->nlevel - 1].task == ev->task ?
				 (int32_t)t->nlevel - 1 : -1,
		};
		t->nicall++;
		return 0;
	case RP_IC_FINISH:
		ref = rp_icalls_finish(t->open, key, (size_t)len);
		if (ref == RP_ICALL_NONE) {
			t->unpaired++;
			return 0;
		}
		t->icall[ref].end = ev->ts;
		t->icall[ref].ret = (int32_t)ev->other;
		t->icall[ref].done = 1;
		return 0;
	}
	return 0;
}

/* Widen the buckets until bucket @b (of the present width) is the last or before. */
static void widen(struct rp_timeline *t, uint64_t b)
{
	unsigned k = 0;
	uint32_t s, i;

	while ((b >> k) >= RP_TL_BUCKETS)
		k++;
	for (s = 0; s < t->nseries; s++) {
		uint32_t *c = t->count + (size_t)s * RP_TL_BUCKETS;

		for (i = 0; i < RP_TL_BUCKETS; i++) {
			uint32_t v = c[i];

			c[i] = 0;
			c[k < 32 ? i >> k : 0] += v;	/* a far jump: all in one */
		}
	}
	t->width <<= k;
	t->shift += k;
}

/* The series of (fn, lane), made on first sight; NULL: past the cap. */
static int series(struct rp_timeline *t, uint32_t fn, uint32_t lane,
		  uint32_t **out)
{
	uint64_t key = ((uint64_t)fn << 32 | lane) + 1, h;
	size_t i;

	*out = NULL;
	if (key == t->memo_key[lane >> 31]) {	/* the same pair as last time */
		i = t->memo_of[lane >> 31] - 1;
		t->series[i].n++;
		*out = t->count + i * RP_TL_BUCKETS;
		return 0;
	}
	if (!t->slot_key) {
		t->slot_key = calloc(SLOTS, sizeof(*t->slot_key));
		t->slot_of = calloc(SLOTS, sizeof(*t->slot_of));
		if (!t->slot_key || !t->slot_of)
			return -1;
	}
	h = key * 0x9e3779b97f4a7c15ULL;
	for (i = (size_t)(h >> 40) & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
		if (t->slot_key[i] == key) {
			*out = t->count + (size_t)(t->slot_of[i] - 1) * RP_TL_BUCKETS;
			t->series[t->slot_of[i] - 1].n++;
			t->memo_key[lane >> 31] = key;
			t->memo_of[lane >> 31] = t->slot_of[i];
			return 0;
		}
		if (!t->slot_key[i])
			break;
	}
	if (t->nseries >= RP_TL_SERIES) {
		t->dropped++;
		return 0;
	}
	if (BT_GROW(t->series, (size_t)t->nseries + 1, t->capseries) ||
	    BT_GROW(t->count, ((size_t)t->nseries + 1) * RP_TL_BUCKETS, t->capcount))
		return -1;
	memset(t->count + (size_t)t->nseries * RP_TL_BUCKETS, 0,
	       RP_TL_BUCKETS * sizeof(*t->count));
	t->series[t->nseries] = (struct rp_tl_series){ fn, lane, 1 };
	t->slot_key[i] = key;
	t->slot_of[i] = ++t->nseries;
	t->memo_key[lane >> 31] = key;
	t->memo_of[lane >> 31] = t->nseries;
	*out = t->count + (size_t)(t->nseries - 1) * RP_TL_BUCKETS;
	return 0;
}

int rp_tl_hit(struct rp_timeline *t, const struct rp_ev *ev)
{
	uint32_t cpu1 = ev->aux >> RP_AUX_CPU_SHIFT, *c;
	uint64_t b;

	if (!t->started) {
		t->started = 1;
		t->t0 = ev->ts;
		t->width = 1;
		t->shift = 0;
	}
	/* before the first hit (the CPUs' buffers interleave): its bucket */
	b = ev->ts > t->t0 ? (ev->ts - t->t0) >> t->shift : 0;
	if (b >= RP_TL_BUCKETS) {
		widen(t, b);
		b = (ev->ts - t->t0) >> t->shift;
	}
	if (series(t, ev->fn, ev->task, &c))
		return -1;
	if (c && c[b] < UINT32_MAX)
		c[b]++;
	if (!cpu1)
		return 0;
	t->have_cpu = 1;
	if (series(t, ev->fn, RP_TL_CPU | (cpu1 - 1), &c))
		return -1;
	if (c && c[b] < UINT32_MAX)
		c[b]++;
	return 0;
}

const struct rp_tl_series *rp_tl_series_of(const struct rp_timeline *t,
					   uint32_t fn, uint32_t lane,
					   const uint32_t **counts)
{
	uint64_t key = ((uint64_t)fn << 32 | lane) + 1, h;
	size_t i;

	if (!t->slot_key)
		return NULL;
	h = key * 0x9e3779b97f4a7c15ULL;
	for (i = (size_t)(h >> 40) & (SLOTS - 1); t->slot_key[i];
	     i = (i + 1) & (SLOTS - 1))
		if (t->slot_key[i] == key) {
			*counts = t->count + (size_t)(t->slot_of[i] - 1) * RP_TL_BUCKETS;
			return &t->series[t->slot_of[i] - 1];
		}
	return NULL;
}

/* ---- after the pass ---------------------------------------------------- */

static const struct rp_tl_icall *by_len_base;

static int by_len(const void *x, const void *y)
{
	const struct rp_tl_icall *a = &by_len_base[*(const uint32_t *)x],
				 *b = &by_len_base[*(const uint32_t *)y];
	uint64_t la = a->end - a->start, lb = b->end - b->start;

	if (la != lb)
		return la < lb ? 1 : -1;
	return (a->start > b->start) - (a->start < b->start);
}

uint32_t *rp_tl_by_length(const struct rp_timeline *t, uint32_t *n)
{
	uint32_t *v = malloc(((size_t)t->nicall + 1) * sizeof(*v)), i;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < t->nicall; i++)
		if (t->icall[i].done && t->icall[i].end >= t->icall[i].start)
			v[(*n)++] = i;
	by_len_base = t->icall;
	qsort(v, *n, sizeof(*v), by_len);
	return v;
}

const char *rp_tl_level_name(const struct report *r, const struct rp_tl_icall *c)
{
	if (c->level >= 0)
		return rp_str(&r->progs, r->tl.level[c->level].name);
	return r->tl.nlevel ? "module" : "-";
}
