// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report as JSON for tools: schema "boottrace-report", version 1,
 * documented field by field in docs/report-schema.md. Strings from the
 * trace are escaped so that any input gives valid JSON (bytes >= 0x80 are
 * written as \u00XX: traces are ASCII, garbage must not break a parser).
 */
#include <stdlib.h>
#include <string.h>

#include "kernel/fetcharg.h"
#include "report/out/report.h"
#include "util/json.h"

#define RP_SCHEMA_VERSION 1

static void js(const char *s, FILE *f)
{
	json_fputs(f, s);
}

static void jts(const struct report *r, uint64_t ts, FILE *f)
{
	char b[RP_TS_LEN];

	fputs(rp_ts_text(ts, r->ts_raw, b), f);
}

static void jpath(const struct report *r, const uint32_t *p, uint32_t n,
		  FILE *f)
{
	uint32_t i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		js(rp_str(&r->names, p[i]), f);
	}
	fputc(']', f);
}

static void jtasks(const struct report *r, uint32_t fn, FILE *f)
{
	size_t n, i;
	struct rp_count **v = rp_pairs_of(&r->fn_task, fn, &n);

	fputs("      \"tasks\": [", f);
	for (i = 0; v && i < n; i++) {
		const char *t = rp_str(&r->tasks, rp_key_b(v[i]));
		const char *d = strrchr(t, '-');

		fprintf(f, "%s\n        {\"task\": ", i ? "," : "");
		js(t, f);
		fprintf(f, ", \"pid\": %s, \"hits\": %llu, \"first\": ",
			d ? d + 1 : "null", (unsigned long long)v[i]->n);
		jts(r, v[i]->first, f);
		fputc('}', f);
	}
	fputs(n ? "\n      ],\n" : "],\n", f);
	free(v);
}

/*
 * [{"@key": "...", "@count": N}, ...]: the b side of @a's pairs in @tab,
 * named from @names, most first (parents, kprobe values).
 */
static void jcounted(const struct rp_pairs *tab, uint32_t a,
		     const struct rp_intern *names, const char *key,
		     const char *count, FILE *f)
{
	size_t n = 0, i;
	struct rp_count **v = tab->used ? rp_pairs_of(tab, a, &n) : NULL;

	fputc('[', f);
	for (i = 0; v && i < n; i++) {
		fprintf(f, "%s{\"%s\": ", i ? ", " : "", key);
		js(rp_str(names, rp_key_b(v[i])), f);
		fprintf(f, ", \"%s\": %llu}", count, (unsigned long long)v[i]->n);
	}
	fputc(']', f);
	free(v);
}

static void jparents(const struct report *r, uint32_t fn, FILE *f)
{
	fputs("      \"parents\": ", f);
	jcounted(&r->fn_parent, fn, &r->names, "name", "hits", f);
	fputs(",\n", f);
}

static const char *why(uint8_t flag)
{
	if (flag & RP_FR_TRAMP)
		return "trampoline";
	if (flag & RP_FR_ZERO)
		return "zero";
	if (flag & RP_FR_STALE)
		return "stale";
	if (flag & RP_FR_TRACER)
		return "tracer";
	return NULL;
}

/* Why a frame's name is not the trace's (report_frame.c). */
static const char *renamed_why(uint8_t flag)
{
	return flag & RP_FR_INIT ? "freed-init" : "unverified";
}

