// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stack blocks interned by the hash of their text. A trace repeats the same
 * few thousand stacks millions of times, so the common case is one hash of
 * the block and one memcmp against the stored copy; only a new stack is
 * split into frames.
 *
 * And what one frame line's text says (rp_frame_parse) and whether it is
 * ftrace's or the tracer's own code: read here, as the stack is interned;
 * whether the name can be believed is report_frame.c's, after the pass.
 */
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/lex/count.h"

static int stacks_grow_slots(struct rp_stacks *st)
{
	uint32_t n = st->nslot ? st->nslot * 2 : 1024, i, id;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (id = 0; id < st->n; id++) {
		i = (uint32_t)st->s[id].hash & (n - 1);
		while (s[i])
			i = (i + 1) & (n - 1);
		s[i] = id + 1;
	}
	free(st->slot);
	st->slot = s;
	st->nslot = n;
	return 0;
}

static int stacks_keep_raw(struct rp_stacks *st, const char *p, size_t len)
{
	/* a stack is found by its offset in the copy, a uint32_t */
	if (st->rlen + len > UINT32_MAX || BT_GROW(st->raw, st->rlen + len, st->rcap))
		return -1;
	memcpy(st->raw + st->rlen, p, len);
	st->rlen += len;
	return 0;
}

static uint32_t count_frames(const char *p, const char *end)
{
	uint32_t n = 0;

	for (; p < end; p++)
		n += *p == '\n';
	return n + (end > p && end[-1] != '\n');
}

