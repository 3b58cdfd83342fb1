/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for issue 20, part 5 (valid UTF-8 always): any bytes
 * through the text escaper every text writer uses (bt_fput_text, as check's
 * findings and every error line) and through the JSON escaper; the output
 * must be valid UTF-8, one line, with no control byte, else abort.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bt_error.h"
#include "util/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Valid UTF-8 by RFC 3629, written out here apart from util/json.c's check. */
static int valid_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0, len, k;
	unsigned long cp;

	while (i < n) {
		unsigned char c = s[i];

		if (c < 0x80) {
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0)
			len = 2, cp = c & 0x1f;
		else if ((c & 0xf0) == 0xe0)
			len = 3, cp = c & 0x0f;
		else if ((c & 0xf8) == 0xf0)
			len = 4, cp = c & 0x07;
		else
			return 0;
		if (i + len > n)
			return 0;
		for (k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) ||
		    (len == 4 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		i += len;
	}
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1), *out = NULL;
	size_t len = 0, i;
	FILE *f;

	if (!in)
		return 0;
	memcpy(in, data, size);
	in[size] = '\0';
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	bt_fput_text(f, in);
	fclose(f);
	if (!valid_utf8((unsigned char *)out, len))
		abort();
	for (i = 0; i < len; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			abort();
	free(out);
	out = NULL;
	f = open_memstream(&out, &len);
	if (!f)
		abort();
	json_fput(f, in, size);
	fclose(f);
	if (!valid_utf8((unsigned char *)out, len))
		abort();
	free(out);
	free(in);
	return 0;
}
