/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plan as a bootconfig: ftrace.* keys where boot-time tracing applies
 * them, kernel.* keys (which the kernel turns into command-line words) for
 * what must happen earlier or has no ftrace.* handler, and the words the
 * bootloader still passes ("bootconfig").
 *
 * Why the global tracer may move to kernel.*: trace_boot.c applies
 * ftrace.options before ftrace.tracer, and a tracer's own options (such as
 * func_stack_trace) exist only once it is current, so they are silently
 * lost (docs/kernel-facts.md 1). trace_options= is applied when
 * ftrace= sets the tracer, so both go to kernel.* together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/route.h"
#include "kernel/ftrace_keys.h"
#include "kernel/params.h"
#include "util/textbuf.h"

/*
 * The one way a value reaches bootconfig text, whatever its key family:
 * quoted so that the parser gives back exactly it, never a second key, or
 * refused at @node (words_bconf_quote).
 */
static int route_bconf_value(struct route *r, struct textbuf *t, const char *v,
			     int node, int first, struct bt_error *e)
{
	const char *why = NULL;
	char q = words_bconf_quote(v, &why);

	if (!q)
		return plan_error(r->plan, node, e, "%s", why);
	textbuf_puts(t, first ? " = " : ", ");
	textbuf_put(t, &q, 1);
	textbuf_puts(t, v);
	textbuf_put(t, &q, 1);
	return 0;
}

/*
 * One line KEY = V1, V2, ... (KEY alone for none): every line of the text.
 * @param: the command-line parameter the kernel makes of a kernel.* or
 * init.* key, whose values must also come back from that word; NULL for
 * ftrace.* keys and words route_word already checked.
 */
static int route_bconf_line(struct route *r, struct textbuf *t, const char *key,
			    const struct plan_val *v, size_t n,
			    const char *param, struct bt_error *e)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++)
		kept += !route_dropped(r, v[i].node, v[i].text);
	if (n && !kept)
		return 0;	/* its setting was dropped (--allow-drop) */
	if (!strncmp(key, "ftrace.", 7))
		route_note(r, "%s: a bootconfig key of boot-time tracing, which starts at core_initcall_sync", key);
	textbuf_puts(t, key);
	for (i = 0, kept = 0; i < n; i++) {
		if (route_dropped(r, v[i].node, v[i].text))
			continue;
		if (param && route_bconf_param_ok(r, param, v[i].text, v[i].node, e))
			return -1;
		if (route_bconf_value(r, t, v[i].text, v[i].node, !kept++, e))
			return -1;
	}
	textbuf_puts(t, "\n");
	return 0;
}

/*
 * Command-line words as kernel.PARAM = "V1", "V2" lines: the words of one
 * parameter (an array of kernel.PARAM) become one key, since bootconfig
 * refuses a key given twice and the kernel makes one word of each value.
 */
static int route_bconf_kernel(struct route *r, const struct words *w,
			      struct textbuf *t, struct bt_error *e)
{
	char key[BCONF_KEYLEN_MAX + 16];
	struct bconf_arg *args;
	struct plan_list vals = { 0 };
	char **copy;
	char *done;
	size_t i, j;
	int ret = 0;

	copy = calloc(w->n + 1, sizeof(*copy));
	args = calloc(w->n + 1, sizeof(*args));
	done = calloc(w->n + 1, 1);
	for (i = 0; copy && args && done && i < w->n; i++)
		if ((copy[i] = strdup(w->v[i])))
			bconf_cmdline_next(copy[i], &args[i]);
		else
			break;
	if (!copy || !args || !done || i < w->n)
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	for (i = 0; !ret && i < w->n; i++) {
		if (done[i] || !strcmp(args[i].param, "--"))
			continue;
		vals.n = 0;
		for (j = i; !ret && j < w->n; j++)
			if (!done[j] && !strcmp(args[j].param, args[i].param) &&
			    !args[j].val == !args[i].val) {
				done[j] = 1;
				if (args[j].val && plan_list_add(&vals, args[j].val, BCONF_NONE))
					ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			}
		snprintf(key, sizeof(key), "kernel.%s", args[i].param);
		/* route_word checked each value (r->to_bconf). */
		if (!ret)
			ret = route_bconf_line(r, t, key, vals.v, vals.n, NULL, e);
	}
	for (i = 0; copy && i < w->n; i++)
		free(copy[i]);
	free(copy);
	free(args);
	free(done);
	free(vals.v);
	return ret;
}

