/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lexer: trace text -> events (report_parse.c one line, report_stacks.c
 * the stack blocks and what a frame line's text says, report_proc.c the
 * lineage events' bodies, report_lex.c the tracers' layouts). What it
 * hands the counters (count.h) is a batch of struct rp_ev, in trace
 * order; the two share nothing else, so the counters may run on a thread.
 */
#ifndef BT_REPORT_LEX_H
#define BT_REPORT_LEX_H

#include "report/lex/table.h"

struct report;

/* ---- one line of trace text (report_parse.c) -------------------------- */

enum rp_kind {
	RP_BLANK,
	RP_COMMENT,	/* "# ..." header and column legends */
	RP_FUNC,	/* function tracer: "func <-parent" */
	RP_STACK,	/* "<stack trace>" (a block of frames follows) */
	RP_USTACK,	/* "<user stack trace>" */
	RP_EVENT,	/* "name: fields" (tracepoints, kprobes, markers) */
	RP_FRAME,	/* " => frame" */
	RP_CPUSTART,	/* "##### CPU N buffer started ####" */
	RP_BAD,		/* not trace text */
};

struct rp_line {
	enum rp_kind kind;
	const char *task;	/* "comm-pid", trimmed */
	size_t task_len;
	int pid, cpu;
	uint64_t ts;		/* ns, or the raw clock when ts_raw */
	int ts_raw;
	int flags_w;		/* irq-info width: 4 (4.x), 5 (5.x+), 0 none */
	const char *a, *b;	/* FUNC: func / parent; EVENT: name / body; */
	size_t a_len, b_len;	/* FRAME: a = frame text */
	const char *ts_at;	/* default layout: where the time starts */
	uint32_t task_id;	/* the interned task when known, else RP_NONE */
	int sys;		/* syscall event: 1 "sys_X(args)", 2 "sys_X -> ret" */
};

/* Classify and split the line [p, end) (no newline). Never allocates. */
void rp_parse_line(const char *p, const char *end, struct rp_line *l);
/*
 * The rest of a default-layout line from its time (l->ts_at of an earlier
 * line with the same prefix): time and body into @l. 0 if it is not
 * "TIME: BODY" (then parse the whole line).
 */
int rp_parse_rest(const char *p, const char *end, struct rp_line *l);
/* Strip "+0x1a/0x80" and " [module]" from a symbol; returns the length. */
size_t rp_sym_len(const char *s, size_t len);

/*
 * A trace time of @ns nanoseconds as the trace prints it, "S.UUUUUU"
 * (seconds, the microseconds cut), or the raw count when @raw, into @buf
 * of RP_TS_LEN bytes; returns @buf. Every output writes a trace time
 * through it.
 */
#define RP_TS_LEN 24
const char *rp_ts_text(uint64_t ns, int raw, char *buf);

/*
 * The CPU and time of trace line [p, end) as report reads it (any layout
 * it reads: default, record-tgid, 4.x, latency): 1 for a line of a
 * traced hit, event or stack block, with *@ts in ns, or the count with
 * *@raw = 1; 0 for anything else (header, " => frame", no time).
 */
int report_line_time(const char *p, const char *end, int *cpu, uint64_t *ts,
		     int *raw);

enum rp_frame_flag {
	RP_FR_TRAMP = 1,	/* ftrace trampoline / caller stub */
	RP_FR_ZERO = 2,		/* address 0 */
	RP_FR_RAW = 4,		/* unresolved hex address */
	RP_FR_SELF = 8,		/* the traced function itself */
	RP_FR_STALE = 16,	/* duplicate that cannot be a call chain */
	RP_FR_TRACER = 32,	/* the tracer's own code that took the stack
				 * (an event's stacktrace trigger, a kprobe) */
	RP_FR_BADOFF = 64,	/* sym-offset: its offset past its size */
	RP_FR_INIT = 128,	/* renamed: a module's freed init code */
};

/* ---- one stack and its frames' text (report_stacks.c) ------------------ */

/* A frame line's parts: "NAME+0xOFF/0xSIZE [MODULE]" (sym-offset). */
struct rp_frame_text {
	size_t name_len;
	uint64_t off, size;
	int has_off;
	const char *mod;	/* NULL: no " [MODULE]" */
	size_t mod_len;
};
void rp_frame_parse(const char *f, size_t len, struct rp_frame_text *out);
/* ftrace's own call stubs and trampolines (per architecture): 1. */
int rp_frame_machinery(const char *name);
/* The tracer's code that recorded an event and took its stack: 1. */
int rp_frame_tracer(const char *name);

struct rp_stack {
	uint64_t hash;
	uint32_t raw_off, raw_len;	/* the block's text, for exact compare */
	uint32_t nframes;
	uint32_t *frame;	/* name ids, innermost first */
	uint8_t *flag;		/* rp_frame_flag per frame */
	uint32_t *mod;		/* its " [MODULE]" as a name id, or RP_NONE */
	uint32_t *was;		/* NULL, or the trace's names if any renamed */
	uint8_t checked;	/* quality flags computed */
	uint8_t settled;	/* names checked (rp_frame_settle) */
	uint8_t useless;	/* nothing but trampolines and zeros */
	uint8_t stale;
	uint8_t phase;
	uint32_t lines;		/* frame lines in the text */
};

struct rp_stacks {
	struct rp_stack *s;
	uint32_t n;
	size_t cap;
	uint32_t *slot;		/* id + 1 */
	uint32_t nslot;
	uint32_t *guess;	/* RP_GUESS_LEN-byte prefix hash -> id + 1 */
	uint32_t nguess;
	char *raw;
	size_t rlen, rcap;
};

