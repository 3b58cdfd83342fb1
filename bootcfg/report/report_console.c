// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Console-mode snapshots: rebuild the files of one snapshot from a serial
 * log, framed as in initramfs-hook/README.md:
 *
 *   === boottrace snapshot begin <boot-id> ===
 *   --- boottrace file REL size=N eol=0|1 enc=text md5=... ---
 *   |one line of the file
 *   --- boottrace end REL ---
 *   === boottrace snapshot end <boot-id> ===
 *
 * Kernel messages may land between the lines of a file on a console, so
 * only "|" lines are content; "\r" of serial consoles is dropped. A log
 * may hold several boots; the last one is the default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/report_int.h"

#define BEGIN "=== boottrace snapshot begin "
#define SNAP_END "=== boottrace snapshot end "
#define FILE_MARK "--- boottrace file "
#define END_MARK "--- boottrace end "

struct cfile {
	char rel[256];
	char *buf;
	size_t len, cap;
	unsigned long long size;
	int eol, text, open;
};

static int starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

static int cf_put(struct cfile *f, const char *p, size_t n)
{
	if (BT_GROW(f->buf, f->len + n + 1, f->cap))
		return -1;
	memcpy(f->buf + f->len, p, n);
	f->len += n;
	f->buf[f->len] = '\0';
	return 0;
}

/* "--- boottrace file REL size=N eol=E enc=text md5=X ---"; 1: not one */
static int cf_open(struct cfile *f, const char *p, const char *end)
{
	const char *q = p + strlen(FILE_MARK), *sz;
	char line[512];
	size_t n = (size_t)(end - q);

	memset(f, 0, sizeof(*f));
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, q, n);
	line[n] = '\0';
	sz = strstr(line, " size=");
	if (!sz || (size_t)(sz - line) >= sizeof(f->rel))
		return 1;	/* not a marker after all: ignored */
	memcpy(f->rel, line, (size_t)(sz - line));
	f->rel[sz - line] = '\0';
	f->size = strtoull(sz + 6, NULL, 10);
	f->eol = !strstr(line, " eol=0");
	f->text = !strstr(line, " enc=") || strstr(line, " enc=text");
	f->open = 1;
	return cf_put(f, "", 0);
}

static void cf_close(struct cfile *f, struct rp_snap *s)
{
	f->open = 0;
	if (!f->text) {
		free(f->buf);
		return;
	}
	if (!f->eol && f->len && f->buf[f->len - 1] == '\n')
		f->buf[--f->len] = '\0';
	if (f->len != f->size)
		s->mismatch++;
	if (!strcmp(f->rel, "trace")) {
		free(s->trace);
		s->trace = f->buf;
		s->trace_len = f->len;
	} else {
		rp_snap_keep(s, f->rel, f->buf);
	}
	f->buf = NULL;
}

int rp_console_holds(const char *p, size_t len)
{
	return memmem(p, len, BEGIN, sizeof(BEGIN) - 1) != NULL;
}

/* The start of snapshot @boot (1-based; 0: the last); counts them all. */
static const char *find_boot(const char *p, const char *end, int boot,
			     int *nboots, int *which)
{
	const char *q = p, *pick = NULL, *hit;

	*nboots = 0;
	while ((hit = memmem(q, (size_t)(end - q), BEGIN, sizeof(BEGIN) - 1))) {
		if (hit == p || hit[-1] == '\n') {
			++*nboots;
			if (!boot || *nboots == boot) {
				pick = hit;
				*which = *nboots;
			}
		}
		q = hit + 1;
	}
	return pick;
}

int rp_console_extract(const char *p, size_t len, int boot,
		       struct rp_snap *s, const char *name, struct bt_error *e)
{
	const char *end = p + len, *q, *nl, *le;
	struct cfile f = { 0 };
	int which = 0;

	q = find_boot(p, end, boot, &s->nboots, &which);
	s->console = 1;
	if (!q)
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "the log holds %d boottrace snapshot(s); --boot %d does not exist", s->nboots, boot);
	s->boot = which;
	nl = memchr(q, '\n', (size_t)(end - q));
	le = nl ? nl : end;
	q += sizeof(BEGIN) - 1;
	snprintf(s->boot_id, sizeof(s->boot_id), "%.*s", (int)(le - q), q);
	s->boot_id[strcspn(s->boot_id, " \r")] = '\0';
	for (q = nl ? nl + 1 : end; q < end; q = nl ? nl + 1 : end) {
		nl = memchr(q, '\n', (size_t)(end - q));
		le = nl ? nl : end;
		if (le > q && le[-1] == '\r')
			le--;
		if (f.open && q < le && *q == '|') {
			if (cf_put(&f, q + 1, (size_t)(le - q - 1)) ||
			    cf_put(&f, "\n", 1))
				goto oom;
		} else if (starts(q, le, FILE_MARK)) {
			if (f.open)
				cf_close(&f, s);	/* its end line was lost */
			if (cf_open(&f, q, le) < 0)
				goto oom;
		} else if (starts(q, le, END_MARK) && f.open) {
			cf_close(&f, s);
		} else if (starts(q, le, SNAP_END) || starts(q, le, BEGIN)) {
			break;
		}
	}
	if (f.open) {
		s->complete = 0;	/* cut inside a file */
		cf_close(&f, s);
	}
	if (!s->trace)
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "snapshot %d (%s) of the console log has no 'trace' file", which, s->boot_id);
	return 0;
oom:
	free(f.buf);
	return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
}
