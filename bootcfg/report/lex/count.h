/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The counters and the report they fill: events (lex.h) -> per-function
 * tables (report_agg.c), parent chains (report_chain.c), who forked and
 * exec'd what (report_lineage.c), the boot in time (report_timeline.c,
 * with report_initcall.c's pairing of starts and finishes), fed in chunks,
 * maybe on a second thread (report_feed.c).
 *
 * struct report is here, in three parts that are the stages' own: the
 * lexer's fields, the counters' (on cache lines of their own, as they may
 * run on their thread), and the analysis' (report/analysis/: names settled and
 * top tasks, filled by rp_check after the pass).
 */
#ifndef BT_REPORT_COUNT_H
#define BT_REPORT_COUNT_H

#include <stdio.h>

#include "report/lex/lex.h"
#include "util/bt_error.h"

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

/* ---- who forked and exec'd what (report_lineage.c) --------------------- */

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
int rp_lineage_add(struct rp_lineage *l, const struct rp_ev *ev);
void rp_lineage_free(struct rp_lineage *l);

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

/* The initcalls that finished, longest first (indexes into tl.icall; malloc'd). */
uint32_t *rp_tl_by_length(const struct rp_timeline *t, uint32_t *n);
/* "level core" of an initcall ("module" / "-" without a level). */
const char *rp_tl_level_name(const struct report *r, const struct rp_tl_icall *c);

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

/*
 * What the analysis adds to the counted report after the pass (rp_check,
 * report_quality.c and report_frame.c): the task with most hits on each
 * path, and the names as the trace showed them.
 */
struct rp_settled {
	uint32_t *top_stack_task, *top_chain_task;
	/*
	 * Name id -> the id of the same name with its " [MODULE]" as
	 * sym-offset lines showed it; RP_NONE: none.
	 */
	uint32_t *shown;
	uint32_t *modof;		/* name id -> its module's name id */
	uint32_t nshown;
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
	/* The analysis' (report/analysis/), made after the pass by rp_check. */
	struct rp_settled an;
};

/* A kprobe hit waiting on its CPU for its function's hit (report_agg.c). */
struct rp_probe_wait {
	struct rp_ev probe;	/* kind RP_EV_PROBE: waiting */
	uint32_t stack;		/* its stack, or RP_NONE */
	uint32_t vals;		/* joined: values for the next stack */
	int joined;		/* its function's hit counted, waiting for
				 * that hit's own stack */
};

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
/*
 * Does a kprobe value recorded with function @fn name @obj (each value's
 * object as rp_probe_objects reads it)? 2: by that name, 1: only by a
 * name pattern that can give it (bond%d, for bond0), 0: no.
 */
int rp_probe_names(const struct report *r, uint32_t fn, const char *obj);
/* The first kprobe hit on function @fn (UINT64_MAX: none). */
uint64_t rp_probe_first(const struct report *r, uint32_t fn);
/* Free the counters' tables (report_agg.c). */
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

/* ---- the report as the verb drives it (report_feed.c) ---------------- */

/* An empty report; NULL: out of memory. */
struct report *report_new(void);
void report_delete(struct report *r);
/*
 * Consume whole lines (and whole stack blocks) from [p, p + len); returns
 * the bytes used, counted. With @eof everything is used, a last line
 * without its newline counted as truncated. -1: out of memory.
 */
long report_feed(struct report *r, const char *p, size_t len, int eof);
/*
 * Feed a file descriptor to its end, after the @npre bytes at @pre that
 * were read from it already: a regular file is mapped a window at a time
 * (and a large one counted on a second thread when the machine has a
 * second CPU and BOOTTRACE_THREADS is not 1), anything else read in large
 * reads. -1 with @e set.
 */
int report_feed_fd(struct report *r, int fd, const char *pre, size_t npre,
		   const char *name, struct bt_error *e);
/*
 * -1 with @e set when the trace's "# tracer:" header names a tracer whose
 * text report does not read (osnoise, timerlat, hwlat, blk, an unknown
 * name: the table in report_lex.c), or one it reads but none of whose
 * lines it could (a layout it does not know), else 0.
 */
int report_refused(const struct report *r, const char *name,
		   struct bt_error *e);
/*
 * 1 when nothing of the input was trace text and something was skipped:
 * *@lines read, the first unreadable one at *@first_bad.
 */
int report_not_trace(const struct report *r, uint64_t *lines,
		     uint64_t *first_bad);

#endif /* BT_REPORT_COUNT_H */