static int route_bconf_leaf(struct route *r, int leaf, struct textbuf *t,
			    struct bt_error *e)
{
	const struct bconf *bc = r->plan->src->bc;
	char key[BCONF_KEYLEN_MAX + 1];
	int vn = bconf_value_node(bc, leaf), v;

	/* Tracer options of an instance, refused or dropped (see below). */
	int skip_tracer_opts = fkey_find(bconf_data(bc, leaf)) == FKEY_OPTIONS;
	struct plan_list vals = { 0 };
	int ret;

	bconf_compose_key(bc, BCONF_NONE, leaf, key, sizeof(key));
	if (skip_tracer_opts && vn != BCONF_NONE) {
		bconf_for_each_value(bc, vn, v)
			if (!plan_tracer_option(bconf_data(bc, v)))
				break;
		if (v == BCONF_NONE)
			return 0;	/* nothing left */
	}
	if (vn != BCONF_NONE)
		bconf_for_each_value(bc, vn, v) {
			if (skip_tracer_opts && plan_tracer_option(bconf_data(bc, v)))
				continue;
			if (plan_list_add(&vals, bconf_data(bc, v), v)) {
				free(vals.v);
				return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			}
		}
	ret = route_bconf_line(r, t, key, vals.v, vals.n, NULL, e);
	free(vals.v);
	return ret;
}

/* Is @leaf below ftrace.WORD with WORD rebuilt from the plan (ftrace_keys.h)? */
static int route_bconf_planned(const struct bconf *bc, int ftrace, int leaf)
{
	int n = leaf, up;

	for (up = bconf_parent(bc, n); up != ftrace && up != BCONF_NONE;
	     up = bconf_parent(bc, n))
		n = up;
	return !!(fkey_flags(bconf_data(bc, n)) & FK_REBUILT);
}

/*
 * An instance's own tracer options are lost the same way as the global
 * ones, and an instance has no kernel.* form to move them to.
 */
static int route_bconf_inst_options(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;
	size_t i, j;

	for (i = 1; i < p->ninst; i++)
		for (j = 0; j < p->inst[i].options.n; j++) {
			const struct plan_val *o = &p->inst[i].options.v[j];

			if (plan_tracer_option(o->text) &&
			    route_refuse(r, o->node, e, "option '%s' of instance '%s' belongs to its tracer, and boot-time tracing sets options before the tracer, so it would be silently lost: use it in the global instance (moved to kernel.trace_options) or set it after boot", o->text,
					 p->inst[i].name))
				return -1;
		}
	return 0;
}

/* ftrace.* leaves the plan does not rebuild: events, instances, cpumask, ... */
static int route_bconf_copy(struct route *r, struct textbuf *t,
			    struct bt_error *e)
{
	const struct plan *p = r->plan;
	const struct bconf *bc = p->src->bc;
	int ftrace = p->inst[0].node, leaf = BCONF_NONE;
	size_t i, j;

	if (ftrace == BCONF_NONE)
		return 0;
	if (route_bconf_inst_options(r, e))
		return -1;
	for (i = 0; i < p->ninst; i++)
		for (j = 0; j < p->inst[i].nev; j++)
			if (p->inst[i].ev[j].hist != BCONF_NONE &&
			    route_need(r, KF_BCONF_HIST, p->inst[i].ev[j].hist,
				       "ftrace.*.hist", e) <= 0)
				return -1;
	while ((leaf = bconf_next_leaf(bc, ftrace, leaf)) != BCONF_NONE)
		if (!route_bconf_planned(bc, ftrace, leaf) &&
		    route_bconf_leaf(r, leaf, t, e))
			return -1;
	return 0;
}

