/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Findings of boottrace check (check.h), each at the config place it is
 * about, printed as compiler-style lines or as JSON (schema
 * "boottrace-check" version 2, named as report's and collect's are:
 * docs/check.md).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "util/json.h"
#include "util/bt_error.h"
#include "util/grow.h"

static char *report_where(const struct plan *p, int node)
{
	char buf[4200];
	int line = 0, col = 0;

	if (!p || !p->src)
		return strdup("boottrace");
	if (node != BCONF_NONE)
		source_locate(p->src, bconf_pos(p->src->bc, node), &line, &col);
	if (line)
		snprintf(buf, sizeof(buf), "%s:%d:%d", p->src->path, line, col);
	else
		snprintf(buf, sizeof(buf), "%s", p->src->path);
	return strdup(buf);
}

void check_report_add(struct check_report *r, const struct plan *p, int node,
		      enum check_sev sev, const char *what, const char *fmt, ...)
{
	struct check_finding *f;
	char msg[1024];
	va_list ap;

	if (BT_GROW(r->f, r->n + 1, r->cap) < 0) {
		r->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	f = &r->f[r->n];
	f->sev = sev;
	f->where = report_where(p, node);
	f->what = strdup(what ? what : "");
	f->msg = strdup(msg);
	if (!f->where || !f->what || !f->msg) {
		free(f->where);
		free(f->what);
		free(f->msg);
		r->oom = 1;
		return;
	}
	r->n++;
	r->nerr += sev == CK_ERROR;
	r->nwarn += sev == CK_WARN;
}

void check_report_free(struct check_report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		free(r->f[i].where);
		free(r->f[i].what);
		free(r->f[i].msg);
	}
	free(r->f);
	memset(r, 0, sizeof(*r));
}

static const char *const sev_names[] = { "note", "warning", "error" };

int check_report_print_text(const struct check_report *r, FILE *f)
{
	size_t i;

	/*
	 * The place is a path and the message quotes config values and symbol
	 * names: any bytes, escaped as bt_error_print does, so that a finding
	 * is one line of valid UTF-8.
	 */
	for (i = 0; i < r->n; i++) {
		bt_fput_text(f, r->f[i].where);
		fprintf(f, ": %s: ", sev_names[r->f[i].sev]);
		bt_fput_text(f, r->f[i].msg);
		fputc('\n', f);
	}
	fprintf(f, "check: %zu error(s), %zu warning(s)\n", r->nerr, r->nwarn);
	return fflush(f) ? -1 : 0;
}

static void json_str(FILE *f, const char *s)
{
	json_fputs(f, s);
}

int check_report_print_json(const struct check_report *r, FILE *f)
{
	size_t i;

	fprintf(f, "{\"schema\": \"boottrace-check\", \"version\": 2, \"errors\": %zu, \"warnings\": %zu, \"findings\": [", r->nerr, r->nwarn);
	for (i = 0; i < r->n; i++) {
		fputs(i ? ",\n  {" : "\n  {", f);
		fprintf(f, "\"severity\": \"%s\", \"where\": ", sev_names[r->f[i].sev]);
		json_str(f, r->f[i].where);
		fputs(", \"name\": ", f);
		json_str(f, r->f[i].what);
		fputs(", \"message\": ", f);
		json_str(f, r->f[i].msg);
		fputc('}', f);
	}
	fputs(r->n ? "\n]}\n" : "]}\n", f);
	return fflush(f) ? -1 : 0;
}
