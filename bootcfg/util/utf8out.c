// SPDX-License-Identifier: GPL-2.0-or-later
/* The valid-UTF-8 output stream (util/utf8out.h), a glibc cookie stream. */
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/utf8out.h"

struct guard {
	FILE *under;
	unsigned char held[4];	/* a sequence's start, cut by the write */
	size_t nheld;
	int failed;
};

/* The bytes a sequence starting with @lead takes (1: not a lead byte). */
static size_t guard_want(unsigned char lead)
{
	return lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 :
	       lead >= 0xf0 && lead <= 0xf4 ? 4 : 1;
}

/* @p[0..n) can still become a valid sequence (its start, cut short). */
static int guard_prefix(const unsigned char *p, size_t n)
{
	unsigned char pad[4] = { 0 };
	size_t k;

	memcpy(pad, p, n);
	for (k = n; k < guard_want(p[0]); k++)	/* the smallest continuations */
		pad[k] = p[0] == 0xe0 ? 0xa0 : p[0] == 0xf0 ? 0x90 : 0x80;
	return utf8_seq_len(pad, guard_want(p[0])) != 0;
}

/* Write [p, p + n) checked; the last bytes may be held. Bytes written. */
static size_t guard_put(struct guard *g, const unsigned char *p, size_t n,
			int last)
{
	size_t i = 0, k;

	while (i < n) {
		if (p[i] < 0x80) {
			for (k = i; k < n && p[k] < 0x80; k++)
				;
			if (fwrite(p + i, 1, k - i, g->under) != k - i)
				g->failed = 1;
			i = k;
		} else if ((k = utf8_seq_len(p + i, n - i))) {
			if (fwrite(p + i, 1, k, g->under) != k)
				g->failed = 1;
			i += k;
		} else if (!last && n - i < guard_want(p[i]) && guard_prefix(p + i, n - i)) {
			return i;	/* the rest comes with the next write */
		} else {
			if (fprintf(g->under, "\\x%02x", p[i]) < 0)
				g->failed = 1;
			i++;
		}
	}
	return n;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t size)
{
	struct guard *g = cookie;
	const unsigned char *p = (const unsigned char *)buf;
	size_t used = 0, done;

	/* first the held start, completed from the new bytes */
	while (g->nheld && used < size) {
		g->held[g->nheld++] = p[used++];
		done = guard_put(g, g->held, g->nheld, 0);
		if (done == g->nheld) {
			g->nheld = 0;
		} else if (done) {	/* a byte went out escaped: the rest again */
			memmove(g->held, g->held + done, g->nheld - done);
			g->nheld -= done;
		}
	}
	done = used + guard_put(g, p + used, size - used, 0);
	if (done < size) {
		memcpy(g->held, p + done, size - done);
		g->nheld = size - done;
	}
	return g->failed ? -1 : (ssize_t)size;
}

static int guard_close(void *cookie)
{
	struct guard *g = cookie;
	int ret;

	guard_put(g, g->held, g->nheld, 1);
	ret = g->failed || fflush(g->under) ? -1 : 0;
	free(g);
	return ret;
}

FILE *bt_utf8_guard(FILE *under)
{
	static const cookie_io_functions_t io = {
		.write = guard_write, .close = guard_close,
	};
	struct guard *g = calloc(1, sizeof(*g));
	FILE *f;

	if (!g)
		return NULL;
	g->under = under;
	if (!(f = fopencookie(g, "w", io)))
		free(g);
	return f;
}
