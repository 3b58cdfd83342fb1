/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files written whole or not at all: a temp file beside the target,
 * fsync, rename. With no path the output is standard output.
 */
#ifndef BT_OUTFILE_H
#define BT_OUTFILE_H

#include <stdio.h>

#include "util/bt_error.h"

struct outfile {
	const char *path;	/* NULL: stdout */
	char *tmp;		/* the temp file being written */
	FILE *f;
};

/* Open @path (NULL or "-": stdout) for writing. */
int outfile_open(struct outfile *o, const char *path, struct bt_error *e);
/* Flush, fsync and rename into place. Closes @o either way. */
int outfile_commit(struct outfile *o, struct bt_error *e);
/* Remove the temp file; the target is untouched. */
void outfile_abort(struct outfile *o);
/* A temp path beside @path (for tools that write files themselves). */
char *outfile_tmpname(const char *path);

#endif /* BT_OUTFILE_H */
