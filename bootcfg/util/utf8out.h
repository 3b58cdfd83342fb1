/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An output stream that is valid UTF-8 whatever is written to it: a trace
 * can hold any byte in a function, task or event name, and the report's
 * printers copy names as they are. Every byte that does not start or
 * continue a valid UTF-8 sequence (util/json.h, utf8_seq_len) is written
 * as the four characters \xNN; everything else, newlines included, goes
 * through unchanged. A sequence cut between two writes is held until the
 * next (or the close).
 */
#ifndef BT_UTF8OUT_H
#define BT_UTF8OUT_H

#include <stdio.h>

/*
 * A stream writing into @under; fclose() it (which flushes into @under and
 * leaves @under open). NULL when out of memory.
 */
FILE *bt_utf8_guard(FILE *under);

#endif /* BT_UTF8OUT_H */
