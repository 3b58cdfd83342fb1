// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Counting: the lexer's events (report_lex.c) -> per-function hits, tasks,
 * stacks and parent chains. Events come in batches, in trace order, maybe
 * on a thread of their own (report_feed.c): nothing here reads the text
 * or the tables the lexer interns into, and nothing allocates per event
 * (tables grow by doubling).
 */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

void report_init(struct report *r)
{
	memset(r, 0, sizeof(*r));
	r->hdr.ncpu = -1;
}

void report_free(struct report *r)
{
	rp_intern_free(&r->names);
	rp_intern_free(&r->tasks);
	free(r->fn);
	free(r->fn_of);
	rp_pairs_free(&r->fn_task);
	rp_pairs_free(&r->fn_stack);
	rp_pairs_free(&r->fn_chain);
	rp_pairs_free(&r->fn_parent);
	rp_pairs_free(&r->stack_task);
	rp_pairs_free(&r->chain_task);
	free(r->top_stack_task);
	free(r->top_chain_task);
	rp_stacks_free(&r->stacks);
	rp_chains_free(&r->chains);
	free(r->pend);
	free(r->prefix);
	rp_intern_free(&r->bodies);
	free(r->body_fn);
	free(r->body_parent);
	free(r->batch);
	memset(r, 0, sizeof(*r));
}

const char *rp_phase_name(enum rp_phase ph)
{
	static const char *const name[RP_PH_N] = {
		"unknown", "initcall", "module-load", "syscall", "kthread",
		"irq",
	};

	return ph < RP_PH_N ? name[ph] : "unknown";
}

static int name_is(const struct report *r, uint32_t id, const char *s)
{
	return !strcmp(rp_str(&r->names, id), s);
}

static int comm_is(const char *task, const char *prefix)
{
	return !strncmp(task, prefix, strlen(prefix));
}

enum rp_phase rp_phase_of(const struct report *r, const uint32_t *frame,
			  uint32_t n, const char *task)
{
	int initcall = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (frame[i] == RP_NONE)
			continue;
		if (name_is(r, frame[i], "do_init_module") ||
		    name_is(r, frame[i], "load_module") ||
		    name_is(r, frame[i], "__do_sys_finit_module") ||
		    name_is(r, frame[i], "__do_sys_init_module"))
			return RP_PH_MODULE;
		if (name_is(r, frame[i], "kernel_init_freeable") ||
		    name_is(r, frame[i], "do_initcalls") ||
		    name_is(r, frame[i], "do_basic_setup"))
			return RP_PH_INITCALL;
		if (name_is(r, frame[i], "do_one_initcall"))
			initcall = 1;
	}
	if (initcall)	/* no deeper frame: who ran it decides */
		return task && comm_is(task, "swapper") ? RP_PH_INITCALL :
							   RP_PH_MODULE;
	for (i = 0; i < n; i++) {
		const char *f;

		if (frame[i] == RP_NONE)
			continue;
		f = rp_str(&r->names, frame[i]);
		if (!strncmp(f, "do_syscall", 10) ||
		    !strncmp(f, "entry_SYSCALL", 13) || !strcmp(f, "syscall_common") ||
		    !strncmp(f, "el0_svc", 7) || !strcmp(f, "handle_sys"))
			return RP_PH_SYSCALL;
		if (!strcmp(f, "worker_thread") || !strcmp(f, "kthread"))
			return RP_PH_KTHREAD;
		if (!strncmp(f, "asm_common_interrupt", 20) ||
		    !strcmp(f, "irq_exit_rcu") || !strcmp(f, "__do_softirq"))
			return RP_PH_IRQ;
	}
	if (task && comm_is(task, "swapper"))
		return RP_PH_INITCALL;
	if (task && (comm_is(task, "kworker") || comm_is(task, "ksoftirqd")))
		return RP_PH_KTHREAD;
	return RP_PH_UNKNOWN;
}

/* The function record of name @id, created on first sight. */
static struct rp_fn *fn_get(struct report *r, uint32_t id)
{
	struct rp_fn *f;

	if (id >= r->cap_of) {
		uint32_t cap = r->cap_of ? r->cap_of : 256, *o;

		while (cap <= id)
			cap *= 2;
		o = realloc(r->fn_of, cap * sizeof(*o));
		if (!o)
			return NULL;
		memset(o + r->cap_of, 0, (cap - r->cap_of) * sizeof(*o));
		r->fn_of = o;
		r->cap_of = cap;
	}
	if (r->fn_of[id])
		return &r->fn[r->fn_of[id] - 1];
	if (r->nfn == r->capfn) {
		uint32_t cap = r->capfn ? r->capfn * 2 : 64;

		f = realloc(r->fn, cap * sizeof(*f));
		if (!f)
			return NULL;
		r->fn = f;
		r->capfn = cap;
	}
	f = &r->fn[r->nfn];
	memset(f, 0, sizeof(*f));
	f->name = id;
	f->first = UINT64_MAX;
	r->fn_of[id] = ++r->nfn;
	return f;
}

static int count_hit(struct report *r, const struct rp_ev *ev)
{
	struct rp_fn *f = fn_get(r, ev->fn);

	if (!f)
		return -1;
	f->is_event |= ev->kind == RP_EV_EVENT;
	f->hits++;
	if (ev->ts < f->first)
		f->first = ev->ts;
	if (ev->ts > f->last)
		f->last = ev->ts;
	if (!rp_pairs_add(&r->fn_task, ev->fn, ev->task, ev->ts))
		return -1;
	if (ev->other != RP_NONE &&
	    !rp_pairs_add(&r->fn_parent, ev->fn, ev->other, ev->ts))
		return -1;
	if (ev->kind == RP_EV_FUNC) {
		uint32_t node = rp_chain_hit(&r->chains, ev->pid, ev->fn,
					     ev->other);

		if (node == RP_NONE ||
		    !rp_pairs_add(&r->fn_chain, ev->fn, node, ev->ts) ||
		    !rp_pairs_add(&r->chain_task, node, ev->task, ev->ts))
			return -1;
	}
	return 0;
}

/* The hit it belongs to was counted before it: its record exists. */
static int count_stack(struct report *r, const struct rp_ev *ev)
{
	if (!rp_pairs_add(&r->fn_stack, ev->fn, ev->other, ev->ts) ||
	    !rp_pairs_add(&r->stack_task, ev->other, ev->task, ev->ts))
		return -1;
	r->fn[r->fn_of[ev->fn] - 1].with_stack++;
	return 0;
}

int rp_count(struct report *r, const struct rp_ev *ev, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (ev[i].kind == RP_EV_STACK ? count_stack(r, &ev[i]) :
						count_hit(r, &ev[i]))
			return -1;
	return 0;
}
