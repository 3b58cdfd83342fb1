// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Two boots side by side (report --diff A B): per traced function, its
 * hits and first hit in each, how far the first hit moved, the culprits
 * (in words) that appeared, vanished or stayed, and the tasks (by comm:
 * pids change from boot to boot) that appeared or vanished; then the
 * functions of one boot only and the evidence codes that changed. As
 * text, JSON (schema "boottrace-report-diff" 1, docs/report-schema.md)
 * or an HTML page. docs/report.md, "Two boots".
 */
#include <stdlib.h>
#include <string.h>

#include "report/out/pic.h"
#include "util/grow.h"

#define MAX_ANSWERS 16
#define MAX_TASKS 64

enum { D_TEXT, D_JSON, D_HTML };

struct strs {
	char **v;
	size_t n, cap;
};

static void strs_free(struct strs *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

#define UNVERIFIED "[unverified "

/*
 * The length of a module suffix " [MODULE]" at @s (sym-offset's: a name
 * with no blank, then the end or the next word), or 0. "[init of M]" has
 * blanks, so it is never one.
 */
static size_t module_suffix(const char *s)
{
	size_t n;

	if (s[0] != ' ' || s[1] != '[')
		return 0;
	n = 2 + strcspn(s + 2, " ]");
	return n > 2 && s[n] == ']' && (!s[n + 1] || s[n + 1] == ' ') ?
	       n + 1 : 0;
}

/*
 * Culprit words with each "[unverified NAME]" read as NAME, and each
 * " [MODULE]" left out: a name one boot could check, or printed with its
 * module (sym-offset), and the other not is still the same caller.
 */
static int same_words(const char *a, const char *b)
{
	const size_t m = sizeof(UNVERIFIED) - 1;
	int in_a = 0, in_b = 0;

	for (;;) {
		if (!strncmp(a, UNVERIFIED, m)) {
			a += m;
			in_a = 1;
		}
		if (!strncmp(b, UNVERIFIED, m)) {
			b += m;
			in_b = 1;
		}
		if (in_a && *a == ']') {
			a++;
			in_a = 0;
			continue;
		}
		if (in_b && *b == ']') {
			b++;
			in_b = 0;
			continue;
		}
		if (!in_a && module_suffix(a)) {
			a += module_suffix(a);
			continue;
		}
		if (!in_b && module_suffix(b)) {
			b += module_suffix(b);
			continue;
		}
		if (*a != *b)
			return 0;
		if (!*a)
			return 1;
		a++;
		b++;
	}
}

/* The entry of @s that is @x in words, or NULL. */
static const char *strs_find(const struct strs *s, const char *x)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (same_words(s->v[i], x))
			return s->v[i];
	return NULL;
}

static int strs_add(struct strs *s, const char *x)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], x))
			return 0;
	if (BT_GROW(s->v, s->n + 1, s->cap) || !(s->v[s->n] = strdup(x)))
		return -1;
	s->n++;
	return 0;
}

/* One side's view of a function: culprits in words, task comms. */
struct side {
	const struct rp_fn *fn;
	struct strs culprit, task;
};

static int side_load(const struct report *r, const struct rp_fn *fn,
		     struct rp_answer *a, struct side *s)
{
	char buf[4096];
	struct rp_count **v;
	size_t n, i;
	int na, k;

	memset(s, 0, sizeof(*s));
	s->fn = fn;
	if (!fn)
		return 0;
	na = rp_answers(r, fn, a, MAX_ANSWERS);
	if (na < 0)
		return -1;
	for (k = 0; k < na; k++) {
		rp_answer_words(r, &a[k], buf, sizeof(buf));
		if (strs_add(&s->culprit, buf))
			return -1;
	}
	v = rp_pairs_of(&r->fn_task, fn->name, &n);
	if (!v)
		return -1;
	for (i = 0; i < n && i < MAX_TASKS; i++) {
		rp_task_comm(rp_str(&r->tasks, rp_key_b(v[i])), buf, sizeof(buf));
		if (strs_add(&s->task, buf)) {
			free(v);
			return -1;
		}
	}
	free(v);
	return 0;
}

