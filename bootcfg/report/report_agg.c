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
#include "report/report_int.h"

/* The counters' tables; the lexer's are rp_lex_free's. */
void rp_count_free(struct report *r)
{
	free(r->fn);
	free(r->fn_of);
	rp_pairs_free(&r->fn_task);
	rp_pairs_free(&r->fn_stack);
	rp_pairs_free(&r->fn_chain);
	rp_pairs_free(&r->fn_parent);
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
	f->is_event |= ev->kind == RP_EV_EVENT;
	f->lineage |= ev->kind == RP_EV_EVENT && (ev->aux & RP_AUX_LINEAGE);
	f->hits++;
	if (ev->ts < f->first)
		f->first = ev->ts;
	if (ev->ts > f->last)
		f->last = ev->ts;
	if (!rp_pairs_add(&r->fn_task, ev->fn, ev->task, ev->ts) ||
	    rp_tl_hit(&r->tl, ev))
		return -1;
	if (ev->other != RP_NONE &&
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

	for (i = 0; i < n; i++)
		if (ev[i].kind == RP_EV_STACK ? count_stack(r, &ev[i]) :
		    ev[i].kind == RP_EV_DUR ? count_dur(r, &ev[i]) :
		    ev[i].kind == RP_EV_PROC ? rp_lineage_add(&r->lin, &ev[i]) :
		    ev[i].kind == RP_EV_ICALL ? rp_tl_icall(&r->tl, &ev[i]) :
					      count_hit(r, &ev[i]))
			return -1;
	return 0;
}
