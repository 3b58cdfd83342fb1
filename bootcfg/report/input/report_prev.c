// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The previous boot's part of a snapshot: the hook's copy of a Linux 6.12
 * persistent instance (previous/NAME/: trace, last_boot_info, text;
 * initramfs-hook/README.md, docs/kernel-facts.md 50-55).
 *
 * The instance holds the previous boot's last events and then this boot's,
 * appended to each CPU's buffer. Each CPU's events are in order in the
 * trace text, and this boot's clock restarts near 0: the previous boot's
 * events on a CPU are those before the last step back in time of that CPU.
 * A CPU without a step is all one boot; it is taken as this boot's, which
 * is ambiguous when the previous boot's events there all came before this
 * boot's first (said so, with that time). Events before an earlier step
 * are an earlier boot's: what a boot did after its hook emptied the
 * instance, before the boot that died (counted, not shown).
 *
 * The kernel prints the previous boot's pointer fields raw (initcall
 * "func=0x..."): that boot's address plus the text delta of last_boot_info
 * is this boot's address, and this boot's address less its _text (from the
 * hook's "text" file) plus the symbol table's _text is the table's.
 *
 * A start without a finish is not always an initcall that never finished:
 * the kernel can drop a dying boot's last events on one CPU while the
 * task's later initcalls are on another (docs/kernel-facts.md 58), and
 * the CPUs' clocks need not agree, so time cannot say what came later.
 * This boot ran the same initcalls in the same order: a start whose task
 * went on to an initcall that comes at least two places later in that
 * order finished, its finish was lost.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/input/input.h"
#include "util/grow.h"
#include "util/json.h"

#define PREV_LAST 5		/* last events shown per CPU */
#define PREV_OPEN 3		/* unfinished initcalls shown */

static struct rp_prev_cpu *cpu_of(struct rp_prev *p, int cpu)
{
	size_t i;

	for (i = 0; i < p->ncpu; i++)
		if (p->cpu[i].cpu == cpu)
			return &p->cpu[i];
	if (BT_GROW(p->cpu, p->ncpu + 1, p->cpucap) < 0)
		return NULL;
	memset(&p->cpu[p->ncpu], 0, sizeof(p->cpu[0]));
	p->cpu[p->ncpu].cpu = cpu;
	return &p->cpu[p->ncpu++];
}

/* "text delta:\t-411041792" of last_boot_info. */
static int parse_delta(const char *lbi, long long *delta)
{
	const char *p = lbi ? strstr(lbi, "text delta:") : NULL;
	char *end;

	if (!p)
		return 0;
	p += strlen("text delta:");
	errno = 0;
	*delta = strtoll(p, &end, 0);
	return end != p && !errno;
}

/* "ffffffffa0e00000 T _text" of the hook's text file. */
static int parse_text(const char *t, uint64_t *addr)
{
	unsigned long long a;

	if (!t || sscanf(t, "%llx", &a) != 1 || !a)
		return 0;
	*addr = a;
	return 1;
}

/* The func token of an initcall_start/finish event, or NULL. */
static const char *initcall_func(const char *s, const char *e, int *start,
				 size_t *len)
{
	const char *f;

	if ((f = memmem(s, (size_t)(e - s), "initcall_start: func=", 21)))
		*start = 1, f += 21;
	else if ((f = memmem(s, (size_t)(e - s), "initcall_finish: func=", 22)))
		*start = 0, f += 22;
	else
		return NULL;
	*len = strcspn(f, " \n");
	if (f + *len > e)
		*len = (size_t)(e - f);
	return f;
}

/* The task ("swapper/0-1") of the event line [s, e): its length from *@t. */
static size_t task_of(const char *s, const char *e, const char **t)
{
	const char *b = memmem(s, (size_t)(e - s), " [", 2);

	while (s < e && *s == ' ')
		s++;
	*t = s;
	if (!b || b < s)
		return 0;
	while (b > s && b[-1] == ' ')
		b--;
	return (size_t)(b - s);
}

/*
 * Each initcall_finish to its initcall_start, by the one rule of
 * report_initcall.c (the same task's latest open start).
 */
static int pair_initcalls(struct rp_prev *p)
{
	struct rp_icalls open = { 0 };
	size_t i, fl, tl, j;
	const char *t;
	int start;

	for (i = 0; i < p->nev; i++) {
		const char *s = p->trace + p->ev[i].off, *e = s + p->ev[i].len;

		if (!initcall_func(s, e, &start, &fl))
			continue;
		tl = task_of(s, e, &t);
		if (start) {
			if (rp_icalls_start(&open, t, tl, i) < 0) {
				rp_icalls_free(&open);
				return -1;
			}
		} else if ((j = rp_icalls_finish(&open, t, tl)) != RP_ICALL_NONE) {
			p->ev[j].finished = 1;
			p->ev[i].start = j + 1;
		}
	}
	rp_icalls_free(&open);
	return 0;
}

/* A raw "initcall_start: func=0x..." pointer of [s, e), or 0. */
static uint64_t start_ptr(const char *s, const char *e)
{
	const char *f = memmem(s, (size_t)(e - s), "initcall_start: func=0x", 23);
	unsigned long long a;

	return f && sscanf(f + 21, "%llx", &a) == 1 ? a : 0;
}

static int by_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

#define CAL_MAX 256		/* the previous boot's last initcall pointers */
#define CAL_CUR 2048		/* this boot's first, compared with them */

/*
 * This boot's address less an earlier boot's, measured: every pair of an
 * earlier-boot pointer (@prev) and a this-boot initcall_start pointer
 * gives a difference; the same function in both differs by the kernel's
 * move, so that difference is by far the most common. Kept when it is at
 * least 3 pairs and a quarter of the smaller side.
 */
static int vote(const uint64_t *prev, size_t np, const uint64_t *cur,
		size_t ncur, long long *cal, size_t *votes, size_t *pairs)
{
	uint64_t *d;
	size_t i, j, n = 0, best = 0, run;

	*votes = *pairs = 0;
	if (!np || !ncur)
		return 0;
	d = malloc(np * ncur * sizeof(*d));
	if (!d)
		return -1;
	for (i = 0; i < np; i++)
		for (j = 0; j < ncur; j++)
			d[n++] = cur[j] - prev[i];
	qsort(d, n, sizeof(*d), by_u64);
	for (i = 0; i < n; i += run) {
		for (run = 1; i + run < n && d[i + run] == d[i]; run++)
			;
		if (run > best) {
			best = run;
			*cal = (long long)d[i];
		}
	}
	free(d);
	*votes = best;
	*pairs = np < ncur ? np : ncur;
	return best >= 3 && best * 4 >= *pairs;
}

/* The last CAL_MAX initcall_start pointers of CPU @cpu (-1: any). */
static size_t prev_ptrs(const struct rp_prev *p, int cpu, uint64_t *prev)
{
	size_t i, np = 0;

	for (i = p->nev; i > 0 && np < CAL_MAX; i--) {
		const char *s = p->trace + p->ev[i - 1].off;
		uint64_t a;

		if (cpu >= 0 && p->ev[i - 1].cpu != cpu)
			continue;
		if ((a = start_ptr(s, s + p->ev[i - 1].len)))
			prev[np++] = a;
	}
	return np;
}

/*
 * The move, measured over all the previous-boot events and then per CPU:
 * a CPU where the previous boot left nothing after an older boot's events
 * (a boot that died early may never have run on it) has that older boot's
 * events last, at another move (docs/kernel-facts.md 57). This boot's
 * pointers are taken only after a CPU's step back in time: a CPU without
 * one may be an older boot's.
 */
static int calibrate(struct rp_prev *p, const uint64_t *cur, size_t ncur)
{
	uint64_t prev[CAL_MAX];
	size_t k;
	int ok;

	ok = vote(prev, prev_ptrs(p, -1, prev), cur, ncur, &p->cal,
		  &p->cal_votes, &p->cal_pairs);
	if (ok < 0)
		return -1;
	p->have_cal = ok;
	for (k = 0; k < p->ncpu; k++) {
		struct rp_prev_cpu *c = &p->cpu[k];

		ok = vote(prev, prev_ptrs(p, c->cpu, prev), cur, ncur, &c->cal,
			  &c->cal_votes, &c->cal_pairs);
		if (ok < 0)
			return -1;
		c->have_cal = ok;
		c->other_boot = ok && p->have_cal && c->cal != p->cal;
	}
	return 0;
}

/* CPU @cpu's part of the copy, or NULL. */
static const struct rp_prev_cpu *cpu_find(const struct rp_prev *p, int cpu)
{
	size_t i;

	for (i = 0; i < p->ncpu; i++)
		if (p->cpu[i].cpu == cpu)
			return &p->cpu[i];
	return NULL;
}

/* The move measured for CPU @c's events (its own, or all CPUs'). */
static int measured_move(const struct rp_prev *p, const struct rp_prev_cpu *c,
			 long long *move)
{
	if (c && c->have_cal)
		*move = c->cal;
	else if (p->have_cal)
		*move = p->cal;
	else
		return 0;
	return 1;
}

struct order_ent {		/* a pointer of this boot's initcall order */
	uint64_t ptr;
	size_t idx;
};

static int by_ptr_idx(const void *x, const void *y)
{
	const struct order_ent *a = x, *b = y;

	if (a->ptr != b->ptr)
		return a->ptr < b->ptr ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Where @ptr first comes in the sorted order @o (+ 1), or 0. */
static size_t order_find(const struct order_ent *o, size_t n, uint64_t ptr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (o[mid].ptr < ptr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && o[lo].ptr == ptr ? o[lo].idx + 1 : 0;
}

/*
 * Each previous-boot initcall_start's place in this boot's order @cur
 * (its pointer moved by the measured move; none without one).
 */
static int order_prev(struct rp_prev *p, const uint64_t *cur, size_t ncur)
{
	struct order_ent *o;
	size_t i;

	if (!ncur)
		return 0;
	if (!(o = malloc(ncur * sizeof(*o))))
		return -1;
	for (i = 0; i < ncur; i++)
		o[i].ptr = cur[i], o[i].idx = i;
	qsort(o, ncur, sizeof(*o), by_ptr_idx);
	for (i = 0; i < p->nev; i++) {
		const char *s = p->trace + p->ev[i].off;
		const struct rp_prev_cpu *c = cpu_find(p, p->ev[i].cpu);
		uint64_t a = start_ptr(s, s + p->ev[i].len);
		long long move;

		if (a && c && !c->other_boot && measured_move(p, c, &move))
			p->ev[i].order = order_find(o, ncur, a + (uint64_t)move);
	}
	free(o);
	return 0;
}

struct task_max {		/* a task's latest initcall, in this boot's order */
	const char *t;
	size_t tl, max;
};

static int by_task(const void *x, const void *y)
{
	const struct task_max *a = x, *b = y;
	int d = memcmp(a->t, b->t, a->tl < b->tl ? a->tl : b->tl);

	return d ? d : (a->tl > b->tl) - (a->tl < b->tl);
}

/*
 * The starts without a finish whose task went on to an initcall at least
 * two places later in this boot's order (one place could be two
 * neighbours that this boot's merged CPUs printed the other way round).
 */
static int mark_lost(struct rp_prev *p)
{
	struct task_max *m, key;
	size_t i, n = 0, k = 0;

	if (!(m = malloc((p->nev ? p->nev : 1) * sizeof(*m))))
		return -1;
	for (i = 0; i < p->nev; i++)
		if (p->ev[i].order) {
			const char *s = p->trace + p->ev[i].off;

			m[n].tl = task_of(s, s + p->ev[i].len, &m[n].t);
			m[n++].max = p->ev[i].order;
		}
	qsort(m, n, sizeof(*m), by_task);
	for (i = 0; i < n; i++) {	/* one entry per task, its latest */
		if (k && !by_task(&m[k - 1], &m[i])) {
			if (m[i].max > m[k - 1].max)
				m[k - 1].max = m[i].max;
		} else {
			m[k++] = m[i];
		}
	}
	for (i = 0; i < p->nev; i++) {
		const char *s = p->trace + p->ev[i].off;
		const struct task_max *t;

		if (!p->ev[i].order || p->ev[i].finished)
			continue;
		key.tl = task_of(s, s + p->ev[i].len, &key.t);
		t = bsearch(&key, m, k, sizeof(*m), by_task);
		p->ev[i].lost = t && t->max >= p->ev[i].order + 2;
	}
	free(m);
	return 0;
}

int rp_prev_parse(struct rp_prev *p, const char *name, char *trace,
		  size_t len, const char *lbi, const char *text)
{
	const char *s, *end = trace + len;
	uint64_t *cur = malloc(CAL_CUR * sizeof(*cur));
	size_t i, ncur = 0;
	int rc;
	int pass;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->trace = trace;
	p->len = len;
	p->have_delta = parse_delta(lbi, &p->delta);
	p->have_text = parse_text(text, &p->cur_text);
	/*
	 * Pass 0: each CPU's events and where its last step back in time
	 * is. Pass 1: the events before that step are the previous boot's.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < p->ncpu; i++)
			p->cpu[i].seen = 0;
		for (s = trace; s < end;) {
			const char *nl = memchr(s, '\n', (size_t)(end - s));
			const char *e = nl ? nl : end;
			struct rp_prev_cpu *c;
			uint64_t ts;
			int cpu, raw;

			if (report_line_time(s, e, &cpu, &ts, &raw) == 1) {
				if (!(c = cpu_of(p, cpu)))
					goto oom;
				if (!pass) {
					if (c->seen && ts < c->last_ts) {
						c->step0 = c->step;
						c->step = c->seen;
						c->prev_last = c->last_ts;
						c->cur_first = ts;
					}
					if (!c->seen)
						c->first_ts = ts;
					c->last_ts = ts;
				} else if (cur && c->step && c->seen >= c->step && ncur < CAL_CUR &&
					   (cur[ncur] = start_ptr(s, e))) {
					ncur++;	/* this boot's, for calibrate */
				} else if (c->seen >= c->step0 && c->seen < c->step) {
					if (BT_GROW(p->ev, p->nev + 1, p->evcap) < 0)
						goto oom;
					p->ev[p->nev].off = (size_t)(s - trace);
					p->ev[p->nev].len = (size_t)(e - s);
					p->ev[p->nev].cpu = cpu;
					p->ev[p->nev].ts = ts;
					p->ev[p->nev].start = 0;
					p->ev[p->nev].finished = 0;
					p->ev[p->nev].order = 0;
					p->ev[p->nev].lost = 0;
					p->nev++;
				}
				c->seen++;
			}
			s = nl ? nl + 1 : end;
		}
		if (!pass)
			for (i = 0; i < p->ncpu; i++)
				p->cpu[i].events = p->cpu[i].seen;
	}
	if (pair_initcalls(p) < 0)
		goto oom;
	rc = cur ? calibrate(p, cur, ncur) : -1;
	if (!rc)
		rc = order_prev(p, cur, ncur) || mark_lost(p) ? -1 : 0;
	free(cur);
	return rc;
