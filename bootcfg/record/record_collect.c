// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `boottrace collect` as one call (record.h): this boot's snapshot + the
 * live tracefs -> one record directory, built under a temporary name in
 * the state directory and renamed into place, so that a crash or a full
 * disk never leaves half a record under the final name; then the last N
 * records are kept. The record is a snapshot directory (report reads it
 * the same way) plus record.json (docs/record-schema.md).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "kernel/tracefs.h"
#include "util/atomic.h"
#include "util/json.h"
#include "util/readfile.h"
#include "util/textbuf.h"
#include "record/record.h"

#define SMALL_MAX ((size_t)64 << 20)
#define WHO "boottrace collect"

struct ctx {
	const struct record_opts *o;
	char id[128];			/* boot id */
	char snap[4096];		/* the snapshot directory */
	char tracefs[4096];
	char tmpname[256], tmp[4096];	/* the record being built */
	char final[4096];
	char *meta;			/* the snapshot's meta */
	char follow[16];		/* its follow= setting */
	int snap_complete, snap_kallsyms;
	double up_start, up_end;	/* collect's own window (uptime) */
	struct textbuf notes;		/* meta lines collect adds */
	int errors, warnings;
	const char *tracing;
	struct record_join j;
	int joined;			/* the live trace was joined */
	char why_not[256];		/* why not, when not */
	char empty[600];		/* why the record is empty ("" it is not) */
	unsigned long long overrun, dropped;
	char clock_snap[32], clock_live[32];
	struct record_arm arm;		/* arm-boot's state, settled first */
	struct bt_error broken;		/* why the snapshot is broken; msg "" when whole */
};

/* ---- small helpers ---------------------------------------------------- */

static void note(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct ctx *c, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	textbuf_puts(&c->notes, line);
	textbuf_puts(&c->notes, "\n");
}

static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int path_of(char *buf, size_t cap, const char *dir, const char *rel)
{
	return (size_t)snprintf(buf, cap, "%s/%s", dir, rel) >= cap ? -1 : 0;
}

/* A small text file, or NULL (no such file, or unreadable: @e says). */
static char *read_text(const char *path, const char *what, struct bt_error *e)
{
	size_t len;

	return readfile(path, SMALL_MAX, 0, what, &len, e);
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* The value of "KEY=" in a meta text, into @out ("" when absent). */
static void meta_get(const char *meta, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key);
	const char *p = meta;

	*out = '\0';
	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(out, cap, "%.*s", (int)strcspn(p + kl + 1, "\n"), p + kl + 1);
			return;
		}
}

/* ---- writing the record's files: util/atomic.h, each whole ------------ */

static int put(struct ctx *c, const char *rel, const char *data, size_t len,
	       struct bt_error *e)
{
	struct atomic a;
	char path[4096];
	size_t off = 0;
	ssize_t n;

	if (path_of(path, sizeof(path), c->tmp, rel))
		return bt_error_set(e, BT_EXIT_ENV, c->tmp, "path too long for %s", rel);
	if (atomic_begin(&a, path, e))
		return -1;
	while (off < len) {
		n = write(a.fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			atomic_fail(&a, errno, "writing the temp file", e);
			atomic_abort(&a);
			return -1;
		}
		off += (size_t)n;
	}
	return atomic_commit(&a, e);
}

static int mkdirs(struct ctx *c, const char *rel, struct bt_error *e)
{
	char path[4096], *s;

	if (path_of(path, sizeof(path), c->tmp, rel))
		return bt_error_set(e, BT_EXIT_ENV, c->tmp, "path too long for %s", rel);
	for (s = path + strlen(c->tmp) + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		char was = *s;

		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return bt_error_errno(e, errno, path, "cannot create the record's directory");
		if (!(*s = was))
			break;
	}
	return 0;
}

/* Copy @src (read through util/readfile.h) to @rel of the record. */
static int copy_in(struct ctx *c, const char *src, const char *rel,
		   struct bt_error *e)
{
	struct atomic a;
	struct stat st;
	char path[4096], buf[65536];
	ssize_t n, w;
	int fd;

	if ((fd = readfile_open(src, RF_TRACE_MAX, 0, "a snapshot file", &st, e)) < 0)
		return -1;
	if (path_of(path, sizeof(path), c->tmp, rel)) {
		close(fd);
		return bt_error_set(e, BT_EXIT_ENV, c->tmp, "path too long for %s", rel);
	}
	if (atomic_begin(&a, path, e)) {
		close(fd);
		return -1;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			bt_error_errno(e, errno, src, "cannot read it to copy it into the record");
			goto fail;
		}
		for (char *p = buf; n > 0; p += w, n -= w) {
			if ((w = write(a.fd, p, (size_t)n)) < 0) {
				if (errno == EINTR) {
					w = 0;
					continue;
				}
				atomic_fail(&a, errno, "writing the temp file", e);
				goto fail;
			}
		}
	}
	close(fd);
	return atomic_commit(&a, e);
fail:
	close(fd);
	atomic_abort(&a);
	return -1;
}

/* Files of the snapshot that the record holds from the live system or
 * rebuilds; the snapshot's own go to initramfs/. */
static int replaced(const char *rel)
{
	static const char *const names[] = { "trace", "meta", "COMPLETE",
		"modules", "dmesg", "kallsyms", RECORD_MARK, "record.json" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(rel, names[i]))
			return 1;
	return !strncmp(rel, "initramfs", 9) || !strncmp(rel, "live", 4);
}

