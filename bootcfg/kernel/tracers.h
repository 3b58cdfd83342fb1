/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracers Linux registers (ftrace=NAME, current_tracer), each with the
 * .config options it is built by (docs/kernel-facts.md 115). A name not in
 * the table is no tracer: ftrace= with it traces nothing.
 */
#ifndef BT_KERNEL_TRACERS_H
#define BT_KERNEL_TRACERS_H

#include "kernel/kcaps.h"

struct ktracer {
	const char *name;
	enum kopt need[2];	/* every one must be set; KO_NOPT: none */
};

/* The tracer @name, or NULL. */
const struct ktracer *ktracer_find(const char *name);
/* Every tracer's name, NULL-terminated (for "did you mean"). */
const char *const *ktracer_names(void);
/* The first option of @t that @k's .config leaves unset, or KO_NOPT. */
enum kopt ktracer_missing(const struct ktracer *t, const struct kcaps *k);

#endif /* BT_KERNEL_TRACERS_H */
