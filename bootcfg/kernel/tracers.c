// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracers of linux-source-6.1 kernel/trace/ (and arch/x86/mm for
 * mmiotrace): each `static struct tracer X = { .name = "..." }` passed to
 * register_tracer(), built when its options are set (kernel/trace/Makefile,
 * the #ifdefs around each register_tracer; kernel-facts 115), and its
 * .init function, a text symbol exactly when the tracer is built (static,
 * but its address is taken, so it is never inlined away).
 */
#include <stdio.h>
#include <string.h>

#include "kernel/tracers.h"

#define NONE KO_NOPT

static const struct ktracer tracers[] = {
	{ "nop", { NONE, NONE }, "nop_trace_init" },
	{ "function", { KO_FUNCTION_TRACER, NONE }, "function_trace_init" },
	{ "function_graph", { KO_FUNCTION_GRAPH_TRACER, NONE }, "graph_trace_init" },
	{ "irqsoff", { KO_IRQSOFF_TRACER, NONE }, "irqsoff_tracer_init" },
	{ "preemptoff", { KO_PREEMPT_TRACER, NONE }, "preemptoff_tracer_init" },
	{ "preemptirqsoff", { KO_IRQSOFF_TRACER, KO_PREEMPT_TRACER }, "preemptirqsoff_tracer_init" },
	{ "wakeup", { KO_SCHED_TRACER, NONE }, "wakeup_tracer_init" },
	{ "wakeup_rt", { KO_SCHED_TRACER, NONE }, "wakeup_rt_tracer_init" },
	{ "wakeup_dl", { KO_SCHED_TRACER, NONE }, "wakeup_dl_tracer_init" },
	{ "hwlat", { KO_HWLAT_TRACER, NONE }, "hwlat_tracer_init" },
	{ "osnoise", { KO_OSNOISE_TRACER, NONE }, "osnoise_tracer_init" },
	{ "timerlat", { KO_TIMERLAT_TRACER, NONE }, "timerlat_tracer_init" },
	{ "mmiotrace", { KO_MMIOTRACE, NONE }, "mmio_trace_init" },
	{ "blk", { KO_BLK_DEV_IO_TRACE, NONE }, "blk_tracer_init" },
	{ "branch", { KO_BRANCH_TRACER, NONE }, "branch_trace_init" },
};

#define NTRACERS (sizeof(tracers) / sizeof(*tracers))
/* kimg_syms finds at most 32 names at once, and image_tracers is a long */
_Static_assert(NTRACERS <= 32, "more tracers than kcaps.image_tracers holds");

const struct ktracer *ktracer_find(const char *name)
{
	size_t i;

	for (i = 0; i < NTRACERS; i++)
		if (!strcmp(tracers[i].name, name))
			return &tracers[i];
	return NULL;
}

/* The names and the witnesses as lists, NULL-terminated (the same each time). */
static const char *names[NTRACERS + 1], *witnesses[NTRACERS + 1];

static void columns(void)
{
	size_t i;

	for (i = 0; i < NTRACERS; i++) {
		names[i] = tracers[i].name;
		witnesses[i] = tracers[i].witness;
	}
}

const char *const *ktracer_names(void)
{
	columns();
	return names;
}

enum kopt ktracer_missing(const struct ktracer *t, const struct kcaps *k)
{
	size_t i;

	for (i = 0; i < 2; i++)
		if (t->need[i] != KO_NOPT && kcaps_opt(k, t->need[i]) == KO_NO)
			return t->need[i];
	return KO_NOPT;
}

const char *const *ktracer_witnesses(void)
{
	columns();
	return witnesses;
}

void ktracer_set_symbols(struct kcaps *k, unsigned long mask, const char *from)
{
	k->image_tracers = mask;
	k->tracers_from = mask ? from : NULL;
}

int ktracer_in_symbols(const struct ktracer *t, const struct kcaps *k,
		       char *why, size_t cap)
{
	size_t i = (size_t)(t - tracers);
	char by[96] = "";

	if (!k->tracers_from)
		return -1;
	if (k->image_tracers & (1UL << i))
		return 1;
	if (t->need[0] != KO_NOPT)
		snprintf(by, sizeof(by), " (built by %s%s%s)", kcaps_opt_name(t->need[0]),
			 t->need[1] != KO_NOPT ? " and " : "",
			 t->need[1] != KO_NOPT ? kcaps_opt_name(t->need[1]) : "");
	snprintf(why, cap, "the %s tracer is not in this kernel: %s's symbols have no %s, its code%s: ftrace=%s would start nothing and trace nothing",
		 t->name, k->tracers_from, t->witness, by, t->name);
	return 0;
}
