/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Whole-or-nothing output files (outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/outfile.h"

char *outfile_tmpname(const char *path)
{
	size_t n = strlen(path);
	char *t = malloc(n + sizeof(".bt-XXXXXX"));

	if (t) {
		memcpy(t, path, n);
		memcpy(t + n, ".bt-XXXXXX", sizeof(".bt-XXXXXX"));
	}
	return t;
}

int outfile_open(struct outfile *o, const char *path, struct bt_error *e)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	o->path = path;
	o->tmp = outfile_tmpname(path);
	if (!o->tmp)
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		bt_error_errno(e, errno, path, "cannot create a temp file beside it");
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	/* mkstemp makes 0600; an output is as readable as any new file. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		bt_error_errno(e, errno, path, "cannot write");
		close(fd);
		outfile_abort(o);
		return -1;
	}
	return 0;
}

int outfile_commit(struct outfile *o, struct bt_error *e)
{
	int err = 0;

	if (!o->path) {
		if (fflush(stdout))
			return bt_error_errno(e, errno, NULL, "cannot write output");
		return 0;
	}
	if (fflush(o->f) || fsync(fileno(o->f)))
		err = errno ? errno : EIO;
	if (fclose(o->f) && !err)
		err = errno ? errno : EIO;
	o->f = NULL;
	if (!err && rename(o->tmp, o->path))
		err = errno;
	if (err) {
		bt_error_errno(e, err, o->path, "cannot write");
		outfile_abort(o);
		return -1;
	}
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
}
