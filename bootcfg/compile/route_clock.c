/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the global trace clock goes, and when boottrace adds one.
 *
 * On architectures with HAVE_UNSTABLE_SCHED_CLOCK (x86, ia64, parisc),
 * late_trace_init() (late_initcall_sync in 6.1; docs/kernel-facts.md 12)
 * switches the global buffer to the "global" clock when sched_clock turned
 * out unstable and no trace_clock= was given, and tracing_set_clock()
 * resets the buffer on the way: everything built-in initcalls were traced
 * doing is gone, without an error. Whether sched_clock is stable depends on
 * the machine and even on the boot (QEMU boots of one 6.1 kernel kept the
 * bond0 trace in some boots and lost it in others). Only trace_clock= on
 * the command line prevents the switch: ftrace.trace_clock sets the clock
 * at core_initcall_sync but does not count, so it moves to kernel.*.
 */
#include <string.h>

#include "compile/route.h"

/* The default board (no -b) says "unknown". */
static int route_clock_arch_known(const struct route *r)
{
	return r->board && *r->board->arch && strcmp(r->board->arch, "unknown");
}

static const char *const unstable_arch[] = {
	"x86_64", "x86", "i386", "i486", "i586", "i686", "ia64", "parisc",
	"parisc64", NULL,
};

/* Does the global instance record anything from early boot on? */
static int route_clock_traces(const struct plan *p)
{
	const struct plan_inst *g = &p->inst[0];

	return (g->tracer.text && *g->tracer.text &&
		strcmp(g->tracer.text, "nop")) ||
	       g->events.n || g->nev || p->nkprobes;
}

/*
 * May this kernel switch the clock at late_initcall_sync? Unknown counts
 * as yes: the word costs 19 bytes, a wrong guess costs the boot's trace.
 */
static int route_clock_may_switch(const struct route *r)
{
	size_t i;

	switch (kcaps_opt(r->kcaps, KO_HAVE_UNSTABLE_SCHED_CLOCK)) {
	case KO_YES:
		return 1;
	case KO_NO:
		return 0;
	case KO_UNKNOWN:
		break;
	}
	if (!route_clock_arch_known(r))
		return 1;
	for (i = 0; unstable_arch[i]; i++)
		if (!strcmp(r->board->arch, unstable_arch[i]))
			return 1;
	return 0;
}

static const char *route_clock_why(const struct route *r)
{
	if (kcaps_opt(r->kcaps, KO_HAVE_UNSTABLE_SCHED_CLOCK) == KO_YES)
		return "CONFIG_HAVE_UNSTABLE_SCHED_CLOCK=y";
	if (route_clock_arch_known(r))
		return r->board->arch;
	return "no -b or --kernel-config: the architecture is unknown";
}

enum route_clock_form route_clock(const struct route *r, struct plan_val *out)
{
	const struct plan_val *c = &r->plan->inst[0].trace_clock;
	int must = route_clock_traces(r->plan) && route_clock_may_switch(r);

	*out = *c;
	if (c->text)
		return must ? RC_CMDLINE : RC_BCONF;
	if (!must)
		return RC_NONE;
	out->text = "global";
	out->node = BCONF_NONE;
	return RC_ADDED;
}

void route_clock_note(const struct route *r, enum route_clock_form f)
{
	if (f == RC_ADDED)
		route_note(r, "trace_clock=global added (%s): where sched_clock is unstable the kernel switches the trace clock at late_initcall_sync and empties the buffer, losing what built-in initcalls did; trace_clock= on the command line prevents it", route_clock_why(r));
	else if (f == RC_CMDLINE)
		route_note(r, "trace_clock stays on the command line (%s): only trace_clock= stops the kernel from switching the clock and emptying the buffer at late_initcall_sync",
			   route_clock_why(r));
}
