/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan as legacy command-line parameters (kernel-parameters.txt). Each
 * parameter appears once: the kernel keeps only the last of a repeated one,
 * so lists are merged into one comma-separated word.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/route.h"
#include "kernel/params.h"

/* One PARAM=A,B,C word for a list: the kernel keeps only the last PARAM=. */
static int route_word_list(struct route *r, const char *param,
			   const struct plan_list *l, struct bt_error *e)
{
	struct plan_list kept = { 0 };
	char *joined;
	size_t i;
	int ret;

	for (i = 0; i < l->n; i++) {
		/* an item with the separator in it would come back as two */
		if (strchr(l->v[i].text, ',')) {
			free(kept.v);
			return plan_error(r->plan, l->v[i].node, e, "'%s' contains ',', which separates the items of %s=: the kernel would read it as more than one item", l->v[i].text, param);
		}
		if (route_dropped(r, l->v[i].node, l->v[i].text))
			continue;	/* dropped under --allow-drop */
		if (plan_list_add(&kept, l->v[i].text, l->v[i].node)) {
			free(kept.v);
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		}
	}
	if (!kept.n)
		return 0;
	joined = route_join(&kept, ",");
	ret = joined ? route_word(r, param, joined, kept.v[0].node, e) :
		       bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	free(joined);
	free(kept.v);
	return ret;
}

static int route_list(struct route *r, enum kparam id,
		      const struct plan_list *l, struct bt_error *e)
{
	return route_word_list(r, kparam_name(id), l, e);
}

static int route_single(struct route *r, enum kparam id,
			const struct plan_val *v, struct bt_error *e)
{
	const char *param = kparam_name(id);

	if (!v->text)
		return 0;
	/* A flag: bare for "" and "1", else with its mode (=orig_cpu). */
	if (kparam_get(id)->value == KPV_FLAG && (!*v->text || !strcmp(v->text, "1")))
		return route_word(r, param, NULL, v->node, e);
	return route_word(r, param, v->text, v->node, e);
}

/* Does the target kernel have @id? Refuses (at @node, naming @what) if not. */
static int route_need_param(struct route *r, enum kparam id, int node,
			    const char *what, struct bt_error *e)
{
	return route_need(r, kparam_get(id)->since, node, what, e);
}

/* What only bootconfig (or a newer kernel) can express for an instance. */
static int route_inst_unsupported(struct route *r, const struct plan_inst *in,
				  struct bt_error *e)
{
	const struct plan_val *no[] = { &in->cpumask, &in->tracing_on };
	const char *names[] = { "cpumask", "tracing_on" };
	size_t i;

	for (i = 0; i < 2; i++)
		if (no[i]->text && route_refuse(r, no[i]->node, e, "ftrace.%s has no command-line parameter: use -t bootconfig (kernel 5.6+, CONFIG_BOOTTIME_TRACING)", names[i]))
			return -1;
	for (i = 0; i < in->nev; i++) {
		const struct plan_event *ev = &in->ev[i];

		if (ev->filter.text && route_refuse(r, ev->filter.node, e,
				"an event filter (%s:%s) has no command-line parameter: use -t bootconfig", ev->group, ev->event))
			return -1;
		if (ev->hist != BCONF_NONE && route_refuse(r, ev->hist, e,
				"an event histogram (%s:%s) has no command-line parameter: use -t bootconfig (5.15+)", ev->group,
				ev->event))
			return -1;
	}
	return 0;
}

/* Event actions as trace_trigger=EVENT.ACTION (6.2+). */
static int route_triggers(struct route *r, const struct plan_inst *in,
			  struct bt_error *e)
{
	struct plan_list all = { 0 };
	char buf[512], **owned = NULL;
	size_t i, j, n = 0;
	int ret = 0, have;

	for (i = 0; i < in->nev; i++)
		n += in->ev[i].actions.n;
	if (!n)
		return 0;
	have = route_need_param(r, KP_TRACE_TRIGGER, in->ev[0].node,
			  "event actions on the command line (trace_trigger=)", e);
	if (have <= 0)
		return have;
	owned = calloc(n, sizeof(*owned));
	if (!owned)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	n = 0;
	for (i = 0; !ret && i < in->nev; i++) {
		const struct plan_event *ev = &in->ev[i];

		for (j = 0; !ret && j < ev->actions.n; j++) {
			const struct plan_val *a = &ev->actions.v[j];

			if (strchr(a->text, ',')) {
				/* Dropped (--allow-drop) means not emitted. */
				ret = route_refuse(r, a->node, e, "action '%s' contains ',', which separates trace_trigger= entries: use -t bootconfig", a->text);
				continue;
			}
			snprintf(buf, sizeof(buf), "%s.%s", ev->event, a->text);
			owned[n] = strdup(buf);
			if (!ret && (!owned[n] || plan_list_add(&all, owned[n], a->node)))
				ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			n++;
		}
	}
	if (!ret)
		ret = route_list(r, KP_TRACE_TRIGGER, &all, e);
	for (i = 0; i < n; i++)
		free(owned[i]);
	free(owned);
	free(all.v);
	return ret;
}