/* The ftrace.* key that says what parameter @id does (kernel/params.c). */
static int route_bconf_list(struct route *r, struct textbuf *t, enum kparam id,
			    const struct plan_list *l, struct bt_error *e)
{
	if (!l->n)
		return 0;
	return route_bconf_line(r, t, kparam_get(id)->bconf_key, l->v, l->n, NULL, e);
}

static int route_bconf_single(struct route *r, struct textbuf *t,
			      enum kparam id, const struct plan_val *v,
			      struct bt_error *e)
{
	if (!v->text)
		return 0;
	return route_bconf_line(r, t, kparam_get(id)->bconf_key, v, *v->text ? 1 : 0, NULL, e);
}

/* The global tracer group in its ftrace.* form (the clock: route_clock.c). */
static int route_bconf_tracer(struct route *r, const struct plan_inst *g,
			      int clock, struct textbuf *t, struct bt_error *e)
{
	return route_bconf_single(r, t, KP_FTRACE, &g->tracer, e) ||
	       route_bconf_list(r, t, KP_FTRACE_FILTER, &g->filters, e) ||
	       route_bconf_list(r, t, KP_FTRACE_NOTRACE, &g->notraces, e) ||
	       route_bconf_list(r, t, KP_TRACE_OPTIONS, &g->options, e) ||
	       (clock && route_bconf_single(r, t, KP_TRACE_CLOCK, &g->trace_clock, e)) ||
	       route_bconf_single(r, t, KP_TRACE_BUF_SIZE, &g->buffer_size, e) ||
	       route_bconf_single(r, t, KP_ALLOC_SNAPSHOT, &g->alloc_snapshot, e) ? -1 : 0;
}

/* Was the setting at @node written as a kernel.* key? */
static int route_bconf_by_kernel(const struct route *r, int node)
{
	const struct bconf *bc = r->plan->src->bc;
	int up;

	if (node == BCONF_NONE)
		return 0;
	while ((up = bconf_parent(bc, node)) != BCONF_NONE)
		node = up;
	return !strcmp(bconf_data(bc, node), "kernel");
}

static int route_bconf_list_by_kernel(const struct route *r,
				      const struct plan_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (route_bconf_by_kernel(r, l->v[i].node))
			return 1;
	return 0;
}

/*
 * A setting written as a kernel.* key starts early in boot; its ftrace.*
 * form would start only at core_initcall_sync (docs/kernel-facts.md 4), so
 * the tracer group stays kernel.* when any of it was written so (moving
 * the rest of the group earlier, never later).
 */
static int route_bconf_tracer_by_kernel(const struct route *r)
{
	const struct plan_inst *g = &r->plan->inst[0];
	const struct plan_val *single[] = {
		&g->tracer, &g->buffer_size, &g->alloc_snapshot,
	};
	const struct plan_list *lists[] = { &g->filters, &g->notraces, &g->options };
	size_t i;

	for (i = 0; i < 3; i++)
		if (single[i]->text && route_bconf_by_kernel(r, single[i]->node)) {
			route_note(r, "the global tracer group stays kernel.*: you wrote kernel.%s, which starts early in boot; ftrace.* keys start only at core_initcall_sync",
				   kparam_name(i == 0 ? KP_FTRACE : i == 1 ? KP_TRACE_BUF_SIZE : KP_ALLOC_SNAPSHOT));
			return 1;
		}
	for (i = 0; i < 3; i++)
		if (route_bconf_list_by_kernel(r, lists[i])) {
			route_note(r, "the global tracer group stays kernel.*: you wrote kernel.%s, which starts early in boot; ftrace.* keys start only at core_initcall_sync",
				   kparam_name(i == 0 ? KP_FTRACE_FILTER : i == 1 ? KP_FTRACE_NOTRACE : KP_TRACE_OPTIONS));
			return 1;
		}
	return 0;
}

