/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The call edges (kcallers_int.h): appended by the instruction and module
 * readers, then sorted by callee so that a function's callers are one run.
 */
#include <stdlib.h>
#include <string.h>

#include "kimage/kcallers_int.h"
#include "util/grow.h"

int kcallers_graph_add(struct kcallers_graph *g, const char *caller,
		       const char *callee, int mod)
{
	if (BT_GROW(g->e, g->n + 1, g->cap) < 0)
		return -1;
	g->e[g->n].caller = caller;
	g->e[g->n].callee = callee;
	g->e[g->n++].mod = mod;
	return 0;
}

void kcallers_graph_free(struct kcallers_graph *g)
{
	size_t i;

	for (i = 0; i < g->nblobs; i++)
		free(g->blobs[i]);
	free(g->blobs);
	free(g->e);
	memset(g, 0, sizeof(*g));
}

static int graph_cmp(const void *a, const void *b)
{
	const struct kcallers_edge *x = a, *y = b;
	int c = strcmp(x->callee, y->callee);

	if (c)
		return c;
	if (x->mod != y->mod)
		return x->mod < y->mod ? -1 : 1;
	return strcmp(x->caller, y->caller);
}

void kcallers_graph_sort(struct kcallers_graph *g)
{
	size_t i, n = 0;

	if (!g->n)
		return;
	qsort(g->e, g->n, sizeof(*g->e), graph_cmp);
	/* a function calling another twice is one edge */
	for (i = 1; i < g->n; i++)
		if (graph_cmp(&g->e[n], &g->e[i]))
			g->e[++n] = g->e[i];
	g->n = n + 1;
}

size_t kcallers_graph_first(const struct kcallers_graph *g, const char *callee)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(g->e[mid].callee, callee) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && !strcmp(g->e[lo].callee, callee) ? lo : g->n;
}
