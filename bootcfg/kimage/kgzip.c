/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The gzip inflater (kgzip.h). */
#include <stdint.h>
#include <string.h>
#include <zlib.h>

#include "kimage/kgzip.h"

/* zlib counts in uInt: a larger room is offered a uInt at a time. */
static uInt kgz_avail(size_t n)
{
	return n > UINT32_MAX ? UINT32_MAX : (uInt)n;
}

enum kgz_end kgz_inflate(const unsigned char *in, size_t len, struct kbuf *o,
			 kgz_room_fn room, void *ctx, size_t *used,
			 struct bt_error *e)
{
	z_stream s;
	uInt avail;
	int r, k;

	memset(&s, 0, sizeof(s));
	*used = 0;
	/* 16 + MAX_WBITS: the gzip wrapper, not zlib's */
	if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK)
		return KGZ_NOSTART;
	s.next_in = (unsigned char *)in;
	s.avail_in = kgz_avail(len);
	do {
		k = room(o, ctx, e);
		if (k) {
			*used = (size_t)s.total_in;
			inflateEnd(&s);
			return k < 0 ? KGZ_ERR : KGZ_FULL;
		}
		avail = kgz_avail(o->cap - o->n);
		s.next_out = o->p + o->n;
		s.avail_out = avail;
		r = inflate(&s, Z_NO_FLUSH);
		o->n += avail - s.avail_out;
	} while (r == Z_OK);
	*used = (size_t)s.total_in;
	inflateEnd(&s);
	if (r == Z_STREAM_END)
		return KGZ_END;
	return r == Z_BUF_ERROR ? KGZ_SHORT : KGZ_CORRUPT;
}
