/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace report, what a verb needs: open an input, feed its trace,
 * check the evidence, print a format (docs/report.md). The pipeline
 * inside, input -> lex -> count -> outputs, is report_int.h's.
 *
 * Memory is bounded by what is distinct in a trace (names, tasks, stacks,
 * chains), never by its size: the trace is fed in chunks and nothing is
 * allocated per line.
 */
#ifndef BT_REPORT_H
#define BT_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/bt_error.h"

#define RP_NONE UINT32_MAX

/* ---- interned strings (report_table.c): the symbol table's names ------ */

/* Strings interned to dense ids; each copy is NUL-terminated. */
struct rp_intern {
	char *arena;
	size_t alen, acap;
	struct rp_istr { uint32_t off, len; } *str;
	uint32_t n;
	size_t cap;
	uint32_t *slot;		/* id + 1, 0 = empty */
	uint32_t nslot;		/* power of two */
};

uint32_t rp_intern(struct rp_intern *t, const char *s, size_t len);
uint32_t rp_intern_find(const struct rp_intern *t, const char *s, size_t len);
static inline const char *rp_str(const struct rp_intern *t, uint32_t id)
{
	return t->arena + t->str[id].off;
}
void rp_intern_free(struct rp_intern *t);

/* ---- symbols for raw frame addresses (report_sym.c) ------------------ */

struct rp_sym {
	uint64_t addr, size;	/* size: module ranges only */
	uint32_t name;
	uint8_t module;
};

struct rp_syms {
	struct rp_sym *v;
	size_t n, cap;
	struct rp_intern names;
};

/* System.map or kallsyms text ("ADDR t NAME [mod]"), text symbols only;
 * @name is for messages. */
int rp_syms_load(struct rp_syms *s, const char *text, const char *name,
		 struct bt_error *e);
/* /proc/modules text: each module's range, for addresses with no symbol. */
int rp_syms_load_modules(struct rp_syms *s, const char *text,
			 const char *name, struct bt_error *e);
/* "name+0xoff" or "[module]+0xoff" into @out; -1 when nothing covers it. */
int rp_syms_lookup(const struct rp_syms *s, uint64_t addr, char *out,
		   size_t cap);
void rp_syms_free(struct rp_syms *s);

/* ---- the report (report_feed.c) -------------------------------------- */

struct report;

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

/*
 * The CPU and time of trace line [p, end) as report reads it (any layout
 * it reads: default, record-tgid, 4.x, latency): 1 for a line of a
 * traced hit, event or stack block, with *@ts in ns, or the count with
 * *@raw = 1; 0 for anything else (header, " => frame", no time).
 */
int report_line_time(const char *p, const char *end, int *cpu, uint64_t *ts,
		     int *raw);

/* ---- the previous boot of a persistent instance (report_prev.c) ------ */

struct rp_prev_cpu {
	int cpu;
	size_t events;		/* all of the CPU's events in the copy */
	size_t step;		/* the previous boot's: those before the last
				   step back in time (0: no step) */
	size_t step0;		/* and from the step before it: the events
				   before are an earlier boot's (0: none) */
	size_t seen;		/* (while parsing) */
	uint64_t first_ts, last_ts, prev_last, cur_first;
	/* the move measured from this CPU's events alone */
	long long cal;
	size_t cal_votes, cal_pairs;
	int have_cal;
	int other_boot;		/* its move is not the previous boot's */
};

struct rp_prev_ev {		/* an event line of the previous boot */
	size_t off, len;
	int cpu;
	uint64_t ts;
	size_t start;		/* initcall_finish: its start's index + 1 */
	int finished;		/* initcall_start: a finish paired with it */
	size_t order;		/* initcall_start: its function's place in this
				   boot's initcall order + 1 (0: not found) */
	int lost;		/* initcall_start without a finish whose task
				   went on to a later initcall: it finished */
};

struct rp_prev {
	char name[128];		/* the instance */
	char *trace;		/* its copy (owned) */
	size_t len;
	long long delta;	/* last_boot_info text delta */
	uint64_t cur_text;	/* this boot's _text (the hook's "text") */
	int have_delta, have_text;
	/*
	 * The previous boot's offset measured from the initcall_start
	 * pointers of both boots (the most common difference): the kernel's
	 * delta is of the boot that last reset the instance, which need not
	 * be the previous one (docs/kernel-facts.md 56).
	 */
	long long cal;
	size_t cal_votes, cal_pairs;
	int have_cal;
	struct rp_prev_cpu *cpu;
	size_t ncpu, cpucap;
	struct rp_prev_ev *ev;	/* in the copy's order */
	size_t nev, evcap;
};

/*
 * Split the copy @trace (owned by @p from now on, also on failure) of
 * persistent instance @name into the previous boot's events and this
 * boot's, per CPU; @lbi and @text are the hook's last_boot_info and text
 * files (NULL when missing). -1 when out of memory.
 */
