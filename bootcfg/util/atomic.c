/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole-or-nothing replacement of the user's files (atomic.h).
 *
 * Policies decided here, for every file boottrace writes:
 *  - Ownership is preserved exactly or the write is refused. fchown() is
 *    only called when the temp file's owner differs, so a user rewriting
 *    their own file needs no privilege; EPERM is never ignored, because
 *    silently handing the user's file to another owner is damage.
 *  - A new file gets 0666 less the umask, as any file the shell creates.
 *  - Extended attributes and ACLs are not copied; the new file gets the
 *    directory's defaults (e.g. its SELinux label).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <sys/file.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/atomic.h"
#include "util/readfile.h"

#define TMP_SUFFIX   ".boottrace-XXXXXX"
/* ".NAME" + TMP_SUFFIX must fit in a file name; shorten NAME if needed. */
#define TMP_NAME_MAX (NAME_MAX - 1 - (int)(sizeof(TMP_SUFFIX) - 1))
#define LIVE_MAX 8	/* temp files alive at once (one per output) */

/* ---- removal on signals ------------------------------------------------ */

/* Read by the signal handler: only set with signals blocked. */
static char *volatile atomic_live[LIVE_MAX];
static int atomic_handlers_set;

static void atomic_on_signal(int sig)
{
	int i;

	for (i = 0; i < LIVE_MAX; i++)
		if (atomic_live[i])
			unlink(atomic_live[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void atomic_block(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void atomic_track(char *tmp, char *untrack)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	sigset_t old;
	size_t i;

	atomic_block(&old);
	if (!atomic_handlers_set) {
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
			struct sigaction sa, prev;

			memset(&sa, 0, sizeof(sa));
			sa.sa_handler = atomic_on_signal;
			sigemptyset(&sa.sa_mask);
			/* a signal the caller chose to ignore stays ignored */
			if (sigaction(sigs[i], NULL, &prev) == 0 &&
			    prev.sa_handler != SIG_IGN)
				sigaction(sigs[i], &sa, NULL);
		}
		atomic_handlers_set = 1;
	}
	for (i = 0; i < LIVE_MAX; i++) {
		if (tmp && !atomic_live[i]) {
			atomic_live[i] = tmp;
			tmp = NULL;
		} else if (untrack && atomic_live[i] == untrack) {
			atomic_live[i] = NULL;
			untrack = NULL;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---- messages ---------------------------------------------------------- */

int atomic_need_regular(const struct stat *st, const char *path,
			const char *wanted, struct bt_error *e)
{
	if (S_ISREG(st->st_mode))
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, path, "is %s, not %s", readfile_kind(st->st_mode), wanted);
}

/* The one-line advice that follows the system's reason. */
static void atomic_hint(int errnum, const char *dir, char *buf, size_t cap)
{
	switch (errnum) {
	case ENOSPC:
		snprintf(buf, cap, "; free space in %s and retry", dir);
		break;
	case EDQUOT:
		snprintf(buf, cap, "; free space within your quota on %s and retry", dir);
		break;
	case EFBIG:
		snprintf(buf, cap, "; raise the file size limit (ulimit -f) and retry");
		break;
	case EROFS:
		snprintf(buf, cap, "; remount %s read-write and retry", dir);
		break;
	case EACCES:
		snprintf(buf, cap, "; this needs write access to %s (run as root?)", dir);
		break;
	case EPERM:
		snprintf(buf, cap, "; run as root");
		break;
	case EIO:
		snprintf(buf, cap, "; check the disk holding %s (dmesg)", dir);
		break;
	default:
		buf[0] = '\0';
	}
}

int atomic_fail(const struct atomic *a, int errnum, const char *what,
		struct bt_error *e)
{
	char sys[128], hint[PATH_MAX + 64];
	const char *reason = strerror_r(errnum, sys, sizeof(sys));

	atomic_hint(errnum, a->dir ? a->dir : ".", hint, sizeof(hint));
	return bt_error_set(e, BT_EXIT_ENV, a->path, "%s: %s: %s%s", a->existed ? "not rewritten (file left unchanged)" : "not written", what, reason, hint);
}

/* ---- the steps ------------------------------------------------------- */

/* The real file and its directory; a missing file is made new. */
static int atomic_resolve(struct atomic *a, struct bt_error *e)
{
	char *slash, *dir;

	a->real = realpath(a->path, NULL);
	if (!a->real && errno != ENOENT)
		return bt_error_errno(e, errno, a->path, "cannot open");
	if (!a->real) {
		/* new: its directory must exist; a dangling link is refused */
		if (!lstat(a->path, &a->st))
			return bt_error_set(e, BT_EXIT_INPUT, a->path, "is a symbolic link to a file that does not exist: give the target's path");
		a->real = strdup(a->path);
	} else {
		a->existed = 1;
	}
	dir = a->real ? strdup(a->real) : NULL;
	if (!dir)
		return atomic_fail(a, ENOMEM, "resolving the path", e);
	a->dir = dir;
	slash = strrchr(dir, '/');
	if (!slash) {
		strcpy(dir, ".");
		a->base = a->real;
	} else {
		a->base = a->real + (slash - dir) + 1;
		if (slash == dir)
			slash[1] = '\0';	/* the file is in "/" */
		else
			*slash = '\0';
	}
	return 0;
}

static int atomic_check_old(struct atomic *a, struct bt_error *e)
{
	if (!a->existed)
		return 0;
	if (stat(a->real, &a->st) < 0)
		return atomic_fail(a, errno, "reading its status", e);
	if (atomic_need_regular(&a->st, a->path, "a regular file", e))
		return -1;
	if (a->st.st_nlink > 1)
		return bt_error_set(e, BT_EXIT_INPUT, a->path, "has %ju hard links; rewriting would split them (copy it to a file of its own first)", (uintmax_t)a->st.st_nlink);
	return 0;
}

/* Opened early so a directory we cannot sync fails before anything is made. */
static int atomic_open_dir(struct atomic *a, struct bt_error *e)
{
	a->dirfd = open(a->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (a->dirfd < 0)
		return atomic_fail(a, errno, "opening its directory", e);
	return 0;
}

static int atomic_create_temp(struct atomic *a, struct bt_error *e)
{
	int namelen = (int)strlen(a->base);
	char *name;

	if (namelen > TMP_NAME_MAX)
		namelen = TMP_NAME_MAX;
	if (asprintf(&name, "%s%s.%.*s" TMP_SUFFIX, a->dir, a->dir[1] ? "/" : "", namelen, a->base) < 0)
		return atomic_fail(a, ENOMEM, "naming a temp file", e);
	/* O_CREAT|O_EXCL, mode 0600 until the real mode is set */
	a->fd = mkostemp(name, O_CLOEXEC);
	if (a->fd < 0) {
		int err = errno;

		free(name);
		return atomic_fail(a, err, "creating a temp file", e);
	}
	a->tmp = name;
	atomic_track(a->tmp, NULL);
	return 0;
}

int atomic_begin(struct atomic *a, const char *path, struct bt_error *e)
{
	memset(a, 0, sizeof(*a));
	a->path = path;
	a->fd = -1;
	a->dirfd = -1;
	if (atomic_resolve(a, e) || atomic_check_old(a, e) ||
	    atomic_open_dir(a, e) || atomic_create_temp(a, e)) {
		atomic_abort(a);
		return -1;
	}
	return 0;
}

FILE *atomic_stream(struct atomic *a, struct bt_error *e)
{
	if (!a->f) {
		a->f = fdopen(a->fd, "wb");
		if (!a->f)
			atomic_fail(a, errno, "writing the temp file", e);
	}
	return a->f;
}

/*
 * Owner before mode: chown() clears set-id bits. Each call is skipped when
 * the temp file already matches: filesystems without Unix permissions (vfat,
 * as on an EFI system partition) refuse most changes, and need none.
 */
static int atomic_owner_and_mode(struct atomic *a, int fd, struct bt_error *e)
{
	struct stat now;
	mode_t want;

	if (fstat(fd, &now) < 0)
		return atomic_fail(a, errno, "checking the temp file", e);
	if (a->existed) {
		want = a->st.st_mode & 07777;
		if ((now.st_uid != a->st.st_uid || now.st_gid != a->st.st_gid) &&
		    fchown(fd, a->st.st_uid, a->st.st_gid) < 0) {
			char what[96];

			snprintf(what, sizeof(what), "giving the new file the owner %ju:%ju", (uintmax_t)a->st.st_uid, (uintmax_t)a->st.st_gid);
			return atomic_fail(a, errno, what, e);
		}
	} else {
		mode_t um = umask(0);

		umask(um);
		want = 0666 & ~um;
	}
	if ((now.st_mode & 07777) != want && fchmod(fd, want) < 0)
		return atomic_fail(a, errno, "setting the mode of the new file", e);
	return 0;
}

/* Data on disk before the name points at it: no empty file after a crash. */
static int atomic_sync_temp(struct atomic *a, struct bt_error *e)
{
	int fd = a->fd, rc, err;

	if (a->f) {
		if (fflush(a->f))
			return atomic_fail(a, errno ? errno : EIO, "writing the temp file", e);
		fd = fileno(a->f);
	} else if (fd < 0) {
		/* written by another program: sync what it left under the name */
		fd = a->fd = open(a->tmp, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return atomic_fail(a, errno, "reopening the temp file", e);
	}
	if (atomic_owner_and_mode(a, fd, e))
		return -1;
	rc = fsync(fd);
	err = errno;
	if (a->f) {
		if (fclose(a->f) && !rc) {
			rc = -1;
			err = errno;
		}
		a->f = NULL;
	} else if (close(fd) < 0 && !rc) {
		rc = -1;
		err = errno;
	}
	a->fd = -1;
	return rc < 0 ? atomic_fail(a, err, "syncing the temp file", e) : 0;
}

static int atomic_publish(struct atomic *a, struct bt_error *e)
{
	if (rename(a->tmp, a->real) < 0)
		return atomic_fail(a, errno, "renaming the temp file over it", e);
	atomic_track(NULL, a->tmp);
	free(a->tmp);
	a->tmp = NULL;		/* it is the real file now: never unlink it */
	/* Some filesystems cannot sync a directory (EINVAL); nothing to do. */
	if (fsync(a->dirfd) < 0 && errno != EINVAL)
		return bt_error_errno(e, errno, a->path, "%s, but syncing %s failed (run sync before rebooting)", a->existed ? "was rewritten" : "was written", a->dir);
	return 0;
}

int atomic_commit(struct atomic *a, struct bt_error *e)
{
	int rc = atomic_sync_temp(a, e);

	if (!rc)
		rc = atomic_publish(a, e);
	atomic_abort(a);
	return rc;
}

void atomic_abort(struct atomic *a)
{
	if (a->f)
		fclose(a->f);
	else if (a->fd >= 0)
		close(a->fd);
	a->f = NULL;
	a->fd = -1;
	if (a->tmp) {
		unlink(a->tmp);
		atomic_track(NULL, a->tmp);
		free(a->tmp);
		a->tmp = NULL;
	}
	if (a->dirfd >= 0)
		close(a->dirfd);
	a->dirfd = -1;
	free(a->dir);
	free(a->real);
	a->dir = a->real = NULL;
}

/* ---- the lock around a read-modify-write ----------------------------- */

int atomic_lock(const char *path, int wait_s, struct bt_error *e)
{
	struct atomic a;
	struct timespec tick = { 0, 50 * 1000 * 1000 };
	long waited_ms = 0;
	int fd;

	memset(&a, 0, sizeof(a));
	a.path = path;
	a.fd = a.dirfd = -1;
	if (atomic_resolve(&a, e)) {
		atomic_abort(&a);
		return -1;
	}
	fd = open(a.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		atomic_fail(&a, errno, "opening its directory", e);
		atomic_abort(&a);
		return -1;
	}
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			break;	/* no flock here (docs/kernel-facts.md, 21): the change check still guards */
		if (waited_ms >= (long)wait_s * 1000) {
			bt_error_set(e, BT_EXIT_ENV, path, "not rewritten (file left unchanged): another boottrace or bootconfig has been rewriting a file in %s for %d s; retry when it is done", a.dir, wait_s);
			close(fd);
			atomic_abort(&a);
			return -1;
		}
		nanosleep(&tick, NULL);
		waited_ms += 50;
	}
	atomic_abort(&a);
	return fd;
}

void atomic_unlock(int fd)
{
	if (fd >= 0)
		close(fd);	/* closing the last descriptor drops the flock */
}
