/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The boot record (docs/record-schema.md): `boottrace collect` joins this
 * boot's initramfs snapshot (/run/boottrace/<boot-id>/) with what tracefs
 * holds now, and writes one record directory under the state directory
 * (/var/lib/boottrace/<boot-id>/), whole or not at all, keeping the last N.
 *
 *   record_join.c     the join of two trace texts by CPU and time
 *   record_tree.c     directories: copy, remove (only our own), prune
 *   record_collect.c  the whole collect as one call, record.json
 *   record_pick.c     which record: --boot N or a boot id; what one asked
 *   record_arm.c      arm-boot's state after the one-shot boot
 */
#ifndef BT_RECORD_H
#define BT_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arm/arm.h"
#include "kernel/ask.h"
#include "util/bt_error.h"

/* Where records go (arm-boot's state sits among them) and snapshots are. */
#define RECORD_STATE_DEFAULT ARM_STATE_PARENT
#define RECORD_RUN_DEFAULT "/run/boottrace"

/* ---- the join (record_join.c) ----------------------------------------- */

/* A line's CPU and time: report_line_time (report/lex/lex.h), the report's
 * own line parser, so that collect and report read a trace alike. */

/* A CPU whose events from the snapshot's end to the live buffer's start
 * may be lost: the live buffer no longer holds the snapshot's last event
 * there (it wrapped), or holds no event of that CPU at all (cleared). */
struct record_gap {
	int cpu;
	uint64_t from, to;	/* snapshot's last, live buffer's first */
	int cleared;		/* no event of the CPU in the live buffer */
	int pause;		/* the hook's pause, nothing lost (collect's call) */
};

struct record_join {
	int raw;			/* counter clock: times are counts */
	uint64_t snap_events, live_events;	/* events in the record */
	uint64_t snap_first, snap_last;	/* times (valid when events > 0) */
	uint64_t live_first, live_last;	/* of the live events kept */
	uint64_t overlap;		/* live events already in the snapshot */
	uint64_t older;			/* live events older than the snapshot's
					   end on a CPU it has no event of */
	int snap_cut;			/* the snapshot's last line was cut */
	int untimed;			/* a side has lines but no timed event:
					   its layout has no times, no join */
	unsigned long long live_in_buffer, live_written;	/* its header */
	int have_live_entries;
	struct record_gap *gaps;
	size_t ngaps, cap;
};

/*
 * Write the snapshot's trace @sfd (named @sname in messages) to @out
 * whole, without a last line that was cut, then the events of the live
 * trace @lfd that come after the snapshot's last event of their CPU
 * (ties at that time: as many as the snapshot had are the same events),
 * with their stack lines; the live header is not written. What was
 * joined, and where events may be missing, goes to @j (record_join_free).
 * -1 with @e on a read error or no memory; write errors are @out's.
 */
int record_join(int sfd, const char *sname, int lfd, const char *lname,
		FILE *out, struct record_join *j, struct bt_error *e);
void record_join_free(struct record_join *j);
/* @ts as the trace prints it: "12.345678" or, raw, "12345". */
void record_time_str(uint64_t ts, int raw, char *buf, size_t cap);

/* ---- the record directory (record_tree.c) ------------------------------ */

/* The file in every directory collect writes: it removes only those. */
#define RECORD_MARK ".boottrace-record"
#define RECORD_MARK_TEXT "boottrace-record/1\n"

/*
 * Remove the directory @name in @dirfd and everything in it, without
 * following a symlink (a link is removed, not its target). -1 with errno.
 */
int record_rmtree(int dirfd, const char *name);
/* 1 when @name in @dirfd is a real directory holding our mark. */
int record_is_ours(int dirfd, const char *name);
/* A record of the state directory: its name (the boot id) and its mark's time. */
struct record_entry {
	char *name;
	long long when;		/* collected=, Unix time */
};
/*
 * The records in @state, newest first by the time in their mark (what
 * collect wrote when it made the record, so a copied or touched record
 * keeps its place; prune keeps the newest of this order). Only
 * directories with the mark; temporary ones are left out. A missing
 * @state holds none. 0, or -1 with @e.
 */
int record_list(const char *state, struct record_entry **v, size_t *n,
		struct bt_error *e);