int rp_prev_parse(struct rp_prev *p, const char *name, char *trace,
		  size_t len, const char *lbi, const char *text);
/* The previous boot's pointer @addr, of an event on CPU @cpu, named with
 * @syms into @out (the CPU's own measured move when it has one); -1 when
 * it cannot be (no table, no delta or _text, not in the table). */
int rp_prev_name(const struct rp_prev *p, const struct rp_syms *syms,
		 int cpu, char *out, size_t cap, uint64_t addr);
/* The "Previous boot" section of the text report. */
int rp_prev_print_text(const struct rp_prev *p, const struct rp_syms *syms,
		       FILE *f);
/* Its "previous_boot" member of the JSON report (a line ending in ","). */
int rp_prev_print_json(const struct rp_prev *p, const struct rp_syms *syms,
		       FILE *f);
void rp_prev_free(struct rp_prev *p);

/* ---- the input (report_input.c, report_snap.c) ---------------------- */

struct rp_dump;
struct rp_pstore;

struct rp_snap {
	char *tracer, *filter, *options, *cmdline, *tracing_on, *release;
	char *buffer_kb;
	char boot_id[80];
	int have_stats;			/* per_cpu/cpuN/stats read */
	uint64_t overrun, dropped;
	char *kallsyms, *modules;	/* texts, when the snapshot has them */
	char *meta;			/* the hook's meta: error=/warning= lines */
	/*
	 * dmesg: "[   0.600011] Unstable clock detected, switching default
	 * tracing clock": the kernel emptied the buffer then ("" if not seen).
	 */
	char clock_reset[32];
	char *trace;			/* console mode: the extracted trace */
	size_t trace_len;
	char *dir;			/* console mode: NULL */
	/* A pipe or "-" (stream): read on from stream_fd after head. */
	int stream, stream_fd;
	char *head;
	size_t head_len;
	int console, nboots, boot;	/* console: which of how many */
	int complete;			/* COMPLETE seen */
	int mismatch;			/* console files not of their size */
	/*
	 * Console parts (files) whose size, line count or md5 disagree with
	 * their marker, or that were cut or lost whole: how many, whether the
	 * trace is one of them, and which (for the report's findings).
	 */
	int damaged, trace_damaged;
	char damage[400];
	/* previous/NAME/ of a persistent instance (report_prev.c), the first */
	struct rp_prev *prev;
	const struct rp_syms *prev_syms;	/* to name its pointers */
	/* An ftrace_dump_on_oops dump in a console log (report_dump.c), NULL: none */
	struct rp_dump *dump;
	/* pstore records: the input itself, or a snapshot's pstore/ (report_pstore.c) */
	struct rp_pstore *pstore;
};

void rp_snap_free(struct rp_snap *s);
/*
 * The next "error=" or "warning=" line of the hook's meta after *@at
 * (NULL: from the start): its text in *@text, *@len bytes. Returns
 * RP_META_ERROR or RP_META_WARNING, 0 at the end. Every place that shows
 * what the hook recorded reads meta this way.
 */
enum { RP_META_ERROR = 1, RP_META_WARNING = 2 };
int rp_snap_meta_next(const struct rp_snap *s, const char **at,
		      const char **text, int *len);

/*
 * Open @input: a snapshot directory (its trace is *@trace_path, the other
 * files go to @snap), a console log with "=== boottrace snapshot begin"
 * frames (snapshot number @boot, 0 = the last; everything in memory), or
 * a bare trace file (*@trace_path = @input), or any of those but a
 * snapshot directory on a pipe or on standard input ("-"). *@kind says
 * which.
 */
int rp_input_open(const char *input, int boot, struct rp_snap *snap,
		  const char **kind, char **trace_path, struct bt_error *e);

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

/* ---- outputs (report_text.c, report_json.c, report_folded.c, and the
 *      pictures: report_html.c, report_svg.c, report_perfetto.c,
 *      report_diff.c) ------------------------------------------------------ */

struct rp_out {
	const struct report *r;
	const struct rp_findings *q;
	const struct rp_snap *snap;
	const char *input;	/* as given on the command line */
	const char *kind;	/* "snapshot", "trace", "console" */
	const char *only;	/* --function */
};

int rp_print_text(const struct rp_out *o, FILE *f);
int rp_print_json(const struct rp_out *o, FILE *f);
int rp_print_folded(const struct rp_out *o, FILE *f);
/* One self-contained HTML page: answer, time axis, callers, evidence. */
int rp_print_html(const struct rp_out *o, FILE *f);
/* A flame graph (SVG) of -f folded's caller paths. */
int rp_print_svg(const struct rp_out *o, FILE *f);
/* Chrome trace-event JSON for ui.perfetto.dev and chrome://tracing. */
int rp_print_perfetto(const struct rp_out *o, FILE *f);
/* Two boots compared; @format "text", "json" or "html". */
int rp_print_diff(const struct rp_out *a, const struct rp_out *b,
		  const char *format, FILE *f);

#endif /* BT_REPORT_H */
