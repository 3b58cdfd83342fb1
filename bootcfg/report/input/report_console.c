// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Console-mode snapshots: rebuild the files of one snapshot from a serial
 * log, framed as in initramfs-hook/README.md:
 *
 *   === boottrace snapshot begin <boot-id> ===
 *   --- boottrace file REL size=N lines=L eol=0|1 enc=text md5=... ---
 *   |one line of the file
 *   --- boottrace end REL ---
 *   === boottrace snapshot end <boot-id> files=F ===
 *
 * (lines= and files= are new; older logs without them are read too.)
 * A real serial log is messy, and each line is cleaned before it is read:
 * terminal escape sequences (the firmware's "\x1b[2J\x1b[01;01H") and the
 * "\r" of serial line ends are dropped, the timestamps a capture program
 * puts in front ("[2026-11-25 10:00:00.123] ", "[    1.234567] ") are
 * taken off, and a marker is found anywhere on its line (other output may
 * come before it on the same line). Only "|" lines are content. A kernel
 * message printed in the middle of a content line ("|abc[    2.3] msg",
 * then "def" on the next line) is taken out and the line joined again.
 * Every part is then checked against its marker (size, lines, md5): what
 * does not match is named in snap->damage, never used silently. A log
 * may hold several boots; the last one is the default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/input/input.h"

#define BEGIN "=== boottrace snapshot begin "
#define SNAP_END "=== boottrace snapshot end "
#define FILE_MARK "--- boottrace file "
#define END_MARK "--- boottrace end "
#define SKIP_MARK "--- boottrace skipped "

struct cfile {
	char rel[256];
	char md5[40];
	char *buf;
	size_t len, cap;
	unsigned long long size, lines, got_lines;
	int eol, text, open, have_lines;
};

/* A line of the log, cleaned (see above), and what it is. */
enum cl_kind { CL_OTHER, CL_CONTENT, CL_BEGIN, CL_SNAP_END, CL_FILE, CL_END,
	       CL_SKIP };

struct cline {
	char *t;
	size_t len, cap;
	enum cl_kind kind;
	const char *at;		/* the marker or the content after "|" */
	size_t at_len;
	const char *body;	/* the line after its capture timestamps */
};

static const char *find_str(const char *p, size_t len, const char *s)
{
	return memmem(p, len, s, strlen(s));
}

/* Clean [p, end) into @c and classify it; -1: out of memory. */
static int clean_line(struct cline *c, const char *p, const char *end)
{
	static const struct { const char *mark; enum cl_kind kind; } marks[] = {
		{ BEGIN, CL_BEGIN }, { SNAP_END, CL_SNAP_END },
		{ FILE_MARK, CL_FILE }, { END_MARK, CL_END },
		{ SKIP_MARK, CL_SKIP },
	};
	const char *q, *t, *first = NULL;
	size_t i;

	if (!(q = rp_log_clean(&c->t, &c->cap, &c->len, p, end)))
		return -1;
	c->body = q;
	c->kind = CL_OTHER;
	if (q < c->t + c->len && *q == '|') {
		c->kind = CL_CONTENT;
		c->at = q + 1;
		c->at_len = (size_t)(c->t + c->len - q - 1);
		return 0;
	}
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		t = find_str(q, (size_t)(c->t + c->len - q), marks[i].mark);
		if (t && (!first || t < first)) {
			first = t;
			c->kind = marks[i].kind;
		}
	}
	if (first) {
		c->at = first;
		c->at_len = (size_t)(c->t + c->len - first);
	}
	return 0;
}

/*
 * Where a kernel message starts inside content: "[" spaces, seconds, ".",
 * six digits, "] " (printk's time), else NULL.
 */