void record_list_free(struct record_entry *v, size_t n);
/*
 * Keep @keep records in the state directory @state: @self (the one just
 * written, when not NULL) and the newest others by the time in their mark;
 * remove the rest and left-over temporary directories of ours. Directories
 * without the mark are never touched. Each removal is said with bt_say.
 * The number removed, or -1 with @e.
 */
int record_prune(const char *state, int keep, const char *self,
		 struct bt_error *e);

/* ---- collect (record_collect.c) ---------------------------------------- */

struct record_opts {
	const char *tracefs;	/* NULL: /sys/kernel/tracing, else debugfs's */
	const char *run;	/* where snapshots are: /run/boottrace */
	const char *state;	/* where records go: /var/lib/boottrace */
	const char *boot_id;	/* NULL: /proc/sys/kernel/random/boot_id */
	const char *pstore;	/* NULL: /sys/fs/pstore */
	int keep;		/* records kept, >= 1 */
};

struct record_result {
	char dir[4096];		/* the record written */
	char snapshot[4096];	/* the snapshot it was made from */
	int errors, warnings;	/* what collect found (in meta too) */
	int pruned;
	const char *tracing;	/* "stopped", "kept on", "unchanged" */
	/* why the record written is empty (record_collect.c record_empty): ""
	 * when it is not; the verb fails then, the record says why */
	char empty[600];
	struct bt_error broken;	/* the snapshot is broken (msg "" when whole):
				 * the record is written, collect still fails */
};

int record_collect(const struct record_opts *o, struct record_result *r,
		   struct bt_error *e);
/* This boot's id (@given, else /proc's) into @id, checked: 0, or -1 with @e. */
int record_boot_id(const char *given, char *id, size_t cap, struct bt_error *e);
/*
 * The hook's snapshot of boot @id in @run into @snap: RUN/<id>, or the
 * last of RUN/<id>-2, -3... (a later snapshot). 0, or -1 with @e (none,
 * or not the hook's).
 */
int record_snapshot(const char *run, const char *id, char *snap, size_t cap,
		    struct bt_error *e);

/* ---- which record (record_pick.c) ---------------------------------------- */

/*
 * The record @spec names in @v (newest first, record_list): a number as
 * journalctl -b takes one, 0 the newest, -1 the one before it, 1 the
 * oldest, 2 the next; else the start of a boot id, which must name one
 * record. The index into @v, or -1 with @e saying what there is.
 */
long record_pick(const struct record_entry *v, size_t n, const char *spec,
		 const char *state, struct bt_error *e);

/* What the --list line and the report's header say of a record. */
struct record_about {
	int asked;		/* 1 an ask, 0 none, -1 a word bt_ask_from_cmdline refused */
	struct bt_ask ask;
	const char *why;	/* asked == -1: what is wrong with the word */
	int complete;		/* COMPLETE is there: the hook and collect finished */
	int errors;		/* the hook's and collect's, from COMPLETE */
	char utc[32];		/* its mark's time, "2026-11-26 00:53:13 UTC" */
};
/* About the record @r of @state (its cmdline and COMPLETE files, read bounded). */
void record_about(const char *state, const struct record_entry *r,
		  struct record_about *a);
/* Unix time @t as "2026-11-26 00:53:13 UTC" into @buf. */
void record_utc(long long t, char *buf, size_t cap);

/* ---- arm-boot's state after the boot (record_arm.c) --------------------- */

struct record_arm {
	enum arm_fate fate;
	char loader[16];
	int restored;		/* collect put the files back, as disarm-boot */
	char why[512];		/* when it could not tell, or not restore */
};
/*
 * arm-boot's state in @state/arm-boot: when the bootloader took the
 * one-shot, put back what arm-boot changed exactly as disarm-boot does
 * (arm_disarm, no --force) and say so on stderr; a one-shot still to come,
 * or files changed by someone else, are left as they are. Never fails:
 * what went wrong is in @a and said as a warning.
 */
void record_arm_settle(const char *state, struct record_arm *a);

/*
 * The collect settings file (/etc/boottrace/collect.conf): "keep = N"
 * lines, "#" comments. *@keep is set when the file says it. A missing
 * file is 0 unless @must; a bad line is -1 with @e at FILE:LINE:COL.
 */
int record_conf_load(const char *path, int must, int *keep,
		     struct bt_error *e);
#define RECORD_KEEP_DEFAULT 5
#define RECORD_KEEP_MAX 1000

#endif /* BT_RECORD_H */