/* Split the block into frame name ids, innermost first. */
static int stacks_split(struct rp_stack *s, struct rp_intern *names,
			const char *p, const char *end)
{
	uint32_t cap = count_frames(p, end) + 1;

	s->frame = malloc(cap * sizeof(*s->frame));
	s->flag = calloc(cap, 1);
	s->mod = malloc(cap * sizeof(*s->mod));
	if (!s->frame || !s->flag || !s->mod)
		return -1;
	s->nframes = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end, *f = p;
		struct rp_frame_text ft;
		size_t len;
		uint32_t id;

		if (e > f && e[-1] == '\r')
			e--;
		if (e - f >= 4 && !memcmp(f, " => ", 4))
			f += 4;
		rp_frame_parse(f, (size_t)(e - f), &ft);
		len = ft.name_len;
		if (len && s->nframes < cap) {
			id = rp_intern(names, f, len);
			if (id == RP_NONE)
				return -1;
			s->mod[s->nframes] = ft.mod ?
				rp_intern(names, ft.mod, ft.mod_len) : RP_NONE;
			if (ft.mod && s->mod[s->nframes] == RP_NONE)
				return -1;
			/* a return address is inside its function: one at or
			 * past the end names some other code */
			if (ft.has_off && ft.size && ft.off >= ft.size)
				s->flag[s->nframes] |= RP_FR_BADOFF;
			s->frame[s->nframes++] = id;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

uint32_t rp_stack_intern(struct rp_stacks *st, struct rp_intern *names,
			 const char *p, const char *end)
{
	size_t len = (size_t)(end - p);
	uint64_t h = rp_hash(p, len);
	uint32_t i, id;
	struct rp_stack *s;

	if ((!st->nslot || (st->n + 1) * 2 > st->nslot) &&
	    stacks_grow_slots(st))
		return RP_NONE;
	i = (uint32_t)h & (st->nslot - 1);
	while ((id = st->slot[i])) {
		s = &st->s[id - 1];
		if (s->hash == h && s->raw_len == len &&
		    !memcmp(st->raw + s->raw_off, p, len))
			return id - 1;
		i = (i + 1) & (st->nslot - 1);
	}
	if (BT_GROW(st->s, (size_t)st->n + 1, st->cap))
		return RP_NONE;
	s = &st->s[st->n];
	memset(s, 0, sizeof(*s));
	s->hash = h;
	s->raw_off = (uint32_t)st->rlen;
	s->raw_len = (uint32_t)len;
	s->lines = count_frames(p, end);
	/* split the copy: the text may be a mapped file that shrinks */
	if (len > UINT32_MAX - st->rlen || stacks_keep_raw(st, p, len) ||
	    stacks_split(s, names, st->raw + s->raw_off,
			 st->raw + s->raw_off + len)) {
		free(s->frame);
		free(s->flag);
		free(s->mod);
		return RP_NONE;
	}
	st->slot[i] = ++st->n;
	return st->n - 1;
}

/*
 * A direct-mapped table: a trace repeats its stacks, so the stack last seen
 * with a block's first bytes is usually the block, and one memcmp then
 * replaces finding every frame line and hashing the block.
 */
/* A guess may be wrong (it is checked), but a good one saves a scan. */
static uint32_t guess_key(const char *p, uint32_t mask)
{
	return (uint32_t)rp_fold(p, RP_GUESS_LEN / 8) & mask;
}

uint32_t rp_stack_guess(const struct rp_stacks *st, const char *p)
{
	uint32_t id;

	if (!st->nguess)
		return RP_NONE;
	id = st->guess[guess_key(p, st->nguess - 1)];
	return id ? id - 1 : RP_NONE;
}

int rp_stack_guessed(struct rp_stacks *st, const char *p, uint32_t id)
{
	/*
	 * Sixteen slots a stack, grown as stacks come (a direct-mapped
	 * table this sparse sends 1 block in 16 the slow way; at four slots
	 * it was 1 in 5)
	 */
	if (st->nguess < 16 * st->n && st->nguess < (1u << 22)) {
		uint32_t n = st->nguess ? st->nguess : 4096, *g;

		while (n < 16 * st->n)
			n *= 2;
		g = calloc(n, sizeof(*g));
		if (!g)
			return -1;
		free(st->guess);	/* the old guesses are only guesses */
		st->guess = g;
		st->nguess = n;
	}
	st->guess[guess_key(p, st->nguess - 1)] = id + 1;
	return 0;
}

void rp_stacks_free(struct rp_stacks *st)
{
	uint32_t i;

	for (i = 0; i < st->n; i++) {
		free(st->s[i].frame);
		free(st->s[i].flag);
		free(st->s[i].mod);
		free(st->s[i].was);
	}
	free(st->s);
	free(st->slot);
	free(st->guess);
	free(st->raw);
	memset(st, 0, sizeof(*st));
}

/* ---- one frame line's text --------------------------------------------- */

/*
 * ftrace's own code between a traced function and the tracer: the
 * call stubs and trampolines each architecture's entry code jumps through
 * (x86 ftrace_64.S, arm64 entry-ftrace.S, mips mcount.S, powerpc and
 * riscv mcount-dyn.S), the function that calls every registered ops when
 * several share a site, and function_graph's return hook. Never a caller.
 */
static const char *const machinery[] = {
	"ftrace_trampoline", "ftrace_caller", "ftrace_regs_caller",
	"ftrace_call", "ftrace_regs_call", "ftrace_graph_call",
	"ftrace_graph_caller", "ftrace_stub", "ftrace_common", "mcount",
	"_mcount", "__fentry__", "ftrace_stub_graph", "ftrace_epilogue",
	"ftrace_caller_op_ptr", "ftrace_regs_caller_op_ptr",
	"ftrace_caller_end", "ftrace_regs_caller_end", "ftrace_common_return",
	"arch_ftrace_ops_list_func", "ftrace_ops_list_func",
	"__ftrace_ops_list_func", "ftrace_ops_assist_func",
	"ftrace_ops_no_ops", "return_to_handler", "ftrace_return_to_handler",
	"ftrace_graph_func", "prepare_ftrace_return", "function_graph_enter",
	"ftrace_tramp_text", "ftrace_tramp_init",
};

/*
 * Frames of the code that recorded an event and took its stack (seen in
 * tests/data/traces/qemu-6.1-amd64-trigger-stack.trace and
 * qemu-6.1-amd64-tracepoint-trigger.trace): the tracer, not a caller.
 */
static const char *const tracer_prefixes[] = {
	"trace_event_raw_event_", "trace_event_buffer_", "event_triggers_",
	"kprobe_trace_func", "kprobe_dispatcher", "kprobe_ftrace_handler",
	"kretprobe_trace_func", "kretprobe_dispatcher", "__ftrace_trace_stack",
	"ftrace_trace_stack", "trace_dump_stack", "stacktrace_trigger",
	"perf_trace_",
};

int rp_frame_machinery(const char *s)
{
	size_t i, n = strcspn(s, "+");

	for (i = 0; i < sizeof(machinery) / sizeof(machinery[0]); i++)
		if (strlen(machinery[i]) == n && !strncmp(s, machinery[i], n))
			return 1;
	return 0;
}

int rp_frame_tracer(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(tracer_prefixes) / sizeof(tracer_prefixes[0]); i++)
		if (!strncmp(s, tracer_prefixes[i], strlen(tracer_prefixes[i])))
			return 1;
	return 0;
}

/* "0x1a" at [p, e): its value and where it ends, or NULL. */
static const char *frame_hex(const char *p, const char *e, uint64_t *v)
{
	const char *s;

	if (e - p < 3 || p[0] != '0' || p[1] != 'x')
		return NULL;
	*v = 0;
	for (p += 2, s = p; p < e && p - s < 16; p++) {
		int d = *p >= '0' && *p <= '9' ? *p - '0' :
			*p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;

		if (d < 0)
			break;
		*v = *v << 4 | (uint64_t)d;
	}
	return p > s ? p : NULL;
}

void rp_frame_parse(const char *f, size_t len, struct rp_frame_text *out)
{
	const char *e = f + len, *p, *q;

	memset(out, 0, sizeof(*out));
	out->name_len = rp_sym_len(f, len);
	p = f + out->name_len;
	/* "+0xOFF/0xSIZE" */
	if (p < e && *p == '+' && (q = frame_hex(p + 1, e, &out->off)) &&
	    q < e && *q == '/' && (q = frame_hex(q + 1, e, &out->size))) {
		out->has_off = 1;
		p = q;
	}
	/* " [MODULE]": a module name has no blank */
	if (e - p >= 4 && p[0] == ' ' && p[1] == '[' && e[-1] == ']' &&
	    !memchr(p + 2, ' ', (size_t)(e - p - 3))) {
		out->mod = p + 2;
		out->mod_len = (size_t)(e - p - 3);
	}
}