static int route_kprobes(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;
	size_t i, j, len = 1;
	char *def, *at;
	int have, ret;

	if (!p->nkprobes)
		return 0;
	have = route_need_param(r, KP_KPROBE_EVENT, p->kprobes[0].node,
			  "kprobe events on the command line (kprobe_event=)", e);
	if (have <= 0)
		return have;
	for (i = 0; i < p->nkprobes; i++)
		for (j = 0; j < p->kprobes[i].probes.n; j++)
			len += strlen(p->kprobes[i].event) +
			       strlen(p->kprobes[i].probes.v[j].text) + 16;
	def = at = malloc(len);
	if (!def)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	*at = '\0';
	for (i = 0; i < p->nkprobes; i++) {
		const struct plan_kprobe *k = &p->kprobes[i];

		for (j = 0; j < k->probes.n; j++) {
			const char *pr = k->probes.v[j].text, *c;

			if (strpbrk(pr, ",;")) {
				free(def);
				return route_refuse(r, k->probes.v[j].node, e,
						    "probe '%s' contains ',' or ';', which kprobe_event= uses as separators: use -t bootconfig", pr);
			}
			/* p:kprobes/EVENT PROBE, with ',' for every space. */
			at += sprintf(at, "%sp:kprobes/%s,", at == def ? "" : ";",
				      k->event);
			for (c = pr; *c; c++)
				*at++ = *c == ' ' ? ',' : *c;
			*at = '\0';
		}
	}
	ret = route_word(r, kparam_name(KP_KPROBE_EVENT), def, p->kprobes[0].node, e);
	free(def);
	return ret;
}

/* Instances as trace_instance=NAME,EVENT,... (6.3+); events only. */
static int route_instances(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;
	size_t i;

	for (i = 1; i < p->ninst; i++) {
		const struct plan_inst *in = &p->inst[i];
		const struct plan_val *other[] = {
			&in->tracer, &in->trace_clock, &in->buffer_size,
			&in->alloc_snapshot,
		};
		struct words ev;
		struct plan_list l = { 0 };
		size_t j;
		int have, ret = 0;

		have = route_need_param(r, KP_TRACE_INSTANCE, in->node,
				  "a trace instance on the command line (trace_instance=)", e);
		if (have <= 0) {
			if (have < 0)
				return -1;
			continue;
		}
		for (j = 0; j < 4; j++)
			if (other[j]->text && route_refuse(r, other[j]->node, e,
					"trace_instance= carries only events; this instance setting needs -t bootconfig"))
				return -1;
		if ((in->options.n && route_refuse(r, in->options.v[0].node, e,
				"instance options need -t bootconfig")) ||
		    ((in->filters.n || in->notraces.n) &&
		     route_refuse(r, in->node, e, "instance function filters need -t bootconfig")) ||
		    route_inst_unsupported(r, in, e))
			return -1;
		words_init(&ev);
		if (words_add(&ev, in->name) || route_event_names(in, &ev))
			ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		for (j = 0; !ret && j < ev.n; j++)
			if (plan_list_add(&l, ev.v[j], in->node))
				ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		if (!ret)
			ret = route_list(r, KP_TRACE_INSTANCE, &l, e);
		free(l.v);
		words_free(&ev);
		if (ret)
			return -1;
	}
	return 0;
}

/*
 * The config node of the @i-th name route_event_names made of @in (the
 * list first, then the enabled event keys), so that a refusal points at
 * the event (or the boottrace.lineage that added it), not at "ftrace".
 */
static int route_event_node(const struct plan_inst *in, size_t i)
{
	size_t j;

	if (i < in->events.n)
		return in->events.v[i].node;
	i -= in->events.n;
	for (j = 0; j < in->nev; j++)
		if (in->ev[j].enable && !i--)
			return in->ev[j].node;
	return in->node;
}

