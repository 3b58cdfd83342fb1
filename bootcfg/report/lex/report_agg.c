// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counting: the lexer's events (report_lex.c) -> per-function hits, tasks,
 * stacks and parent chains. Events come in batches, in trace order, maybe
 * on a thread of their own (report_feed.c): nothing here reads the text
 * or the tables the lexer interns into, and nothing allocates per event
 * (tables grow by doubling).
 */
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/lex/count.h"

/* The counters' tables; the lexer's are rp_lex_free's. */
void rp_count_free(struct report *r)
{
	free(r->fn);
	free(r->fn_of);
	rp_pairs_free(&r->fn_task);
	rp_pairs_free(&r->fn_stack);
	rp_pairs_free(&r->fn_chain);
	rp_pairs_free(&r->fn_parent);
	rp_pairs_free(&r->fn_probe);
	rp_pairs_free(&r->stack_probe);
	free(r->pwait);
	r->pwait = NULL;
	r->npwait = 0;
	rp_pairs_free(&r->stack_task);
	rp_pairs_free(&r->chain_task);
	rp_chains_free(&r->chains);
	rp_lineage_free(&r->lin);
	rp_tl_free(&r->tl);
}

/* The function record of name @id, created on first sight. */
static struct rp_fn *fn_get(struct report *r, uint32_t id)
{
	struct rp_fn *f;

	if (id >= r->cap_of) {
		size_t had = r->cap_of;

		if (BT_GROW(r->fn_of, (size_t)id + 1, r->cap_of))
			return NULL;
		memset(r->fn_of + had, 0, (r->cap_of - had) * sizeof(*r->fn_of));
	}
	if (r->fn_of[id])
		return &r->fn[r->fn_of[id] - 1];
	if (BT_GROW(r->fn, (size_t)r->nfn + 1, r->capfn))
		return NULL;
	f = &r->fn[r->nfn];
	memset(f, 0, sizeof(*f));
	f->name = id;
	f->first = UINT64_MAX;
	r->fn_of[id] = ++r->nfn;
	return f;
}

static int count_hit(struct report *r, const struct rp_ev *ev)
{
	struct rp_fn *f = fn_get(r, ev->fn);

	if (!f)
		return -1;
	f->is_event |= ev->kind == RP_EV_EVENT || ev->kind == RP_EV_PROBE;
	f->lineage |= ev->kind == RP_EV_EVENT && (ev->aux & RP_AUX_LINEAGE);
	f->hits++;
	if (ev->ts < f->first)
		f->first = ev->ts;
	if (ev->ts > f->last)
		f->last = ev->ts;
	if (!rp_pairs_add(&r->fn_task, ev->fn, ev->task, ev->ts) ||
	    rp_tl_hit(&r->tl, ev))
		return -1;
	if (ev->kind != RP_EV_PROBE && ev->other != RP_NONE &&
	    !rp_pairs_add(&r->fn_parent, ev->fn, ev->other, ev->ts))
		return -1;
	if (ev->kind == RP_EV_FUNC) {
		uint32_t node = rp_chain_hit(&r->chains, ev->pid, ev->fn,
					     ev->other);

		if (node == RP_NONE ||
		    !rp_pairs_add(&r->fn_chain, ev->fn, node, ev->ts) ||
		    !rp_pairs_add(&r->chain_task, node, ev->task, ev->ts))
			return -1;
	}
	return 0;
}

/* The hit it belongs to was counted before it: its record exists. */
static int count_stack(struct report *r, const struct rp_ev *ev)
{
	if (!rp_pairs_add(&r->fn_stack, ev->fn, ev->other, ev->ts) ||
	    !rp_pairs_add(&r->stack_task, ev->other, ev->task, ev->ts))
		return -1;
	r->fn[r->fn_of[ev->fn] - 1].with_stack++;
	return 0;
}

/* ---- kprobe hits joined to their function's hit ----------------------- */

/*
 * A kprobe on a traced function hits just before the function tracer does,
 * on the same CPU and task (seen in tests/data/traces/
 * debian-6.1-amd64-frames.trace: the probe line, its stack, the function
 * line, its stack). Counted as two hits they doubled the function's count
 * and hid which call recorded which values. So a probe waits on its CPU:
 * the function's hit that comes next there (same function, same pid) takes
 * its values, and its stack when the function has none of its own; any
 * other event there first, or the end, counts the probe as a hit of its own.
 */
static struct rp_probe_wait *probe_wait(struct report *r, uint32_t aux)
{
	size_t cpu = aux >> RP_AUX_CPU_SHIFT;	/* + 1; 0: not known */

	if (!cpu)
		return NULL;
	if (cpu > r->npwait) {
		size_t had = r->npwait;

		if (BT_GROW(r->pwait, cpu, r->npwait))
			return NULL;
		memset(r->pwait + had, 0, (r->npwait - had) * sizeof(*r->pwait));
	}
	return &r->pwait[cpu - 1];
}

