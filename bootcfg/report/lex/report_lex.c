// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lexing: trace text -> events (function hits, events, stack blocks) for
 * the counters (report_agg.c). The text is consumed in place, whole lines
 * and whole stack blocks at a time, so a caller can feed any chunking of a
 * file. Names, tasks, bodies and stacks are interned here; nothing is
 * allocated per line.
 */
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/lex/count.h"

#define RP_BLOCK_MAX (1u << 20)	/* a longer stack block is cut */

static struct rp_pending *pending(struct report *r, int cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	if ((size_t)cpu >= r->npend) {
		size_t had = r->npend;

		if (BT_GROW(r->pend, (size_t)cpu + 1, r->npend))
			return NULL;
		memset(r->pend + had, 0, (r->npend - had) * sizeof(*r->pend));
	}
	return &r->pend[cpu];
}

/*
 * A kprobe event names its probe point and then the values it recorded:
 * "(register_netdevice+0x0/0x7e0) name=\"bond%d\"". 1 (@l's name the
 * function, its body the values) or 0: not a kprobe's.
 */
static int event_target(struct rp_line *l)
{
	const char *b = l->b, *e, *end = l->b + l->b_len;

	if (!l->b_len || *b != '(')
		return 0;
	e = memchr(b, ')', l->b_len);
	if (!e || e == b + 1)
		return 0;
	l->a = b + 1;
	l->a_len = rp_sym_len(b + 1, (size_t)(e - b - 1));
	for (e++; e < end && *e == ' '; e++)
		;
	while (end > e && (end[-1] == ' ' || end[-1] == '\r'))
		end--;
	l->b = e;
	l->b_len = (size_t)(end - e);
	return 1;
}

/* A name of the line ("func+0x1a/0x80" as "func"), interned. */
static uint32_t line_name(struct report *r, const char *s, size_t len)
{
	return rp_intern(&r->names, s, rp_sym_len(s, len));
}

/*
 * "func <-parent" of a function line as name ids. A trace repeats a few
 * such bodies many times: one lookup of the whole body replaces two
 * symbol scans and two lookups.
 */
static int fn_body(struct report *r, const struct rp_line *l, uint32_t *fn,
		   uint32_t *parent)
{
	size_t len = l->b_len ? (size_t)(l->b + l->b_len - l->a) : l->a_len;
	uint32_t b = rp_intern(&r->bodies, l->a, len);

	if (b == RP_NONE)
		return -1;
	if (b >= r->nbody) {	/* new: ids are handed out in order */
		if (BT_GROW(r->body, (size_t)b + 1, r->capbody))
			return -1;
		r->body[b].fn = line_name(r, l->a, l->a_len);
		r->body[b].parent = l->b_len ? line_name(r, l->b, l->b_len) :
					       RP_NONE;
		if (r->body[b].fn == RP_NONE ||
		    (l->b_len && r->body[b].parent == RP_NONE))
			return -1;	/* not kept: r->nbody stays */
		r->nbody = b + 1;
	}
	*fn = r->body[b].fn;
	*parent = r->body[b].parent;
	return 0;
}

/* ---- function_graph --------------------------------------------------- */

#define RP_GDEPTH 64	/* deeper calls are counted without a parent */
#define RP_GSTACKS 65536

/* The calls open on a CPU (kernel layout) or in a task (trace-cmd). */
struct rp_gstack {
	int key;		/* -1 - cpu, or the pid */
	uint32_t task;		/* RP_NONE: not known yet */
	int pid;
	uint64_t seq;		/* when last used */
	int depth;
	uint32_t fn[RP_GDEPTH];
};

static struct rp_gstack *gstack(struct report *r, int key)
{
	struct rp_gstack *g;
	size_t i;

	for (i = r->ngst; i-- > 0;)
		if (r->gst[i].key == key)
			return &r->gst[i];
	if (r->ngst >= RP_GSTACKS ||
	    BT_GROW(r->gst, r->ngst + 1, r->capgst))
		return NULL;
	g = &r->gst[r->ngst++];
	memset(g, 0, sizeof(*g));
	g->key = key;
	g->task = RP_NONE;
	return g;
}

/*
 * The caller of a call at depth @d: the call open at d - 1. On a CPU that
 * has none, the task came from another CPU mid-call (the kernel layout
 * names CPUs, not tasks): its calls are on the CPU stack used last that
 * is that deep, and move here with it.
 */
static uint32_t gparent(struct report *r, struct rp_gstack *g, int d)
{
	struct rp_gstack *best = NULL;
	size_t i;

	if (d <= 0 || d > RP_GDEPTH)
		return RP_NONE;
	if (g->depth >= d)
		return g->fn[d - 1];
	if (g->key >= 0)
		return RP_NONE;
	for (i = 0; i < r->ngst; i++)
		if (&r->gst[i] != g && r->gst[i].key < 0 &&
		    r->gst[i].depth >= d && (!best || r->gst[i].seq > best->seq))
			best = &r->gst[i];
	if (!best)
		return RP_NONE;
	memcpy(g->fn, best->fn, (size_t)d * sizeof(g->fn[0]));
	g->depth = d;
	return g->fn[d - 1];
}

