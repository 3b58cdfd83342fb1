/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Tree -> trace plan: the ftrace.*, boottrace.* and init.* keys (plan.h). */
#include <stdlib.h>
#include <string.h>

#include "kernel/ftrace_keys.h"
#include "plan/plan_int.h"
#include "util/grow.h"


/* A filter value: FUNC:mod:MODULE goes to the hook (the cmdline drops it). */
static int plan_filter(struct plan *p, struct plan_inst *in, int key,
		       struct plan_list *dst, int notrace, struct bt_error *e)
{
	struct plan_list tmp = { 0 };
	size_t i;
	int ret = plan_values(p, key, &tmp, 1, e);

	for (i = 0; !ret && i < tmp.n; i++) {
		if (!strstr(tmp.v[i].text, ":mod:")) {
			if (plan_list_add(dst, tmp.v[i].text, key))
				ret = plan_oom(p, e);
			continue;
		}
		if (notrace || in->name)
			ret = plan_error(p, key, e, "'%s': module functions can only be armed as filters of the global instance (boottrace.arm)",
					 tmp.v[i].text);
		else if (plan_list_add(&p->arm, tmp.v[i].text, key))
			ret = plan_oom(p, e);
	}
	free(tmp.v);
	return ret;
}

static int plan_read_ftrace_filters(struct plan *p, struct plan_inst *in,
				    int node, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int k;

	bconf_for_each_subkey(bc, node, k) {
		enum fsub key = fsub_find(FKEY_FTRACE, bconf_data(bc, k));

		if (key == FSUB_FILTERS) {
			if (plan_filter(p, in, k, &in->filters, 0, e))
				return -1;
		} else if (key == FSUB_NOTRACES) {
			if (plan_filter(p, in, k, &in->notraces, 1, e))
				return -1;
		} else {
			return plan_unknown(p, k, fsub_names(FKEY_FTRACE),
					    "ftrace.ftrace.{filters,notraces}", e);
		}
	}
	return 0;
}

static int plan_read_fgraph(struct plan *p, int node, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int k;

	bconf_for_each_subkey(bc, node, k) {
		enum fsub key = fsub_find(FKEY_FGRAPH, bconf_data(bc, k));
		int ret;

		if (key == FSUB_FILTERS)
			ret = plan_values(p, k, &p->graph_filters, 1, e);
		else if (key == FSUB_NOTRACES)
			ret = plan_values(p, k, &p->graph_notraces, 1, e);
		else if (key == FSUB_MAX_DEPTH)
			ret = plan_single(p, k, &p->graph_max_depth, e);
		else
			ret = plan_unknown(p, k, fsub_names(FKEY_FGRAPH),
					   "ftrace.fgraph.{filters,notraces,max_depth}", e);
		if (ret)
			return -1;
	}
	return 0;
}

static struct plan_event *plan_new_event(struct plan *p, struct plan_inst *in,
					 const char *group, const char *event,
					 int node)
{
	struct plan_event *ne;

	(void)p;
	if (BT_GROW(in->ev, in->nev + 1, in->capev) < 0)
		return NULL;
	ne = &in->ev[in->nev++];
	memset(ne, 0, sizeof(*ne));
	ne->group = group;
	ne->event = event;
	ne->node = node;
	ne->filter.node = BCONF_NONE;
	ne->hist = BCONF_NONE;
	return ne;
}

static int plan_add_kprobe(struct plan *p, const char *event, int node,
			   int key, struct bt_error *e)
{
	struct plan_kprobe *nk;

	if (BT_GROW(p->kprobes, p->nkprobes + 1, p->capkprobes) < 0)
		return plan_oom(p, e);
	nk = &p->kprobes[p->nkprobes++];
	memset(nk, 0, sizeof(*nk));
	nk->event = event;
	nk->node = node;
	return plan_values(p, key, &nk->probes, 1, e);
}

static int plan_add_synth(struct plan *p, const char *event, int node,
			  int key, struct bt_error *e)
{
	struct plan_synth *ns;

	if (BT_GROW(p->synths, p->nsynths + 1, p->capsynths) < 0)
		return plan_oom(p, e);
	ns = &p->synths[p->nsynths++];
	memset(ns, 0, sizeof(*ns));
	ns->event = event;
	ns->node = node;
	return plan_values(p, key, &ns->fields, 1, e);
}

