// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A plan as the writes the kernel's boot-time tracing would make, in its
 * order (docs/kernel-facts.md 87-90): per instance the options,
 * tracing_on, clock, buffer size, cpumask, then per event its filter,
 * actions (triggers) and enable (a group's and all events' enable after),
 * the events list, function filters, and the tracer; kprobe and
 * synthetic events first, on the top level, as the kernel adds them before
 * the events that use them. What only the top level holds in 6.1 (the
 * fgraph filters and depth; a tracer an instance does not allow) is a
 * TRY_TOP write, saved and restored. Settings that are not tracefs writes
 * (kernel.* words, sysctls, hist) are listed as skipped.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "try/try.h"
#include "util/grow.h"

static char *try_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *try_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	return n < 0 ? NULL : s;
}

static int add(struct try_steps *st, enum try_op op, char *path, char *text,
	       char *name, int node, const char *what)
{
	struct try_step *s;

	if (!path || !text || BT_GROW(st->s, st->n + 1, st->cap) < 0) {
		free(path);
		free(text);
		free(name);
		return -1;
	}
	s = &st->s[st->n++];
	s->op = op;
	s->path = path;
	s->text = text;
	s->name = name;
	s->node = node;
	s->what = what;
	return 0;
}

static int skip(struct try_steps *st, const char *what, int node)
{
	if (node == BCONF_NONE)
		return 0;
	if (BT_GROW(st->skip, st->nskip + 1, st->capskip) < 0)
		return -1;
	st->skip[st->nskip].what = what;
	st->skip[st->nskip++].node = node;
	return 0;
}

static int list(struct try_steps *st, enum try_op op, const char *dir,
		const char *file, const struct plan_list *l, const char *what)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (add(st, op, try_fmt("%s%s", dir, file), strdup(l->v[i].text),
			NULL, l->v[i].node, what))
			return -1;
	return 0;
}

static int one(struct try_steps *st, enum try_op op, const char *dir,
	       const char *file, const struct plan_val *v, const char *what)
{
	if (!v->text)
		return 0;
	return add(st, op, try_fmt("%s%s", dir, file), strdup(v->text), NULL,
		   v->node, what);
}

/* buffer_size is bytes with K/M/G (memparse); buffer_size_kb is KiB */
static int buffer(struct try_steps *st, const char *dir, const struct plan_val *v)
{
	unsigned long long b;

	if (!v->text)
		return 0;
	b = plan_size(v->text);
	return add(st, TRY_REPLACE, try_fmt("%sbuffer_size_kb", dir),
		   b ? try_fmt("%llu", (b + 1023) / 1024) : strdup(v->text), NULL,
		   v->node, "buffer size");
}

static int events(struct try_steps *st, const char *dir, const struct plan_inst *in)
{
	size_t i, j;

	for (i = 0; i < in->nev; i++) {
		const struct plan_event *ev = &in->ev[i];

		if (!*ev->group || !*ev->event)
			continue;
		if (ev->filter.text && *ev->filter.text &&
		    add(st, TRY_REPLACE,
			try_fmt("%sevents/%s/%s/filter", dir, ev->group, ev->event),
			strdup(ev->filter.text), NULL, ev->filter.node, "event filter"))
			return -1;
		for (j = 0; j < ev->actions.n; j++)
			if (add(st, TRY_APPEND,
				try_fmt("%sevents/%s/%s/trigger", dir, ev->group, ev->event),
				strdup(ev->actions.v[j].text), NULL, ev->actions.v[j].node,
				"event action"))
				return -1;
		if (ev->hist != BCONF_NONE && skip(st, "an event's hist (not tried: compose it as an action)", ev->hist))
			return -1;
		if (ev->enable &&
		    add(st, TRY_REPLACE,
			try_fmt("%sevents/%s/%s/enable", dir, ev->group, ev->event),
			strdup("1"), NULL, ev->node, "event enable"))
			return -1;
	}
	/* a group's enable, then all events' (docs/kernel-facts.md 90) */
	for (i = 0; i < in->nev; i++) {
		const struct plan_event *ev = &in->ev[i];

		if (*ev->group && !*ev->event && ev->enable &&
		    add(st, TRY_REPLACE, try_fmt("%sevents/%s/enable", dir, ev->group),
			strdup("1"), NULL, ev->node, "event group enable"))
			return -1;
	}
	for (i = 0; i < in->nev; i++)
		if (!*in->ev[i].group && in->ev[i].enable &&
		    add(st, TRY_REPLACE, try_fmt("%sevents/enable", dir), strdup("1"),
			NULL, in->ev[i].node, "all events enable"))
			return -1;
	return 0;
}

