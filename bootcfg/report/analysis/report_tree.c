// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Caller paths and trees: a stack's frames minus what is not a caller
 * (trampolines, zero addresses, stale duplicates, the traced function's
 * own frame), outermost first, merged into one tree per function.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/analysis/analysis.h"

#define SKIP (RP_FR_TRAMP | RP_FR_ZERO | RP_FR_STALE | RP_FR_TRACER)

uint32_t rp_stack_caller(const struct rp_stack *s, uint32_t fn)
{
	uint32_t i, inner = 0;

	/*
	 * A stack that holds the traced function further in (an event's
	 * stacktrace trigger or stacktrace option, a kprobe on ftrace: the
	 * tracer's own frames, "kprobe_trace_func => kprobe_dispatcher =>
	 * kprobe_ftrace_handler => <trampoline>", come first) starts at it.
	 */
	for (i = 0; i < s->nframes; i++)
		if (s->frame[i] == fn) {
			inner = i;
			break;
		}
	/* the innermost frames that are the traced function itself */
	while (inner < s->nframes &&
	       ((s->flag[inner] & SKIP) || s->frame[inner] == fn))
		inner++;
	return inner;
}

uint32_t rp_stack_path(const struct report *r, uint32_t stack, uint32_t fn,
		       uint32_t *out, uint32_t cap)
{
	const struct rp_stack *s = &r->stacks.s[stack];
	uint32_t i, n = 0, inner = rp_stack_caller(s, fn);

	for (i = s->nframes; i > inner && n + 1 < cap; i--)
		if (!(s->flag[i - 1] & SKIP))
			out[n++] = s->frame[i - 1];
	if (n < cap)
		out[n++] = fn;
	return n;
}

uint32_t rp_chain_path(const struct report *r, uint32_t node, uint32_t *out,
		       uint32_t cap)
{
	uint32_t n = 0, i;

	while (node != RP_NONE && n < cap) {
		out[n++] = r->chains.node[node].fn;
		node = r->chains.node[node].up;
	}
	for (i = 0; i < n / 2; i++) {
		uint32_t t = out[i];

		out[i] = out[n - 1 - i];
		out[n - 1 - i] = t;
	}
	return n;
}

static const char *const entry_points[] = {
	"do_one_initcall", "do_init_module", "kernel_init_freeable",
	"kernel_init", "do_syscall_64", "do_syscall_32_irqs_on",
	"entry_SYSCALL_64_after_hwframe", "ret_from_fork", "kthread",
	"worker_thread", "process_one_work", "syscall_common", "handle_sys",
	"el0_svc_common", "invoke_syscall",
};

static int is_entry(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(entry_points) / sizeof(entry_points[0]); i++)
		if (!strcmp(s, entry_points[i]))
			return 1;
	return 0;
}

uint32_t rp_culprit_start(const struct report *r, const uint32_t *path,
			  uint32_t n)
{
	uint32_t i;

	for (i = n; i-- > 1;)
		if (is_entry(rp_str(&r->names, path[i - 1])))
			return i;
	return 0;
}

static uint32_t tree_child(struct rp_tree *t, uint32_t parent, uint32_t name)
{
	uint32_t c = t->v[parent].child, id;
	struct rp_tnode *v;

	for (; c != RP_NONE; c = t->v[c].next)
		if (t->v[c].name == name)
			return c;
	if (BT_GROW(t->v, (size_t)t->n + 1, t->cap))
		return RP_NONE;
	id = t->n++;
	v = &t->v[id];
	v->name = name;
	v->count = v->self = 0;
	v->child = RP_NONE;
	v->next = RP_NONE;
	/* append, so children keep the order of first sight */
	if (t->v[parent].child == RP_NONE) {
		t->v[parent].child = id;
	} else {
		for (c = t->v[parent].child; t->v[c].next != RP_NONE;)
			c = t->v[c].next;
		t->v[c].next = id;
	}
	return id;
}

