/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Plan building blocks: lists, owned strings, errors, suggestions, and the
 * readers of one key's values that every plan*.c file uses.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/plan_int.h"
#include "util/grow.h"

int plan_list_add(struct plan_list *l, const char *text, int node)
{
	if (BT_GROW(l->v, l->n + 1, l->cap) < 0)
		return -1;
	l->v[l->n].text = text;
	l->v[l->n].node = node;
	l->n++;
	return 0;
}

int plan_flag(const char *v)
{
	static const char *const yes[] = { "1", "yes", "on", "y", "true", NULL };
	static const char *const no[] = { "0", "no", "off", "n", "false", NULL };
	size_t i;

	for (i = 0; v && yes[i]; i++)
		if (!strcmp(v, yes[i]))
			return 1;
	for (i = 0; v && no[i]; i++)
		if (!strcmp(v, no[i]))
			return 0;
	return -1;
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

char *plan_own(struct plan *p, const char *s, size_t n)
{
	char *c;

	if (BT_GROW(p->owned, p->nowned + 1, p->capowned) < 0)
		return NULL;
	c = malloc(n + 1);
	if (!c)
		return NULL;
	memcpy(c, s, n);
	c[n] = '\0';
	p->owned[p->nowned++] = c;
	return c;
}

int plan_oom(const struct plan *p, struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_ENV, p->src->path, "out of memory");
}

/* "unknown key ftrace.traser; did you mean ftrace.tracer?" */
int plan_unknown(const struct plan *p, int node, const char *const *cands,
		 const char *where, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	const char *near = plan_nearest(bconf_data(bc, node), cands);
	char key[NKEY], parent[NKEY];

	bconf_compose_key(bc, BCONF_NONE, node, key, sizeof(key));
	if (near) {
		bconf_compose_key(bc, BCONF_NONE, bconf_parent(bc, node),
				  parent, sizeof(parent));
		return plan_error(p, node, e, "unknown key '%s'; did you mean '%s.%s'? (%s)",
				  key, parent, near, where);
	}
	return plan_error(p, node, e, "unknown key '%s' (%s)", key, where);
}

/* The full name of @key, for a message (composed only when needed). */
static const char *plan_key_name(const struct plan *p, int key, char *buf,
				 size_t size)
{
	bconf_compose_key(p->src->bc, BCONF_NONE, key, buf, size);
	return buf;
}

/* The single value of @key; an array is an error, a value-less key "". */
int plan_single(struct plan *p, int key, struct plan_val *out,
		struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int v = bconf_value_node(bc, key);
	char name[NKEY];

	if (bconf_subkey(bc, key) != BCONF_NONE)
		return plan_error(p, bconf_subkey(bc, key), e,
				  "'%s' takes a value, not subkeys",
				  plan_key_name(p, key, name, sizeof(name)));
	if (v != BCONF_NONE && bconf_is_array(bc, v))
		return plan_error(p, key, e, "'%s' takes one value, not a list",
				  plan_key_name(p, key, name, sizeof(name)));
	if (out->text) {
		int line, col;

		source_locate(p->src, bconf_pos(bc, out->node), &line, &col);
		return plan_error(p, key, e, "'%s' is set twice (also at line %d column %d, maybe in its kernel.* or ftrace.* form): keep one",
				  plan_key_name(p, key, name, sizeof(name)), line, col);
	}
	out->text = v == BCONF_NONE ? "" : bconf_data(bc, v);
	out->node = key;
	return 0;
}

/* Every value of @key into @l; with @nonempty, a value-less key is refused. */
int plan_values(struct plan *p, int key, struct plan_list *l, int nonempty,
		struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int vn = bconf_value_node(bc, key), v;
	char name[NKEY];

	if (bconf_subkey(bc, key) != BCONF_NONE)
		return plan_error(p, bconf_subkey(bc, key), e,
				  "'%s' takes values, not subkeys",
				  plan_key_name(p, key, name, sizeof(name)));
	if (vn == BCONF_NONE) {
		if (nonempty)
			return plan_error(p, key, e, "'%s' needs a value",
					  plan_key_name(p, key, name, sizeof(name)));
		return 0;
	}
	bconf_for_each_value(bc, vn, v)
		if (plan_list_add(l, bconf_data(bc, v), key))
			return plan_oom(p, e);
	return 0;
}

void plan_inst_clear(struct plan_inst *in)
{
	in->tracer.node = in->trace_clock.node = in->buffer_size.node =
		in->cpumask.node = in->tracing_on.node =
		in->alloc_snapshot.node = BCONF_NONE;
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
	free(p->crash.modes.v);
	free(p->verbatim_kernel.v);
	free(p->verbatim_init.v);
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