struct ctx {
	const struct rp_out *a, *b;
	int fmt, nfn;
	FILE *f;
};

static void put_str(const struct ctx *c, const char *s)
{
	if (c->fmt == D_JSON)
		rp_put_json(s, c->f);
	else if (c->fmt == D_HTML)
		rp_put_xml(s, c->f);
	else
		fputs(s, c->f);
}

static void put_time(const struct ctx *c, const struct report *r, uint64_t ts)
{
	rp_put_secs(r, ts, c->f);
	if (c->fmt != D_JSON && !r->ts_raw)
		fputs(" s", c->f);
}

/*
 * The strings of @x not in @y (@both: those in @y too), as a JSON list,
 * text lines or HTML items.
 */
static void put_set(const struct ctx *c, const char *label, const char *cls,
		    const struct strs *x, const struct strs *y, int both,
		    int json_comma)
{
	size_t i;
	int any = 0;

	if (c->fmt == D_JSON)
		fprintf(c->f, "%s\"%s\": [", json_comma ? ", " : "", label);
	for (i = 0; i < x->n; i++) {
		const char *w = x->v[i], *o = strs_find(y, w);

		if ((o != NULL) != both)
			continue;
		/* a name unverified in either boot stays marked */
		if (o && strstr(o, UNVERIFIED) && !strstr(w, UNVERIFIED))
			w = o;
		if (c->fmt == D_JSON) {
			fputs(any ? ", " : "", c->f);
			rp_put_json(w, c->f);
		} else if (c->fmt == D_HTML) {
			fprintf(c->f, "<li class=\"%s\">%s: <span class=\"mono\">", cls, label);
			rp_put_xml(w, c->f);
			fputs("</span></li>\n", c->f);
		} else {
			fprintf(c->f, "  %s: %s\n", label, w);
		}
		any = 1;
	}
	if (c->fmt == D_JSON)
		fputc(']', c->f);
}

static void put_fn(struct ctx *c, const char *name, const struct side *sa,
		   const struct side *sb)
{
	const struct report *ra = c->a->r, *rb = c->b->r;
	FILE *f = c->f;
	long long moved = 0;
	int both = sa->fn && sb->fn;
	char t[RP_TS_LEN];

	if (both)
		moved = (long long)(sb->fn->first - sa->fn->first);
	if (c->fmt == D_JSON) {
		fprintf(f, "%s\n    {\"name\": ", c->nfn++ ? "," : "");
		rp_put_json(name, f);
		fprintf(f, ", \"in\": \"%s\", \"hits\": [%llu, %llu], \"first\": [",
			both ? "both" : sa->fn ? "a" : "b",
			(unsigned long long)(sa->fn ? sa->fn->hits : 0),
			(unsigned long long)(sb->fn ? sb->fn->hits : 0));
		if (sa->fn)
			rp_put_secs(ra, sa->fn->first, f);
		else
			fputs("null", f);
		fputs(", ", f);
		if (sb->fn)
			rp_put_secs(rb, sb->fn->first, f);
		else
			fputs("null", f);
		fputs("], \"moved\": ", f);
		if (both && !ra->ts_raw && !rb->ts_raw)
			fprintf(f, "%s%s", moved < 0 ? "-" : "",
				rp_ts_text((uint64_t)llabs(moved), 0, t));
		else
			fputs("null", f);
		fputs(",\n     ", f);
		put_set(c, "culprits_appeared", "", &sb->culprit, &sa->culprit, 0, 0);
		put_set(c, "culprits_vanished", "", &sa->culprit, &sb->culprit, 0, 1);
		fputs(",\n     ", f);
		put_set(c, "culprits_kept", "", &sa->culprit, &sb->culprit, 1, 0);
		fputs(",\n     ", f);
		put_set(c, "tasks_appeared", "", &sb->task, &sa->task, 0, 0);
		put_set(c, "tasks_vanished", "", &sa->task, &sb->task, 0, 1);
		fputc('}', f);
		return;
	}
	if (c->fmt == D_HTML) {
		fputs("<div class=\"fn\"><h2 class=\"mono\">", f);
		rp_put_xml(name, f);
		fputs("</h2><div class=\"sub\">", f);
	} else {
		fprintf(f, "\n%s: ", name);
	}
	if (!both)
		fprintf(f, "only in %s, %llu hit%s, first ", sa->fn ? "A" : "B",
			(unsigned long long)(sa->fn ? sa->fn : sb->fn)->hits,
			(sa->fn ? sa->fn : sb->fn)->hits == 1 ? "" : "s");
	if (!both)
		put_time(c, sa->fn ? ra : rb, (sa->fn ? sa->fn : sb->fn)->first);
	if (both) {
		fprintf(f, "hits %llu -> %llu, first ",
			(unsigned long long)sa->fn->hits,
			(unsigned long long)sb->fn->hits);
		put_time(c, ra, sa->fn->first);
		fputs(" -> ", f);
		put_time(c, rb, sb->fn->first);
		if (!moved)
			fputs(" (same time)", f);
		else if (!ra->ts_raw && !rb->ts_raw)
			fprintf(f, " (moved %s%s s)",
				moved < 0 ? "-" : moved > 0 ? "+" : "",
				rp_ts_text((uint64_t)llabs(moved), 0, t));
	}
	fputs(c->fmt == D_HTML ? "</div><ul>\n" : "\n", f);
	put_set(c, "culprit appeared", "add", &sb->culprit, &sa->culprit, 0, 0);
	put_set(c, "culprit vanished", "del", &sa->culprit, &sb->culprit, 0, 0);
	if (both)
		put_set(c, "culprit in both", "", &sa->culprit, &sb->culprit, 1, 0);
	if (both) {
		put_set(c, "task appeared", "add", &sb->task, &sa->task, 0, 0);
		put_set(c, "task vanished", "del", &sa->task, &sb->task, 0, 0);
	}
	if (c->fmt == D_HTML)
		fputs("</ul></div>\n", f);
}

