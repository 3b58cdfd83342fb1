/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for issue 14, class 1: hostile values in every key
 * family, compiled to the command line and to bootconfig and read back
 * (values_rt.h); a value that comes back as more or fewer settings aborts.
 *
 * Input: two bytes choosing the keys, then the values, separated by 0xff;
 * each is written into the config in the quotes that keep it whole (or
 * unquoted when it holds both kinds), so the fuzzer drives the values
 * themselves rather than the config syntax.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "values_rt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[] = {
	"kernel.k0", "kernel.k1.sub", "init.i0", "init.i1",
	"ftrace.ftrace.filters", "ftrace.event.sched.sched_switch.filter",
	"boottrace.at", "boottrace.init", "verbatim.kernel", "verbatim.init",
};

/* Append @v (@n bytes) as a config value; 0 if the config cannot hold it. */
static int put(char *text, size_t *at, size_t size, const uint8_t *v, size_t n)
{
	const char *q = memchr(v, '"', n) ? (memchr(v, '\'', n) ? "" : "'") : "\"";

	if (memchr(v, '\0', n) || *at + n + 8 > size)
		return 0;
	/* Unquoted: no delimiter, no outer space, no leading quote. */
	if (!*q && (!n || v[0] == ' ' || v[n - 1] == ' ' || v[0] == '"' || v[0] == '\'' ||
		    memchr(v, ',', n) || memchr(v, ';', n) || memchr(v, '\n', n) ||
		    memchr(v, '#', n) || memchr(v, '}', n) || memchr(v, '{', n) ||
		    memchr(v, '=', n) || memchr(v, '\t', n)))
		return 0;
	*at += (size_t)snprintf(text + *at, size - *at, "%s%.*s%s", q, (int)n,
				(const char *)v, q);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[4096], why[4096];
	const uint8_t *v, *end = data + size, *sep;
	size_t at = 0, k;
	unsigned mask;

	if (size < 2)
		return 0;
	mask = data[0] | (unsigned)data[1] << 8;
	v = data + 2;
	for (k = 0; k < sizeof(keys) / sizeof(*keys) && v <= end; k++) {
		size_t n;

		if (!(mask & (1u << k)))
			continue;
		sep = memchr(v, 0xff, (size_t)(end - v));
		n = sep ? (size_t)(sep - v) : (size_t)(end - v);
		at += (size_t)snprintf(text + at, sizeof(text) - at, "%s = ", keys[k]);
		if (!put(text, &at, sizeof(text), v, n))
			return 0;
		at += (size_t)snprintf(text + at, sizeof(text) - at, "\n");
		v += n + 1;
	}
	if (!at)
		return 0;
	why[0] = '\0';
	if (vrt_check(text, at, why, sizeof(why)) < 0) {
		fprintf(stderr, "config:\n%s\n%s\n", text, why);
		abort();
	}
	return 0;
}