/* ftrace.[instance.I.]event.GROUP.EVENT.{enable,filter,actions,hist,...} */
static int plan_read_event(struct plan *p, struct plan_inst *in,
			   const char *group, int enode, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	const char *event = bconf_data(bc, enode);
	struct plan_event *ev = plan_new_event(p, in, group, event, enode);
	struct plan_val flag = { NULL, BCONF_NONE };
	int k, ret = 0;

	if (!ev)
		return plan_oom(p, e);
	bconf_for_each_subkey(bc, enode, k) {
		enum fsub key = fsub_find(FKEY_EVENT, bconf_data(bc, k));

		if (key == FSUB_ENABLE) {
			ret = plan_single(p, k, &flag, e);
			ev->enable = 1;
		} else if (key == FSUB_FILTER) {
			ret = plan_single(p, k, &ev->filter, e);
		} else if (key == FSUB_ACTIONS) {
			ret = plan_values(p, k, &ev->actions, 1, e);
		} else if (key == FSUB_HIST) {
			ev->hist = k;
		} else if (key == FSUB_PROBES && !strcmp(group, "kprobes")) {
			ret = plan_add_kprobe(p, event, enode, k, e);
		} else if (key == FSUB_FIELDS && !strcmp(group, "synthetic")) {
			ret = plan_add_synth(p, event, enode, k, e);
		} else {
			ret = plan_unknown(p, k, fsub_names(FKEY_EVENT), "event keys: enable, filter, actions, hist; probes under event.kprobes, fields under event.synthetic",
					   e);
		}
		if (ret)
			return -1;
	}
	return 0;
}

static int plan_read_events(struct plan *p, struct plan_inst *in, int node,
			    struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	struct plan_val flag = { NULL, BCONF_NONE };
	struct plan_event *ev;
	int g, k;

	bconf_for_each_subkey(bc, node, g) {
		const char *group = bconf_data(bc, g);

		flag.text = NULL;
		/* ftrace.event.enable: every event (an event's own key, one level up) */
		if (fsub_find(FKEY_EVENT, group) == FSUB_ENABLE) {
			if (plan_single(p, g, &flag, e))
				return -1;
			ev = plan_new_event(p, in, "", "", g);
			if (!ev)
				return plan_oom(p, e);
			ev->enable = 1;
			continue;
		}
		if (bconf_value_node(bc, g) != BCONF_NONE)
			return plan_error(p, g, e, "event group '%s' takes subkeys (EVENT.enable, enable), not a value",
					  group);
		bconf_for_each_subkey(bc, g, k) {
			if (fsub_find(FKEY_EVENT, bconf_data(bc, k)) == FSUB_ENABLE) {
				flag.text = NULL;
				if (plan_single(p, k, &flag, e))
					return -1;
				ev = plan_new_event(p, in, group, "", k);
				if (!ev)
					return plan_oom(p, e);
				ev->enable = 1;
			} else if (plan_read_event(p, in, group, k, e)) {
				return -1;
			}
		}
	}
	return 0;
}

static int plan_read_inst(struct plan *p, size_t idx, int node,
			  struct bt_error *e);

static int plan_read_instances(struct plan *p, int node, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	struct plan_inst *ni;
	int k;

	bconf_for_each_subkey(bc, node, k) {
		if (BT_GROW(p->inst, p->ninst + 1, p->capinst) < 0)
			return plan_oom(p, e);
		ni = &p->inst[p->ninst];
		memset(ni, 0, sizeof(*ni));
		ni->name = bconf_data(bc, k);
		ni->node = k;
		plan_inst_clear(ni);
		if (plan_read_inst(p, p->ninst++, k, e))
			return -1;
	}
	return 0;
}

/* An unknown ftrace key at @k: the candidates are the table's with @need. */
static int plan_unknown_fkey(const struct plan *p, int k, unsigned need,
			     const char *where, struct bt_error *e)
{
	const char *cands[fkey_count() + 1];

	fkey_names(need, cands, fkey_count() + 1);
	return plan_unknown(p, k, cands, where, e);
}

