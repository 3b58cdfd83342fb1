// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A pstore record: the tail of a previous boot's kernel log that pstore
 * (ramoops) kept when that boot panicked or oopsed, as the file in
 * /sys/fs/pstore holds it and the hook copies it to SNAPSHOT/pstore/
 * (docs/kernel-facts.md 70):
 *
 *   Panic#1 Part1
 *   <0>[   17.921441] swapper/-1         0..... 1849008us : initcall_finish: ...
 *   <0>[   17.921441] ---------------------------------
 *
 * The first line is pstore's own header, REASON#COUNT PartN (REASON is
 * Panic, Oops, Emergency, Shutdown or Unknown; COUNT the dumps of that
 * boot so far; Part1 the newest part of the log). The kernel has already
 * taken off ramoops' "====SECONDS.USECONDS-C" line and undone the
 * compression; a record read from the raw memory region still has that
 * line, and one still compressed ("-C") is not text and is refused. Each
 * log line carries its syslog "<N>" prefix before the printk time. The
 * dump the kernel printed (ftrace_dump_on_oops) is found in the lines as
 * in a console log (report_dump.c); when the dump was longer than the
 * kernel's log buffer its start is lost and the record begins inside it
 * (rp_dump_extract_at, start_cut). A snapshot directory's pstore/ files
 * are listed, and the newest record holding a dump is read as the
 * previous boot's crash.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/grow.h"
#include "util/json.h"
#include "util/readfile.h"
#include "report/input/input.h"

#define RECORD_MAX (16u << 20)

void rp_pstore_free(struct rp_pstore *p)
{
	if (!p)
		return;
	free(p->recs);
	rp_dump_free(p->dump);
	free(p);
}

static int digits(const char **s, const char *end, unsigned long long *v)
{
	const char *q = *s;

	*v = 0;
	while (q < end && *q >= '0' && *q <= '9' && q - *s < 20)
		*v = *v * 10 + (unsigned long long)(*q++ - '0');
	if (q == *s)
		return 0;
	*s = q;
	return 1;
}

/*
 * The header of a record at [p, end): its lines' start in *@body; 0 when
 * it is not a record's.
 */
static int header(const char *p, const char *end, struct rp_pstore *ps,
		  const char **body)
{
	const char *q = p, *w;
	unsigned long long v, u;

	if (end - q >= 4 && !memcmp(q, "====", 4)) {	/* ramoops' own line */
		q += 4;
		if (!digits(&q, end, &v) || q >= end || *q != '.')
			return 0;
		q++;
		if (!digits(&q, end, &u))
			return 0;
		ps->raw = 1;
		ps->sec = v;
		ps->usec = u;
		if (q + 1 < end && *q == '-') {
			ps->flag = q[1];
			q += 2;
		}
		if (q >= end || *q != '\n')
			return 0;
		q++;
	}
	for (w = q; w < end && ((*w >= 'A' && *w <= 'Z') || (*w >= 'a' && *w <= 'z')); w++)
		;
	if (w == q || (size_t)(w - q) >= sizeof(ps->rec.reason) || w >= end || *w != '#')
		return 0;
	memcpy(ps->rec.reason, q, (size_t)(w - q));
	ps->rec.reason[w - q] = '\0';
	q = w + 1;
	if (!digits(&q, end, &v) || end - q < 5 || memcmp(q, " Part", 5))
		return 0;
	ps->rec.count = (int)(v > 1000000 ? 1000000 : v);
	q += 5;
	if (!digits(&q, end, &v) || (q < end && *q != '\n'))
		return 0;
	ps->rec.part = (int)(v > 1000000 ? 1000000 : v);
	*body = q < end ? q + 1 : q;
	return 1;
}

int rp_pstore_holds(const char *p, size_t len)
{
	struct rp_pstore ps;
	const char *body;

	memset(&ps, 0, sizeof(ps));
	return header(p, p + len, &ps, &body);
}

