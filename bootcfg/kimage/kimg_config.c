/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an unpacked kernel says of itself besides its symbols (kimg.h):
 *  - the .config CONFIG_IKCONFIG=y compiles in (kernel-facts 111): a gzip
 *    stream between the markers "IKCFG_ST" and "IKCFG_ED", unpacked here
 *    with zlib to at most KIMG_IKCONFIG_MAX bytes;
 *  - its release, from the banner "Linux version RELEASE (" (kernel-facts
 *    112), which names /boot/config-RELEASE beside an installed image.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kimage/kimg.h"

/*
 * Inflate the gzip stream at @in (@n bytes, at byte @at of the unpacked
 * kernel) into a malloc'd NUL-terminated text of at most KIMG_IKCONFIG_MAX.
 */
static int ikconfig_inflate(const unsigned char *in, size_t n, size_t at,
			    const char *path, char **text, size_t *len,
			    struct bt_error *e)
{
	unsigned char *out = malloc(KIMG_IKCONFIG_MAX + 2);
	z_stream s;
	int r;

	if (!out)
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory unpacking the embedded .config");
	memset(&s, 0, sizeof(s));
	if (inflateInit2(&s, 16 + MAX_WBITS) != Z_OK) {
		free(out);
		return bt_error_set(e, BT_EXIT_ENV, path, "zlib: cannot start inflating");
	}
	s.next_in = (unsigned char *)in;
	s.avail_in = n > UINT32_MAX ? UINT32_MAX : (uInt)n;
	s.next_out = out;
	/* one byte more than allowed tells a longer text from one that fits */
	s.avail_out = (uInt)KIMG_IKCONFIG_MAX + 1;
	r = inflate(&s, Z_FINISH);
	inflateEnd(&s);
	*len = KIMG_IKCONFIG_MAX + 1 - s.avail_out;
	if (*len > KIMG_IKCONFIG_MAX) {
		free(out);
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu of the unpacked kernel: the embedded .config (IKCONFIG) unpacks to more than %zu KiB, more than a .config may be here: give the kernel's .config as --kernel-config", at, KIMG_IKCONFIG_MAX >> 10);
	}
	if (r != Z_STREAM_END) {
		free(out);
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu of the unpacked kernel: the embedded .config (IKCONFIG) is a gzip stream that is %s: the image is damaged; give the kernel's .config as --kernel-config", at + (size_t)s.total_in, r == Z_BUF_ERROR ? "cut short" : "corrupt");
	}
	out[*len] = '\0';
	*text = (char *)out;
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
