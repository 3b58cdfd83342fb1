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
#include "report/report_int.h"

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

/* A kprobe event names its probe point: "(register_netdevice+0x0/0x7e0)". */
static void event_target(struct rp_line *l)
{
	const char *b = l->b, *e;

	if (!l->b_len || *b != '(')
		return;
	e = memchr(b, ')', l->b_len);
	if (!e || e == b + 1)
		return;
	l->a = b + 1;
	l->a_len = rp_sym_len(b + 1, (size_t)(e - b - 1));
	l->b_len = 0;
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

/* A function or event line: its ids to the counters, and it waits on its
 * CPU for the stack block that may follow. */
static int hit(struct report *r, struct rp_line *l)
{
	uint32_t id, task, parent = RP_NONE;
	struct rp_pending *p;
	struct rp_ev *ev;

	if (l->kind == RP_EVENT) {
		event_target(l);
		id = line_name(r, l->a, l->a_len);
	} else if (fn_body(r, l, &id, &parent)) {
		return -1;
	}
	task = l->task_id != RP_NONE ? l->task_id :
	       rp_intern(&r->tasks, l->task, l->task_len);
	if (id == RP_NONE || task == RP_NONE)
		return -1;
	ev = rp_emit(r);
	ev->kind = l->kind == RP_EVENT ? RP_EV_EVENT : RP_EV_FUNC;
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
static int stack(struct report *r, const struct rp_line *l, const char *p,
		 const char *end, uint32_t id, int guess)
{
	struct rp_pending *pd = pending(r, l->cpu);
	struct rp_ev *ev;

	if (!pd || !pd->live || pd->pid != l->pid) {
		r->skip.orphan_stacks++;
		return 0;
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
	ev->ts = pd->ts;
	return 0;
}

static void header(struct report *r, const struct rp_line *l)
{
	const char *s = l->a, *end = l->a + l->a_len, *q;
	unsigned long long a, b;
	int n;

	if (l->a_len > 10 && !memcmp(s, "# tracer: ", 10)) {
		size_t len = l->a_len - 10;

		if (len >= sizeof(r->hdr.tracer))
			len = sizeof(r->hdr.tracer) - 1;
		memcpy(r->hdr.tracer, s + 10, len);
		r->hdr.tracer[len] = '\0';
		while (len && (r->hdr.tracer[len - 1] == '\r' ||
			       r->hdr.tracer[len - 1] == ' '))
			r->hdr.tracer[--len] = '\0';
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
	free(r->body);
	rp_stacks_free(&r->stacks);
	free(r->pend);
	free(r->prefix);
}
