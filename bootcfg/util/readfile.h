/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading a small text input whole: a config, a command line. */
#ifndef BT_READFILE_H
#define BT_READFILE_H

#include <stddef.h>

#include "util/bt_error.h"

/*
 * Read @path ("-": standard input), at most @max bytes, into a malloc'd
 * NUL-terminated buffer; *@len gets the size. More than @max bytes is an
 * input error saying @what it should have been (with @over set, the caller
 * decides instead: *@len is @max + 1 and the buffer holds @max + 1 bytes).
 */
char *readfile(const char *path, size_t max, int over, const char *what,
	       size_t *len, struct bt_error *e);

#endif /* BT_READFILE_H */
