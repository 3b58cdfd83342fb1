// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readable report: per traced function, the answer first (culprit
 * chain, task, phase, time), then the evidence (caller tree or stitched
 * parent chains, tasks, parents), then what the trace cannot be trusted
 * for. docs/report.md explains how to read it.
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/fetcharg.h"
#include "report/out/report.h"


static void put_ts(const struct report *r, uint64_t ts, FILE *f)
{
	char b[RP_TS_LEN];

	fprintf(f, "%s%s", rp_ts_text(ts, r->ts_raw, b), r->ts_raw ? "" : " s");
}

static void put_path(const struct report *r, const uint32_t *p, uint32_t n,
		     FILE *f)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " -> " : "", rp_name(r, p[i]));
}

/*
 * "    %8llu  %*s%s\n" of a tree line, without fprintf: a trace with
 * thousands of stacks prints tens of thousands of them, and fprintf was
 * a third of the time after the parse.
 */
static void put_tree_line(FILE *f, uint64_t n, int indent, const char *name)
{
	static const char sp[] = "                                ";
	char num[24], *d = num + sizeof(num);
	size_t w;
	int k;

	do
		*--d = (char)('0' + n % 10);
	while ((n /= 10));
	w = (size_t)(num + sizeof(num) - d);
	fwrite_unlocked(sp, 1, 4 + (w < 8 ? 8 - w : 0), f);
	fwrite_unlocked(d, 1, w, f);
	for (k = indent + 2; k > 0; k -= (int)sizeof(sp) - 1)
		fwrite_unlocked(sp, 1, k < (int)sizeof(sp) - 1 ? (size_t)k :
				sizeof(sp) - 1, f);
	fputs_unlocked(name, f);
	fputc_unlocked('\n', f);
}

static void put_tree(const struct report *r, const struct rp_tree *t,
		     uint32_t node, int depth, FILE *f)
{
	uint32_t c;

	for (c = t->v[node].child; c != RP_NONE; c = t->v[c].next) {
		put_tree_line(f, t->v[c].count, depth * 2,
			      rp_name(r, t->v[c].name));
		put_tree(r, t, c, depth + 1, f);
	}
}

static void put_list(const struct report *r, const struct rp_pairs *p,
		     const struct rp_intern *names, uint32_t fn,
		     const char *label, FILE *f)
{
	size_t n, i;
	struct rp_count **v = rp_pairs_of(p, fn, &n);

	if (!v || !n) {
		free(v);
		return;
	}
	fprintf(f, "  %s:", label);
	for (i = 0; i < n && i < 8; i++)
		fprintf(f, "%s %s (%llu)", i ? "," : "",
			rp_name_in(r, names, rp_key_b(v[i])), (unsigned long long)v[i]->n);
	if (n > 8)
		fprintf(f, ", ... %zu more", n - 8);
	fputc('\n', f);
	free(v);
}

/* Stitched chains, when stacks are missing or useless. */
static void put_chains(const struct report *r, uint32_t fn, FILE *f)
{
	uint32_t path[RP_FRAMES], len;
	size_t n, i;
	struct rp_count **v = rp_pairs_of(&r->fn_chain, fn, &n);

	if (!v)
		return;
	fprintf(f, "  parent chains (%s, outermost first):\n",
		r->hdr.how == RP_READ_GRAPH ? "from the call graph's nesting" :
		"stitched from the <-parent column");
	for (i = 0; i < n && i < 16; i++) {
		len = rp_chain_path(r, rp_key_b(v[i]), path, RP_FRAMES);
		fprintf(f, "    %8llu  ", (unsigned long long)v[i]->n);
		put_path(r, path, len, f);
		fputc('\n', f);
	}
	if (n > 16)
		fprintf(f, "    ... %zu more chains\n", n - 16);
	free(v);
}

/*
 * With lineage events: the answer in words, then one line per task of the
 * lineage (the program it ran, when it exec'd, who forked it when).
 */