oom:
	free(cur);
	return -1;
}

/* The pointer text after "func=" in [s, e): its length. */
static size_t func_len(const char *s, const char *e)
{
	const char *q = s;

	while (q < e && *q != ' ')
		q++;
	/* " (-1181183776)": the kernel's decimal of a raw pointer */
	if (q + 2 < e && q[1] == '(' && !strncmp(s, "0x", 2)) {
		const char *r = memchr(q, ')', (size_t)(e - q));

		if (r)
			q = r + 1;
	}
	return (size_t)(q - s);
}

/* The symbol table's _text, or 0. */
static uint64_t syms_text(const struct rp_syms *syms)
{
	size_t i;

	for (i = 0; i < syms->n; i++)
		if (!strcmp(rp_str(&syms->names, syms->v[i].name), "_text"))
			return syms->v[i].addr;
	return 0;
}

int rp_prev_name(const struct rp_prev *p, const struct rp_syms *syms,
		 int cpu, char *out, size_t cap, uint64_t addr)
{
	const struct rp_prev_cpu *c = cpu_find(p, cpu);
	long long move;
	uint64_t base;

	if (!syms || !(p->have_delta || p->have_cal) || !p->have_text ||
	    !(base = syms_text(syms)))
		return -1;
	if (!measured_move(p, c, &move))
		move = p->delta;
	addr = addr + (uint64_t)move - p->cur_text + base;
	return rp_syms_lookup(syms, addr, out, cap);
}

