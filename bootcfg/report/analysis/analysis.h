/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analysis, after the counters' pass and before any printer: each
 * frame's name checked once (report_frame.c), caller trees and paths
 * (report_tree.c), the boot's phases (report_phase.c), the evidence checks
 * (report_quality.c: rp_check), who made a call (report_who.c), and the
 * one choice of culprits every output makes (report_pick.c, and
 * report_answer.c's answers as values for the pictures).
 */
#ifndef BT_REPORT_ANALYSIS_H
#define BT_REPORT_ANALYSIS_H

#include "kernel/ask.h"
#include "report/input/input.h"

/* ---- evidence checks (report_quality.c) -------------------------------- */

struct rp_finding {
	const char *code;	/* stable, for JSON: "zero-frames", ... */
	int warn;
	char text[480];
};

/* What the frame-name checks found (report_frame.c), over all stacks. */
struct rp_frame_counts {
	uint32_t init_renamed;		/* frames named "[init of M]" */
	uint32_t init_unchecked;	/* module init frames not checkable */
	uint32_t chain_inits;		/* of both: in parent chains */
	uint32_t init_example;		/* a name id of either, or RP_NONE */
	uint32_t badoff;		/* frames with an offset past the size */
	/* --modules DIR: init entries named from their .ko (report_frame.c) */
	const char *ko_dir;		/* NULL: no modules tree given */
	uint32_t ko_named;		/* frames named "F [init of M]" */
	uint32_t ko_missing;		/* modules with no .ko in the tree */
	uint32_t ko_unnamed;		/* .ko unreadable or without init_module */
	char ko_names[200];		/* "bonding_init (bonding, PATH)", ... */
	char ko_missing_names[120];	/* "bonding, tls", ... */
	char ko_problem[300];		/* the first .ko that did not say, why */
	uint32_t ko_example;		/* a trace's name of a named frame */
};

struct rp_findings {
	struct rp_finding v[24];
	int n;
	uint32_t tramp, zero, useless, stale, raw, resolved;	/* stacks */
	struct rp_frame_counts frames;	/* names checked (report_frame.c) */
};

/*
 * Label the frames of every distinct stack (trampolines, zero addresses,
 * stale duplicates, raw addresses resolved with @syms when given) and
 * collect what the trace can and cannot tell.
 */
int rp_check(struct report *r, const struct rp_syms *syms,
	     const struct rp_snap *snap, struct rp_findings *out);
/*
 * rp_check, and with @ko_dir (a modules tree such as /lib/modules/VERSION;
 * NULL: none) each frame of a module's freed init code that is its init
 * entry named from the module's .ko. -1 with @e set.
 */
int rp_check_modules(struct report *r, const struct rp_syms *syms,
		     const struct rp_snap *snap, const char *ko_dir,
		     struct rp_findings *out, struct bt_error *e);

/* ---- the boot's question and the trace's window (report_window.c) ---- */

enum rp_window_kind {
	RP_WIN_UNKNOWN,		/* no hook meta (a bare trace) */
	RP_WIN_SNAPSHOT,	/* the initramfs snapshot, nothing after it */
	RP_WIN_LIVE,		/* the snapshot and collect's live window */
};

struct rp_question {
	struct bt_ask ask;
	int malformed;		/* the boottrace.ask word is not understood */
	enum rp_window_kind window;
	int follow;		/* boottrace.follow asked: 1, 0, -1 unknown */
	int collected;		/* a record of `boottrace collect` */
	int joined;		/* its live trace was joined */
	uint64_t live_events;	/* in its live window */
	char where[300];	/* the window in words */
	char end[40];		/* the trace's last time, "12.345678 s" */
	/* 2 seen by name (or called), 1 by a name pattern only, 0 not */
	int seen;
	int unnamed;		/* who-creates: calls, but no name recorded */
	uint64_t calls;		/* of the creating or asked functions */
	char missing[160];	/* who-calls: the functions never called */
	struct rp_finding said[4];	/* in order: asked, window, verdict */
	int nsaid;
};

/*
 * The question of @snap's command line (boottrace.ask) and what the
 * trace's window says of it, in @q: 1 when the boot asked one (or its
 * word is malformed, q->malformed), 0 when it asked none (a bare trace,
 * a boot without the word): then nothing is said and the outputs are as
 * before.
 */
int rp_question(const struct report *r, const struct rp_snap *snap,
		struct rp_question *q);

/* ---- which part of the boot ran a path (report_phase.c) ------------- */

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

/* Phase of a frame list (outermost last) and its task's comm (report_phase.c). */
enum rp_phase rp_phase_of(const struct report *r, const uint32_t *frame,
			  uint32_t n, const char *task);

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

/* One culprit of a function: a distinct usable stack or a parent chain. */
struct rp_answer {
	uint32_t path[RP_FRAMES];	/* outermost first, the function last */
	uint32_t len, start;		/* start: where the culprit part begins */
	uint32_t id;			/* stack or chain id */
	int stack;			/* 1: a stack trace, 0: a parent chain */
	uint64_t n, first, last;	/* hits through it, their times */
	const char *task;		/* who ran it most ("" if unknown) */
	enum rp_phase phase;
};

/*
 * The culprits of @fn (rp_picks), at most @cap into @a. Returns how many, -1 when out of memory.
 */
int rp_answers(const struct report *r, const struct rp_fn *fn,
	       struct rp_answer *a, int cap);
/* The culprit part in words: "bonding_init -> bond_create -> F". */
size_t rp_answer_words(const struct report *r, const struct rp_answer *a,
		       char *buf, size_t cap);
/* "stack trace", "call graph" or "stitched from <-parent columns". */
const char *rp_answer_source(const struct report *r, const struct rp_answer *a);
/* The function of @r named as @name of table @from is, or NULL. */
const struct rp_fn *rp_fn_named(const struct report *r,
				const struct rp_intern *from, uint32_t name);

/* Text into HTML or XML (& < > " ' escaped, control bytes as '?'). */

#endif /* BT_REPORT_ANALYSIS_H */
