// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report as Chrome trace-event JSON (the JSON Object Format of the
 * Chromium project's "Trace Event Format"), which ui.perfetto.dev and
 * chrome://tracing load: one process for the boot, one thread (track) per
 * task, instant events ("ph": "i") for the first and last hit of each
 * function on each task and for each culprit's first hit (its stack in
 * args), and for function_graph durations a complete event ("ph": "X")
 * per timed function. Times are microseconds ("ts" has ns precision).
 *
 * The report keeps counters, not each call: an instant is a first or a
 * last hit and args carry the count; a slice is the longest timed call
 * placed at the function's first hit (args say so). Each initcall timed
 * (initcall_start to initcall_finish) is a complete slice on its task's
 * track, the boot's phases slices on a track of their own, and a boot that
 * died a global instant and "boot_died" in otherData. docs/report.md.
 */
#include <stdlib.h>
#include <string.h>

#include "report/out/pic.h"

#define MAX_ANSWERS 16

static void us(const struct report *r, uint64_t ts, FILE *f)
{
	(void)r;
	fprintf(f, "%llu.%03llu", (unsigned long long)(ts / 1000),
		(unsigned long long)(ts % 1000));
}

static void task_meta(const struct report *r, FILE *f)
{
	uint32_t t;

	for (t = 0; t < r->tasks.n; t++) {
		fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": {\"name\": ", t + 1);
		rp_put_json(rp_str(&r->tasks, t), f);
		fprintf(f, "}},\n{\"name\": \"thread_sort_index\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": {\"sort_index\": %u}}",
			t + 1, t);
	}
}

static void instant(const struct report *r, const char *cat, uint32_t fn,
		    uint32_t task, uint64_t ts, FILE *f)
{
	fputs(",\n{\"name\": ", f);
	rp_put_json(rp_name(r, fn), f);
	fprintf(f, ", \"cat\": \"%s\", \"ph\": \"i\", \"s\": \"t\", \"ts\": ", cat);
	us(r, ts, f);
	fprintf(f, ", \"pid\": 1, \"tid\": %u, \"args\": {", task + 1);
}

static int fn_events(const struct report *r, const struct rp_fn *fn,
		     struct rp_answer *a, FILE *f)
{
	struct rp_count **v;
	char words[4096];
	size_t n, i;
	uint32_t k, tid;
	int na, j;

	v = rp_pairs_of(&r->fn_task, fn->name, &n);
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		instant(r, "hit", fn->name, rp_key_b(v[i]), v[i]->first, f);
		fprintf(f, "\"hit\": \"first\", \"hits_on_task\": %llu}}",
			(unsigned long long)v[i]->n);
		if (v[i]->n > 1) {
			instant(r, "hit", fn->name, rp_key_b(v[i]), v[i]->last, f);
			fprintf(f, "\"hit\": \"last\", \"hits_on_task\": %llu}}",
				(unsigned long long)v[i]->n);
		}
	}
	free(v);
	na = rp_answers(r, fn, a, MAX_ANSWERS);
	if (na < 0)
		return -1;
	for (j = 0; j < na; j++) {
		tid = *a[j].task ? rp_intern_find(&r->tasks, a[j].task,
						  strlen(a[j].task)) : RP_NONE;
		if (tid == RP_NONE)
			continue;
		instant(r, "culprit", fn->name, tid, a[j].first, f);
		rp_answer_words(r, &a[j], words, sizeof(words));
		fputs("\"culprit\": ", f);
		rp_put_json(words, f);
		fprintf(f, ", \"hits\": %llu, \"phase\": \"%s\", \"source\": \"%s\", \"stack\": [",
			(unsigned long long)a[j].n, rp_phase_name(a[j].phase),
			rp_answer_source(r, &a[j]));
		for (k = 0; k < a[j].len; k++) {
			if (k)
				fputs(", ", f);
			rp_put_json(rp_name(r, a[j].path[k]), f);
		}
		fputs("]}}", f);
	}
	if (fn->dur_n) {
		v = rp_pairs_of(&r->fn_task, fn->name, &n);
		if (!v)
			return -1;
		tid = n ? rp_key_b(v[0]) : 0;
		free(v);
		fputs(",\n{\"name\": ", f);
		rp_put_json(rp_name(r, fn->name), f);
		fputs(", \"cat\": \"duration\", \"ph\": \"X\", \"ts\": ", f);
		us(r, fn->first, f);
		fputs(", \"dur\": ", f);
		us(r, fn->dur_max, f);
		fprintf(f, ", \"pid\": 1, \"tid\": %u, \"args\": {\"calls_timed\": %llu, \"total_us\": ",
			tid + 1, (unsigned long long)fn->dur_n);
		us(r, fn->dur_total, f);
		fputs(", \"note\": \"the longest timed call, placed at the first hit: the report keeps the longest and the sum, not each call\"}}", f);
	}
	return 0;
}

