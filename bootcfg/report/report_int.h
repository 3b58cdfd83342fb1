/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's insides, shared by its files and by no one else (the verb
 * has report.h). The pipeline, each file calling only those before it:
 *
 *   report_table.c   hash tables: interned strings, pair counters
 *   report_parse.c   one line of trace text
 *   report_stacks.c  stack blocks interned
 *   report_proc.c    the bodies of the lineage events (fork, exec, ...)
 *   report_lex.c     text -> events (report_parse.c, report_stacks.c,
 *                    report_proc.c)
 *   report_chain.c   parent chains
 *   report_lineage.c who forked and exec'd what: the process table, and
 *                    the lineage of a task at a time
 *   report_timeline.c the boot's own boundaries (initcall levels), the
 *                    initcalls timed (report_initcall.c's pairing) and
 *                    the hits in time buckets, counted as the events come
 *   report_agg.c     events -> counters (report_chain.c, report_lineage.c,
 *                    report_timeline.c)
 *   report_feed.c    text in chunks to the lexer, its events to the
 *                    counters, maybe on a thread (report_lex.c, report_agg.c)
 *   report_clean.c   a console log's line cleaned (escapes, CR, timestamps)
 *   report_dump.c    an ftrace_dump_on_oops dump in a console log
 *                    (report_clean.c, report_parse.c); report_dump_out.c
 *                    says what it found, in text and JSON
 *   report_snap.c, report_console.c, report_input.c   the input's files
 *   report_quality.c evidence checks
 *   report_phase.c, report_tree.c   what the outputs ask of the counters
 *   report_who.c     the answer in words: initcall, module or request, and
 *                    the program behind it (report_lineage.c)
 *   report_text.c, report_json.c, report_folded.c     one format each
 */
#ifndef BT_REPORT_INT_H
#define BT_REPORT_INT_H

#include <string.h>

#include "report/report.h"

/* ---- pair counters (report_table.c) ------------------------------------ */

/* Counters keyed by a pair of ids: (function, task), (function, stack)... */
struct rp_count {
	uint64_t key;		/* (a << 32 | b) + 1, 0 = empty */
	uint64_t n;
	uint64_t first, last;	/* timestamps, ns (or raw counter) */
};

struct rp_pairs {
	struct rp_count *slot;
	size_t cap, used;
	/* rp_pairs_index: the used entries sorted by (a, count desc, ...) */
	struct rp_count **by_a;
	size_t nby_a;
	size_t iused;		/* used when indexed: the index is current */
};

/* The slot a key starts probing at (report_table.c's hash, inlined). */
static inline size_t rp_pairs_start(uint64_t key, size_t cap)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

/* The table must grow first (report_table.c). */
struct rp_count *rp_pairs_add_slow(struct rp_pairs *p, uint32_t a,
				   uint32_t b, uint64_t ts);

/*
 * Count one more (a, b) at @ts; NULL when out of memory. Inline: a
 * trace line counts six or eight pairs, and the call cost as much as
 * the probe.
 */
static inline struct rp_count *rp_pairs_add(struct rp_pairs *p, uint32_t a,
					    uint32_t b, uint64_t ts)
{
	uint64_t key = ((uint64_t)a << 32 | b) + 1;
	struct rp_count *c;
	size_t i;

	if ((p->used + 1) * 2 > p->cap)
		return rp_pairs_add_slow(p, a, b, ts);
	for (i = rp_pairs_start(key, p->cap);; i = (i + 1) & (p->cap - 1)) {
		c = &p->slot[i];
		if (c->key == key)
			break;
		if (!c->key) {
			c->key = key;
			c->first = ts;
			p->used++;
			break;
		}
	}
	c->n++;
	c->last = ts;
	return c;
}
static inline uint32_t rp_key_a(const struct rp_count *c)
{
	return (uint32_t)((c->key - 1) >> 32);
}
static inline uint32_t rp_key_b(const struct rp_count *c)
{
	return (uint32_t)(c->key - 1);
}
/* The entry (a, b) or NULL. */
struct rp_count *rp_pairs_find(const struct rp_pairs *p, uint32_t a,
			       uint32_t b);
/*
 * Sort the used entries once, by a, then count (desc): rp_pairs_of is
 * then a binary search, not a scan of the table per function. Call it
 * when the counting is over (rp_pairs_add drops the index). -1: no memory.
 */
int rp_pairs_index(struct rp_pairs *p);
/* The used entries whose a == @a, sorted by count (desc); malloc'd. */
struct rp_count **rp_pairs_of(const struct rp_pairs *p, uint32_t a,
			      size_t *n);
void rp_pairs_free(struct rp_pairs *p);

uint64_t rp_hash(const void *p, size_t len);

/*
 * A slot key of @nwords eight-byte words at @p, for the direct-mapped
 * memos (line prefixes, stack guesses): each word rotated by its own
 * amount and folded, one multiply. Weaker than rp_hash, three times
 * cheaper; a collision there only costs a miss, as the memos compare the
 * bytes themselves.
 */
static inline uint64_t rp_fold(const char *p, unsigned nwords)
{
	uint64_t h = 0, w;
	unsigned i;

	for (i = 0; i < nwords; i++) {
		memcpy(&w, p + 8 * i, 8);
		h ^= (w << (7 * i % 64)) | (w >> ((64 - 7 * i % 64) % 64));
	}
	h *= 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

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

/* ---- aggregation (report_lex.c, report_agg.c, report_stacks.c,
 *      report_chain.c, report_feed.c) ------------------------------------ */

enum rp_phase {
	RP_PH_UNKNOWN,
	RP_PH_INITCALL,	/* built-in initcall, before /init */
	RP_PH_MODULE,	/* module init, loaded by a task */
	RP_PH_SYSCALL,	/* a userspace task's system call */
	RP_PH_KTHREAD,	/* kernel thread / workqueue */
	RP_PH_IRQ,	/* interrupt context */
	RP_PH_N
};
const char *rp_phase_name(enum rp_phase ph);

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

/* ---- one frame (report_frame.c) ---------------------------------------- */

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

/* Parent chains: a trie of (parent node, function) (report_chain.c). */
struct rp_chain_node {
	uint32_t up;		/* RP_NONE at a root */
	uint32_t fn;		/* name id */
	uint8_t linked;		/* reached from a real earlier hit of up */
	uint8_t depth;
};

#define RP_CHAIN_MAX 32	/* deeper chains restart (recursion, loops) */

struct rp_chains {
	struct rp_chain_node *node;
	uint32_t n;
	size_t cap;
	struct rp_pairs trie;	/* (up + 1, fn) -> node id in .n */
	struct rp_pairs last;	/* (pid, fn) -> node id of its latest hit */
};

/* Chain node for a hit of @fn with parent @parent on @pid. */
uint32_t rp_chain_hit(struct rp_chains *c, uint32_t pid, uint32_t fn,
		      uint32_t parent);
void rp_chains_free(struct rp_chains *c);

struct rp_fn {
	uint32_t name;
	uint8_t is_event;
	uint8_t lineage;	/* a lineage event: listed when asked or with stacks */
	uint64_t hits, first, last;
	uint64_t probe_joined;	/* kprobe hits joined to its hits (values kept) */
	uint64_t with_stack;
	uint64_t dur_n, dur_total, dur_max;	/* function_graph: ns per call */
};

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

/* ---- process lineage (report_proc.c, report_lineage.c) ---------------- */

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

/* One life of a pid: from its fork (or the trace's start) to its exit. */
struct rp_life {
	uint32_t pid, ppid;
	uint32_t parent;	/* the parent's life at the fork, or RP_NONE */
	uint32_t prev;		/* an earlier life of the same pid, or RP_NONE */
	uint32_t comm;		/* progs id: the name at fork, RP_NONE */
	uint32_t exit_comm;	/* progs id: the name at exit, RP_NONE */
	uint32_t exec;		/* its first exec (rp_lineage.ex), RP_NONE */
	uint32_t task;		/* tasks id of its latest event, RP_NONE */
	uint64_t fork_ts, exit_ts;
	uint8_t forked, exited;
};

struct rp_exec {
	uint32_t prog;		/* progs id: the path exec'd */
	uint32_t next;		/* the life's next exec, RP_NONE */
	uint64_t ts;
};

struct rp_modev {
	uint32_t kind;		/* RP_PROC_MODLOAD or RP_PROC_MODREQ */
	uint32_t pid, task, name;	/* name: progs id */
	uint64_t ts;
};

struct rp_lineage {
	struct rp_life *life;
	uint32_t nlife;
	size_t caplife;
	struct rp_exec *ex;
	uint32_t nex;
	size_t capex;
	struct rp_modev *mod;
	uint32_t nmod;
	size_t capmod;
	uint32_t *by_pid;	/* pid -> its latest life + 1 */
	size_t npid;
	uint64_t n[5];		/* events per enum rp_proc_kind */
};

/* Count one lineage event (the counters' side, in trace order). */
struct rp_ev;
int rp_lineage_add(struct rp_lineage *l, const struct rp_ev *ev);
void rp_lineage_free(struct rp_lineage *l);

/* ---- the boot in time (report_timeline.c) ---------------------------- */

#define RP_TL_BUCKETS 200	/* time buckets per (function, lane) */
#define RP_TL_SERIES 4096	/* (function, lane) pairs counted in buckets */
#define RP_TL_CPU 0x80000000u	/* a lane that is a CPU, not a task */

/* An initcall_level event: level @name (progs id) begins, run by @task. */
struct rp_tl_level {
	uint32_t name, task;
	uint64_t ts;
};

/* An initcall_start, and its initcall_finish when it came (report_initcall.c). */
struct rp_tl_icall {
	uint32_t fn;		/* progs id: the function, "+0x.." cut off */
	uint32_t task;
	int32_t level;		/* its level (index), -1: none (a module's) */
	int32_t ret;
	uint64_t start, end;
	uint8_t done;
};

struct rp_tl_series {
	uint32_t fn, lane;	/* name id; task id, or RP_TL_CPU | cpu */
	uint64_t n;
};

struct rp_timeline {
	struct rp_tl_level *level;
	uint32_t nlevel;
	size_t caplevel;
	struct rp_tl_icall *icall;
	uint32_t nicall;
	size_t capicall;
	struct rp_icalls *open;		/* starts not finished yet */
	uint64_t unpaired;		/* finishes with no start before them */
	/* buckets: bucket i of a series spans [t0 + i * width, + width) */
	uint64_t t0, width;		/* width = 1 << shift */
	unsigned shift;
	int started, have_cpu;
	uint64_t *slot_key;		/* (fn, lane) + 1 -> series + 1 */
	uint32_t *slot_of;
	uint64_t memo_key[2];		/* the last task pair, the last CPU pair */
	uint32_t memo_of[2];
	struct rp_tl_series *series;
	uint32_t nseries;
	size_t capseries;
	uint32_t *count;		/* RP_TL_BUCKETS per series */
	size_t capcount;
	uint64_t dropped;		/* hits of pairs past RP_TL_SERIES */
};

/* Count an RP_EV_ICALL, and a FUNC or EVENT hit in its bucket; -1: no memory. */
int rp_tl_icall(struct rp_timeline *t, const struct rp_ev *ev);
int rp_tl_hit(struct rp_timeline *t, const struct rp_ev *ev);
void rp_tl_free(struct rp_timeline *t);
/* The series of (@fn, @lane), or NULL; its RP_TL_BUCKETS counts in *@counts. */
const struct rp_tl_series *rp_tl_series_of(const struct rp_timeline *t,
					   uint32_t fn, uint32_t lane,
					   const uint32_t **counts);

/* A boot phase on the time axis, from the kernel's own boundaries. */
struct rp_tl_phase {
	char name[40];		/* "early kernel", "level core", "initramfs"... */
	uint64_t from, to;
	char how[200];		/* what marks its ends, for the hover title */
};

#define RP_TL_PHASES 16

struct rp_tl_phases {
	struct rp_tl_phase v[RP_TL_PHASES];
	int n;
	char missing[4][200];	/* boundaries not in the trace, said plainly */
	int nmissing;
};

/* The trace's first and last hit of any function or event (UINT64_MAX, 0: none). */
void rp_trace_span(const struct report *r, uint64_t *t0, uint64_t *t1);
/*
 * The phases of the boot over the trace's span (rp_trace_span): early
 * kernel, each initcall level, the initramfs (up to the hook's snapshot,
 * meta uptime_start, or pid 1's second exec) and the root / userspace part
 * when the trace goes on past it.
 */
struct rp_snap;
void rp_tl_phases(const struct report *r, const struct rp_snap *snap,
		  struct rp_tl_phases *out);
/* The initcalls that finished, longest first (indexes into tl.icall; malloc'd). */
uint32_t *rp_tl_by_length(const struct rp_timeline *t, uint32_t *n);
/* "level core" of an initcall ("module" / "-" without a level). */
const char *rp_tl_level_name(const struct report *r, const struct rp_tl_icall *c);

struct rp_skipped {
	uint64_t lines;		/* not trace text */
	uint64_t first_line;	/* line number of the first one */
	uint64_t orphan_stacks;	/* stack blocks with no hit before them */
	uint64_t truncated;	/* last line cut (no newline) */
	uint64_t binary;	/* lines with NUL or control bytes */
	uint64_t user_stacks;
	uint64_t trigger_stacks;	/* stacks alone, counted as their event */
};

struct report {
	/*
	 * The lexer's (report_lex.c): the text's interned names, tasks,
	 * bodies and stacks, what waits per CPU, what was seen and skipped.
	 */
	struct rp_intern names;		/* functions, frames, events */
	struct rp_intern tasks;		/* "comm-pid" */
	struct rp_intern bodies;	/* "func <-parent" of function lines */
	struct rp_intern progs;		/* lineage: comms, paths, modules */
	struct rp_body { uint32_t fn, parent; } *body;	/* body id -> name ids */
	uint32_t nbody;
	size_t capbody;
	struct rp_stacks stacks;
	struct rp_pending *pend;
	size_t npend;
	struct rp_header hdr;
	struct rp_skipped skip;
	uint64_t lines, bytes, entries;
	uint64_t cpu_started;		/* "CPU N buffer started" markers */
	struct rp_prefix *prefix;	/* line prefixes already parsed */
	struct rp_gstack *gst;		/* function_graph: open calls */
	size_t ngst, capgst;
	uint64_t gseq;
	int ts_raw;
	/* The batch the lexer fills, and the way to the counters (report_feed.c) */
	struct rp_batch *cur, *batch;
	struct rp_pipe *pipe;
	/*
	 * The counters' (report_agg.c), from the lexer's events only: they
	 * may run on a thread of their own while the lexer reads on, so they
	 * start and end on cache lines of their own (sharing one with the
	 * lexer's fields cost a tenth of the time).
	 */
	_Alignas(64) struct rp_fn *fn;
	uint32_t nfn;
	size_t capfn;
	uint32_t *fn_of;		/* name id -> fn index + 1 */
	size_t cap_of;
	struct rp_pairs fn_task, fn_stack, fn_chain, fn_parent;
	/*
	 * kprobe values (RP_EV_PROBE): per function and per stack, the
	 * values (progs id) recorded; the probe hits joined to a function
	 * hit; the probe waiting per CPU for the hit it belongs to.
	 */
	struct rp_pairs fn_probe, stack_probe;
	struct rp_probe_wait *pwait;	/* per CPU (report_agg.c) */
	size_t npwait;
	struct rp_pairs stack_task, chain_task;	/* who ran each path */
	struct rp_chains chains;
	struct rp_lineage lin;
	struct rp_timeline tl;
	_Alignas(64) int oom;
	uint32_t *top_stack_task, *top_chain_task;	/* by rp_check */
	/*
	 * By rp_check (report_frame.c): name id -> the id of the same name
	 * with its " [MODULE]" as sym-offset lines showed it; RP_NONE: none.
	 */
	uint32_t *shown;
	uint32_t *modof;		/* name id -> its module's name id */
	uint32_t nshown;
};

/* A function's or frame's name as every output prints it: "NAME [MODULE]"
 * when the trace showed its module (report_frame.c). */
const char *rp_name(const struct report *r, uint32_t id);
/* The module @id was shown in (sym-offset), or NULL. */
const char *rp_name_module(const struct report *r, uint32_t id);
/* @id of table @t (one of @r's) as printed: rp_name for r->names. */
const char *rp_name_in(const struct report *r, const struct rp_intern *t,
		       uint32_t id);
/*
 * The object line of a stack's call whose kprobe recorded values
 * ("bond1: network device created by ip-100, via bond_newlink ->
 * register_netdevice") in @buf; 0: none (report_answer.c).
 */
size_t rp_object_words(const struct report *r, uint32_t fn, uint32_t stack,
		       const uint32_t *path, uint32_t len, const char *task,
		       char *buf, size_t cap);
/* Build r->shown from the stacks' frames and the function lines: -1 no memory. */
int rp_frame_modules(struct report *r);

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

/* A kprobe hit waiting on its CPU for its function's hit (report_agg.c). */
struct rp_probe_wait {
	struct rp_ev probe;	/* kind RP_EV_PROBE: waiting */
	uint32_t stack;		/* its stack, or RP_NONE */
	uint32_t vals;		/* joined: values for the next stack */
	int joined;		/* its function's hit counted, waiting for
				 * that hit's own stack */
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
/* Count @n events, in order; -1: out of memory. */
int rp_count(struct report *r, const struct rp_ev *ev, uint32_t n);
/* The end of the events: what still waits is counted (rp_check calls it). */
int rp_count_end(struct report *r);
/*
 * The kprobe values recorded with @a of @tab (r->fn_probe: a function;
 * r->stack_probe: a stack) in words, most first: `name="bond%d" (1),
 * name="bond1" (1)`. Its length; 0 (and "") when none.
 */
size_t rp_probe_text(const struct report *r, const struct rp_pairs *tab,
		     uint32_t a, char *buf, size_t cap);
/*
 * The objects the kprobe values of @a of @tab name, most first: each
 * value's first field, its string when quoted (name="bond1" -> bond1),
 * else NAME=VALUE: "bond0, bond1". *@pattern: 1 when one is a name
 * pattern at entry (has a '%', as bond%d). Its length; 0 when none.
 */
size_t rp_probe_objects(const struct report *r, const struct rp_pairs *tab,
			uint32_t a, char *buf, size_t cap, int *pattern);
/* The first kprobe hit on function @fn (UINT64_MAX: none). */
uint64_t rp_probe_first(const struct report *r, uint32_t fn);
/* Free the lexer's tables (report_lex.c), the counters' (report_agg.c). */
void rp_lex_free(struct report *r);
void rp_count_free(struct report *r);

/*
 * The next event of the current batch. A line makes RP_LINE_EVENTS
 * events at most, and report_feed empties a batch without room for them before it lexes the next line, so
 * there is always room: the lexer never calls back into the feeding.
 */
static inline struct rp_ev *rp_emit(struct report *r)
{
	return &r->cur->ev[r->cur->n++];
}

/* A report in place (the unit test's); report_new/report_delete use them. */
void report_init(struct report *r);
void report_free(struct report *r);

/* Phase of a frame list (outermost last) and its task's comm (report_phase.c). */
enum rp_phase rp_phase_of(const struct report *r, const uint32_t *frame,
			  uint32_t n, const char *task);

/* ---- the input's files (report_snap.c, report_console.c) ------------- */

/* Keep file @rel of a snapshot if the report uses it; takes @text. */
void rp_snap_keep(struct rp_snap *s, const char *rel, char *text);
/* 1 if [p, p + len) holds the start of a console-mode snapshot. */
int rp_console_holds(const char *p, size_t len);
/* Rebuild snapshot @boot of a console log held in [p, p + len). */
int rp_console_extract(const char *p, size_t len, int boot,
		       struct rp_snap *snap, const char *name,
		       struct bt_error *e);

/*
 * The length of a capture timestamp "[...] " at @p (digits, spaces and
 * date/time punctuation between the brackets, with at least one digit),
 * else 0 (report_clean.c).
 */
size_t rp_ts_prefix(const char *p, const char *end);
/*
 * Clean the log line [p, end) into *@buf (of *@cap bytes; *@len): the
 * "\r" of serial line ends and terminal escape sequences dropped. Returns
 * where its text starts after up to two timestamps in front (a capture
 * program's, printk's "[   12.345678] "); NULL: out of memory.
 */
const char *rp_log_clean(char **buf, size_t *cap, size_t *len,
			 const char *p, const char *end);

/* ---- initcalls that never finished (report_initcall.c) ---------------- */

#define RP_ICALL_NONE ((size_t)-1)

struct rp_icall_open {
	char task[64];		/* as the trace prints it: "insmod-89" */
	size_t ref;		/* the caller's: which start it is */
};

/* The initcall_starts not finished yet, in trace order. */
struct rp_icalls {
	struct rp_icall_open *open;
	size_t n, cap;
};

/* An initcall_start of @task (@len bytes), known to the caller as @ref; -1: no memory. */
int rp_icalls_start(struct rp_icalls *c, const char *task, size_t len,
		    size_t ref);
/* An initcall_finish of @task: the ref of the start it closes, or RP_ICALL_NONE. */
size_t rp_icalls_finish(struct rp_icalls *c, const char *task, size_t len);
void rp_icalls_free(struct rp_icalls *c);

/* ---- an ftrace_dump_on_oops dump in a console log (report_dump.c) ---- */

#define RP_DUMP_LAST 5		/* events kept per CPU, the newest */
#define RP_DUMP_CALLS 16	/* functions kept of the oops' call trace */
#define RP_DUMP_OPEN 8		/* initcalls kept that never finished */

struct rp_dump_cpu {
	int seen;
	int lost_uncounted;	/* "CPU:N [LOST EVENTS]": how many is not known */
	uint64_t lost;		/* "CPU:N [LOST n EVENTS]" */
	uint64_t events;
	uint64_t last_ts;	/* of its last event */
	char task[64];		/* the task of its last event */
	char last[RP_DUMP_LAST][240];	/* ring, the newest at (head - 1) */
	unsigned nlast, head;
};

struct rp_dump_open {
	char func[128], module[64], task[64];
	int cpu;
	uint64_t ts;
};

struct rp_dump {
	unsigned long long log_line;	/* of "Dumping ftrace buffer:", 1-based */
	int ndumps;			/* dumps in the log (the first is read) */
	int later_empty;		/* later ones that said "(ftrace buffer empty)" */
	int empty;			/* "(ftrace buffer empty)" */
	int truncated;			/* the log ends before its closing line */
	int start_cut;			/* the log begins inside it (pstore: its start lost) */
	int corrupted;			/* "FUNCTION TRACING IS CORRUPTED" */
	uint64_t lines;			/* trace lines kept */
	uint64_t interleaved;		/* other console lines inside it */
	char first_interleaved[160];
	uint64_t lost;			/* events lost, all CPUs */
	int lost_uncounted;		/* and some more, not counted */
	char panic[240];		/* after "Kernel panic - not syncing: " */
	char oops[240];			/* the first "BUG: ..." or "Oops: ..." */
	char rip[160];			/* the kernel "RIP: 0010:" function */
	char who[160];			/* "CPU: 0 PID: 88 Comm: insmod" */
	int who_pid;
	char calls[RP_DUMP_CALLS][128];	/* its call trace, innermost first */
	unsigned ncalls;
	struct rp_dump_cpu *cpu;	/* by CPU number */
	size_t ncpu, capcpu;
	struct rp_dump_open open[RP_DUMP_OPEN];	/* newest first */
	unsigned nopen;
	uint64_t nopen_all;		/* how many never finished in all */
	uint64_t initcall_events;
};

/* 1 if [p, p + len) holds "Dumping ftrace buffer:" (a console log's). */
int rp_dump_holds(const char *p, size_t len);
/*
 * Read the first ftrace dump of the console log [p, p + len) into a new
 * *@out, and the panic and oops messages around it; its trace text (the
 * printk and capture prefixes taken off, other console lines kept out)
 * into *@trace when @trace is not NULL (malloc'd, *@trace_len bytes).
 */
int rp_dump_extract(const char *p, size_t len, struct rp_dump **out,
		    char **trace, size_t *trace_len, const char *name,
		    struct bt_error *e);
/*
 * The same, for a log that may begin inside the dump (@in_body, a pstore
 * record's tail): without its "Dumping ftrace buffer:" line, the first
 * lines are the dump's body and d->start_cut is set.
 */
int rp_dump_extract_at(const char *p, size_t len, int in_body,
		       struct rp_dump **out, char **trace, size_t *trace_len,
		       const char *name, struct bt_error *e);
void rp_dump_free(struct rp_dump *d);
/* The dump's lines of the text report; its "dump" member of the JSON (none without a dump). */
void rp_dump_text(const struct rp_dump *d, FILE *f);
void rp_dump_json(const struct rp_dump *d, FILE *f);

/* ---- a pstore record: a previous boot's log tail (report_pstore.c) ---- */

/* 1 if [p, p + len) holds a line of 33 dashes (a dump's closing line). */
int rp_dump_body_like(const char *p, size_t len);

struct rp_pstore_rec {
	char name[256];		/* the file's name: dmesg-ramoops-0 */
	char reason[16];	/* Panic, Oops...; "" not a log record */
	int count, part;	/* REASON#COUNT PartN */
	int has_dump, dump_cut;	/* an ftrace dump in it; its start lost */
	unsigned long long bytes;
	char unread[200];	/* why it could not be read ("" it was) */
};

struct rp_pstore {
	struct rp_pstore_rec rec;	/* the record read, or answered from */
	int raw;			/* ramoops' "====S.U-F" line was there */
	long long sec;
	unsigned long usec;
	char flag;			/* its F: C compressed, D not */
	unsigned long long log_lines;
	char first_stamp[24], last_stamp[24];	/* printk times of its lines */
	int from_dir;			/* a snapshot directory's pstore/ */
	struct rp_pstore_rec *recs;	/* its records, by name */
	size_t nrecs, caprecs;
	int answered;			/* the one read (recs), -1 none */
	struct rp_dump *dump;		/* from_dir: that record's dump */
};

/* 1 if [p, p + len) begins as a pstore record (its header line). */
int rp_pstore_holds(const char *p, size_t len);
/*
 * Read the record [p, p + len) of file @name into a new *@out; its dump
 * (NULL when none) into *@dump, the dump's trace text into *@trace when
 * @trace is not NULL.
 */
int rp_pstore_read(const char *p, size_t len, const char *name,
		   struct rp_pstore **out, struct rp_dump **dump, char **trace,
		   size_t *trace_len, struct bt_error *e);
/*
 * Record NAME of a snapshot's pstore/ ([text, text + len): a console
 * snapshot's file) into *@ps, made when NULL.
 */
int rp_pstore_add(struct rp_pstore **ps, const char *name, const char *text,
		  size_t len, struct bt_error *e);
/* DIR/pstore/'s records (*@out NULL when there is no such folder). */
int rp_pstore_dir(const char *dir, struct rp_pstore **out, struct bt_error *e);
void rp_pstore_free(struct rp_pstore *p);
/* The record's lines of the text report (@d: its dump); the "pstore" member of the JSON. */
void rp_pstore_text(const struct rp_pstore *p, const struct rp_dump *d, FILE *f);
void rp_pstore_json(const struct rp_pstore *p, const struct rp_dump *d, FILE *f);

/* MD5 of [data, data + len) as 32 hex digits (report_md5.c). */
void rp_md5_hex(const char *data, size_t len, char out[33]);

/* ---- lineage of a task (report_lineage.c) ----------------------------- */

/* One step of a lineage, the task first, its parent next, ... */
struct rp_lin_step {
	uint32_t pid;
	uint32_t life;		/* RP_NONE: the trace has no event of it */
	const char *name;	/* its name then ("" if unknown), */
	int name_len;		/* name_len bytes of it */
	const char *prog;	/* the program it ran then, NULL: none exec'd */
	uint64_t exec_ts;	/* when it exec'd @prog */
	uint64_t fork_ts;	/* when it was forked (forked = 1) */
	uint32_t ppid;
	/*
	 * The name its own trace lines carry (a TASK column, "" if none),
	 * when @prog is its last exec: a program that renames itself after
	 * exec (systemd as /sbin/init) shows its own name there.
	 */
	const char *renamed;
	int renamed_len;
	int forked;
	int kernel;		/* a kernel thread (kthreadd's child, pid 0 or 2,
				 * pid 1 before it exec'd) */
};

#define RP_LIN_MAX 16

/* Does the trace hold lineage events? */
int rp_lineage_any(const struct report *r);
/*
 * The lineage of @pid at @ts (the program each task ran then), the task
 * first, up to pid 1, a kernel thread or the trace's start; count.
 */
uint32_t rp_lineage_of(const struct report *r, uint32_t pid, uint64_t ts,
		       struct rp_lin_step *out, uint32_t cap);
/*
 * Check stack @s's frame names (report_frame.c): an offset past its size,
 * a module's freed init code named after what was loaded there since;
 * such frames are renamed. @ts, @pid: the stack's first hit.
 */
int rp_frame_settle(struct report *r, struct rp_stack *s, uint64_t ts,
		    uint32_t pid, struct rp_frame_counts *c);
/*
 * After every stack is settled: each "[init of M]" frame that is the init
 * entry itself (right under do_one_initcall) named from M's .ko under the
 * modules tree @dir, as "bonding_init [init of bonding]". -1 with @e set
 * (the tree cannot be read, out of memory); a module missing from the tree
 * or a .ko that does not say is counted in @c, not an error.
 */
int rp_frame_ko_names(struct report *r, const char *dir,
		      struct rp_frame_counts *c, struct bt_error *e);
/* "bonding_init [init of bonding]": the length of "bonding_init", else 0. */
size_t rp_frame_ko_named(const char *name);
/*
 * After the names are final (rp_frame_settle, rp_frame_ko_names): the
 * "<-parent" column of each function hit whose stack's caller frame was
 * renamed says that frame's new name, not the trace's (the column is named
 * when the trace is read, as the stack is). -1: out of memory.
 */
int rp_frame_parents(struct report *r);
/*
 * Parent chains (no stacks): each chain node that is a module's init entry
 * ("F <-do_one_initcall" of a module-loading task) renamed "[init of M]"
 * or "[unverified F]" by the stack rule, counted in @c. -1: out of memory.
 */
int rp_frame_chains(struct report *r, struct rp_frame_counts *c);
/* The last module @pid loaded at or before @ts: its name, or NULL. */
const char *rp_lineage_module(const struct report *r, uint32_t pid,
			      uint64_t ts);
/* The last module request at or before @ts: 1 with its task and module. */
int rp_lineage_request(const struct report *r, uint64_t ts,
		       const char **task, const char **module, uint64_t *at);
/* Is "comm-pid" @task's comm the @len bytes at @name? */
int rp_task_named(const char *task, const char *name, int len);
/* The pid of a "comm-pid" task name, or RP_NONE. */
uint32_t rp_task_pid(const char *task);

/* ---- the answer in words (report_who.c) -------------------------------- */

enum rp_who_kind {
	RP_WHO_INITCALL,	/* a built-in driver's initcall */
	RP_WHO_MODULE,		/* a module's init, run by its loader */
	RP_WHO_REQUEST,		/* a program's request (netlink, ioctl, ...) */
	RP_WHO_KTHREAD,		/* a kernel thread's work */
	RP_WHO_OTHER,
};

struct rp_who {
	enum rp_who_kind kind;
	const char *kind_name;	/* "initcall", "module", "request", ... */
	const char *module;	/* MODULE: its name from module_load, or NULL */
	const char *via;	/* REQUEST: "netlink", "ioctl", "a system call" */
	struct rp_lin_step step[RP_LIN_MAX];
	uint32_t n;		/* the task's lineage, the task first */
	/* A kernel worker started the loader: the module request before it. */
	const char *req_task, *req_module;
	uint64_t req_ts;
	struct rp_lin_step req_step[RP_LIN_MAX];
	uint32_t req_n;
	char text[768];		/* the answer in words */
};

/*
 * Who made the call of caller path @path (outermost first, as
 * rp_stack_path) by @task at @ts: 0 and @w filled when the trace has
 * lineage events, else -1 (nothing to say beyond the stack).
 */
int rp_who(const struct report *r, const uint32_t *path, uint32_t len,
	   const char *task, uint64_t ts, struct rp_who *w);
/* The i-th module event if a module_load: "M at T, loaded by ..." in @w. */
int rp_who_load(const struct report *r, uint32_t i, struct rp_who *w);
/* "ip (pid 98)"-style words for step @i of lineage @st (@n steps). */
void rp_who_step(const struct report *r, const struct rp_lin_step *st,
		 uint32_t n, uint32_t i, char *out, size_t cap);

/* ---- caller trees (report_tree.c) ------------------------------------- */

struct rp_tnode {
	uint32_t name;		/* name id (RP_NONE: the root) */
	uint64_t count, self;
	uint32_t child, next;	/* first child, next sibling: RP_NONE */
};

struct rp_tree {
	struct rp_tnode *v;
	uint32_t n;
	size_t cap;
	uint64_t paths;
};

/* The callers of @fn in its stacks, outermost frame at the root; @fn is the
 * leaf of every path. Trampolines, zeros and stale frames are left out. */
int rp_tree_build(const struct report *r, uint32_t fn, struct rp_tree *t);
void rp_tree_free(struct rp_tree *t);
/* The caller path of stack @id for @fn, outermost first; returns count. */
/*
 * The index of @s's caller frame of the traced function @fn: after @fn
 * and ftrace's and the tracer's frames (== nframes: none).
 */
uint32_t rp_stack_caller(const struct rp_stack *s, uint32_t fn);
uint32_t rp_stack_path(const struct report *r, uint32_t stack, uint32_t fn,
		       uint32_t *out, uint32_t cap);
/* A chain node's functions, outermost first; returns count. */
uint32_t rp_chain_path(const struct report *r, uint32_t node, uint32_t *out,
		       uint32_t cap);
/* Index in @path where the culprit part starts (after the last entry
 * point such as do_one_initcall or do_syscall_64). */
uint32_t rp_culprit_start(const struct report *r, const uint32_t *path,
			  uint32_t n);
/* The most frames a caller path keeps (outermost ones dropped beyond). */
#define RP_FRAMES 256
/*
 * One culprit of a function (report_pick.c): a distinct usable stack or a
 * parent chain, its caller path and the function's count on it.
 */
struct rp_pick {
	const struct rp_count *hits;	/* n, first, last of the function on it */
	uint32_t id;			/* stack id, or chain node */
	int stack;			/* 1: a stack trace, 0: a parent chain */
	const struct rp_pairs *tasks;	/* &r->stack_task or &r->chain_task */
	uint32_t path[RP_FRAMES], len;	/* outermost first, the function last */
};
typedef int (*rp_pick_fn)(const struct report *r, const struct rp_fn *fn,
			  const struct rp_pick *p, void *ctx);
/*
 * The culprits of @fn, the one choice every output makes: each distinct
 * usable stack by hits, else (not for an event) each parent chain by hits.
 * @each is called for each in that order until it returns nonzero.
 * Returns how many were visited, -1 when out of memory.
 */
int rp_picks(const struct report *r, const struct rp_fn *fn, rp_pick_fn each,
	     void *ctx);
/* The task with most hits on stack/chain @id of @tab ("" if none). */
const char *rp_top_task(const struct report *r, const struct rp_pairs *tab,
			uint32_t id);
/* "tracer function, 44 entries in 88 lines, buffer 44/44 written, 1 CPUs,
 * 3 distinct stacks": what every output says of the trace first. */
void rp_trace_summary(const struct report *r, char *buf, size_t cap);
/* Its (path, task) entry: hits and first time of that task on it, or NULL. */
const struct rp_count *rp_top_task_hits(const struct report *r,
					const struct rp_pairs *tab, uint32_t id);
/* Functions in report order (by first hit), filtered by name if @only;
 * lineage events only when named or when they have stacks. */
uint32_t *rp_fn_order(const struct report *r, const char *only, uint32_t *n);

#endif /* BT_REPORT_INT_H */