static void put_who(const struct report *r, const struct rp_who *w, FILE *f)
{
	char one[400];
	uint32_t i;

	fprintf(f, "    answer: %s\n    lineage (fork/exec events, the task first):\n", w->text);
	for (i = 0; i < w->n; i++) {
		const struct rp_lin_step *s = &w->step[i];

		rp_who_step(r, w->step, w->n, i, one, sizeof(one));
		fprintf(f, "      %s", one);
		if (s->prog) {
			fputs(": exec at ", f);
			put_ts(r, s->exec_ts, f);
			if (s->forked)
				fputc(',', f);
		}
		if (s->forked && (s->prog || s->kernel)) {
			fprintf(f, "%s forked by pid %u at ", s->prog ? "" : ":",
				s->ppid);
			put_ts(r, s->fork_ts, f);
		}
		fputc('\n', f);
	}
}

/* With lineage events: every module load, who loaded it and who asked. */
static void put_loads(const struct report *r, FILE *f)
{
	struct rp_who w;
	uint32_t i;
	int head = 0;

	for (i = 0; i < r->lin.nmod; i++) {
		if (rp_who_load(r, i, &w))
			continue;
		if (!head++)
			fputs("\nmodules loaded (module_load events):\n", f);
		fprintf(f, "  %s\n", w.text);
	}
}

/* The answer's first line: the object its kprobe recorded, if any. */
static void object_line(const struct report *r, const struct rp_fn *fn,
			const uint32_t *path, uint32_t len,
			const struct rp_count *hits, const char *task, FILE *f)
{
	char buf[1024];

	if (!rp_object_words(r, fn->name, rp_key_b(hits), path, len, task, buf,
			     sizeof(buf)))
		return;
	fputs("  ", f);
	bt_fput_text(f, buf);
	fputc('\n', f);
}

static void answer_line(const struct report *r, const struct rp_fn *fn,
			const uint32_t *path, uint32_t len,
			const struct rp_count *hits,
			const char *task, const struct rp_count *by_task,
			int stack, FILE *f)
{
	char vals[600];
	uint32_t c = rp_culprit_start(r, path, len);
	unsigned long long n = (unsigned long long)hits->n;
	struct rp_who w;
	int who = !rp_who(r, path, len, task,
			  by_task ? by_task->first : hits->first, &w);
	char then[400];
	uint64_t probed;

	if (stack)
		object_line(r, fn, path, len, hits, task, f);
	fputs("  culprit: ", f);
	put_path(r, path + c, len - c, f);
	fprintf(f, "\n    by %s", task);
	/* the TASK column's name is the one the pid had when it was read */
	if (who && w.step[0].life != RP_NONE && !rp_task_named(task, w.step[0].name,
							       w.step[0].name_len)) {
		rp_who_step(r, w.step, w.n, 0, then, sizeof(then));
		fprintf(f, " (its name when the trace was read; then %s)", then);
	}
	fprintf(f, ", phase %s, %llu hit%s, %s ",
		rp_phase_name(rp_phase_of(r, path, len, task)), n,
		n == 1 ? "" : "s", n == 1 ? "at" : "first at");
	put_ts(r, hits->first, f);
	fprintf(f, " (%s)\n",
		stack ? "stack trace" : r->hdr.how == RP_READ_GRAPH ?
		"call graph" : "stitched from <-parent columns");
	/* the object the call was about, as its kprobe recorded it */
	if (stack && rp_probe_text(r, &r->stack_probe, rp_key_b(hits), vals, sizeof(vals))) {
		fputs("    recorded by its kprobe: ", f);
		bt_fput_text(f, vals);
		fputc('\n', f);
	} else if (stack && (probed = rp_probe_first(r, fn->name)) != UINT64_MAX &&
		   hits->last < probed) {
		/* boot kprobes start after ftrace= (docs/kernel-facts.md 82) */
		fputs("    recorded by its kprobe: nothing: the call came before the kprobe's first hit at ", f);
		put_ts(r, probed, f);
		fputs(" (the function tracer covers the whole boot, a boot kprobe only from when it is set up)\n", f);
	}
	if (who)
		put_who(r, &w, f);
}

struct shown {
	FILE *f;
	int n, from_stack;
};

static int answer_pick(const struct report *r, const struct rp_fn *fn,
		       const struct rp_pick *p, void *ctx)
{
	struct shown *sh = ctx;

	answer_line(r, fn, p->path, p->len, p->hits,
		    rp_top_task(r, p->tasks, p->id),
		    rp_top_task_hits(r, p->tasks, p->id), p->stack, sh->f);
	sh->from_stack |= p->stack;
	return ++sh->n >= 4;
}

