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
 * After the pass, the phases on the time axis are drawn from these and
 * from the hook's snapshot time (meta uptime_start) and pid 1's execs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/report_int.h"

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

/* "uptime_start=12.34" of the hook's meta, in ns; 0 when it is not there. */
static uint64_t meta_uptime(const struct rp_snap *s, const char *key)
{
	const char *p = s ? s->meta : NULL;
	size_t klen = strlen(key);
	char *end;
	double v;

	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, key, klen) || p[klen] != '=')
			continue;
		v = strtod(p + klen + 1, &end);
		if (end == p + klen + 1 || v <= 0)
			return 0;
		return (uint64_t)(v * 1e9);
	}
	return 0;
}

/* pid 1's execs: the first (/init of the initramfs) and the second (the root's). */
static void pid1_execs(const struct report *r, uint64_t *first, uint64_t *second)
{
	const struct rp_lineage *l = &r->lin;
	uint32_t life, x;

	*first = *second = 0;
	if (l->npid < 2 || !l->by_pid[1])
		return;
	for (life = l->by_pid[1] - 1; l->life[life].prev != RP_NONE;)
		life = l->life[life].prev;
	x = l->life[life].exec;
	if (x == RP_NONE)
		return;
	*first = l->ex[x].ts;
	if (l->ex[x].next != RP_NONE)
		*second = l->ex[l->ex[x].next].ts;
}

static void add(struct rp_tl_phases *o, const char *name, uint64_t from,
		uint64_t to, const char *how)
{
	struct rp_tl_phase *p;

	if (o->n >= RP_TL_PHASES || to < from)
		return;
	p = &o->v[o->n++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->from = from;
	p->to = to;
	snprintf(p->how, sizeof(p->how), "%s", how);
}

static void missing(struct rp_tl_phases *o, const char *text)
{
	if (o->nmissing < 4)
		snprintf(o->missing[o->nmissing++], sizeof(o->missing[0]), "%s", text);
}

void rp_trace_span(const struct report *r, uint64_t *t0, uint64_t *t1)
{
	uint32_t i;

	*t0 = UINT64_MAX;
	*t1 = 0;
	for (i = 0; i < r->nfn; i++) {
		if (r->fn[i].first < *t0)
			*t0 = r->fn[i].first;
		if (r->fn[i].last > *t1)
			*t1 = r->fn[i].last;
	}
}

void rp_tl_phases(const struct report *r, const struct rp_snap *snap,
		  struct rp_tl_phases *o)
{
	const struct rp_timeline *t = &r->tl;
	uint64_t init_end = 0, snap_at = 0, x1, x2, from, t0, t1;
	char name[40], how[200];
	uint32_t i, j;

	memset(o, 0, sizeof(*o));
	rp_trace_span(r, &t0, &t1);
	if (!t->nlevel) {
		missing(o, "no initcall_level event in the trace: the initcall levels are not drawn (trace_event=initcall:initcall_level on the kernel command line records them)");
	} else {
		const char *first = rp_str(&r->progs, t->level[0].name);

		if (t->level[0].ts > t0)
			add(o, "early kernel", t0, t->level[0].ts,
			    "from the trace's first event to the first initcall_level event");
		if (strcmp(first, "early")) {
			snprintf(how, sizeof(how), "the first initcall_level in the trace is \"%s\": the levels before it ran before the trace's events were on", first);
			missing(o, how);
		}
		for (i = 0; i < t->nlevel; i++) {
			uint64_t to = i + 1 < t->nlevel ? t->level[i + 1].ts : t->level[i].ts;

			if (i + 1 == t->nlevel)	/* the last: to its last initcall's end */
				for (j = 0; j < t->nicall; j++)
					if (t->icall[j].level == (int32_t)i &&
					    t->icall[j].done && t->icall[j].end > to)
						to = t->icall[j].end;
			snprintf(name, sizeof(name), "level %s", rp_str(&r->progs, t->level[i].name));
			add(o, name, t->level[i].ts, to, i + 1 < t->nlevel ?
			    "from its initcall_level event to the next level's" :
			    "from its initcall_level event to the end of its last initcall (initcall_finish)");
			init_end = to;
		}
	}
	pid1_execs(r, &x1, &x2);
	/* the hook's uptime is seconds since boot, as the trace clock: not a raw counter */
	snap_at = r->ts_raw ? 0 : meta_uptime(snap, "uptime_start");
	from = x1 ? x1 : init_end;
	if (x2 && from && x2 > from) {
		add(o, "initramfs", from, x2, x1 ?
		    "from pid 1's first exec (/init) to its second (the root's init)" :
		    "from the last initcall level's end to pid 1's second exec (the root's init)");
		add(o, "root / userspace", x2, t1 > x2 ? t1 : x2,
		    "from pid 1's exec of the root's init to the trace's last event");
	} else if (snap_at && from && snap_at > from) {
		add(o, "initramfs", from, snap_at, x1 ?
		    "from pid 1's first exec (/init) to the hook's snapshot (meta uptime_start)" :
		    "from the last initcall level's end to the hook's snapshot (meta uptime_start)");
		if (t1 > snap_at)
			add(o, "after the snapshot", snap_at, t1,
			    "the trace goes on past the hook's snapshot (follow: collect joined the live trace); no exec of pid 1 marks the switch to the root");
	} else if (from && t1 > from) {
		add(o, "after the initcalls", from, t1, x1 ?
		    "from pid 1's first exec to the trace's last event" :
		    "from the last initcall level's end to the trace's last event");
	}
	if (!snap_at && !x2)
		missing(o, "no hook snapshot time (meta uptime_start) and no second exec of pid 1 (boottrace.lineage) in the input: where the initramfs ends is not known");
}