/* "12.345 us" (or "12345.67 us": fewer decimals past 7 digits), in ns. */
static uint64_t graph_dur(const char *p, const char *end)
{
	uint64_t us = 0, ns = 0;
	int k = 0;

	while (p < end && (*p == ' ' || strchr("+!#*@$", *p)))
		p++;
	while (p < end && *p >= '0' && *p <= '9')
		us = us * 10 + (uint64_t)(*p++ - '0');
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9' && k < 3; p++, k++)
			ns = ns * 10 + (uint64_t)(*p - '0');
	for (; k < 3; k++)
		ns *= 10;
	return us * 1000 + ns;
}

/* "  10.123456 " (seconds) in ns. */
static uint64_t graph_abs(const char *p, const char *end)
{
	uint64_t sec = 0, frac = 0;
	int k = 0;

	while (p < end && *p == ' ')
		p++;
	while (p < end && *p >= '0' && *p <= '9' && sec < 100000000000ULL)
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9' && k < 9; p++, k++)
			frac = frac * 10 + (uint64_t)(*p - '0');
	for (; k < 9; k++)
		frac *= 10;
	return sec * 1000000000ULL + frac;
}

static int ends_us(const char *p, const char *e)
{
	while (e > p && e[-1] == ' ')
		e--;
	return e - p >= 2 && e[-2] == 'u' && e[-1] == 's';
}

static int blank(const char *p, const char *e)
{
	while (p < e && *p == ' ')
		p++;
	return p == e;
}

/*
 * One call of a graph: from its duration column ("  |  " or
 * "+ 12.345 us |  ") on, "name() {", "name();", "}" or "} (comment: name)"
 * indented two spaces a level (kernel/trace/trace_functions_graph.c).
 * @g: where the calls are open; @task, @pid, @ts: of the line.
 */
static int graph_call(struct report *r, struct rp_gstack *g, const char *p,
		      const char *end, uint32_t task, int pid, uint64_t ts)
{
	const char *bar = memchr(p, '|', (size_t)(end - p)), *t, *q;
	uint64_t dur;
	uint32_t fn, parent;
	struct rp_ev *ev;
	int d, n = 0;

	if (!bar)
		return 1;
	dur = blank(p, bar) ? 0 : graph_dur(p, bar);
	for (t = bar + 1; t < end && *t == ' '; t++)
		n++;
	d = n >= 2 ? (n - 2) / 2 : 0;
	g->seq = ++r->gseq;
	if (t < end && *t == '}') {	/* a return: its call's time */
		/*
		 * "} (comment: name)": the kernel names the function when the
		 * return is not the call it saw last on this CPU (an irq in
		 * between, a task that moved): the name, not the nesting.
		 */
		q = memmem(t, (size_t)(end - t), "/* ", 3);
		fn = RP_NONE;
		if (q) {
			q += 3;
			fn = line_name(r, q, (size_t)(end - q));
			if (fn == RP_NONE)
				return -1;
		} else {
			if (g->depth <= d)
				gparent(r, g, d + 1);	/* called on another CPU */
			if (g->depth > d && d < RP_GDEPTH)
				fn = g->fn[d];
		}
		if (fn != RP_NONE) {
			ev = rp_emit(r);
			memset(ev, 0, sizeof(*ev));
			ev->kind = RP_EV_DUR;
			ev->fn = fn;
			ev->ts = dur;
		}
		g->depth = d < g->depth ? d : g->depth;
		return 0;
	}
	if (t == end || *t == '/' || *t == '=' || *t == '<')
		return 0;	/* a comment, an irq arrow */
	q = memmem(t, (size_t)(end - t), "()", 2);
	if (!q || q == t)
		return 1;
	fn = line_name(r, t, (size_t)(q - t));
	if (fn == RP_NONE)
		return -1;
	parent = gparent(r, g, d);
	ev = rp_emit(r);
	ev->kind = RP_EV_FUNC;
	ev->aux = 0;	/* the CPU: not known here */
	ev->fn = fn;
	ev->other = parent;
	ev->task = task;
	ev->pid = (uint32_t)pid;
	ev->ts = ts;
	q += 2;
	while (q < end && *q == ' ')
		q++;
	if (q < end && *q == '{') {	/* it goes on: open */
		if (d < RP_GDEPTH) {
			g->fn[d] = fn;
			g->depth = d + 1;
		}
	} else {	/* a leaf: its time now (an irq's leaf may come at the
			 * depth of the call it interrupted: nothing closes) */
		ev = rp_emit(r);
		memset(ev, 0, sizeof(*ev));
		ev->kind = RP_EV_DUR;
		ev->fn = fn;
		ev->ts = dur;
	}
	return 0;
}