/* The answers (rp_picks): the first 4 culprits. */
static void put_answer(const struct report *r, const struct rp_fn *fn,
		       int *from_stack, FILE *f)
{
	struct shown sh = { f, 0, 0 };

	rp_picks(r, fn, answer_pick, &sh);
	*from_stack = sh.from_stack;
}

/*
 * Beside the culprits, what went wrong in the hook: a cut trace or a lost
 * filter may be why a caller is missing (the same lines are findings).
 */
static void put_hook_errors(const struct rp_snap *snap, FILE *f)
{
	const char *at = NULL, *text;
	int len, kind;

	while ((kind = rp_snap_meta_next(snap, &at, &text, &len)))
		if (kind == RP_META_ERROR)
			fprintf(f, "  hook error, which may have cost this answer: %.*s\n", len, text);
	if (snap && snap->trace_damaged)
		fprintf(f, "  DAMAGED CAPTURE, this answer may be wrong: %s\n",
			snap->damage);
}

static void put_fn(const struct rp_out *o, const struct rp_fn *fn, FILE *f)
{
	const struct report *r = o->r;
	char vals[600];
	uint64_t first;
	struct rp_tree t;
	int from_stack;

	fprintf(f, "\n%s%s: %llu hit%s, first ", rp_name(r, fn->name),
		fn->is_event ? " (event)" : "", (unsigned long long)fn->hits,
		fn->hits == 1 ? "" : "s");
	put_ts(r, fn->first, f);
	if (fn->last != fn->first) {
		fputs(", last ", f);
		put_ts(r, fn->last, f);
	}
	fputc('\n', f);
	if (fn->dur_n)
		fprintf(f, "  time in it: %llu call%s timed, %llu.%03llu us in all, longest %llu.%03llu us\n",
			(unsigned long long)fn->dur_n, fn->dur_n == 1 ? "" : "s",
			(unsigned long long)(fn->dur_total / 1000),
			(unsigned long long)(fn->dur_total % 1000),
			(unsigned long long)(fn->dur_max / 1000),
			(unsigned long long)(fn->dur_max % 1000));
	if (rp_probe_text(r, &r->fn_probe, fn->name, vals, sizeof(vals))) {
		fprintf(f, "  kprobe values: ");
		bt_fput_text(f, vals);
		if (fn->probe_joined)
			fprintf(f, " (%llu kprobe hit%s joined to the call%s they were made in, not counted again)",
				(unsigned long long)fn->probe_joined,
				fn->probe_joined == 1 ? "" : "s",
				fn->probe_joined == 1 ? "" : "s");
		/* boot kprobes start after ftrace= (docs/kernel-facts.md 82) */
		if ((first = rp_probe_first(r, fn->name)) > fn->first) {
			fputs("; the kprobe's first hit at ", f);
			put_ts(r, first, f);
			fputs(": calls before it were not probed", f);
			if (fn->probe_joined && fn->probe_joined < fn->hits)
				fprintf(f, " (%llu of %llu: the function tracer covers the whole boot, a boot kprobe only from when it is set up)",
					(unsigned long long)(fn->hits - fn->probe_joined),
					(unsigned long long)fn->hits);
		}
		fputc('\n', f);
	}
	put_answer(r, fn, &from_stack, f);
	put_hook_errors(o->snap, f);
	put_list(r, &r->fn_task, &r->tasks, fn->name, "tasks", f);
	put_list(r, &r->fn_parent, &r->names, fn->name, "parents", f);
	if (!rp_tree_build(r, fn->name, &t) && t.paths) {
		fprintf(f, "  callers (%llu of %llu hits with a usable stack, outermost first):\n",
			(unsigned long long)t.v[0].count,
			(unsigned long long)fn->hits);
		put_tree(r, &t, 0, 0, f);
	}
	rp_tree_free(&t);
	if (!from_stack && !fn->is_event)
		put_chains(r, fn->name, f);
}

#define TEXT_ICALLS 10	/* initcalls listed; -f json has them all */

/*
 * With initcall events: the boot's phases and the longest initcalls
 * (report_timeline.c, the numbers the pictures draw).
 */
