/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Legacy command line -> config text: tracing parameters become the
 * ftrace.* keys that compile turns back into the same words, the hook's
 * boottrace.* words boottrace.* keys, every other word a kernel.* key and
 * words after "--" init.* keys. A word the config language cannot hold is
 * kept verbatim in a trailing comment with a warning saying why; a
 * tracing parameter that cannot be held is an error.
 */
#ifndef BT_DECOMPILE_H
#define BT_DECOMPILE_H

#include "util/bt_error.h"
#include "util/textbuf.h"

/* Append the config for @line to @out; notes and warnings on stderr. */
int decompile_line(const char *line, struct textbuf *out, struct bt_error *e);

#endif /* BT_DECOMPILE_H */
