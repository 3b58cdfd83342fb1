/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The call graph and the callers tree (check_callers.h). */
#include <stdlib.h>
#include <string.h>

#include "kimage/check_callers.h"

int check_graph_add(struct check_graph *g, const char *caller,
		    const char *callee, int mod)
{
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 4096;
		struct check_edge *ne = realloc(g->e, cap * sizeof(*ne));

		if (!ne)
			return -1;
		g->e = ne;
		g->cap = cap;
	}
	g->e[g->n].caller = caller;
	g->e[g->n].callee = callee;
	g->e[g->n++].mod = mod;
	return 0;
}

void check_graph_free(struct check_graph *g)
{
	size_t i;

	for (i = 0; i < g->nblobs; i++)
		free(g->blobs[i]);
	free(g->blobs);
	free(g->e);
	memset(g, 0, sizeof(*g));
}

static int edge_cmp(const void *a, const void *b)
{
	const struct check_edge *x = a, *y = b;
	int c = strcmp(x->callee, y->callee);

	if (c)
		return c;
	if (x->mod != y->mod)
		return x->mod < y->mod ? -1 : 1;
	return strcmp(x->caller, y->caller);
}

/* The first edge into @callee (edges sorted by callee). */
static size_t edge_first(const struct check_graph *g, const char *callee)
{
	size_t lo = 0, hi = g->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(g->e[mid].callee, callee) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct tree {
	const struct check_graph *g;
	FILE *out;
	const char *path[64];	/* the chain above, to stop at recursion */
};

static void tree_print(struct tree *tr, const char *func, int level, int depth)
{
	const struct check_graph *g = tr->g;
	size_t i = edge_first(g, func), k;

	tr->path[level] = func;
	for (; i < g->n && !strcmp(g->e[i].callee, func); i++) {
		const struct check_edge *ed = &g->e[i];
		int cycle = 0;

		if (i > 0 && !edge_cmp(&g->e[i - 1], ed))
			continue;	/* the same call made twice */
		for (k = 0; k <= (size_t)level; k++)
			cycle |= !strcmp(tr->path[k], ed->caller);
		fprintf(tr->out, "%*s<- %s%s%s%s%s\n", 2 * (level + 1), "",
			ed->caller, ed->mod >= 0 ? " [" : "",
			ed->mod >= 0 ? g->t->mods[ed->mod] : "",
			ed->mod >= 0 ? "]" : "", cycle ? " (recursion)" : "");
		if (!cycle && level + 1 < depth && level + 1 < 63)
			tree_print(tr, ed->caller, level + 1, depth);
	}
}

int check_callers_print(const struct check_tab *t, const char *vmlinux,
			const char *modules, const char *func, int depth,
			FILE *out, struct bt_error *e)
{
	struct check_graph g = { .t = t };
	struct tree tr = { &g, out, { 0 } };
	int ret = 0;

	if (!vmlinux && !modules)
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--callers needs "
				    "--vmlinux (call instructions) and/or "
				    "--modules (relocations)");
	if ((vmlinux && check_callers_vmlinux(&g, vmlinux, e)) ||
	    (modules && check_callers_modules(&g, modules, e))) {
		check_graph_free(&g);
		return -1;
	}
	qsort(g.e, g.n, sizeof(*g.e), edge_cmp);
	fprintf(out, "%s\n", func);
	if (edge_first(&g, func) >= g.n || strcmp(g.e[edge_first(&g, func)].callee, func))
		fprintf(out, "  (no direct caller found in %s%s%s: called only "
			"through pointers, or not a function of this kernel)\n",
			vmlinux ? "vmlinux" : "", vmlinux && modules ? " and " : "",
			modules ? "the modules" : "");
	else
		tree_print(&tr, func, 0, depth < 1 ? 1 : depth);
	if (fflush(out))
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "cannot write output");
	check_graph_free(&g);
	return ret;
}