/*
 * Event @i's text with its pointer named into @buf: a raw "func=0x..."
 * through the text delta; a finish's pointer that this boot's kernel named
 * (wrongly, unless the kernel did not move) by its start's raw one. *@named
 * is set when a pointer was named, *@raw when one was left raw, *@kname
 * when one keeps a name this boot's kernel gave it.
 */
static void line_named(const struct rp_prev *p, const struct rp_syms *syms,
		       size_t i, char *buf, size_t cap, int *named, int *raw,
		       int *kname)
{
	const char *s = p->trace + p->ev[i].off, *e = s + p->ev[i].len;
	const char *f = memmem(s, (size_t)(e - s), "func=", 5), *src;
	unsigned long long a;
	char sym[256];
	size_t fl;

	if (!f) {
		snprintf(buf, cap, "%.*s", (int)(e - s), s);
		return;
	}
	f += 5;
	fl = func_len(f, e);
	src = f;
	if (strncmp(f, "0x", 2) && p->ev[i].start) {	/* kernel-named finish */
		const struct rp_prev_ev *st = &p->ev[p->ev[i].start - 1];
		const char *ss = p->trace + st->off;
		const char *sf = memmem(ss, st->len, "func=", 5);

		if (sf && !strncmp(sf + 5, "0x", 2))
			src = sf + 5;
	}
	if (strncmp(src, "0x", 2) || sscanf(src, "%llx", &a) != 1 ||
	    rp_prev_name(p, syms, p->ev[i].cpu, sym, sizeof(sym), a)) {
		if (!strncmp(f, "0x", 2))
			*raw = 1;
		else if (!p->have_delta || p->delta)
			*kname = 1;
		snprintf(buf, cap, "%.*s", (int)(e - s), s);
		return;
	}
	*named = 1;
	snprintf(buf, cap, "%.*s%s%.*s", (int)(f - s), s, sym,
		 (int)(e - (f + fl)), f + fl);
}

