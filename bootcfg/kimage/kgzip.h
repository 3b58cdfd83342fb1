/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one gzip inflater (zlib) of what a kernel ships gzipped: a vmlinuz
 * payload (kimg_unpack.c), the embedded .config (kimg_config.c) and
 * *.ko.gz (kmodules.c). How big the output may grow, and what a failure
 * is called, stay with each caller: the inflater asks it for room before
 * every step and tells it how the stream ended.
 */
#ifndef BT_KGZIP_H
#define BT_KGZIP_H

#include <stddef.h>

#include "util/bt_error.h"

/* Output bytes p[0..n) of cap. */
struct kbuf {
	unsigned char *p;
	size_t n, cap;
};

/*
 * Before each step: make room after o->n (or leave it when there is
 * enough). 0 go on, 1 stop (the caller allows no more), -1 @e set.
 */
typedef int (*kgz_room_fn)(struct kbuf *o, void *ctx, struct bt_error *e);

enum kgz_end {
	KGZ_ERR = -1,		/* @room failed: @e set */
	KGZ_END = 0,		/* the stream's end */
	KGZ_NOSTART,		/* zlib did not start (no memory) */
	KGZ_SHORT,		/* the input ended before the stream did */
	KGZ_CORRUPT,		/* not a valid gzip stream */
	KGZ_FULL,		/* @room said stop */
};

/*
 * Inflate the gzip stream at @in (@len bytes) into @o; *@used: the input
 * bytes read when it ended, for messages.
 */
enum kgz_end kgz_inflate(const unsigned char *in, size_t len, struct kbuf *o,
			 kgz_room_fn room, void *ctx, size_t *used,
			 struct bt_error *e);

#endif /* BT_KGZIP_H */
