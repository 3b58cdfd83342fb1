/* SPDX-License-Identifier: GPL-2.0-or-later */
/* System.map and /proc/kallsyms lines (sysmap.h). */
#include <ctype.h>
#include <string.h>

#include "kimage/sysmap.h"

/* Fields are split at runs of these; '\r' for maps saved on Windows. */
static int sysmap_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next field at or after *@p before @end: its length, 0 at the end. */
static size_t sysmap_field(const char **p, const char *end, const char **f)
{
	const char *s = *p;

	while (s < end && sysmap_sep(*s))
		s++;
	*f = s;
	while (s < end && !sysmap_sep(*s))
		s++;
	*p = s;
	return (size_t)(s - *f);
}

/* 1 to 16 hex digits, nothing else. */
static int sysmap_hex(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!n || n > 16)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		x = x << 4 | (uint64_t)(isdigit((unsigned char)s[i]) ?
					s[i] - '0' : tolower((unsigned char)s[i]) - 'a' + 10);
	}
	*v = x;
	return 0;
}

/* Fill @l from [@s, @end): 0 for a blank line, else 1 (@l->bad when malformed). */
static int sysmap_split(const char *s, const char *end, struct kimage_sysmap_line *l)
{
	const char *f[5];
	size_t n[5];
	int nf;

	l->bad = NULL;
	l->mod = NULL;
	l->modlen = 0;
	if (memchr(s, '\0', (size_t)(end - s))) {
		l->bad = "a NUL byte";
		return 1;
	}
	for (nf = 0; nf < 5 && (n[nf] = sysmap_field(&s, end, &f[nf])); nf++)
		;
	if (!nf)
		return 0;
	l->bad = "unexpected fields";
	if (nf < 3 || sysmap_hex(f[0], n[0], &l->addr) || n[1] != 1)
		return 1;
	if (nf == 5 || (nf == 4 && (n[3] < 3 || f[3][0] != '[' || f[3][n[3] - 1] != ']')))
		return 1;
	l->bad = NULL;
	l->type = f[1][0];
	l->name = f[2];
	l->namelen = n[2];
	if (nf == 4) {
		l->mod = f[3] + 1;
		l->modlen = n[3] - 2;
	}
	return 1;
}

int kimage_sysmap_each(const char *text, size_t len, kimage_sysmap_fn fn,
		       void *ctx)
{
	const char *line = text, *end = text + len, *nl;
	struct kimage_sysmap_line l = { 0 };
	int ret;

	while (line < end) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		l.lineno++;
		if (sysmap_split(line, nl, &l) && (ret = fn(ctx, &l)))
			return ret;
		line = nl < end ? nl + 1 : end;
	}
	return 0;
}

int kimage_sysmap_placeholder(const char *text, size_t len, char *pkg,
			      size_t cap)
{
	static const char says[] = "The real System.map is in the ";
	const char *end = text + len, *p, *f, *nl;
	size_t n;
	uint64_t addr;

	if (cap)
		*pkg = '\0';
	/* One line with text after it, not a symbol table of ten thousand. */
	nl = memchr(text, '\n', len);
	if (nl) {
		for (p = nl; p < end && (*p == '\n' || sysmap_sep(*p)); p++)
			;
		if (p < end)
			return 0;
		end = nl;
	}
	p = text;
	n = sysmap_field(&p, end, &f);
	if (sysmap_hex(f, n, &addr) || sysmap_field(&p, end, &f) != 1)
		return 0;
	while (p < end && sysmap_sep(*p))
		p++;
	if ((size_t)(end - p) < sizeof(says) - 1 || memcmp(p, says, sizeof(says) - 1))
		return 0;
	p += sizeof(says) - 1;
	n = sysmap_field(&p, end, &f);
	if (n && n < cap && !memchr(f, '\0', n)) {
		memcpy(pkg, f, n);
		pkg[n] = '\0';
	}
	return 1;
}