static void jstacks(const struct report *r, uint32_t fn, FILE *f)
{
	uint32_t path[RP_FRAMES], len, k;
	size_t n, i;
	struct rp_count **v = rp_pairs_of(&r->fn_stack, fn, &n);

	fputs("      \"stacks\": [", f);
	for (i = 0; v && i < n; i++) {
		const struct rp_stack *s = &r->stacks.s[rp_key_b(v[i])];
		const char *task = rp_top_task(r, &r->stack_task, rp_key_b(v[i]));
		int first = 1;
		size_t named;

		len = rp_stack_path(r, rp_key_b(v[i]), fn, path, RP_FRAMES);
		fprintf(f, "%s\n        {\"count\": %llu, \"usable\": %s, \"phase\": \"%s\", \"task\": ",
			i ? "," : "", (unsigned long long)v[i]->n,
			s->useless ? "false" : "true",
			s->useless ? "unknown" :
				     rp_phase_name(rp_phase_of(r, path, len, task)));
		js(task, f);
		fputs(", \"callers\": ", f);
		jpath(r, path, s->useless ? 0 : len, f);
		fputs(", \"raw\": [", f);
		for (k = 0; k < s->nframes; k++) {
			fputs(k ? ", " : "", f);
			js(rp_str(&r->names, s->was ? s->was[k] : s->frame[k]), f);
		}
		fputs("], \"renamed\": [", f);
		for (k = 0; s->was && k < s->nframes; k++) {
			if (s->was[k] == s->frame[k])
				continue;
			fputs(first ? "{\"frame\": " : ", {\"frame\": ", f);
			js(rp_str(&r->names, s->was[k]), f);
			fputs(", \"as\": ", f);
			js(rp_str(&r->names, s->frame[k]), f);
			fprintf(f, ", \"why\": \"%s\"", renamed_why(s->flag[k]));
			/* named from its module's .ko (--modules DIR) */
			if ((s->flag[k] & RP_FR_INIT) &&
			    (named = rp_frame_ko_named(rp_str(&r->names, s->frame[k])))) {
				fputs(", \"function\": ", f);
				json_fput(f, rp_str(&r->names, s->frame[k]), named);
			}
			fputc('}', f);
			first = 0;
		}
		first = 1;
		fputs("], \"dropped\": [", f);
		for (k = 0; k < s->nframes; k++) {
			if (!why(s->flag[k]))
				continue;
			fputs(first ? "{\"frame\": " : ", {\"frame\": ", f);
			js(rp_str(&r->names, s->frame[k]), f);
			fprintf(f, ", \"why\": \"%s\"}", why(s->flag[k]));
			first = 0;
		}
		fputs("]}", f);
	}
	fputs(n ? "\n      ],\n" : "],\n", f);
	free(v);
}

static void jchains(const struct report *r, uint32_t fn, FILE *f)
{
	uint32_t path[RP_FRAMES], len;
	size_t n, i;
	struct rp_count **v = rp_pairs_of(&r->fn_chain, fn, &n);

	fputs("      \"chains\": [", f);
	for (i = 0; v && i < n; i++) {
		uint32_t node = rp_key_b(v[i]);
		const char *task = rp_top_task(r, &r->chain_task, node);

		len = rp_chain_path(r, node, path, RP_FRAMES);
		fprintf(f, "%s\n        {\"count\": %llu, \"phase\": \"%s\", \"task\": ", i ? "," : "",
			(unsigned long long)v[i]->n,
			rp_phase_name(rp_phase_of(r, path, len, task)));
		js(task, f);
		fputs(", \"functions\": ", f);
		jpath(r, path, len, f);
		fputc('}', f);
	}
	fputs(n ? "\n      ]\n" : "]\n", f);
	free(v);
}

static void jlineage(const struct report *r, const struct rp_lin_step *st,
		     uint32_t n, FILE *f)
{
	char one[400];
	uint32_t i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		const struct rp_lin_step *s = &st[i];

		rp_who_step(r, st, n, i, one, sizeof(one));
		fprintf(f, "%s{\"pid\": %u, \"name\": ", i ? ", " : "", s->pid);
		js(s->name, f);
		fputs(", \"program\": ", f);
		js(s->prog, f);
		fputs(", \"exec\": ", f);
		if (s->prog)
			jts(r, s->exec_ts, f);
		else
			fputs("null", f);
		fputs(", \"forked\": ", f);
		if (s->forked)
			jts(r, s->fork_ts, f);
		else
			fputs("null", f);
		fputs(", \"parent_pid\": ", f);
		if (s->forked)
			fprintf(f, "%u", s->ppid);
		else
			fputs("null", f);
		fprintf(f, ", \"kernel\": %s, \"text\": ", s->kernel ? "true" : "false");
		js(one, f);
		fputc('}', f);
	}
	fputc(']', f);
}

