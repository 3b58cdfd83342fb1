// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The culprit answers of a function as values, for the printers that draw
 * them (HTML, SVG, Perfetto, diff): the same choice as the text report's
 * answer lines (usable stacks first, else parent chains), and the answer
 * in words.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/fetcharg.h"
#include "report/analysis/analysis.h"

struct fill {
	struct rp_answer *a;
	int k, cap;
};

static int fill(const struct report *r, const struct rp_fn *fn,
		const struct rp_pick *p, void *ctx)
{
	struct fill *f = ctx;
	struct rp_answer *a = &f->a[f->k++];

	(void)fn;
	a->id = p->id;
	a->stack = p->stack;
	a->n = p->hits->n;
	a->first = p->hits->first;
	a->last = p->hits->last;
	memcpy(a->path, p->path, p->len * sizeof(*p->path));
	a->len = p->len;
	a->task = rp_top_task(r, p->tasks, p->id);
	a->start = rp_culprit_start(r, a->path, a->len);
	a->phase = rp_phase_of(r, a->path, a->len, a->task);
	return f->k >= f->cap;
}

int rp_answers(const struct report *r, const struct rp_fn *fn,
	       struct rp_answer *a, int cap)
{
	struct fill f = { a, 0, cap };

	if (cap <= 0)
		return 0;
	return rp_picks(r, fn, fill, &f) < 0 ? -1 : f.k;
}

size_t rp_answer_words(const struct report *r, const struct rp_answer *a,
		       char *buf, size_t cap)
{
	size_t at = 0, l;
	uint32_t i;

	if (!cap)
		return 0;
	buf[0] = 0;
	for (i = a->start; i < a->len; i++) {
		const char *s = rp_name(r, a->path[i]);

		l = strlen(s) + (i > a->start ? 4 : 0);
		if (at + l + 1 > cap)
			break;
		at += (size_t)snprintf(buf + at, cap - at, "%s%s",
				       i > a->start ? " -> " : "", s);
	}
	return at;
}

const char *rp_answer_source(const struct report *r, const struct rp_answer *a)
{
	return a->stack ? "stack trace" : r->hdr.how == RP_READ_GRAPH ?
	       "call graph" : "stitched from <-parent columns";
}

const struct rp_fn *rp_fn_named(const struct report *r,
				const struct rp_intern *from, uint32_t name)
{
	uint32_t id = rp_intern_find(&r->names, rp_str(from, name),
				     from->str[name].len);

	if (id == RP_NONE || id >= r->cap_of || !r->fn_of[id])
		return NULL;
	return &r->fn[r->fn_of[id] - 1];
}

/*
 * The answer's first line when the call's kprobe recorded values, the
 * object first ("bond1: network device created by ip-100, via
 * bond_newlink -> register_netdevice"), a name pattern said to be one: in
 * @buf, for the text and the HTML page alike. 0: the stack @stack has no
 * recorded value (a call before the kprobe's first hit).
 */
size_t rp_object_words(const struct report *r, uint32_t fn, uint32_t stack,
		       const uint32_t *path, uint32_t len, const char *task,
		       char *buf, size_t cap)
{
	const char *name = rp_str(&r->names, fn);
	const char *what = fetcharg_creates(name);
	char objs[300];
	size_t at;
	uint32_t i;
	int pattern;

	if (!cap || !rp_probe_objects(r, &r->stack_probe, stack, objs,
				      sizeof(objs), &pattern))
		return 0;
	at = (size_t)snprintf(buf, cap, "%s", objs);
	if (pattern && at < cap)
		at += (size_t)snprintf(buf + at, cap - at, " (a name pattern: %s records the name at its entry, and the kernel puts in the first free number inside the call)",
				       name);
	if (at < cap)
		at += (size_t)(what ? snprintf(buf + at, cap - at, ": %s created by %s, via ", what, task) :
			       snprintf(buf + at, cap - at, ": recorded by the kprobe on %s, called by %s, via ", name, task));
	for (i = len > 1 ? len - 2 : 0; i < len && at < cap; i++)
		at += (size_t)snprintf(buf + at, cap - at, "%s%s",
				       i > (len > 1 ? len - 2 : 0) ? " -> " : "",
				       rp_name(r, path[i]));
	return at < cap ? at : cap - 1;
}
