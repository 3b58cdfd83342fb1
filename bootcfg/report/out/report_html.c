// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report as one self-contained HTML page (docs/report.md, "Pictures"):
 * the answer first, the damage as banners, a time axis of the counters,
 * function_graph durations, collapsible caller trees, the evidence. All
 * CSS and the few lines of script are written here; a Content-Security-
 * Policy of default-src 'none' keeps the page from fetching anything.
 *
 * The page is drawn from the counters, not the trace: per (function,
 * task) the first and last hit and their count, per stack or chain the
 * same. Its size is bounded by the caps below, whatever the trace's size.
 */
#include <stdlib.h>
#include <string.h>

#include "report/out/pic.h"

#define MAX_FNS 200		/* functions with an answer block */
#define MAX_ANSWERS 4		/* culprits per function, as the text */
#define MAX_LANES 40		/* task lanes on the time axis */
#define MAX_MARKED_FNS 64	/* functions drawn on the time axis */
#define MAX_TREE_NODES 3000	/* caller-tree nodes in the whole page */
#define MAX_TICKS 30000		/* bucket ticks in the whole page */
#define MAX_ICALL_ROWS 200	/* initcalls in the table, the longest */
#define MAX_ICALL_SLICES 600	/* initcalls drawn on the time axis */
#define MAX_CPU_LANES 64	/* the per-CPU view's lanes */

static void put_words(const struct report *r, const struct rp_answer *a,
		      FILE *f)
{
	char buf[4096];

	rp_answer_words(r, a, buf, sizeof(buf));
	rp_put_xml(buf, f);
}

void rp_html_head(const char *title, FILE *f)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>", f);
	rp_put_xml(title, f);
	fputs("</title>\n<style>\n"
	      "body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222;background:#fff}\n"
	      "h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.2em 0 .3em}\n"
	      "code,pre,.mono{font-family:ui-monospace,monospace;font-size:13px}\n"
	      ".sub{color:#555}.banner{padding:.5em .8em;margin:.4em 0;border-radius:4px;border-left:6px solid}\n"
	      ".warn{background:#fff3e0;border-color:#e65100}.note{background:#eef4fb;border-color:#1565c0}\n"
	      ".damage{background:#fdecea;border-color:#b71c1c}\n"
	      ".fn{border:1px solid #ddd;border-radius:6px;padding:.4em .8em;margin:.5em 0}\n"
	      ".culprit{font-size:1.15em;font-weight:600;margin:.3em 0;font-family:ui-monospace,monospace}\n"
	      ".object{font-size:1.1em;margin:.5em 0 0;color:#1a237e}\n"
	      ".culprit .arrow{color:#888;font-weight:400}.who{margin:.2em 0 .4em;color:#333}\n"
	      "details>summary{cursor:pointer}pre.ev{background:#f6f6f6;padding:.5em;margin:.3em 0;overflow:auto}\n"
	      "pre.ev b{color:#b71c1c}ul.tree{list-style:none;padding-left:1.2em;margin:0}\n"
	      "ul.tree summary,ul.tree .leaf{font-family:ui-monospace,monospace;font-size:13px}\n"
	      ".n{display:inline-block;min-width:5em;text-align:right;color:#555;margin-right:.6em}\n"
	      "table{border-collapse:collapse}td,th{padding:.15em .6em;border-bottom:1px solid #eee;text-align:left}\n"
	      "td.r{text-align:right}.bar{background:#5c6bc0;height:.8em;display:inline-block}\n"
	      "svg text{font:11px ui-monospace,monospace}\n"
	      ".add{color:#1b5e20}.del{color:#b71c1c}\n"
	      "#tip{position:fixed;pointer-events:none;background:#222;color:#fff;padding:.3em .5em;border-radius:3px;font-size:12px;display:none}\n"
	      "</style></head><body>\n", f);
}

void rp_html_tail(FILE *f)
{
	/* Hover text for the time axis (the <title>s work without it too),
	 * and expand/collapse for the caller trees. */
	fputs("<div id=\"tip\"></div>\n<script>\n"
	      "(function(){var tip=document.getElementById('tip');\n"
	      "document.querySelectorAll('svg .mk').forEach(function(m){\n"
	      " var t=m.querySelector('title');if(!t)return;\n"
	      " m.addEventListener('mousemove',function(e){tip.textContent=t.textContent;tip.style.display='block';tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';});\n"
	      " m.addEventListener('mouseleave',function(){tip.style.display='none';});});\n"
	      "document.querySelectorAll('button[data-open]').forEach(function(b){b.addEventListener('click',function(){\n"
	      " var o=b.getAttribute('data-open')==='1';document.querySelectorAll('#callers details').forEach(function(d){d.open=o;});});});\n"
	      "})();\n</script>\n</body></html>\n", f);
}

static void put_finding_banners(const struct rp_out *o, FILE *f)
{
	const char *at = NULL, *text;
	int k, len, kind;

	if (o->snap && o->snap->trace_damaged) {
		fputs("<div class=\"banner damage\"><b>Damaged capture</b>, the answers may be wrong: ", f);
		rp_put_xml(o->snap->damage, f);
		fputs(" <a href=\"#evidence\">evidence</a></div>\n", f);
	}
	while (o->snap && (kind = rp_snap_meta_next(o->snap, &at, &text, &len)))
		if (kind == RP_META_ERROR) {
			fputs("<div class=\"banner damage\"><b>Hook error</b>, which may have cost an answer: ", f);
			rp_put_xmln(text, (size_t)len, f);
			fputs("</div>\n", f);
		}
	for (k = 0; k < o->q->n; k++) {
		if (!o->q->v[k].warn)
			continue;
		fprintf(f, "<div class=\"banner warn\" data-code=\"%s\"><b>", o->q->v[k].code);
		rp_put_xml(o->q->v[k].code, f);
		fputs("</b>: ", f);
		rp_put_xml(o->q->v[k].text, f);
		fprintf(f, " <a href=\"#ev-%d\">evidence</a></div>\n", k);
	}
}

