// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What `boottrace report` reads: a snapshot directory
 * (initramfs-hook/README.md, "Snapshot directory"), a bare trace file, or
 * a serial-console log with console-mode snapshots (report_console.c) or
 * an ftrace_dump_on_oops dump (report_dump.c), or both, or a pstore
 * record (report_pstore.c); a trace, a console log or a record may come on
 * a pipe or on standard input.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/readfile.h"
#include "report/input/input.h"

#define SMALL_MAX (16u << 20)
#define CONSOLE_MAX (1024u << 20)

static char *read_small(const char *dir, const char *rel)
{
	struct bt_error e;
	char path[4096];
	size_t len;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, rel) >= sizeof(path))
		return NULL;
	if (access(path, R_OK))
		return NULL;
	return readfile(path, SMALL_MAX, 0, "a snapshot file", &len, &e);
}

/*
 * previous/NAME/ (the hook's copy of a persistent instance holding a
 * previous boot's events; report_prev.c): the first such directory.
 */
static void snap_prev(const char *dir, struct rp_snap *s)
{
	char path[4096], rel[600], *trace, *lbi, *text;
	struct bt_error e;
	struct dirent *d;
	size_t len;
	DIR *pd;

	snprintf(path, sizeof(path), "%s/previous", dir);
	if (!(pd = opendir(path)))
		return;
	while ((d = readdir(pd))) {
		if (d->d_name[0] == '.' || strlen(d->d_name) > 100)
			continue;
		snprintf(path, sizeof(path), "%s/previous/%s/trace", dir, d->d_name);
		if (access(path, R_OK) ||
		    !(trace = readfile(path, RF_TRACE_MAX, 0, "a previous boot's trace", &len, &e)))
			continue;
		snprintf(rel, sizeof(rel), "previous/%s/last_boot_info", d->d_name);
		lbi = read_small(dir, rel);
		snprintf(rel, sizeof(rel), "previous/%s/text", d->d_name);
		text = read_small(dir, rel);
		s->prev = calloc(1, sizeof(*s->prev));
		if (s->prev && rp_prev_parse(s->prev, d->d_name, trace, len, lbi, text)) {
			rp_prev_free(s->prev);
			free(s->prev);
			s->prev = NULL;
		} else if (!s->prev) {
			free(trace);
		}
		free(lbi);
		free(text);
		break;
	}
	closedir(pd);
}

static void snap_dir(const char *dir, struct rp_snap *s)
{
	static const char *const files[] = {
		"tracer", "set_ftrace_filter", "trace_options", "cmdline",
		"tracing_on", "release", "buffer_size_kb", "modules",
		"raw/kallsyms", "kallsyms", "kallsyms-head", "COMPLETE", "meta",
		"dmesg",
	};
	char rel[300], *t;
	struct dirent *d;
	size_t i;
	DIR *pd;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if ((t = read_small(dir, files[i])))
			rp_snap_keep(s, files[i], t);
	snap_prev(dir, s);
	snprintf(rel, sizeof(rel), "%s/per_cpu", dir);
	if (!(pd = opendir(rel)))
		return;
	while ((d = readdir(pd)))
		if (!strncmp(d->d_name, "cpu", 3) && strlen(d->d_name) < 32) {
			snprintf(rel, sizeof(rel), "per_cpu/%s/stats", d->d_name);
			if ((t = read_small(dir, rel)))
				rp_snap_keep(s, rel, t);
		}
	closedir(pd);
	t = strrchr(dir, '/');
	while (t && t > dir && !t[1]) {	/* "dir/" */
		do
			t--;
		while (t > dir && *t != '/');
	}
	snprintf(s->boot_id, sizeof(s->boot_id), "%s", t && *t == '/' ? t + 1 : dir);
	s->boot_id[strcspn(s->boot_id, "/")] = '\0';
}

/*
 * A snapshot directory without a trace is what the hook leaves when it
 * could not read tracefs; its meta says why, and that is the answer.
 */
static int hook_failed(const char *dir, struct bt_error *e)
{
	char *meta = read_small(dir, "meta"), *p, *end;
	int ret = 0;

	if (!meta)
		return 0;
	for (p = meta; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		if (!strncmp(p, "error=", 6)) {
			ret = bt_error_set(e, BT_EXIT_INPUT, dir,
					   "the hook copied no trace: %.*s",
					   (int)(end - p - 6), p + 6);
			break;
		}
	}
	free(meta);
	return ret;
}