static int instance(struct try_steps *st, const struct plan *p,
		    const struct plan_inst *in, long pid)
{
	char *dir, *name;
	size_t i;
	int ret = -1;

	name = in->name ? try_fmt("instances/" TRY_PREFIX "%ld-%s", pid, in->name)
			: try_fmt("instances/" TRY_PREFIX "%ld", pid);
	if (!name)
		return -1;
	dir = try_fmt("%s/", name);
	if (!dir || add(st, TRY_MKDIR, name, strdup(""), NULL,
			in->node == BCONF_NONE ? BCONF_NONE : in->node, "instance"))
		goto out;
	/* the instance's options and values first (docs/kernel-facts.md 90) */
	for (i = 0; i < in->options.n; i++)
		if (!plan_tracer_option(in->options.v[i].text) &&
		    add(st, TRY_APPEND, try_fmt("%strace_options", dir),
			strdup(in->options.v[i].text), NULL, in->options.v[i].node, "option"))
			goto out;
	if (one(st, TRY_REPLACE, dir, "tracing_on", &in->tracing_on, "tracing_on") ||
	    one(st, TRY_REPLACE, dir, "trace_clock", &in->trace_clock, "trace clock") ||
	    buffer(st, dir, &in->buffer_size) ||
	    one(st, TRY_REPLACE, dir, "tracing_cpumask", &in->cpumask, "cpumask"))
		goto out;
	/* the events, the events list, then the filters and the tracer */
	if (events(st, dir, in) ||
	    list(st, TRY_APPEND, dir, "set_event", &in->events, "event") ||
	    list(st, TRY_APPEND, dir, "set_ftrace_filter", &in->filters, "function filter") ||
	    (!in->name && list(st, TRY_APPEND, dir, "set_ftrace_filter", &p->arm,
			       "module function filter")) ||
	    list(st, TRY_APPEND, dir, "set_ftrace_notrace", &in->notraces, "function notrace"))
		goto out;
	if (in->alloc_snapshot.text && plan_flag(in->alloc_snapshot.text) != 0 &&
	    add(st, TRY_REPLACE, try_fmt("%ssnapshot", dir), strdup("1"), NULL,
		in->alloc_snapshot.node, "snapshot"))
		goto out;
	if (in->tracer.text &&
	    add(st, TRY_TRACER, try_fmt("%scurrent_tracer", dir), strdup(in->tracer.text),
		strdup(name), in->tracer.node, "tracer"))
		goto out;
	/* a tracer's own options exist only while it is the tracer */
	for (i = 0; i < in->options.n; i++)
		if (plan_tracer_option(in->options.v[i].text) &&
		    add(st, TRY_OPTION, try_fmt("%strace_options", dir),
			strdup(in->options.v[i].text), strdup(name), in->options.v[i].node,
			"tracer option"))
			goto out;
	ret = 0;
out:
	free(dir);
	return ret;
}

int try_plan_steps(const struct plan *p, long pid, struct try_steps *out,
		   struct bt_error *e)
{
	size_t i, j;
	size_t w;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < p->nkprobes; i++)
		for (j = 0; j < p->kprobes[i].probes.n; j++)
			if (add(out, TRY_KPROBE, strdup("kprobe_events"),
				try_fmt("p:kprobes/%s %s", p->kprobes[i].event,
					p->kprobes[i].probes.v[j].text),
				strdup(p->kprobes[i].event), p->kprobes[i].probes.v[j].node,
				"kprobe event"))
				goto oom;
	for (i = 0; i < p->nsynths; i++) {
		char *t;
		size_t len = strlen(p->synths[i].event) + 1;

		for (j = 0; j < p->synths[i].fields.n; j++)
			len += strlen(p->synths[i].fields.v[j].text) + 2;
		t = malloc(len + 1);
		if (!t)
			goto oom;
		strcpy(t, p->synths[i].event);
		for (j = 0; j < p->synths[i].fields.n; j++) {
			strcat(t, j ? "; " : " ");
			strcat(t, p->synths[i].fields.v[j].text);
		}
		if (add(out, TRY_SYNTH, strdup("synthetic_events"), t,
			strdup(p->synths[i].event), p->synths[i].node, "synthetic event"))
			goto oom;
	}
	/* top level only in 6.1 (docs/kernel-facts.md 87) */
	if (list(out, TRY_TOP, "", "set_graph_function", &p->graph_filters, "fgraph filter") ||
	    list(out, TRY_TOP, "", "set_graph_notrace", &p->graph_notraces, "fgraph notrace") ||
	    one(out, TRY_TOP, "", "max_graph_depth", &p->graph_max_depth, "fgraph max depth"))
		goto oom;
	for (i = 0; i < p->ninst; i++)
		if (instance(out, p, &p->inst[i], pid))
			goto oom;
	/* not tracefs writes: what the kernel reads at boot only */
	if (skip(out, "tp_printk (a boot parameter / sysctl)", p->tp_printk.node) ||
	    skip(out, "tp_printk_stop_on_boot (a boot parameter)", p->tp_printk_stop.node) ||
	    skip(out, "dump_on_oops (a sysctl)", p->dump_on_oops.node) ||
	    skip(out, "traceoff_on_warning (a sysctl)", p->traceoff_on_warning.node) ||
	    skip(out, "boot snapshot (a boot parameter)", p->boot_snapshot.node))
		goto oom;
	for (w = 0; w < p->nkernel; w++)
		if (skip(out, "a kernel.* word (a boot parameter)", p->kernel[w].node))
			goto oom;
	for (w = 0; w < p->ninit; w++)
		if (skip(out, "an init.* word (init's argument)", p->init[w].node))
			goto oom;
	return 0;
oom:
	try_steps_free(out);
	return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory listing the writes");
}

void try_steps_free(struct try_steps *st)
{
	size_t i;

	for (i = 0; i < st->n; i++) {
		free(st->s[i].path);
		free(st->s[i].text);
		free(st->s[i].name);
	}
	free(st->s);
	free(st->skip);
	memset(st, 0, sizeof(*st));
}