static void put_answer(const struct report *r, uint32_t fn,
		       const struct rp_answer *a, FILE *f)
{
	char obj[1024];
	uint32_t i;

	const struct rp_count *t = rp_top_task_hits(r, a->stack ? &r->stack_task :
						    &r->chain_task, a->id);
	struct rp_who w;

	/* the object the call's kprobe recorded comes first, as in the text */
	if (a->stack && rp_object_words(r, fn, a->id, a->path, a->len,
					*a->task ? a->task : "(task unknown)",
					obj, sizeof(obj))) {
		fputs("<div class=\"object\">", f);
		rp_put_xml(obj, f);
		fputs("</div>\n", f);
	}
	fputs("<div class=\"culprit\">", f);
	put_words(r, a, f);
	fputs("</div>\n", f);
	/* with lineage events: who made the call, in words (report_who.c) */
	if (!rp_who(r, a->path, a->len, a->task, t ? t->first : a->first, &w)) {
		fputs("<div class=\"who\">", f);
		rp_put_xml(w.text, f);
		fputs("</div>\n", f);
	}
	fputs("<details><summary>by ", f);
	rp_put_xml(*a->task ? a->task : "(task unknown)", f);
	fprintf(f, ", phase %s, %llu hit%s, %s ", rp_phase_name(a->phase),
		(unsigned long long)a->n, a->n == 1 ? "" : "s",
		a->n == 1 ? "at" : "first at");
	rp_put_secs(r, a->first, f);
	fprintf(f, "%s (", r->ts_raw ? "" : " s");
	rp_put_xml(rp_answer_source(r, a), f);
	fputs(")</summary>\n<pre class=\"ev\">", f);
	fputs(a->stack ? "the stack, outermost frame first (the culprit part in bold):\n" :
	      "the chain, outermost first (the culprit part in bold):\n", f);
	for (i = 0; i < a->len; i++) {
		fprintf(f, "%*s%s", (int)(2 * i < 40 ? 2 * i : 40), "",
			i >= a->start ? "<b>" : "");
		rp_put_xml(rp_name(r, a->path[i]), f);
		fputs(i >= a->start ? "</b>\n" : "\n", f);
	}
	fputs("task: ", f);
	rp_put_xml(*a->task ? a->task : "(unknown)", f);
	fputs("\nfirst: ", f);
	rp_put_secs(r, a->first, f);
	if (a->last != a->first) {
		fputs("  last: ", f);
		rp_put_secs(r, a->last, f);
	}
	fputs("</pre></details>\n", f);
}

static int put_answers(const struct rp_out *o, const uint32_t *order,
		       uint32_t n, struct rp_answer *a, FILE *f)
{
	const struct report *r = o->r;
	uint32_t i;
	int k, na;

	fputs("<section id=\"answer\"><h2>The answer</h2>\n", f);
	if (!n)
		fprintf(f, "<p>%s</p>\n", o->only ? "No hit of the function asked for in this trace." :
			"No traced function in this trace.");
	for (i = 0; i < n && i < MAX_FNS; i++) {
		const struct rp_fn *fn = &r->fn[order[i]];

		fprintf(f, "<div class=\"fn\" id=\"fn-%u\"><h2>", order[i]);
		rp_put_xml(rp_name(r, fn->name), f);
		fprintf(f, "%s</h2><div class=\"sub\">%llu hit%s, first ",
			fn->is_event ? " (event)" : "", (unsigned long long)fn->hits,
			fn->hits == 1 ? "" : "s");
		rp_put_secs(r, fn->first, f);
		if (fn->last != fn->first) {
			fputs(", last ", f);
			rp_put_secs(r, fn->last, f);
		}
		fputs(r->ts_raw ? "</div>\n" : " s</div>\n", f);
		na = rp_answers(r, fn, a, MAX_ANSWERS);
		if (na < 0)
			return -1;
		for (k = 0; k < na; k++)
			put_answer(r, fn->name, &a[k], f);
		if (!na)
			fputs("<p class=\"sub\">No caller: no usable stack and no parent chain for it.</p>\n", f);
		fputs("</div>\n", f);
	}
	if (n > MAX_FNS)
		fprintf(f, "<p>%u more functions: see the text or JSON report.</p>\n",
			n - MAX_FNS);
	fputs("</section>\n", f);
	return 0;
}

/* ---- the time axis ---------------------------------------------------- */

struct lane {
	uint32_t task;
	uint64_t hits;
};

static int by_hits(const void *x, const void *y)
{
	const struct lane *a = x, *b = y;

	return a->hits != b->hits ? (a->hits < b->hits ? 1 : -1) :
	       (a->task > b->task) - (a->task < b->task);
}

#define X0 190.0
#define XW 790.0
#define LANE_H 18

static double xat(uint64_t ts, uint64_t t0, uint64_t t1)
{
	return X0 + XW * (double)(ts - t0) / (double)(t1 - t0);
}

static void put_hue(uint32_t i, FILE *f)
{
	fprintf(f, "hsl(%u,65%%,42%%)", (unsigned)(i * 137u % 360u));
}

/* Bucket @i's middle on the axis. */
static double xbucket(const struct rp_timeline *t, uint32_t i, uint64_t t0,
		      uint64_t t1)
{
	return xat(t->t0 + t->width * i + t->width / 2, t0, t1);
}

