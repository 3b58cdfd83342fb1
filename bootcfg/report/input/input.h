/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report's inputs: what is read before any trace text is lexed, and
 * what of the input is not trace text. A snapshot directory or a console
 * log rebuilt into one (report_input.c, report_snap.c, report_console.c
 * with report_clean.c's cleaned lines and report_md5.c's check of each
 * part), an ftrace_dump_on_oops dump (report_dump.c, said by
 * report_dump_out.c), a pstore record (report_pstore.c), the previous
 * boot of a persistent instance (report_prev.c) and the symbol files that
 * name raw frames (report_sym.c).
 */
#ifndef BT_REPORT_INPUT_H
#define BT_REPORT_INPUT_H

#include <stdio.h>

#include "report/lex/count.h"
#include "util/bt_error.h"

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
 * The value of the meta's last KEY=VALUE line (a record's meta is the
 * hook's, then collect's: the last one is the latest word) into @out, cut
 * to @cap bytes: 1, or 0 when there is no such line.
 */
int rp_snap_meta_value(const struct rp_snap *s, const char *key, char *out,
		       size_t cap);

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

#endif /* BT_REPORT_INPUT_H */
