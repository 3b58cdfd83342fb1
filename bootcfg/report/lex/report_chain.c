// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Parent chains: the function tracer's "<-parent" column is right even
 * where stack unwinding is not (MIPS; docs/kernel-facts.md 8-10).
 * A hit of F with parent P on a task, preceded on the same task by a hit
 * of P, links P -> F; chains are nodes of a trie of (caller node,
 * function), so memory grows with the distinct chains, not with the hits.
 */
#include <stdlib.h>

#include "util/grow.h"
#include "report/lex/count.h"

static uint32_t chain_node(struct rp_chains *c, uint32_t up, uint32_t fn,
			   int linked)
{
	struct rp_count *t = rp_pairs_find(&c->trie, up + 1, fn);
	struct rp_chain_node *n;

	if (t)
		return (uint32_t)t->last;
	if (BT_GROW(c->node, (size_t)c->n + 1, c->cap))
		return RP_NONE;
	if (!rp_pairs_add(&c->trie, up + 1, fn, c->n))
		return RP_NONE;
	n = &c->node[c->n];
	n->up = up;
	n->fn = fn;
	n->linked = (uint8_t)linked;
	n->depth = up == RP_NONE ? 1 : (uint8_t)(c->node[up].depth + 1);
	return c->n++;
}

uint32_t rp_chain_hit(struct rp_chains *c, uint32_t pid, uint32_t fn,
		      uint32_t parent)
{
	struct rp_count *prev = NULL;
	uint32_t up = RP_NONE, node;
	int linked = 0;

	if (parent != RP_NONE) {
		prev = rp_pairs_find(&c->last, pid, parent);
		if (prev && c->node[prev->last].depth < RP_CHAIN_MAX) {
			up = (uint32_t)prev->last;
			linked = 1;
		} else {
			up = chain_node(c, RP_NONE, parent, 0);
			if (up == RP_NONE)
				return RP_NONE;
		}
	}
	node = chain_node(c, up, fn, linked);
	if (node == RP_NONE || !rp_pairs_add(&c->last, pid, fn, node))
		return RP_NONE;
	return node;
}

void rp_chains_free(struct rp_chains *c)
{
	free(c->node);
	rp_pairs_free(&c->trie);
	rp_pairs_free(&c->last);
	c->node = NULL;
	c->n = c->cap = 0;
}
