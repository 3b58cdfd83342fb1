/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the callers analysis (check_callers.h), one way down: the edge
 * store (check_callers_graph.c) below the instruction reader
 * (check_callers_insn.c), both below the module reader
 * (check_callers_ko.c), all below the tree (check_callers.c).
 */
#ifndef BT_CALLERS_INT_H
#define BT_CALLERS_INT_H

#include <capstone/capstone.h>
#include <gelf.h>

#include "kimage/check_callers.h"

/* ---- the edges (check_callers_graph.c) ------------------------------ */
/* Append an edge; the names must outlive @g. -1: no memory. */
int check_graph_add(struct check_graph *g, const char *caller,
		    const char *callee, int mod);
/* Sort by callee, module, caller, and keep each edge once. */
void check_graph_sort(struct check_graph *g);
/* The first edge into @callee once sorted; g->n when there is none. */
size_t check_graph_first(const struct check_graph *g, const char *callee);

/* ---- call instructions (check_callers_insn.c) ----------------------- */
/* capstone for @eh's machine: 0, -1 unsupported machine, -2 capstone failed. */
int check_insn_open(const GElf_Ehdr *eh, csh *h, int *x86);
/* Is @mnemonic a direct call or jump (a tail call when it leaves the function)? */
int check_insn_is_call(int x86, const char *mnemonic);

#endif /* BT_CALLERS_INT_H */