/* The values of a hit and of the stack it was taken with. */
static int probe_vals(struct report *r, uint32_t fn, uint32_t stack,
		      uint32_t vals, uint64_t ts)
{
	if (vals == RP_NONE)
		return 0;
	if (!rp_pairs_add(&r->fn_probe, fn, vals, ts) ||
	    (stack != RP_NONE && !rp_pairs_add(&r->stack_probe, stack, vals, ts)))
		return -1;
	return 0;
}

static int count_stack(struct report *r, const struct rp_ev *ev);

/* What waits on a CPU is settled: a probe alone is a hit of its own; a
 * joined one's stack goes to its function when that had none. */
static int probe_settle(struct report *r, struct rp_probe_wait *w)
{
	struct rp_ev st = w->probe;
	uint32_t vals = w->joined ? w->vals : w->probe.other;
	int ret = 0;

	if (!w->probe.kind && !w->joined)
		return 0;
	if (!w->joined)
		ret = count_hit(r, &w->probe);
	st.kind = RP_EV_STACK;
	st.other = w->stack;
	if (!ret && w->stack != RP_NONE)
		ret = count_stack(r, &st);
	if (!ret)
		ret = probe_vals(r, st.fn, w->stack, vals, st.ts);
	memset(w, 0, sizeof(*w));
	return ret ? -1 : 0;
}

/*
 * @ev on its CPU, with a probe waiting there: 1 when @ev was taken (a
 * probe's stack, or the function's hit joined, or that hit's own stack),
 * 0 when it is to be counted as usual (the probe settled first), -1.
 */
static int probe_take(struct report *r, const struct rp_ev *ev,
		      struct rp_probe_wait *w)
{
	if (w->probe.kind == RP_EV_PROBE && !w->joined) {
		if (ev->kind == RP_EV_STACK && w->stack == RP_NONE &&
		    ev->fn == w->probe.fn && ev->task == w->probe.task) {
			w->stack = ev->other;
			return 1;
		}
		if (ev->kind == RP_EV_FUNC && ev->fn == w->probe.fn &&
		    ev->pid == w->probe.pid) {
			if (count_hit(r, ev))
				return -1;
			r->fn[r->fn_of[ev->fn] - 1].probe_joined++;
			w->joined = 1;
			w->vals = w->probe.other;
			w->probe.ts = ev->ts;
			return 1;
		}
	} else if (w->joined && ev->kind == RP_EV_STACK &&
		   ev->fn == w->probe.fn && ev->task == w->probe.task) {
		/* the function's own stack: its values go with it */
		if (count_stack(r, ev) ||
		    probe_vals(r, ev->fn, ev->other, w->vals, ev->ts))
			return -1;
		memset(w, 0, sizeof(*w));
		return 1;
	}
	return probe_settle(r, w) ? -1 : 0;
}

static int count_probe(struct report *r, const struct rp_ev *ev)
{
	struct rp_probe_wait *w = probe_wait(r, ev->aux);

	if (!w) {	/* no CPU column: a hit of its own */
		if (ev->aux >> RP_AUX_CPU_SHIFT || count_hit(r, ev))
			return -1;
		return probe_vals(r, ev->fn, RP_NONE, ev->other, ev->ts);
	}
	if (probe_settle(r, w))
		return -1;
	w->probe = *ev;
	w->stack = RP_NONE;
	return 0;
}

/* A probe waiting on any CPU when the trace ends is settled. */
int rp_count_end(struct report *r)
{
	size_t i;

	for (i = 0; i < r->npwait; i++)
		if (probe_settle(r, &r->pwait[i]))
			return -1;
	return 0;
}

/* @ev through the probe waiting on its CPU first: 1 taken, 0 count it. */
static int probe_first(struct report *r, const struct rp_ev *ev)
{
	size_t cpu = ev->aux >> RP_AUX_CPU_SHIFT;

	if (!cpu || cpu > r->npwait || (!r->pwait[cpu - 1].probe.kind &&
					 !r->pwait[cpu - 1].joined))
		return 0;
	return probe_take(r, ev, &r->pwait[cpu - 1]);
}

/* A function_graph call's duration (ev->ts), to its function. */
static int count_dur(struct report *r, const struct rp_ev *ev)
{
	struct rp_fn *f;

	if (ev->fn >= r->cap_of || !r->fn_of[ev->fn])
		return 0;	/* its entry was not in the trace */
	f = &r->fn[r->fn_of[ev->fn] - 1];
	f->dur_n++;
	f->dur_total += ev->ts;
	if (ev->ts > f->dur_max)
		f->dur_max = ev->ts;
	return 0;
}

