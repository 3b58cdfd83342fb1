/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/textbuf.h"

static int textbuf_reserve(struct textbuf *t, size_t more)
{
	if (t->failed)
		return -1;
	if (BT_GROW(t->s, t->len + more + 1, t->cap) < 0) {
		t->failed = 1;
		return -1;
	}
	return 0;
}

void textbuf_put(struct textbuf *t, const char *s, size_t n)
{
	if (textbuf_reserve(t, n))
		return;
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

void textbuf_puts(struct textbuf *t, const char *s)
{
	textbuf_put(t, s, strlen(s));
}

void textbuf_printf(struct textbuf *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || textbuf_reserve(t, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(t->s + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

void textbuf_free(struct textbuf *t)
{
	free(t->s);
	memset(t, 0, sizeof(*t));
}
