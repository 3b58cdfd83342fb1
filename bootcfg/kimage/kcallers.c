/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The callers tree (kcallers.h): the edges from vmlinux and the
 * modules, sorted, printed up from the function.
 */
#include <string.h>

#include "kimage/kcallers_int.h"
#include "util/bt_error.h"

struct tree {
	const struct kcallers_graph *g;
	FILE *out;
	const char *path[64];	/* the chain above, to stop at recursion */
};

static void tree_print(struct tree *tr, const char *func, int level, int depth)
{
	const struct kcallers_graph *g = tr->g;
	size_t i = kcallers_graph_first(g, func), k;

	tr->path[level] = func;
	for (; i < g->n && !strcmp(g->e[i].callee, func); i++) {
		const struct kcallers_edge *ed = &g->e[i];
		int cycle = 0;

		for (k = 0; k <= (size_t)level; k++)
			cycle |= !strcmp(tr->path[k], ed->caller);
		/* names from the ELF files: any bytes (bt_fput_text) */
		fprintf(tr->out, "%*s<- ", 2 * (level + 1), "");
		bt_fput_text(tr->out, ed->caller);
		if (ed->mod >= 0) {
			fputs(" [", tr->out);
			bt_fput_text(tr->out, g->t->mods[ed->mod]);
			fputc(']', tr->out);
		}
		fputs(cycle ? " (recursion)\n" : "\n", tr->out);
		if (!cycle && level + 1 < depth && level + 1 < 63)
			tree_print(tr, ed->caller, level + 1, depth);
	}
}

int kcallers_print(const struct ksyms *t, const char *vmlinux,
		   const char *modules, const char *func, int depth,
		   FILE *out, struct bt_error *e)
{
	struct kcallers_graph g = { .t = t };
	struct tree tr = { &g, out, { 0 } };
	int ret = 0;

	if (!vmlinux && !modules)
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--callers needs --vmlinux (call instructions) and/or --modules (relocations)");
	if ((vmlinux && kcallers_vmlinux(&g, vmlinux, e)) ||
	    (modules && kcallers_modules(&g, modules, e))) {
		kcallers_graph_free(&g);
		return -1;
	}
	kcallers_graph_sort(&g);
	bt_progress_clear(t->progress);	/* the tree starts on a clean line */
	bt_fput_text(out, func);
	fputc('\n', out);
	if (kcallers_graph_first(&g, func) == g.n)
		fprintf(out, "  (no direct caller found in %s%s%s: called only through pointers, or not a function of this kernel)\n",
			vmlinux ? "vmlinux" : "", vmlinux && modules ? " and " : "",
			modules ? "the modules" : "");
	else
		tree_print(&tr, func, 0, depth < 1 ? 1 : depth);
	if (fflush(out))
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "cannot write output");
	kcallers_graph_free(&g);
	return ret;
}
