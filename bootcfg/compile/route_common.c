/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every route shares: notes, refusals, kernel checks (route.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/route.h"
#include "kernel/tracers.h"
#include "kernel/params.h"
#include "util/grow.h"

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
	free(r->drop);
	r->drop = NULL;
	r->ndrop = r->capdrop = 0;
}

int route_dropped(const struct route *r, int node, const char *item)
{
	int key = node == BCONF_NONE ? BCONF_NONE : bconf_parent(r->plan->src->bc, node);
	size_t i;

	for (i = 0; node != BCONF_NONE && i < r->ndrop; i++) {
		const struct route_drop *d = &r->drop[i];

		if ((d->node == node || d->node == key) &&
		    (!d->item || (item && !strcmp(d->item, item))))
			return 1;
	}
	return 0;
}

/* Leave the setting at @node (its @item only, when not NULL) out of every form. */
static int route_drop(struct route *r, int node, const char *item,
		      struct bt_error *e)
{
	if (node == BCONF_NONE || route_dropped(r, node, item))
		return 0;
	if (BT_GROW(r->drop, r->ndrop + 1, r->capdrop))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	r->drop[r->ndrop++] = (struct route_drop){ node, item };
	return 0;
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

static int route_refuse_v(struct route *r, int node, const char *item,
			  struct bt_error *e, const char *fmt, va_list ap)
{
	char msg[sizeof(e->msg)];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (r->opts->allow_drop) {
		/* said dropped, so left out of every form (route_dropped) */
		if (route_drop(r, node, item, e))
			return -1;
		r->dropped++;
		route_warn(r, node, "dropped (--allow-drop): %s", msg);
		return 0;
	}
	return plan_error(r->plan, node, e, "%s (or --allow-drop to go on without it)", msg);
}

int route_refuse_item(struct route *r, int node, const char *item,
		      struct bt_error *e, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = route_refuse_v(r, node, item, e, fmt, ap);
	va_end(ap);
	return ret;
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

/*
 * The tracer: a name Linux has (kernel/tracers.c), whose code the kernel's
 * symbols hold, or else built by its .config.
 * ftrace=NAME of no registered tracer traces nothing, and says so only in
 * the kernel log.
 */
static int route_check_tracer(struct route *r, const struct plan_inst *in,
			      struct bt_error *e)
{
	const struct ktracer *t;
	const char *near;
	char what[64], why[400];
	enum kopt o;

	if (!in->tracer.text)
		return 0;
	t = ktracer_find(in->tracer.text);
	if (!t) {
		near = plan_nearest(in->tracer.text, ktracer_names());
		return route_refuse(r, in->tracer.node, e, "no tracer '%s' in Linux: the kernel would start none and trace nothing%s%s",
				    in->tracer.text, near ? "; did you mean " : "", near ? near : "");
	}
	/* the kernel's symbols, where read, win over its .config */
	switch (ktracer_in_symbols(t, r->kcaps, why, sizeof(why))) {
	case 0:
		return route_refuse(r, in->tracer.node, e, "%s", why);
	case 1:
		route_note(r, "the %s tracer: in %s (its symbol %s)", t->name,
			   r->kcaps->tracers_from, t->witness);
		return 0;
	}
	o = ktracer_missing(t, r->kcaps);
	if (o == KO_NOPT)
		return 0;
	snprintf(what, sizeof(what), "the %s tracer", t->name);
	return route_need_opt(r, o, in->tracer.node, what, e);
}

static int route_check_inst(struct route *r, const struct plan_inst *in,
			    struct bt_error *e)
{
	size_t i;

	if (route_check_tracer(r, in, e))
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
			return route_refuse_item(r, o->node, o->text, e, "option 'stacktrace' records stacks for trace events only; for the %s tracer it does nothing: use func_stack_trace", in->tracer.text);
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

/*
 * What the parameter table says of a tracing parameter, for every word
 * whichever key it came from (a kernel.* key passed through too): the
 * kernel version, the buffer the kernel copies the value into (it cuts the
 * rest silently) and the repeat rule (a second one replaces the first).
 * 1: emit; 0: dropped (--allow-drop); -1: refused.
 */
static int route_param_rules(struct route *r, const char *param,
			     const char *val, int node, struct bt_error *e)
{
	enum kparam id = kparam_find(param);
	const struct kparam_info *k;
	size_t buf;
	char what[128];
	int have;

	if (id == KP_N || r->init_args)
		return 1;
	k = kparam_get(id);
	snprintf(what, sizeof(what), "%s=", param);
	/*
	 * --kernel IMAGE: what the image's own table holds beats the version
	 * (which its .config's header may give too): a backport counts, a
	 * missing entry is refused naming the image.
	 */
	have = k->value != KPV_DEAD ? kcaps_image_param(r->kcaps, k->name) : -1;
	if (have == 0)
		return route_refuse(r, node, e, "%s: the kernel image %s has no such boot parameter (its table of %zu __setup/early_param entries lacks it): that kernel would hand the word to init and do nothing with it",
				    what, r->kcaps->image_path, r->kcaps->nimage_params) ? -1 : 0;
	if (have < 0) {
		have = route_need(r, k->since, node, what, e);
		if (have <= 0)
			return have;
	}
	/*
	 * A COMMAND_LINE_SIZE buffer holds anything the line itself holds (that
	 * limit is checked on the whole line, with the board's numbers); from
	 * a bootconfig, the kernel's own words are not bound by the line.
	 */
	buf = k->buf == KP_BUF_CMDLINE && !r->to_bconf ? 0 :
	      kparam_buf(id, r->board ? r->board->cmdline_max : 0);
	if (val && buf && strlen(val) + 1 > buf)
		return plan_error(r->plan, node, e, "%s= would be %zu bytes, and the kernel copies it into a buffer of %zu bytes (the NUL included): it would silently cut the rest; trace fewer items", param, strlen(val), buf);
	if (k->repeat == KPR_REPLACE && words_find(r->out, param, 0) >= 0)
		return plan_error(r->plan, node, e, "%s= a second time: the kernel keeps only the last one, so the first would silently do nothing; give all items in one value", param);
	return 1;
}

/*
 * The word just added for the setting at @node, against the target form's
 * own limits (a bootloader that cannot carry some bytes): refused there,
 * or dropped with the setting under --allow-drop.
 */
static int route_word_form(struct route *r, struct words *out, int node,
			   struct bt_error *e)
{
	char why[256];

	/* Words of the hook's settings file skip the bootloader. */
	if (out == &r->hook_words || !r->opts->word_bad ||
	    !r->opts->word_bad(out->v[out->n - 1], why, sizeof(why)))
		return 0;
	if (route_refuse(r, node, e, "-t %s cannot carry the word %s: %s", r->opts->form ? r->opts->form : "this target", out->v[out->n - 1], why))
		return -1;
	words_remove(out, out->n - 1);
	return 0;
}

/* The word PARAM[=VAL] for the setting at @node. */
int route_word(struct route *r, const char *param, const char *val,
	       int node, struct bt_error *e)
{
	char what[128];
	int rules;

	if (route_dropped(r, node, NULL))
		return 0;	/* refused earlier, dropped with its setting */
	rules = route_param_rules(r, param, val, node, e);
	if (rules <= 0)
		return rules;
	snprintf(what, sizeof(what), "%s=", param);
	/*
	 * Inside a bootconfig, kernel.bootconfig does nothing: the kernel looks
	 * for the word on the bootloader's line, where this route puts it.
	 */
	if (r->to_bconf && kparam_find(param) == KP_BOOTCONFIG) {
		route_note(r, "kernel.bootconfig: not a key of the bootconfig (it would do nothing there); the bootloader's line gets the word");
		return 0;
	}
	route_note_word(r, node, param, val);
	/* The bootconfig route writes this word as kernel.PARAM = VAL. */
	if (r->to_bconf && route_bconf_param_ok(r, param, val, node, e))
		return -1;
	if (words_add_param(r->out, param, val, what, e)) {
		/* Point at the setting the value came from. */
		if (node != BCONF_NONE && e->code == BT_EXIT_INPUT) {
			source_locate(r->plan->src, bconf_pos(r->plan->src->bc, node),
				      &e->line, &e->col);
			bt_error_file(e, r->plan->src->path);
		}
		return -1;
	}
	/* Words that become kernel.* keys of a bootconfig skip the bootloader. */
	return r->to_bconf ? 0 : route_word_form(r, r->out, node, e);
}

/*
 * verbatim.* words as written (plan_check proved each one word). From the
 * bootconfig route they still go on the bootloader's line: a kernel.* key
 * could not hold them.
 */
int route_verbatim(struct route *r, const struct plan_list *l,
		   struct words *out, struct bt_error *e)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		route_note_word(r, l->v[i].node, l->v[i].text, NULL);
		if (words_add(out, l->v[i].text))
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		if (route_word_form(r, out, l->v[i].node, e))
			return -1;
	}
	return 0;
}