static int route_global_events(struct route *r, struct bt_error *e)
{
	const struct plan_inst *g = &r->plan->inst[0];
	struct words ev;
	struct plan_list l = { 0 };
	size_t i;
	int ret = 0;

	words_init(&ev);
	if (route_event_names(g, &ev))
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	/* kprobe events are enabled like any other. */
	for (i = 0; !ret && i < ev.n; i++)
		if (plan_list_add(&l, ev.v[i], route_event_node(g, i)))
			ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (!ret)
		ret = route_list(r, KP_TRACE_EVENT, &l, e);
	free(l.v);
	words_free(&ev);
	return ret;
}

/* kernel.*, boottrace.* and init.* words, as KEY=VALUE each. */
static int route_words(struct route *r, const struct plan_word *w, size_t n,
		       const char *prefix, struct bt_error *e)
{
	char param[BCONF_KEYLEN_MAX + 16];
	size_t i, j;

	for (i = 0; i < n; i++) {
		snprintf(param, sizeof(param), "%s%s", prefix, w[i].key);
		if (!w[i].vals.n && route_word(r, param, NULL, w[i].node, e))
			return -1;
		/* Each array element is its own word, as the kernel makes them. */
		for (j = 0; j < w[i].vals.n; j++)
			if (route_word(r, param, w[i].vals.v[j].text, w[i].node, e))
				return -1;
	}
	return 0;
}

static int route_globals(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;

	if (route_list(r, KP_FTRACE_GRAPH_FILTER, &p->graph_filters, e) ||
	    route_list(r, KP_FTRACE_GRAPH_NOTRACE, &p->graph_notraces, e) ||
	    route_single(r, KP_FTRACE_GRAPH_MAX_DEPTH, &p->graph_max_depth, e) ||
	    route_single(r, KP_TP_PRINTK, &p->tp_printk, e) ||
	    route_single(r, KP_TRACEOFF_ON_WARNING, &p->traceoff_on_warning, e))
		return -1;
	if (p->dump_on_oops.text) {
		struct plan_val v = p->dump_on_oops;

		if (!strcmp(v.text, "2"))
			v.text = "orig_cpu";
		if (route_single(r, KP_FTRACE_DUMP_ON_OOPS, &v, e))
			return -1;
	}
	if (p->tp_printk_stop.text) {
		int have = route_need_param(r, KP_TP_PRINTK_STOP_ON_BOOT,
					    p->tp_printk_stop.node,
					    kparam_name(KP_TP_PRINTK_STOP_ON_BOOT), e);

		if (have < 0 || (have && route_single(r, KP_TP_PRINTK_STOP_ON_BOOT,
						      &p->tp_printk_stop, e)))
			return -1;
	}
	if (p->boot_snapshot.text) {
		int have = route_need_param(r, KP_FTRACE_BOOT_SNAPSHOT,
					    p->boot_snapshot.node,
					    kparam_name(KP_FTRACE_BOOT_SNAPSHOT), e);

		if (have < 0 || (have && route_single(r, KP_FTRACE_BOOT_SNAPSHOT,
						      &p->boot_snapshot, e)))
			return -1;
	}
	return route_crash(r, e);
}

/*
 * The word that asks the installed hook into this boot (it does nothing
 * on a boot without one; initramfs-hook/README.md): boottrace.enable=1,
 * unless a boottrace.* word already reaches the kernel's line or the
 * bootconfig, or the config sets boottrace.enable itself. With the hook's
 * settings in a file (--hook-settings) the word still goes on the line:
 * the file is in every boot's initramfs and asks nothing.
 */
static int route_hook_enable(struct route *r, size_t before,
			     struct bt_error *e)
{
	const struct plan *p = r->plan;
	int apart = r->out == &r->hook_words;
	size_t i;

	for (i = 0; i < p->nhook; i++)
		if (!strcmp(p->hook[i].key, "enable"))
			return 0;
	if (!apart && r->out->n > before)
		return 0;
	route_note(r, "boottrace.enable=1: the hook acts only on a boot that asks for it");
	if (words_add(apart ? &r->words : r->out, "boottrace.enable=1"))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return 0;
}

/*
 * With boottrace.crash the boot may die after the hook, and the hook stops
 * tracing to copy the trace: boottrace.follow=1 turns it on again after the
 * copy, so that what kills the boot is in the buffer the kernel dumps or
 * keeps (docs/crash.md). Not when the config says follow or stop itself.
 */
static int route_hook_follow(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;
	int node = p->crash.modes.n ? p->crash.modes.v[0].node : -1;
	size_t i;

	if (node < 0 || plan_crash_mode(p, "off") >= 0)
		return 0;
	for (i = 0; i < p->nhook; i++)
		if (!strcmp(p->hook[i].key, "follow") || !strcmp(p->hook[i].key, "stop"))
			return 0;
	route_note(r, "boottrace.follow=1: the hook stops tracing to copy it; on again after the copy, so that a crash later in the boot is in the trace boottrace.crash keeps");
	return route_word(r, "boottrace.follow", "1", node, e);
}

