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
 */
#ifndef BT_RECORD_H
#define BT_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/bt_error.h"

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
	struct bt_error broken;	/* the snapshot is broken (msg "" when whole):
				 * the record is written, collect still fails */
};

int record_collect(const struct record_opts *o, struct record_result *r,
		   struct bt_error *e);

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
