// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The join of the initramfs snapshot's trace with the live trace
 * (record.h). tracefs keeps one ring buffer per CPU and its `trace` file
 * merges them by time (docs/kernel-facts.md 25), so the snapshot is, per
 * CPU, a prefix of what that CPU's buffer held; the live buffer holds the
 * same CPU's events from some point on. An event of the live trace is new
 * when it comes after the snapshot's last event of its CPU. Both files are
 * read as streams, in bounded memory.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/grow.h"
#include "record/record.h"
#include "report/out/report.h"


void record_time_str(uint64_t ts, int raw, char *buf, size_t cap)
{
	if (raw)
		snprintf(buf, cap, "%llu", (unsigned long long)ts);
	else
		snprintf(buf, cap, "%llu.%06llu",
			 (unsigned long long)(ts / 1000000000ull),
			 (unsigned long long)(ts % 1000000000ull / 1000));
}

/* ---- a line reader over a descriptor ---------------------------------- */

struct lines {
	int fd;
	const char *name;
	char *buf;
	size_t len, pos, cap;
	int eof;
};

/* The next line [*p, *end) without its newline; *nl: it had one. 1, 0 at
 * the end, -1 with @e. */
static int next_line(struct lines *l, const char **p, const char **end,
		     int *nl, struct bt_error *e)
{
	char *q;
	ssize_t n;

	for (;;) {
		q = l->buf ? memchr(l->buf + l->pos, '\n', l->len - l->pos) : NULL;
		if (q || (l->eof && l->pos < l->len)) {
			*p = l->buf + l->pos;
			*end = q ? q : l->buf + l->len;
			*nl = q != NULL;
			l->pos = q ? (size_t)(q - l->buf) + 1 : l->len;
			return 1;
		}
		if (l->eof)
			return 0;
		if (l->pos) {
			memmove(l->buf, l->buf + l->pos, l->len - l->pos);
			l->len -= l->pos;
			l->pos = 0;
		}
		if (l->cap - l->len < 65536 &&
		    BT_GROW(l->buf, l->len + 65536 + 1, l->cap) < 0)
			return bt_error_set(e, BT_EXIT_ENV, l->name, "out of memory for a line of %zu bytes", l->len);
		n = read(l->fd, l->buf + l->len, l->cap - l->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return bt_error_errno(e, errno, l->name, "cannot read the trace");
		if (!n)
			l->eof = 1;
		l->len += (size_t)n;
	}
}

/* ---- per CPU ---------------------------------------------------------- */

struct cpu {
	uint64_t last, ties;		/* snapshot: last time, events at it */
	uint64_t seen_ties;		/* live: of those, met again */
	uint64_t live_first;		/* live: first event's time */
	uint8_t in_snap, in_live;
};

struct cpus {
	struct cpu *v;
	size_t n, cap;
};

static struct cpu *cpu_at(struct cpus *c, int cpu)
{
	size_t i = (size_t)cpu;

	if (i >= c->n) {
		if (BT_GROW(c->v, i + 1, c->cap) < 0)
			return NULL;
		memset(c->v + c->n, 0, (i + 1 - c->n) * sizeof(*c->v));
		c->n = i + 1;
	}
	return &c->v[i];
}

static int oom(struct bt_error *e, const char *name)
{
	return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
}

static const char entries_key[] = "# entries-in-buffer/entries-written: ";

static int entries_line(const char *p, const char *end)
{
	return (size_t)(end - p) >= sizeof(entries_key) - 1 &&
	       !memcmp(p, entries_key, sizeof(entries_key) - 1);
}

/* The snapshot: copied whole but for a cut last line and its entry
 * counts; its last events. */
static int join_snap(struct lines *l, FILE *out, struct cpus *c,
		     struct record_join *j, int *clock_raw, uint64_t *lines,
		     struct bt_error *e)
{
	const char *p, *end;
	struct cpu *k;
	uint64_t ts;
	int nl, rc, cpu, raw;

	while ((rc = next_line(l, &p, &end, &nl, e)) > 0) {
		if (!nl) {
			j->snap_cut = 1;	/* the hook's max_kb cut */
			break;
		}
		/*
		 * The snapshot buffer's entry counts are not the joined
		 * trace's: left out, so that report does not take them for
		 * it (record.json has each window's).
		 */
		if (!entries_line(p, end))
			fwrite(p, 1, (size_t)(end - p) + 1, out);
		if (p < end && *p != '#')
			(*lines)++;
		if (!report_line_time(p, end, &cpu, &ts, &raw))
			continue;
		if (!(k = cpu_at(c, cpu)))
			return oom(e, l->name);
		*clock_raw = raw;
		if (!j->snap_events++)
			j->snap_first = ts;
		if (ts > j->snap_last)
			j->snap_last = ts;
		if (!k->in_snap || ts > k->last) {
			k->last = ts;
			k->ties = 0;
		}
		if (ts == k->last)
			k->ties++;
		k->in_snap = 1;
	}
	return rc < 0 ? -1 : 0;
}

/* "# entries-in-buffer/entries-written: 12/34   #P:2" */
static void live_header(const char *p, const char *end, struct record_join *j)
{
	char buf[128];
	size_t n = (size_t)(end - p);

	if (!entries_line(p, end))
		return;
	n = n < sizeof(buf) ? n : sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (sscanf(buf + sizeof(entries_key) - 1, "%llu/%llu", &j->live_in_buffer,
		   &j->live_written) == 2)
		j->have_live_entries = 1;
}

/* Is the live event new: after the snapshot's last of its CPU? */
static int is_new(struct cpu *k, uint64_t ts, struct record_join *j)
{
	if (!k->in_live) {
		k->in_live = 1;
		k->live_first = ts;
	}
	if (!k->in_snap) {
		if (j->snap_events && ts <= j->snap_last) {
			j->older++;
			return 0;
		}
		return 1;
	}
	if (ts < k->last || (ts == k->last && k->seen_ties < k->ties)) {
		if (ts == k->last)
			k->seen_ties++;
		j->overlap++;
		return 0;
	}
	return 1;
}

static int join_live(struct lines *l, FILE *out, struct cpus *c,
		     struct record_join *j, int *clock_raw, uint64_t *lines,
		     struct bt_error *e)
{
	const char *p, *end;
	struct cpu *k;
	uint64_t ts;
	int nl, rc, cpu, raw, keep = 0, started = 0;

	while ((rc = next_line(l, &p, &end, &nl, e)) > 0) {
		if (!report_line_time(p, end, &cpu, &ts, &raw)) {
			if (!started && p < end && *p == '#')
				live_header(p, end, j);
			else if (p < end && *p != '#')
				(*lines)++;
			if (started && keep) {
				fwrite(p, 1, (size_t)(end - p), out);
				fputc('\n', out);
			}
			continue;
		}
		if (*clock_raw >= 0 && raw != *clock_raw) {
			j->untimed = 1;	/* a counter against seconds */
			return 0;
		}
		started = 1;
		(*lines)++;
		if (!(k = cpu_at(c, cpu)))
			return oom(e, l->name);
		*clock_raw = raw;
		if ((keep = is_new(k, ts, j))) {
			if (!j->live_events++)
				j->live_first = ts;
			j->live_last = ts;
			fwrite(p, 1, (size_t)(end - p), out);
			fputc('\n', out);
		}
	}
	return rc < 0 ? -1 : 0;
}

static int add_gaps(struct cpus *c, struct record_join *j,
		    struct bt_error *e, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		struct cpu *k = &c->v[i];

		if (!k->in_snap || (k->in_live && k->live_first <= k->last))
			continue;
		if (BT_GROW(j->gaps, j->ngaps + 1, j->cap) < 0)
			return oom(e, name);
		j->gaps[j->ngaps].cpu = (int)i;
		j->gaps[j->ngaps].from = k->last;
		j->gaps[j->ngaps].to = k->in_live ? k->live_first : 0;
		j->gaps[j->ngaps].cleared = !k->in_live;
		j->ngaps++;
	}
	return 0;
}

int record_join(int sfd, const char *sname, int lfd, const char *lname,
		FILE *out, struct record_join *j, struct bt_error *e)
{
	struct lines s = { .fd = sfd, .name = sname };
	struct lines l = { .fd = lfd, .name = lname };
	struct cpus c = { 0 };
	uint64_t slines = 0, llines = 0;
	int sraw = -1, lraw = -1, rc;

	memset(j, 0, sizeof(*j));
	rc = join_snap(&s, out, &c, j, &sraw, &slines, e);
	if (!rc && (slines && !j->snap_events))
		j->untimed = 1;
	lraw = sraw;
	if (!rc && !j->untimed && lfd >= 0)
		rc = join_live(&l, out, &c, j, &lraw, &llines, e);
	if (!rc && !j->untimed && llines && !j->live_events && !j->overlap &&
	    !j->older)
		j->untimed = 1;
	j->raw = sraw > 0 || lraw > 0;
	if (!rc && !j->untimed)
		rc = add_gaps(&c, j, e, lname);
	free(s.buf);
	free(l.buf);
	free(c.v);
	return rc;
}

void record_join_free(struct record_join *j)
{
	free(j->gaps);
	j->gaps = NULL;
	j->ngaps = j->cap = 0;
}
