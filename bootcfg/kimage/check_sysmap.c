/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * System.map and /proc/kallsyms text (check.h): "ADDR TYPE NAME", kallsyms
 * adding "\t[module]". Text has no mcount sites: traceability stays
 * unknown, and .init.text is told by the _sinittext/_einittext bounds.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kimage/kimage.h"
#include "util/readfile.h"

static int sysmap_bad(const char *path, int lineno, const char *why,
		      struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_INPUT, path, "line %d: %s: not a "
			    "System.map or kallsyms line (expected 'ADDRESS "
			    "TYPE NAME', e.g. 'ffffffff817b45f0 T "
			    "register_netdevice')", lineno, why);
}

static int sysmap_hex(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;

	for (; isxdigit((unsigned char)*s); s++, n++) {
		if (n == 16)
			return -1;
		x = x << 4 | (uint64_t)(isdigit((unsigned char)*s) ?
					*s - '0' : (tolower((unsigned char)*s) - 'a' + 10));
	}
	if (!n || *s)
		return -1;
	*v = x;
	return 0;
}

/* "[bonding]" -> module index; consecutive lines share one. */
static int sysmap_module(struct check_tab *t, char *m, int *last)
{
	size_t n = strlen(m);

	if (n < 3 || m[0] != '[' || m[n - 1] != ']')
		return -2;
	m[n - 1] = '\0';
	m++;
	if (*last >= 0 && !strcmp(t->mods[*last], m))
		return *last;
	for (n = 0; n < t->nmods; n++)
		if (!strcmp(t->mods[n], m))
			return *last = (int)n;
	return *last = check_tab_module(t, m);
}

static void sysmap_mark_init(struct check_tab *t, size_t first,
			     uint64_t lo, uint64_t hi)
{
	size_t i;

	for (i = first; i < t->n; i++)
		if ((t->sym[i].flags & CS_TEXT) && t->sym[i].mod < 0 &&
		    t->sym[i].addr >= lo && t->sym[i].addr < hi)
			t->sym[i].flags |= CS_INIT;
}

int check_parse_sysmap(struct check_tab *t, char *text, size_t len,
		       const char *path, struct bt_error *e)
{
	char *line = text, *end = text + len, *nl, *f[4], *save;
	uint64_t addr, sinit = 0, einit = 0;
	size_t first = t->n ? t->n : 1;
	int lineno = 0, nf, mod, last = -1, any = 0;

	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		*nl = '\0';
		lineno++;
		if (strlen(line) != (size_t)(nl - line))
			return sysmap_bad(path, lineno, "a NUL byte", e);
		for (nf = 0, f[0] = strtok_r(line, " \t\r", &save); f[nf] && nf < 3;)
			f[++nf] = strtok_r(NULL, " \t\r", &save);
		if (!nf)
			continue;
		if (nf < 3 || sysmap_hex(f[0], &addr) || strlen(f[1]) != 1)
			return sysmap_bad(path, lineno, "unexpected fields", e);
		mod = -1;
		if (f[3]) {
			mod = sysmap_module(t, f[3], &last);
			if (mod == -2 || strtok_r(NULL, " \t\r", &save))
				return sysmap_bad(path, lineno, "unexpected fields", e);
			if (mod < 0)
				return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
		}
		any = 1;
		if (!strcmp(f[2], "_sinittext"))
			sinit = addr;
		else if (!strcmp(f[2], "_einittext"))
			einit = addr;
		if (strchr("tTwW", f[1][0])) {
			if (check_tab_add(t, f[2], addr, 0, mod, 0, CS_TEXT))
				return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
		} else if (!strncmp(f[2], "__initcall", 10) && mod < 0) {
			if (check_tab_add(t, f[2], addr, 0, mod, 0, 0))
				return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
		}
	}
	if (!any)
		return bt_error_set(e, BT_EXIT_INPUT, path, "no symbols: expected "
				    "a System.map or kallsyms text");
	if (sinit < einit)
		sysmap_mark_init(t, first, sinit, einit);
	return 0;
}

int check_load_sysmap(struct check_tab *t, const char *path, struct bt_error *e)
{
	size_t len;
	char *text;

	/* readfile's open error does not say what the file should have been. */
	if (strcmp(path, "-") && access(path, R_OK))
		return bt_error_errno(e, errno, path, "cannot open (expected a "
				      "System.map or /proc/kallsyms text)");
	text = readfile(path, (size_t)64 << 20, 0,
			"a System.map or kallsyms file", &len, e);
	if (!text)
		return -1;
	if (check_tab_keep(t, text))
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	return check_parse_sysmap(t, text, len, path, e);
}