/* @fa, @fb: the function in A and in B (one may be NULL, not both). */
static int one_fn(struct ctx *c, const char *name, const struct rp_fn *fa,
		  const struct rp_fn *fb, struct rp_answer *a)
{
	struct side sa, sb;
	int ret = -1;

	memset(&sb, 0, sizeof(sb));
	if (!side_load(c->a->r, fa, a, &sa) &&
	    !side_load(c->b->r, fb, a, &sb)) {
		put_fn(c, name, &sa, &sb);
		ret = 0;
	}
	strs_free(&sa.culprit);
	strs_free(&sa.task);
	strs_free(&sb.culprit);
	strs_free(&sb.task);
	return ret;
}

static void put_head(const struct ctx *c, const struct rp_out *o,
		     const char *which)
{
	FILE *f = c->f;
	char words[800];
	int died = rp_crash_words(o->snap, words, sizeof(words));

	if (c->fmt == D_JSON) {
		fprintf(f, "  \"%s\": {\"input\": ", which);
		rp_put_json(o->input, f);
		fprintf(f, ", \"kind\": \"%s\", \"boot_id\": ", o->kind);
		rp_put_json(o->snap ? o->snap->boot_id : "", f);
		fputs(", \"kernel\": ", f);
		rp_put_json(o->snap && o->snap->release ? o->snap->release : "", f);
		fprintf(f, ", \"entries\": %llu, \"boot_died\": ", (unsigned long long)o->r->entries);
		if (died)
			rp_put_json(words, f);
		else
			fputs("null", f);
		fputs("},\n", f);
		return;
	}
	fprintf(f, c->fmt == D_HTML ? "<div class=\"mono\"><b>%s</b>: " : "%s: ", which);
	put_str(c, o->input);
	fprintf(f, " (%s", o->kind);
	if (o->snap && o->snap->boot_id[0]) {
		fputc(' ', f);
		put_str(c, o->snap->boot_id);
	}
	if (o->snap && o->snap->release) {
		fputs(", kernel ", f);
		put_str(c, o->snap->release);
	}
	fprintf(f, "), %llu entries%s", (unsigned long long)o->r->entries,
		c->fmt == D_HTML ? "</div>\n" : "\n");
	if (died) {	/* the crash in the words of report_html_crash.c */
		fprintf(f, c->fmt == D_HTML ? "<div class=\"banner damage\"><b>%s: the boot died</b>: " :
			"%s: the boot died: ", which);
		put_str(c, words);
		fputs(c->fmt == D_HTML ? "</div>\n" : "\n", f);
	}
}