static const char *printk_at(const char *p, size_t len)
{
	const char *end = p + len, *q = p, *d;

	while ((q = memchr(q, '[', (size_t)(end - q)))) {
		d = q + 1;
		while (d < end && *d == ' ')
			d++;
		while (d < end && *d >= '0' && *d <= '9')
			d++;
		if (d < end && *d == '.' && end - d > 9 && d > q + 1 &&
		    d[-1] >= '0' && d[-1] <= '9') {
			const char *f = d + 1;

			while (f < end && *f >= '0' && *f <= '9')
				f++;
			if (f - d - 1 == 6 && f + 1 < end && f[0] == ']' &&
			    f[1] == ' ')
				return q;
		}
		q++;
	}
	return NULL;
}

static const char *line_end(const char *q, const char *end, const char **next)
{
	const char *nl = memchr(q, '\n', (size_t)(end - q));

	*next = nl ? nl + 1 : end;
	return nl ? nl : end;
}

/*
 * Whether the line at @q is content or a marker (then a "[ 1.2] " in the
 * line before is the file's own text, not a kernel message cutting it).
 */
static int next_is_content(const char *q, const char *end)
{
	const char *nl, *bar;

	if (q >= end)
		return 1;
	nl = line_end(q, end, &nl);
	bar = memchr(q, '|', (size_t)(nl - q));
	if (bar && (bar == q || rp_ts_prefix(q, nl) == (size_t)(bar - q)))
		return 1;
	return memmem(q, (size_t)(nl - q), "boottrace ", 10) != NULL;
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

static const char *field(const char *line, const char *key)
{
	const char *v = strstr(line, key);

	return v ? v + strlen(key) : NULL;
}

/* "REL size=N lines=L eol=E enc=text md5=X ---"; 1: not one */
static int cf_open(struct cfile *f, const char *p, size_t len)
{
	const char *sz, *v;
	char line[512];
	size_t n = len;

	memset(f, 0, sizeof(*f));
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memcpy(line, p, n);
	line[n] = '\0';
	sz = strstr(line, " size=");
	if (!sz || sz == line || (size_t)(sz - line) >= sizeof(f->rel))
		return 1;	/* not a marker after all: ignored */
	memcpy(f->rel, line, (size_t)(sz - line));
	f->rel[sz - line] = '\0';
	f->size = strtoull(sz + 6, NULL, 10);
	if ((v = field(line, " lines="))) {
		f->have_lines = 1;
		f->lines = strtoull(v, NULL, 10);
	}
	if ((v = field(line, " md5=")) && strspn(v, "0123456789abcdef") == 32)
		memcpy(f->md5, v, 32);
	f->eol = !strstr(line, " eol=0");
	f->text = !strstr(line, " enc=") || strstr(line, " enc=text");
	f->open = 1;
	return cf_put(f, "", 0);
}

/*
 * Say what is wrong with part @rel (NULL: with the snapshot as a whole,
 * which costs the trace only when no whole trace part came) in s->damage.
 */
static void damage(struct rp_snap *s, const char *rel, const char *what)
{
	size_t n = strlen(s->damage);

	s->damaged++;
	if (rel ? !strcmp(rel, "trace") : !s->trace)
		s->trace_damaged = 1;
	if (n + 4 < sizeof(s->damage))
		snprintf(s->damage + n, sizeof(s->damage) - n, "%s%s%s%s%s",
			 n ? "; " : "", rel ? "part '" : "", rel ? rel : "",
			 rel ? "' " : "", what);
}

/* @cut: its end marker never came. */
static void cf_close(struct cfile *f, struct rp_snap *s, int cut)
{
	char what[200], sum[33];

	f->open = 0;
	if (!f->text) {
		free(f->buf);
		f->buf = NULL;
		return;
	}
	if (!f->eol && f->len && f->buf[f->len - 1] == '\n')
		f->buf[--f->len] = '\0';
	if (f->len != f->size)
		s->mismatch++;
	what[0] = '\0';
	if (f->have_lines && f->got_lines != f->lines)
		snprintf(what, sizeof(what), "has %llu of its %llu lines (%zu of %llu bytes)%s",
			 f->got_lines, f->lines, f->len, f->size,
			 cut ? ", its end marker lost" : "");
	else if (f->len != f->size)
		snprintf(what, sizeof(what), "has %zu of its %llu bytes%s",
			 f->len, f->size, cut ? ", its end marker lost" : "");
	else if (f->md5[0] && (rp_md5_hex(f->buf, f->len, sum),
			       memcmp(sum, f->md5, 32)))
		snprintf(what, sizeof(what), "is garbled (md5 %s, the marker says %.32s)",
			 sum, f->md5);
	if (what[0])
		damage(s, f->rel, what);
	if (!strcmp(f->rel, "trace")) {
		free(s->trace);
		s->trace = f->buf;
		s->trace_len = f->len;
	} else if (!strncmp(f->rel, "pstore/", 7)) {
		/* a previous boot's record the hook copied (report_pstore.c) */
		struct bt_error ie;

		if (rp_pstore_add(&s->pstore, f->rel + 7, f->buf, f->len, &ie))
			damage(s, f->rel, "could not be kept (out of memory)");
		free(f->buf);
	} else {
		rp_snap_keep(s, f->rel, f->buf);
	}
	f->buf = NULL;
}

int rp_console_holds(const char *p, size_t len)
{
	return memmem(p, len, BEGIN, sizeof(BEGIN) - 1) != NULL;
}

/* The line after begin marker @boot (1-based; 0: the last); counts them. */
static int find_boot(const char *p, const char *end, int boot, int *nboots,
		     int *which, struct cline *c, const char **at,
		     char *id, size_t idcap)
{
	const char *q, *le, *next;

	*nboots = 0;
	*at = NULL;
	for (q = p; q < end; q = next) {
		le = line_end(q, end, &next);
		if (!memchr(q, '=', (size_t)(le - q)))
			continue;	/* no marker: cheap */
		if (clean_line(c, q, le))
			return -1;
		if (c->kind != CL_BEGIN)
			continue;
		++*nboots;
		if (!boot || *nboots == boot) {
			*at = next;
			*which = *nboots;
			snprintf(id, idcap, "%.*s", (int)(c->at_len - (sizeof(BEGIN) - 1)),
				 c->at + sizeof(BEGIN) - 1);
			id[strcspn(id, " \r")] = '\0';
		}
	}
	return 0;
}

/* One snapshot read out of the log: the file being rebuilt, a line held. */
struct con_read {
	struct rp_snap *s;
	struct cfile f;
	struct cline c;			/* the line at hand, cleaned */
	char *held;			/* the rest of a line a kernel message cut */
	size_t held_len, held_cap;
	unsigned long long parts;	/* file and skipped markers seen */
	unsigned long long want_parts;	/* as the end marker counts them */
	int ended;			/* the end marker came */
};

/*
 * A held line ("|abc[ 1.2] msg" came before) ends with this line's text
 * when this line is no marker: 1 this line was taken, 0 not, -1 no memory.
 */
static int con_join_held(struct con_read *x)
{
	const struct cline *c = &x->c;
	int joined = c->kind == CL_OTHER;

	if (cf_put(&x->f, x->held, x->held_len) ||
	    (joined && cf_put(&x->f, c->body, (size_t)(c->t + c->len - c->body))) ||
	    cf_put(&x->f, "\n", 1))
		return -1;
	x->f.got_lines++;
	free(x->held);
	x->held = NULL;
	x->held_len = x->held_cap = 0;
	return joined;
}

/*
 * A content line of the open file, the next line at @next; held when a
 * kernel message cut it. -1: no memory.
 */
static int con_content(struct con_read *x, const char *next, const char *end)
{
	const struct cline *c = &x->c;
	const char *k;

	if (!x->f.open)
		return 0;
	/* not at the start: a file's line may begin with a printk time of
	 * its own (dmesg) */
	k = c->at_len ? printk_at(c->at + 1, c->at_len - 1) : NULL;
	if (k && !next_is_content(next, end)) {
		/* keep the text before the message; the line goes on after
		 * the message's own line */
		if (BT_GROW(x->held, (size_t)(k - c->at) + 1, x->held_cap))
			return -1;
		memcpy(x->held, c->at, (size_t)(k - c->at));
		x->held_len = (size_t)(k - c->at);
		return 0;
	}
	if (cf_put(&x->f, c->at, c->at_len) || cf_put(&x->f, "\n", 1))
		return -1;
	x->f.got_lines++;
	return 0;
}

/* The line at hand, by its kind: 1 the snapshot ends here, 0 go on, -1 no memory. */
static int con_line(struct con_read *x, const char *next, const char *end)
{
	const struct cline *c = &x->c;
	const char *v;

	switch (c->kind) {
	case CL_CONTENT:
		return con_content(x, next, end);
	case CL_FILE:
		if (x->f.open)
			cf_close(&x->f, x->s, 1);	/* its end line was lost */
		x->parts++;
		return cf_open(&x->f, c->at + sizeof(FILE_MARK) - 1,
			       c->at_len - (sizeof(FILE_MARK) - 1)) < 0 ? -1 : 0;
	case CL_SKIP:
		x->parts++;
		return 0;
	case CL_END:
		if (x->f.open)
			cf_close(&x->f, x->s, 0);
		return 0;
	case CL_SNAP_END:
		if ((v = field(c->at, " files=")))
			x->want_parts = strtoull(v, NULL, 10);
		x->ended = 1;
		return 1;
	case CL_BEGIN:
		return 1;
	case CL_OTHER:
		break;
	}
	return 0;
}

/*
 * The snapshot's lines from @q on, up to its end marker, the next
 * snapshot's start or the log's end. -1: no memory.
 */
static int con_read_lines(struct con_read *x, const char *q, const char *end)
{
	const char *le, *next;
	int r;

	for (; q < end; q = next) {
		le = line_end(q, end, &next);
		if (clean_line(&x->c, q, le))
			return -1;
		if (x->held && x->f.open) {
			if ((r = con_join_held(x)) < 0)
				return -1;
			if (r)
				continue;
		}
		if ((r = con_line(x, next, end)) < 0)
			return -1;
		if (r)
			break;
	}
	return 0;
}

/* What the reading's end says: a file cut, parts missing, no end marker. */
static void con_finish(struct con_read *x)
{
	struct rp_snap *s = x->s;

	free(x->held);
	x->held = NULL;
	if (x->f.open) {
		s->complete = 0;	/* cut inside a file */
		cf_close(&x->f, s, 1);
	}
	if (x->want_parts > x->parts) {
		char what[120];

		snprintf(what, sizeof(what), "%llu of the %llu parts the end marker counts are missing (their file markers were lost)",
			 x->want_parts - x->parts, x->want_parts);
		damage(s, NULL, what);
	}
	if (!x->ended && !s->complete)
		damage(s, NULL, "the snapshot's end marker never came: the log ends inside it");
}

int rp_console_extract(const char *p, size_t len, int boot,
		       struct rp_snap *s, const char *name, struct bt_error *e)
{
	struct con_read x = { .s = s };
	const char *q;
	int which = 0;

	s->console = 1;
	if (find_boot(p, p + len, boot, &s->nboots, &which, &x.c, &q, s->boot_id,
		      sizeof(s->boot_id)))
		goto oom;
	if (!q) {
		free(x.c.t);
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "the log holds %d boottrace snapshot(s); --boot %d does not exist", s->nboots, boot);
	}
	s->boot = which;
	if (con_read_lines(&x, q, p + len))
		goto oom;
	con_finish(&x);
	free(x.c.t);
	if (!s->trace)
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "snapshot %d (%s) of the console log has no 'trace' file%s%s", which, s->boot_id,
				    s->damage[0] ? ": " : "", s->damage);
	return 0;
oom:
	free(x.held);
	free(x.f.buf);
	free(x.c.t);
	return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
}