/*
 * ", "answer": ..., "lineage": [...], "requested_by": ..." of @w: the
 * request is that of a loader a kernel worker started, or null.
 */
static void janswer_of(const struct report *r, const struct rp_who *w, FILE *f)
{
	fputs(", \"answer\": ", f);
	js(w->text, f);
	fputs(", \"lineage\": ", f);
	jlineage(r, w->step, w->n, f);
	fputs(", \"requested_by\": ", f);
	if (!w->req_task) {
		fputs("null", f);
		return;
	}
	fputs("{\"task\": ", f);
	js(w->req_task, f);
	fputs(", \"request\": ", f);
	js(w->req_module, f);
	fputs(", \"at\": ", f);
	jts(r, w->req_ts, f);
	fputs(", \"lineage\": ", f);
	jlineage(r, w->req_step, w->req_n, f);
	fputc('}', f);
}

/* With lineage events: "who", the answer in words and the lineage. */
static void jwho(const struct report *r, const uint32_t *path, uint32_t len,
		 const char *task, uint64_t ts, FILE *f)
{
	struct rp_who w;

	if (rp_who(r, path, len, task, ts, &w))
		return;
	fprintf(f, ", \"who\": {\"kind\": \"%s\", \"module\": ", w.kind_name);
	js(w.module, f);	/* null when there is none */
	fputs(", \"via\": ", f);
	js(w.via, f);	/* null when there is none */
	janswer_of(r, &w, f);
	fputc('}', f);
}

/* With lineage events: "module_loads", each with its loader's lineage. */
static void jloads(const struct report *r, FILE *f)
{
	struct rp_who w;
	uint32_t i;
	int k = 0;

	if (!rp_lineage_any(r))
		return;
	fputs("  \"module_loads\": [", f);
	for (i = 0; i < r->lin.nmod; i++) {
		if (rp_who_load(r, i, &w))
			continue;
		fputs(k++ ? ",\n    {\"module\": " : "\n    {\"module\": ", f);
		js(w.module, f);
		fputs(", \"at\": ", f);
		jts(r, r->lin.mod[i].ts, f);
		fputs(", \"task\": ", f);
		js(rp_str(&r->tasks, r->lin.mod[i].task), f);
		janswer_of(r, &w, f);
		fputc('}', f);
	}
	fputs(k ? "\n  ],\n" : "],\n", f);
}

/*
 * The object the calls on a path were about, as the text's first line
 * names it (report_text.c object_line): "object": {"names": "bond1",
 * "pattern": false, "kind": "network device"}, or nothing.
 */
static void jobject(const struct report *r, uint32_t fn,
		    const struct rp_count *hits, FILE *f)
{
	const char *kind = fetcharg_creates(rp_str(&r->names, fn));
	char objs[300];
	int pattern;

	if (!rp_probe_objects(r, &r->stack_probe, rp_key_b(hits), objs,
			      sizeof(objs), &pattern))
		return;
	fputs(", \"object\": {\"names\": ", f);
	js(objs, f);
	fprintf(f, ", \"pattern\": %s, \"kind\": ", pattern ? "true" : "false");
	if (kind)
		js(kind, f);
	else
		fputs("null", f);
	fputc('}', f);
}

static void jculprit(const struct report *r, const uint32_t *path,
		     uint32_t len, const struct rp_count *hits, const char *task,
		     const struct rp_count *by_task, const char *src, int comma,
		     FILE *f)
{
	uint32_t c = rp_culprit_start(r, path, len);

	fputs(comma ? ",\n        {\"chain\": " : "\n        {\"chain\": ", f);
	jpath(r, path + c, len - c, f);
	fputs(", \"full\": ", f);
	jpath(r, path, len, f);
	fprintf(f, ", \"source\": \"%s\", \"hits\": %llu, \"first\": ", src,
		(unsigned long long)hits->n);
	jts(r, hits->first, f);
	fputs(", \"task\": ", f);
	js(task, f);
	fprintf(f, ", \"phase\": \"%s\"",
		rp_phase_name(rp_phase_of(r, path, len, task)));
	jwho(r, path, len, task, by_task ? by_task->first : hits->first, f);
	if (!strcmp(src, "stack")) {
		fputs(", \"recorded\": ", f);
		jcounted(&r->stack_probe, rp_key_b(hits), &r->progs, "values", "count", f);
		jobject(r, path[len - 1], hits, f);
	}
	fputc('}', f);
}

