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
#include "util/atomic.h"
#include "util/readfile.h"

#define COPY_CHUNK   (1u << 20)	/* per copy_file_range call */
#define BOUNCE_SIZE  (128u * 1024)	/* read/write fallback buffer */

/* ---- small I/O helpers ------------------------------------------------ */

/*
 * The one input opener (util/readfile.h): never blocks on a FIFO, refuses
 * what is not a regular file of at most RF_IMAGE_MAX bytes. *@st: its status.
 */
static int open_for_reading(const char *path, struct stat *st,
			    struct bt_error *err)
{
	return readfile_open(path, RF_IMAGE_MAX, 0, "an initrd image file", st, err);
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
	fd = open_for_reading(path, &st, err);
	if (fd < 0)
		return -1;
	rc = read_last_bytes(fd, path, (uint64_t)st.st_size, max, t, err);
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
	struct atomic a;	/* the new file, beside the real one */
	int src;
	struct stat st;		/* of src when opened */
};

/* A concurrent writer is not a system error: there is no errno to show. */
static int fail_busy(struct rewrite *rw, const char *what,
		     struct bt_error *err)
{
	return bt_error_set(err, BT_EXIT_ENV, rw->path, "not rewritten (file left unchanged): it %s; is something else writing it? retry when it is done", what);
}

static int open_source(struct rewrite *rw, uint64_t expect_size, uint64_t keep,
		       size_t add_len, struct bt_error *err)
{
	rw->src = open_for_reading(rw->path, &rw->st, err);
	if (rw->src < 0)
		return -1;
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
	int rc = copy_in_kernel(rw->src, rw->a.fd, keep, &off);

	if (rc == 1)
		rc = copy_by_hand(rw->src, rw->a.fd, keep, off);
	if (rc == -ENODATA)
		return fail_busy(rw, "shrank while being copied", err);
	if (rc < 0)
		return atomic_fail(&rw->a, -rc, "copying into the temp file", err);
	return 0;
}

static int append_data(struct rewrite *rw, uint64_t keep, const void *add,
		       size_t add_len, struct bt_error *err)
{
	int rc = pwrite_all(rw->a.fd, add, add_len, (off_t)keep);

	if (rc < 0)
		return atomic_fail(&rw->a, -rc, "writing the temp file", err);
	return 0;
}

/* Same size, mtime and inode under the same name, or someone else is busy. */
static int check_unchanged(struct rewrite *rw, struct bt_error *err)
{
	struct stat fd_now, name_now;

	if (fstat(rw->src, &fd_now) < 0)
		return atomic_fail(&rw->a, errno, "checking the file", err);
	if (lstat(rw->a.real, &name_now) < 0)
		return atomic_fail(&rw->a, errno, "checking the file", err);
	if (fd_now.st_size != rw->st.st_size ||
	    fd_now.st_mtim.tv_sec != rw->st.st_mtim.tv_sec ||
	    fd_now.st_mtim.tv_nsec != rw->st.st_mtim.tv_nsec ||
	    name_now.st_dev != rw->st.st_dev ||
	    name_now.st_ino != rw->st.st_ino)
		return fail_busy(rw, "changed while being copied", err);
	return 0;
}

static void cleanup(struct rewrite *rw)
{
	atomic_abort(&rw->a);
	if (rw->src >= 0)
		close(rw->src);
}

int initrd_rewrite(const char *path, uint64_t expect_size, uint64_t keep,
		   const void *add, size_t add_len, struct bt_error *err)
{
	struct rewrite rw = { .path = path, .src = -1 };
	struct stat st;
	int rc;

	if (add_len > 0 && !add)
		return bt_error_set(err, BT_EXIT_INPUT, path,
				    "nothing to append (internal error)");
	/* an initrd is replaced, never made: it must be there */
	if (stat(path, &st) < 0)
		return bt_error_errno(err, errno, path, "cannot open");
	rc = open_source(&rw, expect_size, keep, add_len, err);
	if (rc == 0)
		rc = atomic_begin(&rw.a, path, err);
	if (rc == 0)
		rc = copy_prefix(&rw, keep, err);
	if (rc == 0)
		rc = append_data(&rw, keep, add, add_len, err);
	if (rc == 0)
		rc = check_unchanged(&rw, err);
	if (rc == 0)
		rc = atomic_commit(&rw.a, err);
	cleanup(&rw);
	return rc;
}