/* Intern the frame block [p, end) (" => ..." lines); RP_NONE = no memory. */
uint32_t rp_stack_intern(struct rp_stacks *st, struct rp_intern *names,
			 const char *p, const char *end);

/*
 * The bytes of a block's start that pick the stack to try first: long
 * enough to get past the frames most stacks share (the trampoline, the
 * traced function, its caller).
 */
#define RP_GUESS_LEN 128
/*
 * The stack last seen starting with the RP_GUESS_LEN bytes at @p (the
 * buffer holds at least that many), or RP_NONE. Only a guess: the caller
 * compares the whole text.
 */
uint32_t rp_stack_guess(const struct rp_stacks *st, const char *p);
/* After a block at @p was interned as @id: guess it next time. */
int rp_stack_guessed(struct rp_stacks *st, const char *p, uint32_t id);
void rp_stacks_free(struct rp_stacks *st);

/* The hit waiting for its "<stack trace>" block, per CPU. */
struct rp_pending {
	int pid;
	uint32_t fn, task;
	uint64_t ts;
	int live;
};

/* How a tracer's text is read (report_lex.c's table). */
enum rp_read { RP_READ_LINES, RP_READ_GRAPH, RP_READ_REFUSE };

struct rp_header {
	enum rp_read how;	/* of "# tracer: NAME" (lines without one) */
	const char *refused;	/* RP_READ_REFUSE: why, for the error */
	int tracecmd;		/* trace-cmd report's header lines seen */
	int have_entries;
	uint64_t in_buffer, written;
	int ncpu;
	char tracer[32];
	int latency;		/* latency-format columns seen */
	int old_layout;		/* 4.x flags column (4 characters) */
};

/* ---- the lineage events' text (report_proc.c) ------------------------ */

/*
 * The events boottrace.lineage records (compile's plan_lineage.c), read
 * from their text (docs/kernel-facts.md 30).
 */
enum rp_proc_kind {
	RP_PROC_FORK,		/* pid made child (its comm then: s) */
	RP_PROC_EXEC,		/* pid runs program s from now on */
	RP_PROC_EXIT,		/* pid ends, named s */
	RP_PROC_MODLOAD,	/* the line's task loaded module s */
	RP_PROC_MODREQ,		/* the line's task asked the kernel for module s */
};

struct rp_proc_ev {
	enum rp_proc_kind kind;
	int pid, child;		/* child: FORK only */
	const char *s;
	size_t s_len;
};

/* 1 and @out when event line @l is one of them, else 0. Never allocates. */
int rp_proc_parse(const struct rp_line *l, struct rp_proc_ev *out);

struct rp_skipped {
	uint64_t lines;		/* not trace text */
	uint64_t first_line;	/* line number of the first one */
	uint64_t orphan_stacks;	/* stack blocks with no hit before them */
	uint64_t truncated;	/* last line cut (no newline) */
	uint64_t binary;	/* lines with NUL or control bytes */
	uint64_t user_stacks;
	uint64_t trigger_stacks;	/* stacks alone, counted as their event */
};

/*
 * Events: what the lexer (report_lex.c, the text and the interned tables)
 * hands the counters (report_agg.c, the per-function tables), in trace
 * order. The two share nothing else, so the counters may run on a thread
 * of their own.
 */
enum rp_ev_kind { RP_EV_FUNC, RP_EV_EVENT, RP_EV_STACK, RP_EV_DUR, RP_EV_PROC,
		  RP_EV_ICALL, RP_EV_PROBE };

/* An RP_EV_ICALL's aux: which initcall event (docs/kernel-facts.md 75). */
enum rp_icall_kind { RP_IC_LEVEL, RP_IC_START, RP_IC_FINISH };
/*
 * FUNC, EVENT, PROBE and STACK aux: bit 0 a lineage event, bits 8 up the
 * CPU + 1 (0: not known). A PROBE is a kprobe event's hit on the function
 * it names, with the values it recorded: report_agg.c joins it to the
 * function's own hit that follows on its CPU (docs/report.md, "Probe values").
 */
#define RP_AUX_LINEAGE 1u
#define RP_AUX_CPU_SHIFT 8

struct rp_ev {
	uint32_t kind;
	uint32_t fn;	/* name id; STACK: of the hit the block belongs to;
			 * PROC: progs id */
	uint32_t other;	/* FUNC, EVENT: parent name id or RP_NONE; STACK: stack id;
			 * PROC: the child's pid of a fork; PROBE: its values
			 * as a progs id, or RP_NONE */
	uint32_t task;
	uint32_t pid;
	uint32_t aux;	/* PROC: enum rp_proc_kind; ICALL: enum rp_icall_kind;
			 * FUNC, EVENT, PROBE, STACK: RP_AUX_LINEAGE (not STACK,
			 * PROBE) | (cpu + 1) << RP_AUX_CPU_SHIFT */
	uint64_t ts;	/* DUR: the call's duration, ns (function_graph) */
};

#define RP_BATCH 4096
#define RP_LINE_EVENTS 2	/* the most one line makes (a graph leaf) */

struct rp_batch {
	uint32_t n;
	struct rp_ev ev[RP_BATCH];
};

/*
 * One line, or a "<stack trace>" line and its frames, at @p: its end, or
 * NULL when the text may go on past @end (unless @eof). *@oom on failure.
 */
const char *rp_lex(struct report *r, const char *p, const char *end,
		   int eof, int *oom);

/* Free the lexer's tables (report_lex.c). */
void rp_lex_free(struct report *r);

#endif /* BT_REPORT_LEX_H */
