// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tracers of linux-source-6.1 kernel/trace/ (and arch/x86/mm for
 * mmiotrace): each `static struct tracer X = { .name = "..." }` passed to
 * register_tracer(), built when its options are set (kernel/trace/Makefile,
 * the #ifdefs around each register_tracer; kernel-facts 115).
 */
#include <string.h>

#include "kernel/tracers.h"

#define NONE KO_NOPT

static const struct ktracer tracers[] = {
	{ "nop", { NONE, NONE } },
	{ "function", { KO_FUNCTION_TRACER, NONE } },
	{ "function_graph", { KO_FUNCTION_GRAPH_TRACER, NONE } },
	{ "irqsoff", { KO_IRQSOFF_TRACER, NONE } },
	{ "preemptoff", { KO_PREEMPT_TRACER, NONE } },
	{ "preemptirqsoff", { KO_IRQSOFF_TRACER, KO_PREEMPT_TRACER } },
	{ "wakeup", { KO_SCHED_TRACER, NONE } },
	{ "wakeup_rt", { KO_SCHED_TRACER, NONE } },
	{ "wakeup_dl", { KO_SCHED_TRACER, NONE } },
	{ "hwlat", { KO_HWLAT_TRACER, NONE } },
	{ "osnoise", { KO_OSNOISE_TRACER, NONE } },
	{ "timerlat", { KO_TIMERLAT_TRACER, NONE } },
	{ "mmiotrace", { KO_MMIOTRACE, NONE } },
	{ "blk", { KO_BLK_DEV_IO_TRACE, NONE } },
	{ "branch", { KO_BRANCH_TRACER, NONE } },
};

#define NTRACERS (sizeof(tracers) / sizeof(*tracers))

const struct ktracer *ktracer_find(const char *name)
{
	size_t i;

	for (i = 0; i < NTRACERS; i++)
		if (!strcmp(tracers[i].name, name))
			return &tracers[i];
	return NULL;
}

const char *const *ktracer_names(void)
{
	static const char *names[NTRACERS + 1];
	size_t i;

	for (i = 0; i < NTRACERS; i++)
		names[i] = tracers[i].name;
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
