/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Standard output or one atomic file (outfile.h). */
#include <errno.h>
#include <string.h>

#include "util/outfile.h"

int outfile_open(struct outfile *o, const char *path, struct bt_error *e)
{
	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = path;
	if (atomic_begin(&o->a, path, e))
		return -1;
	o->f = atomic_stream(&o->a, e);
	if (!o->f) {
		atomic_abort(&o->a);
		return -1;
	}
	return 0;
}

int outfile_commit(struct outfile *o, struct bt_error *e)
{
	if (!o->path) {
		if (fflush(stdout))
			return bt_error_errno(e, errno, NULL, "cannot write output");
		return 0;
	}
	o->f = NULL;
	return atomic_commit(&o->a, e);
}

void outfile_abort(struct outfile *o)
{
	if (o->path)
		atomic_abort(&o->a);
	o->f = NULL;
}
