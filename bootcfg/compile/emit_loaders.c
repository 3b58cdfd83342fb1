/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets that are a whole configuration file of a bootloader, given as
 * --base (--base-file) and written back with only the kernel's line changed:
 *  -t extlinux     extlinux.conf (syslinux, U-Boot's distro boot): the
 *                  APPEND of one LABEL
 *  -t u-boot-menu  Debian's /etc/default/u-boot: U_BOOT_PARAMETERS, which
 *                  u-boot-update writes into each label's append line
 *  -t bls          a Boot Loader Specification entry (systemd-boot,
 *                  barebox): its options lines
 * The line is merged with emit_merge, like every other target; every other
 * byte of the file is kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "compile/emit.h"
#include "util/outfile.h"

/* ---- shared ------------------------------------------------------------ */

/* One line of the base text: [start, end) without its "\n", next after it. */
struct ldr_line {
	size_t start, end, next;
};

/* The line at @at of @text; 0 at the end of the text. */
static int ldr_line_at(const char *text, size_t at, struct ldr_line *l)
{
	const char *nl;

	if (!text[at])
		return 0;
	nl = strchr(text + at, '\n');
	l->start = at;
	l->end = nl ? (size_t)(nl - text) : at + strlen(text + at);
	l->next = nl ? l->end + 1 : l->end;
	return 1;
}

/* The first word of a line: [*k, *k + *klen); the value after it: [*v, *vend). */
static void ldr_key(const char *text, const struct ldr_line *l, size_t *k,
		    size_t *klen, size_t *v, size_t *vend)
{
	size_t i = l->start, e = l->end;

	while (i < e && (text[i] == ' ' || text[i] == '\t'))
		i++;
	*k = i;
	while (i < e && text[i] != ' ' && text[i] != '\t' && text[i] != '\r')
		i++;
	*klen = i - *k;
	while (i < e && (text[i] == ' ' || text[i] == '\t'))
		i++;
	*v = i;
	while (e > i && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r'))
		e--;
	*vend = e;
}

static int ldr_need_base(const struct emit_in *in, const char *target,
			 const char *what, struct bt_error *e)
{
	if (in->base)
		return 0;
	return bt_error_set(e, BT_EXIT_USAGE, NULL, "-t %s needs --base-file %s (the file whose kernel line the tracing words are merged into; -o writes the result, which may be the same file)", target, what);
}

/*
 * @base (bytes, not NUL-terminated) as the kernel's words, the plan's words
 * merged in (emit_merge), joined into a malloc'd line; NULL with @e.
 */
static char *ldr_merge(const struct emit_in *in, const char *base, size_t n,
		       struct bt_error *e)
{
	struct words bw, merged;
	char *copy = strndup(base, n), *line = NULL;

	words_init(&bw);
	words_init(&merged);
	if (!copy || words_split(&bw, copy))
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	else if (!emit_merge(&bw, in->kernel, &merged, in->verbose, e) &&
		 !(line = words_join(&merged)))
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	free(copy);
	words_free(&bw);
	words_free(&merged);
	return line;
}

/* Line number (from 1) of byte @off of @t. */
static int ldr_lineno(const char *t, size_t off)
{
	int n = 1;
	size_t i;

	for (i = 0; i < off && t[i]; i++)
		n += t[i] == '\n';
	return n;
}

/* "FILE:LINE" of byte @off of the base, for bt_say. */
static const char *ldr_where(const struct emit_in *in, size_t off, char *buf,
			     size_t size)
{
	snprintf(buf, size, "%s:%d", in->base_name, ldr_lineno(in->base, off));
	return buf;
}

/* An error at byte @off of the base: FILE:LINE. */
static int ldr_error_at(const struct emit_in *in, size_t off, struct bt_error *e)
{
	bt_error_file(e, in->base_name);
	e->line = ldr_lineno(in->base, off);
	return -1;
}

/* Control characters end or break a line of every one of these files. */
static int ldr_control(const char *w, char *why, size_t size)
{
	const unsigned char *p;

	for (p = (const unsigned char *)w; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(why, size, "byte 0x%02x at offset %zu is a control character, which would end or break the file's line; remove it from the setting", *p, (size_t)(p - (const unsigned char *)w));
			return 1;
		}
	return 0;
}

/* @len bytes of a loader's line against the board's U-Boot CONFIG_SYS_CBSIZE. */
static int ldr_check_cbsize(const struct emit_in *in, size_t len,
			    const char *what, struct bt_error *e)
{
	const struct board *b = in->board;

	if (!b->uboot_cbsize || len + 1 <= b->uboot_cbsize)
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s is %zu bytes, but U-Boot on board %s takes an append line of at most %u (CONFIG_SYS_CBSIZE %u with the NUL) and refuses the label (\"bootarg overflow\"): trace fewer functions or events, or put the hook's settings in the initramfs (--hook-settings)", what, len, b->name, b->uboot_cbsize - 1, b->uboot_cbsize);
}

/* ---- extlinux ------------------------------------------------------------ */

/*
 * U-Boot's extlinux reader (pxe_utils) copies the append line into
 * bootargs through cli_simple_process_macros, which expands ${VAR} and
 * $(VAR), removes '\' escapes and drops single quotes; syslinux takes the
 * line as it is. A word with any of these could not reach the kernel as
 * written: refused.
 */
int emit_extlinux_word_bad(const char *w, char *why, size_t size)
{
	const char *p;

	if (ldr_control(w, why, size))
		return 1;
	for (p = w; *p; p++)
		if (*p == '\\' || *p == '\'' ||
		    (*p == '$' && (p[1] == '{' || p[1] == '('))) {
			snprintf(why, size, "U-Boot reads an extlinux append line through its macro expander, which drops single quotes, removes '\\' escapes and expands ${VAR} and $(VAR) (offset %zu): change the value, or use the bootconfig target", (size_t)(p - w));
			return 1;
		}
	return 0;
}

struct ext_label {
	size_t line;		/* offset of its LABEL line */
	size_t name, name_len;
	size_t last;		/* the end of its last line with a keyword */
	int has_append;
	size_t v, vend;		/* its last APPEND's value */
	size_t napp;		/* APPEND lines */
	int menu_default;
};

struct ext_conf {
	struct ext_label *l;
	size_t n, cap;
	size_t def, def_len;	/* DEFAULT's first word; def_len 0: none */
	int global_append;	/* an APPEND before the first LABEL */
	size_t gv, gvend;
};

static int ext_kw(const char *text, size_t k, size_t klen, const char *kw)
{
	return klen == strlen(kw) && !strncasecmp(text + k, kw, klen);
}

/* Read the labels of extlinux.conf text @t. */
static int ext_parse(const char *t, struct ext_conf *c, struct bt_error *e)
{
	struct ldr_line l;
	size_t at = 0, k, klen, v, vend;
	struct ext_label *cur = NULL;

	memset(c, 0, sizeof(*c));
	for (; ldr_line_at(t, at, &l); at = l.next) {
		ldr_key(t, &l, &k, &klen, &v, &vend);
		if (!klen || t[k] == '#')
			continue;
		if (ext_kw(t, k, klen, "label")) {
			if (c->n == c->cap) {
				size_t cap = c->cap ? 2 * c->cap : 8;
				struct ext_label *nl = realloc(c->l, cap * sizeof(*nl));

				if (!nl)
					return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
				c->l = nl;
				c->cap = cap;
			}
			cur = &c->l[c->n++];
			memset(cur, 0, sizeof(*cur));
			cur->line = l.start;
			cur->name = v;
			cur->name_len = vend - v;
			cur->last = l.end;
			continue;
		}
		if (ext_kw(t, k, klen, "default")) {
			c->def = v;
			c->def_len = strcspn(t + v, " \t\r\n");
			continue;
		}
		if (!cur) {
			if (ext_kw(t, k, klen, "append")) {
				c->global_append = 1;
				c->gv = v;
				c->gvend = vend;
			}
			continue;
		}
		cur->last = l.end;
		if (ext_kw(t, k, klen, "append")) {
			cur->has_append = 1;
			cur->v = v;
			cur->vend = vend;
			cur->napp++;
		} else if (ext_kw(t, k, klen, "menu") &&
			   !strncasecmp(t + v, "default", 7) &&
			   (vend == v + 7)) {
			cur->menu_default = 1;
		}
	}
	return 0;
}

/* The label --label names, else DEFAULT's, else MENU DEFAULT's, else the first. */
static struct ext_label *ext_choose(const struct emit_in *in, const char *t,
				    const struct ext_conf *c, struct bt_error *e)
{
	char where[4200];
	size_t i;

	if (!c->n)
		return bt_error_set(e, BT_EXIT_INPUT, in->base_name, "no LABEL line: give the extlinux.conf the loader reads (e.g. /boot/extlinux/extlinux.conf)"), NULL;
	if (in->label) {
		for (i = 0; i < c->n; i++)
			if (c->l[i].name_len == strlen(in->label) &&
			    !memcmp(t + c->l[i].name, in->label, c->l[i].name_len))
				return &c->l[i];
		return bt_error_set(e, BT_EXIT_INPUT, in->base_name, "--label %s: the file has no LABEL %s (its first, line %d, is '%.*s'): give one of its LABEL names", in->label, in->label, ldr_lineno(t, c->l[0].line), (int)c->l[0].name_len, t + c->l[0].name), NULL;
	}
	for (i = 0; c->def_len && i < c->n; i++)
		if (c->l[i].name_len == c->def_len &&
		    !memcmp(t + c->l[i].name, t + c->def, c->def_len))
			return &c->l[i];
	for (i = 0; i < c->n; i++)
		if (c->l[i].menu_default)
			return &c->l[i];
	if (c->def_len)
		bt_say(ldr_where(in, c->def, where, sizeof(where)), BT_SAY_NOTE, "DEFAULT %.*s names no LABEL: merging into the first, '%.*s' (give --label to choose)", (int)c->def_len, t + c->def, (int)c->l[0].name_len, t + c->l[0].name);
	return &c->l[0];
}

/* Indentation of the line that ends at @end (up to its first non-blank). */
static void ext_indent(const char *t, size_t end, size_t *from, size_t *len)
{
	size_t s = end;

	while (s > 0 && t[s - 1] != '\n')
		s--;
	*from = s;
	*len = strspn(t + s, " \t");
	if (*len > end - s)
		*len = end - s;
}

int emit_extlinux(const struct emit_in *in, struct bt_error *e)
{
	const char *t = in->base;
	struct ext_conf c;
	struct ext_label *lab;
	struct outfile o;
	size_t bv = 0, bvend = 0;
	char *line = NULL, what[160], where[4200];
	int ret = -1;

	if (ldr_need_base(in, "extlinux", "/boot/extlinux/extlinux.conf", e))
		return -1;
	if (ext_parse(t, &c, e) || !(lab = ext_choose(in, t, &c, e)))
		goto out;
	if (lab->has_append) {
		bv = lab->v;
		bvend = lab->vend;
		if (lab->napp > 1)
			bt_say(ldr_where(in, lab->v, where, sizeof(where)), BT_SAY_NOTE, "LABEL %.*s has %zu APPEND lines; the loader uses only the last, which is the one merged", (int)lab->name_len, t + lab->name, lab->napp);
	} else if (c.global_append) {
		/* syslinux gives a label without APPEND the global one */
		bv = c.gv;
		bvend = c.gvend;
	}
	/* APPEND - : no options at all (syslinux) */
	if (bvend == bv + 1 && t[bv] == '-')
		bvend = bv;
	if (in->verbose)
		bt_say("boottrace", BT_SAY_PLAIN, "merging into the APPEND of LABEL %.*s", (int)lab->name_len, t + lab->name);
	line = ldr_merge(in, t + bv, bvend - bv, e);
	snprintf(what, sizeof(what), "the APPEND line of LABEL %.*s", (int)(lab->name_len > 64 ? 64 : lab->name_len), t + lab->name);
	if (!line)
		goto out;
	if (ldr_check_cbsize(in, strlen(line), what, e) ||
	    emit_check_kernel_len(in->board, strlen(line), what, e)) {
		ldr_error_at(in, lab->has_append ? lab->v : lab->line, e);
		goto out;
	}
	if (outfile_open(&o, in->out, e))
		goto out;
	if (lab->has_append) {
		fwrite(t, 1, lab->v, o.f);
		fputs(line, o.f);
		fputs(t + lab->vend, o.f);
	} else {
		size_t from, ilen, kw = lab->line + strspn(t + lab->line, " \t");

		/* a new APPEND after the label's last line, indented like it */
		ext_indent(t, lab->last, &from, &ilen);
		fwrite(t, 1, lab->last, o.f);
		fputc('\n', o.f);
		if (from == lab->line)
			fputc('\t', o.f);
		else
			fwrite(t + from, 1, ilen, o.f);
		fprintf(o.f, "%s %s", t[kw] == 'L' ? "APPEND" : "append", line);
		if (t[lab->last] != '\n')
			fputc('\n', o.f);
		fputs(t + lab->last, o.f);
	}
	ret = outfile_commit(&o, e);
out:
	free(c.l);
	free(line);
	return ret;
}

/* ---- u-boot-menu --------------------------------------------------------- */

/* @s inside sh double quotes: '\' before '\', '"', '$' and '`'. */
static void ldr_put_sh(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\\"$`", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

/*
 * The end of the sh value at @p, as emit_sh_assigned read it: a "..." or
 * '...' string (\\ escapes inside "..."), or a bare word.
 */
static const char *ldr_sh_value_end(const char *p)
{
	char q = (*p == '"' || *p == '\'') ? *p++ : 0;

	for (; *p && *p != '\n'; p++) {
		if (q == '"' && *p == '\\' && p[1] && p[1] != '\n')
			p++;
		else if (q ? *p == q : (*p == ' ' || *p == '\t' || *p == '#'))
			return p + (q != 0);
	}
	return p;
}

/*
 * u-boot-update (Debian u-boot-menu 4.2.2) sources /etc/default/u-boot and
 * writes "append ${U_BOOT_ROOT} ${U_BOOT_PARAMETERS}" into each label:
 * U_BOOT_PARAMETERS is merged and its assignment line rewritten (the last
 * one, which sh keeps), double-quoted for sh; every other line is kept.
 */
int emit_uboot_menu(const struct emit_in *in, struct bt_error *e)
{
	const char *t = in->base;
	char *val = NULL, *root = NULL, *line = NULL;
	struct outfile o;
	long at;
	size_t len;
	int ret = -1;

	if (ldr_need_base(in, "u-boot-menu", "/etc/default/u-boot", e))
		return -1;
	if (emit_sh_assigned(t, "U_BOOT_PARAMETERS", &val, &at, e) ||
	    emit_sh_assigned(t, "U_BOOT_ROOT", &root, NULL, e))
		goto out;
	if (!val)
		bt_say(in->base_name, BT_SAY_NOTE, "U_BOOT_PARAMETERS is not set: merged into u-boot-update's default \"ro quiet\" (when it is unset, u-boot-update takes /etc/kernel/cmdline instead if that exists: then use -t kernel-install)");
	line = ldr_merge(in, val ? val : "ro quiet", strlen(val ? val : "ro quiet"), e);
	if (!line)
		goto out;
	/* append ${U_BOOT_ROOT} ${U_BOOT_PARAMETERS} */
	len = (root && *root ? strlen(root) : 0) + 1 + strlen(line);
	if (ldr_check_cbsize(in, len, "the append line u-boot-update writes (U_BOOT_ROOT and U_BOOT_PARAMETERS)", e) ||
	    emit_check_kernel_len(in->board, len, "the append line u-boot-update writes (U_BOOT_ROOT and U_BOOT_PARAMETERS)", e)) {
		if (at >= 0)
			ldr_error_at(in, (size_t)at, e);
		goto out;
	}
	if (outfile_open(&o, in->out, e))
		goto out;
	if (at >= 0) {
		const char *eq = strchr(t + at, '=');

		/* the value replaced, the rest of its line (a comment) kept */
		fwrite(t, 1, (size_t)(eq + 1 - t), o.f);
		fputc('"', o.f);
		ldr_put_sh(o.f, line);
		fputc('"', o.f);
		fputs(ldr_sh_value_end(eq + 1), o.f);
	} else {
		len = strlen(t);
		fputs(t, o.f);
		if (len && t[len - 1] != '\n')
			fputc('\n', o.f);
		fputs("U_BOOT_PARAMETERS=\"", o.f);
		ldr_put_sh(o.f, line);
		fputs("\"\n", o.f);
	}
	ret = outfile_commit(&o, e);
out:
	free(val);
	free(root);
	free(line);
	return ret;
}

/* ---- bls ------------------------------------------------------------------ */

/*
 * A Boot Loader Specification entry is "KEY VALUE" lines; systemd-boot
 * joins all options lines with spaces (the loader/entries files). A line
 * break cannot be inside a value.
 */
int emit_bls_word_bad(const char *w, char *why, size_t size)
{
	return ldr_control(w, why, size);
}

int emit_bls(const struct emit_in *in, struct bt_error *e)
{
	const char *t = in->base;
	struct ldr_line l;
	struct outfile o;
	size_t at, k, klen, v, vend, nopt = 0, first_v = 0, first_vend = 0, len;
	struct words base, merged;
	char *copy, *line = NULL;
	int ret = -1;

	if (ldr_need_base(in, "bls", "loader/entries/ENTRY.conf", e))
		return -1;
	words_init(&base);
	words_init(&merged);
	/* every options line's words, in order, as the loader joins them */
	for (at = 0; ldr_line_at(t, at, &l); at = l.next) {
		ldr_key(t, &l, &k, &klen, &v, &vend);
		if (klen != 7 || strncmp(t + k, "options", 7))
			continue;
		if (!nopt++) {
			first_v = v;
			first_vend = vend;
		}
		copy = strndup(t + v, vend - v);
		if (!copy || words_split(&base, copy)) {
			free(copy);
			bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			goto out;
		}
		free(copy);
	}
	if (nopt > 1 && in->verbose)
		bt_say("boottrace", BT_SAY_PLAIN, "%zu options lines joined into the first, as the loader joins them", nopt);
	if (emit_merge(&base, in->kernel, &merged, in->verbose, e))
		goto out;
	if (!(line = words_join(&merged))) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	len = strlen(line);
	/* systemd-boot removes a '"' at both ends of a value */
	if (len > 1 && line[0] == '"' && line[len - 1] == '"') {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "the options line would begin and end with '\"' (%s), and systemd-boot removes those two as quotes around the whole value: put another word first or last in the entry (or drop the quotes of one of them)", line);
		if (nopt)
			ldr_error_at(in, first_v, e);
		goto out;
	}
	if (emit_check_kernel_len(in->board, len, "the options of the entry", e)) {
		if (nopt)
			ldr_error_at(in, first_v, e);
		goto out;
	}
	if (outfile_open(&o, in->out, e))
		goto out;
	if (!nopt) {
		fputs(t, o.f);
		if (*t && t[strlen(t) - 1] != '\n')
			fputc('\n', o.f);
		fprintf(o.f, "options %s\n", line);
	} else {
		nopt = 0;
		for (at = 0; ldr_line_at(t, at, &l); at = l.next) {
			ldr_key(t, &l, &k, &klen, &v, &vend);
			if (klen != 7 || strncmp(t + k, "options", 7)) {
				fwrite(t + l.start, 1, l.next - l.start, o.f);
				continue;
			}
			/* the later options lines are now in the first */
			if (nopt++)
				continue;
			fwrite(t + l.start, 1, first_v - l.start, o.f);
			fputs(line, o.f);
			fwrite(t + first_vend, 1, l.next - first_vend, o.f);
		}
	}
	ret = outfile_commit(&o, e);
out:
	words_free(&base);
	words_free(&merged);
	free(line);
	return ret;
}
