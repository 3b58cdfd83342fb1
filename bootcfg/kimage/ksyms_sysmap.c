/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * System.map and /proc/kallsyms text into the symbol table (kimage.h), the
 * lines read by sysmap.c. Text has no mcount sites: traceability stays
 * unknown, and .init.text is told by the _sinittext/_einittext bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kimage/kimage.h"
#include "kimage/sysmap.h"
#include "util/readfile.h"

struct sysmap_in {
	struct ksyms *t;
	char *text;		/* the lines' own bytes: names end in place */
	const char *path;
	struct bt_error *e;
	int last, any;		/* the last line's module; any symbol line */
	uint64_t sinit, einit;
};

static int sysmap_bad(const char *path, int lineno, const char *why,
		      struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_INPUT, path, "line %d: %s: not a System.map or kallsyms line (expected 'ADDRESS TYPE NAME', e.g. 'ffffffff817b45f0 T register_netdevice')", lineno, why);
}

/*
 * Debian's placeholder map (kernel-facts 16): where the symbols really are.
 * The -dbg package holds the vmlinux (usr/lib/debug/boot/vmlinux-VER), which
 * also tells traceability; a running board has them in /proc/kallsyms.
 */
static int ksyms_sysmap_placeholder(const char *path, const char *pkg,
				    struct bt_error *e)
{
	size_t n = strlen(pkg);
	int ver = n > 16 && !strncmp(pkg, "linux-image-", 12) &&
		  !strcmp(pkg + n - 4, "-dbg");

	return bt_error_set(e, BT_EXIT_INPUT, path, "a placeholder, not a symbol table: the distribution ships the real System.map in the %s package; install it (or unpack it with dpkg -x into the --root DIR) and give its /usr/lib/debug/boot/vmlinux-%.*s as --vmlinux, or give the running board's /proc/kallsyms (read as root) as --system-map",
			    *pkg ? pkg : "linux-image-VER-dbg",
			    ver ? (int)(n - 16) : 3, ver ? pkg + 12 : "VER");
}

/* "bonding" -> module index; consecutive lines share one. */
static int sysmap_module(struct ksyms *t, const char *m, int *last)
{
	size_t n;

	if (*last >= 0 && !strcmp(t->mods[*last], m))
		return *last;
	for (n = 0; n < t->nmods; n++)
		if (!strcmp(t->mods[n], m))
			return *last = (int)n;
	return *last = ksyms_module(t, m);
}

static void sysmap_mark_init(struct ksyms *t, size_t first,
			     uint64_t lo, uint64_t hi)
{
	size_t i;

	for (i = first; i < t->n; i++)
		if ((t->sym[i].flags & KSYM_TEXT) && t->sym[i].mod < 0 &&
		    t->sym[i].addr >= lo && t->sym[i].addr < hi)
			t->sym[i].flags |= KSYM_INIT;
}

/* A field of the text as a string of its own (the byte after it is a separator, '\n' or the end). */
static char *sysmap_string(struct sysmap_in *in, const char *f, size_t n)
{
	char *s = in->text + (f - in->text);

	s[n] = '\0';
	return s;
}

static int sysmap_line(void *ctx, const struct kimage_sysmap_line *l)
{
	struct sysmap_in *in = ctx;
	const char *name;
	int mod = -1;

	if (l->bad)
		return sysmap_bad(in->path, l->lineno, l->bad, in->e);
	name = sysmap_string(in, l->name, l->namelen);
	if (l->mod) {
		mod = sysmap_module(in->t, sysmap_string(in, l->mod, l->modlen), &in->last);
		if (mod < 0)
			return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	}
	in->any = 1;
	if (!strcmp(name, "_sinittext"))
		in->sinit = l->addr;
	else if (!strcmp(name, "_einittext"))
		in->einit = l->addr;
	if (strchr("tTwW", l->type)) {
		if (ksyms_add(in->t, name, l->addr, 0, mod, 0, KSYM_TEXT))
			return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	} else if (!strncmp(name, "__initcall", 10) && mod < 0) {
		if (ksyms_add(in->t, name, l->addr, 0, mod, 0, 0))
			return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	}
	return 0;
}

int ksyms_parse_sysmap(struct ksyms *t, char *text, size_t len,
		       const char *path, struct bt_error *e)
{
	struct sysmap_in in = { t, text, path, e, -1, 0, 0, 0 };
	size_t first = t->n ? t->n : 1;
	char pkg[256];

	if (kimage_sysmap_placeholder(text, len, pkg, sizeof(pkg)))
		return ksyms_sysmap_placeholder(path, pkg, e);
	if (kimage_sysmap_each(text, len, sysmap_line, &in))
		return -1;
	if (!in.any)
		return bt_error_set(e, BT_EXIT_INPUT, path, "no symbols: expected a System.map or kallsyms text");
	if (in.sinit < in.einit)
		sysmap_mark_init(t, first, in.sinit, in.einit);
	return 0;
}

int ksyms_load_sysmap(struct ksyms *t, const char *path, struct bt_error *e)
{
	size_t len;
	char *text;

	/* readfile's open error does not say what the file should have been. */
	if (strcmp(path, "-") && access(path, R_OK))
		return bt_error_errno(e, errno, path, "cannot open (expected a System.map or /proc/kallsyms text)");
	text = readfile(path, (size_t)64 << 20, 0,
			"a System.map or kallsyms file", &len, e);
	if (!text)
		return -1;
	if (ksyms_keep(t, text))
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	return ksyms_parse_sysmap(t, text, len, path, e);
}