/* The snapshot's tree, but for the replaced files at its top. */
static int copy_tree(struct ctx *c, const char *rel, struct bt_error *e)
{
	char src[4096], sub[4096];
	struct dirent *d;
	struct stat st;
	DIR *dp;
	int rc = 0;

	if (path_of(src, sizeof(src), c->snap, rel))
		return bt_error_set(e, BT_EXIT_ENV, c->snap, "path too long: %s", rel);
	if (!(dp = opendir(src)))
		return bt_error_errno(e, errno, src, "cannot read the snapshot directory");
	while (!rc && (d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s%s%s", rel, *rel ? "/" : "", d->d_name) >= sizeof(sub) ||
		    path_of(src, sizeof(src), c->snap, sub)) {
			rc = bt_error_set(e, BT_EXIT_ENV, c->snap, "path too long in the snapshot: %s", d->d_name);
			break;
		}
		if (!*rel && replaced(sub))
			continue;
		if (lstat(src, &st) < 0) {
			rc = bt_error_errno(e, errno, src, "cannot read the snapshot file");
		} else if (S_ISDIR(st.st_mode)) {
			rc = mkdirs(c, sub, e);
			if (!rc)
				rc = copy_tree(c, sub, e);
		} else if (S_ISREG(st.st_mode)) {
			rc = copy_in(c, src, sub, e);
		} else {
			bt_say(WHO, BT_SAY_WARN, "%s is not a regular file (%s); not copied into the record", src, readfile_kind(st.st_mode));
		}
	}
	closedir(dp);
	return rc;
}

/* ---- the inputs ------------------------------------------------------- */

static int valid_id(const char *s)
{
	if (!*s || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		      (*s >= 'A' && *s <= 'F') || *s == '-'))
			return 0;
	return 1;
}

int record_boot_id(const char *given, char *id, size_t cap, struct bt_error *e)
{
	static const char file[] = "/proc/sys/kernel/random/boot_id";
	char *t;

	if (given) {
		snprintf(id, cap, "%s", given);
	} else {
		if (!(t = read_text(file, "the boot id", e)))
			return -1;
		chomp(t);
		snprintf(id, cap, "%s", t);
		free(t);
	}
	if (!valid_id(id))
		return bt_error_set(e, BT_EXIT_INPUT, given ? NULL : file, "boot id '%s' is not hex digits and dashes", id);
	return 0;
}

int record_snapshot(const char *run, const char *id, char *snap, size_t cap,
		    struct bt_error *e)
{
	char p[4096];
	struct stat st;
	int n;

	if ((size_t)snprintf(snap, cap, "%s/%s", run, id) >= cap)
		return bt_error_set(e, BT_EXIT_USAGE, run, "path too long");
	if (stat(snap, &st) < 0 || !S_ISDIR(st.st_mode))
		return bt_error_set(e, BT_EXIT_INPUT, snap, "no initramfs snapshot of this boot: the boot did not ask for boottrace (no 'boottrace' word), or the initramfs has no boottrace hook (initramfs-hook/README.md); nothing to collect");
	for (n = 2; n < 1000; n++) {
		snprintf(p, sizeof(p), "%s/%s-%d", run, id, n);
		if (stat(p, &st) < 0 || !S_ISDIR(st.st_mode))
			break;
		snprintf(snap, cap, "%s", p);
	}
	if (path_of(p, sizeof(p), snap, "trace") ||
	    (access(p, R_OK) && (path_of(p, sizeof(p), snap, "meta") || access(p, R_OK))))
		return bt_error_set(e, BT_EXIT_INPUT, snap, "holds neither 'trace' nor 'meta': not a snapshot of the hook; nothing to collect");
	return 0;
}

/* The live tracefs: given, found (kernel/tracefs.c), or mounted here. */
static int find_tracefs(struct ctx *c, struct bt_error *e)
{
	const char *dir;

	if (c->o->tracefs) {
		if (!tracefs_has(c->o->tracefs, TFN_TRACE))
			return bt_error_set(e, BT_EXIT_ENV, c->o->tracefs, "no tracefs here (no readable 'trace' file): give the tracefs directory with --tracefs");
		snprintf(c->tracefs, sizeof(c->tracefs), "%s", c->o->tracefs);
		return 0;
	}
	dir = tracefs_find(TFN_TRACE);
	if (dir) {
		snprintf(c->tracefs, sizeof(c->tracefs), "%s", dir);
		return 0;
	}
	/* the hook mounts it in the initramfs; the real root may not */
	if (!mount("nodev", TRACEFS_MOUNT, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) &&
	    tracefs_has(TRACEFS_MOUNT, TFN_TRACE)) {
		snprintf(c->tracefs, sizeof(c->tracefs), "%s", TRACEFS_MOUNT);
		note(c, "collect_tracefs_mounted=1");
		return 0;
	}
	return bt_error_set(e, BT_EXIT_ENV, NULL, "no tracefs: neither /sys/kernel/tracing nor /sys/kernel/debug/tracing has a 'trace' file and tracefs cannot be mounted (kernel without CONFIG_TRACING, or not root?); give its directory with --tracefs");
}

/* The bracketed clock of a trace_clock text ("[local] global"). */
static void clock_of(const char *dir, char *out, size_t cap)
{
	struct bt_error e;
	char p[4096], *t, *a, *b;

	*out = '\0';
	if (path_of(p, sizeof(p), dir, "trace_clock") || access(p, R_OK) ||
	    !(t = read_text(p, "a trace_clock file", &e)))
		return;
	if ((a = strchr(t, '[')) && (b = strchr(a, ']')))
		snprintf(out, cap, "%.*s", (int)(b - a - 1), a + 1);
	free(t);
}

/* ---- tracing after collect: as the boot asked (meta's follow=) ---------- */

static void write_word(const char *path, const char *w)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return;
	if (write(fd, w, strlen(w)) < 0)
		bt_say(WHO, BT_SAY_WARN, "%s: cannot write %s: %s", path, w, strerror(errno));
	close(fd);
}

static void set_tracing(struct ctx *c)
{
	char p[4096];
	struct dirent *d;
	DIR *dp;

	if (!strcmp(c->follow, "keep")) {
		c->tracing = "kept on";
		return;
	}
	if (strcmp(c->follow, "1")) {
		c->tracing = "unchanged";
		return;
	}
	/* stopped before the live trace is read: it no longer moves */
	if (!path_of(p, sizeof(p), c->tracefs, "tracing_on"))
		write_word(p, "0\n");
	if (!path_of(p, sizeof(p), c->tracefs, "instances") && (dp = opendir(p))) {
		while ((d = readdir(dp))) {
			char q[4096];

			if (d->d_name[0] == '.')
				continue;
			/*
			 * A persistent instance (last_boot_info: Linux 6.12's
			 * ring buffer kept over a warm reboot) is the record of
			 * a boot that dies later: left on (docs/kernel-facts.md
			 * 50, 52).
			 */
			if ((size_t)snprintf(q, sizeof(q), "%s/%s/last_boot_info", p, d->d_name) < sizeof(q) &&
			    !access(q, F_OK))
				continue;
			if ((size_t)snprintf(q, sizeof(q), "%s/%s/tracing_on", p, d->d_name) < sizeof(q) &&
			    !access(q, W_OK))
				write_word(q, "0\n");
		}
		closedir(dp);
	}
	c->tracing = "stopped";
}

