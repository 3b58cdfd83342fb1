/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An output that is standard output or a file written whole or not at all
 * (util/atomic.h: symlinks followed, mode and owner kept).
 */
#ifndef BT_OUTFILE_H
#define BT_OUTFILE_H

#include <stdio.h>

#include "util/atomic.h"
#include "util/bt_error.h"

struct outfile {
	const char *path;	/* NULL: stdout */
	struct atomic a;
	FILE *f;
};

/* Open @path (NULL or "-": stdout) for writing. */
int outfile_open(struct outfile *o, const char *path, struct bt_error *e);
/* Flush, fsync and rename into place. Closes @o either way. */
int outfile_commit(struct outfile *o, struct bt_error *e);
/* Remove the temp file; the target is untouched. */
void outfile_abort(struct outfile *o);

#endif /* BT_OUTFILE_H */
