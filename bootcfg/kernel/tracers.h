/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracers Linux registers (ftrace=NAME, current_tracer), each with the
 * .config options it is built by and the function whose symbol shows it
 * was (docs/kernel-facts.md 115). A name not in
 * the table is no tracer: ftrace= with it traces nothing.
 */
#ifndef BT_KERNEL_TRACERS_H
#define BT_KERNEL_TRACERS_H

#include "kernel/kcaps.h"

struct ktracer {
	const char *name;
	enum kopt need[2];	/* every one must be set; KO_NOPT: none */
	const char *witness;	/* its struct tracer's .init: in the symbols iff built */
};

/* The tracer @name, or NULL. */
const struct ktracer *ktracer_find(const char *name);
/* Every tracer's name, NULL-terminated (for "did you mean"). */
const char *const *ktracer_names(void);
/* The first option of @t that @k's .config leaves unset, or KO_NOPT. */
enum kopt ktracer_missing(const struct ktracer *t, const struct kcaps *k);
/*
 * Every tracer's witness function, NULL-terminated, in table order: bit i
 * of kcaps.image_tracers is the i-th (at most 32, for kimg_syms).
 */
const char *const *ktracer_witnesses(void);
/*
 * Take @mask (bit i: the i-th witness found) as the tracers of the kernel
 * whose symbols @from names. Symbols with none, not even nop's, say
 * nothing (a kernel without tracing, or not a whole kernel's symbols): the
 * .config decides then.
 */
void ktracer_set_symbols(struct kcaps *k, unsigned long mask, const char *from);
/*
 * Is @t's code in the kernel's symbols (kcaps.image_tracers)? 1, 0, or -1
 * when they were not read or said nothing. On 0, @why is the refusal in
 * words, naming the symbols' file and what builds the tracer.
 */
int ktracer_in_symbols(const struct ktracer *t, const struct kcaps *k,
		       char *why, size_t cap);

#endif /* BT_KERNEL_TRACERS_H */
