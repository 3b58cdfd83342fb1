/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel.* keys. The legacy tracing parameters (ftrace=, ftrace_filter=,
 * trace_options=, …) fill the same plan fields as their ftrace.* forms, so
 * that one plan comes out however the user wrote it, and a parameter is
 * never emitted twice (the kernel keeps only the last of a repeated one).
 */
#include <stdlib.h>
#include <string.h>

#include "plan/plan_int.h"

#define NKEY (BCONF_KEYLEN_MAX + 1)

enum pk_kind { PK_SINGLE, PK_LIST, PK_DEAD };

struct plan_legacy {
	const char *param;
	enum pk_kind kind;
	/* Where in the plan; for PK_DEAD, the real parameter name. */
	size_t off;
	const char *real;
};

#define PV(f) offsetof(struct plan, f)
#define GI(f) (offsetof(struct plan_inst, f) + 0x10000)

static const struct plan_legacy legacy[] = {
	{ "ftrace", PK_SINGLE, GI(tracer), NULL },
	{ "ftrace_filter", PK_LIST, GI(filters), NULL },
	{ "ftrace_notrace", PK_LIST, GI(notraces), NULL },
	{ "trace_options", PK_LIST, GI(options), NULL },
	{ "trace_event", PK_LIST, GI(events), NULL },
	{ "trace_clock", PK_SINGLE, GI(trace_clock), NULL },
	{ "trace_buf_size", PK_SINGLE, GI(buffer_size), NULL },
	{ "alloc_snapshot", PK_SINGLE, GI(alloc_snapshot), NULL },
	{ "ftrace_graph_filter", PK_LIST, PV(graph_filters), NULL },
	{ "ftrace_graph_notrace", PK_LIST, PV(graph_notraces), NULL },
	{ "ftrace_graph_max_depth", PK_SINGLE, PV(graph_max_depth), NULL },
	{ "tp_printk", PK_SINGLE, PV(tp_printk), NULL },
	{ "tp_printk_stop_on_boot", PK_SINGLE, PV(tp_printk_stop), NULL },
	{ "ftrace_dump_on_oops", PK_SINGLE, PV(dump_on_oops), NULL },
	{ "traceoff_on_warning", PK_SINGLE, PV(traceoff_on_warning), NULL },
	{ "ftrace_boot_snapshot", PK_SINGLE, PV(boot_snapshot), NULL },
	/* Documented in boottime-trace.rst, but no kernel handler exists. */
	{ "dump_on_oops", PK_DEAD, 0, "ftrace_dump_on_oops" },
	{ "fgraph_max_depth", PK_DEAD, 0, "ftrace_graph_max_depth" },
	{ "fgraph_filters", PK_DEAD, 0, "ftrace_graph_filter" },
	{ "fgraph_notraces", PK_DEAD, 0, "ftrace_graph_notrace" },
};

/* The kernel's parameq(): '-' and '_' match. */
static int plan_parameq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = *a == '-' ? '_' : *a, y = *b == '-' ? '_' : *b;

		if (x != y)
			return 0;
	}
	return *a == *b;
}

int plan_add_word(struct plan *p, struct plan_word **arr, size_t *n, int root,
		  int leaf, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	struct plan_word *na = realloc(*arr, (*n + 1) * sizeof(*na));
	char key[NKEY];
	int len;

	if (!na)
		return plan_oom(p, e);
	*arr = na;
	na = &na[*n];
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

static int plan_legacy(struct plan *p, const struct plan_legacy *l, int leaf,
		       struct bt_error *e)
{
	char *base = l->off >= 0x10000 ? (char *)&p->inst[0] : (char *)p;
	size_t off = l->off >= 0x10000 ? l->off - 0x10000 : l->off;

	switch (l->kind) {
	case PK_DEAD:
		return plan_error(p, leaf, e, "kernel.%s is documented in "
				  "boottime-trace.rst but no kernel has such a "
				  "parameter: it would do nothing. Write kernel.%s "
				  "(or the ftrace.* form)", l->param, l->real);
	case PK_SINGLE:
		return plan_single(p, leaf, (struct plan_val *)(base + off), e);
	case PK_LIST:
		return plan_legacy_list(p, leaf, (struct plan_list *)(base + off),
					!strcmp(l->param, "ftrace_filter"), e);
	}
	return 0;
}

int plan_read_kernel(struct plan *p, int node, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int leaf = BCONF_NONE;
	char key[NKEY];
	size_t i;

	while ((leaf = bconf_next_leaf(bc, node, leaf)) != BCONF_NONE) {
		bconf_compose_key(bc, node, leaf, key, sizeof(key));
		for (i = 0; i < sizeof(legacy) / sizeof(legacy[0]); i++)
			if (plan_parameq(key, legacy[i].param))
				break;
		if (i < sizeof(legacy) / sizeof(legacy[0])) {
			if (plan_legacy(p, &legacy[i], leaf, e))
				return -1;
		} else if (plan_add_word(p, &p->kernel, &p->nkernel, node, leaf, e)) {
			return -1;
		}
	}
	return 0;
}