/* The busiest bucket of @fn over the lanes drawn (task lanes or CPUs). */
static uint32_t fn_peak(const struct rp_timeline *t, uint32_t fn, int cpus)
{
	uint32_t s, i, most = 0;

	for (s = 0; s < t->nseries; s++) {
		const uint32_t *c = t->count + (size_t)s * RP_TL_BUCKETS;

		if (t->series[s].fn != fn || !(t->series[s].lane & RP_TL_CPU) != !cpus)
			continue;
		for (i = 0; i < RP_TL_BUCKETS; i++)
			if (c[i] > most)
				most = c[i];
	}
	return most;
}

/*
 * The hits of (@fn, @lane) as ticks on the lane at @y: one path, a tick
 * per bucket with hits, as tall as its count against @peak (the
 * function's busiest bucket). Counts *@budget down; 1 when drawn.
 */
static int put_ticks(const struct report *r, uint32_t fn, uint32_t lane,
		     const char *lane_name, uint32_t hue, double y, uint64_t t0,
		     uint64_t t1, uint32_t peak, uint32_t *budget, FILE *f)
{
	const struct rp_timeline *t = &r->tl;
	const struct rp_tl_series *s;
	const uint32_t *c;
	uint32_t i, busy = 0, most = 0;

	if (!(s = rp_tl_series_of(t, fn, lane, &c)) || !peak)
		return 0;
	for (i = 0; i < RP_TL_BUCKETS; i++)
		if (c[i]) {
			busy++;
			most = c[i] > most ? c[i] : most;
		}
	if (!busy || busy > *budget)
		return 0;
	*budget -= busy;
	fputs("<g class=\"mk tk\"><path stroke=\"", f);
	put_hue(hue, f);
	fputs("\" stroke-width=\"1.5\" d=\"", f);
	for (i = 0; i < RP_TL_BUCKETS; i++)
		if (c[i])
			fprintf(f, "M%.1f %.0fv-%.0f", xbucket(t, i, t0, t1), y + 7,
				2 + 12.0 * c[i] / peak);
	fputs("\"/><title>", f);
	rp_put_xml(rp_name(r, fn), f);
	fputs(" on ", f);
	rp_put_xml(lane_name, f);
	fprintf(f, ": %llu hit%s in %u of the %d buckets, at most %u in one (a bucket is ",
		(unsigned long long)s->n, s->n == 1 ? "" : "s", busy, RP_TL_BUCKETS, most);
	rp_put_secs(r, t->width, f);
	fputs(r->ts_raw ? " counts wide)</title></g>\n" : " s wide)</title></g>\n", f);
	return 1;
}

/* The kernel's phases as bands in the row at @y (report_timeline.c). */
static void put_phase_bands(const struct report *r,
			    const struct rp_tl_phases *ph, double y,
			    uint64_t t0, uint64_t t1, FILE *f)
{
	int i;

	for (i = 0; i < ph->n; i++) {
		const struct rp_tl_phase *p = &ph->v[i];
		double xa = xat(p->from, t0, t1), xb = xat(p->to, t0, t1);

		if (xb - xa < 2)
			xb = xa + 2;
		fprintf(f, "<g class=\"mk ph\"><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"14\" fill=\"hsl(%d,45%%,%d%%)\"/>",
			xa, y, xb - xa, (i * 47) % 360, i % 2 ? 78 : 86);
		/* a label where it fits: ~6.5 px a character */
		if ((xb - xa) > 6.5 * (double)strlen(p->name) + 4) {
			fprintf(f, "<text x=\"%.1f\" y=\"%.0f\">", xa + 2, y + 11);
			rp_put_xml(p->name, f);
			fputs("</text>", f);
		}
		fputs("<title>", f);
		rp_put_xml(p->name, f);
		fputs(": ", f);
		rp_put_secs(r, p->from, f);
		fputs(" to ", f);
		rp_put_secs(r, p->to, f);
		fputs(r->ts_raw ? " (" : " s (", f);
		rp_put_xml(p->how, f);
		fputs(")</title></g>\n", f);
	}
}

/* Each initcall timed (initcall_start to initcall_finish) as a slice in the row at @y. */
static int put_icall_slices(const struct report *r, double y, uint64_t t0,
			    uint64_t t1, FILE *f)
{
	uint32_t *v, n, i;

	if (!(v = rp_tl_by_length(&r->tl, &n)))
		return -1;
	for (i = 0; i < n && i < MAX_ICALL_SLICES; i++) {
		const struct rp_tl_icall *c = &r->tl.icall[v[i]];
		double xa = xat(c->start, t0, t1), xb = xat(c->end, t0, t1);

		if (xb - xa < 1)
			xb = xa + 1;
		fprintf(f, "<g class=\"mk ic\"><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"12\" fill=\"%s\"/><title>initcall ",
			xa, y, xb - xa, c->ret ? "#c62828" : "#6a1b9a");
		rp_put_xml(rp_str(&r->progs, c->fn), f);
		fputs(" (", f);
		rp_put_xml(rp_tl_level_name(r, c), f);
		fputs(", ", f);
		rp_put_xml(rp_str(&r->tasks, c->task), f);
		fputs("): ", f);
		rp_put_secs(r, c->end - c->start, f);
		fputs(r->ts_raw ? " from " : " s from ", f);
		rp_put_secs(r, c->start, f);
		fprintf(f, ", ret=%d</title></g>\n", (int)c->ret);
	}
	free(v);
	return 0;
}

