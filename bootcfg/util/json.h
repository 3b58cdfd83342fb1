/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON strings, the one escaper of every JSON output (report, check,
 * collect's record.json): '"', '\\' and control bytes escaped, valid UTF-8
 * kept as it is, and every byte that is not valid UTF-8 written as
 * \u00XX, so that the output is valid UTF-8 whatever the input held
 * (a trace, a path or a config can hold any byte).
 */
#ifndef BT_JSON_H
#define BT_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "util/textbuf.h"

/*
 * Length of the valid multi-byte UTF-8 sequence at @s (of @n bytes,
 * n >= 1), or 0 for ASCII and for a byte that starts none: no overlong
 * forms, no surrogates, nothing past U+10FFFF (RFC 3629). The one UTF-8
 * check, shared with the text escaper (bt_fput_text, bt_error.h).
 */
size_t utf8_seq_len(const unsigned char *s, size_t n);

/* @n bytes of @s (up to a NUL) as a JSON string with its quotes. */
void json_fput(FILE *f, const char *s, size_t n);
void json_tput(struct textbuf *t, const char *s, size_t n);
/* NUL-terminated @s, or null when @s is NULL. */
void json_fputs(FILE *f, const char *s);

#endif /* BT_JSON_H */