static int route_bconf_tracer_to_kernel(const struct route *r)
{
	const struct plan_inst *g = &r->plan->inst[0];
	size_t i;

	for (i = 0; i < g->options.n; i++)
		if (plan_tracer_option(g->options.v[i].text)) {
			route_note(r, "ftrace.tracer, filters and options -> kernel.ftrace / kernel.ftrace_filter / kernel.trace_options: '%s' is an option of the tracer, and boot-time tracing applies options before the tracer, so it would be silently lost", g->options.v[i].text);
			return 1;
		}
	return 0;
}

/* Does the kernel apply ftrace.* keys? -1 when unknown (no .config). */
static int route_bconf_boottime(struct route *r)
{
	enum kopt_state s = kcaps_opt(r->kcaps, KO_BOOTTIME_TRACING);

	if (kcaps_has(r->kcaps, KF_BOOTTIME_TRACING) == 0 || s == KO_NO)
		return 0;
	return s == KO_YES ? 1 : -1;
}

static int route_bconf_text(struct route *r, struct textbuf *t,
			    struct bt_error *e)
{
	const struct plan *p = r->plan;
	struct words kernel;
	unsigned parts = RP_GLOBALS | RP_HOOK | RP_KERNEL;
	int bt = route_bconf_boottime(r), to_kernel = 0, ret;
	size_t ftrace_start;
	struct plan_val clock;
	enum route_clock_form cf = route_clock(r, &clock);

	if (!bt) {
		route_note(r, "no boot-time tracing (%s): every ftrace.* key would be ignored, so all settings go as kernel.* keys", kcaps_opt(r->kcaps, KO_BOOTTIME_TRACING) == KO_NO ?
			   "CONFIG_BOOTTIME_TRACING is not set" : "kernel before 5.6");
		parts = RP_ALL & ~RP_INIT;
	} else {
		if ((to_kernel = route_bconf_tracer_to_kernel(r) ||
				 route_bconf_tracer_by_kernel(r)))
			parts |= RP_TRACER | RP_CLOCK;
		else if (cf == RC_CMDLINE || cf == RC_ADDED ||
			 (cf == RC_BCONF && route_bconf_by_kernel(r, clock.node)))
			parts |= RP_CLOCK;
		/* kernel.trace_event: the events start before the initcalls. */
		if (route_bconf_list_by_kernel(r, &p->inst[0].events)) {
			route_note(r, "the global event list stays kernel.trace_event: you wrote it so, and it starts early in boot; ftrace.events starts only at core_initcall_sync");
			parts |= RP_EVLIST;
		} else if (plan_lineage_on(p) && p->inst[0].events.n) {
			route_note(r, "the global event list goes as kernel.trace_event: boottrace.lineage needs the first fork of the boot, and ftrace.events starts only at core_initcall_sync");
			parts |= RP_EVLIST;
		}
	}
	words_init(&kernel);
	r->to_bconf = 1;
	ret = route_cmdline_part(r, parts, &kernel, e);
	r->to_bconf = 0;
	if (!ret)
		ret = route_bconf_kernel(r, &kernel, t, e);
	words_free(&kernel);
	if (ret)
		return -1;
	ftrace_start = t->len;
	if (bt) {
		if ((!to_kernel && route_bconf_tracer(r, &p->inst[0], !(parts & RP_CLOCK), t, e)) ||
		    (!(parts & RP_EVLIST) &&
		     route_bconf_list(r, t, KP_TRACE_EVENT, &p->inst[0].events, e)))
			return -1;
		if (route_bconf_copy(r, t, e))
			return -1;
	}
	if (bt < 0 && t->len > ftrace_start)
		route_warn(r, BCONF_NONE, "no --kernel-config: assuming CONFIG_BOOTTIME_TRACING=y; without it every ftrace.* key is silently ignored at boot");
	for (size_t i = 0; i < p->ninit; i++) {
		const struct plan_word *w = &p->init[i];
		char key[BCONF_KEYLEN_MAX + 16];

		snprintf(key, sizeof(key), "init.%s", w->key);
		if (route_bconf_line(r, t, key, w->vals.v, w->vals.n, w->key, e))
			return -1;
	}
	return 0;
}