static int route_hook(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;
	size_t before = r->out->n;

	if (p->arm.n) {
		route_note(r, "boottrace.arm <- %zu module function filter(s): a command-line ftrace_filter= drops :mod: entries at boot, the hook arms them before the module loads",
			   p->arm.n);
		if (route_word_list(r, "boottrace.arm", &p->arm, e))
			return -1;
	}
	if (route_words(r, p->hook, p->nhook, "boottrace.", e) ||
	    route_hook_follow(r, e))
		return -1;
	return route_hook_enable(r, before, e);
}

static int route_clock_word(struct route *r, struct bt_error *e)
{
	struct plan_val v;
	enum route_clock_form f = route_clock(r, &v);

	route_clock_note(r, f);
	return route_single(r, KP_TRACE_CLOCK, &v, e);
}

static int route_cmdline_parts(struct route *r, unsigned parts,
			       struct bt_error *e)
{
	const struct plan *p = r->plan;
	const struct plan_inst *g = &p->inst[0];

	if ((parts & RP_TRACER) &&
	    (route_single(r, KP_FTRACE, &g->tracer, e) ||
	     route_list(r, KP_FTRACE_FILTER, &g->filters, e) ||
	     route_list(r, KP_FTRACE_NOTRACE, &g->notraces, e) ||
	     route_list(r, KP_TRACE_OPTIONS, &g->options, e) ||
	     route_single(r, KP_TRACE_BUF_SIZE, &g->buffer_size, e) ||
	     route_single(r, KP_ALLOC_SNAPSHOT, &g->alloc_snapshot, e)))
		return -1;
	if ((parts & RP_CLOCK) && route_clock_word(r, e))
		return -1;
	if ((parts & RP_EVENTS) &&
	    (route_inst_unsupported(r, g, e) ||
	     route_kprobes(r, e) ||
	     route_global_events(r, e) ||
	     route_triggers(r, g, e) ||
	     route_instances(r, e) ||
	     (p->nsynths && route_refuse(r, p->synths[0].node, e, "synthetic events have no command-line parameter: use -t bootconfig"))))
		return -1;
	if ((parts & RP_EVLIST) && route_list(r, KP_TRACE_EVENT, &g->events, e))
		return -1;
	if ((parts & RP_GLOBALS) && route_globals(r, e))
		return -1;
	if ((parts & RP_HOOK) && route_hook(r, e))
		return -1;
	if ((parts & RP_KERNEL) &&
	    (route_words(r, p->kernel, p->nkernel, "", e) ||
	     route_verbatim(r, &p->verbatim_kernel,
			    r->to_bconf ? &r->words : r->out, e)))
		return -1;
	if ((parts & RP_INIT) && (p->ninit || p->verbatim_init.n)) {
		int ret;

		if (words_add(r->out, "--"))
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		r->init_args = 1;
		ret = route_words(r, p->init, p->ninit, "", e) ||
		      route_verbatim(r, &p->verbatim_init, r->out, e);
		r->init_args = 0;
		if (ret)
			return -1;
	}
	return 0;
}

int route_cmdline_part(struct route *r, unsigned parts, struct words *out,
		       struct bt_error *e)
{
	int ret;

	r->out = out;
	ret = route_cmdline_parts(r, parts, e);
	r->out = NULL;
	return ret;
}

int route_cmdline(struct route *r, struct bt_error *e)
{
	const struct plan_inst *g = &r->plan->inst[0];
	int ret;

	if (kcaps_has(r->kcaps, KF_BOOTCONFIG) == 0)
		route_note(r, "kernel %s has no bootconfig (5.6+): legacy command-line parameters", kcaps_name(r->kcaps));
	else
		route_note(r, "-t cmdline: legacy command-line parameters");
	if (route_check(r, e))
		return -1;
	if (!r->opts->hook_apart)
		ret = route_cmdline_part(r, RP_ALL, &r->words, e);
	else
		ret = route_cmdline_part(r, RP_ALL & ~RP_HOOK, &r->words, e) ||
		      route_cmdline_part(r, RP_HOOK, &r->hook_words, e);
	if (ret)
		return -1;
	if (g->tracer.text)
		route_note(r, "ftrace=%s: the tracer starts when it registers, early in boot; ftrace_filter= applies before it runs",
			   g->tracer.text);
	return 0;
}