/* "comm-pid" in [p, e), trimmed: interned, with its pid. */
static uint32_t graph_task(struct report *r, const char *p, const char *e,
			   int *pid)
{
	const char *d;

	while (p < e && *p == ' ')
		p++;
	while (e > p && e[-1] == ' ')
		e--;
	for (d = e; d > p && d[-1] >= '0' && d[-1] <= '9'; d--)
		;
	if (d == e || d == p || d[-1] != '-' || e - d > 9)
		return RP_NONE;
	*pid = atoi(d);
	return rp_intern(&r->tasks, p, (size_t)(e - p));
}

/*
 * A line of the function_graph tracer's own layout:
 *   [abs time " |  "] [rel time] " N) " [" comm-pid  | "] [" flags | "]
 *   duration column, call
 * and the context-switch lines " N)  old-1  =>  new-2", " ------". 1: not
 * such a line; -1: out of memory.
 */
static int graph_line(struct report *r, const char *p, const char *end)
{
	const char *q = p, *c = NULL, *d, *bar, *arrow;
	struct rp_gstack *g;
	uint64_t ts = 0;
	uint32_t task;
	int cpu = 0, pid = 0, i;

	if (end > p && end[-1] == '\r')
		end--;
	while (q < end && *q == ' ')
		q++;
	if (q < end && *q == '-')
		return 0;	/* " -----" around a context switch */
	for (d = q; d < end && d - p < 64; d++)	/* the " N) " column */
		if (*d == ')' && d > q && d[-1] >= '0' && d[-1] <= '9') {
			const char *b = d - 1;

			while (b > q && b[-1] >= '0' && b[-1] <= '9')
				b--;
			if (b == q || b[-1] == ' ') {
				c = d;
				cpu = atoi(b);
				break;
			}
		}
	if (!c)
		return 1;
	if ((bar = memchr(q, '|', (size_t)(c - q))) && !ends_us(q, bar))
		ts = graph_abs(q, bar);	/* funcgraph-abstime: "%5lu.%06lu |" */
	g = gstack(r, -1 - cpu);
	if (!g)
		return -1;
	q = c + 1;
	if (!memchr(q, '|', (size_t)(end - q))) {
		if ((arrow = memmem(q, (size_t)(end - q), "=>", 2))) {
			task = graph_task(r, arrow + 2, end, &pid);
			if (task != RP_NONE) {
				g->task = task;
				g->pid = pid;
			}
			return 0;
		}
		return 1;
	}
	task = g->task;
	pid = g->pid;
	for (i = 0; i < 3; i++) {	/* the proc and latency columns */
		bar = memchr(q, '|', (size_t)(end - q));
		if (!bar || blank(q, bar) || ends_us(q, bar))
			break;
		if ((c = memchr(q, '-', (size_t)(bar - q)))) {
			uint32_t t = graph_task(r, q, bar, &pid);

			if (t != RP_NONE)
				task = g->task = t, g->pid = pid;
		}
		q = bar + 1;
	}
	if (task == RP_NONE) {
		char name[32];

		snprintf(name, sizeof(name), "(cpu %d)", cpu);
		task = rp_intern(&r->tasks, name, strlen(name));
		if (task == RP_NONE)
			return -1;
	}
	if (!ts) {	/* no funcgraph-abstime: the line number orders */
		ts = r->lines + 1;
		r->ts_raw = 1;
	}
	r->entries++;
	return graph_call(r, g, q, end, task, pid, ts);
}

/* ---- lines ------------------------------------------------------------- */

/*
 * An event that is something else: a syscall ("sys_openat(dfd: ...)" and
 * "sys_openat -> 0x3" of events/syscalls, named sys_enter_openat and
 * sys_exit_openat as trace-cmd does), trace-cmd's "function: f <-- p"
 * (a function line) and "funcgraph_entry/exit: ..." (a graph line). 1:
 * not one of them; 0: @l rewritten or, for the graph, counted; -1: no
 * memory.
 */
