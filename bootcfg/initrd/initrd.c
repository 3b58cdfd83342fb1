/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File side of the initrd footer (initrd.h).
 *
 * The file being rewritten is what the machine boots from, so the rule is:
 * the user's file is either replaced whole by a complete, synced copy, or
 * not touched at all. Everything is written to a temp file beside the real
 * file (never beside a symlink to it) and only a rename() publishes it.
 *
 * Policies decided here:
 *  - Ownership is preserved exactly or the rewrite is refused. fchown() is
 *    only called when the temp file's owner differs, so a user rewriting
 *    their own file needs no privilege; EPERM is never ignored (not even
 *    for non-root callers), because silently handing the user's initrd to
 *    another owner is the kind of damage this file exists to prevent.
 *  - Files with several hard links are refused: rename() would rewrite
 *    one name and leave the others on the old content.
 *  - The caller's earlier read cannot be checked without the size it saw
 *    (initrd.h carries none); what is checked is that the file is not
 *    modified or replaced while it is being copied, by comparing size,
 *    mtime, device and inode before the rename.
 *  - Extended attributes and ACLs are not copied; the new file gets the
 *    directory's defaults (e.g. its SELinux label).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "initrd/initrd.h"

#define COPY_CHUNK   (1u << 20)	/* per copy_file_range call */
#define BOUNCE_SIZE  (128u * 1024)	/* read/write fallback buffer */
#define TMP_SUFFIX   ".boottrace-XXXXXX"
/* ".NAME" + TMP_SUFFIX must fit in a file name; shorten NAME if needed. */
#define TMP_NAME_MAX (NAME_MAX - 1 - (int)(sizeof(TMP_SUFFIX) - 1))

/* ---- small I/O helpers ------------------------------------------------ */

/*
 * O_NONBLOCK because the path may name a FIFO, whose open would otherwise
 * wait forever for a writer; it has no effect on regular files.
 */
static int open_for_reading(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a regular file";
}

static int refuse_non_regular(const struct stat *st, const char *path,
			      struct bt_error *err)
{
	return bt_error_set(err, BT_EXIT_INPUT, path,
			    "is %s, not an initrd image file",
			    file_kind(st->st_mode));
}