static int put_timeline(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	const struct rp_timeline *t = &r->tl;
	struct rp_tl_phases ph;
	uint64_t d;
	uint32_t *v, n, i;
	int k;

	if (!t->nlevel && !t->nicall)
		return 0;
	rp_tl_phases(r, o->snap, &ph);
	fputs("\nboot phases (the kernel's initcall_level events, pid 1's execs, the hook's snapshot):\n", f);
	for (k = 0; k < ph.n; k++) {
		fprintf(f, "  %-20s ", ph.v[k].name);
		put_ts(r, ph.v[k].from, f);
		fputs(" - ", f);
		put_ts(r, ph.v[k].to, f);
		fputc('\n', f);
	}
	for (k = 0; k < ph.nmissing; k++)
		fprintf(f, "  missing: %s\n", ph.missing[k]);
	if (!(v = rp_tl_by_length(t, &n)))
		return -1;
	fprintf(f, "initcalls: %u timed (initcall_start to initcall_finish), %u never finished, %llu finish%s without a start%s\n",
		n, t->nicall - n, (unsigned long long)t->unpaired,
		t->unpaired == 1 ? "" : "es", n ? "; the longest:" : "");
	for (i = 0; i < n && i < TEXT_ICALLS; i++) {
		d = t->icall[v[i]].end - t->icall[v[i]].start;
		fprintf(f, "  %8llu.%03llu ms  %s (%s, %s, ret %d)\n",
			(unsigned long long)(d / 1000000),
			(unsigned long long)(d / 1000 % 1000),
			rp_str(&r->progs, t->icall[v[i]].fn),
			rp_tl_level_name(r, &t->icall[v[i]]),
			rp_str(&r->tasks, t->icall[v[i]].task), (int)t->icall[v[i]].ret);
	}
	if (n > TEXT_ICALLS)
		fprintf(f, "  ... %u more (-f json lists them all)\n", n - TEXT_ICALLS);
	free(v);
	return 0;
}

/*
 * The boot's question, first: what was asked, the trace's window, and,
 * when the window does not hold the answer, why and what to change.
 */
static void put_question(const struct rp_out *o, FILE *f)
{
	struct rp_question q;
	int k;

	if (!rp_question(o->r, o->snap, &q))
		return;
	for (k = 0; k < q.nsaid; k++) {
		if (q.said[k].warn)
			fputs("! ", f);
		bt_fput_text(f, q.said[k].text);
		fputc('\n', f);
	}
}

int rp_print_text(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	uint32_t *order, n, i;
	char summary[200];
	int k;

	fprintf(f, "boottrace report: %s (%s", o->input, o->kind);
	if (o->snap && o->snap->boot_id[0])
		fprintf(f, " %s", o->snap->boot_id);
	if (o->snap && o->snap->release)
		fprintf(f, ", kernel %s", o->snap->release);
	fputs(")\n", f);
	put_question(o, f);
	if (o->snap && o->snap->pstore)	/* the previous boot's, first */
		rp_pstore_text(o->snap->pstore, o->snap->pstore->from_dir ?
			       o->snap->pstore->dump : o->snap->dump, f);
	rp_trace_summary(r, summary, sizeof(summary));
	fprintf(f, "trace: %s\n", summary);
	if (o->snap && o->snap->dump)
		rp_dump_text(o->snap->dump, f);
	if (rp_lineage_any(r))
		fprintf(f, "lineage: %llu forks, %llu execs, %llu exits, %llu module loads, %llu module requests (sched_process_* and module_* events: who ran what)\n",
			(unsigned long long)r->lin.n[RP_PROC_FORK],
			(unsigned long long)r->lin.n[RP_PROC_EXEC],
			(unsigned long long)r->lin.n[RP_PROC_EXIT],
			(unsigned long long)r->lin.n[RP_PROC_MODLOAD],
			(unsigned long long)r->lin.n[RP_PROC_MODREQ]);
	order = rp_fn_order(r, o->only, &n);
	if (!order)
		return -1;
	for (i = 0; i < n; i++)
		put_fn(o, &r->fn[order[i]], f);
	if (o->only && !n)
		fprintf(f, "\n%s: no hit in this trace\n", o->only);
	free(order);
	put_loads(r, f);
	if (put_timeline(o, f))
		return -1;
	if (o->snap && o->snap->prev &&
	    rp_prev_print_text(o->snap->prev, o->snap->prev_syms, f))
		return -1;
	if (o->q->n)
		fputs("\nevidence:\n", f);
	for (k = 0; k < o->q->n; k++)
		fprintf(f, "  %s %s\n", o->q->v[k].warn ? "!" : "-",
			o->q->v[k].text);
	return ferror(f) ? -1 : 0;
}