/* Append event @i to the list *@v (@n long, @cap room). -1: no memory. */
static int open_add(size_t **v, size_t *n, size_t *cap, size_t i)
{
	if (BT_GROW(*v, *n + 1, *cap) < 0)
		return -1;
	(*v)[(*n)++] = i;
	return 0;
}

/*
 * The initcall_starts without a finish, in order, in one walk: into *@open
 * those that never finished, into *@lost those whose finish the kernel
 * lost; *@starts says whether any initcall started at all.
 */
static int unfinished(const struct rp_prev *p, size_t **open, size_t *nopen,
		      size_t **lost, size_t *nlost, int *starts)
{
	size_t i, capo = 0, capl = 0;

	*open = *lost = NULL;
	*nopen = *nlost = 0;
	*starts = 0;
	for (i = 0; i < p->nev; i++) {
		const char *s = p->trace + p->ev[i].off, *e = s + p->ev[i].len;
		const struct rp_prev_cpu *c = cpu_find(p, p->ev[i].cpu);
		size_t fl;
		int start;

		if (!initcall_func(s, e, &start, &fl) || !start ||
		    (c && c->other_boot))
			continue;
		*starts = 1;
		if (p->ev[i].finished)
			continue;
		if (p->ev[i].lost ? open_add(lost, nlost, &capl, i) :
				    open_add(open, nopen, &capo, i)) {
			free(*open);
			free(*lost);
			*open = *lost = NULL;
			return -1;
		}
	}
	return 0;
}

