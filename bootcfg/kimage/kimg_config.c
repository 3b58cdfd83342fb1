/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an unpacked kernel says of itself besides its symbols (kimg.h):
 *  - the .config CONFIG_IKCONFIG=y compiles in (kernel-facts 111): a gzip
 *    stream between the markers "IKCFG_ST" and "IKCFG_ED", unpacked here
 *    (kgzip.c) to at most KIMG_IKCONFIG_MAX bytes;
 *  - its release, from the banner "Linux version RELEASE (" (kernel-facts
 *    112), which names /boot/config-RELEASE beside an installed image.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kgzip.h"
#include "kimage/kimg.h"

/*
 * One buffer of KIMG_IKCONFIG_MAX + 1 bytes, never grown: one byte more
 * than allowed tells a longer text from one that fits.
 */
static int ikconfig_room(struct kbuf *o, void *ctx, struct bt_error *e)
{
	(void)ctx;
	(void)e;
	return o->n == o->cap;
}

/*
 * Inflate the gzip stream at @in (@n bytes, at byte @at of the unpacked
 * kernel) into a malloc'd NUL-terminated text of at most KIMG_IKCONFIG_MAX.
 */
static int ikconfig_inflate(const unsigned char *in, size_t n, size_t at,
			    const char *path, char **text, size_t *len,
			    struct bt_error *e)
{
	struct kbuf o = { malloc(KIMG_IKCONFIG_MAX + 2), 0, KIMG_IKCONFIG_MAX + 1 };
	size_t used;
	enum kgz_end r;

	if (!o.p)
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory unpacking the embedded .config");
	r = kgz_inflate(in, n, &o, ikconfig_room, NULL, &used, e);
	if (r == KGZ_NOSTART) {
		free(o.p);
		return bt_error_set(e, BT_EXIT_ENV, path, "zlib: cannot start inflating");
	}
	*len = o.n;
	if (*len > KIMG_IKCONFIG_MAX) {
		free(o.p);
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu of the unpacked kernel: the embedded .config (IKCONFIG) unpacks to more than %zu KiB, more than a .config may be here: give the kernel's .config as --kernel-config", at, KIMG_IKCONFIG_MAX >> 10);
	}
	if (r != KGZ_END) {
		free(o.p);
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu of the unpacked kernel: the embedded .config (IKCONFIG) is a gzip stream that is %s: the image is damaged; give the kernel's .config as --kernel-config", at + used, r == KGZ_SHORT ? "cut short" : "corrupt");
	}
	o.p[*len] = '\0';
	*text = (char *)o.p;
	return 0;
}

int kimg_ikconfig(const struct kimg *k, const char *path, char **text,
		  size_t *len, size_t *at, struct bt_error *e)
{
	const unsigned char *p = k->data, *end = k->data + k->len;

	*text = NULL;
	*len = 0;
	while (p && p < end) {
		const unsigned char *st = memmem(p, (size_t)(end - p), "IKCFG_ST", 8);
		const unsigned char *gz, *ed;

		if (!st)
			break;
		gz = st + 8;
		p = gz;
		/* the marker as the kernel places it: the gzip stream right after */
		if ((size_t)(end - gz) < 18 || gz[0] != 0x1f || gz[1] != 0x8b || gz[2] != 8)
			continue;
		ed = memmem(gz, (size_t)(end - gz), "IKCFG_ED", 8);
		if (!ed)
			return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu of the unpacked kernel: an embedded .config (IKCONFIG) starts here but no IKCFG_ED marker ends it: the image is damaged or cut short; give the kernel's .config as --kernel-config", (size_t)(gz - k->data));
		*at = (size_t)(gz - k->data);
		if (ikconfig_inflate(gz, (size_t)(ed - gz), *at, path, text, len, e))
			return -1;
		return 1;
	}
	return 0;
}

int kimg_release(const struct kimg *k, char *buf, size_t cap)
{
	static const char banner[] = "Linux version ";
	const unsigned char *p = k->data, *end = k->data + k->len;

	while (p && p < end) {
		const unsigned char *b = memmem(p, (size_t)(end - p), banner, sizeof(banner) - 1);
		const unsigned char *r, *q;

		if (!b)
			break;
		r = b + sizeof(banner) - 1;
		p = r;
		/* "6.1.0-26-amd64 (": a digit, then printable non-blanks, then " (" */
		if (r >= end || *r < '0' || *r > '9')
			continue;
		for (q = r; q < end && *q > ' ' && *q < 0x7f; q++)
			;
		if (q + 2 > end || q[0] != ' ' || q[1] != '(' || (size_t)(q - r) >= cap)
			continue;
		memcpy(buf, r, (size_t)(q - r));
		buf[q - r] = '\0';
		return 0;
	}
	return -1;
}