/* Settings only the global instance has (the kernel's global options). */
static int plan_read_global(struct plan *p, int k, enum fkey key,
			    struct bt_error *e)
{
	switch (key) {
	case FKEY_INSTANCE:
		return plan_read_instances(p, k, e);
	case FKEY_FGRAPH:
		return plan_read_fgraph(p, k, e);
	case FKEY_TP_PRINTK:
		return plan_single(p, k, &p->tp_printk, e);
	case FKEY_TP_PRINTK_STOP_ON_BOOT:
		return plan_single(p, k, &p->tp_printk_stop, e);
	case FKEY_DUMP_ON_OOPS:
		return plan_single(p, k, &p->dump_on_oops, e);
	case FKEY_TRACEOFF_ON_WARNING:
		return plan_single(p, k, &p->traceoff_on_warning, e);
	case FKEY_BOOT_SNAPSHOT:
		return plan_single(p, k, &p->boot_snapshot, e);
	default:
		return plan_unknown_fkey(p, k, FK_GLOBAL, "see boottrace.bconf(5)", e);
	}
}

/* A key every instance has, the global one included; 1 when @key is none of them. */
static int plan_read_inst_key(struct plan *p, struct plan_inst *in, int k,
			      enum fkey key, struct bt_error *e)
{
	switch (key) {
	case FKEY_OPTIONS:
		return plan_values(p, k, &in->options, 1, e);
	case FKEY_EVENTS:
		return plan_values(p, k, &in->events, 1, e);
	case FKEY_TRACER:
		return plan_single(p, k, &in->tracer, e);
	case FKEY_TRACE_CLOCK:
		return plan_single(p, k, &in->trace_clock, e);
	case FKEY_BUFFER_SIZE:
		return plan_single(p, k, &in->buffer_size, e);
	case FKEY_CPUMASK:
		return plan_single(p, k, &in->cpumask, e);
	case FKEY_TRACING_ON:
		return plan_single(p, k, &in->tracing_on, e);
	case FKEY_ALLOC_SNAPSHOT:
		return plan_single(p, k, &in->alloc_snapshot, e);
	case FKEY_FTRACE:
		return plan_read_ftrace_filters(p, in, k, e);
	case FKEY_EVENT:
		return plan_read_events(p, in, k, e);
	default:
		return 1;
	}
}

static int plan_read_inst(struct plan *p, size_t idx, int node,
			  struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int k, ret;

	if (bconf_value_node(bc, node) != BCONF_NONE)
		return plan_error(p, node, e, "'%s' takes subkeys, not a value",
				  idx ? "ftrace.instance.NAME" : "ftrace");
	bconf_for_each_subkey(bc, node, k) {
		/* Re-fetched each time: reading instances may move the array. */
		struct plan_inst *in = &p->inst[idx];
		enum fkey key = fkey_find(bconf_data(bc, k));

		ret = plan_read_inst_key(p, in, k, key, e);
		if (ret == 1)
			ret = idx == 0 ? plan_read_global(p, k, key, e) :
			      plan_unknown_fkey(p, k, FK_INST, "instance keys", e);
		if (ret)
			return -1;
	}
	return 0;
}

/*
 * boottrace.KEY: the hook's settings; arm values are module filters, and
 * the keys with an own offset (lineage, crash, hang, ...) are compile's.
 */
static int plan_read_hook(struct plan *p, int node, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int k;

	bconf_for_each_subkey(bc, node, k) {
		const char *w = bconf_data(bc, k);
		const struct plan_hook_key *hk;
		size_t i;

		hk = plan_hook_key(w);
		if (!hk)
			return plan_unknown(p, k, plan_hook_names(), "boottrace.* hook settings, see boottrace.bconf(5)",
					    e);
		if (hk->kind == PH_ARM) {
			struct plan_list tmp = { 0 };

			if (plan_values(p, k, &tmp, 1, e))
				return free(tmp.v), -1;
			for (i = 0; i < tmp.n; i++)
				if (plan_list_add(&p->arm, tmp.v[i].text, k))
					return free(tmp.v), plan_oom(p, e);
			free(tmp.v);
			continue;
		}
		if (hk->kind == PH_CRASH) {
			struct plan_list *l = (struct plan_list *)((char *)p + hk->own);

			if (plan_values(p, k, l, 1, e))
				return -1;
			continue;
		}
		if (hk->own) {
			struct plan_val *v = (struct plan_val *)((char *)p + hk->own);

			if (plan_single(p, k, v, e) ||
			    plan_check_own(p, hk, v->text, k, e))
				return -1;
			continue;
		}
		if (plan_add_word(p, &p->hook, &p->nhook, &p->caphook, node, k, e))
			return -1;
	}
	return 0;
}

