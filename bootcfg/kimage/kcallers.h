/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who calls a function (feeds parent-chain mode): from relocations in
 * modules (any architecture: which function's code holds a relocation
 * against the callee) and from call instructions in vmlinux (capstone;
 * x86_64 and MIPS).
 */
#ifndef BT_KCALLERS_H
#define BT_KCALLERS_H

#include <stdio.h>

#include "kimage/kimage.h"

struct kcallers_edge {
	const char *caller, *callee;
	int mod;		/* the caller's module, -1 for vmlinux */
};

struct kcallers_graph {
	struct kcallers_edge *e;
	size_t n, cap;
	char **blobs;		/* names copied from module string tables */
	size_t nblobs, capblobs;
	const struct ksyms *t;
};

/* Edges from every module under @dir (@t has its module names). */
int kcallers_modules(struct kcallers_graph *g, const char *dir,
		     struct bt_error *e);
/* Edges from the call instructions of @vmlinux's functions in @t. */
int kcallers_vmlinux(struct kcallers_graph *g, const char *vmlinux,
		     struct bt_error *e);
void kcallers_graph_free(struct kcallers_graph *g);

/*
 * Print FUNC's callers as a tree, @depth levels, with module names.
 * 0 with the tree printed, -1 with @e.
 */
int kcallers_print(const struct ksyms *t, const char *vmlinux,
		   const char *modules, const char *func, int depth,
		   FILE *out, struct bt_error *e);

#endif /* BT_KCALLERS_H */
