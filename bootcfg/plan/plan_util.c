/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plan building blocks: lists, owned strings, errors, suggestions. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan.h"

int plan_list_add(struct plan_list *l, const char *text, int node)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8;
		struct plan_val *nv = realloc(l->v, cap * sizeof(*nv));

		if (!nv)
			return -1;
		l->v = nv;
		l->cap = cap;
	}
	l->v[l->n].text = text;
	l->v[l->n].node = node;
	l->n++;
	return 0;
}

int plan_error(const struct plan *p, int node, struct bt_error *e,
	       const char *fmt, ...)
{
	char msg[sizeof(e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return source_error(p->src, node, e, BT_EXIT_INPUT, "%s", msg);
}

/* Edit distance, capped: names are short, a small table is enough. */
static size_t plan_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[65], prev, tmp;

	if (la > 64 || lb > 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

const char *plan_nearest(const char *word, const char *const *cands)
{
	size_t best = (size_t)-1, d, limit = strlen(word) / 3 + 2;
	const char *pick = NULL;

	for (; *cands; cands++) {
		d = plan_distance(word, *cands);
		if (d < best) {
			best = d;
			pick = *cands;
		}
	}
	return best <= limit ? pick : NULL;
}

/*
 * Options that exist only while their tracer is current: set before the
 * tracer, they are silently lost (docs/kernel-facts.md 1).
 */
int plan_tracer_option(const char *opt)
{
	static const char *const tracer_opts[] = {
		"func_stack_trace", "func-no-repeats",
		"funcgraph-overrun", "funcgraph-cpu", "funcgraph-overhead",
		"funcgraph-proc", "funcgraph-duration", "funcgraph-abstime",
		"funcgraph-irqs", "funcgraph-tail", "funcgraph-retval",
		"sleep-time", "graph-time", "display-graph", NULL,
	};
	const char *const *o;

	if (!strncmp(opt, "no", 2))
		opt += 2;
	for (o = tracer_opts; *o; o++)
		if (!strcmp(opt, *o))
			return 1;
	return 0;
}

void plan_free(struct plan *p)
{
	size_t i, j;

	for (i = 0; i < p->ninst; i++) {
		struct plan_inst *in = &p->inst[i];

		free(in->options.v);
		free(in->events.v);
		free(in->filters.v);
		free(in->notraces.v);
		for (j = 0; j < in->nev; j++)
			free(in->ev[j].actions.v);
		free(in->ev);
	}
	free(p->inst);
	for (i = 0; i < p->nkprobes; i++)
		free(p->kprobes[i].probes.v);
	free(p->kprobes);
	for (i = 0; i < p->nsynths; i++)
		free(p->synths[i].fields.v);
	free(p->synths);
	free(p->graph_filters.v);
	free(p->graph_notraces.v);
	free(p->arm.v);
	for (i = 0; i < p->nkernel; i++)
		free(p->kernel[i].vals.v);
	for (i = 0; i < p->ninit; i++)
		free(p->init[i].vals.v);
	for (i = 0; i < p->nhook; i++)
		free(p->hook[i].vals.v);
	free(p->kernel);
	free(p->init);
	free(p->hook);
	for (i = 0; i < p->nowned; i++)
		free(p->owned[i]);
	free(p->owned);
	memset(p, 0, sizeof(*p));
}