int rp_count(struct report *r, const struct rp_ev *ev, uint32_t n)
{
	uint32_t i;
	int t;

	for (i = 0; i < n; i++) {
		if (ev[i].kind == RP_EV_FUNC || ev[i].kind == RP_EV_EVENT ||
		    ev[i].kind == RP_EV_STACK) {
			if ((t = probe_first(r, &ev[i])) < 0)
				return -1;
			if (t)
				continue;
		}
		if (ev[i].kind == RP_EV_PROBE ? count_probe(r, &ev[i]) :
		    ev[i].kind == RP_EV_STACK ? count_stack(r, &ev[i]) :
		    ev[i].kind == RP_EV_DUR ? count_dur(r, &ev[i]) :
		    ev[i].kind == RP_EV_PROC ? rp_lineage_add(&r->lin, &ev[i]) :
		    ev[i].kind == RP_EV_ICALL ? rp_tl_icall(&r->tl, &ev[i]) :
					      count_hit(r, &ev[i]))
			return -1;
	}
	return 0;
}

/* ---- what the outputs read (after rp_check) ---------------------------- */

size_t rp_probe_text(const struct report *r, const struct rp_pairs *tab,
		     uint32_t a, char *buf, size_t cap)
{
	struct rp_count **v;
	size_t n, i, len = 0;

	*buf = '\0';
	if (!tab->used || !(v = rp_pairs_of(tab, a, &n)))
		return 0;
	for (i = 0; i < n && i < 4 && len < cap; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s%s (%llu)",
					i ? ", " : "",
					rp_str(&r->progs, rp_key_b(v[i])),
					(unsigned long long)v[i]->n);
	if (n > 4 && len < cap)
		len += (size_t)snprintf(buf + len, cap - len, ", %zu more", n - 4);
	free(v);
	return len < cap ? len : cap - 1;
}

/* The object of one values text: its first field's string, or NAME=VALUE. */
static size_t rp_probe_object(const char *v, const char **at)
{
	const char *eq = strchr(v, '='), *q;

	if (eq && eq[1] == '"' && (q = strchr(eq + 2, '"'))) {
		*at = eq + 2;
		return (size_t)(q - eq - 2);
	}
	*at = v;
	q = strchr(v, ' ');
	return q ? (size_t)(q - v) : strlen(v);
}

size_t rp_probe_objects(const struct report *r, const struct rp_pairs *tab,
			uint32_t a, char *buf, size_t cap, int *pattern)
{
	struct rp_count **v;
	const char *o;
	size_t n, i, len = 0, k;

	*buf = '\0';
	*pattern = 0;
	if (!cap || !tab->used || !(v = rp_pairs_of(tab, a, &n)))
		return 0;
	for (i = 0; i < n && i < 4 && len < cap; i++) {
		k = rp_probe_object(rp_str(&r->progs, rp_key_b(v[i])), &o);
		if (memchr(o, '%', k))
			*pattern = 1;
		len += (size_t)snprintf(buf + len, cap - len, "%s%.*s",
					i ? ", " : "", (int)k, o);
	}
	if (n > 4 && len < cap)
		len += (size_t)snprintf(buf + len, cap - len, " and %zu more", n - 4);
	free(v);
	return len < cap ? len : cap - 1;
}

/* Can name pattern [p, p + n) ("bond%d") give @obj: the kernel's %d a number. */
static int rp_pattern_gives(const char *p, size_t n, const char *obj)
{
	const char *d = memmem(p, n, "%d", 2);
	size_t pre, post, olen = strlen(obj), i;

	if (!d)
		return 0;
	pre = (size_t)(d - p);
	post = n - pre - 2;
	if (olen <= pre + post || strncmp(obj, p, pre) ||
	    memcmp(obj + olen - post, d + 2, post))
		return 0;
	for (i = pre; i < olen - post; i++)
		if (obj[i] < '0' || obj[i] > '9')
			return 0;
	return 1;
}

int rp_probe_names(const struct report *r, uint32_t fn, const char *obj)
{
	struct rp_count **v;
	const char *o;
	size_t n, i, k;
	int best = 0;

	if (!r->fn_probe.used || !(v = rp_pairs_of(&r->fn_probe, fn, &n)))
		return 0;
	for (i = 0; i < n && best < 2; i++) {
		k = rp_probe_object(rp_str(&r->progs, rp_key_b(v[i])), &o);
		if (k == strlen(obj) && !memcmp(o, obj, k))
			best = 2;
		else if (rp_pattern_gives(o, k, obj))
			best = 1;
	}
	free(v);
	return best;
}

uint64_t rp_probe_first(const struct report *r, uint32_t fn)
{
	struct rp_count **v;
	uint64_t first = UINT64_MAX;
	size_t n, i;

	if (!r->fn_probe.used || !(v = rp_pairs_of(&r->fn_probe, fn, &n)))
		return UINT64_MAX;
	for (i = 0; i < n; i++)
		if (v[i]->first < first)
			first = v[i]->first;
	free(v);
	return first;
}