/* The generated text must pass the target kernel's own parser limits. */
static int route_bconf_verify(struct route *r, struct bt_error *e)
{
	struct bconf_opts o = { (unsigned)kcaps_node_max(r->kcaps), BCONF_CTYPE_TOOL };
	struct bconf_error pe;
	struct bconf *bc;

	if (r->bconf_len + 1 > BCONF_DATA_MAX - 1)
		return bt_error_set(e, BT_EXIT_INPUT, r->plan->src->path,
				    "the bootconfig would be %zu bytes; the kernel refuses %d or more: trace fewer functions",
				    r->bconf_len + 1, BCONF_DATA_MAX);
	bc = bconf_parse(r->bconf, r->bconf_len + 1, &o, &pe);
	if (!bc)
		return bt_error_set(e, BT_EXIT_INPUT, r->plan->src->path,
				    "the bootconfig for %s would not load: %s (line %d of the generated text; node limit %d)",
				    kcaps_name(r->kcaps), pe.msg, pe.line, o.node_max);
	r->bconf_nodes = bconf_node_count(bc);
	bconf_free(bc);
	return 0;
}

/*
 * verbatim.init words cannot be init.* keys: they go on the bootloader's
 * line after "--", the last words of it.
 */
static int route_bconf_init_verbatim(struct route *r, struct bt_error *e)
{
	if (!r->plan->verbatim_init.n)
		return 0;
	if (words_add(&r->words, "--"))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return route_verbatim(r, &r->plan->verbatim_init, &r->words, e);
}

int route_bootconfig(struct route *r, struct bt_error *e)
{
	struct textbuf t = { 0 };
	const struct plan *p = r->plan;

	if (kcaps_has(r->kcaps, KF_BOOTCONFIG) == 0)
		return bt_error_set(e, BT_EXIT_INPUT, p->src->path, "kernel %s has no bootconfig (5.6 or later): use -t cmdline",
				    kcaps_name(r->kcaps));
	if (kcaps_opt(r->kcaps, KO_BOOT_CONFIG) == KO_NO)
		return bt_error_set(e, BT_EXIT_INPUT, p->src->path, "CONFIG_BOOT_CONFIG is not set in %s: the kernel ignores a bootconfig; use -t cmdline", r->kcaps->config_path);
	if (route_check(r, e))
		return -1;
	size_t head;

	textbuf_printf(&t, "# boottrace compile of %s for kernel %s\n",
		       p->src->path, kcaps_name(r->kcaps));
	head = t.len;
	if (route_bconf_text(r, &t, e)) {
		textbuf_free(&t);
		return -1;
	}
	/* Only verbatim words: the kernel refuses an empty bootconfig. */
	if (t.len == head && !t.failed) {
		textbuf_free(&t);
		return plan_error(p, bconf_root(p->src->bc), e, "nothing of this config goes into a bootconfig (verbatim.* words go on the bootloader's line): use -t cmdline");
	}
	if (t.failed)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	r->bconf = t.s;
	r->bconf_len = t.len;
	if (route_bconf_verify(r, e))
		return -1;
	if (kcaps_opt(r->kcaps, KO_BOOT_CONFIG_FORCE) == KO_YES) {
		route_note(r, "CONFIG_BOOT_CONFIG_FORCE=y: no 'bootconfig' word needed");
		return route_bconf_init_verbatim(r, e);
	}
	route_note(r, "'bootconfig' on the bootloader's command line: without it the kernel strips the bootconfig and ignores it");
	if (words_add(&r->words, "bootconfig"))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return route_bconf_init_verbatim(r, e);
}
