// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Record directories (record.h): recognise our own by their mark, remove
 * them without following a symlink, keep the newest N. A directory without
 * the mark is never removed, whatever its name.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/grow.h"
#include "record/record.h"

int record_rmtree(int dirfd, const char *name)
{
	struct dirent *d;
	DIR *dp;
	int fd, err = 0;

	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOTDIR || errno == ELOOP ? unlinkat(dirfd, name, 0) : -1;
	if (!(dp = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while ((d = readdir(dp))) {
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			err = errno;
			continue;
		}
		if (S_ISDIR(st.st_mode) ? record_rmtree(fd, d->d_name) :
		    unlinkat(fd, d->d_name, 0))
			err = errno;
	}
	closedir(dp);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) < 0)
		return -1;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

/* The mark's "collected=SECONDS" of @name, 1 if it is ours, else 0. */
static int read_mark(int dirfd, const char *name, long long *when)
{
	char buf[256];
	ssize_t n;
	int dfd, fd;
	const char *p;

	*when = 0;
	dfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	fd = openat(dfd, RECORD_MARK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(dfd);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < (ssize_t)sizeof(RECORD_MARK_TEXT) - 1 ||
	    memcmp(buf, RECORD_MARK_TEXT, sizeof(RECORD_MARK_TEXT) - 1))
		return 0;
	buf[n] = '\0';
	if ((p = strstr(buf, "\ncollected=")))
		*when = atoll(p + 11);
	return 1;
}

int record_is_ours(int dirfd, const char *name)
{
	long long when;

	return read_mark(dirfd, name, &when);
}

/* newest first; the same second: by name, last first */
static int rec_cmp(const void *a, const void *b)
{
	const struct record_entry *x = a, *y = b;

	if (x->when != y->when)
		return x->when < y->when ? 1 : -1;
	return -strcmp(x->name, y->name);
}

void record_list_free(struct record_entry *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

int record_list(const char *state, struct record_entry **out, size_t *nout,
		struct bt_error *e)
{
	struct record_entry *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *d;
	long long when;
	DIR *dp;

	*out = NULL;
	*nout = 0;
	if (!(dp = opendir(state))) {
		/* a state directory no collect made yet holds no record */
		if (errno == ENOENT)
			return 0;
		return bt_error_errno(e, errno, state, "cannot read the state directory");
	}
	while ((d = readdir(dp))) {
		/* ".<id>.tmp-PID": a record still being built, or left by a dead collect */
		if (d->d_name[0] == '.' || !read_mark(dirfd(dp), d->d_name, &when))
			continue;
		if (BT_GROW(v, n + 1, cap) < 0 || !(v[n].name = strdup(d->d_name))) {
			record_list_free(v, n);
			closedir(dp);
			return bt_error_set(e, BT_EXIT_ENV, state, "out of memory");
		}
		v[n++].when = when;
	}
	closedir(dp);
	if (n)
		qsort(v, n, sizeof(*v), rec_cmp);
	*out = v;
	*nout = n;
	return 0;
}

/* ".<id>.tmp-PID" and ".<id>.old-PID": what a collect that died left */
static int is_leftover(const char *name)
{
	return name[0] == '.' && (strstr(name, ".tmp-") || strstr(name, ".old-"));
}

static int prune_one(int fd, const char *state, const char *name,
		     const char *why)
{
	if (record_rmtree(fd, name) < 0) {
		bt_say(NULL, BT_SAY_WARN, "cannot remove %s/%s (%s): %s; remove it by hand", state, name, why, strerror(errno));
		return 0;
	}
	bt_say(NULL, BT_SAY_NOTE, "removed %s/%s (%s)", state, name, why);
	return 1;
}

/* Remove what collects that died left in @state: the number removed. */
static int prune_leftovers(const char *state, struct bt_error *e)
{
	struct dirent *d;
	int removed = 0;
	long long when;
	DIR *dp;

	if (!(dp = opendir(state)))
		return bt_error_errno(e, errno, state, "cannot read the state directory to remove what an unfinished collect left");
	while ((d = readdir(dp)))
		if (is_leftover(d->d_name) && read_mark(dirfd(dp), d->d_name, &when))
			removed += prune_one(dirfd(dp), state, d->d_name, "left by a collect that did not finish");
	closedir(dp);
	return removed;
}

int record_prune(const char *state, int keep, const char *self,
		 struct bt_error *e)
{
	struct record_entry *v;
	size_t n, i, kept = self != NULL;
	int fd, removed;

	if ((removed = prune_leftovers(state, e)) < 0 || record_list(state, &v, &n, e))
		return -1;
	if ((fd = open(state, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0) {
		record_list_free(v, n);
		return bt_error_errno(e, errno, state, "cannot read the state directory to keep the last %d records", keep);
	}
	for (i = 0; i < n; i++) {
		char why[64];

		/* the record just written stays, whatever its clock said (a
		 * board without a real-time clock starts in 1970) */
		if (self && !strcmp(v[i].name, self))
			continue;
		if (kept++ < (size_t)keep)
			continue;
		snprintf(why, sizeof(why), "older than the last %d records", keep);
		removed += prune_one(fd, state, v[i].name, why);
	}
	record_list_free(v, n);
	fsync(fd);
	close(fd);
	return removed;
}
