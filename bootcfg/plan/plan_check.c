/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Values the kernel would refuse or misread, caught before a reboot: list
 * items that the kernel splits at ',' or spaces, numbers that are not,
 * module filters that are not FUNC:mod:MODULE.
 */
#include <ctype.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "kernel/ask.h"
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
 * The hook's keys and ranges (initramfs-hook/README.md, "Settings") and
 * compile's own (lineage: plan_lineage.c; crash and hang:
 * compile/route_crash.c, docs/crash.md): plan.c reads, this file checks,
 * by this table.
 */
#define OWN(f) offsetof(struct plan, f)
static const struct plan_hook_key plan_hook_keys[] = {
	{ "enable", PH_FLAG, 0, 0, 0 },
	{ "snapshot", PH_DEST, 0, 0, 0 },
	{ "stop", PH_FLAG, 0, 0, 0 },
	{ "raw", PH_FLAG, 0, 0, 0 },
	{ "max_kb", PH_NUMBER, 1, 4194304, 0 },
	{ "at", PH_TEXT, 0, 0, 0 },
	{ "arm", PH_ARM, 0, 0, 0 },
	{ "timeout", PH_NUMBER, 0, 3600, 0 },
	{ "init", PH_TEXT, 0, 0, 0 },
	{ "follow", PH_FOLLOW, 0, 0, 0 },
	/* the hook passes it by; report reads it from the boot's cmdline */
	{ "ask", PH_ASK, 0, 0, 0 },
	{ "lineage", PH_FLAG, 0, 0, OWN(lineage) },
	{ "crash", PH_CRASH, 0, 0, OWN(crash.modes) },
	/* panic=N: -1 reboots at once, 0 never */
	{ "crash_reboot", PH_SIGNED, 1, 3600, OWN(crash.reboot) },
	{ "hang", PH_HANG, 0, 0, OWN(crash.hang) },
	/* twice watchdog_thresh, which the kernel keeps in 1..60 */
	{ "hang_seconds", PH_NUMBER, 2, 120, OWN(crash.hang_seconds) },
	/* a few pages at least; small RAM boards lost 12M (docs/kernel-facts.md) */
	{ "persistent_size", PH_SIZE, 64 << 10, 1ULL << 30, OWN(crash.persistent_size) },
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

unsigned long long plan_size(const char *v)
{
	unsigned long long n = 0;
	size_t i;

	for (i = 0; v[i] >= '0' && v[i] <= '9'; i++) {
		if (n > (1ULL << 40))
			return 0;
		n = n * 10 + (unsigned)(v[i] - '0');
	}
	if (!i)
		return 0;
	if ((v[i] == 'K' || v[i] == 'k') && !v[i + 1])
		return n << 10;
	if ((v[i] == 'M' || v[i] == 'm') && !v[i + 1])
		return n << 20;
	if ((v[i] == 'G' || v[i] == 'g') && !v[i + 1])
		return n << 30;
	return v[i] ? 0 : n;
}

/* One value of hook or own key @k (named @key, at @node). */
static int plan_key_value_ok(struct plan *p, const struct plan_hook_key *k,
			     const char *key, const char *v, int node,
			     struct bt_error *e)
{
	unsigned long long n;

	if (k->kind == PH_NUMBER && !plan_is_number(v, ""))
		return plan_error(p, node, e, "boottrace.%s '%s' is not a number", key, v);
	if (k->kind == PH_NUMBER && plan_hook_out_of_range(k, v))
		return plan_error(p, node, e, "boottrace.%s = %s is out of range (%llu to %llu%s)", key, v, k->min, k->max,
				  k->own ? "" : "; initramfs-hook/README.md: the hook would refuse it and use its default");
	if (k->kind == PH_SIGNED && (!plan_is_number(v + (*v == '-'), "") ||
				     (*v == '-' ? strcmp(v, "-1") != 0 : plan_hook_out_of_range(k, v))))
		return plan_error(p, node, e, "boottrace.%s = '%s' is not -1 (reboot at once), 0 (never) or seconds up to %llu", key, v, k->max);
	if (k->kind == PH_SIZE) {
		n = plan_size(v);
		if (n < k->min || n > k->max)
			return plan_error(p, node, e, "boottrace.%s = '%s' is not a size from 64K to 1G (N, NK or NM bytes)", key, v);
		if (n & 4095)
			return plan_error(p, node, e, "boottrace.%s = '%s' is not a whole number of 4096-byte pages: reserve_mem= wants page-aligned memory", key, v);
	}
	if (k->kind == PH_HANG && strcmp(v, "panic") && plan_flag(v) != 0)
		return plan_error(p, node, e, "boottrace.hang is panic (a hang becomes a panic, so a crash capture sees it) or off");
	if (k->kind == PH_DEST && !plan_hook_dest_ok(v))
		return plan_error(p, node, e, "boottrace.snapshot = '%s' is not run, console, /dev/NAME, LABEL=L or UUID=U (initramfs-hook/README.md): the hook would refuse it", v);
	if (k->kind == PH_ASK) {
		struct bt_ask a;
		const char *why;
		size_t off;

		if (bt_ask_parse(v, &a, &why, &off))
			return plan_error(p, node, e, "boottrace.%s = '%s' %s", key, v, why);
		return 0;
	}
	if (k->kind == PH_FOLLOW && !strcmp(v, "keep"))
		return 0;	/* follow: a flag, or keep (tracing stays on) */
	if ((k->kind == PH_FLAG || k->kind == PH_FOLLOW) && plan_flag(v) < 0)
		return plan_error(p, node, e, "boottrace.%s is %s (or yes/no)%s", key, k->own ? "on or off (1/0" : "0 or 1", k->kind == PH_FOLLOW ? ", or keep" : k->own ? ")" : "");
	return 0;
}

int plan_check_own(struct plan *p, const struct plan_hook_key *k,
		   const char *v, int node, struct bt_error *e)
{
	return plan_key_value_ok(p, k, k->name, v, node, e);
}

static const char *const crash_modes[] = { "console", "persistent", "pstore", "off", NULL };

/* boottrace.crash: known modes, each once; off alone. */
static int plan_check_crash(struct plan *p, struct bt_error *e)
{
	const struct plan_list *l = &p->crash.modes;
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		const char *m = l->v[i].text;

		for (j = 0; crash_modes[j] && strcmp(crash_modes[j], m); j++)
			;
		if (!crash_modes[j]) {
			const char *near = plan_nearest(m, crash_modes);

			return plan_error(p, l->v[i].node, e, "boottrace.crash '%s' is not console (the kernel prints the trace on the console when it panics), persistent (the trace survives a warm reboot, 6.12+), pstore (the kernel's log with the printed trace kept in the board's pstore RAM) or off%s%s%s",
					  m, near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
		}
		for (j = 0; j < i; j++)
			if (!strcmp(l->v[j].text, m))
				return plan_error(p, l->v[i].node, e, "boottrace.crash names %s twice", m);
		if (!strcmp(m, "off") && l->n > 1)
			return plan_error(p, l->v[i].node, e, "boottrace.crash = off goes alone");
	}
	return 0;
}

int plan_crash_mode(const struct plan *p, const char *mode)
{
	size_t i;

	for (i = 0; i < p->crash.modes.n; i++)
		if (!strcmp(p->crash.modes.v[i].text, mode))
			return p->crash.modes.v[i].node;
	return -1;
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
		if (plan_key_value_ok(p, k, w->key, v, w->node, e))
			return -1;
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
	    plan_check_crash(p, e) ||
	    plan_check_verbatim(p, &p->verbatim_kernel, "verbatim.kernel", e) ||
	    plan_check_verbatim(p, &p->verbatim_init, "verbatim.init", e))
		return -1;
	if (d && *d && strcmp(d, "1") && strcmp(d, "2") && strcmp(d, "orig_cpu"))
		return plan_error(p, p->dump_on_oops.node, e, "dump_on_oops is empty, 1 (all CPUs), 2 or orig_cpu (the CPU that oopsed)");
	return 0;
}
