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

/*
 * The ranges the hook accepts (initramfs-hook/README.md, "Settings"): a
 * value it would refuse at boot is refused here, at its place, instead.
 */
static int plan_hook_out_of_range(const char *key, const char *v)
{
	unsigned long long n;
	size_t i;

	for (i = 0; v[i] == '0' && v[i + 1]; i++)
		;
	if (strlen(v + i) > 10)
		return 1;
	n = strtoull(v + i, NULL, 10);
	if (!strcmp(key, "max_kb"))
		return n < 1 || n > 4194304;
	return n > 3600;
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
		int number = !strcmp(w->key, "max_kb") || !strcmp(w->key, "timeout");
		int flag = !strcmp(w->key, "stop") || !strcmp(w->key, "raw") ||
			   !strcmp(w->key, "enable") || !strcmp(w->key, "follow");

		if (w->vals.n > 1)
			return plan_error(p, w->node, e, "boottrace.%s takes one value, not a list", w->key);
		if (number && !plan_is_number(v, ""))
			return plan_error(p, w->node, e, "boottrace.%s '%s' is not a number", w->key, v);
		if (number && plan_hook_out_of_range(w->key, v))
			return plan_error(p, w->node, e, "boottrace.%s = %s is out of the hook's range (max_kb 1 to 4194304, timeout 0 to 3600; initramfs-hook/README.md): the hook would refuse it and use its default", w->key, v);
		if (!strcmp(w->key, "snapshot") && !plan_hook_dest_ok(v))
			return plan_error(p, w->node, e, "boottrace.snapshot = '%s' is not run, console, /dev/NAME, LABEL=L or UUID=U (initramfs-hook/README.md): the hook would refuse it", v);
		if (!strcmp(w->key, "follow") && !strcmp(v, "keep"))
			continue;	/* follow: a flag, or keep (tracing stays on) */
		if (flag && plan_flag(v) < 0)
			return plan_error(p, w->node, e, "boottrace.%s is 0 or 1 (or yes/no)%s", w->key, strcmp(w->key, "follow") ? "" : ", or keep");
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
