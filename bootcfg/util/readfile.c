/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/readfile.h"

char *readfile(const char *path, size_t max, int over, const char *what,
	       size_t *len, struct bt_error *e)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	char *buf;
	size_t n = 0;
	int failed = 0;

	if (!f) {
		bt_error_errno(e, errno, path, "cannot open");
		return NULL;
	}
	/* One byte more than allowed tells "too big" from "just fits". */
	buf = malloc(max + 2);
	if (!buf)
		failed = bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	else if ((n = fread(buf, 1, max + 1, f)), ferror(f))
		failed = bt_error_errno(e, EIO, path, "cannot read");
	else if (n > max && !over)
		failed = bt_error_set(e, BT_EXIT_INPUT, path, "more than %zu bytes: not %s", max, what);
	if (f != stdin)
		fclose(f);
	if (failed) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}
