// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which caller paths answer "who called F". A stack trace is the kernel's
 * own word, so the usable stacks win; parent chains (stitched <-parent
 * columns or the call graph) answer only when no stack does, and never for
 * an event, whose parent column is not a caller. Every output walks the
 * culprits here, so the text, JSON, folded and picture outputs cannot pick
 * differently.
 */
#include <stdlib.h>

#include "report/analysis/analysis.h"

/* @fn's culprits among its stacks (@stack) or its parent chains, through @each. */
static int walk(const struct report *r, const struct rp_fn *fn, int stack,
		rp_pick_fn each, void *ctx, int *seen)
{
	struct rp_count **v;
	struct rp_pick p;
	size_t n, i;
	int stop = 0;

	v = rp_pairs_of(stack ? &r->fn_stack : &r->fn_chain, fn->name, &n);
	if (!v)
		return -1;
	p.stack = stack;
	p.tasks = stack ? &r->stack_task : &r->chain_task;
	for (i = 0; i < n && !stop; i++) {
		p.id = rp_key_b(v[i]);
		if (stack && r->stacks.s[p.id].useless)
			continue;
		p.hits = v[i];
		p.len = stack ? rp_stack_path(r, p.id, fn->name, p.path, RP_FRAMES) :
				rp_chain_path(r, p.id, p.path, RP_FRAMES);
		(*seen)++;
		stop = each(r, fn, &p, ctx);
	}
	free(v);
	return stop;
}

int rp_picks(const struct report *r, const struct rp_fn *fn, rp_pick_fn each,
	     void *ctx)
{
	int seen = 0, rc;

	rc = walk(r, fn, 1, each, ctx, &seen);
	if (rc < 0)
		return -1;
	if (!rc && !seen && !fn->is_event && walk(r, fn, 0, each, ctx, &seen) < 0)
		return -1;
	return seen;
}