static const char *const verbatim_keys[] = { "kernel", "init", NULL };

/* verbatim.kernel / verbatim.init: whole words, checked in plan_check. */
static int plan_read_verbatim(struct plan *p, int node, struct bt_error *e)
{
	const struct bconf *bc = p->src->bc;
	int k;

	for (k = bconf_child(bc, node); k != BCONF_NONE; k = bconf_next(bc, k)) {
		const char *w = bconf_data(bc, k);

		if (bconf_child(bc, k) == BCONF_NONE || !bconf_is_value(bc, bconf_child(bc, k)))
			return plan_unknown(p, k, verbatim_keys, "verbatim.kernel or verbatim.init, each a list of words", e);
		if (!strcmp(w, "kernel")) {
			if (plan_values(p, k, &p->verbatim_kernel, 1, e))
				return -1;
		} else if (!strcmp(w, "init")) {
			if (plan_values(p, k, &p->verbatim_init, 1, e))
				return -1;
		} else {
			return plan_unknown(p, k, verbatim_keys, "verbatim.kernel or verbatim.init, each a list of words", e);
		}
	}
	return 0;
}

/* init.*: words for init, after "--", each as KEY=VALUE. */
static int plan_read_init(struct plan *p, int node, struct bt_error *e)
{
	int leaf = BCONF_NONE;

	while ((leaf = bconf_next_leaf(p->src->bc, node, leaf)) != BCONF_NONE)
		if (plan_add_word(p, &p->init, &p->ninit, &p->capinit, node, leaf, e))
			return -1;
	return 0;
}

static void plan_clear_vals(struct plan *p)
{
	p->graph_max_depth.node = p->tp_printk.node = p->tp_printk_stop.node =
		p->dump_on_oops.node = p->traceoff_on_warning.node =
		p->boot_snapshot.node = p->lineage.node = p->crash.reboot.node =
		p->crash.hang.node = p->crash.hang_seconds.node =
		p->crash.persistent_size.node = BCONF_NONE;
}

int plan_build(struct plan *p, const struct source *src, struct bt_error *e)
{
	const struct bconf *bc = src->bc;
	int k, ret = 0;

	memset(p, 0, sizeof(*p));
	p->src = src;
	plan_clear_vals(p);
	if (BT_GROW(p->inst, 1, p->capinst) < 0)
		return plan_oom(p, e);
	memset(p->inst, 0, sizeof(*p->inst));
	p->ninst = 1;
	plan_inst_clear(&p->inst[0]);
	/* No ftrace.* key yet: node 0 would be the config's first key. */
	p->inst[0].node = BCONF_NONE;
	for (k = bconf_root(bc); !ret && k != BCONF_NONE; k = bconf_next(bc, k)) {
		const char *w = bconf_data(bc, k);

		if (!strcmp(w, "ftrace")) {
			p->inst[0].node = k;
			ret = plan_read_inst(p, 0, k, e);
		} else if (!strcmp(w, "kernel")) {
			ret = plan_read_kernel(p, k, e);
		} else if (!strcmp(w, "init")) {
			ret = plan_read_init(p, k, e);
		} else if (!strcmp(w, "boottrace")) {
			ret = plan_read_hook(p, k, e);
		} else if (!strcmp(w, "verbatim")) {
			ret = plan_read_verbatim(p, k, e);
		} else {
			ret = plan_error(p, k, e, "unknown top-level key '%s': a boottrace config has ftrace.*, kernel.*, init.*, boottrace.* and verbatim.* keys",
					 w);
		}
	}
	if (!ret)
		ret = plan_check(p, e);
	if (ret)
		plan_free(p);
	return ret;
}
