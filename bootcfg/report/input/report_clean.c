// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One cleaning of a console log's lines, for the console snapshots
 * (report_console.c) and the ftrace dumps (report_dump.c): terminal escape
 * sequences (the firmware's "\x1b[2J\x1b[01;01H") and the "\r" of serial
 * line ends dropped, and the timestamps a capture program or printk puts
 * in front ("[2026-11-25 10:00:00.123] ", "[    1.234567] ") skipped.
 */
#include <string.h>

#include "util/grow.h"
#include "report/input/input.h"

static int is_ts_char(char c)
{
	return (c >= '0' && c <= '9') || c == ' ' || c == '.' || c == ':' ||
	       c == '-' || c == 'T' || c == '/' || c == ',';
}

/*
 * The length of a capture timestamp "[...] " at @p (digits, spaces and
 * date/time punctuation between the brackets, with at least one digit),
 * else 0.
 */
size_t rp_ts_prefix(const char *p, const char *end)
{
	const char *q;
	int digit = 0;

	if (p == end || *p != '[')
		return 0;
	for (q = p + 1; q < end && q - p < 48 && is_ts_char(*q); q++)
		digit |= *q >= '0' && *q <= '9';
	if (!digit || q >= end || *q != ']')
		return 0;
	q++;
	if (q < end && *q == ' ')
		q++;
	return (size_t)(q - p);
}

/* The end of the escape sequence at @p (*p == ESC). */
static const char *escape_end(const char *p, const char *end)
{
	p++;
	if (p == end)
		return end;
	if (*p == '[') {	/* CSI: parameters, intermediates, a final byte */
		for (p++; p < end; p++)
			if ((unsigned char)*p >= 0x40 && (unsigned char)*p <= 0x7e)
				return p + 1;
		return end;
	}
	if (*p == ']') {	/* OSC: up to BEL or ESC '\' */
		for (p++; p < end; p++) {
			if (*p == '\a')
				return p + 1;
			if (*p == 0x1b && p + 1 < end && p[1] == '\\')
				return p + 2;
		}
		return end;
	}
	return p + 1;	/* ESC and one character ("\x1b=", "\x1bc") */
}

const char *rp_log_clean(char **buf, size_t *cap, size_t *len,
			 const char *p, const char *end)
{
	const char *q, *t;
	size_t i, n;

	while (end > p && end[-1] == '\r')
		end--;
	if (BT_GROW(*buf, (size_t)(end - p) + 1, *cap))
		return NULL;
	*len = 0;
	for (q = p; q < end;) {
		if (*q == 0x1b) {
			q = escape_end(q, end);
			continue;
		}
		t = memchr(q, 0x1b, (size_t)(end - q));
		n = (size_t)((t ? t : end) - q);
		memcpy(*buf + *len, q, n);
		*len += n;
		q += n;
	}
	(*buf)[*len] = '\0';
	q = *buf;
	for (i = 0; i < 2 && (n = rp_ts_prefix(q, *buf + *len)); i++)
		q += n;
	return q;
}
