/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace.lineage (plan.h): the trace events that let report name the
 * program behind a call and its parents (docs/kernel-facts.md 30). One
 * table; compile adds its rows to the global event list, where the route
 * checks them against the kernel like events the user wrote.
 */
#include <stdio.h>
#include <string.h>

#include "kernel/kcaps.h"
#include "plan/plan_int.h"

static const struct lineage_event {
	const char *group, *event;
	int needs;		/* an enum kopt, or -1 */
} lineage_events[] = {
	/* who made each task, and when */
	{ "sched", "sched_process_fork", -1 },
	/* the program it runs from then on (a script: the script's path) */
	{ "sched", "sched_process_exec", -1 },
	/* so that a reused pid is not taken for its earlier owner */
	{ "sched", "sched_process_exit", -1 },
	/* the task that asked the kernel for a module (request_module) */
	{ "module", "module_request", KO_MODULES },
	/* which task loaded which module, at what time */
	{ "module", "module_load", KO_MODULES },
};

size_t plan_lineage_cost(void)
{
	size_t i, n = strlen(" trace_event=");

	for (i = 0; i < sizeof(lineage_events) / sizeof(lineage_events[0]); i++)
		n += strlen(lineage_events[i].group) + 1 +
		     strlen(lineage_events[i].event) + 1;
	return n;
}

int plan_lineage_on(const struct plan *p)
{
	return p->lineage.text && plan_flag(p->lineage.text) == 1;
}

/* Is GROUP:EVENT already enabled in @in, by the list or an event key? */
static int plan_lineage_has(const struct plan_inst *in,
			    const struct lineage_event *le)
{
	size_t i, gl = strlen(le->group);

	for (i = 0; i < in->events.n; i++) {
		const char *t = in->events.v[i].text;

		if (!strncmp(t, le->group, gl) && t[gl] == ':' &&
		    (!strcmp(t + gl + 1, le->event) || !strcmp(t + gl + 1, "*")))
			return 1;
	}
	for (i = 0; i < in->nev; i++)
		if (in->ev[i].enable && !in->ev[i].filter.text &&
		    !strcmp(in->ev[i].group, le->group) &&
		    (!*in->ev[i].event || !strcmp(in->ev[i].event, le->event)))
			return 1;
	return 0;
}

int plan_add_lineage(struct plan *p, const struct kcaps *k, struct bt_error *e)
{
	struct plan_inst *g = &p->inst[0];
	int added = 0;
	size_t i;

	if (!plan_lineage_on(p))
		return 0;
	for (i = 0; i < sizeof(lineage_events) / sizeof(lineage_events[0]); i++) {
		const struct lineage_event *le = &lineage_events[i];
		char buf[64];
		int n = snprintf(buf, sizeof(buf), "%s:%s", le->group, le->event);
		const char *name;

		if (le->needs >= 0 && kcaps_opt(k, (enum kopt)le->needs) == KO_NO)
			continue;
		if (plan_lineage_has(g, le))
			continue;
		name = plan_own(p, buf, (size_t)n);
		if (!name)
			return plan_oom(p, e);
		if (plan_list_add(&g->events, name, p->lineage.node))
			return plan_oom(p, e);
		added++;
	}
	return added;
}