/* ---- the parts of the record ------------------------------------------ */

/* The live buffer's small files and per-CPU stats, in live/ (tracing_on
 * is copied before collect stops tracing). */
static int copy_live_state(struct ctx *c, struct bt_error *e)
{
	static const char *const files[] = { "trace_clock",
		"buffer_size_kb", "buffer_total_size_kb", "current_tracer" };
	char src[4096], rel[512];
	struct dirent *d;
	size_t i;
	DIR *dp;

	if (mkdirs(c, "live", e))
		return -1;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel), "live/%s", !strcmp(files[i], "current_tracer") ? "tracer" : files[i]);
		if (!path_of(src, sizeof(src), c->tracefs, files[i]) &&
		    !access(src, R_OK) && copy_in(c, src, rel, e))
			return -1;
	}
	if (path_of(src, sizeof(src), c->tracefs, "per_cpu") || !(dp = opendir(src)))
		return 0;
	while ((d = readdir(dp))) {
		char *t;
		const char *p;
		struct bt_error e2;

		if (strncmp(d->d_name, "cpu", 3) || strlen(d->d_name) > 16)
			continue;
		if ((size_t)snprintf(src, sizeof(src), "%s/per_cpu/%s/stats", c->tracefs, d->d_name) >= sizeof(src) ||
		    access(src, R_OK) || !(t = read_text(src, "a per-CPU stats file", &e2)))
			continue;
		if ((p = strstr(t, "overrun: ")) && (p == t || p[-1] == '\n'))
			c->overrun += strtoull(p + 9, NULL, 10);
		if ((p = strstr(t, "dropped events: ")))
			c->dropped += strtoull(p + 16, NULL, 10);
		snprintf(rel, sizeof(rel), "live/per_cpu/%s", d->d_name);
		if (mkdirs(c, rel, e) ||
		    (snprintf(rel, sizeof(rel), "live/per_cpu/%s/stats", d->d_name), put(c, rel, t, strlen(t), e))) {
			free(t);
			closedir(dp);
			return -1;
		}
		free(t);
	}
	closedir(dp);
	return 0;
}

/* The kernel log now (the whole boot, as far as the ring still holds it). */
static int put_dmesg(struct ctx *c, struct bt_error *e)
{
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), rc;
	char *buf, *out, *p, *q, *o;

	if (n <= 0 || !(buf = malloc((size_t)n + 1)))
		return 1;
	if ((n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n)) < 0) {
		free(buf);
		return 1;
	}
	buf[n] = '\0';
	if (!(out = malloc((size_t)n + 1))) {
		free(buf);
		return 1;
	}
	/* as dmesg prints it: without the "<6>" level of each line */
	for (p = buf, o = out; *p; p = q) {
		q = p + strcspn(p, "\n");
		if (*q)
			q++;
		if (*p == '<' && (p = strchr(p, '>')) && p < q)
			p++;
		else if (!p)
			break;
		memcpy(o, p, (size_t)(q - p));
		o += q - p;
	}
	rc = put(c, "dmesg", out, (size_t)(o - out), e) ? -1 : 0;
	free(buf);
	free(out);
	return rc;
}

/* The live trace joined after the snapshot's, into trace. */
static int put_trace(struct ctx *c, struct bt_error *e)
{
	char spath[4096], lpath[4096], path[4096];
	struct stat st;
	struct atomic a;
	int sfd = -1, lfd = -1, rc = -1;
	FILE *f;

	if (path_of(spath, sizeof(spath), c->snap, "trace") ||
	    path_of(lpath, sizeof(lpath), c->tracefs, "trace") ||
	    path_of(path, sizeof(path), c->tmp, "trace"))
		return bt_error_set(e, BT_EXIT_ENV, c->tmp, "path too long");
	if (access(spath, R_OK)) {
		c->why_not[0] = '\0';
		snprintf(c->why_not, sizeof(c->why_not), "the snapshot has no trace (the hook copied none: see its errors)");
		return 0;
	}
	clock_of(c->snap, c->clock_snap, sizeof(c->clock_snap));
	clock_of(c->tracefs, c->clock_live, sizeof(c->clock_live));
	if ((sfd = readfile_open(spath, RF_TRACE_MAX, 0, "a snapshot trace", &st, e)) < 0)
		return -1;
	if (*c->clock_snap && *c->clock_live && strcmp(c->clock_snap, c->clock_live))
		snprintf(c->why_not, sizeof(c->why_not), "the trace clock changed from %s (snapshot) to %s (live): times cannot be compared", c->clock_snap, c->clock_live);
	else if ((lfd = readfile_open(lpath, RF_TRACE_MAX, 0, "the live trace", &st, e)) < 0)
		goto out;
	if (atomic_begin(&a, path, e))
		goto out;
	if (!(f = atomic_stream(&a, e))) {
		atomic_abort(&a);
		goto out;
	}
	errno = 0;
	if (record_join(sfd, spath, lfd, lpath, f, &c->j, e)) {
		atomic_abort(&a);
		goto out;
	}
	if (ferror(f)) {
		atomic_fail(&a, errno ? errno : EIO, "writing the temp file", e);
		atomic_abort(&a);
		goto out;
	}
	if (atomic_commit(&a, e))
		goto out;
	c->joined = lfd >= 0 && !c->j.untimed;
	if (lfd >= 0 && c->j.untimed)
		snprintf(c->why_not, sizeof(c->why_not), "a trace has lines but none with a time the join can read (a layout without times, such as function_graph without funcgraph-abstime, or a counter clock against seconds)");
	rc = 0;
out:
	if (sfd >= 0)
		close(sfd);
	if (lfd >= 0)
		close(lfd);
	return rc;
}