static int event_special(struct report *r, struct rp_line *l, uint32_t *id)
{
	const char *b = l->b, *e = l->b + l->b_len, *q;
	char name[128];
	struct rp_gstack *g;

	if (l->sys) {
		snprintf(name, sizeof(name), "sys_%s_%.*s",
			 l->sys == 1 ? "enter" : "exit", (int)(l->a_len - 4),
			 l->a + 4);
		*id = rp_intern(&r->names, name, strlen(name));
		return *id == RP_NONE ? -1 : 0;
	}
	if (l->a_len == 8 && !memcmp(l->a, "function", 8) && l->b_len) {
		/* "f <-- p" (trace-cmd's function plugin) or "f <-p" or "f" */
		l->kind = RP_FUNC;
		l->a = b;
		l->a_len = rp_sym_len(b, l->b_len);
		q = memmem(b, l->b_len, "<-", 2);
		if (q) {
			q += 2;
			while (q < e && (*q == '-' || *q == ' '))
				q++;
			l->b = q;
			l->b_len = (size_t)(e - q);
		} else {
			l->b_len = 0;
		}
		return 1;	/* on as a function line */
	}
	if (l->a_len > 10 && !memcmp(l->a, "funcgraph_", 10)) {
		uint32_t task = l->task_id != RP_NONE ? l->task_id :
				rp_intern(&r->tasks, l->task, l->task_len);

		if (task == RP_NONE || !(g = gstack(r, l->pid)))
			return -1;
		r->hdr.how = RP_READ_GRAPH;
		return graph_call(r, g, b, e, task, l->pid, l->ts) < 0 ? -1 : 0;
	}
	return 1;
}

/*
 * A lineage event (fork, exec, exit, module load or request): to the
 * process table, and then counted as the event it is (its hit marked, so
 * that the outputs list it only when asked or when it has stacks).
 * 1: it was one; -1: no memory.
 */
static int proc_event(struct report *r, const struct rp_line *l)
{
	struct rp_proc_ev pe;
	struct rp_ev *ev;
	uint32_t task, s;

	if (!rp_proc_parse(l, &pe))
		return 0;
	task = l->task_id != RP_NONE ? l->task_id :
	       rp_intern(&r->tasks, l->task, l->task_len);
	s = rp_intern(&r->progs, pe.s, pe.s_len);
	if (task == RP_NONE || s == RP_NONE)
		return -1;
	ev = rp_emit(r);
	ev->kind = RP_EV_PROC;
	ev->aux = pe.kind;
	ev->fn = s;
	ev->other = pe.child < 0 ? RP_NONE : (uint32_t)pe.child;
	ev->task = task;
	ev->pid = (uint32_t)pe.pid;
	ev->ts = l->ts;
	return 1;
}

/*
 * An initcall event (docs/kernel-facts.md 75): "initcall_level:
 * level=core", "initcall_start: func=NAME+0x0/0x40 [mod]",
 * "initcall_finish: func=NAME+0x0/0x40 ret=0", its level or function to
 * the counters (report_timeline.c pairs and times them). The line is
 * counted as the event it is too. -1: no memory.
 */
static int icall_event(struct report *r, const struct rp_line *l, uint32_t task)
{
	const char *b = l->b, *e = l->b + l->b_len, *v, *q;
	uint32_t which, s = RP_NONE;
	long ret = 0;
	struct rp_ev *ev;

	if (l->a_len == 14 && !memcmp(l->a, "initcall_level", 14)) {
		which = RP_IC_LEVEL;
		v = memmem(b, l->b_len, "level=", 6);
		v = v ? v + 6 : NULL;
	} else if (l->a_len == 14 && !memcmp(l->a, "initcall_start", 14)) {
		which = RP_IC_START;
		v = memmem(b, l->b_len, "func=", 5);
		v = v ? v + 5 : NULL;
	} else if (l->a_len == 15 && !memcmp(l->a, "initcall_finish", 15)) {
		which = RP_IC_FINISH;
		v = NULL;
	} else {
		return 0;
	}
	if (which == RP_IC_FINISH && (q = memmem(b, l->b_len, "ret=", 4))) {
		int neg = (q += 4) < e && *q == '-';

		for (q += neg; q < e && *q >= '0' && *q <= '9' && ret < 1000000000; q++)
			ret = ret * 10 + (*q - '0');
		ret = neg ? -ret : ret;
	}
	if (which != RP_IC_FINISH) {
		if (!v)
			return 0;	/* not the kernel's layout: an event only */
		for (q = v; q < e && *q != ' '; q++)
			;
		s = rp_intern(&r->progs, v, which == RP_IC_START ?
			      rp_sym_len(v, (size_t)(q - v)) : (size_t)(q - v));
		if (s == RP_NONE)
			return -1;
	}
	ev = rp_emit(r);
	ev->kind = RP_EV_ICALL;
	ev->aux = which;
	ev->fn = s;
	ev->other = (uint32_t)(int32_t)ret;
	ev->task = task;
	ev->pid = (uint32_t)l->pid;
	ev->ts = l->ts;
	return 0;
}

/* A function or event line: its ids to the counters, and it waits on its
 * CPU for the stack block that may follow. */