struct jcount {
	FILE *f;
	int k;
};

static int janswer_pick(const struct report *r, const struct rp_fn *fn,
			const struct rp_pick *p, void *ctx)
{
	struct jcount *c = ctx;

	(void)fn;
	jculprit(r, p->path, p->len, p->hits, rp_top_task(r, p->tasks, p->id),
		 rp_top_task_hits(r, p->tasks, p->id),
		 p->stack ? "stack" : "parent-chain", c->k++ > 0, c->f);
	return 0;
}

/* The answers: every culprit (rp_picks). */
static void janswer(const struct report *r, const struct rp_fn *fn, FILE *f)
{
	struct jcount c = { f, 0 };

	fputs("      \"culprits\": [", f);
	rp_picks(r, fn, janswer_pick, &c);
	fputs(c.k ? "\n      ],\n" : "],\n", f);
}

/* Beside the culprits: the hook's errors, which may have cost some. */
static void jhook_errors(const struct rp_snap *snap, FILE *f)
{
	const char *at = NULL, *text;
	char *one;
	int len, kind, k = 0;

	fputs("      \"hook_errors\": [", f);
	while ((kind = rp_snap_meta_next(snap, &at, &text, &len))) {
		if (kind != RP_META_ERROR || !(one = strndup(text, (size_t)len)))
			continue;
		fputs(k++ ? ", " : "", f);
		js(one, f);
		free(one);
	}
	fputs("],\n", f);
}

static void jfn(const struct report *r, const struct rp_snap *snap,
		const struct rp_fn *fn, int comma, FILE *f)
{
	fputs(comma ? ",\n    {\n      \"name\": " : "\n    {\n      \"name\": ", f);
	js(rp_str(&r->names, fn->name), f);
	fprintf(f, ",\n      \"kind\": \"%s\",\n      \"hits\": %llu,\n      \"hits_with_stack\": %llu,\n      \"first\": ",
		fn->is_event ? "event" : "function", (unsigned long long)fn->hits,
		(unsigned long long)fn->with_stack);
	jts(r, fn->first, f);
	fputs(",\n      \"last\": ", f);
	jts(r, fn->last, f);
	if (fn->dur_n)
		fprintf(f, ",\n      \"call_time_ns\": {\"calls\": %llu, \"total\": %llu, \"max\": %llu}",
			(unsigned long long)fn->dur_n,
			(unsigned long long)fn->dur_total,
			(unsigned long long)fn->dur_max);
	else
		fputs(",\n      \"call_time_ns\": null", f);
	fprintf(f, ",\n      \"kprobe\": {\"joined\": %llu, \"values\": ",
		(unsigned long long)fn->probe_joined);
	jcounted(&r->fn_probe, fn->name, &r->progs, "values", "count", f);
	fputs("},\n", f);
	janswer(r, fn, f);
	jhook_errors(snap, f);
	jtasks(r, fn->name, f);
	jparents(r, fn->name, f);
	jstacks(r, fn->name, f);
	jchains(r, fn->name, f);
	fputs("    }", f);
}

static void jnum_or_null(int have, uint64_t v, FILE *f)
{
	if (have)
		fprintf(f, "%llu", (unsigned long long)v);
	else
		fputs("null", f);
}

