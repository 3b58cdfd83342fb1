/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File side of the initrd footer: read the tail of a file, and replace a
 * file atomically so that the user's initrd is either rewritten whole or
 * left exactly as it was.
 */
#ifndef BT_INITRD_H
#define BT_INITRD_H

#include <stddef.h>
#include <stdint.h>
#include "util/bt_error.h"

/* What a footer search needs: the file size and its last bytes. */
struct initrd_tail {
	uint64_t file_size;
	unsigned char *buf;	/* malloc'd, the last len bytes */
	size_t len;
};

/*
 * Read up to @max last bytes of @path (a regular file). Returns 0, or -1
 * with @err (environment class for I/O, input class for a non-regular
 * file).
 */
int initrd_read_tail(const char *path, size_t max, struct initrd_tail *t,
		     struct bt_error *err);
void initrd_tail_free(struct initrd_tail *t);

/*
 * Replace @path by its first @keep bytes followed by @add_len bytes of @add,
 * atomically: a temp file beside the real file (symlinks are followed),
 * same mode and owner, fsync'd, then renamed over it, and the directory
 * fsync'd. On any failure (ENOSPC midway included) the temp file is removed
 * and @path is untouched. @expect_size is the size the caller saw when it
 * decided what to keep (initrd_tail.file_size); a file of another size by
 * now is left alone. UINT64_MAX skips that check. Returns 0 or -1 with @err.
 */
int initrd_rewrite(const char *path, uint64_t expect_size, uint64_t keep,
		   const void *add, size_t add_len, struct bt_error *err);

#endif /* BT_INITRD_H */