static int hit(struct report *r, struct rp_line *l)
{
	uint32_t id = RP_NONE, task, parent = RP_NONE;
	struct rp_pending *p;
	struct rp_ev *ev;
	int sp, lineage = 0, probe = 0;

	if (l->kind == RP_EVENT && (lineage = proc_event(r, l)) < 0)
		return -1;
	if (l->kind == RP_EVENT && (sp = event_special(r, l, &id)) <= 0) {
		if (sp < 0)
			return -1;
		if (id == RP_NONE)
			return 0;	/* a graph line, counted */
	} else if (l->kind == RP_EVENT) {
		if ((probe = event_target(l)) && l->b_len &&
		    (parent = rp_intern(&r->progs, l->b, l->b_len)) == RP_NONE)
			return -1;	/* parent: the probe's values */
		id = line_name(r, l->a, l->a_len);
	}
	if (l->kind == RP_FUNC && fn_body(r, l, &id, &parent))
		return -1;
	task = l->task_id != RP_NONE ? l->task_id :
	       rp_intern(&r->tasks, l->task, l->task_len);
	if (id == RP_NONE || task == RP_NONE)
		return -1;
	if (l->kind == RP_EVENT && l->a_len > 9 && !memcmp(l->a, "initcall_", 9) &&
	    icall_event(r, l, task))
		return -1;
	ev = rp_emit(r);
	ev->kind = probe ? RP_EV_PROBE : l->kind == RP_EVENT ? RP_EV_EVENT : RP_EV_FUNC;
	ev->aux = (lineage ? RP_AUX_LINEAGE : 0) |
		  (l->cpu >= 0 && l->cpu < 65536 ? (uint32_t)(l->cpu + 1) << RP_AUX_CPU_SHIFT : 0);
	ev->fn = id;
	ev->other = parent;
	ev->task = task;
	ev->pid = (uint32_t)l->pid;
	ev->ts = l->ts;
	r->ts_raw |= l->ts_raw;
	if (!(p = pending(r, l->cpu)))
		return l->cpu < 0 || l->cpu > 65535 ? 0 : -1;
	p->pid = l->pid;
	p->fn = id;
	p->task = task;
	p->ts = l->ts;
	p->live = 1;
	return 0;
}

/*
 * The frames of a "<stack trace>" belong to the hit before it on that CPU.
 * @id: the stack when rp_stack_guess found it, else RP_NONE; @guess: the
 * block's first RP_GUESS_LEN bytes are in the buffer, so a new stack can
 * be remembered by them.
 */
/* Frame @i (0: innermost) of the block [p, end): its name's length. */
static const char *frame_at(const char *p, const char *end, int i, size_t *len)
{
	const char *nl;

	for (;; i--) {
		if (end - p < 4 || memcmp(p, " => ", 4))
			return NULL;
		p += 4;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!i) {
			*len = rp_sym_len(p, (size_t)((nl ? nl : end) - p));
			if (*len && p[*len - 1] == '\r')
				--*len;
			return p;
		}
		if (!nl)
			return NULL;
		p = nl + 1;
	}
}

static int frame_is(const char *f, size_t len, const char *name)
{
	return f && len == strlen(name) && !memcmp(f, name, len);
}

/*
 * The event a stack block with no event line before it was taken for,
 * from the tracer's frames at its top: a stacktrace trigger on an event
 * that is not enabled records the stack alone (docs/kernel-facts.md 27).
 * "trace_event_raw_event_NAME" names tracepoint NAME; "kprobe_trace_func
 * => kprobe_dispatcher => kprobe_ftrace_handler => <trampoline> => F" a
 * kprobe on F (named F, as its event lines are). RP_NONE: neither.
 */
static uint32_t trigger_event(struct report *r, const char *p,
			      const char *end)
{
	static const char ev[] = "trace_event_raw_event_";
	const char *f, *g;
	size_t len = 0, glen = 0;

	f = frame_at(p, end, 0, &len);
	if (f && len > sizeof(ev) - 1 && !memcmp(f, ev, sizeof(ev) - 1))
		return line_name(r, f + sizeof(ev) - 1, len - (sizeof(ev) - 1));
	if (!frame_is(f, len, "kprobe_trace_func"))
		return RP_NONE;
	f = frame_at(p, end, 1, &len);
	if (!frame_is(f, len, "kprobe_dispatcher"))
		return RP_NONE;
	f = frame_at(p, end, 2, &len);
	if (!frame_is(f, len, "kprobe_ftrace_handler"))
		return RP_NONE;
	g = frame_at(p, end, 4, &glen);	/* after the trampoline */
	return g && glen ? line_name(r, g, glen) : RP_NONE;
}

