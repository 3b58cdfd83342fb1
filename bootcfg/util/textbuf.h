/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A growing text buffer; once an allocation fails it stays failed. */
#ifndef BT_TEXTBUF_H
#define BT_TEXTBUF_H

#include <stddef.h>

struct textbuf {
	char *s;
	size_t len, cap;
	int failed;
};

void textbuf_printf(struct textbuf *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void textbuf_put(struct textbuf *t, const char *s, size_t n);
/* Without a format: text is built in loops over every key. */
void textbuf_puts(struct textbuf *t, const char *s);
void textbuf_free(struct textbuf *t);

#endif /* BT_TEXTBUF_H */