static int is_binary(const char *p, size_t len)
{
	return memchr(p, '\0', len) != NULL;
}

/* Up to @cap bytes from @fd: fewer only at its end. */
static ssize_t read_full(int fd, char *buf, size_t cap)
{
	size_t have = 0;
	ssize_t n;

	while (have < cap) {
		n = read(fd, buf + have, cap - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (!n)
			break;
		have += (size_t)n;
	}
	return (ssize_t)have;
}

/* The first bytes of @input, at most sizeof(path) - 1 of them. */
static int sniff(const char *input, char *buf, size_t *len,
		 struct bt_error *e)
{
	struct stat st;
	int fd = readfile_open(input, RF_TRACE_MAX, 0, "a trace or a console log", &st, e);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read_full(fd, buf, 4095);
	close(fd);
	if (n < 0)
		return bt_error_errno(e, errno, input, "cannot read the input");
	buf[n] = '\0';
	*len = (size_t)n;
	return 0;
}

static int not_text(const char *input, const char *head, size_t len,
		    struct bt_error *e)
{
	if (!is_binary(head, len))
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, input,
			    "binary data (NUL bytes in the first %zu bytes): not the text of a tracefs 'trace' file (trace_pipe_raw needs trace-cmd)", len);
}

/*
 * A trace starts with its header or a task line: no need to read a 200 MB
 * trace whole just to learn that it is not a console log.
 */
static int may_be_console(const char *head, size_t len)
{
	return rp_console_holds(head, len) || rp_dump_holds(head, len) ||
	       (len && head[0] != '#' && head[0] != ' ');
}

/*
 * A console log in [p, p + len): its snapshot when it has one (and the
 * dump beside it, for the crash), else the dump's trace (kind "dump").
 */
static int console_log(const char *p, size_t len, int boot,
		       struct rp_snap *snap, const char **kind,
		       const char *input, struct bt_error *e)
{
	int dump = rp_dump_holds(p, len);

	if (rp_console_holds(p, len)) {
		*kind = "console";
		if (rp_console_extract(p, len, boot, snap, input, e))
			return -1;
		return dump ? rp_dump_extract(p, len, &snap->dump, NULL, NULL,
					      input, e) : 0;
	}
	*kind = "dump";
	snap->complete = 1;	/* a dump has no marker to miss */
	return rp_dump_extract(p, len, &snap->dump, &snap->trace,
			       &snap->trace_len, input, e);
}

/*
 * A pstore record (report_pstore.c): the previous boot's log tail, its
 * dump's trace read as the trace (an empty one when it holds no dump).
 */
static int pstore_record(const char *p, size_t len, struct rp_snap *snap,
			 const char **kind, const char *input,
			 struct bt_error *e)
{
	*kind = "pstore";
	snap->complete = 1;	/* a record has no marker to miss */
	if (rp_pstore_read(p, len, input, &snap->pstore, &snap->dump,
			   &snap->trace, &snap->trace_len, e))
		return -1;
	if (!snap->trace && !(snap->trace = calloc(1, 1)))
		return bt_error_set(e, BT_EXIT_ENV, input, "out of memory");
	return 0;
}

static int bare(const char *input, struct rp_snap *snap, const char **kind,
		char **trace_path, struct bt_error *e)
{
	*kind = "trace";
	snap->complete = 1;	/* a bare trace has no marker to miss */
	*trace_path = strdup(input);
	return *trace_path ? 0 : bt_error_set(e, BT_EXIT_ENV, input,
					      "out of memory");
}

/*
 * The rest of a stream after the *@len bytes in *@buf (of *@cap), up to
 * @max bytes in all (a longer stream: *@len > max). Grows by doubling,
 * but not past @max + 2: BT_GROW (util/grow.h) has no bound and would
 * take twice the memory of a log near it.
 */
static int read_rest(int fd, char **buf, size_t *cap, size_t *len, size_t max)
{
	ssize_t n;

	do {
		if (*len == *cap) {
			size_t c = *cap * 2 < max + 2 ? *cap * 2 : max + 2;
			char *b = realloc(*buf, c);

			if (!b)
				return -1;
			*buf = b;
			*cap = c;
		}
		if ((n = read_full(fd, *buf + *len, *cap - *len)) < 0)
			return -1;
		*len += (size_t)n;
	} while (*len == *cap && *len <= max);
	return 0;
}

