/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every route shares: notes, refusals, kernel checks (route.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/route.h"
#include "kernel/params.h"

void route_init(struct route *r, const struct plan *p, const struct kcaps *k,
		const struct board *b, const struct route_opts *o)
{
	memset(r, 0, sizeof(*r));
	words_init(&r->words);
	words_init(&r->hook_words);
	r->plan = p;
	r->kcaps = k;
	r->board = b;
	r->opts = o;
}

void route_free(struct route *r)
{
	words_free(&r->words);
	words_free(&r->hook_words);
	free(r->bconf);
	r->bconf = NULL;
}

void route_note(const struct route *r, const char *fmt, ...)
{
	va_list ap;

	if (!r->opts->verbose)
		return;
	va_start(ap, fmt);
	bt_vsay("route", BT_SAY_PLAIN, fmt, ap);
	va_end(ap);
}

void route_note_word(const struct route *r, int node, const char *param,
		     const char *val)
{
	const struct source *s = r->plan->src;
	char key[BCONF_KEYLEN_MAX + 1] = "";
	const char *start = "a command-line word for its own handler";
	int line = 0, col = 0;

	if (!r->opts->verbose || node == BCONF_NONE)
		return;
	bconf_compose_key(s->bc, BCONF_NONE, node, key, sizeof(key));
	source_locate(s, bconf_pos(s->bc, node), &line, &col);
	/* The start point of the setting in its routed form (kernel-facts 4). */
	if (!strncmp(key, "init.", 5))
		start = "passed to init when it starts";
	else if (!strncmp(param, "boottrace.", 10))
		start = "read by the boottrace hook in the initramfs";
	else if (kparam_find(param) != KP_N)
		start = "starts early in boot, when tracing is set up";
	bt_say("route", BT_SAY_PLAIN, "%s (%s:%d:%d) -> %s%s%s%s: %s", key, s->path,
	       line, col, r->to_bconf ? "kernel." : "", param, val ? "=" : "",
	       val ? val : "", start);
}

/* "FILE:LINE:COL: warning: TEXT", or "FILE: warning: TEXT" without a place. */
void route_warn(const struct route *r, int node, const char *fmt, ...)
{
	const struct source *s = r->plan->src;
	char where[PATH_MAX + 32];
	int line = 0, col = 0;
	va_list ap;

	if (node != BCONF_NONE)
		source_locate(s, bconf_pos(s->bc, node), &line, &col);
	if (line)
		snprintf(where, sizeof(where), "%s:%d:%d", s->path, line, col);
	else
		snprintf(where, sizeof(where), "%s", s->path);
	va_start(ap, fmt);
	bt_vsay(where, BT_SAY_WARN, fmt, ap);
	va_end(ap);
}

int route_refuse(struct route *r, int node, struct bt_error *e,
		 const char *fmt, ...)
{
	char msg[sizeof(e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->opts->allow_drop) {
		r->dropped++;
		route_warn(r, node, "dropped (--allow-drop): %s", msg);
		return 0;
	}
	return plan_error(r->plan, node, e, "%s (or --allow-drop to go on without it)", msg);
}

int route_need(struct route *r, enum kfeat f, int node, const char *what,
	       struct bt_error *e)
{
	if (kcaps_has(r->kcaps, f) != 0)
		return 1;
	return route_refuse(r, node, e, "%s needs kernel %s or later; the target is %s", what, kcaps_since(f),
			    kcaps_name(r->kcaps)) ? -1 : 0;
}

int route_bconf_param_ok(struct route *r, const char *param, const char *val,
			 int node, struct bt_error *e)
{
	char what[BCONF_KEYLEN_MAX + 16];
	const char *why = NULL;

	snprintf(what, sizeof(what), "%s=", param);
	if (words_check_from_bconf(param, val, what, e)) {
		if (e->code != BT_EXIT_INPUT)
			return -1;
		return plan_error(r->plan, node, e, "%s", e->msg);
	}
	if (val && !words_bconf_quote(val, &why))
		return plan_error(r->plan, node, e, "%s: %s", what, why);
	return 0;
}

char *route_join(const struct plan_list *l, const char *sep)
{
	size_t i, len = 1, at = 0, sl = strlen(sep);
	char *s;

	for (i = 0; i < l->n; i++)
		len += strlen(l->v[i].text) + sl;
	s = malloc(len);
	if (!s)
		return NULL;
	for (i = 0; i < l->n; i++) {
		size_t n = strlen(l->v[i].text);

		if (i) {
			memcpy(s + at, sep, sl);
			at += sl;
		}
		memcpy(s + at, l->v[i].text, n);
		at += n;
	}
	s[at] = '\0';
	return s;
}

int route_event_names(const struct plan_inst *in, struct words *out)
{
	char name[512];
	size_t i;

	for (i = 0; i < in->events.n; i++)
		if (words_add(out, in->events.v[i].text))
			return -1;
	for (i = 0; i < in->nev; i++) {
		const struct plan_event *ev = &in->ev[i];

		if (!ev->enable)
			continue;
		snprintf(name, sizeof(name), "%s:%s", *ev->group ? ev->group : "*",
			 *ev->event ? ev->event : "*");
		if (words_add(out, name))
			return -1;
	}
	return 0;
}

/* A .config that says an option is off: the setting would do nothing. */
static int route_need_opt(struct route *r, enum kopt o, int node,
			  const char *what, struct bt_error *e)
{
	if (kcaps_opt(r->kcaps, o) != KO_NO)
		return 0;
	return route_refuse(r, node, e, "%s needs %s, which is not set in %s",
			    what, kcaps_opt_name(o), r->kcaps->config_path);
}

static int route_check_inst(struct route *r, const struct plan_inst *in,
			    struct bt_error *e)
{
	const char *t = in->tracer.text;
	size_t i;

	if (t && !strcmp(t, "function") &&
	    route_need_opt(r, KO_FUNCTION_TRACER, in->tracer.node,
			   "the function tracer", e))
		return -1;
	if (t && !strcmp(t, "function_graph") &&
	    route_need_opt(r, KO_FUNCTION_GRAPH_TRACER, in->tracer.node,
			   "the function_graph tracer", e))
		return -1;
	if ((in->filters.n || in->notraces.n) &&
	    route_need_opt(r, KO_DYNAMIC_FTRACE, in->filters.n ?
			   in->filters.v[0].node : in->notraces.v[0].node,
			   "function filters", e))
		return -1;
	if (in->alloc_snapshot.text &&
	    route_need_opt(r, KO_TRACER_SNAPSHOT, in->alloc_snapshot.node,
			   kparam_name(KP_ALLOC_SNAPSHOT), e))
		return -1;
	for (i = 0; i < in->nev; i++)
		if (in->ev[i].hist != BCONF_NONE &&
		    route_need_opt(r, KO_HIST_TRIGGERS, in->ev[i].hist,
				   "an event histogram", e))
			return -1;
	return 0;
}

/*
 * trace_options=stacktrace records stacks for events only; with the
 * function tracer and no event it does nothing (docs/kernel-facts.md
 * 3). A board whose ftrace stacks are all zero gets a warning.
 */
static int route_check_stacks(struct route *r, const struct plan_inst *in,
			      struct bt_error *e)
{
	size_t i;
	int events = in->events.n || in->nev || r->plan->nkprobes;

	for (i = 0; i < in->options.n; i++) {
		const struct plan_val *o = &in->options.v[i];

		if (!strcmp(o->text, "stacktrace") && !events && in->tracer.text &&
		    (!strcmp(in->tracer.text, "function") ||
		     !strcmp(in->tracer.text, "function_graph")))
			return route_refuse(r, o->node, e, "option 'stacktrace' records stacks for trace events only; for the %s tracer it does nothing: use func_stack_trace", in->tracer.text);
		if (!strcmp(o->text, "func_stack_trace") &&
		    r->board && r->board->ftrace_stack_zero)
			route_warn(r, o->node, "on board %s func_stack_trace prints only zero frames; the <-parent column is right there: see compile --who-calls (parent-chain mode)",
				   r->board->name);
	}
	return 0;
}

int route_check(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;
	size_t i;

	for (i = 0; i < p->ninst; i++)
		if (route_check_inst(r, &p->inst[i], e) ||
		    route_check_stacks(r, &p->inst[i], e))
			return -1;
	if (p->nkprobes && route_need_opt(r, KO_KPROBE_EVENTS, p->kprobes[0].node,
					  "kprobe events", e))
		return -1;
	if (p->nsynths && route_need_opt(r, KO_SYNTH_EVENTS, p->synths[0].node,
					 "synthetic events", e))
		return -1;
	if ((p->graph_filters.n || p->graph_notraces.n || p->graph_max_depth.text) &&
	    route_need_opt(r, KO_FUNCTION_GRAPH_TRACER, p->graph_filters.n ?
			   p->graph_filters.v[0].node : p->graph_max_depth.node,
			   "function-graph filters", e))
		return -1;
	if (p->boot_snapshot.text &&
	    route_need_opt(r, KO_TRACER_SNAPSHOT, p->boot_snapshot.node,
			   "boot_snapshot", e))
		return -1;
	if (p->arm.n && route_need_opt(r, KO_MODULES, p->arm.v[0].node,
				       "module function filters", e))
		return -1;
	return 0;
}
