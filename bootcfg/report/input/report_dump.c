// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ftrace_dump_on_oops dump in a console log (docs/kernel-facts.md 37):
 * when the kernel oopses or panics it prints the trace buffer with printk,
 * one record a line, between two lines of 33 dashes:
 *
 *   [   16.726587] Dumping ftrace buffer:
 *   [   16.726587] ---------------------------------
 *   [   16.726587]   insmod-88        0dNh1. 14175274us : watchdog_timer_fn <-...
 *   [   16.726587] CPU:1 [LOST 123 EVENTS]
 *   [   16.726587] ---------------------------------
 *
 * The records are in the latency layout of the trace file (report_parse.c
 * reads it), all CPUs merged in time order. Each line is cleaned as
 * report_console.c cleans the lines of a console snapshot (rp_log_clean).
 * A line inside the dump that is not trace text is another CPU's console
 * output: kept out of the trace and counted. A log that ends before the
 * closing dashes lost the newest records: said, and what depends on them
 * (the task on each CPU, whether an initcall finished) is not guessed.
 * Around the dump: the panic message, the first "BUG:"/"Oops:" line, the
 * kernel RIP, the "CPU: N PID: P Comm: C" line and the first call trace
 * after them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/input/input.h"

#define DUMP_MARK "Dumping ftrace buffer:"
#define DASHES "---------------------------------"
#define PANIC_MARK "Kernel panic - not syncing: "
#define RP_DUMP_MAX_CPU 8192

int rp_dump_holds(const char *p, size_t len)
{
	return memmem(p, len, DUMP_MARK, sizeof(DUMP_MARK) - 1) != NULL;
}

int rp_dump_body_like(const char *p, size_t len)
{
	const char *end = p + len, *q, *nl, *s;
	char *buf = NULL;
	size_t cap = 0, blen;
	int found = 0;

	for (q = p; q < end && !found; q = nl ? nl + 1 : end) {
		nl = memchr(q, '\n', (size_t)(end - q));
		if (!(s = rp_log_clean(&buf, &cap, &blen, q, nl ? nl : end)))
			break;
		found = !strcmp(s, DASHES);
	}
	free(buf);
	return found;
}

