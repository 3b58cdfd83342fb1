/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a plan needs of the kernel's .config (check.h): each setting whose
 * option is off is an error naming the option; stack traces that the
 * unwinder will spoil are warnings. All of them, not just the first. The
 * tracer is decided by the kernel's symbols where they were read.
 */
#include <string.h>

#include "check/check.h"
#include "kernel/tracers.h"

static void need(struct check_report *r, const struct plan *p,
		 const struct kcaps *k, enum kopt o, int node, const char *what)
{
	if (kcaps_opt(k, o) != KO_NO)
		return;
	check_report_add(r, p, node, CK_ERROR, kcaps_opt_name(o),
			 "%s needs %s, which %s does not set: the kernel would silently ignore it (use a kernel built with %s=y)",
			 what, kcaps_opt_name(o), k->config_path, kcaps_opt_name(o));
}

/* The function tracer's options, by the setting that uses them. */
static void check_functions(struct check_report *r, const struct plan *p,
			    const struct kcaps *k, const struct plan_inst *in)
{
	const char *tr = in->tracer.text;
	int node = in->filters.n ? in->filters.v[0].node :
		   in->notraces.n ? in->notraces.v[0].node : in->tracer.node;
	int func = tr && (!strcmp(tr, "function") || !strcmp(tr, "function_graph"));

	if (func || in->filters.n || in->notraces.n) {
		need(r, p, k, KO_FTRACE, node, "function tracing");
		need(r, p, k, KO_HAVE_FUNCTION_TRACER, node,
		     "function tracing (the architecture's support)");
		need(r, p, k, KO_FUNCTION_TRACER, node, "function tracing");
	}
	if (in->filters.n || in->notraces.n)
		need(r, p, k, KO_DYNAMIC_FTRACE, node,
		     "a function filter (set_ftrace_filter/notrace)");
}

/* Any other tracer: the options it is built by (kernel/tracers.c). */
static void check_tracer(struct check_report *r, const struct plan *p,
			 const struct kcaps *k, const struct plan_inst *in)
{
	const struct ktracer *t = in->tracer.text ? ktracer_find(in->tracer.text) : NULL;
	char what[64], why[400];
	enum kopt o;

	if (!t)
		return;		/* unknown: compile refuses it */
	/* the kernel's symbols, where read, win over its .config */
	switch (ktracer_in_symbols(t, k, why, sizeof(why))) {
	case 0:
		check_report_add(r, p, in->tracer.node, CK_ERROR, t->name, "%s", why);
		return;
	case 1:
		check_report_add(r, p, in->tracer.node, CK_NOTE, t->name,
				 "the %s tracer is in this kernel: %s's symbols have %s, its code",
				 t->name, k->tracers_from, t->witness);
		return;
	}
	if (!strcmp(t->name, "function"))
		return;		/* its options: above */
	o = ktracer_missing(t, k);
	snprintf(what, sizeof(what), "the %s tracer", t->name);
	if (o != KO_NOPT)
		need(r, p, k, o, in->tracer.node, what);
}

/* Stack traces: the option, then whether the unwinder gives good frames. */
static void check_stacks(struct check_report *r, const struct plan *p,
			 const struct kcaps *k, const struct plan_inst *in)
{
	size_t i;

	for (i = 0; i < in->options.n; i++) {
		const char *o = in->options.v[i].text;
		int node = in->options.v[i].node;

		if (strcmp(o, "func_stack_trace") && strcmp(o, "stacktrace"))
			continue;
		need(r, p, k, KO_STACKTRACE, node, o);
		if (kcaps_opt(k, KO_UNWINDER_GUESS) == KO_YES)
			check_report_add(r, p, node, CK_WARN, "CONFIG_UNWINDER_GUESS",
					 "%s with the guess unwinder (CONFIG_UNWINDER_GUESS): stacks hold stale frames (functions that merely left an address on the stack); prefer a kernel with CONFIG_UNWINDER_ORC or FRAME_POINTER", o);
		if (kcaps_opt(k, KO_MIPS) == KO_YES &&
		    kcaps_opt(k, KO_FRAME_POINTER) != KO_YES)
			check_report_add(r, p, node, CK_WARN, "CONFIG_FRAME_POINTER",
					 "%s on MIPS without CONFIG_FRAME_POINTER: ftrace stack traces come out as '=> 0'; use parent-chain mode (boottrace compile --who-calls F --callers ...)", o);
	}
}

void check_plan_config(struct check_report *r, const struct plan *p,
		       const struct kcaps *k)
{
	size_t i;

	for (i = 0; i < p->ninst; i++) {
		if (k->config_path)
			check_functions(r, p, k, &p->inst[i]);
		check_tracer(r, p, k, &p->inst[i]);	/* symbols need no .config */
		if (k->config_path)
			check_stacks(r, p, k, &p->inst[i]);
	}
	if (!k->config_path)
		return;
	if (p->graph_filters.n || p->graph_notraces.n)
		need(r, p, k, KO_FUNCTION_GRAPH_TRACER, p->graph_filters.n ?
		     p->graph_filters.v[0].node : p->graph_notraces.v[0].node,
		     "a graph filter");
	if (p->nkprobes) {
		need(r, p, k, KO_KPROBES, p->kprobes[0].node, "a kprobe event");
		need(r, p, k, KO_KPROBE_EVENTS, p->kprobes[0].node, "a kprobe event");
	}
	if (p->arm.n) {
		need(r, p, k, KO_MODULES, p->arm.v[0].node, "a module filter");
		need(r, p, k, KO_DYNAMIC_FTRACE, p->arm.v[0].node, "a module filter");
	}
	if (kcaps_opt(k, KO_BOOTTIME_TRACING) == KO_NO && p->ninst > 1)
		check_report_add(r, p, p->inst[1].node, CK_ERROR,
				 "CONFIG_BOOTTIME_TRACING", "instances need ftrace.instance.* boot-time tracing, and %s does not set CONFIG_BOOTTIME_TRACING (or CONFIG_BOOT_CONFIG): the command line has trace_instance= only from 6.3", k->config_path);
}
