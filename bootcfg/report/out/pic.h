/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the printers share: escaping for HTML/XML and JSON text, a trace
 * time and a task's comm (report_put.c); the HTML page's head and tail
 * (report_html.c) and a dead boot's part (report_html_crash.c). The
 * culprit answers as values are analysis.h's (report_answer.c).
 */
#ifndef BT_REPORT_PIC_H
#define BT_REPORT_PIC_H

#include "report/out/report.h"

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
