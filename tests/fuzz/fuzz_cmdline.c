/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the command-line tokenizer and quoter.
 *
 * Input: [mode][payload]
 *
 * mode bit 0 clear: the payload (up to its first NUL) is a command line.
 * Splitting it must terminate, keep every pointer inside the buffer, move
 * forward on every call, and only ever write NULs into the buffer.
 * mode bit 0 set: the payload is "param\0val" (no second part: val NULL).
 * Whatever the quoter accepts must split back to exactly param and val,
 * between neighbours, and truncated output must be a prefix of the full one.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"

static void split_line(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *orig = malloc(size + 1);
	char *p, *prev;
	size_t len, words = 0, i;
	struct bconf_arg arg;

	assert(buf && orig);
	memcpy(buf, data, size);
	buf[size] = '\0';
	len = strlen(buf);
	memcpy(orig, buf, size + 1);

	prev = buf;
	p = buf;
	while ((p = bconf_cmdline_next(p, &arg))) {
		assert(p > prev && p <= buf + len);
		assert(arg.param >= prev && arg.param <= p);
		assert(arg.param + strlen(arg.param) <= buf + len);
		if (arg.val) {
			assert(arg.val > arg.param && arg.val <= buf + len);
			assert(arg.val + strlen(arg.val) <= buf + len);
			/* The name ends right before the value (or its quote). */
			assert(arg.val - arg.param - 1 ==
				       (long)strlen(arg.param) ||
			       arg.val - arg.param - 2 ==
				       (long)strlen(arg.param));
		}
		/* A word never starts with the whitespace it was split at. */
		assert(!*p || (*p != ' ' && *p != '\t' && *p != '\n'));
		prev = p;
		assert(++words <= len);
	}
	for (i = 0; i <= size; i++)
		assert(buf[i] == orig[i] || buf[i] == '\0');
	free(buf);
	free(orig);
}

/* Split "x=1 <word> y" and expect param/val back in the middle. */
static void check_round_trip(const char *param, const char *val,
			     const char *word, size_t n)
{
	char *line = malloc(n + 10), *p;
	struct bconf_arg arg;

	assert(line);
	memcpy(line, "x=1 ", 4);
	memcpy(line + 4, word, n);
	memcpy(line + 4 + n, " y", 3);

	p = bconf_cmdline_next(line, &arg);
	assert(p && !strcmp(arg.param, "x") && arg.val && !strcmp(arg.val, "1"));
	p = bconf_cmdline_next(p, &arg);
	assert(p && !strcmp(arg.param, param));
	if (val)
		assert(arg.val && !strcmp(arg.val, val));
	else
		assert(!arg.val);
	p = bconf_cmdline_next(p, &arg);
	assert(p && !strcmp(arg.param, "y") && !arg.val);
	assert(!bconf_cmdline_next(p, &arg));
	free(line);
}

static void quote(const uint8_t *data, size_t size, unsigned int mode)
{
	char *in = malloc(size + 2), *param, *val = NULL, *buf;
	struct bconf_error err = { .msg = NULL, .pos = -2 };
	size_t plen, cut;
	int n, m;

	assert(in);
	memcpy(in, data, size);
	in[size] = in[size + 1] = '\0';
	param = in;
	plen = strlen(param);
	if (plen < size)
		val = in + plen + 1;

	n = bconf_cmdline_quote(param, val, NULL, 0, &err);
	if (n < 0) {
		assert(n == -1 && err.msg && *err.msg);
		assert(err.pos >= -1);
		free(in);
		return;
	}
	assert(err.msg == NULL);
	buf = malloc((size_t)n + 1);
	assert(buf);
	m = bconf_cmdline_quote(param, val, buf, (size_t)n + 1, &err);
	assert(m == n && strlen(buf) == (size_t)n);
	check_round_trip(param, val, buf, (size_t)n);

	/* Truncated output: a prefix, always terminated, same length back. */
	cut = (mode >> 1) % ((size_t)n + 1);
	{
		char *t = malloc(cut + 1);

		assert(t);
		m = bconf_cmdline_quote(param, val, t, cut + 1, &err);
		assert(m == n && strlen(t) == cut && !memcmp(t, buf, cut));
		free(t);
	}
	free(buf);
	free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		quote(data + 1, size - 1, data[0]);
	else
		split_line(data + 1, size - 1);
	return 0;
}