static int stack(struct report *r, const struct rp_line *l, const char *p,
		 const char *end, uint32_t id, int guess)
{
	struct rp_pending *pd = pending(r, l->cpu);
	struct rp_ev *ev;

	if (!pd || !pd->live || pd->pid != l->pid) {
		uint32_t fn = trigger_event(r, p, end), task;

		if (fn == RP_NONE || !pd) {
			r->skip.orphan_stacks++;
			return 0;
		}
		/* the hit of the event the trigger stands for */
		task = l->task_id != RP_NONE ? l->task_id :
		       rp_intern(&r->tasks, l->task, l->task_len);
		if (task == RP_NONE)
			return -1;
		ev = rp_emit(r);
		ev->kind = RP_EV_EVENT;
		ev->aux = l->cpu >= 0 && l->cpu < 65536 ?
			  (uint32_t)(l->cpu + 1) << RP_AUX_CPU_SHIFT : 0;
		ev->fn = fn;
		ev->other = RP_NONE;
		ev->task = task;
		ev->pid = (uint32_t)l->pid;
		ev->ts = l->ts;
		r->ts_raw |= l->ts_raw;
		pd->pid = l->pid;
		pd->fn = fn;
		pd->task = task;
		pd->ts = l->ts;
		r->skip.trigger_stacks++;
	}
	pd->live = 0;
	if (p == end)
		return 0;
	if (id == RP_NONE) {
		id = rp_stack_intern(&r->stacks, &r->names, p, end);
		if (id != RP_NONE && guess &&
		    rp_stack_guessed(&r->stacks, p, id))
			return -1;
	}
	if (id == RP_NONE)
		return -1;
	ev = rp_emit(r);
	ev->kind = RP_EV_STACK;
	ev->fn = pd->fn;
	ev->other = id;
	ev->task = pd->task;
	ev->pid = (uint32_t)pd->pid;
	ev->aux = (uint32_t)(l->cpu + 1) << RP_AUX_CPU_SHIFT;	/* pending(): 0..65535 */
	ev->ts = pd->ts;
	return 0;
}

/*
 * What the "# tracer: NAME" header says about the lines that follow: the
 * one place a tracer is recognized. Read line by line (the default or the
 * latency layout: function lines, events, stack blocks), read as a call
 * graph (function_graph), or refused with why.
 */
static const struct rp_tracer {
	const char *name;
	enum rp_read how;
	const char *why;
} tracers[] = {
	{ "nop", RP_READ_LINES, NULL },		/* events, kprobes, syscalls */
	{ "function", RP_READ_LINES, NULL },	/* "func <-parent", stacks */
	{ "function_graph", RP_READ_GRAPH, NULL },
	/* the latency tracers: the worst section's function lines and
	 * stack, in the latency layout */
	{ "irqsoff", RP_READ_LINES, NULL },
	{ "preemptoff", RP_READ_LINES, NULL },
	{ "preemptirqsoff", RP_READ_LINES, NULL },
	{ "wakeup", RP_READ_LINES, NULL },
	{ "wakeup_rt", RP_READ_LINES, NULL },
	{ "wakeup_dl", RP_READ_LINES, NULL },
	{ "osnoise", RP_READ_REFUSE,
	  "its lines are per-CPU noise samples (runtime, noise, interference counts), not calls: read it with rtla osnoise, or trace with tracer function or the osnoise events under tracer nop" },
	{ "timerlat", RP_READ_REFUSE,
	  "its lines are timer wake-up latencies, not calls: read it with rtla timerlat" },
	{ "hwlat", RP_READ_REFUSE,
	  "its lines are hardware latency samples, not calls" },
	{ "blk", RP_READ_REFUSE,
	  "its lines are block I/O actions: read them with blkparse" },
	{ "mmiotrace", RP_READ_REFUSE,
	  "its lines are MMIO accesses, not calls" },
	{ "branch", RP_READ_REFUSE,
	  "its lines are branch-annotation hits, not calls" },
};

static void set_tracer(struct report *r, const char *name)
{
	size_t i;

	r->hdr.how = RP_READ_REFUSE;
	r->hdr.refused = "it is not a tracer report reads (function, function_graph, nop with events, irqsoff, preemptoff, preemptirqsoff, wakeup, wakeup_rt, wakeup_dl)";
	for (i = 0; i < sizeof(tracers) / sizeof(tracers[0]); i++)
		if (!strcmp(name, tracers[i].name)) {
			r->hdr.how = tracers[i].how;
			r->hdr.refused = tracers[i].why;
		}
}

static void header(struct report *r, const struct rp_line *l)
{
	const char *s = l->a, *end = l->a + l->a_len, *q;
	unsigned long long a, b;
	int n;

	if (l->a_len > 10 && !memcmp(s, "# tracer: ", 10) &&
	    !r->hdr.tracer[0]) {	/* the first: another is text */
		size_t len = l->a_len - 10;

		if (len >= sizeof(r->hdr.tracer))
			len = sizeof(r->hdr.tracer) - 1;
		memcpy(r->hdr.tracer, s + 10, len);
		r->hdr.tracer[len] = '\0';
		while (len && (r->hdr.tracer[len - 1] == '\r' ||
			       r->hdr.tracer[len - 1] == ' '))
			r->hdr.tracer[--len] = '\0';
		set_tracer(r, r->hdr.tracer);
		return;
	}
	q = s;
	while (q < end && *q != 'e')
		q++;
	if (end - q > 34 && !memcmp(q, "entries-in-buffer/entries-written: ", 35)) {
		char buf[96];
		size_t len = (size_t)(end - q - 35);

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, q + 35, len);
		buf[len] = '\0';
		if (sscanf(buf, "%llu/%llu #P:%d", &a, &b, &n) >= 2) {
			r->hdr.have_entries = 1;
			r->hdr.in_buffer = a;
			r->hdr.written = b;
			if (sscanf(buf, "%*u/%*u #P:%d", &n) == 1)
				r->hdr.ncpu = n;
		}
	}
}

