// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Aggregation: trace lines -> per-function hits, tasks, stacks, parent
 * chains. The text is consumed in place, whole lines and whole stack blocks
 * at a time, so a caller can feed any chunking of a file; nothing here
 * allocates per line (tables grow by doubling).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

#define RP_READ (1u << 20)
#define RP_BLOCK_MAX (1u << 20)	/* a longer stack block is cut */

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

static struct rp_pending *pending(struct report *r, int cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	if ((uint32_t)cpu >= r->npend) {
		uint32_t n = r->npend ? r->npend : 8;
		struct rp_pending *p;

		while (n <= (uint32_t)cpu)
			n *= 2;
		p = realloc(r->pend, n * sizeof(*p));
		if (!p)
			return NULL;
		memset(p + r->npend, 0, (n - r->npend) * sizeof(*p));
		r->pend = p;
		r->npend = n;
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
		if (b >= r->capbody) {
			uint32_t cap = r->capbody ? r->capbody * 2 : 256;
			uint32_t *f = realloc(r->body_fn, cap * sizeof(*f));

			if (!f)
				return -1;
			r->body_fn = f;
			if (!(f = realloc(r->body_parent, cap * sizeof(*f))))
				return -1;
			r->body_parent = f;
			r->capbody = cap;
		}
		r->body_fn[b] = line_name(r, l->a, l->a_len);
		r->body_parent[b] = l->b_len ? line_name(r, l->b, l->b_len) :
					       RP_NONE;
		if (r->body_fn[b] == RP_NONE ||
		    (l->b_len && r->body_parent[b] == RP_NONE))
			return -1;	/* not kept: r->nbody stays */
		r->nbody = b + 1;
	}
	*fn = r->body_fn[b];
	*parent = r->body_parent[b];
	return 0;
}

static int hit(struct report *r, struct rp_line *l)
{
	uint32_t id, task, parent = RP_NONE;
	struct rp_pending *p;
	struct rp_fn *f;

	if (l->kind == RP_EVENT) {
		event_target(l);
		id = line_name(r, l->a, l->a_len);
	} else if (fn_body(r, l, &id, &parent)) {
		return -1;
	}
	task = l->task_id != RP_NONE ? l->task_id :
	       rp_intern(&r->tasks, l->task, l->task_len);
	if (id == RP_NONE || task == RP_NONE || !(f = fn_get(r, id)))
		return -1;
	f->is_event |= l->kind == RP_EVENT;
	f->hits++;
	if (l->ts < f->first)
		f->first = l->ts;
	if (l->ts > f->last)
		f->last = l->ts;
	r->ts_raw |= l->ts_raw;
	if (!rp_pairs_add(&r->fn_task, id, task, l->ts))
		return -1;
	if (parent != RP_NONE && !rp_pairs_add(&r->fn_parent, id, parent, l->ts))
		return -1;
	if (l->kind == RP_FUNC) {
		uint32_t node = rp_chain_hit(&r->chains, (uint32_t)l->pid, id,
					     parent);

		if (node == RP_NONE ||
		    !rp_pairs_add(&r->fn_chain, id, node, l->ts) ||
		    !rp_pairs_add(&r->chain_task, node, task, l->ts))
			return -1;
	}
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
	struct rp_fn *f;

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
	if (id == RP_NONE || !rp_pairs_add(&r->fn_stack, pd->fn, id, pd->ts) ||
	    !rp_pairs_add(&r->stack_task, id, pd->task, pd->ts))
		return -1;
	f = &r->fn[r->fn_of[pd->fn] - 1];
	f->with_stack++;
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

/* One line, or a "<stack trace>" line and its frames; returns its end. */
static const char *one(struct report *r, const char *p, const char *end,
		       int eof, int *oom)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p)), *e, *b, *q;
	struct rp_prefix *px;
	struct rp_line l;

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

long report_feed(struct report *r, const char *p, size_t len, int eof)
{
	const char *s = p, *end = p + len, *n;
	int oom = 0;

	while (s < end) {
		n = one(r, s, end, eof, &oom);
		if (oom) {
			r->oom = 1;
			return -1;
		}
		if (!n) {
			/* a block longer than a whole read: take it as it is */
			if (s == p && len >= RP_READ)
				n = one(r, s, end, 1, &oom);
			if (!n || oom)
				break;
		}
		s = n;
	}
	r->bytes += (uint64_t)(s - p);
	return s - p;
}

static int feed_oom(const struct report *r, const char *name,
		    struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_ENV, name,
			    "out of memory after %llu lines",
			    (unsigned long long)r->lines);
}

/*
 * A regular file is mapped a window at a time: the read() copy was a
 * tenth of the report's time. Each window starts at the page of the first
 * byte not used yet, so a block cut by a window's end is seen whole in
 * the next; the window's size bounds what is resident, as the read buffer
 * did. 1: not a mappable file (read it); -1 with @e set.
 */
static int feed_mapped(struct report *r, int fd, const char *name,
		       struct bt_error *e)
{
	const size_t win = 4 * RP_READ;
	long page = sysconf(_SC_PAGESIZE);
	struct stat st;
	size_t size, pos = 0;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    page <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return 1;
	size = (size_t)st.st_size;
	while (pos < size) {
		size_t off = pos - pos % (size_t)page;
		size_t len = size - off < win ? size - off : win;
		int eof = off + len == size;
		char *m = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
			       fd, (off_t)off);
		long used;

		if (m == MAP_FAILED) {
			if (!pos)
				return 1;	/* e.g. a file system without mmap */
			return bt_error_errno(e, errno, name, "cannot map");
		}
		used = report_feed(r, m + (pos - off), len - (pos - off), eof);
		munmap(m, len);
		if (used < 0)
			return feed_oom(r, name, e);
		if (!used && !eof)	/* report_feed takes a window whole */
			return bt_error_set(e, BT_EXIT_ENV, name,
					    "no progress at byte %zu", pos);
		pos += (size_t)used;
		if (eof)
			break;
	}
	return 0;
}

/* Read @fd to its end, the @have bytes in @buf (of @cap) first. */
static int feed_read(struct report *r, int fd, char *buf, size_t cap,
		     size_t have, const char *name, struct bt_error *e)
{
	long used;
	ssize_t n;

	for (;;) {
		n = read(fd, buf + have, cap - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return bt_error_errno(e, errno, name, "cannot read");
		have += (size_t)n;
		used = report_feed(r, buf, have, n == 0);
		if (used < 0)
			return feed_oom(r, name, e);
		memmove(buf, buf + used, have - (size_t)used);
		have -= (size_t)used;
		if (n == 0)
			return 0;
	}
}

int report_feed_fd(struct report *r, int fd, const char *pre, size_t npre,
		   const char *name, struct bt_error *e)
{
	size_t cap = 4 * RP_READ, have = 0;
	char *buf;
	long used = 0;
	int ret;

	if (!npre && (ret = feed_mapped(r, fd, name, e)) <= 0)
		return ret;
	if (npre && (used = report_feed(r, pre, npre, 0)) < 0)
		return feed_oom(r, name, e);
	have = npre - (size_t)used;	/* a line or block cut by its end */
	while (cap < have + RP_READ)
		cap *= 2;
	if (!(buf = malloc(cap)))
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	if (have)
		memcpy(buf, pre + used, have);
	ret = feed_read(r, fd, buf, cap, have, name, e);
	free(buf);
	return ret;
}