static void warn(struct ctx *c, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void warn(struct ctx *c, int error, const char *fmt, ...)
{
	char text[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	note(c, "%s=%s", error ? "error" : "warning", text);
	bt_say(WHO, error ? BT_SAY_ERROR : BT_SAY_WARN, "%s", text);
	if (error)
		c->errors++;
	else
		c->warnings++;
}

/* What the join found, as meta lines (and said on stderr). */
static void judge_join(struct ctx *c)
{
	char a[48], b[48], stopped[8], resumed[8];
	size_t i;
	struct record_join *j = &c->j;
	int paused;

	meta_get(c->meta, "stopped", stopped, sizeof(stopped));
	meta_get(c->meta, "resumed", resumed, sizeof(resumed));
	paused = !strcmp(stopped, "1") && !strcmp(resumed, "1");

	note(c, "join=%s", c->joined ? "yes" : "no");
	note(c, "join_clock=%s", *c->clock_live ? c->clock_live : j->raw ? "counter" : "unknown");
	note(c, "join_snapshot_events=%llu", (unsigned long long)j->snap_events);
	note(c, "join_live_events=%llu", (unsigned long long)j->live_events);
	note(c, "join_overlap=%llu", (unsigned long long)j->overlap);
	if (j->snap_events) {
		record_time_str(j->snap_last, j->raw, a, sizeof(a));
		note(c, "join_snapshot_end=%s", a);
	}
	if (j->live_events) {
		record_time_str(j->live_first, j->raw, a, sizeof(a));
		record_time_str(j->live_last, j->raw, b, sizeof(b));
		note(c, "join_live_start=%s", a);
		note(c, "join_live_end=%s", b);
	}
	if (j->have_live_entries)
		note(c, "live_entries=%llu/%llu", j->live_in_buffer, j->live_written);
	note(c, "live_overrun=%llu", c->overrun);
	note(c, "live_dropped=%llu", c->dropped);
	if (!c->joined) {
		warn(c, 1, "live trace not joined: %s; the record holds the initramfs snapshot's trace only", c->why_not);
		return;
	}
	if (j->snap_cut)
		warn(c, 0, "the snapshot's trace ended in a cut line (its max_kb or the room of /run); the line was left out and the live buffer's events after it were joined");
	for (i = 0; i < j->ngaps; i++) {
		struct record_gap *g = &j->gaps[i];

		record_time_str(g->from, j->raw, a, sizeof(a));
		record_time_str(g->to, j->raw, b, sizeof(b));
		g->pause = paused && !c->overrun && !c->dropped;
		/*
		 * The hook stopped tracing for its copy and turned it back on:
		 * nothing was recorded in between, and turning tracing_on back
		 * on empties the buffer under the function tracer
		 * (docs/kernel-facts.md 36). With no overrun and nothing
		 * dropped, the "gap" is that pause, not a loss.
		 */
		if (g->pause) {
			if (g->cleared)
				note(c, "join_pause=CPU %d: no event after %s in the snapshot nor since the hook turned tracing back on (nothing lost: it was off in between)", g->cpu, a);
			else
				note(c, "join_pause=CPU %d: tracing was off from %s (the snapshot) until the hook turned it back on; its next event is at %s (nothing lost)", g->cpu, a, b);
			continue;
		}
		if (g->cleared)
			warn(c, 1, "gap on CPU %d after %s: the live buffer holds no event of this CPU (it was cleared, or the tracer changed, after the snapshot); its later events are lost", g->cpu, a);
		else
			warn(c, 1, "gap on CPU %d from %s to %s: the live buffer wrapped before collect ran and no longer holds the snapshot's last event; events in between may be lost (a bigger buffer_size_kb, or collect ordered earlier, keeps them)", g->cpu, a, b);
	}
	if (c->dropped)
		warn(c, 1, "the live buffer dropped %llu events (per_cpu/*/stats 'dropped events'): it was full and not overwriting; the newest events are missing", c->dropped);
	if (j->older)
		warn(c, 0, "%llu live events on CPUs without events in the snapshot are older than the snapshot's end and were left out (tracing was not stopped while the hook copied?)", (unsigned long long)j->older);
	if (!strcmp(c->follow, "0") || !*c->follow)
		note(c, "collect_note=the boot did not ask to trace past the initramfs (boottrace.follow=0): the live events are those of a tracing the hook did not stop");
}

/*
 * The one rule of an empty record: no trace event at all, or a boot that
 * asked to trace past the initramfs (follow=1 or keep) whose live window
 * holds none, so every question about the rest of the boot would get a
 * silent "nothing" from it. 1 with the reason in @why.
 */
static int record_empty(const struct ctx *c, char *why, size_t cap)
{
	const struct record_join *j = &c->j;

	if (!j->snap_events && !j->live_events) {
		snprintf(why, cap, "it holds no trace event at all (the snapshot's trace and the live buffer are both empty): nothing was traced this boot; check the boot's ftrace=/ftrace.* settings and the snapshot's meta");
		return 1;
	}
	if (*c->follow && strcmp(c->follow, "0") && !j->live_events) {
		snprintf(why, cap, "its live window is empty: the boot asked to trace past the initramfs (boottrace.follow=%.8s) and no event after the snapshot is in it (%.300s), so nothing after the initramfs can be answered from it",
			 c->follow, c->joined ? "tracing was off after the hook, or the traced functions were not called again" : c->why_not);
		return 1;
	}
	return 0;
}

/* An empty record is written (it says why) and fails the unit. */
static void judge_empty(struct ctx *c)
{
	if (!record_empty(c, c->empty, sizeof(c->empty)))
		return;
	note(c, "error=the record is empty: %s", c->empty);
	c->errors++;
}

/* ---- record.json (docs/record-schema.md) ------------------------------- */

static void addc(struct textbuf *t, char ch)
{
	textbuf_put(t, &ch, 1);
}

static void json_str(struct textbuf *t, const char *s, size_t n)
{
	json_tput(t, s, n);
}

static void json_cstr(struct textbuf *t, const char *s)
{
	if (s)
		json_str(t, s, strlen(s));
	else
		textbuf_puts(t, "null");
}

static void json_time(struct textbuf *t, int have, uint64_t ts, int raw)
{
	char b[48];

	if (!have) {
		textbuf_puts(t, "null");
		return;
	}
	record_time_str(ts, raw, b, sizeof(b));
	textbuf_puts(t, b);
}

/* an uptime "4.41" from meta as a JSON number, or null */
static void json_num(struct textbuf *t, const char *v)
{
	size_t n = strspn(v, "0123456789");

	if (n && (!v[n] || (v[n] == '.' && v[n + 1] &&
			    !v[n + 1 + strspn(v + n + 1, "0123456789")])))
		textbuf_puts(t, v);
	else
		textbuf_puts(t, "null");
}

/* Every "error="/"warning=" line of a meta text, as a JSON array. */
static void json_lines(struct textbuf *t, const char *meta, const char *kind)
{
	size_t kl = strlen(kind);
	const char *p;
	int n = 0;

	addc(t, '[');
	for (p = meta; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, kind, kl) && p[kl] == '=') {
			if (n++)
				textbuf_puts(t, ", ");
			json_str(t, p + kl + 1, strcspn(p + kl + 1, "\n"));
		}
	addc(t, ']');
}

static char *snap_file(struct ctx *c, const char *rel)
{
	struct bt_error e;
	char p[4096], *t;

	if (path_of(p, sizeof(p), c->snap, rel) || access(p, R_OK) ||
	    !(t = read_text(p, "a snapshot file", &e)))
		return NULL;
	chomp(t);
	return t;
}

/*
 * pstore's records of earlier boots (a panic's log with the trace the
 * kernel dumped into it; docs/crash.md) when the hook's snapshot has none:
 * a boot whose initramfs had no hook, or one where ramoops came up later.
 * Copied as they are, never removed (systemd-pstore archives them).
 */
static int put_pstore(struct ctx *c, struct bt_error *e)
{
	const char *dir = c->o->pstore ? c->o->pstore : "/sys/fs/pstore";
	char src[4096], rel[512];
	struct dirent *d;
	struct stat st;
	DIR *dp;
	int n = 0, rc = 0;

	if (!path_of(src, sizeof(src), c->snap, "pstore") && !access(src, F_OK))
		return 0;	/* the hook's copy, in the tree */
	if (!(dp = opendir(dir)))
		return 0;
	while (!rc && (d = readdir(dp))) {
		if (d->d_name[0] == '.' || path_of(src, sizeof(src), dir, d->d_name) ||
		    lstat(src, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		snprintf(rel, sizeof(rel), "pstore/%s", d->d_name);
		rc = (!n++ && mkdirs(c, "pstore", e)) || copy_in(c, src, rel, e);
	}
	closedir(dp);
	if (!rc && n)
		note(c, "collect_pstore=%d record(s) from %s", n, dir);
	return rc;
}

/* "pstore": the names of the record's pstore/ files, sorted. */
static void put_pstore_json(struct ctx *c, struct textbuf *t)
{
	char dir[4096];
	struct dirent **v;
	int i, n;

	textbuf_puts(t, "[");
	if (!path_of(dir, sizeof(dir), c->tmp, "pstore") &&
	    (n = scandir(dir, &v, NULL, alphasort)) >= 0) {
		int k = 0;

		for (i = 0; i < n; i++) {
			if (v[i]->d_name[0] != '.') {
				textbuf_puts(t, k++ ? ", " : "");
				json_cstr(t, v[i]->d_name);
			}
			free(v[i]);
		}
		free(v);
	}
	textbuf_puts(t, "]");
}

/*
 * "previous_boot": the hook's copy of a persistent instance holding the
 * previous boot's events (meta's previous_boot=NAME; previous/NAME/ is
 * copied into the record with the rest of the snapshot), or null.
 */
static void put_prev_json(struct ctx *c, struct textbuf *t)
{
	char name[128], rel[300], *lbi, *text, *d;
	long long delta = 0;
	int have = 0;

	meta_get(c->meta, "previous_boot", name, sizeof(name));
	if (!*name || strchr(name, '/')) {
		textbuf_puts(t, "null");
		return;
	}
	snprintf(rel, sizeof(rel), "previous/%s/last_boot_info", name);
	lbi = snap_file(c, rel);
	snprintf(rel, sizeof(rel), "previous/%s/text", name);
	text = snap_file(c, rel);
	if (lbi && (d = strstr(lbi, "text delta:")))
		have = sscanf(d + 11, "%lld", &delta) == 1;
	textbuf_puts(t, "{\"instance\": ");
	json_cstr(t, name);
	snprintf(rel, sizeof(rel), "previous/%s", name);
	textbuf_puts(t, ", \"dir\": ");
	json_cstr(t, rel);
	textbuf_puts(t, ", \"text_delta\": ");
	if (have)
		textbuf_printf(t, "%lld", delta);
	else
		textbuf_puts(t, "null");
	textbuf_puts(t, ", \"this_boot_text\": ");
	if (text)
		text[strcspn(text, " ")] = '\0';
	json_cstr(t, text && *text ? text : NULL);
	textbuf_puts(t, "}");
	free(lbi);
	free(text);
}

/* The one-shot arm-boot armed for this boot: null when none was armed. */
static void put_arm_json(struct ctx *c, struct textbuf *t)
{
	if (c->arm.fate == ARM_NONE) {
		textbuf_puts(t, "null");
		return;
	}
	textbuf_puts(t, "{\"loader\": ");
	json_cstr(t, *c->arm.loader ? c->arm.loader : NULL);
	textbuf_printf(t, ", \"one_shot\": \"%s\", \"restored\": %s}", arm_fate_word(c->arm.fate), c->arm.restored ? "true" : "false");
}

/*
 * Is the snapshot broken? The record is still written from what there is,
 * but the unit that runs collect must fail, or nobody looks: no meta (the
 * hook's settings and errors are unknown), no COMPLETE (the hook was cut
 * off), or errors the hook recorded in meta (a program the initramfs lacks,
 * a cut trace, a refused setting): the snapshot holds less than the boot
 * asked for.
 */
static void snapshot_broken(struct ctx *c)
{
	const char *p, *first = NULL;
	int n = 0;

	bt_error_clear(&c->broken);
	if (!c->meta) {
		bt_error_set(&c->broken, BT_EXIT_INPUT, c->snap, "the snapshot is broken: its meta cannot be read, so the hook's errors are unknown; the record holds what could be copied");
		return;
	}
	for (p = c->meta; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, "error=", 6) && !n++)
			first = p + 6;
	if (n)
		bt_error_set(&c->broken, BT_EXIT_INPUT, c->snap, "the snapshot is broken: the hook recorded %d error%s in its meta, the first: %.*s; the record holds what could be copied (boottrace report shows them all)",
			     n, n == 1 ? "" : "s", (int)strcspn(first, "\n"), first);
	else if (!c->snap_complete)
		bt_error_set(&c->broken, BT_EXIT_INPUT, c->snap, "the snapshot is broken: it has no COMPLETE (the hook was interrupted or could not write); the record holds what could be copied");
}

static int put_json(struct ctx *c, struct bt_error *e)
{
	struct textbuf t;
	struct utsname u;
	char host[256] = "", v[64], when[32];
	char *cmdline = snap_file(c, "cmdline"), *release = snap_file(c, "release");
	const struct record_join *j = &c->j;
	time_t now = time(NULL);
	struct tm tm;
	size_t i, k;
	int rc, paused = 0;

	for (i = 0; i < j->ngaps; i++)
		paused |= j->gaps[i].pause;
	if (!uname(&u))
		snprintf(host, sizeof(host), "%s", u.nodename);
	if (!release && !uname(&u))
		release = strdup(u.release);
	if (!cmdline)
		cmdline = read_text("/proc/cmdline", "the kernel command line", e), cmdline ? chomp(cmdline) : (void)0;
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	memset(&t, 0, sizeof(t));
	textbuf_puts(&t, "{\n  \"schema\": \"boottrace-record\",\n  \"version\": 1,\n  \"boot_id\": ");
	json_cstr(&t, c->id);
	textbuf_puts(&t, ",\n  \"hostname\": ");
	json_cstr(&t, host);
	textbuf_puts(&t, ",\n  \"kernel_release\": ");
	json_cstr(&t, release);
	textbuf_puts(&t, ",\n  \"cmdline\": ");
	json_cstr(&t, cmdline);
	textbuf_puts(&t, ",\n  \"collected\": {\"utc\": ");
	json_cstr(&t, when);
	textbuf_printf(&t, ", \"uptime_start\": %.2f, \"uptime_end\": %.2f, \"boottrace_version\": ", c->up_start, c->up_end);
	json_cstr(&t, BT_VERSION);
	textbuf_puts(&t, ", \"snapshot\": ");
	json_cstr(&t, c->snap);
	textbuf_puts(&t, ", \"tracefs\": ");
	json_cstr(&t, c->tracefs);
	textbuf_puts(&t, ", \"tracing_after\": ");
	json_cstr(&t, c->tracing);
	textbuf_puts(&t, "},\n  \"windows\": [\n    {\"name\": \"initramfs\", \"point\": ");
	meta_get(c->meta, "point", v, sizeof(v));
	json_cstr(&t, *v ? v : NULL);
	textbuf_puts(&t, ", \"uptime_start\": ");
	meta_get(c->meta, "uptime_start", v, sizeof(v));
	json_num(&t, v);
	textbuf_puts(&t, ", \"uptime_end\": ");
	meta_get(c->meta, "uptime_end", v, sizeof(v));
	json_num(&t, v);
	textbuf_puts(&t, ", \"start\": ");
	json_time(&t, j->snap_events > 0, j->snap_first, j->raw);
	textbuf_puts(&t, ", \"end\": ");
	json_time(&t, j->snap_events > 0, j->snap_last, j->raw);
	textbuf_printf(&t, ", \"events\": %llu, \"complete\": %s},\n", (unsigned long long)j->snap_events, c->snap_complete ? "true" : "false");
	textbuf_printf(&t, "    {\"name\": \"live\", \"point\": \"collect\", \"uptime_start\": %.2f, \"uptime_end\": %.2f, \"start\": ", c->up_start, c->up_end);
	json_time(&t, j->live_events > 0, j->live_first, j->raw);
	textbuf_puts(&t, ", \"end\": ");
	json_time(&t, j->live_events > 0, j->live_last, j->raw);
	textbuf_printf(&t, ", \"events\": %llu, \"joined\": %s}\n  ],\n", (unsigned long long)j->live_events, c->joined ? "true" : "false");
	textbuf_printf(&t, "  \"join\": {\"clock\": ");
	json_cstr(&t, *c->clock_live ? c->clock_live : j->raw ? "counter" : NULL);
	textbuf_printf(&t, ", \"overlap\": %llu, \"older\": %llu, \"snapshot_cut\": %s, \"live_overrun\": %llu, \"live_dropped\": %llu, \"paused\": %s, \"gaps\": [",
		       (unsigned long long)j->overlap, (unsigned long long)j->older, j->snap_cut ? "true" : "false", c->overrun, c->dropped,
		       paused ? "true" : "false");
	for (i = 0, k = 0; i < j->ngaps; i++) {
		if (j->gaps[i].pause)
			continue;
		textbuf_printf(&t, "%s{\"cpu\": %d, \"from\": ", k++ ? ", " : "", j->gaps[i].cpu);
		json_time(&t, 1, j->gaps[i].from, j->raw);
		textbuf_puts(&t, ", \"to\": ");
		json_time(&t, !j->gaps[i].cleared, j->gaps[i].to, j->raw);
		textbuf_printf(&t, ", \"cleared\": %s}", j->gaps[i].cleared ? "true" : "false");
	}
	textbuf_puts(&t, "]},\n  \"arm_boot\": ");
	put_arm_json(c, &t);
	textbuf_puts(&t, ",\n  \"previous_boot\": ");
	put_prev_json(c, &t);
	textbuf_puts(&t, ",\n  \"pstore\": ");
	put_pstore_json(c, &t);
	textbuf_puts(&t, ",\n  \"snapshot_broken\": ");
	json_cstr(&t, c->broken.msg[0] ? c->broken.msg : NULL);
	textbuf_puts(&t, ",\n  \"hook_errors\": ");
	json_lines(&t, c->meta, "error");
	textbuf_puts(&t, ",\n  \"hook_warnings\": ");
	json_lines(&t, c->meta, "warning");
	textbuf_puts(&t, ",\n  \"errors\": ");
	json_lines(&t, c->notes.s, "error");
	textbuf_puts(&t, ",\n  \"warnings\": ");
	json_lines(&t, c->notes.s, "warning");
	textbuf_puts(&t, "\n}\n");
	free(cmdline);
	free(release);
	if (t.failed) {
		textbuf_free(&t);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	rc = put(c, "record.json", t.s, t.len, e);
	textbuf_free(&t);
	return rc;
}

static int put_meta(struct ctx *c, struct bt_error *e)
{
	struct textbuf t;
	int rc;

	memset(&t, 0, sizeof(t));
	if (c->meta)
		textbuf_puts(&t, c->meta);
	if (t.len && t.s[t.len - 1] != '\n')
		addc(&t, '\n');
	textbuf_printf(&t, "collect_version=%s\ncollect_snapshot=%s\ncollect_tracefs=%s\ncollect_follow=%s\ncollect_tracing=%s\ncollect_uptime_start=%.2f\ncollect_uptime_end=%.2f\n",
		       BT_VERSION, c->snap, c->tracefs, *c->follow ? c->follow : "0", c->tracing, c->up_start, c->up_end);
	if (c->arm.fate != ARM_NONE)
		textbuf_printf(&t, "collect_arm_boot=%s %s%s\n", *c->arm.loader ? c->arm.loader : "?", arm_fate_word(c->arm.fate), c->arm.restored ? " restored" : "");
	if (c->notes.s)
		textbuf_puts(&t, c->notes.s);
	textbuf_printf(&t, "collect_errors=%d\ncollect_warnings=%d\n", c->errors, c->warnings);
	if (t.failed) {
		textbuf_free(&t);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	rc = put(c, "meta", t.s, t.len, e);
	textbuf_free(&t);
	return rc;
}

/* ---- the whole ---------------------------------------------------------- */

static int build(struct ctx *c, struct bt_error *e)
{
	char src[4096], mark[256];
	char *t;
	int n;

	n = snprintf(mark, sizeof(mark), "%sboot_id=%s\ncollected=%lld\n", RECORD_MARK_TEXT, c->id, (long long)time(NULL));
	if (put(c, RECORD_MARK, mark, (size_t)n, e) || copy_tree(c, "", e) ||
	    mkdirs(c, "initramfs", e))
		return -1;
	/* the snapshot's own, where the record has the live one */
	for (const char *const *f = (const char *const[]){ "meta", "modules", "dmesg", "kallsyms", NULL }; *f; f++) {
		char rel[64];

		snprintf(rel, sizeof(rel), "initramfs/%s", *f);
		if (!path_of(src, sizeof(src), c->snap, *f) && !access(src, R_OK) &&
		    copy_in(c, src, rel, e))
			return -1;
	}
	/* tracing_on as the boot left it, before collect changes it */
	if (mkdirs(c, "live", e) ||
	    (!path_of(src, sizeof(src), c->tracefs, "tracing_on") && !access(src, R_OK) &&
	     copy_in(c, src, "live/tracing_on", e)))
		return -1;
	set_tracing(c);
	if (copy_live_state(c, e) || put_trace(c, e))
		return -1;
	/* modules loaded after the initramfs have their ranges here */
	if (!access("/proc/modules", R_OK)) {
		if (copy_in(c, "/proc/modules", "modules", e))
			return -1;
	} else if (!path_of(src, sizeof(src), c->snap, "modules") && !access(src, R_OK) &&
		   copy_in(c, src, "modules", e)) {
		return -1;
	}
	if (c->snap_kallsyms && copy_in(c, "/proc/kallsyms", "kallsyms", e))
		return -1;
	if ((n = put_dmesg(c, e)) < 0)
		return -1;
	if (n > 0) {
		note(c, "collect_dmesg=the snapshot's (the kernel log cannot be read now)");
		if (!path_of(src, sizeof(src), c->snap, "dmesg") && !access(src, R_OK) &&
		    copy_in(c, src, "dmesg", e))
			return -1;
	}
	if (put_pstore(c, e))
		return -1;
	judge_join(c);
	judge_empty(c);
	c->up_end = uptime();
	if (put_meta(c, e) || put_json(c, e))
		return -1;
	if (c->snap_complete) {
		/* last: the hook's counts and collect's */
		t = snap_file(c, "COMPLETE");
		n = snprintf(src, sizeof(src), "%s collect_errors=%d collect_warnings=%d\n", t ? t : "", c->errors, c->warnings);
		free(t);
		if (put(c, "COMPLETE", src, (size_t)n < sizeof(src) ? (size_t)n : sizeof(src) - 1, e))
			return -1;
	}
	return 0;
}

/* Put the finished temporary directory under its final name. */
static int publish(struct ctx *c, int sfd, struct bt_error *e)
{
	char old[256];
	const char *name = c->final + strlen(c->o->state) + 1;
	struct stat st;
	int fd;

	if ((fd = open(c->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(fd);
		close(fd);
	}
	if (fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!record_is_ours(sfd, name))
			return bt_error_set(e, BT_EXIT_ENV, c->final, "exists and is not a record of boottrace collect (no %s in it): collect replaces only its own records; move it away and run collect again", RECORD_MARK);
		/* a second collect of the same boot: swap, then drop the old */
		if (renameat2(sfd, c->tmpname, sfd, name, RENAME_EXCHANGE) == 0) {
			if (record_rmtree(sfd, c->tmpname) < 0)
				bt_say(WHO, BT_SAY_WARN, "%s/%s: cannot remove the replaced record: %s", c->o->state, c->tmpname, strerror(errno));
			fsync(sfd);
			return 0;
		}
		snprintf(old, sizeof(old), ".%s.old-%ld", c->id, (long)getpid());
		if (renameat(sfd, name, sfd, old) < 0)
			return bt_error_errno(e, errno, c->final, "cannot move the previous record of this boot aside");
		if (renameat(sfd, c->tmpname, sfd, name) < 0) {
			int err = errno;

			renameat(sfd, old, sfd, name);
			return bt_error_errno(e, err, c->final, "cannot rename the new record into place");
		}
		record_rmtree(sfd, old);
	} else if (renameat(sfd, c->tmpname, sfd, name) < 0) {
		return bt_error_errno(e, errno, c->final, "cannot rename the new record into place");
	}
	fsync(sfd);
	return 0;
}

int record_collect(const struct record_opts *o, struct record_result *r,
		   struct bt_error *e)
{
	struct ctx c;
	char p[4096];
	int lock = -1, sfd = -1, rc = -1, made = 0;

	memset(&c, 0, sizeof(c));
	memset(r, 0, sizeof(*r));
	c.o = o;
	c.up_start = uptime();
	/* the loader's one-shot is settled whatever becomes of the record */
	record_arm_settle(o->state, &c.arm);
	if (record_boot_id(o->boot_id, c.id, sizeof(c.id), e) ||
	    record_snapshot(o->run, c.id, c.snap, sizeof(c.snap), e) || find_tracefs(&c, e))
		return -1;
	if (path_of(p, sizeof(p), c.snap, "meta") || access(p, R_OK) ||
	    !(c.meta = read_text(p, "the snapshot's meta", e)))
		bt_say(WHO, BT_SAY_WARN, "%s/meta cannot be read: the hook's settings (follow) are unknown; tracing is left as it is", c.snap);
	meta_get(c.meta, "follow", c.follow, sizeof(c.follow));
	c.snap_complete = !path_of(p, sizeof(p), c.snap, "COMPLETE") && !access(p, F_OK);
	c.snap_kallsyms = !path_of(p, sizeof(p), c.snap, "kallsyms") && !access(p, F_OK);
	if (!c.snap_complete)
		warn(&c, 0, "the snapshot has no COMPLETE: the hook was interrupted or could not write; the record is marked incomplete too");
	snapshot_broken(&c);
	bt_error_clear(e);
	if (mkdir(o->state, 0755) < 0 && errno != EEXIST) {
		bt_error_errno(e, errno, o->state, "cannot create the state directory (read-only /var, or give another with --state)");
		goto out;
	}
	if (path_of(c.final, sizeof(c.final), o->state, c.id) ||
	    (lock = atomic_lock(c.final, 30, e)) < 0)
		goto out;
	if ((sfd = open(o->state, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		bt_error_errno(e, errno, o->state, "cannot open the state directory");
		goto out;
	}
	snprintf(c.tmpname, sizeof(c.tmpname), ".%s.tmp-%ld", c.id, (long)getpid());
	path_of(c.tmp, sizeof(c.tmp), o->state, c.tmpname);
	record_rmtree(sfd, c.tmpname);	/* a dead run of the same pid */
	if (mkdirat(sfd, c.tmpname, 0700) < 0) {
		bt_error_errno(e, errno, c.tmp, "cannot create the record's temporary directory (full or read-only state directory?)");
		goto out;
	}
	made = 1;
	if (build(&c, e) || publish(&c, sfd, e))
		goto out;
	made = 0;
	snprintf(r->dir, sizeof(r->dir), "%s", c.final);
	snprintf(r->snapshot, sizeof(r->snapshot), "%s", c.snap);
	r->errors = c.errors;
	r->warnings = c.warnings;
	r->tracing = c.tracing;
	snprintf(r->empty, sizeof(r->empty), "%s", c.empty);
	r->broken = c.broken;
	rc = 0;
	if ((r->pruned = record_prune(o->state, o->keep, c.id, e)) < 0) {
		bt_say(WHO, BT_SAY_WARN, "the record was written, but older ones were not pruned: %s", e->msg);
		bt_error_clear(e);
		r->pruned = 0;
	}
out:
	if (made && record_rmtree(sfd, c.tmpname) < 0)
		bt_say(WHO, BT_SAY_WARN, "%s: cannot remove the unfinished record: %s; remove it by hand", c.tmp, strerror(errno));
	if (sfd >= 0)
		close(sfd);
	if (lock >= 0)
		atomic_unlock(lock);
	record_join_free(&c.j);
	free(c.meta);
	textbuf_free(&c.notes);
	return rc;
}

/* ---- the settings file ---------------------------------------------------- */

int record_conf_load(const char *path, int must, int *keep, struct bt_error *e)
{
	char *text, *p, *end, *k, *v;
	size_t len;
	int line = 0;
	long n;

	if (!must && access(path, F_OK))
		return 0;
	if (!(text = readfile(path, 1 << 20, 0, "a collect settings file", &len, e)))
		return -1;
	for (p = text; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		line++;
		for (k = p; k < end && (*k == ' ' || *k == '\t'); k++)
			;
		if (k == end || *k == '#')
			continue;
		if (end - k >= 4 && !strncmp(k, "keep", 4) &&
		    (v = k + 4 + strspn(k + 4, " \t")) < end && *v == '=') {
			char *q;

			v += 1 + strspn(v + 1, " \t");
			n = strtol(v, &q, 10);
			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			if (q == v || q != end || n < 1 || n > RECORD_KEEP_MAX) {
				e->line = line;
				e->col = (int)(v - p) + 1;
				bt_error_set(e, BT_EXIT_INPUT, path, "keep takes a whole number of records from 1 to %d, not '%.*s'", RECORD_KEEP_MAX, (int)(end - v), v);
				e->line = line;
				e->col = (int)(v - p) + 1;
				free(text);
				return -1;
			}
			*keep = (int)n;
			continue;
		}
		bt_error_set(e, BT_EXIT_INPUT, path, "'%.*s' is not a setting of collect (only 'keep = N'; boottrace(1), collect)", (int)(end - k), k);
		e->line = line;
		e->col = (int)(k - p) + 1;
		free(text);
		return -1;
	}
	free(text);
	return 0;
}
