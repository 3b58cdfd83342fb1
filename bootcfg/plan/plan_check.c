/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Values the kernel would refuse or misread, caught before a reboot: list
 * items that the kernel splits at ',' or spaces, numbers that are not,
 * module filters that are not FUNC:mod:MODULE.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/params.h"
#include "kernel/words.h"
#include "plan/plan_int.h"

/* A list item must survive the kernel's ',' split and the cmdline's spaces. */
static int plan_check_item(struct plan *p, const struct plan_val *v,
			   const char *what, struct bt_error *e)
{
	const char *s;

	if (!*v->text)
		return plan_error(p, v->node, e, "empty %s", what);
	for (s = v->text; *s; s++)
		if (*s == ',' || isspace((unsigned char)*s) || *s == '"' ||
		    !isprint((unsigned char)*s))
			return plan_error(p, v->node, e, "%s '%s' contains %s: the kernel splits lists at ',' and words at spaces; give one item per array element", what, v->text,
					  *s == ',' ? "','" : "a space, quote or control byte");
	return 0;
}

static int plan_check_list(struct plan *p, const struct plan_list *l,
			   const char *what, struct bt_error *e)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (plan_check_item(p, &l->v[i], what, e))
			return -1;
	return 0;
}

static int plan_is_number(const char *s, const char *suffixes)
{
	if (!isdigit((unsigned char)*s))
		return 0;
	while (isdigit((unsigned char)*s))
		s++;
	if (!*s)
		return 1;
	if (!strchr(suffixes, *s))
		return 0;
	s++;
	return !*s || ((*s == 'B' || *s == 'b') && !s[1]);
}

static int plan_check_value(struct plan *p, const struct plan_val *v,
			    const char *what, const char *suffixes,
			    struct bt_error *e)
{
	if (!v->text || plan_is_number(v->text, suffixes))
		return 0;
	return plan_error(p, v->node, e, "%s '%s' is not a number%s", what,
			  v->text, *suffixes ? " (with an optional K, M or G)" : "");
}

static int plan_check_inst(struct plan *p, const struct plan_inst *in,
			   struct bt_error *e)
{
	const char *t = in->tracer.text;

	if (plan_check_list(p, &in->filters, "function filter", e) ||
	    plan_check_list(p, &in->notraces, "function notrace", e) ||
	    plan_check_list(p, &in->options, "trace option", e) ||
	    plan_check_list(p, &in->events, "event", e) ||
	    plan_check_value(p, &in->buffer_size, "buffer size", "KkMmGg", e))
		return -1;
	for (; t && *t; t++)
		if (!islower((unsigned char)*t) && *t != '_' && !isdigit((unsigned char)*t))
			return plan_error(p, in->tracer.node, e, "tracer '%s' is not a tracer name (function, function_graph, nop, ...)", in->tracer.text);
	if (in->tracing_on.text && strcmp(in->tracing_on.text, "0") &&
	    strcmp(in->tracing_on.text, "1"))
		return plan_error(p, in->tracing_on.node, e, "tracing_on is 0 or 1");
	return 0;
}

/* FUNC:mod:MODULE, as set_ftrace_filter takes it before the module loads. */
static int plan_check_arm(struct plan *p, struct bt_error *e)
{
	size_t i;

	for (i = 0; i < p->arm.n; i++) {
		const char *s = p->arm.v[i].text, *m = strstr(s, ":mod:");

		if (plan_check_item(p, &p->arm.v[i], "module filter", e))
			return -1;
		if (!m || m == s || !m[5] || strchr(m + 5, ':'))
			return plan_error(p, p->arm.v[i].node, e, "module filter '%s' is not FUNC:mod:MODULE (e.g. bond_create:mod:bonding)", s);
	}
	return 0;
}

/* The hook's keys and ranges (initramfs-hook/README.md, "Settings") and
 * compile's own lineage: plan.c reads, this file checks, by this table. */
static const struct plan_hook_key plan_hook_keys[] = {
	{ "enable", PH_FLAG, 0, 0 },
	{ "snapshot", PH_DEST, 0, 0 },
	{ "stop", PH_FLAG, 0, 0 },
	{ "raw", PH_FLAG, 0, 0 },
	{ "max_kb", PH_NUMBER, 1, 4194304 },
	{ "at", PH_TEXT, 0, 0 },
	{ "arm", PH_ARM, 0, 0 },
	{ "timeout", PH_NUMBER, 0, 3600 },
	{ "init", PH_TEXT, 0, 0 },
	{ "follow", PH_FOLLOW, 0, 0 },
	{ "lineage", PH_LINEAGE, 0, 0 },
};
#define NHOOK (sizeof(plan_hook_keys) / sizeof(plan_hook_keys[0]))

const struct plan_hook_key *plan_hook_key(const char *name)
{
	size_t i;

	for (i = 0; i < NHOOK; i++)
		if (!strcmp(plan_hook_keys[i].name, name))
			return &plan_hook_keys[i];
	return NULL;
}

const char *const *plan_hook_names(void)
{
	static const char *names[NHOOK + 1];
	size_t i;

	for (i = 0; i < NHOOK; i++)
		names[i] = plan_hook_keys[i].name;
	return names;
}