/* "[   17.921441]" after a line's "<N>": the stamp, into @out. */
static void stamp(const char *s, const char *end, char *out, size_t cap)
{
	const char *c;

	if (s >= end || *s != '[' || !(c = memchr(s, ']', (size_t)(end - s))))
		return;
	s++;
	while (s < c && *s == ' ')
		s++;
	if ((size_t)(c - s) < cap) {
		memcpy(out, s, (size_t)(c - s));
		out[c - s] = '\0';
	}
}

/*
 * The record's lines [p, end) without their "<N>" prefixes, into a new
 * buffer (*@out, *@olen bytes); the first and last printk stamps kept.
 */
static int unprefix(struct rp_pstore *ps, const char *p, const char *end,
		    char **out, size_t *olen)
{
	const char *q, *nl, *s;
	char *b = NULL;
	size_t cap = 0, len = 0, n;

	for (q = p; q < end; q = nl ? nl + 1 : end) {
		nl = memchr(q, '\n', (size_t)(end - q));
		s = q;
		if (s < end && *s == '<') {
			const char *t = s + 1;

			while (t < end && *t >= '0' && *t <= '9')
				t++;
			if (t > s + 1 && t < end && *t == '>')
				s = t + 1;
		}
		n = (size_t)((nl ? nl : end) - s);
		if (BT_GROW(b, len + n + 2, cap)) {
			free(b);
			return -1;
		}
		memcpy(b + len, s, n);
		len += n;
		b[len++] = '\n';
		b[len] = '\0';
		ps->log_lines++;
		if (!ps->first_stamp[0])
			stamp(s, s + n, ps->first_stamp, sizeof(ps->first_stamp));
		stamp(s, s + n, ps->last_stamp, sizeof(ps->last_stamp));
	}
	if (!b && !(b = calloc(1, 1)))
		return -1;
	*out = b;
	*olen = len;
	return 0;
}

/* The record name of a path: its last component. */
static void base_name(const char *path, char *out, size_t cap)
{
	const char *b = strrchr(path, '/');

	snprintf(out, cap, "%s", b ? b + 1 : path);
}

int rp_pstore_read(const char *p, size_t len, const char *name,
		   struct rp_pstore **out, struct rp_dump **dump, char **trace,
		   size_t *trace_len, struct bt_error *e)
{
	struct rp_pstore *ps;
	const char *body;
	char *b;
	size_t blen;
	int ret = 0;

	*out = NULL;
	*dump = NULL;
	if (!(ps = calloc(1, sizeof(*ps))))
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	ps->answered = -1;
	if (!header(p, p + len, ps, &body)) {
		free(ps);
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "line 1: not a pstore record's header (\"Panic#1 Part1\", \"Oops#2 Part1\", after an optional \"====SECONDS.USECONDS-C\" line): give a file of /sys/fs/pstore (the hook copies them to SNAPSHOT/pstore/)");
	}
	if (ps->flag == 'C') {
		free(ps);
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "line 1: \"-C\": the record is still compressed (read from the raw memory region); the kernel undoes the compression: give the file of /sys/fs/pstore");
	}
	base_name(name, ps->rec.name, sizeof(ps->rec.name));
	ps->rec.bytes = len;
	if (unprefix(ps, body, p + len, &b, &blen)) {
		free(ps);
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	}
	if (rp_dump_holds(b, blen) || (blen && rp_dump_body_like(b, blen))) {
		ret = rp_dump_extract_at(b, blen, 1, dump, trace, trace_len, name, e);
		ps->rec.has_dump = !ret;
		ps->rec.dump_cut = !ret && (*dump)->start_cut;
	}
	free(b);
	if (ret) {
		free(ps);
		return -1;
	}
	*out = ps;
	return 0;
}

/*
 * Record @name ([text, text + len), or NULL: not read, @unread says why)
 * into @ps: listed in name order; its dump kept when it is the newest so
 * far: the highest count (ramoops writes a boot's dumps round its records
 * from the first, docs/kernel-facts.md 70), Part1 before older parts.
 */