int rp_tree_build(const struct report *r, uint32_t fn, struct rp_tree *t)
{
	struct rp_count **v;
	uint32_t path[RP_FRAMES];
	size_t n, i;

	memset(t, 0, sizeof(*t));
	t->v = malloc(64 * sizeof(*t->v));
	if (!t->v)
		return -1;
	t->cap = 64;
	t->n = 1;
	t->v[0].name = RP_NONE;
	t->v[0].count = t->v[0].self = 0;
	t->v[0].child = t->v[0].next = RP_NONE;
	v = rp_pairs_of(&r->fn_stack, fn, &n);
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t len = rp_stack_path(r, rp_key_b(v[i]), fn, path, RP_FRAMES);
		uint32_t node = 0, k;

		if (r->stacks.s[rp_key_b(v[i])].useless)
			continue;
		t->v[0].count += v[i]->n;
		for (k = 0; k < len; k++) {
			node = tree_child(t, node, path[k]);
			if (node == RP_NONE) {
				free(v);
				return -1;
			}
			t->v[node].count += v[i]->n;
		}
		t->v[node].self += v[i]->n;
		t->paths++;
	}
	free(v);
	return 0;
}

void rp_tree_free(struct rp_tree *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const char *rp_top_task(const struct report *r, const struct rp_pairs *tab,
			uint32_t id)
{
	const uint32_t *top = tab == &r->stack_task ? r->an.top_stack_task :
						      r->an.top_chain_task;

	return top && top[id] != RP_NONE ? rp_str(&r->tasks, top[id]) : "";
}

const struct rp_count *rp_top_task_hits(const struct report *r,
					const struct rp_pairs *tab, uint32_t id)
{
	const uint32_t *top = tab == &r->stack_task ? r->an.top_stack_task :
						      r->an.top_chain_task;

	return top && top[id] != RP_NONE ? rp_pairs_find(tab, id, top[id]) : NULL;
}

void rp_trace_summary(const struct report *r, char *buf, size_t cap)
{
	size_t at;

	snprintf(buf, cap, "tracer %s, %llu entries in %llu lines",
		 r->hdr.tracer[0] ? r->hdr.tracer :
		 r->hdr.tracecmd ? "(trace-cmd report text)" : "(no header)",
		 (unsigned long long)r->entries, (unsigned long long)r->lines);
	at = strlen(buf);
	if (r->hdr.have_entries && at < cap)
		at += (size_t)snprintf(buf + at, cap - at, ", buffer %llu/%llu written",
				       (unsigned long long)r->hdr.in_buffer,
				       (unsigned long long)r->hdr.written);
	if (r->hdr.ncpu > 0 && at < cap)
		at += (size_t)snprintf(buf + at, cap - at, ", %d CPUs", r->hdr.ncpu);
	if (at < cap)
		snprintf(buf + at, cap - at, ", %u distinct stacks", r->stacks.n);
}

static int by_first(const void *x, const void *y, void *arg)
{
	const struct report *r = arg;
	const struct rp_fn *a = &r->fn[*(const uint32_t *)x];
	const struct rp_fn *b = &r->fn[*(const uint32_t *)y];

	if (a->first != b->first)
		return a->first < b->first ? -1 : 1;
	return strcmp(rp_str(&r->names, a->name), rp_str(&r->names, b->name));
}

uint32_t *rp_fn_order(const struct report *r, const char *only, uint32_t *n)
{
	uint32_t *v = malloc((r->nfn ? r->nfn : 1) * sizeof(*v)), i;

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < r->nfn; i++)
		if (only ? !strcmp(rp_str(&r->names, r->fn[i].name), only) :
			   !r->fn[i].lineage || r->fn[i].with_stack)
			v[(*n)++] = i;
	qsort_r(v, *n, sizeof(*v), by_first, (void *)r);
	return v;
}