/* The per-CPU view: a lane per CPU that hit, the same ticks (a <details>: no script). */
static void put_cpu_view(const struct report *r, const uint32_t *order,
			 uint32_t n, uint64_t t0, uint64_t t1, uint32_t *budget,
			 FILE *f)
{
	const struct rp_timeline *t = &r->tl;
	uint32_t cpu[MAX_CPU_LANES], ncpu = 0, s, i, k;
	double h;
	char name[32];

	for (s = 0; s < t->nseries; s++) {
		uint32_t c = t->series[s].lane;

		if (!(c & RP_TL_CPU))
			continue;
		for (k = 0; k < ncpu && cpu[k] != c; k++)
			;
		if (k == ncpu && ncpu < MAX_CPU_LANES)
			cpu[ncpu++] = c;
	}
	if (!ncpu)
		return;
	for (i = 1; i < ncpu; i++)	/* by CPU number */
		for (k = i; k > 0 && cpu[k - 1] > cpu[k]; k--) {
			uint32_t x = cpu[k];

			cpu[k] = cpu[k - 1];
			cpu[k - 1] = x;
		}
	h = 10 + LANE_H * ncpu + 10;
	fprintf(f, "<details id=\"cpus\"><summary>Per-CPU lanes (%u CPU%s, from the trace's CPU column)</summary>\n",
		ncpu, ncpu == 1 ? "" : "s");
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 %.0f\" width=\"100%%\" role=\"img\">\n", h);
	for (k = 0; k < ncpu; k++) {
		double y = 10 + LANE_H * k + 9;

		fprintf(f, "<text x=\"4\" y=\"%.0f\">CPU %u</text><line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#f0f0f0\"/>\n",
			y + 3, cpu[k] & ~RP_TL_CPU, X0, y, X0 + XW, y);
		snprintf(name, sizeof(name), "CPU %u", cpu[k] & ~RP_TL_CPU);
		for (i = 0; i < n && i < MAX_MARKED_FNS; i++) {
			uint32_t fn = r->fn[order[i]].name;

			put_ticks(r, fn, cpu[k], name, i, y, t0, t1,
				  fn_peak(t, fn, 1), budget, f);
		}
	}
	fputs("</svg></details>\n", f);
}

/* The time axis: what its drawing steps share. */
struct tl_draw {
	const struct report *r;
	const uint32_t *order;		/* the functions, by first hit */
	uint32_t n;
	struct rp_answer *a;		/* room for MAX_ANSWERS */
	uint64_t t0, t1;		/* the axis' ends */
	struct lane *lane;		/* the tasks, most hits first */
	uint32_t *lane_of;		/* task id -> its lane, RP_NONE: not drawn */
	uint32_t nlane, nt;
	uint32_t budget;		/* ticks still to draw */
	double y0;			/* the top of the first task lane */
	FILE *f;
};

/* The first and last hit of the functions drawn. */
static void tl_hits(const struct report *r, const uint32_t *order, uint32_t n,
		    uint64_t *h0, uint64_t *h1)
{
	uint32_t i;

	*h0 = UINT64_MAX;
	*h1 = 0;
	for (i = 0; i < n; i++) {
		if (r->fn[order[i]].first < *h0)
			*h0 = r->fn[order[i]].first;
		if (r->fn[order[i]].last > *h1)
			*h1 = r->fn[order[i]].last;
	}
}

/* The axis spans the hits [h0, h1] and the boot's phases, padded a little. */
static void tl_span(struct tl_draw *d, const struct rp_tl_phases *ph,
		    uint64_t h0, uint64_t h1)
{
	uint64_t t0 = h0, t1 = h1, pad;
	int j;

	for (j = 0; j < ph->n; j++) {
		if (ph->v[j].from < t0)
			t0 = ph->v[j].from;
		if (ph->v[j].to > t1)
			t1 = ph->v[j].to;
	}
	pad = (t1 - t0) / 40;
	if (t1 == t0)	/* one instant: a second around it (ms for raw counts) */
		pad = d->r->ts_raw ? 1000 : 500000000ULL;
	d->t0 = t0 > pad ? t0 - pad : 0;
	d->t1 = t1 + pad;
}

/* A lane per task with hits, the most first, MAX_LANES at most; -1: no memory. */
static int tl_lanes(struct tl_draw *d)
{
	const struct report *r = d->r;
	uint32_t i, nt = r->tasks.n;

	d->nt = nt;
	d->lane = calloc(nt ? nt : 1, sizeof(*d->lane));
	d->lane_of = malloc((nt ? nt : 1) * sizeof(*d->lane_of));
	if (!d->lane || !d->lane_of)
		return -1;
	for (i = 0; i < nt; i++)
		d->lane[i].task = i;
	for (i = 0; i < r->fn_task.cap; i++) {
		const struct rp_count *c = &r->fn_task.slot[i];

		if (c->key && rp_key_b(c) < nt)
			d->lane[rp_key_b(c)].hits += c->n;
	}
	qsort(d->lane, nt, sizeof(*d->lane), by_hits);
	for (i = 0; i < nt; i++)
		d->lane_of[i] = RP_NONE;
	for (i = 0; i < nt && i < MAX_LANES && d->lane[i].hits; i++)
		d->lane_of[d->lane[i].task] = d->nlane++;
	return 0;
}