/* The index of the first of CPU @cpu's last PREV_LAST events. */
static size_t last_of(const struct rp_prev *p, int cpu)
{
	size_t i, last;

	for (i = p->nev, last = 0; i > 0 && last < PREV_LAST; i--)
		last += p->ev[i - 1].cpu == cpu;
	return i;
}

static void jtime(uint64_t ts, FILE *f)
{
	char b[RP_TS_LEN];

	fputs(rp_ts_text(ts, 0, b), f);
}

int rp_prev_print_json(const struct rp_prev *p, const struct rp_syms *syms,
		       FILE *f)
{
	size_t i, k, *open, nopen, *lost, nlost;
	int named = 0, raw = 0, kname = 0, starts, first;
	char buf[1024];

	if (unfinished(p, &open, &nopen, &lost, &nlost, &starts))
		return -1;
	fputs("  \"previous_boot\": {\"instance\": ", f);
	json_fputs(f, p->name);
	fputs(", \"text_delta\": ", f);
	if (p->have_delta)
		fprintf(f, "%lld", p->delta);
	else
		fputs("null", f);
	fputs(", \"measured_delta\": ", f);
	if (p->have_cal)
		fprintf(f, "%lld", p->cal);
	else
		fputs("null", f);
	fprintf(f, ", \"initcalls_agreeing\": %zu, \"initcalls_compared\": %zu, \"cpus\": [",
		p->cal_votes, p->cal_pairs);
	for (k = 0; k < p->ncpu; k++) {
		const struct rp_prev_cpu *c = &p->cpu[k];

		fprintf(f, "%s\n    {\"cpu\": %d, \"events\": %zu, \"earlier_events\": %zu, \"ambiguous\": %s, \"other_boot\": %s, \"measured_delta\": ",
			k ? "," : "", c->cpu, c->step - c->step0, c->step0,
			c->step ? "false" : "true", c->other_boot ? "true" : "false");
		if (c->have_cal)
			fprintf(f, "%lld", c->cal);
		else
			fputs("null", f);
		fputs(", \"last\": ", f);
		if (c->step)
			jtime(c->prev_last, f);
		else
			fputs("null", f);
		fputs(", \"this_boot_from\": ", f);
		jtime(c->step ? c->cur_first : c->first_ts, f);
		fputs(", \"last_events\": [", f);
		first = 1;
		for (i = c->step ? last_of(p, c->cpu) : p->nev; i < p->nev; i++) {
			if (p->ev[i].cpu != c->cpu)
				continue;
			line_named(p, syms, i, buf, sizeof(buf), &named, &raw, &kname);
			fputs(first ? "" : ", ", f);
			json_fputs(f, buf + strspn(buf, " "));
			first = 0;
		}
		fputs("]}", f);
	}
	fprintf(f, "%s], \"initcalls\": \"%s\", \"unfinished\": [", p->ncpu ? "\n  " : "",
		!starts ? "none" : nopen ? "unfinished" : "all finished");
	for (i = nopen; i > 0 && nopen - i < PREV_OPEN; i--) {
		line_named(p, syms, open[i - 1], buf, sizeof(buf), &named, &raw, &kname);
		fputs(i < nopen ? ", " : "", f);
		json_fputs(f, buf + strspn(buf, " "));
	}
	fprintf(f, "], \"finish_lost\": %zu, \"finish_lost_last\": [", nlost);
	for (i = nlost; i > 0 && nlost - i < PREV_OPEN; i--) {
		line_named(p, syms, lost[i - 1], buf, sizeof(buf), &named, &raw, &kname);
		fputs(i < nlost ? ", " : "", f);
		json_fputs(f, buf + strspn(buf, " "));
	}
	fprintf(f, "], \"pointers\": \"%s\"},\n",
		raw ? "raw" : kname ? "kernel-named" : named ? "named" : "none");
	free(open);
	free(lost);
	return ferror(f) ? -1 : 0;
}