/*
 * The header lines of `trace-cmd report` ("cpus=2", "version = 6", "CPU 1
 * is empty", "CPU:1 [LOST 12 EVENTS]"): 1 when [p, e) is one.
 */
static int tracecmd_header(struct report *r, const char *p, const char *e)
{
	char buf[64];
	size_t n = (size_t)(e - p);
	int v;

	if (n >= sizeof(buf))
		return 0;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\r')
		buf[--n] = '\0';
	if (sscanf(buf, "cpus=%d", &v) == 1) {
		r->hdr.ncpu = v;
	} else if (sscanf(buf, "version = %d", &v) == 1 ||
		   (sscanf(buf, "CPU %d is empty", &v) == 1 &&
		    strstr(buf, " is empty"))) {
		/* nothing to keep */
	} else if (sscanf(buf, "CPU:%d [LOST", &v) == 1) {
		/* a gap trace-cmd itself marks */
	} else {
		return 0;
	}
	r->hdr.tracecmd = 1;
	return 1;
}

/* " => ": one 4-byte compare, as this runs for every frame line. */
static int is_frame(const char *p, const char *end)
{
	return end - p >= 4 && !memcmp(p, " => ", 4);
}

static void bad_line(struct report *r, const char *p, const char *end)
{
	const char *q;

	if (!r->skip.lines)
		r->skip.first_line = r->lines;
	r->skip.lines++;
	for (q = p; q < end; q++)
		if ((unsigned char)*q < 0x20 && *q != '\t' && *q != '\r') {
			r->skip.binary++;
			break;
		}
}

/*
 * The end of the frame lines from @b, found line by line, with how many
 * lines and how many of them lack a newline (the input's last); NULL when
 * the block may go on past the bytes read so far (the caller comes back
 * with more before counting anything).
 */
static const char *block_end(const char *b, const char *end, int eof,
			     uint64_t *lines, uint64_t *cut)
{
	const char *q = b, *n2;

	*lines = 0;
	while (q < end) {
		if (end - q < 4) {
			if (!eof)
				return NULL;	/* " =" of a frame cut by the read */
			break;
		}
		if (!is_frame(q, end))
			break;
		n2 = memchr(q + 4, '\n', (size_t)(end - q - 4));
		if (!n2 && !eof)
			return NULL;
		q = n2 ? n2 + 1 : end;
		++*lines;
		*cut += !n2;
		if ((size_t)(q - b) > RP_BLOCK_MAX)
			break;
	}
	if (q == end && !eof)
		return NULL;
	return q;
}

/*
 * The block at @b when it is, byte for byte, the stack rp_stack_guess
 * names and no frame line follows: its end, else NULL (then the block is
 * scanned line by line). What the scan would stop at is checked: the line
 * after must be in the buffer (or the input ended) and not be a frame.
 */
static const char *known_block(const struct report *r, const char *b,
			       const char *end, int eof, uint32_t *id)
{
	const struct rp_stacks *st = &r->stacks;
	const struct rp_stack *s;
	const char *q;

	*id = rp_stack_guess(st, b);
	if (*id == RP_NONE)
		return NULL;
	s = &st->s[*id];
	q = b + s->raw_len;
	if (!s->raw_len || st->raw[s->raw_off + s->raw_len - 1] != '\n' ||
	    (size_t)(end - b) < s->raw_len ||
	    (end - q < 4 && !(eof && q == end)) ||
	    memcmp(b, st->raw + s->raw_off, s->raw_len) ||
	    (q < end && is_frame(q, end)))
		return NULL;
	return q;
}

/*
 * Line prefixes ("task-pid [cpu] flags  ", up to the time) already parsed,
 * with their task interned: a trace has few (tasks x CPUs x flags), and a
 * line that starts with one only needs its time and body parsed. Found by
 * the line's first RP_PREFIX_KEY bytes, direct-mapped; the whole prefix
 * is compared, so a collision only costs a full parse.
 */
#define RP_PREFIX_KEY 32	/* "%16s-%-7d [%03d]" is 30 */
#define RP_PREFIX_MAX 64
#define RP_NPREFIX 256

struct rp_prefix {
	char text[RP_PREFIX_MAX];
	uint32_t len;		/* 0: empty */
	uint32_t task;
	int pid, cpu, flags_w;
};