/* How to read the axis, what of the boot it cannot show; opens the picture. */
static void tl_intro(const struct tl_draw *d, const struct rp_tl_phases *ph,
		     uint64_t h0, uint64_t h1)
{
	const struct report *r = d->r;
	const struct rp_timeline *tl = &r->tl;
	FILE *f = d->f;
	int j;

	fputs("<section id=\"timeline\"><h2>Time axis</h2>\n<p class=\"sub\">From the first traced hit (", f);
	rp_put_secs(r, h0, f);
	fputs(") to the last (", f);
	rp_put_secs(r, h1, f);
	fprintf(f, ")%s. One lane per task (the %u with most hits). The report keeps counters, not each call: "
		"a dot is the <b>first</b> and the <b>last</b> hit of a function on that task, and the ticks between them are its hits "
		"counted in %d time buckets",
		r->ts_raw ? " (raw clock counts)" : " s", d->nlane, RP_TL_BUCKETS);
	if (tl->started && (r->ts_raw || tl->width >= 1000)) {
		fputs(" of <b>", f);
		rp_put_secs(r, tl->width, f);
		fputs(r->ts_raw ? " counts</b>" : " s</b>", f);
	} else if (tl->started) {	/* shorter than the microseconds shown */
		fprintf(f, " of <b>%llu ns</b>", (unsigned long long)tl->width);
	}
	fputs(" each, a tick as tall as its count against the function's busiest bucket (hover for the counts). "
	      "A diamond is a culprit's first hit. The top row is the boot's phases from the kernel's own boundaries "
	      "(initcall_level events, the initcalls' ends, the hook's snapshot, pid 1's execs); the next, each initcall timed "
	      "from its initcall_start to its initcall_finish; below them the bands run from the first to the last culprit hit "
	      "of each boot phase seen in the stacks or chains (initcall, module-load, syscall, ...).</p>\n", f);
	for (j = 0; j < ph->nmissing; j++) {
		fputs("<p class=\"sub phase-missing\">Missing: ", f);
		rp_put_xml(ph->missing[j], f);
		fputs(".</p>\n", f);
	}
	if (tl->dropped)
		fprintf(f, "<p class=\"sub\">%llu hits of (function, task or CPU) pairs past the first %d are not in the ticks (their dots and counts are).</p>\n",
			(unsigned long long)tl->dropped, RP_TL_SERIES);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 %.0f\" width=\"100%%\" role=\"img\">\n",
		d->y0 + LANE_H * (d->nlane ? d->nlane : 1) + 30);
}

/* The kernel's rows: its phases, then each initcall timed; *@rows drawn. -1: no memory. */
static int tl_kernel_rows(const struct tl_draw *d, const struct rp_tl_phases *ph,
			  uint32_t *rows)
{
	const struct rp_timeline *tl = &d->r->tl;
	uint32_t i;
	double yic;

	*rows = 0;
	if (ph->n) {
		fputs("<text x=\"4\" y=\"15\">boot phases</text>\n", d->f);
		put_phase_bands(d->r, ph, 4, d->t0, d->t1, d->f);
		(*rows)++;
	}
	for (i = 0; i < tl->nicall && !tl->icall[i].done; i++)
		;
	if (i < tl->nicall) {
		yic = 4 + 18 * *rows;
		fprintf(d->f, "<text x=\"4\" y=\"%.0f\">initcalls</text>\n", yic + 11);
		if (put_icall_slices(d->r, yic, d->t0, d->t1, d->f))
			return -1;
		(*rows)++;
	}
	return 0;
}

/* Each boot phase's first and last culprit hit (lo UINT64_MAX: none); -1: no memory. */
static int tl_phase_hits(const struct tl_draw *d, uint64_t *lo, uint64_t *hi)
{
	const struct report *r = d->r;
	struct rp_answer *a = d->a;
	uint32_t i;
	int ph, na, j;

	for (ph = 0; ph < RP_PH_N; ph++) {
		lo[ph] = UINT64_MAX;
		hi[ph] = 0;
	}
	for (i = 0; i < d->n && i < MAX_FNS; i++) {
		na = rp_answers(r, &r->fn[d->order[i]], a, MAX_ANSWERS);
		if (na < 0)
			return -1;
		for (j = 0; j < na; j++) {
			if (a[j].first < lo[a[j].phase])
				lo[a[j].phase] = a[j].first;
			if (a[j].last > hi[a[j].phase])
				hi[a[j].phase] = a[j].last;
		}
	}
	return 0;
}

/*
 * Under the kernel's @rows, a band per boot phase from its first to its
 * last culprit hit; the task lanes start below them. -1: no memory.
 */
static int tl_culprit_bands(struct tl_draw *d, uint32_t rows)
{
	const struct report *r = d->r;
	uint64_t lo[RP_PH_N], hi[RP_PH_N];
	double yb = 4 + 18 * rows, xa, xb;
	uint32_t nb = 0;
	int ph;

	if (tl_phase_hits(d, lo, hi))
		return -1;
	for (ph = 0; ph < RP_PH_N; ph++) {
		if (lo[ph] == UINT64_MAX)
			continue;
		xa = xat(lo[ph], d->t0, d->t1);
		xb = xat(hi[ph], d->t0, d->t1);
		if (xb - xa < 3)
			xb = xa + 3;
		fprintf(d->f, "<g class=\"mk\"><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"12\" fill=\"hsl(%d,40%%,80%%)\"/>"
			"<text x=\"%.1f\" y=\"%.0f\"%s>%s</text><title>phase %s: culprit hits from ",
			xa, yb + 14 * nb, xb - xa, 40 + ph * 50,
			xa > 850 ? xb - 2 : xa + 2, yb + 10 + 14 * nb,
			xa > 850 ? " text-anchor=\"end\"" : "",
			rp_phase_name((enum rp_phase)ph), rp_phase_name((enum rp_phase)ph));
		rp_put_secs(r, lo[ph], d->f);
		fputs(" to ", d->f);
		rp_put_secs(r, hi[ph], d->f);
		fputs("</title></g>\n", d->f);
		nb++;
	}
	d->y0 = yb + 14 * (nb > 3 ? nb : 3) + 10;
	return 0;
}

