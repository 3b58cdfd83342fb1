/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.* keys. The legacy tracing parameters (ftrace=, ftrace_filter=,
 * trace_options=, …) fill the same plan fields as their ftrace.* forms, so
 * that one plan comes out however the user wrote it, and a parameter is
 * never emitted twice (the kernel keeps only the last of a repeated one).
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/params.h"
#include "plan/plan_int.h"
#include "util/grow.h"

/* Where a legacy parameter lands: the field of its ftrace.* form. */
static struct plan_val *plan_param_val(struct plan *p, enum kparam id)
{
	struct plan_inst *g = &p->inst[0];

	switch (id) {
	case KP_FTRACE:
		return &g->tracer;
	case KP_TRACE_CLOCK:
		return &g->trace_clock;
	case KP_TRACE_BUF_SIZE:
		return &g->buffer_size;
	case KP_ALLOC_SNAPSHOT:
		return &g->alloc_snapshot;
	case KP_FTRACE_GRAPH_MAX_DEPTH:
		return &p->graph_max_depth;
	case KP_TP_PRINTK:
		return &p->tp_printk;
	case KP_TP_PRINTK_STOP_ON_BOOT:
		return &p->tp_printk_stop;
	case KP_FTRACE_DUMP_ON_OOPS:
		return &p->dump_on_oops;
	case KP_TRACEOFF_ON_WARNING:
		return &p->traceoff_on_warning;
	case KP_FTRACE_BOOT_SNAPSHOT:
		return &p->boot_snapshot;
	default:
		return NULL;
	}
}

static struct plan_list *plan_param_list(struct plan *p, enum kparam id)
{
	struct plan_inst *g = &p->inst[0];

	switch (id) {
	case KP_FTRACE_FILTER:
		return &g->filters;
	case KP_FTRACE_NOTRACE:
		return &g->notraces;
	case KP_TRACE_OPTIONS:
		return &g->options;
	case KP_TRACE_EVENT:
		return &g->events;
	case KP_FTRACE_GRAPH_FILTER:
		return &p->graph_filters;
	case KP_FTRACE_GRAPH_NOTRACE:
		return &p->graph_notraces;
	default:
		return NULL;
	}
}

int plan_add_word(struct plan *p, struct plan_word **arr, size_t *n,
		  size_t *cap, int root, int leaf, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	struct plan_word *na;
	char key[NKEY];
	int len;

	if (BT_GROW(*arr, *n + 1, *cap) < 0)
		return plan_oom(p, e);
	na = &(*arr)[*n];
	memset(na, 0, sizeof(*na));
	len = bconf_compose_key(bc, root, leaf, key, sizeof(key));
	if (len < 0 || !(na->key = plan_own(p, key, (size_t)len)))
		return plan_oom(p, e);
	na->node = leaf;
	(*n)++;
	return plan_values(p, leaf, &na->vals, 0, e);
}

/* "a,b" -> a, b (each owned); the kernel splits these lists at ','. */
static int plan_split(struct plan *p, const char *s, int node,
		      struct plan_list *l, struct bt_error *e)
{
	const char *c;
	char *item;

	for (;;) {
		c = strchr(s, ',');
		item = plan_own(p, s, c ? (size_t)(c - s) : strlen(s));
		if (!item)
			return plan_oom(p, e);
		if (*item && plan_list_add(l, item, node))
			return plan_oom(p, e);
		if (!c)
			return 0;
		s = c + 1;
	}
}

static int plan_legacy_list(struct plan *p, int leaf, struct plan_list *dst,
			    int filter, struct bt_error *e)
{
	struct plan_list vals = { 0 }, items = { 0 };
	size_t i;
	int ret = plan_values(p, leaf, &vals, 1, e);

	/* Every element: kernel.ftrace_filter = a, b is two repeated words. */
	for (i = 0; !ret && i < vals.n; i++)
		ret = plan_split(p, vals.v[i].text, leaf, &items, e);
	for (i = 0; !ret && i < items.n; i++) {
		struct plan_list *to = dst;

		if (filter && strstr(items.v[i].text, ":mod:"))
			to = &p->arm;
		if (plan_list_add(to, items.v[i].text, leaf))
			ret = plan_oom(p, e);
	}
	free(vals.v);
	free(items.v);
	return ret;
}

/*
 * kernel.PARAM of a legacy tracing parameter into the plan: 1 when @id has
 * a plan field (0: a word like any other), -1 on error.
 */
static int plan_legacy(struct plan *p, enum kparam id, int leaf,
		       struct bt_error *e)
{
	const struct kparam_info *k = kparam_get(id);
	struct plan_val *v = plan_param_val(p, id);
	struct plan_list *l = plan_param_list(p, id);

	if (k->value == KPV_DEAD)
		return plan_error(p, leaf, e, "kernel.%s is documented in boottime-trace.rst but no kernel has such a parameter: it would do nothing. Write kernel.%s (or the ftrace.* form)",
				  k->name, kparam_name(k->real));
	if (v)
		return plan_single(p, leaf, v, e) ? -1 : 1;
	if (l)
		return plan_legacy_list(p, leaf, l, id == KP_FTRACE_FILTER, e) ? -1 : 1;
	return 0;
}

int plan_read_kernel(struct plan *p, int node, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int leaf = BCONF_NONE, ret;
	char key[NKEY];
	enum kparam id;

	while ((leaf = bconf_next_leaf(bc, node, leaf)) != BCONF_NONE) {
		bconf_compose_key(bc, node, leaf, key, sizeof(key));
		id = kparam_find(key);
		ret = id == KP_N ? 0 : plan_legacy(p, id, leaf, e);
		if (ret < 0)
			return -1;
		if (!ret && plan_add_word(p, &p->kernel, &p->nkernel,
					  &p->capkernel, node, leaf, e))
			return -1;
	}
	return 0;
}