static int add_record(struct rp_pstore *ps, const char *name, const char *text,
		      size_t len, const char *unread)
{
	struct rp_pstore *one = NULL;
	struct rp_pstore_rec r;
	struct rp_dump *d = NULL;
	struct bt_error ie;
	size_t at;

	memset(&r, 0, sizeof(r));
	if (text && !rp_pstore_read(text, len, name, &one, &d, NULL, NULL, &ie))
		r = one->rec;
	snprintf(r.name, sizeof(r.name), "%s", name);
	r.bytes = text ? len : 0;
	if (unread)
		snprintf(r.unread, sizeof(r.unread), "%.199s", unread);
	if (BT_GROW(ps->recs, ps->nrecs + 1, ps->caprecs)) {
		rp_dump_free(d);
		rp_pstore_free(one);
		return -1;
	}
	for (at = ps->nrecs; at > 0 && strcmp(ps->recs[at - 1].name, r.name) > 0; at--)
		;
	memmove(&ps->recs[at + 1], &ps->recs[at], (ps->nrecs - at) * sizeof(r));
	ps->recs[at] = r;
	ps->nrecs++;
	if (ps->answered >= (int)at)
		ps->answered++;
	if (d && (ps->answered < 0 || r.count > ps->rec.count ||
		  (r.count == ps->rec.count && r.part < ps->rec.part))) {
		rp_dump_free(ps->dump);
		ps->dump = d;
		d = NULL;
		ps->answered = (int)at;
		ps->rec = r;
		ps->raw = one->raw;
		ps->log_lines = one->log_lines;
		memcpy(ps->first_stamp, one->first_stamp, sizeof(ps->first_stamp));
		memcpy(ps->last_stamp, one->last_stamp, sizeof(ps->last_stamp));
	}
	rp_dump_free(d);
	rp_pstore_free(one);
	return 0;
}

static struct rp_pstore *new_set(void)
{
	struct rp_pstore *ps = calloc(1, sizeof(*ps));

	if (ps) {
		ps->from_dir = 1;
		ps->answered = -1;
	}
	return ps;
}

int rp_pstore_add(struct rp_pstore **ps, const char *name, const char *text,
		  size_t len, struct bt_error *e)
{
	if ((!*ps && !(*ps = new_set())) || add_record(*ps, name, text, len, NULL))
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	return 0;
}

/* A snapshot directory's pstore/ records: listed, the newest dump read. */
int rp_pstore_dir(const char *dir, struct rp_pstore **out, struct bt_error *e)
{
	struct rp_pstore *ps;
	struct dirent *de;
	struct bt_error ie;
	char path[4096], *text;
	size_t len;
	DIR *pd;
	int r;

	*out = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/pstore", dir) >= sizeof(path) ||
	    !(pd = opendir(path)))
		return 0;
	if (!(ps = new_set())) {
		closedir(pd);
		return bt_error_set(e, BT_EXIT_ENV, dir, "out of memory");
	}
	while ((de = readdir(pd))) {
		if (de->d_name[0] == '.' ||
		    (size_t)snprintf(path, sizeof(path), "%s/pstore/%s", dir, de->d_name) >= sizeof(path))
			continue;
		text = readfile(path, RECORD_MAX, 0, "a pstore record", &len, &ie);
		r = add_record(ps, de->d_name, text, len, text ? NULL : ie.msg);
		free(text);
		if (r) {
			closedir(pd);
			rp_pstore_free(ps);
			return bt_error_set(e, BT_EXIT_ENV, dir, "out of memory");
		}
	}
	closedir(pd);
	*out = ps;
	return 0;
}