int rp_prev_print_text(const struct rp_prev *p, const struct rp_syms *syms,
		       FILE *f)
{
	size_t i, k, *open = NULL, nopen = 0, *lost = NULL, nlost = 0;
	int named = 0, raw = 0, kname = 0, starts = 0;
	char buf[1024], t1[RP_TS_LEN], t2[RP_TS_LEN];

	fprintf(f, "\nPrevious boot (persistent instance %s, copied by this boot's hook):\n", p->name);
	if (p->have_cal && p->have_delta && p->cal == p->delta)
		fprintf(f, "  the kernel moved by %lld bytes since (last_boot_info's text delta, and %zu of %zu initcalls of both boots agree)\n",
			p->cal, p->cal_votes, p->cal_pairs);
	else if (p->have_cal)
		fprintf(f, "  the kernel moved by %lld bytes since, measured from %zu of %zu initcalls of both boots; last_boot_info's text delta%s%.0lld is not the previous boot's (it is of the boot that last emptied the instance)\n",
			p->cal, p->cal_votes, p->cal_pairs,
			p->have_delta ? " " : " (none)", p->have_delta ? p->delta : 0LL);
	else if (p->have_delta)
		fprintf(f, "  the kernel moved by %lld bytes since (last_boot_info's text delta: of the boot that last emptied the instance; not checked against the initcalls, too few in both boots)\n", p->delta);
	else
		fputs("  ! no text delta (last_boot_info missing or unreadable) and too few initcalls in both boots to measure it: the previous boot's pointers cannot be named\n", f);
	for (k = 0; k < p->ncpu; k++) {
		const struct rp_prev_cpu *c = &p->cpu[k];

		if (!c->step) {
			fprintf(f, "  CPU %d: no events of the previous boot found: no step back in time among its %zu events, taken as this boot's (ambiguous: the previous boot's events there, had they all come before %s s, would look the same)\n",
				c->cpu, c->events, rp_ts_text(c->first_ts, 0, t1));
			continue;
		}
		if (c->step0)
			fprintf(f, "  CPU %d: %zu events of an earlier boot first (one before the previous boot: that died too, or recorded after its hook), left out\n",
				c->cpu, c->step0);
		if (c->other_boot) {
			fprintf(f, "  CPU %d: its last %zu events before this boot's are of another boot than the previous boot (the kernel was elsewhere: moved by %lld bytes since, measured from %zu of %zu initcalls): the previous boot left nothing after them on this CPU (it died before running there, or an older boot's hook is where they end); named with that move, left out of the unfinished initcalls; the last at %s s:\n",
				c->cpu, c->step - c->step0, c->cal, c->cal_votes,
				c->cal_pairs, rp_ts_text(c->prev_last, 0, t1));
			for (i = last_of(p, c->cpu); i < p->nev; i++) {
				if (p->ev[i].cpu != c->cpu)
					continue;
				line_named(p, syms, i, buf, sizeof(buf), &named, &raw, &kname);
				fprintf(f, "    %s\n", buf + strspn(buf, " "));
			}
			continue;
		}
		fprintf(f, "  CPU %d: %zu events of the previous boot, the last at %s s (then this boot's from %s s); its last events:\n",
			c->cpu, c->step - c->step0, rp_ts_text(c->prev_last, 0, t1),
			rp_ts_text(c->cur_first, 0, t2));
		/* the CPU's last PREV_LAST previous-boot events, in order */
		for (i = last_of(p, c->cpu); i < p->nev; i++) {
			if (p->ev[i].cpu != c->cpu)
				continue;
			line_named(p, syms, i, buf, sizeof(buf), &named, &raw, &kname);
			fprintf(f, "    %s\n", buf + strspn(buf, " "));
		}
	}
	if (unfinished(p, &open, &nopen, &lost, &nlost, &starts))
		return -1;
	if (!starts) {
		fputs("  no initcall events of the previous boot (initcall:* not in the instance, or none left in it)\n", f);
	} else if (!nopen) {
		fprintf(f, "  every initcall that started finished (the previous boot died after them%s)\n",
			nlost ? ", or in one whose start the kernel dropped with the rest of its CPU's last events" : "");
	} else {
		fputs("  initcall that started and never finished, as far as the copy shows (the last to start first; a dying boot's last events on a CPU can be missing from the copy, docs/kernel-facts.md 58):\n", f);
		for (i = nopen; i > 0 && nopen - i < PREV_OPEN; i--) {
			line_named(p, syms, open[i - 1], buf, sizeof(buf), &named, &raw, &kname);
			fprintf(f, "    %s\n", buf + strspn(buf, " "));
		}
	}
	if (nlost) {
		fprintf(f, "  %zu initcall_start%s without a finish in the copy, though the task went on to initcalls that come later in this boot's order: finished, the kernel dropped that boot's events after %s on its CPU (docs/kernel-facts.md 58); the last:\n",
			nlost, nlost == 1 ? "" : "s", nlost == 1 ? "it" : "them");
		for (i = nlost; i > 0 && nlost - i < PREV_OPEN; i--) {
			line_named(p, syms, lost[i - 1], buf, sizeof(buf), &named, &raw, &kname);
			fprintf(f, "    %s\n", buf + strspn(buf, " "));
		}
	}
	free(open);
	free(lost);
	if (raw)
		fputs("  ! pointers left raw: give the kernel's System.map (--system-map) or this boot's kallsyms, and the snapshot's previous/NAME/text (this boot's _text)\n", f);
	if (kname)
		fputs("  ! some pointers keep the name this boot's kernel gave them, which is wrong for a previous boot's pointer when the kernel moved (its initcall_start, which would name it, is not in the copy)\n", f);
	if (!raw && named)
		fputs("  pointers of the previous boot named: its address + the kernel's move (above) - this boot's _text + the symbol table's _text\n", f);
	return ferror(f) ? -1 : 0;
}

void rp_prev_free(struct rp_prev *p)
{
	free(p->trace);
	free(p->cpu);
	free(p->ev);
	memset(p, 0, sizeof(*p));
}
