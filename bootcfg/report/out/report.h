/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace report, what a verb needs: open an input (input.h), feed its
 * trace (count.h), check the evidence (analysis.h), print a format
 * (docs/report.md). The stages, each calling only those before it:
 *
 *   report/lex/       table.h, lex.h, count.h: trace text -> events ->
 *                     counters, struct report
 *   report/input/     input.h: snapshot, console log, dump, pstore,
 *                     previous boot, symbol files
 *   report/analysis/  analysis.h: frames, trees, phases, evidence, who
 *                     made a call, the culprits
 *   report/out/       this header: one printer per format; pic.h, what
 *                     the pictures share
 */
#ifndef BT_REPORT_H
#define BT_REPORT_H

#include <stdio.h>

#include "arm/arm.h"
#include "report/analysis/analysis.h"

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

/* ---- which boot (report_head.c): the block above a report the verb chose ---- */

struct rp_head {
	const char *boot_id;
	int this_boot;		/* the running system's boot */
	long offset;		/* a record's --boot number: 0 newest, -1 the one before */
	const char *path;	/* the record, or the live snapshot */
	const char *utc;	/* a record's time; NULL: a live snapshot */
	enum arm_fate armed;	/* arm-boot's state beside the records */
	const char *loader;	/* its loader */
};

/*
 * Which boot this report is of and whether the next boot is armed, as
 * lines: at the top of -f text, and notes on stderr for the other formats.
 */
int rp_print_head(const struct rp_head *h, FILE *f);
/* The armed line alone (the --list's, on stderr): nothing when none. */
int rp_print_armed(enum arm_fate armed, const char *loader, FILE *f);

#endif /* BT_REPORT_H */