/* The axis' ticks in seconds, and a named line per task lane. */
static void tl_axis(const struct tl_draw *d)
{
	double h = d->y0 + LANE_H * (d->nlane ? d->nlane : 1) + 30, x;
	FILE *f = d->f;
	uint32_t i;
	int j;

	for (j = 0; j <= 5; j++) {
		uint64_t ts = d->t0 + (d->t1 - d->t0) / 5 * (uint64_t)j;

		x = xat(ts, d->t0, d->t1);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"%s\">", x, d->y0 - 4, x,
			h - 16, x, h - 4, j == 5 ? "end" : "middle");
		rp_put_secs(d->r, ts, f);
		fputs("</text>\n", f);
	}
	for (i = 0; i < d->nlane; i++) {
		fprintf(f, "<text x=\"4\" y=\"%.0f\">", d->y0 + LANE_H * i + 12);
		rp_put_xmln(rp_str(&d->r->tasks, d->lane[i].task), 28, f);
		fprintf(f, "</text><line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#f0f0f0\"/>\n",
			X0, d->y0 + LANE_H * i + 9, X0 + XW, d->y0 + LANE_H * i + 9);
	}
}

/* Function @i's hits by task @c's lane at @y: its ticks, its first and last hit as dots. */
static void tl_task_marks(struct tl_draw *d, uint32_t i, const struct rp_count *c,
			  uint32_t peak, double y)
{
	const struct report *r = d->r;
	const struct rp_fn *fn = &r->fn[d->order[i]];
	const char *task = rp_str(&r->tasks, rp_key_b(c));
	FILE *f = d->f;
	double xa = xat(c->first, d->t0, d->t1), xb = xat(c->last, d->t0, d->t1);
	int ticks = put_ticks(r, fn->name, rp_key_b(c), task, i, y, d->t0,
			      d->t1, peak, &d->budget, f);

	fprintf(f, "<a href=\"#fn-%u\"><g class=\"mk\" stroke=\"", d->order[i]);
	put_hue(i, f);
	fputs("\" fill=\"", f);
	put_hue(i, f);
	fputs("\">", f);
	if (xb - xa >= 1)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.0f\" r=\"3\"/>", xb, y);
	if (xb - xa >= 1 && !ticks)
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke-width=\"2\" opacity=\".5\"/>",
			xa, y, xb, y);
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.0f\" r=\"3.5\"/><title>", xa, y);
	rp_put_xml(rp_name(r, fn->name), f);
	fputs(" by ", f);
	rp_put_xml(task, f);
	fprintf(f, ": %llu hit%s, first ", (unsigned long long)c->n,
		c->n == 1 ? "" : "s");
	rp_put_secs(r, c->first, f);
	if (c->n > 1) {
		fputs(", last ", f);
		rp_put_secs(r, c->last, f);
	}
	fputs("</title></g></a>\n", f);
}

/* Function @i's hits on each task lane; -1: no memory. */
static int tl_fn_marks(struct tl_draw *d, uint32_t i)
{
	const struct report *r = d->r;
	const struct rp_fn *fn = &r->fn[d->order[i]];
	uint32_t peak = fn_peak(&r->tl, fn->name, 0), l;
	struct rp_count **v;
	size_t nv, q;

	if (!(v = rp_pairs_of(&r->fn_task, fn->name, &nv)))
		return -1;
	for (q = 0; q < nv; q++) {
		l = rp_key_b(v[q]) < d->nt ? d->lane_of[rp_key_b(v[q])] : RP_NONE;
		if (l != RP_NONE)
			tl_task_marks(d, i, v[q], peak, d->y0 + LANE_H * l + 9);
	}
	free(v);
	return 0;
}

/* Function @i's culprits: a diamond at each one's first hit, on its task's lane. -1: no memory. */
static int tl_fn_culprits(struct tl_draw *d, uint32_t i)
{
	const struct report *r = d->r;
	struct rp_answer *a = d->a;
	int na = rp_answers(r, &r->fn[d->order[i]], a, MAX_ANSWERS), j;
	uint32_t tid, l;
	double x, y;

	if (na < 0)
		return -1;
	for (j = 0; j < na; j++) {
		tid = *a[j].task ? rp_intern_find(&r->tasks, a[j].task, strlen(a[j].task)) : RP_NONE;
		l = tid < d->nt ? d->lane_of[tid] : RP_NONE;
		if (l == RP_NONE)
			continue;
		x = xat(a[j].first, d->t0, d->t1);
		y = d->y0 + LANE_H * l + 9;
		fprintf(d->f, "<a href=\"#fn-%u\"><g class=\"mk\"><path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"none\" stroke=\"#000\"/><title>culprit: ",
			d->order[i], x, y - 5);
		put_words(r, &a[j], d->f);
		fputs(" (", d->f);
		rp_put_xml(a[j].task, d->f);
		fputs(", first at ", d->f);
		rp_put_secs(r, a[j].first, d->f);
		fputs(")</title></g></a>\n", d->f);
	}
	return 0;
}

/* After the picture: what was left out, the functions' colours, the CPUs' lanes. */
static void tl_end(struct tl_draw *d)
{
	const struct report *r = d->r;
	FILE *f = d->f;
	uint32_t i;

	fputs("</svg>\n", f);
	if (d->n > MAX_MARKED_FNS)
		fprintf(f, "<p class=\"sub\">The first %d functions (by first hit) are drawn; %u more are in the answer list.</p>\n",
			MAX_MARKED_FNS, d->n - MAX_MARKED_FNS);
	fputs("<p class=\"sub\">", f);
	for (i = 0; i < d->n && i < MAX_MARKED_FNS; i++) {
		fputs("<span style=\"color:", f);
		put_hue(i, f);
		fputs("\">&#9679; ", f);
		rp_put_xml(rp_name(r, r->fn[d->order[i]].name), f);
		fputs("</span> ", f);
	}
	fputs("</p>\n", f);
	if (r->tl.have_cpu)
		put_cpu_view(r, d->order, d->n, d->t0, d->t1, &d->budget, f);
	if (!d->budget)
		fprintf(f, "<p class=\"sub\">The ticks are cut at %d to keep the page small: those of later functions and lanes are not drawn (their dots and counts are).</p>\n", MAX_TICKS);
	fputs("</section>\n", f);
}