/* "question": the boot's boottrace.ask and its window (none: no member). */
static void jquestion(const struct rp_out *o, FILE *f)
{
	static const char *const win[] = { "unknown", "snapshot", "snapshot+live" };
	struct rp_question q;
	int k;

	if (!rp_question(o->r, o->snap, &q))
		return;
	fputs("  \"question\": {\"kind\": ", f);
	if (q.malformed) {
		fputs("null, \"object\": null, \"word\": ", f);
		js(q.ask.object, f);
	} else {
		js(bt_ask_kind_name(q.ask.kind), f);
		fputs(", \"object\": ", f);
		js(q.ask.object, f);
		fprintf(f, ", \"window\": {\"kind\": \"%s\", \"follow\": %s, \"collected\": %s, \"live_events\": ",
			win[q.window], q.follow < 0 ? "null" : q.follow ? "true" : "false",
			q.collected ? "true" : "false");
		jnum_or_null(q.collected, q.live_events, f);
		fprintf(f, ", \"joined\": %s}, \"seen\": %s, \"calls\": %llu",
			q.collected ? q.joined ? "true" : "false" : "null",
			q.seen == 2 ? "true" : q.seen ? "\"pattern\"" : "false",
			(unsigned long long)q.calls);
	}
	fputs(", \"findings\": [", f);
	for (k = 0; k < q.nsaid; k++) {
		fprintf(f, "%s{\"code\": \"%s\", \"severity\": \"%s\", \"text\": ", k ? ", " : "",
			q.said[k].code, q.said[k].warn ? "warning" : "info");
		js(q.said[k].text, f);
		fputc('}', f);
	}
	fputs("]},\n", f);
}

static void jhead(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	const struct rp_snap *s = o->snap;

	fprintf(f, "{\n  \"schema\": \"boottrace-report\",\n  \"version\": %d,\n  \"input\": {\"path\": ", RP_SCHEMA_VERSION);
	js(o->input, f);
	fprintf(f, ", \"kind\": \"%s\", \"boot_id\": ", o->kind);
	if (s && s->boot_id[0])
		js(s->boot_id, f);
	else
		fputs("null", f);
	fputs(", \"release\": ", f);
	if (s && s->release)
		js(s->release, f);
	else
		fputs("null", f);
	fprintf(f, ", \"boot\": %d, \"boots\": %d},\n", s && s->console ? s->boot : 1,
		s && s->console ? s->nboots : 1);
	jquestion(o, f);
	rp_dump_json(s ? s->dump : NULL, f);
	if (s && s->pstore)
		rp_pstore_json(s->pstore, s->pstore->dump, f);
	fputs("  \"trace\": {\"tracer\": ", f);
	if (r->hdr.tracer[0])
		js(r->hdr.tracer, f);
	else
		fputs("null", f);
	fprintf(f, ", \"lines\": %llu, \"entries\": %llu, \"entries_in_buffer\": ",
		(unsigned long long)r->lines, (unsigned long long)r->entries);
	jnum_or_null(r->hdr.have_entries, r->hdr.in_buffer, f);
	fputs(", \"entries_written\": ", f);
	jnum_or_null(r->hdr.have_entries, r->hdr.written, f);
	fputs(", \"cpus\": ", f);
	jnum_or_null(r->hdr.ncpu > 0, (uint64_t)r->hdr.ncpu, f);
	fprintf(f, ", \"clock\": \"%s\", \"layout\": \"%s\", \"distinct_stacks\": %u},\n",
		r->ts_raw ? "counter" : "seconds",
		r->hdr.old_layout ? "4.x" : "default", r->stacks.n);
	fprintf(f, "  \"skipped\": {\"lines\": %llu, \"first_line\": %llu, \"truncated\": %llu, \"orphan_stacks\": %llu, \"user_stacks\": %llu},\n",
		(unsigned long long)r->skip.lines,
		(unsigned long long)r->skip.first_line,
		(unsigned long long)r->skip.truncated,
		(unsigned long long)r->skip.orphan_stacks,
		(unsigned long long)r->skip.user_stacks);
	if (rp_lineage_any(r))
		fprintf(f, "  \"lineage\": {\"forks\": %llu, \"execs\": %llu, \"exits\": %llu, \"module_loads\": %llu, \"module_requests\": %llu},\n",
			(unsigned long long)r->lin.n[RP_PROC_FORK],
			(unsigned long long)r->lin.n[RP_PROC_EXEC],
			(unsigned long long)r->lin.n[RP_PROC_EXIT],
			(unsigned long long)r->lin.n[RP_PROC_MODLOAD],
			(unsigned long long)r->lin.n[RP_PROC_MODREQ]);
}

/*
 * With initcall events: "phases" (the boot's, from the kernel's own
 * boundaries), "phases_missing" and "initcalls" timed, longest first
 * (report_timeline.c: the numbers the pictures draw).
 */
