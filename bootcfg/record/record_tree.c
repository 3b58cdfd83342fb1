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

struct rec {
	char *name;
	long long when;
};

/* newest first; the same second: by name, last first */
static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->when != y->when)
		return x->when < y->when ? 1 : -1;
	return -strcmp(x->name, y->name);
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

int record_prune(const char *state, int keep, const char *self,
		 struct bt_error *e)
{
	struct rec *v = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *d;
	int fd, removed = 0;
	long long when;
	DIR *dp;

	fd = open(state, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || !(dp = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return bt_error_errno(e, errno, state, "cannot read the state directory to keep the last %d records", keep);
	}
	fd = dirfd(dp);
	while ((d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
		    !read_mark(fd, d->d_name, &when))
			continue;
		if (is_leftover(d->d_name)) {
			removed += prune_one(fd, state, d->d_name, "left by a collect that did not finish");
			continue;
		}
		/* the record just written stays, whatever its clock said (a
		 * board without a real-time clock starts in 1970) */
		if (d->d_name[0] == '.' || (self && !strcmp(d->d_name, self)))
			continue;
		if (BT_GROW(v, n + 1, cap) < 0 || !(v[n].name = strdup(d->d_name))) {
			for (i = 0; i < n; i++)
				free(v[i].name);
			free(v);
			closedir(dp);
			return bt_error_set(e, BT_EXIT_ENV, state, "out of memory");
		}
		v[n++].when = when;
	}
	if (n)
		qsort(v, n, sizeof(*v), rec_cmp);
	for (i = 0; i < n; i++) {
		if (i + (self != NULL) >= (size_t)keep) {
			char why[64];

			snprintf(why, sizeof(why), "older than the last %d records", keep);
			removed += prune_one(fd, state, v[i].name, why);
		}
		free(v[i].name);
	}
	free(v);
	fsync(fd);
	closedir(dp);
	return removed;
}