static void rec_text(const struct rp_pstore_rec *r, FILE *f)
{
	if (r->unread[0]) {
		fprintf(f, "  pstore/%s: could not be read: %s\n", r->name, r->unread);
		return;
	}
	if (!r->reason[0]) {
		fprintf(f, "  pstore/%s: %llu bytes, not a kernel log record (console-ramoops, ftrace-ramoops...: not read)\n",
			r->name, (unsigned long long)r->bytes);
		return;
	}
	fprintf(f, "  pstore/%s: %s#%d Part%d, %llu bytes, %s\n", r->name,
		r->reason, r->count, r->part, (unsigned long long)r->bytes,
		r->has_dump ? (r->dump_cut ? "a trace dump (its start lost)" : "a trace dump") :
			      "no trace dump");
}

void rp_pstore_text(const struct rp_pstore *ps, const struct rp_dump *d,
		    FILE *f)
{
	size_t i;

	if (!ps)
		return;
	if (!ps->from_dir) {
		fprintf(f, "pstore: %s: a PREVIOUS boot's log kept by pstore: %s#%d Part%d (%s, the %s part of that boot's log tail), %llu lines",
			ps->rec.name, ps->rec.reason, ps->rec.count, ps->rec.part,
			ps->rec.reason, ps->rec.part == 1 ? "newest" : "an older",
			(unsigned long long)ps->log_lines);
		if (ps->first_stamp[0])
			fprintf(f, ", printk times %s to %s s", ps->first_stamp, ps->last_stamp);
		if (ps->raw)
			fprintf(f, ", stored at %lld.%06lu (ramoops' header)", ps->sec, ps->usec);
		fputc('\n', f);
		if (!d)
			fputs("  no ftrace dump in the record (ftrace_dump_on_oops prints one into the log a panic keeps)\n", f);
		return;
	}
	fprintf(f, "pstore: %zu record%s from previous boots in pstore/:\n", ps->nrecs,
		ps->nrecs == 1 ? "" : "s");
	for (i = 0; i < ps->nrecs; i++)
		rec_text(&ps->recs[i], f);
	if (!d) {
		fputs("  none holds a trace dump; `boottrace report DIR/pstore/NAME` reads one\n", f);
		return;
	}
	fprintf(f, "PREVIOUS BOOT's crash, from pstore/%s (%s#%d Part%d; not this boot's trace, which follows it):\n",
		ps->rec.name, ps->rec.reason, ps->rec.count, ps->rec.part);
	rp_dump_text(d, f);
	fputs("  (the others: `boottrace report DIR/pstore/NAME`)\n", f);
	fputs("THIS BOOT:\n", f);
}

void rp_pstore_json(const struct rp_pstore *ps, const struct rp_dump *d,
		    FILE *f)
{
	size_t i;

	if (!ps)
		return;
	fputs("  \"pstore\": {\n  ", f);
	if (ps->from_dir)
		rp_dump_json(d, f);
	fputs("    \"previous_boot\": true, \"record\": ", f);
	if (ps->rec.reason[0])
		json_fputs(f, ps->rec.name);
	else
		fputs("null", f);
	fputs(", \"reason\": ", f);
	if (ps->rec.reason[0])
		json_fputs(f, ps->rec.reason);
	else
		fputs("null", f);
	fprintf(f, ", \"count\": %d, \"part\": %d, \"log_lines\": %llu, \"raw_header\": %s, \"records\": [",
		ps->rec.count, ps->rec.part, (unsigned long long)ps->log_lines,
		ps->raw ? "true" : "false");
	for (i = 0; i < ps->nrecs; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", f);
		json_fputs(f, ps->recs[i].name);
		fputs(", \"reason\": ", f);
		if (ps->recs[i].reason[0])
			json_fputs(f, ps->recs[i].reason);
		else
			fputs("null", f);
		fprintf(f, ", \"count\": %d, \"part\": %d, \"bytes\": %llu, \"dump\": %s}",
			ps->recs[i].count, ps->recs[i].part,
			(unsigned long long)ps->recs[i].bytes,
			ps->recs[i].has_dump ? "true" : "false");
	}
	fputs("]},\n", f);
}
