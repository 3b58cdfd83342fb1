/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the picture printers share (report_answer.c): the culprit answers
 * of a function as values, the answer in words, and escaping for HTML/XML
 * and JSON text. Only report_answer.c, report_html.c, report_svg.c,
 * report_perfetto.c and report_diff.c include it.
 */
#ifndef BT_REPORT_PIC_H
#define BT_REPORT_PIC_H

#include "report/report_int.h"

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
void rp_put_xml(const char *s, FILE *f);
void rp_put_xmln(const char *s, size_t n, FILE *f);
/* A JSON string with its quotes; bytes >= 0x80 as \u00XX. */
void rp_put_json(const char *s, FILE *f);
/* A time as "S.UUUUUU" (seconds) or the raw counter. */
void rp_put_secs(const struct report *r, uint64_t ts, FILE *f);
/* "comm" of "comm-pid" into @buf. */
void rp_task_comm(const char *task, char *buf, size_t cap);

/* An HTML page's start (style, no-fetch policy) and end (script):
 * report_html.c's, shared with report_diff.c. */
void rp_html_head(const char *title, FILE *f);
void rp_html_tail(FILE *f);
/* A boot that died (report_html_crash.c): its banner, and its section. */
void rp_html_crash_banner(const struct rp_snap *s, FILE *f);
int rp_html_crash(const struct rp_snap *s, FILE *f);
/*
 * The boot's death in words ("PANIC; the initcall that never finished:
 * F"), one line, into @buf: 1 when the input holds a crash (an ftrace
 * dump), else 0 and "".
 */
int rp_crash_words(const struct rp_snap *s, char *buf, size_t cap);

#endif /* BT_REPORT_PIC_H */
