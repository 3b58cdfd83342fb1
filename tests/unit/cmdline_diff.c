/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Differential test of bconf_cmdline_next() against the kernel's own
 * next_arg(), which tests/unit/cmdline_oracle.sh builds from the kernel
 * source at test time and links in here.
 *
 * Usage: cmdline_diff SEED COUNT
 *
 * Each command line is split twice, once the way parse_args() drives
 * next_arg() and once with our tokenizer, on two copies of the same bytes;
 * after every word param, val, the returned pointer (as offsets) and the
 * whole buffer must agree. Prints "cmdline-diff: N passed, N failed" last
 * (N counts command lines) and exits 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"

/* From the kernel's lib/cmdline.c, and the oracle's shim. */
char *next_arg(char *args, char **param, char **val);
char *skip_spaces(const char *str);

#define LINE_MAX_LEN 64
#define SHOW_MAX 10

/* Hand-picked lines first: the corners a random walk rarely reaches. */
static const char *const fixed[] = {
	"", " ", "\t\n", "a", " a", "a ", "a=\"b c\" d", "\"quoted param\"",
	"x=", "=y", "==y", "=a=b", "a==b", "\"", "\"\"", "\"\" x", "a=\"",
	"a=\"\"", "\"a=b\"", "\"a=\"b c\"\"", "\"quoted param\"=x",
	"a\"b c", "a=b\"c d\" e", "a=\"b c d", "p=\"\"x\"\"", "\"=\"",
	"\"=", "=\"", "=\"\"", "a=\"b\"c\" d", "  a  b  ", "a\t\"b\tc\"\td",
	"\"a b\"c d", "a= b", "a =b", "\"\"=\"\"", "-- a", "a=\"\" \"\"",
};

static unsigned long long rng_state;

static unsigned int rng(unsigned int n)
{
	/* splitmix64: small, seedable, identical on every platform. */
	unsigned long long z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (unsigned)(z % n);
}

/* Few letters and many separators, so that quotes and '=' collide. */
static void random_line(char *buf)
{
	static const char alpha[] = "ab==\"\"\"  \t\nc";
	unsigned int len = rng(LINE_MAX_LEN - 1), i;

	for (i = 0; i < len; i++)
		buf[i] = alpha[rng(sizeof(alpha) - 1)];
	buf[len] = '\0';
}

static void show(const char *line, const char *what)
{
	const char *p;

	fprintf(stderr, "cmdline-diff: MISMATCH (%s) on \"", what);
	for (p = line; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(stderr, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(stderr, "\\x%02x", (unsigned char)*p);
		else
			fputc(*p, stderr);
	}
	fprintf(stderr, "\"\n");
}

static long off(const char *p, const char *base)
{
	return p ? (long)(p - base) : -1;
}

/* 0 when both tokenizers agree on @line, else what differed. */
static const char *compare(const char *line)
{
	size_t len = strlen(line);
	char k[LINE_MAX_LEN], o[LINE_MAX_LEN];
	char *kp, *op;
	struct bconf_arg arg;

	memcpy(k, line, len + 1);
	memcpy(o, line, len + 1);
	kp = skip_spaces(k);	/* as parse_args() does first */
	op = o;
	for (;;) {
		char *param, *val;

		op = bconf_cmdline_next(op, &arg);
		if (!*kp)
			return op ? "extra word" : NULL;
		if (!op)
			return "missing word";
		kp = next_arg(kp, &param, &val);
		if (off(param, k) != off(arg.param, o))
			return "param";
		if (off(val, k) != off(arg.val, o))
			return "val";
		if (off(kp, k) != off(op, o))
			return "next";
		if (memcmp(k, o, len + 1))
			return "buffer";
	}
}

int main(int argc, char **argv)
{
	unsigned long long seed;
	unsigned long count, i, passed = 0, failed = 0;
	char line[LINE_MAX_LEN];

	if (argc != 3) {
		fprintf(stderr, "usage: %s SEED COUNT\n", argv[0]);
		return 2;
	}
	seed = strtoull(argv[1], NULL, 0);
	count = strtoul(argv[2], NULL, 0);
	rng_state = seed;
	printf("cmdline-diff: seed %llu, %lu random lines + %zu fixed\n", seed,
	       count, sizeof(fixed) / sizeof(fixed[0]));

	for (i = 0; i < count + sizeof(fixed) / sizeof(fixed[0]); i++) {
		const char *why;

		if (i < sizeof(fixed) / sizeof(fixed[0]))
			strcpy(line, fixed[i]);
		else
			random_line(line);
		why = compare(line);
		if (!why) {
			passed++;
			continue;
		}
		if (failed++ < SHOW_MAX)
			show(line, why);
	}
	printf("cmdline-diff: %lu passed, %lu failed\n", passed, failed);
	return failed ? 1 : 0;
}