static int jtimeline(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	const struct rp_timeline *t = &r->tl;
	struct rp_tl_phases ph;
	uint32_t *v, n, i;
	int k;

	if (!t->nlevel && !t->nicall)
		return 0;
	rp_tl_phases(r, o->snap, &ph);
	fputs("  \"phases\": [", f);
	for (k = 0; k < ph.n; k++) {
		fputs(k ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
		js(ph.v[k].name, f);
		fputs(", \"from\": ", f);
		jts(r, ph.v[k].from, f);
		fputs(", \"to\": ", f);
		jts(r, ph.v[k].to, f);
		fputs(", \"bounds\": ", f);
		js(ph.v[k].how, f);
		fputc('}', f);
	}
	fputs(ph.n ? "\n  ],\n  \"phases_missing\": [" : "],\n  \"phases_missing\": [", f);
	for (k = 0; k < ph.nmissing; k++) {
		fputs(k ? ", " : "", f);
		js(ph.missing[k], f);
	}
	if (!(v = rp_tl_by_length(t, &n)))
		return -1;
	fprintf(f, "],\n  \"initcalls_unfinished\": %u, \"initcalls_finish_without_start\": %llu,\n  \"initcalls\": [",
		t->nicall - n, (unsigned long long)t->unpaired);
	for (i = 0; i < n; i++) {
		const struct rp_tl_icall *c = &t->icall[v[i]];

		fputs(i ? ",\n    {\"func\": " : "\n    {\"func\": ", f);
		js(rp_str(&r->progs, c->fn), f);
		fputs(", \"level\": ", f);
		js(rp_tl_level_name(r, c), f);
		fputs(", \"task\": ", f);
		js(rp_str(&r->tasks, c->task), f);
		fputs(", \"start\": ", f);
		jts(r, c->start, f);
		fprintf(f, ", \"duration_ns\": %llu, \"ret\": %d}",
			(unsigned long long)(c->end - c->start), (int)c->ret);
	}
	fputs(n ? "\n  ],\n" : "],\n", f);
	free(v);
	return 0;
}

/*
 * "modules": {"bond_create": "bonding", ...}: the module each function
 * and frame name was printed in (sym-offset). The names elsewhere stay
 * the kernel's symbols, so a consumer matches them whatever the options.
 */
static void jmodules(const struct report *r, FILE *f)
{
	uint32_t i;
	int any = 0;

	fputs("  \"modules\": {", f);
	for (i = 0; i < r->an.nshown; i++) {
		const char *m = rp_name_module(r, i);

		if (!m)
			continue;
		fputs(any ? ", " : "", f);
		js(rp_str(&r->names, i), f);
		fputs(": ", f);
		js(m, f);
		any = 1;
	}
	fputs("},\n", f);
}

int rp_print_json(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	uint32_t *order, n, i;
	int k;

	order = rp_fn_order(r, o->only, &n);
	if (!order)
		return -1;
	jhead(o, f);
	fputs("  \"functions\": [", f);
	for (i = 0; i < n; i++)
		jfn(r, o->snap, &r->fn[order[i]], i > 0, f);
	fputs(n ? "\n  ],\n" : "],\n", f);
	free(order);
	jmodules(r, f);
	jloads(r, f);
	if (jtimeline(o, f))
		return -1;
	if (o->snap && o->snap->prev) {
		if (rp_prev_print_json(o->snap->prev, o->snap->prev_syms, f))
			return -1;
	} else {
		fputs("  \"previous_boot\": null,\n", f);
	}
	fputs("  \"findings\": [", f);
	for (k = 0; k < o->q->n; k++) {
		fprintf(f, "%s\n    {\"code\": \"%s\", \"severity\": \"%s\", \"text\": ", k ? "," : "", o->q->v[k].code,
			o->q->v[k].warn ? "warning" : "info");
		js(o->q->v[k].text, f);
		fputc('}', f);
	}
	fputs(o->q->n ? "\n  ]\n}\n" : "]\n}\n", f);
	return ferror(f) ? -1 : 0;
}
