/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the callers analysis (kcallers.h), one way down: the edge
 * store (kcallers_graph.c) below the instruction reader
 * (kcallers_insn.c), both below the module reader
 * (kcallers_ko.c), all below the tree (kcallers.c).
 */
#ifndef BT_KCALLERS_INT_H
#define BT_KCALLERS_INT_H

#include <capstone/capstone.h>
#include <gelf.h>

#include "kimage/kcallers.h"

/* ---- the edges (kcallers_graph.c) ------------------------------ */
/* Append an edge; the names must outlive @g. -1: no memory. */
int kcallers_graph_add(struct kcallers_graph *g, const char *caller,
		       const char *callee, int mod);
/* Sort by callee, module, caller, and keep each edge once. */
void kcallers_graph_sort(struct kcallers_graph *g);
/* The first edge into @callee once sorted; g->n when there is none. */
size_t kcallers_graph_first(const struct kcallers_graph *g, const char *callee);

/* ---- call instructions (kcallers_insn.c) ----------------------- */
/* capstone for @eh's machine: 0, -1 unsupported machine, -2 capstone failed. */
int kcallers_insn_open(const GElf_Ehdr *eh, csh *h, int *x86);
/* Is @mnemonic a direct call or jump (a tail call when it leaves the function)? */
int kcallers_insn_is_call(int x86, const char *mnemonic);

#endif /* BT_KCALLERS_INT_H */
