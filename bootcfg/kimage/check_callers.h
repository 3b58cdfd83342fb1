/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who calls a function (feeds parent-chain mode): from relocations in
 * modules (any architecture: which function's code holds a relocation
 * against the callee) and from call instructions in vmlinux (capstone;
 * x86_64 and MIPS).
 */
#ifndef BT_CHECK_CALLERS_H
#define BT_CHECK_CALLERS_H

#include <stdio.h>

#include "kimage/kimage.h"

struct check_edge {
	const char *caller, *callee;
	int mod;		/* the caller's module, -1 for vmlinux */
};

struct check_graph {
	struct check_edge *e;
	size_t n, cap;
	char **blobs;		/* names copied from module string tables */
	size_t nblobs, capblobs;
	const struct check_tab *t;
};

/* Edges from every module under @dir (@t has its module names). */
int check_callers_modules(struct check_graph *g, const char *dir,
			  struct bt_error *e);
/* Edges from the call instructions of @vmlinux's functions in @t. */
int check_callers_vmlinux(struct check_graph *g, const char *vmlinux,
			  struct bt_error *e);
void check_graph_free(struct check_graph *g);

/*
 * Print FUNC's callers as a tree, @depth levels, with module names.
 * 0 with the tree printed, -1 with @e.
 */
int check_callers_print(const struct check_tab *t, const char *vmlinux,
			const char *modules, const char *func, int depth,
			FILE *out, struct bt_error *e);

#endif /* BT_CHECK_CALLERS_H */