/*
 * A pipe, a terminal or standard input ("-") can be read once only: what
 * was read to tell a trace from a console log is kept (snap->head) and
 * fed before the rest of the stream. A console log is read whole, as a
 * file's is.
 */
static int stream_open(const char *input, int fd, int boot,
		       struct rp_snap *snap, const char **kind,
		       char **trace_path, struct bt_error *e)
{
	size_t cap = 4096, len;
	ssize_t n;
	int ret;

	snap->stream = 1;
	snap->stream_fd = fd;
	if (!(snap->head = malloc(cap)))
		return bt_error_set(e, BT_EXIT_ENV, input, "out of memory");
	if ((n = read_full(fd, snap->head, cap - 1)) < 0)
		return bt_error_errno(e, errno, input, "cannot read the input");
	len = (size_t)n;
	if (not_text(input, snap->head, len, e))
		return -1;
	if (may_be_console(snap->head, len) && len == cap - 1) {
		if (read_rest(fd, &snap->head, &cap, &len, CONSOLE_MAX))
			return bt_error_errno(e, errno, input,
					      "cannot read the input");
		if (len > CONSOLE_MAX)
			return bt_error_set(e, BT_EXIT_INPUT, input,
					    "more than %u bytes: not a console log", CONSOLE_MAX);
	}
	snap->head_len = len;
	if (rp_pstore_holds(snap->head, len)) {
		ret = pstore_record(snap->head, len, snap, kind, input, e);
		free(snap->head);
		snap->head = NULL;
		snap->head_len = 0;
		return ret;
	}
	if (!rp_console_holds(snap->head, len) && !rp_dump_holds(snap->head, len))
		return bare(input, snap, kind, trace_path, e);
	ret = console_log(snap->head, len, boot, snap, kind, input, e);
	free(snap->head);
	snap->head = NULL;
	snap->head_len = 0;
	return ret;
}

int rp_input_open(const char *input, int boot, struct rp_snap *snap,
		  const char **kind, char **trace_path, struct bt_error *e)
{
	struct stat st;
	char *text, path[4096];
	size_t len;
	int ret, fd;

	memset(snap, 0, sizeof(*snap));
	*trace_path = NULL;
	if (!strcmp(input, "-"))
		return stream_open("standard input", 0, boot, snap, kind,
				   trace_path, e);
	if (stat(input, &st))
		return bt_error_errno(e, errno, input, "cannot read the input");
	if (S_ISDIR(st.st_mode)) {
		if ((size_t)snprintf(path, sizeof(path), "%s/trace", input) >=
		    sizeof(path))
			return bt_error_set(e, BT_EXIT_INPUT, input, "path too long");
		if (access(path, R_OK) && hook_failed(input, e))
			return -1;
		if (access(path, R_OK))
			return bt_error_set(e, BT_EXIT_INPUT, input,
					    "no readable 'trace' file: not a snapshot directory (the hook writes /run/boottrace/<boot-id>/trace); give the snapshot directory, a trace file or a console log");
		*kind = "snapshot";
		snap_dir(input, snap);
		/* the previous boots' pstore records the hook copied */
		if (rp_pstore_dir(input, &snap->pstore, e))
			return -1;
		*trace_path = strdup(path);
		return *trace_path ? 0 : bt_error_set(e, BT_EXIT_ENV, input,
						      "out of memory");
	}
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ||
	    S_ISCHR(st.st_mode)) {
		if ((fd = readfile_open(input, RF_TRACE_MAX, RF_STREAM, "a trace or a console log", &st, e)) < 0)
			return -1;
		return stream_open(input, fd, boot, snap, kind, trace_path, e);
	}
	if (sniff(input, path, &len, e) || not_text(input, path, len, e))
		return -1;
	if (!may_be_console(path, len))
		return bare(input, snap, kind, trace_path, e);
	text = readfile(input, CONSOLE_MAX, 0, "a console log", &len, e);
	if (!text)
		return -1;
	if (rp_pstore_holds(text, len)) {
		ret = pstore_record(text, len, snap, kind, input, e);
		free(text);
		return ret;
	}
	if (rp_console_holds(text, len) || rp_dump_holds(text, len)) {
		ret = console_log(text, len, boot, snap, kind, input, e);
		free(text);
		return ret;
	}
	free(text);
	return bare(input, snap, kind, trace_path, e);
}