static struct rp_prefix *prefix_slot(struct report *r, const char *p,
				     const char *e)
{
	if (e - p <= RP_PREFIX_KEY)
		return NULL;
	if (!r->prefix && !(r->prefix = calloc(RP_NPREFIX, sizeof(*r->prefix))))
		return NULL;	/* no memo: every line parsed whole */
	return &r->prefix[rp_fold(p, RP_PREFIX_KEY / 8) & (RP_NPREFIX - 1)];
}

/* The line [p, e) through a known prefix; 0 when it does not fit. */
static int prefix_parse(const struct rp_prefix *px, const char *p,
			const char *e, struct rp_line *l)
{
	if (!px->len || (size_t)(e - p) <= px->len || memcmp(p, px->text, px->len))
		return 0;
	if (e[-1] == '\r')
		e--;	/* serial consoles */
	memset(l, 0, sizeof(*l));
	if (!rp_parse_rest(p + px->len, e, l))
		return 0;
	l->ts_at = p + px->len;
	l->task_id = px->task;
	l->pid = px->pid;
	l->cpu = px->cpu;
	l->flags_w = px->flags_w;
	return 1;
}

/* Keep the prefix of a default-layout line just parsed whole. */
static void prefix_keep(struct report *r, struct rp_prefix *px,
			const char *p, struct rp_line *l)
{
	size_t n = l->ts_at ? (size_t)(l->ts_at - p) : 0;
	uint32_t task;

	if (n < RP_PREFIX_KEY || n > RP_PREFIX_MAX)
		return;
	task = rp_intern(&r->tasks, l->task, l->task_len);
	if (task == RP_NONE)
		return;	/* hit() fails on it again, and says so */
	memcpy(px->text, p, n);
	px->len = (uint32_t)n;
	px->task = l->task_id = task;
	px->pid = l->pid;
	px->cpu = l->cpu;
	px->flags_w = l->flags_w;
}

const char *rp_lex(struct report *r, const char *p, const char *end,
		   int eof, int *oom)
{
	const char *nl, *e, *b, *q;
	struct rp_prefix *px;
	struct rp_line l;

	nl = memchr(p, '\n', (size_t)(end - p));
	if (!nl && !eof)
		return NULL;
	e = nl ? nl : end;
	if (r->hdr.how == RP_READ_GRAPH && r->hdr.tracer[0] && p < e &&
	    *p != '#') {
		int g = graph_line(r, p, e);

		if (g <= 0) {
			r->lines++;
			r->skip.truncated += !nl;
			if (g < 0)
				*oom = 1;
			return nl ? nl + 1 : end;
		}
	}
	px = prefix_slot(r, p, e);
	if (!px || !prefix_parse(px, p, e, &l)) {
		rp_parse_line(p, e, &l);
		if (px && l.kind != RP_BAD && l.ts_at)
			prefix_keep(r, px, p, &l);
	}
	if (l.kind != RP_STACK && l.kind != RP_USTACK) {
		r->lines++;
		r->skip.truncated += !nl;
	}
	switch (l.kind) {
	case RP_FUNC:
	case RP_EVENT:
		r->entries++;
		if (l.flags_w == 4)
			r->hdr.old_layout = 1;
		if (hit(r, &l))
			*oom = 1;
		break;
	case RP_STACK:
	case RP_USTACK: {
		uint64_t lines, cut = 0;
		uint32_t id;
		int guess;

		b = nl ? nl + 1 : end;
		guess = l.kind == RP_STACK && end - b >= RP_GUESS_LEN;
		if (guess && (q = known_block(r, b, end, eof, &id))) {
			lines = r->stacks.s[id].lines;
		} else {
			id = RP_NONE;
			if (!(q = block_end(b, end, eof, &lines, &cut)))
				return NULL;
		}
		r->entries++;
		r->lines += lines + 1;
		r->skip.truncated += cut + !nl;
		if (l.kind == RP_USTACK)
			r->skip.user_stacks++;
		else if (stack(r, &l, b, q, id, guess))
			*oom = 1;
		return q;
	}
	case RP_COMMENT:
		header(r, &l);
		break;
	case RP_CPUSTART:
		r->cpu_started++;
		break;
	case RP_FRAME:	/* a frame with no "<stack trace>" before it */
		r->skip.orphan_stacks++;
		break;
	case RP_BLANK:
		break;
	case RP_BAD:
		if (!tracecmd_header(r, p, e))
			bad_line(r, p, e);
		break;
	}
	return nl ? nl + 1 : end;
}

void rp_lex_free(struct report *r)
{
	rp_intern_free(&r->names);
	rp_intern_free(&r->tasks);
	rp_intern_free(&r->bodies);
	rp_intern_free(&r->progs);
	free(r->body);
	rp_stacks_free(&r->stacks);
	free(r->pend);
	free(r->prefix);
	free(r->gst);
}
