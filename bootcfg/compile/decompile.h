/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Legacy command line -> config text: tracing parameters become the
 * ftrace.* keys that compile turns back into the same words, the hook's
 * boottrace.* words boottrace.* keys, every other word a kernel.* key and
 * words after "--" init.* keys.
 */
#ifndef BT_DECOMPILE_H
#define BT_DECOMPILE_H

#include "util/bt_error.h"
#include "util/textbuf.h"

/* Append the config for @line to @out; notes (overridden words) on stderr. */
int decompile_line(const char *line, struct textbuf *out, struct bt_error *e);

#endif /* BT_DECOMPILE_H */