void rp_dump_free(struct rp_dump *d)
{
	if (!d)
		return;
	free(d->cpu);
	free(d);
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void copy(char *dst, size_t cap, const char *s, size_t len)
{
	if (len >= cap)
		len = cap - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* "name+0x1a/0x80 [mod]" -> "name [mod]"; "? ..." frames are not kept. */
static int frame_name(const char *s, char *out, size_t cap)
{
	const char *plus, *mod;
	size_t n;

	while (*s == ' ')
		s++;
	if (*s == '?' || *s == '<' || !*s)
		return 0;
	plus = strstr(s, "+0x");
	if (!plus || plus == s || memchr(s, ' ', (size_t)(plus - s)))
		return 0;
	n = (size_t)(plus - s);
	if (n + 1 > cap)
		n = cap - 1;
	memcpy(out, s, n);
	out[n] = '\0';
	if ((mod = strchr(plus, '[')) && strchr(mod, ']'))
		snprintf(out + n, cap - n, " %.*s", (int)(strchr(mod, ']') - mod + 1), mod);
	return 1;
}

/* A register line of an oops ("RIP: ...", "RSP: ...", "R13: ...", "Code: "). */
static int reg_line(const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

	return (n >= 2 && n <= 4 && s[n] == ':') || starts(s, "Code: ");
}

enum { CT_NONE, CT_WANT, CT_IN, CT_DONE };

/* What surrounds the dump: the panic and the oops (outside it only). */
static void crash_line(struct rp_dump *d, const char *s, int *ct)
{
	const char *v;

	if (!d->panic[0] && (v = strstr(s, PANIC_MARK)) && !strstr(s, "---[ end")) {
		v += sizeof(PANIC_MARK) - 1;
		copy(d->panic, sizeof(d->panic), v, strlen(v));
		if (*ct == CT_NONE)
			*ct = CT_WANT;
	}
	if (!d->oops[0] && ((v = strstr(s, "BUG: ")) || (v = strstr(s, "Oops: ")))) {
		copy(d->oops, sizeof(d->oops), s, strlen(s));
		if (*ct == CT_NONE)
			*ct = CT_WANT;
	}
	if (*ct == CT_NONE)
		return;
	if (!d->who[0] && starts(s, "CPU: ") && strstr(s, " PID: ") &&
	    (v = strstr(s, " Comm: "))) {
		size_t n = strcspn(v + 7, " ");

		d->who_pid = atoi(strstr(s, " PID: ") + 6);
		copy(d->who, sizeof(d->who), s, (size_t)(v + 7 + n - s));
	}
	if (!d->rip[0] && starts(s, "RIP: 0010:"))
		copy(d->rip, sizeof(d->rip), s + 10, strlen(s + 10));
	if (*ct == CT_WANT && !strcmp(s, "Call Trace:")) {
		*ct = CT_IN;
		return;
	}
	if (*ct != CT_IN)
		return;
	if (strstr(s, "</TASK>") || (*s != ' ' && !reg_line(s))) {
		*ct = CT_DONE;
		return;
	}
	if (*s == ' ' && d->ncalls < RP_DUMP_CALLS &&
	    frame_name(s, d->calls[d->ncalls], sizeof(d->calls[0])))
		d->ncalls++;
}

static struct rp_dump_cpu *cpu_of(struct rp_dump *d, int cpu)
{
	size_t old = d->capcpu;

	if (cpu < 0 || cpu >= RP_DUMP_MAX_CPU)
		return NULL;
	if (BT_GROW(d->cpu, (size_t)cpu + 1, d->capcpu))
		return NULL;
	if (d->capcpu > old)
		memset(d->cpu + old, 0, (d->capcpu - old) * sizeof(*d->cpu));
	if ((size_t)cpu >= d->ncpu)
		d->ncpu = (size_t)cpu + 1;
	return &d->cpu[cpu];
}

/* The dump's initcall_starts (all of them), and those not finished yet. */
struct opens {
	struct rp_dump_open *v;
	size_t n, cap;
	struct rp_icalls open;
};

/* "func=NAME+0x0/0x1000 [mod] ..." of an initcall event */
static void initcall_func(const char *b, size_t len, char *fn, size_t fcap,
			  char *mod, size_t mcap)
{
	const char *end = b + len, *v = memmem(b, len, "func=", 5), *q;

	fn[0] = mod[0] = '\0';
	if (!v)
		return;
	v += 5;
	for (q = v; q < end && *q != '+' && *q != ' '; q++)
		;
	copy(fn, fcap, v, (size_t)(q - v));
	while (q < end && *q != ' ')
		q++;
	if (q + 1 < end && q[1] == '[') {
		const char *m = q + 2, *r = memchr(m, ']', (size_t)(end - m));

		if (r)
			copy(mod, mcap, m, (size_t)(r - m));
	}
}

/* An initcall event: a start kept and opened, a finish closes its task's (report_initcall.c). */
static int initcall(struct opens *o, struct rp_dump *d, const struct rp_line *l)
{
	char fn[128], mod[64];

	if (l->kind != RP_EVENT)
		return 0;
	if (l->a_len == 14 && !memcmp(l->a, "initcall_start", 14)) {
		initcall_func(l->b, l->b_len, fn, sizeof(fn), mod, sizeof(mod));
		if (!fn[0])
			return 0;
		if (BT_GROW(o->v, o->n + 1, o->cap) < 0 ||
		    rp_icalls_start(&o->open, l->task, l->task_len, o->n) < 0)
			return -1;
		d->initcall_events++;
		memset(&o->v[o->n], 0, sizeof(o->v[0]));
		snprintf(o->v[o->n].func, sizeof(o->v[0].func), "%s", fn);
		snprintf(o->v[o->n].module, sizeof(o->v[0].module), "%s", mod);
		copy(o->v[o->n].task, sizeof(o->v[0].task), l->task, l->task_len);
		o->v[o->n].cpu = l->cpu;
		o->v[o->n].ts = l->ts;
		o->n++;
	} else if (l->a_len == 15 && !memcmp(l->a, "initcall_finish", 15)) {
		d->initcall_events++;
		rp_icalls_finish(&o->open, l->task, l->task_len);
	}
	return 0;
}

/*
 * One line of the dump's body: 1 trace text, 2 the dump's own note (lost
 * events, a corrupted function tracer), 0 other output, -1 no memory.
 */
static int dump_line(struct rp_dump *d, struct opens *o, const char *s,
		     size_t len, int *in_stack)
{
	struct rp_dump_cpu *c;
	struct rp_line l;
	unsigned long long n;
	int cpu;
	char k;

	if (sscanf(s, "CPU:%d [LOST %llu EVENTS]", &cpu, &n) == 2) {
		d->lost += n;
		if ((c = cpu_of(d, cpu)))
			c->lost += n;
		*in_stack = 0;
		return 2;
	}
	if (sscanf(s, "CPU:%d [LOST EVENTS%c", &cpu, &k) == 2 && k == ']') {
		if ((c = cpu_of(d, cpu)))
			c->lost_uncounted = 1;
		d->lost_uncounted = 1;
		*in_stack = 0;
		return 2;
	}
	if (strstr(s, "FUNCTION TRACING IS CORRUPTED") ||
	    strstr(s, "MAY BE MISSING FUNCTION EVENTS")) {
		d->corrupted = 1;
		return 2;
	}
	rp_parse_line(s, s + len, &l);
	if (l.kind == RP_FRAME && *in_stack)
		return 1;
	/* other output does not end a stack block: its frames go on after it */
	if ((l.kind != RP_FUNC && l.kind != RP_EVENT && l.kind != RP_STACK &&
	     l.kind != RP_USTACK) || !l.task_len)
		return 0;
	*in_stack = l.kind == RP_STACK || l.kind == RP_USTACK;
	if (*in_stack)
		return 1;	/* the stack of the event before it */
	if (!(c = cpu_of(d, l.cpu)))
		return -1;
	c->seen = 1;
	c->events++;
	c->last_ts = l.ts;
	copy(c->task, sizeof(c->task), l.task, l.task_len);
	while (*s == ' ')
		s++;
	copy(c->last[c->head], sizeof(c->last[0]), s, strlen(s));
	c->head = (c->head + 1) % RP_DUMP_LAST;
	if (c->nlast < RP_DUMP_LAST)
		c->nlast++;
	return initcall(o, d, &l) < 0 ? -1 : 1;
}

/* "<...>-89": the comm of pid 89 from the oops' "CPU: N PID: 89 Comm: X". */
static void name_task(const struct rp_dump *d, char *task, size_t cap)
{
	const char *comm;
	char t[64];

	if (!d->who_pid || !starts(task, "<...>-") || atoi(task + 6) != d->who_pid ||
	    !(comm = strstr(d->who, " Comm: ")))
		return;
	snprintf(t, sizeof(t), "%s-%d", comm + 7, d->who_pid);
	snprintf(task, cap, "%s", t);
}

static int put(char **t, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (BT_GROW(*t, *len + n + 2, *cap))
		return -1;
	memcpy(*t + *len, s, n);
	*len += n;
	(*t)[(*len)++] = '\n';
	(*t)[*len] = '\0';
	return 0;
}

enum { D_BEFORE, D_HEAD, D_BODY, D_AFTER };

/* One log read for its dump: where the reading is, and what it keeps. */
struct dump_read {
	struct rp_dump *d;
	struct opens o;			/* initcalls started, not finished */
	int state;			/* D_BEFORE ... D_AFTER */
	int ct;				/* crash_line's: which call trace */
	int in_stack;			/* in a stack block of the body */
	int later;			/* after a later dump's start line */
	char *t;			/* the dump's trace text */
	size_t tlen, tcap;
};

/* The log begins inside the dump: its first lines are the body. */
static void dump_start_cut(struct dump_read *x)
{
	x->state = D_BODY;
	x->d->start_cut = 1;
	x->d->ndumps = 1;
	x->d->log_line = 1;
}

/*
 * A line [s, s + len) of the dump's body: trace text kept, other console
 * output counted (the first one kept as an example). -1: no memory.
 */
static int dump_body_line(struct dump_read *x, const char *s, size_t len)
{
	struct rp_dump *d = x->d;
	int r;

	if (d->start_cut && !d->lines && !x->in_stack) {
		struct rp_line l;

		/* the frames of a stack whose event was lost with the start */
		rp_parse_line(s, s + len, &l);
		if (l.kind == RP_FRAME)
			return 0;
	}
	if ((r = dump_line(d, &x->o, s, len, &x->in_stack)) < 0)
		return -1;
	if (r == 1) {
		if (put(&x->t, &x->tlen, &x->tcap, s, len))
			return -1;
		d->lines++;
	} else if (!r && !d->interleaved++) {
		copy(d->first_interleaved, sizeof(d->first_interleaved), s, len);
	}
	return 0;
}

/*
 * One cleaned log line [s, s + len), line @lineno: the dump's start, its
 * dashes, its body, or the panic and oops around it. -1: no memory.
 */
static int dump_read_line(struct dump_read *x, const char *s, size_t len,
			  unsigned long long lineno)
{
	struct rp_dump *d = x->d;

	if (x->state == D_HEAD || x->state == D_BODY) {
		if (!strcmp(s, DASHES)) {
			x->state = x->state == D_HEAD ? D_BODY : D_AFTER;
			return 0;
		}
		if (strstr(s, "(ftrace buffer empty)")) {
			d->empty = 1;
			x->state = D_AFTER;
			return 0;
		}
	}
	if (x->state == D_BODY)
		return dump_body_line(x, s, len);
	if (x->state == D_HEAD) {	/* before its first dashes */
		if (strstr(s, "FUNCTION TRACING IS CORRUPTED"))
			d->corrupted = 1;
		return 0;
	}
	if (x->later && *s) {	/* the line after a later dump's start */
		d->later_empty += strstr(s, "(ftrace buffer empty)") != NULL;
		x->later = 0;
	}
	if (strstr(s, DUMP_MARK)) {
		if (!d->ndumps++) {
			d->log_line = lineno;
			x->state = D_HEAD;
		} else {
			x->later = 1;
		}
		return 0;
	}
	crash_line(d, s, &x->ct);
	return 0;
}

/*
 * After the log: a dump not closed is truncated; its tasks are named from
 * the oops; the initcalls that never finished are kept, newest first.
 */
static void dump_finish(struct dump_read *x)
{
	struct rp_dump *d = x->d;
	size_t i;

	if (x->state == D_HEAD || x->state == D_BODY)
		d->truncated = 1;
	for (i = 0; i < d->ncpu; i++)
		name_task(d, d->cpu[i].task, sizeof(d->cpu[i].task));
	d->nopen_all = x->o.open.n;
	for (i = 0; i < x->o.open.n && i < RP_DUMP_OPEN; i++) {
		d->open[i] = x->o.v[x->o.open.open[x->o.open.n - 1 - i].ref];
		name_task(d, d->open[i].task, sizeof(d->open[i].task));
	}
	d->nopen = (unsigned)i;
}

/* The reading's own tables (not the dump, not its text). */
static void dump_read_free(struct dump_read *x)
{
	free(x->o.v);
	x->o.v = NULL;
	rp_icalls_free(&x->o.open);
}

int rp_dump_extract(const char *p, size_t len, struct rp_dump **out,
		    char **trace, size_t *trace_len, const char *name,
		    struct bt_error *e)
{
	return rp_dump_extract_at(p, len, 0, out, trace, trace_len, name, e);
}

/*
 * A log that may begin inside the dump (@in_body): a pstore record keeps
 * the log's tail, and a dump longer than the kernel's log buffer lost its
 * start there before pstore copied it (docs/kernel-facts.md 70). Its
 * lines are read as the dump's body from the first one on, and the dump
 * is marked start_cut: what came before is said to be missing.
 */
int rp_dump_extract_at(const char *p, size_t len, int in_body,
		       struct rp_dump **out, char **trace, size_t *trace_len,
		       const char *name, struct bt_error *e)
{
	const char *end = p + len, *q, *nl, *s;
	struct dump_read x = { .state = D_BEFORE, .ct = CT_NONE };
	char *buf = NULL;
	size_t cap = 0, blen;
	unsigned long long lineno = 0;

	*out = NULL;
	if (!(x.d = calloc(1, sizeof(*x.d))))
		goto oom;
	if (in_body && !rp_dump_holds(p, len))
		dump_start_cut(&x);
	for (q = p; q < end; q = nl ? nl + 1 : end) {
		nl = memchr(q, '\n', (size_t)(end - q));
		lineno++;
		if (!(s = rp_log_clean(&buf, &cap, &blen, q, nl ? nl : end)) ||
		    dump_read_line(&x, s, blen - (size_t)(s - buf), lineno))
			goto oom;
	}
	dump_finish(&x);
	dump_read_free(&x);
	free(buf);
	buf = NULL;
	if (!x.d->ndumps) {
		rp_dump_free(x.d);
		free(x.t);
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "no \"%s\" line: the console log holds no ftrace dump (the kernel prints one on an oops or panic with ftrace_dump_on_oops on its command line)", DUMP_MARK);
	}
	if (trace) {
		if (!x.t && !(x.t = calloc(1, 1)))
			goto oom;
		*trace = x.t;
		*trace_len = x.tlen;
	} else {
		free(x.t);
	}
	*out = x.d;
	return 0;
oom:
	dump_read_free(&x);
	free(buf);
	free(x.t);
	rp_dump_free(x.d);
	return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
}
