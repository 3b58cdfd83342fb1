// SPDX-License-Identifier: GPL-2.0-or-later
/* JSON strings (json.h). */
#include <string.h>

#include "util/json.h"

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned char lo = 0x80, hi = 0xbf;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* no overlong forms, no surrogates, nothing past U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/*
 * The text for the unit at s[*i] into @out (at most 7 bytes, not
 * NUL-terminated); its length. *i moves past the unit.
 */
static size_t json_unit(const unsigned char *s, size_t n, size_t *i,
			char out[8])
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = s[*i];
	size_t u;

	if (c == '"' || c == '\\') {
		out[0] = '\\';
		out[1] = (char)c;
		*i += 1;
		return 2;
	}
	if (c == '\n' || c == '\t') {
		out[0] = '\\';
		out[1] = c == '\n' ? 'n' : 't';
		*i += 1;
		return 2;
	}
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		*i += 1;
		return 1;
	}
	if (c >= 0x80 && (u = utf8_seq_len(s + *i, n - *i))) {
		memcpy(out, s + *i, u);
		*i += u;
		return u;
	}
	memcpy(out, "\\u00", 4);
	out[4] = hex[c >> 4];
	out[5] = hex[c & 15];
	*i += 1;
	return 6;
}

void json_fput(FILE *f, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	char out[8];
	size_t i = 0;

	fputc('"', f);
	while (i < n && u[i])
		fwrite(out, 1, json_unit(u, n, &i, out), f);
	fputc('"', f);
}

void json_tput(struct textbuf *t, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	char out[8];
	size_t i = 0;

	textbuf_put(t, "\"", 1);
	while (i < n && u[i])
		textbuf_put(t, out, json_unit(u, n, &i, out));
	textbuf_put(t, "\"", 1);
}

void json_fputs(FILE *f, const char *s)
{
	if (s)
		json_fput(f, s, strlen(s));
	else
		fputs("null", f);
}
