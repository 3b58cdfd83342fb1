// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FlameGraph folded stacks: "outer;...;caller;function COUNT" per line,
 * one line per distinct caller path (usable stacks, else stitched parent
 * chains, else the bare function), under frames for the task's lineage
 * when the trace has lineage events. Frames never hold ';' or spaces-only
 * text: flamegraph.pl splits frames on ';' and the count on the last space.
 */
#include <stdlib.h>
#include <string.h>

#include "report/out/report.h"


static void frame_n(const char *s, size_t n, FILE *f)
{
	if (!n) {
		fputc('?', f);
		return;
	}
	for (; n--; s++)
		fputc(*s == ';' || (unsigned char)*s <= ' ' ? '_' : *s, f);
}

static void frame(const char *s, FILE *f)
{
	frame_n(s, strlen(s), f);
}

static void line(const struct report *r, const uint32_t *p, uint32_t n,
		 uint64_t count, FILE *f)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (i)
			fputc(';', f);
		frame(rp_name(r, p[i]), f);
	}
	fprintf(f, " %llu\n", (unsigned long long)count);
}

/* Leaves and inner ends of the tree, each with its own count. */
static void tree_lines(const struct report *r, const struct rp_tree *t,
		       uint32_t node, uint32_t *path, uint32_t depth, FILE *f)
{
	uint32_t c;

	if (node && depth <= RP_FRAMES) {
		path[depth - 1] = t->v[node].name;
		if (t->v[node].self)
			line(r, path, depth, t->v[node].self, f);
	}
	if (depth >= RP_FRAMES)
		return;
	for (c = t->v[node].child; c != RP_NONE; c = t->v[c].next)
		tree_lines(r, t, c, path, depth + 1, f);
}

/*
 * With lineage events: one line per (path, task), under frames for the
 * task's lineage, outermost first: "[/init-1];[/bin/make-links.sh-97];
 * [ip-98];entry_SYSCALL_64...". @tab: stack_task or chain_task.
 */
static void who_lines(const struct report *r, const uint32_t *path,
		      uint32_t len, const struct rp_pairs *tab, uint32_t id,
		      FILE *f)
{
	struct rp_lin_step st[RP_LIN_MAX];
	struct rp_count **v;
	size_t n, i;
	uint32_t k, pid;

	v = rp_pairs_of(tab, id, &n);
	for (i = 0; v && i < n; i++) {
		const char *task = rp_str(&r->tasks, rp_key_b(v[i]));

		pid = rp_task_pid(task);
		k = pid == RP_NONE ? 0 : rp_lineage_of(r, pid, v[i]->first, st, RP_LIN_MAX);
		while (k-- > 0) {
			fputc('[', f);
			if (st[k].prog)
				frame(st[k].prog, f);
			else
				frame_n(st[k].name, (size_t)st[k].name_len, f);
			fprintf(f, "-%u];", st[k].pid);
		}
		line(r, path, len, v[i]->n, f);
	}
	free(v);
}

static int who_pick(const struct report *r, const struct rp_fn *fn,
		    const struct rp_pick *p, void *ctx)
{
	(void)fn;
	who_lines(r, p->path, p->len, p->tasks, p->id, ctx);
	return 0;
}

static int fn_lines(const struct report *r, const struct rp_fn *fn, FILE *f)
{
	uint32_t path[RP_FRAMES], len;
	uint64_t done = 0;
	struct rp_tree t;
	struct rp_count **v;
	size_t n, i;

	if (rp_lineage_any(r)) {
		int k = rp_picks(r, fn, who_pick, f);

		if (k < 0)
			return -1;
		if (k)
			return 0;
	}
	if (rp_tree_build(r, fn->name, &t))
		return -1;
	tree_lines(r, &t, 0, path, 0, f);
	done = t.v[0].count;
	rp_tree_free(&t);
	if (done)
		return 0;
	v = rp_pairs_of(&r->fn_chain, fn->name, &n);
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		len = rp_chain_path(r, rp_key_b(v[i]), path, RP_FRAMES);
		line(r, path, len, v[i]->n, f);
		done += v[i]->n;
	}
	free(v);
	if (!done)
		line(r, &fn->name, 1, fn->hits, f);
	return 0;
}

int rp_print_folded(const struct rp_out *o, FILE *f)
{
	uint32_t *order, n, i;

	order = rp_fn_order(o->r, o->only, &n);
	if (!order)
		return -1;
	for (i = 0; i < n; i++)
		if (fn_lines(o->r, &o->r->fn[order[i]], f)) {
			free(order);
			return -1;
		}
	free(order);
	return ferror(f) ? -1 : 0;
}