/* Full read at @off; a short file here means it shrank under us. */
static int pread_all(int fd, void *buf, size_t len, off_t off)
{
	unsigned char *p = buf;

	while (len > 0) {
		ssize_t n = pread(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ENODATA;
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* Full write at @off: a short write is retried, as it is not an error. */
static int pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const unsigned char *p = buf;

	while (len > 0) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;	/* no progress and no reason: give up */
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* ---- initrd_read_tail ------------------------------------------------- */

static int read_last_bytes(int fd, const char *path, uint64_t size,
			   size_t max, struct initrd_tail *t,
			   struct bt_error *err)
{
	size_t len = size < (uint64_t)max ? (size_t)size : max;
	int rc;

	/* Never NULL, so callers need not special-case an empty tail. */
	t->buf = malloc(len ? len : 1);
	if (!t->buf)
		return bt_error_errno(err, ENOMEM, path,
				      "cannot allocate %zu bytes", len);
	rc = pread_all(fd, t->buf, len, (off_t)(size - len));
	if (rc == -ENODATA)
		return bt_error_set(err, BT_EXIT_ENV, path,
				    "file shrank while being read; is something else writing it? retry");
	if (rc < 0)
		return bt_error_errno(err, -rc, path, "cannot read");
	t->len = len;
	t->file_size = size;
	return 0;
}

int initrd_read_tail(const char *path, size_t max, struct initrd_tail *t,
		     struct bt_error *err)
{
	struct stat st;
	int fd, rc;

	memset(t, 0, sizeof(*t));
	fd = open_for_reading(path);
	if (fd < 0)
		return bt_error_errno(err, errno, path, "cannot open");
	if (fstat(fd, &st) < 0)
		rc = bt_error_errno(err, errno, path, "cannot stat");
	else if (!S_ISREG(st.st_mode))
		rc = refuse_non_regular(&st, path, err);
	else
		rc = read_last_bytes(fd, path, (uint64_t)st.st_size, max, t,
				     err);
	close(fd);
	if (rc < 0)
		initrd_tail_free(t);
	return rc;
}

void initrd_tail_free(struct initrd_tail *t)
{
	if (!t)
		return;
	free(t->buf);
	memset(t, 0, sizeof(*t));
}

/* ---- initrd_rewrite --------------------------------------------------- */

struct rewrite {
	const char *path;	/* as the caller named it, for messages */
	char *real;		/* symlinks resolved: the file to replace */
	char *dir;		/* its directory: where the temp file goes */
	const char *base;	/* its name, inside real */
	char *tmp;		/* temp file path; NULL while none exists */
	int src, out, dirfd;
	struct stat st;		/* of src when opened */
};

/* The one-line advice that follows the system's reason. */
static void hint_for(int errnum, const char *dir, char *buf, size_t cap)
{
	switch (errnum) {
	case ENOSPC:
		snprintf(buf, cap, "; free space in %s and retry", dir);
		break;
	case EDQUOT:
		snprintf(buf, cap, "; free space within your quota on %s and retry",
			 dir);
		break;
	case EFBIG:
		snprintf(buf, cap, "; raise the file size limit (ulimit -f) and retry");
		break;
	case EROFS:
		snprintf(buf, cap, "; remount %s read-write and retry", dir);
		break;
	case EACCES:
		snprintf(buf, cap, "; this needs write access to %s (run as root?)",
			 dir);
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

/*
 * Every failure before the rename ends here: environment class, naming the
 * step, the system's reason, a hint, and that the original is intact.
 */
static int fail_env(struct rewrite *rw, int errnum, const char *what,
		    struct bt_error *err)
{
	char sys[128], hint[PATH_MAX + 64];
	const char *reason = strerror_r(errnum, sys, sizeof(sys));

	hint_for(errnum, rw->dir ? rw->dir : ".", hint, sizeof(hint));
	return bt_error_set(err, BT_EXIT_ENV, rw->path,
			    "not rewritten (file left unchanged): %s: %s%s",
			    what, reason, hint);
}

/* A concurrent writer is not a system error: there is no errno to show. */
static int fail_busy(struct rewrite *rw, const char *what,
		     struct bt_error *err)
{
	return bt_error_set(err, BT_EXIT_ENV, rw->path,
			    "not rewritten (file left unchanged): it %s; is something else writing it? retry when it is done",
			    what);
}

static int resolve_target(struct rewrite *rw, struct bt_error *err)
{
	char *slash;

	rw->real = realpath(rw->path, NULL);
	if (!rw->real)
		return bt_error_errno(err, errno, rw->path, "cannot open");
	rw->dir = strdup(rw->real);
	if (!rw->dir)
		return fail_env(rw, ENOMEM, "resolving the path", err);
	/* realpath() is absolute, so there is always a slash. */
	slash = strrchr(rw->dir, '/');
	if (slash == rw->dir)
		slash[1] = '\0';	/* the file is in "/" */
	else
		*slash = '\0';
	rw->base = strrchr(rw->real, '/') + 1;
	return 0;
}

static int open_source(struct rewrite *rw, uint64_t expect_size, uint64_t keep,
		       size_t add_len, struct bt_error *err)
{
	rw->src = open_for_reading(rw->real);
	if (rw->src < 0)
		return bt_error_errno(err, errno, rw->path, "cannot open %s",
				      rw->real);
	if (fstat(rw->src, &rw->st) < 0)
		return fail_env(rw, errno, "reading its status", err);
	if (!S_ISREG(rw->st.st_mode))
		return refuse_non_regular(&rw->st, rw->path, err);
	if (rw->st.st_nlink > 1)
		return bt_error_set(err, BT_EXIT_INPUT, rw->path,
				    "has %ju hard links; rewriting would split them (copy it to a file of its own first)",
				    (uintmax_t)rw->st.st_nlink);
	if (expect_size != UINT64_MAX &&
	    expect_size != (uint64_t)rw->st.st_size)
		return fail_busy(rw, "changed size since it was read", err);
	if (keep > (uint64_t)rw->st.st_size)
		return bt_error_set(err, BT_EXIT_INPUT, rw->path,
				    "cannot keep the first %ju bytes: the file has only %jd",
				    (uintmax_t)keep, (intmax_t)rw->st.st_size);
	if (add_len > (uint64_t)INT64_MAX - keep)
		return bt_error_set(err, BT_EXIT_INPUT, rw->path,
				    "the rewritten file would be too large");
	return 0;
}

/* Opened early so a directory we cannot sync fails before anything is made. */
static int open_directory(struct rewrite *rw, struct bt_error *err)
{
	rw->dirfd = open(rw->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rw->dirfd < 0)
		return fail_env(rw, errno, "opening its directory", err);
	return 0;
}

static int create_temp(struct rewrite *rw, struct bt_error *err)
{
	int namelen = (int)strlen(rw->base);
	char *name;

	if (namelen > TMP_NAME_MAX)
		namelen = TMP_NAME_MAX;
	if (asprintf(&name, "%s%s.%.*s" TMP_SUFFIX, rw->dir,
		     rw->dir[1] ? "/" : "", namelen, rw->base) < 0)
		return fail_env(rw, ENOMEM, "naming a temp file", err);
	/* mkostemp: O_CREAT|O_EXCL, mode 0600 until the real mode is set. */
	rw->out = mkostemp(name, O_CLOEXEC);
	if (rw->out < 0) {
		int e = errno;

		free(name);
		return fail_env(rw, e, "creating a temp file", err);
	}
	rw->tmp = name;
	return 0;
}

/*
 * In-kernel copy (reflink or server-side where the filesystem can). Returns
 * 0 when done, 1 when the filesystem cannot do it and the caller should
 * continue by hand from *@off, or a negative errno.
 */
static int copy_in_kernel(int src, int out, uint64_t keep, off_t *off)
{
	while ((uint64_t)*off < keep) {
		uint64_t left = keep - (uint64_t)*off;
		off_t in = *off, to = *off;
		ssize_t n;

		n = copy_file_range(src, &in, out, &to,
				    left < COPY_CHUNK ? (size_t)left : COPY_CHUNK,
				    0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == ENOSYS || errno == EXDEV ||
			      errno == EINVAL || errno == EOPNOTSUPP))
			return 1;
		if (n < 0)
			return -errno;
		/*
		 * Some filesystems report 0 instead of an error; pread()
		 * tells a real end of file apart.
		 */
		if (n == 0)
			return 1;
		*off += n;
	}
	return 0;
}

static int copy_by_hand(int src, int out, uint64_t keep, off_t off)
{
	unsigned char *buf = malloc(BOUNCE_SIZE);
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	while (rc == 0 && (uint64_t)off < keep) {
		uint64_t left = keep - (uint64_t)off;
		size_t n = left < BOUNCE_SIZE ? (size_t)left : BOUNCE_SIZE;

		rc = pread_all(src, buf, n, off);
		if (rc == 0)
			rc = pwrite_all(out, buf, n, off);
		off += (off_t)n;
	}
	free(buf);
	return rc;
}

static int copy_prefix(struct rewrite *rw, uint64_t keep,
		       struct bt_error *err)
{
	off_t off = 0;
	int rc = copy_in_kernel(rw->src, rw->out, keep, &off);

	if (rc == 1)
		rc = copy_by_hand(rw->src, rw->out, keep, off);
	if (rc == -ENODATA)
		return fail_busy(rw, "shrank while being copied", err);
	if (rc < 0)
		return fail_env(rw, -rc, "copying into the temp file", err);
	return 0;
}

static int append_data(struct rewrite *rw, uint64_t keep, const void *add,
		       size_t add_len, struct bt_error *err)
{
	int rc = pwrite_all(rw->out, add, add_len, (off_t)keep);

	if (rc < 0)
		return fail_env(rw, -rc, "writing the temp file", err);
	return 0;
}

/*
 * Owner before mode: chown() clears set-id bits. Ownership is kept exactly
 * or not at all (see the top of this file). Each call is skipped when the
 * temp file already matches: filesystems without Unix permissions (vfat,
 * as on an EFI system partition) refuse most changes, and need none.
 */
static int copy_owner_and_mode(struct rewrite *rw, struct bt_error *err)
{
	struct stat now;

	if (fstat(rw->out, &now) < 0)
		return fail_env(rw, errno, "checking the temp file", err);
	if ((now.st_uid != rw->st.st_uid || now.st_gid != rw->st.st_gid) &&
	    fchown(rw->out, rw->st.st_uid, rw->st.st_gid) < 0) {
		char what[96];

		snprintf(what, sizeof(what), "giving the new file the owner %ju:%ju",
			 (uintmax_t)rw->st.st_uid, (uintmax_t)rw->st.st_gid);
		return fail_env(rw, errno, what, err);
	}
	if ((now.st_mode & 07777) != (rw->st.st_mode & 07777) &&
	    fchmod(rw->out, rw->st.st_mode & 07777) < 0)
		return fail_env(rw, errno, "setting the mode of the new file", err);
	return 0;
}

/* Same size, mtime and inode under the same name, or someone else is busy. */
static int check_unchanged(struct rewrite *rw, struct bt_error *err)
{
	struct stat fd_now, name_now;

	if (fstat(rw->src, &fd_now) < 0)
		return fail_env(rw, errno, "checking the file", err);
	if (lstat(rw->real, &name_now) < 0)
		return fail_env(rw, errno, "checking the file", err);
	if (fd_now.st_size != rw->st.st_size ||
	    fd_now.st_mtim.tv_sec != rw->st.st_mtim.tv_sec ||
	    fd_now.st_mtim.tv_nsec != rw->st.st_mtim.tv_nsec ||
	    name_now.st_dev != rw->st.st_dev ||
	    name_now.st_ino != rw->st.st_ino)
		return fail_busy(rw, "changed while being copied", err);
	return 0;
}

/* Data on disk before the name points at it: no empty initrd after a crash. */
static int sync_and_close_temp(struct rewrite *rw, struct bt_error *err)
{
	int rc = fsync(rw->out);
	int e = errno;

	if (close(rw->out) < 0 && rc == 0) {
		rc = -1;
		e = errno;
	}
	rw->out = -1;
	if (rc < 0)
		return fail_env(rw, e, "syncing the temp file", err);
	return 0;
}

static int publish(struct rewrite *rw, struct bt_error *err)
{
	if (rename(rw->tmp, rw->real) < 0)
		return fail_env(rw, errno, "renaming the temp file over it", err);
	free(rw->tmp);
	rw->tmp = NULL;		/* it is the real file now: never unlink it */
	/* Some filesystems cannot sync a directory (EINVAL); nothing to do. */
	if (fsync(rw->dirfd) < 0 && errno != EINVAL)
		return bt_error_errno(err, errno, rw->path,
				      "was rewritten, but syncing %s failed (run sync before rebooting)",
				      rw->dir);
	return 0;
}

static void cleanup(struct rewrite *rw)
{
	if (rw->out >= 0)
		close(rw->out);
	if (rw->tmp)
		unlink(rw->tmp);
	if (rw->src >= 0)
		close(rw->src);
	if (rw->dirfd >= 0)
		close(rw->dirfd);
	free(rw->tmp);
	free(rw->dir);
	free(rw->real);
}

int initrd_rewrite(const char *path, uint64_t expect_size, uint64_t keep,
		   const void *add, size_t add_len, struct bt_error *err)
{
	struct rewrite rw = {
		.path = path, .src = -1, .out = -1, .dirfd = -1,
	};
	int rc;

	if (add_len > 0 && !add)
		return bt_error_set(err, BT_EXIT_INPUT, path,
				    "nothing to append (internal error)");
	rc = resolve_target(&rw, err);
	if (rc == 0)
		rc = open_source(&rw, expect_size, keep, add_len, err);
	if (rc == 0)
		rc = open_directory(&rw, err);
	if (rc == 0)
		rc = create_temp(&rw, err);
	if (rc == 0)
		rc = copy_prefix(&rw, keep, err);
	if (rc == 0)
		rc = append_data(&rw, keep, add, add_len, err);
	if (rc == 0)
		rc = copy_owner_and_mode(&rw, err);
	if (rc == 0)
		rc = sync_and_close_temp(&rw, err);
	if (rc == 0)
		rc = check_unchanged(&rw, err);
	if (rc == 0)
		rc = publish(&rw, err);
	cleanup(&rw);
	return rc;
}