/*
 * The time axis: the kernel's phases and initcalls, the culprits' phases,
 * then a lane per task with each function's hits and culprits on it.
 */
static int put_timeline(const struct rp_out *o, const uint32_t *order,
			uint32_t n, struct rp_answer *a, FILE *f)
{
	struct tl_draw d = {
		.r = o->r, .order = order, .n = n, .a = a,
		.budget = MAX_TICKS, .y0 = 64, .f = f,
	};
	struct rp_tl_phases *ph;
	uint64_t h0, h1;
	uint32_t i, rows;
	int rc = -1;

	if (!n)
		return 0;
	tl_hits(d.r, order, n, &h0, &h1);
	if (!(ph = malloc(sizeof(*ph))))
		return -1;
	rp_tl_phases(d.r, o->snap, ph);
	tl_span(&d, ph, h0, h1);
	if (tl_lanes(&d))
		goto out;
	tl_intro(&d, ph, h0, h1);
	if (tl_kernel_rows(&d, ph, &rows) || tl_culprit_bands(&d, rows))
		goto out;
	tl_axis(&d);
	for (i = 0; i < n && i < MAX_MARKED_FNS; i++)
		if (tl_fn_marks(&d, i) || tl_fn_culprits(&d, i))
			goto out;
	tl_end(&d);
	rc = 0;
out:
	free(ph);
	free(d.lane);
	free(d.lane_of);
	return rc;
}

/* ---- initcalls (initcall_start to initcall_finish) --------------------- */

static int put_initcalls(const struct report *r, FILE *f)
{
	const struct rp_timeline *t = &r->tl;
	uint32_t *v, n, i, open = 0;
	uint64_t most;

	if (!t->nicall)
		return 0;
	if (!(v = rp_tl_by_length(t, &n)))
		return -1;
	for (i = 0; i < t->nicall; i++)
		open += !t->icall[i].done;
	fprintf(f, "<section id=\"initcalls\"><h2>Initcalls</h2>\n<p class=\"sub\">%u initcall%s timed from initcall_start to initcall_finish "
		"(a finish closes its task's latest open start), the longest first%s.",
		n, n == 1 ? "" : "s", n > MAX_ICALL_ROWS ? " (the first 200)" : "");
	if (open)
		fprintf(f, " %u started and never finished in the trace.", open);
	if (t->unpaired)
		fprintf(f, " %llu finish%s had no start before %s in the trace.",
			(unsigned long long)t->unpaired, t->unpaired == 1 ? "" : "es",
			t->unpaired == 1 ? "it" : "them");
	fputs("</p>\n<table><tr><th>initcall</th><th>level</th><th>task</th><th>start s</th><th>ms</th><th>ret</th><th></th></tr>\n", f);
	most = n ? t->icall[v[0]].end - t->icall[v[0]].start : 0;
	for (i = 0; i < n && i < MAX_ICALL_ROWS; i++) {
		const struct rp_tl_icall *c = &t->icall[v[i]];
		uint64_t d = c->end - c->start;

		fputs("<tr><td class=\"mono\">", f);
		rp_put_xml(rp_str(&r->progs, c->fn), f);
		fputs("</td><td>", f);
		rp_put_xml(rp_tl_level_name(r, c), f);
		fputs("</td><td class=\"mono\">", f);
		rp_put_xml(rp_str(&r->tasks, c->task), f);
		fputs("</td><td class=\"r\">", f);
		rp_put_secs(r, c->start, f);
		fprintf(f, "</td><td class=\"r\">%llu.%03llu</td><td class=\"r\">%d</td>"
			"<td><span class=\"bar\" style=\"width:%.0fpx\"></span></td></tr>\n",
			(unsigned long long)(d / 1000000), (unsigned long long)(d / 1000 % 1000),
			(int)c->ret, most ? 1 + 300.0 * (double)d / (double)most : 1);
	}
	fputs("</table></section>\n", f);
	free(v);
	return 0;
}

/* ---- durations (function_graph) ---------------------------------------- */

static void put_durations(const struct rp_out *o, const uint32_t *order,
			  uint32_t n, FILE *f)
{
	const struct report *r = o->r;
	uint64_t most = 0;
	uint32_t i, shown = 0;

	for (i = 0; i < n; i++)
		if (r->fn[order[i]].dur_total > most)
			most = r->fn[order[i]].dur_total;
	if (!most)
		return;
	fputs("<section id=\"durations\"><h2>Time in each function</h2>\n"
	      "<p class=\"sub\">From the function_graph tracer's durations: calls timed, their sum and the longest. "
	      "Initcalls are timed here when the trace has them as function_graph calls.</p>\n"
	      "<table><tr><th>function</th><th>calls</th><th>total µs</th><th>longest µs</th><th></th></tr>\n", f);
	for (i = 0; i < n && shown < MAX_FNS; i++) {
		const struct rp_fn *fn = &r->fn[order[i]];

		if (!fn->dur_n)
			continue;
		fputs("<tr><td class=\"mono\">", f);
		rp_put_xml(rp_name(r, fn->name), f);
		fprintf(f, "</td><td class=\"r\">%llu</td><td class=\"r\">%llu.%03llu</td><td class=\"r\">%llu.%03llu</td>"
			"<td><span class=\"bar\" style=\"width:%.0fpx\"></span></td></tr>\n",
			(unsigned long long)fn->dur_n,
			(unsigned long long)(fn->dur_total / 1000),
			(unsigned long long)(fn->dur_total % 1000),
			(unsigned long long)(fn->dur_max / 1000),
			(unsigned long long)(fn->dur_max % 1000),
			1 + 300.0 * (double)fn->dur_total / (double)most);
		shown++;
	}
	fputs("</table></section>\n", f);
}

