/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way a file of the user's is written (after git's lockfile.c):
 * a temp file in the directory of the real file (a symlink is followed, so
 * the link stays and its target is replaced), the old file's mode and owner
 * kept exactly (or the write refused), fsync, rename over it, fsync of the
 * directory. Until the rename the old file is untouched; the temp file is
 * removed on every failure, and on SIGINT, SIGTERM, SIGHUP, SIGQUIT and
 * SIGPIPE. A file with several hard links or that is not a regular file is
 * refused: rename would split the links or replace a device.
 * Used by every verb that writes a file: compile -o, decompile -o and the
 * initrd rewrite of bootconfig -a/-d (initrd/initrd.c).
 */
#ifndef BT_ATOMIC_H
#define BT_ATOMIC_H

#include <stdio.h>
#include <sys/stat.h>

#include "util/bt_error.h"

struct atomic {
	const char *path;	/* as the caller named it, for messages */
	char *real;		/* symlinks resolved: the file to replace */
	char *dir;		/* its directory: where the temp file goes */
	const char *base;	/* its name, inside real */
	char *tmp;		/* the temp file; NULL while none exists */
	int fd, dirfd;		/* the temp file's, the directory's */
	int existed;		/* the file existed: st is its status */
	struct stat st;
	FILE *f;		/* atomic_stream's, if asked for */
};

/* Make the temp file for replacing @path. 0, or -1 with @e. */
int atomic_begin(struct atomic *a, const char *path, struct bt_error *e);
/* A stdio stream on the temp file (owned by @a). NULL with @e. */
FILE *atomic_stream(struct atomic *a, struct bt_error *e);
/*
 * Mode and owner, fsync, rename over the real file, fsync the directory.
 * Written by another program through a->tmp works too. @a is released
 * either way. 0, or -1 with @e.
 */
int atomic_commit(struct atomic *a, struct bt_error *e);
/* Remove the temp file; the real file is untouched. Safe to repeat. */
void atomic_abort(struct atomic *a);
/*
 * An environment failure while replacing @a's file: the step @what, the
 * system's reason, a hint for the usual causes, and that the file was left
 * unchanged. Returns -1.
 */
int atomic_fail(const struct atomic *a, int errnum, const char *what,
		struct bt_error *e);
/*
 * Serialize read-modify-write cycles of @path between boottrace processes
 * (two `bootconfig -a` on one initrd): an exclusive flock(2) on the
 * directory of the real file (the file itself is replaced by rename, so a
 * lock on it would guard the old inode), taken before the file is read
 * and held until atomic_unlock. Waits at most @wait_s seconds, then fails
 * with @e saying another run holds it. Where the filesystem has no flock
 * (some network filesystems) the rewrite goes on unlocked, still refusing
 * a file that changed while it was copied. A descriptor (>= 0) for
 * atomic_unlock, or -1 with @e.
 */
int atomic_lock(const char *path, int wait_s, struct bt_error *e);
void atomic_unlock(int fd);
/*
 * -1 with @e if @st is not a regular file: "is a FIFO, not @wanted"
 * (input class), else 0.
 */
int atomic_need_regular(const struct stat *st, const char *path,
			const char *wanted, struct bt_error *e);

#endif /* BT_ATOMIC_H */