static void put_evidence(struct ctx *c)
{
	struct strs ca = { 0 }, cb = { 0 };
	int k, bad = 0;

	for (k = 0; k < c->a->q->n; k++)
		bad |= strs_add(&ca, c->a->q->v[k].code);
	for (k = 0; k < c->b->q->n; k++)
		bad |= strs_add(&cb, c->b->q->v[k].code);
	if (bad)
		c->nfn = -1;
	if (c->fmt == D_JSON) {
		fputs(",\n  ", c->f);
		put_set(c, "evidence_appeared", "", &cb, &ca, 0, 0);
		put_set(c, "evidence_vanished", "", &ca, &cb, 0, 1);
	} else {
		fputs(c->fmt == D_HTML ? "<h2>Evidence</h2><ul>\n" : "\nevidence:\n", c->f);
		put_set(c, "appeared", "add", &cb, &ca, 0, 0);
		put_set(c, "vanished", "del", &ca, &cb, 0, 0);
		put_set(c, "in both", "", &ca, &cb, 1, 0);
		if (c->fmt == D_HTML)
			fputs("</ul><p class=\"sub\">Evidence codes: docs/report-schema.md; what each means: docs/report.md, \"Evidence lines\".</p>\n", c->f);
	}
	strs_free(&ca);
	strs_free(&cb);
}

int rp_print_diff(const struct rp_out *a, const struct rp_out *b,
		  const char *format, FILE *f)
{
	struct ctx c = { a, b, !strcmp(format, "json") ? D_JSON :
			 !strcmp(format, "html") ? D_HTML : D_TEXT, 0, f };
	struct rp_answer *ans = malloc(MAX_ANSWERS * sizeof(*ans));
	uint32_t *oa = NULL, *ob = NULL, na, nb, i;
	int ret = -1;

	if (!ans || !(oa = rp_fn_order(a->r, a->only, &na)) ||
	    !(ob = rp_fn_order(b->r, b->only, &nb)))
		goto out;
	if (c.fmt == D_JSON) {
		fputs("{\n  \"schema\": \"boottrace-report-diff\",\n  \"version\": 1,\n", f);
	} else if (c.fmt == D_HTML) {
		rp_html_head("boottrace report --diff", f);
		fputs("<h1>boottrace report: two boots</h1>\n", f);
	} else {
		fputs("boottrace report --diff\n", f);
	}
	put_head(&c, a, "A");
	put_head(&c, b, "B");
	if (c.fmt == D_JSON)
		fputs("  \"functions\": [", f);
	if (c.fmt == D_HTML)
		fputs("<p class=\"sub\">Per traced function: hits and first hit in A and in B, the culprits (caller chains) that "
		      "appeared, vanished or stayed, the tasks (by name) that appeared or vanished.</p>\n", f);
	/*
	 * By name, all its bytes: a function of A is looked up in B, and B's
	 * own are those whose name A does not have.
	 */
	for (i = 0; i < na; i++) {
		const struct rp_fn *fa = &a->r->fn[oa[i]];

		if (one_fn(&c, rp_name(a->r, fa->name), fa,
			   rp_fn_named(b->r, &a->r->names, fa->name), ans))
			goto out;
	}
	for (i = 0; i < nb; i++) {
		const struct rp_fn *fb = &b->r->fn[ob[i]];

		if (rp_fn_named(a->r, &b->r->names, fb->name))
			continue;
		if (one_fn(&c, rp_name(b->r, fb->name), NULL, fb, ans))
			goto out;
	}
	if (c.fmt == D_JSON)
		fputs(c.nfn ? "\n  ]" : "]", f);
	put_evidence(&c);
	if (c.nfn < 0)
		goto out;
	if (c.fmt == D_JSON)
		fputs("\n}\n", f);
	else if (c.fmt == D_HTML)
		rp_html_tail(f);
	ret = ferror(f) ? -1 : 0;
out:
	free(oa);
	free(ob);
	free(ans);
	return ret;
}