/* ---- caller trees ------------------------------------------------------ */

/*
 * Open <details> cost the browser most of a big page's load (seconds for a
 * few thousand nested ones, closed ones next to nothing): a small tree is
 * shown open, a bigger one closed below its first level (open all: one
 * click).
 */
#define OPEN_TREE_NODES 64

static void put_tree(const struct report *r, const struct rp_tree *t,
		     uint32_t node, int depth, uint32_t *budget, FILE *f)
{
	uint32_t c;

	fputs("<ul class=\"tree\">", f);
	for (c = t->v[node].child; c != RP_NONE && *budget; c = t->v[c].next) {
		--*budget;
		if (t->v[c].child == RP_NONE) {
			fprintf(f, "<li><span class=\"leaf\"><span class=\"n\">%llu</span>",
				(unsigned long long)t->v[c].count);
			rp_put_xml(rp_name(r, t->v[c].name), f);
			fputs("</span></li>\n", f);
			continue;
		}
		fprintf(f, "<li><details%s><summary><span class=\"n\">%llu</span>",
			t->n <= OPEN_TREE_NODES || !depth ? " open" : "", (unsigned long long)t->v[c].count);
		rp_put_xml(rp_name(r, t->v[c].name), f);
		fputs("</summary>", f);
		put_tree(r, t, c, depth + 1, budget, f);
		fputs("</details></li>\n", f);
	}
	fputs("</ul>", f);
}

static int put_callers(const struct rp_out *o, const uint32_t *order,
		       uint32_t n, FILE *f)
{
	const struct report *r = o->r;
	uint32_t i, budget = MAX_TREE_NODES;
	struct rp_tree t;
	int any = 0;

	for (i = 0; i < n && i < MAX_FNS; i++) {
		const struct rp_fn *fn = &r->fn[order[i]];

		if (rp_tree_build(r, fn->name, &t))
			return -1;
		if (t.paths) {
			if (!any++)
				fputs("<section id=\"callers\"><h2>Callers</h2>\n<p class=\"sub\">The merged tree of each function's usable stacks, "
				      "outermost frame at the root; the count is hits through that frame. "
				      "<button data-open=\"1\">open all</button> <button data-open=\"0\">close all</button></p>\n", f);
			fputs(t.n <= OPEN_TREE_NODES ? "<details open><summary><b>" :
			      "<details><summary><b>", f);
			rp_put_xml(rp_name(r, fn->name), f);
			fprintf(f, "</b>: %llu of %llu hits with a usable stack</summary>\n",
				(unsigned long long)t.v[0].count,
				(unsigned long long)fn->hits);
			put_tree(r, &t, 0, 0, &budget, f);
			fputs("</details>\n", f);
		}
		rp_tree_free(&t);
	}
	if (!budget)
		fprintf(f, "<p class=\"sub\">The trees are cut at %d nodes: the text report has them whole.</p>\n",
			MAX_TREE_NODES);
	if (any)
		fputs("</section>\n", f);
	return 0;
}

static void put_evidence(const struct rp_out *o, FILE *f)
{
	int k;

	fputs("<section id=\"evidence\"><h2>Evidence</h2>\n", f);
	if (!o->q->n)
		fputs("<p>Nothing in the trace to distrust.</p>\n", f);
	for (k = 0; k < o->q->n; k++) {
		fprintf(f, "<div class=\"banner %s\" id=\"ev-%d\"><b>%s</b> ",
			o->q->v[k].warn ? "warn" : "note", k, o->q->v[k].warn ? "!" : "-");
		rp_put_xml(o->q->v[k].text, f);
		fputs("</div>\n", f);
	}
	fputs("<p class=\"sub\">What each line means and what to do about it: docs/report.md, \"Evidence lines\" "
	      "(also boottrace(1), REPORT).</p></section>\n", f);
}

int rp_print_html(const struct rp_out *o, FILE *f)
{
	const struct report *r = o->r;
	struct rp_answer *a = malloc(MAX_ANSWERS * sizeof(*a));
	uint32_t *order = NULL, n;
	char title[600], summary[200];
	int ret = -1;

	if (!a || !(order = rp_fn_order(r, o->only, &n)))
		goto out;
	snprintf(title, sizeof(title), "boottrace report: %s", o->input);
	rp_html_head(title, f);
	fputs("<h1>boottrace report</h1>\n<div class=\"sub mono\">", f);
	rp_put_xml(o->input, f);
	fprintf(f, " (%s", o->kind);
	if (o->snap && o->snap->boot_id[0]) {
		fputc(' ', f);
		rp_put_xml(o->snap->boot_id, f);
	}
	if (o->snap && o->snap->release) {
		fputs(", kernel ", f);
		rp_put_xml(o->snap->release, f);
	}
	fputs(")<br>", f);
	rp_trace_summary(r, summary, sizeof(summary));
	rp_put_xml(summary, f);
	fputs("</div>\n", f);
	rp_html_crash_banner(o->snap, f);
	put_finding_banners(o, f);
	if (rp_html_crash(o->snap, f) ||
	    put_answers(o, order, n, a, f) || put_timeline(o, order, n, a, f) ||
	    put_initcalls(r, f))
		goto out;
	put_durations(o, order, n, f);
	if (put_callers(o, order, n, f))
		goto out;
	put_evidence(o, f);
	rp_html_tail(f);
	ret = ferror(f) ? -1 : 0;
out:
	free(order);
	free(a);
	return ret;
}