/* A decimal number (leading zeros allowed) outside [min, max] of @k. */
static int plan_hook_out_of_range(const struct plan_hook_key *k, const char *v)
{
	unsigned long long n;
	size_t i;

	for (i = 0; v[i] == '0' && v[i + 1]; i++)
		;
	if (strlen(v + i) > 10)
		return 1;
	n = strtoull(v + i, NULL, 10);
	return n < k->min || n > k->max;
}

/* run, console, /dev/NAME, LABEL=L or UUID=U, as the hook takes them. */
static int plan_hook_dest_ok(const char *v)
{
	return !strcmp(v, "run") || !strcmp(v, "console") ||
	       (!strncmp(v, "/dev/", 5) && v[5]) ||
	       (!strncmp(v, "LABEL=", 6) && v[6]) ||
	       (!strncmp(v, "UUID=", 5) && v[5]);
}

/* The hook's numbers and switches (initramfs-hook/boottrace-snapshot.sh). */
static int plan_check_hook(struct plan *p, struct bt_error *e)
{
	size_t i;

	for (i = 0; i < p->nhook; i++) {
		const struct plan_word *w = &p->hook[i];
		const char *v = w->vals.n ? w->vals.v[0].text : "";
		const struct plan_hook_key *k = plan_hook_key(w->key);

		if (!k)
			continue;	/* plan.c refused it */
		if (w->vals.n > 1)
			return plan_error(p, w->node, e, "boottrace.%s takes one value, not a list", w->key);
		if (k->kind == PH_NUMBER && !plan_is_number(v, ""))
			return plan_error(p, w->node, e, "boottrace.%s '%s' is not a number", w->key, v);
		if (k->kind == PH_NUMBER && plan_hook_out_of_range(k, v))
			return plan_error(p, w->node, e, "boottrace.%s = %s is out of the hook's range (%llu to %llu; initramfs-hook/README.md): the hook would refuse it and use its default", w->key, v, k->min, k->max);
		if (k->kind == PH_DEST && !plan_hook_dest_ok(v))
			return plan_error(p, w->node, e, "boottrace.snapshot = '%s' is not run, console, /dev/NAME, LABEL=L or UUID=U (initramfs-hook/README.md): the hook would refuse it", v);
		if (k->kind == PH_FOLLOW && !strcmp(v, "keep"))
			continue;	/* follow: a flag, or keep (tracing stays on) */
		if ((k->kind == PH_FLAG || k->kind == PH_FOLLOW) && plan_flag(v) < 0)
			return plan_error(p, w->node, e, "boottrace.%s is 0 or 1 (or yes/no)%s", w->key, k->kind == PH_FOLLOW ? ", or keep" : "");
	}
	return 0;
}

/*
 * verbatim.*: each value must be one word as the kernel splits the line
 * (a value never becomes two settings) and no tracing parameter, which is
 * written as a key so that its checks apply.
 */
static int plan_check_verbatim(struct plan *p, const struct plan_list *l,
			       const char *key, struct bt_error *e)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const char *v = l->v[i].text;
		struct words w;
		const char *c;
		int one, tracing, q;

		words_init(&w);
		if (words_split(&w, v))
			return words_free(&w), plan_oom(p, e);
		/* An unclosed '"' would take the words after it into this one. */
		for (q = 0, c = v; (c = strchr(c, '"')); c++)
			q++;
		one = w.n == 1 && !strcmp(w.v[0], v) && q % 2 == 0;
		tracing = w.n == 1 && kparam_is_trace_word(v);
		words_free(&w);
		if (!one || !strcmp(v, "--"))
			return plan_error(p, l->v[i].node, e, "%s '%s' is not one word of the command line as the kernel splits it (no leading, trailing or unquoted spaces, every \" closed, not '--'): give each word as its own value", key, v);
		if (tracing && !strcmp(key, "verbatim.kernel"))
			return plan_error(p, l->v[i].node, e, "%s '%s' is a tracing parameter: write it as its ftrace.* or kernel.* key, which compile checks against the kernel", key, v);
	}
	return 0;
}

int plan_check(struct plan *p, struct bt_error *e)
{
	const char *d = p->dump_on_oops.text;
	size_t i;

	for (i = 0; i < p->ninst; i++)
		if (plan_check_inst(p, &p->inst[i], e))
			return -1;
	if (plan_check_list(p, &p->graph_filters, "graph filter", e) ||
	    plan_check_list(p, &p->graph_notraces, "graph notrace", e) ||
	    plan_check_value(p, &p->graph_max_depth, "fgraph max_depth", "", e) ||
	    plan_check_arm(p, e) || plan_check_hook(p, e) ||
	    plan_check_verbatim(p, &p->verbatim_kernel, "verbatim.kernel", e) ||
	    plan_check_verbatim(p, &p->verbatim_init, "verbatim.init", e))
		return -1;
	if (d && *d && strcmp(d, "1") && strcmp(d, "2") && strcmp(d, "orig_cpu"))
		return plan_error(p, p->dump_on_oops.node, e, "dump_on_oops is empty, 1 (all CPUs), 2 or orig_cpu (the CPU that oopsed)");
	return 0;
}