/* Each initcall timed, a complete slice on its task's track (report_timeline.c). */
static int icall_slices(const struct report *r, FILE *f)
{
	uint32_t *v, n, i;

	if (!(v = rp_tl_by_length(&r->tl, &n)))
		return -1;
	for (i = 0; i < n; i++) {
		const struct rp_tl_icall *c = &r->tl.icall[v[i]];

		fputs(",\n{\"name\": ", f);
		rp_put_json(rp_str(&r->progs, c->fn), f);
		fputs(", \"cat\": \"initcall\", \"ph\": \"X\", \"ts\": ", f);
		us(r, c->start, f);
		fputs(", \"dur\": ", f);
		us(r, c->end - c->start, f);
		fprintf(f, ", \"pid\": 1, \"tid\": %u, \"args\": {\"level\": ", c->task + 1);
		rp_put_json(rp_tl_level_name(r, c), f);
		fprintf(f, ", \"ret\": %d}}", (int)c->ret);
	}
	free(v);
	return 0;
}

/* The boot's phases (report_timeline.c) as slices on a track of their own. */
static int phase_slices(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	struct rp_tl_phases ph;
	uint32_t tid = r->tasks.n + 1;
	int i;

	rp_tl_phases(r, o->snap, &ph);
	if (!ph.n)
		return 0;
	fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": {\"name\": \"boot\"}}", tid);
	for (i = 0; i < ph.n; i++) {
		fputs(",\n{\"name\": ", f);
		rp_put_json(ph.v[i].name, f);
		fputs(", \"cat\": \"phase\", \"ph\": \"X\", \"ts\": ", f);
		us(r, ph.v[i].from, f);
		fputs(", \"dur\": ", f);
		us(r, ph.v[i].to - ph.v[i].from, f);
		fprintf(f, ", \"pid\": 1, \"tid\": %u, \"args\": {\"bounds\": ", tid);
		rp_put_json(ph.v[i].how, f);
		fputs("}}", f);
	}
	return 1;
}

int rp_print_perfetto(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	struct rp_answer *a = malloc(MAX_ANSWERS * sizeof(*a));
	uint32_t *order = NULL, n, i;
	uint64_t t0, t1;
	char name[600], words[800];
	int ret = -1, died, boot_track;

	if (!a || !(order = rp_fn_order(r, o->only, &n)))
		goto out;
	snprintf(name, sizeof(name), "boot: %s", o->input);
	fputs("{\"displayTimeUnit\": \"ms\",\n\"otherData\": {\"generator\": \"boottrace report -f perfetto\", \"input\": ", f);
	rp_put_json(o->input, f);
	if ((died = rp_crash_words(o->snap, words, sizeof(words)))) {
		fputs(", \"boot_died\": ", f);
		rp_put_json(words, f);
	}
	fprintf(f, ", \"clock\": \"%s\"},\n\"traceEvents\": [\n"
		"{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": ",
		r->ts_raw ? "raw counter (1 unit shown as 1 ns)" : "trace clock");
	rp_put_json(name, f);
	fputs("}}", f);
	task_meta(r, f);
	rp_trace_span(r, &t0, &t1);
	for (i = 0; i < n; i++)
		if (fn_events(r, &r->fn[order[i]], a, f))
			goto out;
	if (icall_slices(r, f))
		goto out;
	boot_track = r->nfn && phase_slices(o, f);
	if (died) {	/* a global instant at the trace's last event, on the "boot" track */
		if (!boot_track)
			fprintf(f, ",\n{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": %u, \"args\": {\"name\": \"boot\"}}",
				r->tasks.n + 1);
		fputs(",\n{\"name\": \"the boot died\", \"cat\": \"crash\", \"ph\": \"i\", \"s\": \"g\", \"ts\": ", f);
		us(r, r->nfn ? t1 : 0, f);
		fprintf(f, ", \"pid\": 1, \"tid\": %u, \"args\": {\"crash\": ", r->tasks.n + 1);
		rp_put_json(words, f);
		fputs(", \"note\": \"at the trace's last event: the dump does not time the death\"}}", f);
	}
	fputs("\n]}\n", f);
	ret = ferror(f) ? -1 : 0;
out:
	free(order);
	free(a);
	return ret;
}
