/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Targets that are one configuration file of the boot chain:
 *  -t grub            an /etc/default/grub.d drop-in (update-grub reads it)
 *  -t kernel-install  the whole /etc/kernel/cmdline line
 *  -t uki             the same line, for a unified kernel image (systemd-stub)
 *  -t rpi             the whole cmdline.txt line of the Raspberry Pi firmware
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "compile/emit.h"
#include "util/outfile.h"

/* ---- shared ------------------------------------------------------------ */

/* Merge the kernel words into the --base words. */
static char *files_merge(const struct emit_in *in, const struct words *base,
			 struct bt_error *e)
{
	struct words merged;
	char *line = NULL;

	words_init(&merged);
	if (!emit_merge(base, in->kernel, &merged, in->verbose, e)) {
		line = words_join(&merged);
		if (!line)
			bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	words_free(&merged);
	return line;
}

/* @text plus a newline to -o (atomically) or standard output. */
static int files_write_line(const struct emit_in *in, const char *text,
			    struct bt_error *e)
{
	struct outfile o;

	if (outfile_open(&o, in->out, e))
		return -1;
	fprintf(o.f, "%s\n", text);
	return outfile_commit(&o, e);
}

static int files_need_base(const struct emit_in *in, const char *target,
			   const char *from, struct bt_error *e)
{
	if (in->base)
		return 0;
	return bt_error_set(e, BT_EXIT_USAGE, NULL, "-t %s needs --base or --base-file: the current line (%s), which the tracing words are merged into; or board.cmdline.base in the board profile", target, from);
}

/* ---- grub ---------------------------------------------------------------- */

/*
 * How a word reaches the kernel through GRUB (Debian grub-common 2.06):
 * grub-mkconfig sources the drop-in with sh, 10_linux pastes
 * $GRUB_CMDLINE_LINUX unchanged after "linux ... ro" in grub.cfg, GRUB's
 * script lexer removes quotes and '\' escapes and expands $var there, and
 * the linux loader (grub_create_loader_cmdline) joins the arguments with
 * spaces, wrapping one that holds a space in "..." and putting a '\'
 * before every '\', '\'' and '"'. The kernel keeps those backslashes, so
 * a value with any of the three cannot arrive as written: refused. Every
 * other word is written single-quoted for GRUB's lexer when it holds
 * anything but plain characters.
 */
static int grub_plain(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || strchr("_.,:/=+@%^~-", c);
}

/*
 * The argument GRUB must hand its loader for kernel word @w: the kernel's
 * view of it (param=value, quotes gone), malloc'd; NULL on no memory.
 */
static char *grub_arg(const char *w)
{
	struct bconf_arg ka;
	char *copy = strdup(w), *a = NULL;
	size_t n;

	if (copy && bconf_cmdline_next(copy, &ka)) {
		n = strlen(ka.param) + (ka.val ? 1 + strlen(ka.val) : 0);
		a = malloc(n + 1);
		if (a)
			snprintf(a, n + 1, "%s%s%s", ka.param, ka.val ? "=" : "",
				 ka.val ? ka.val : "");
	} else if (copy) {
		a = strdup("");
	}
	free(copy);
	return a;
}

int emit_grub_word_bad(const char *w, char *why, size_t size)
{
	char *a = grub_arg(w);
	size_t i;
	int bad = 0;

	for (i = 0; a && a[i] && !bad; i++)
		bad = a[i] == '\\' || a[i] == '\'' || a[i] == '"' ||
		      (unsigned char)a[i] < 0x20 || (unsigned char)a[i] >= 0x7f;
	free(a);
	if (bad)
		snprintf(why, size, "GRUB's linux loader puts a '\\' before every '\\', '\'' and '\"' (and only printable ASCII is safe), which the kernel keeps: change the value, or use -t kernel-install or the bootconfig target");
	return bad;
}

/*
 * The argument GRUB must hand its loader for kernel word @w into @arg,
 * and how to write that in grub.cfg into @cfg. Both malloc'd.
 */
static int grub_word(const char *w, char **arg, char **cfg, struct bt_error *e)
{
	char why[256], *a = NULL, *c = NULL;
	size_t i, n;
	int quote = 0;

	if (emit_grub_word_bad(w, why, sizeof(why)))
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "kernel word '%s' cannot go through GRUB: %s", w, why);
	a = grub_arg(w);
	n = a ? strlen(a) : 0;
	c = a ? malloc(n + 3) : NULL;
	if (!c) {
		free(a);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	for (i = 0; i < n; i++)
		quote |= !grub_plain(a[i]);
	snprintf(c, n + 3, "%s%s%s", quote ? "'" : "", a, quote ? "'" : "");
	*arg = a;
	*cfg = c;
	return 0;
}

int emit_grub_cfg_word(const char *w, char **cfg, struct bt_error *e)
{
	char *arg;

	if (grub_word(w, &arg, cfg, e))
		return -1;
	free(arg);
	return 0;
}

/* @s inside sh double quotes: '\' before '\', '"', '$' and '`'. */
static void grub_put_sh(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\\"$`", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

/*
 * The grub.cfg text of every word into @cfg, and the length of what the
 * kernel gets from GRUB's loader for them into *@klen.
 */
static int grub_words(const struct words *kw, struct words *cfg, size_t *klen,
		      struct bt_error *e)
{
	char *arg = NULL, *c = NULL;
	size_t i;
	int ret = 0;

	*klen = 0;
	for (i = 0; i < kw->n && !ret; i++) {
		if (grub_word(kw->v[i], &arg, &c, e))
			return -1;
		*klen += (i > 0) + strlen(arg) + 2 * (strchr(arg, ' ') != NULL);
		if (words_add(cfg, c))
			ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		free(arg);
		free(c);
	}
	return ret;
}

/* emit.h; the /etc/default/grub and /etc/default/u-boot reader. */
int emit_sh_assigned(const char *text, const char *name, char **val,
		     long *at, struct bt_error *e)
{
	size_t n = strlen(name), o;
	const char *l, *p;
	char q, *v;

	*val = NULL;
	if (at)
		*at = -1;
	for (l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		p = l + strspn(l, " \t");
		if (!strncmp(p, "export ", 7))
			p += 7 + strspn(p + 7, " \t");
		if (strncmp(p, name, n) || p[n] != '=')
			continue;
		p += n + 1;
		if (at)
			*at = l - text;
		free(*val);
		*val = v = malloc(strcspn(p, "\n") + 1);
		if (!v)
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		q = (*p == '"' || *p == '\'') ? *p++ : 0;
		for (o = 0; *p && *p != '\n' && (q ? *p != q : *p != ' ' && *p != '\t' && *p != '#'); p++) {
			if ((q != '\'' && (*p == '$' || *p == '`')) ||
			    (!q && (*p == '\\' || *p == '"' || *p == '\'')))
				return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s in --base is written with sh expansion or quoting this compiler does not evaluate ('%c'): write its value in plain double quotes, or give the value sh gives it", name, *p);
			if (q == '"' && *p == '\\' && p[1] && strchr("\\\"$`", p[1]))
				p++;
			v[o++] = *p;
		}
		v[o] = '\0';
		if (q && *p != q)
			return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s in --base: its %c quote does not end on its line", name, q);
	}
	return 0;
}

/* NAME="words" for sh, each word as written (already GRUB-quoted). */
static void grub_put_var(FILE *f, const char *name, const struct words *w)
{
	size_t i;

	fprintf(f, "%s=\"", name);
	for (i = 0; i < w->n; i++) {
		if (i)
			fputc(' ', f);
		grub_put_sh(f, w->v[i]);
	}
	fputs("\"\n", f);
}

/* Words @from..@to of @w into @out (initialised here); -1 on no memory. */
static int grub_slice(const struct words *w, size_t from, size_t to,
		      struct words *out)
{
	words_init(out);
	for (; from < to; from++)
		if (words_add(out, w->v[from]))
			return -1;
	return 0;
}

/*
 * With --base (the text of /etc/default/grub): both variables written
 * whole. 10_linux puts GRUB_CMDLINE_LINUX_DEFAULT after
 * GRUB_CMDLINE_LINUX, so the kernel words are merged into
 * GRUB_CMDLINE_LINUX (emit_merge: stale tracing words replaced, new ones
 * before its "--") and init's words go at the end of the line:
 * GRUB_CMDLINE_LINUX_DEFAULT when the base sets it (behind its "--", or
 * behind the one of GRUB_CMDLINE_LINUX, or behind a new one), which also
 * loses its stale tracing words.
 */
static int grub_from_base(const struct emit_in *in, const struct words *cfg,
			  FILE *f, struct bt_error *e)
{
	struct words lw, dw, merged, kw, iw;
	char *lv = NULL, *dv = NULL;
	size_t len, adash = words_dashes(cfg);
	int ret = -1;

	words_init(&lw);
	words_init(&dw);
	words_init(&merged);
	words_init(&kw);
	words_init(&iw);
	if (emit_sh_assigned(in->base, "GRUB_CMDLINE_LINUX", &lv, NULL, e) ||
	    emit_sh_assigned(in->base, "GRUB_CMDLINE_LINUX_DEFAULT", &dv, NULL, e))
		goto out;
	/* No assignment: the base is GRUB_CMDLINE_LINUX's value itself. */
	if (!lv && !dv && !(lv = strdup(in->base))) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if ((lv && words_split(&lw, lv)) || (dv && words_split(&dw, dv)) ||
	    grub_slice(cfg, 0, dv ? adash : cfg->n, &kw)) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if (emit_merge(&lw, &kw, &merged, in->verbose, e))
		goto out;
	grub_put_var(f, "GRUB_CMDLINE_LINUX", &merged);
	len = words_join_len(&merged);
	if (dv) {
		/* Init's words, behind a "--" unless GRUB_CMDLINE_LINUX has one. */
		int linux_dash = words_dashes(&lw) < lw.n;

		words_free(&merged);
		words_init(&merged);
		if (grub_slice(cfg, adash + (linux_dash && adash < cfg->n), cfg->n, &iw)) {
			bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			goto out;
		}
		if (emit_merge(&dw, &iw, &merged, in->verbose, e))
			goto out;
		grub_put_var(f, "GRUB_CMDLINE_LINUX_DEFAULT", &merged);
		len += merged.n ? 1 + words_join_len(&merged) : 0;
	}
	ret = emit_check_kernel_len(in->board, len, "GRUB_CMDLINE_LINUX and GRUB_CMDLINE_LINUX_DEFAULT together (GRUB puts BOOT_IMAGE= and root= in front)", e);
out:
	free(lv);
	free(dv);
	words_free(&lw);
	words_free(&dw);
	words_free(&merged);
	words_free(&kw);
	words_free(&iw);
	return ret;
}

/* NAME="w1 w2 ..." for sh, words @from..@to of @cfg. */
static void grub_put_list(FILE *f, const char *name, const struct words *cfg,
			  size_t from, size_t to)
{
	size_t i;

	fprintf(f, "%s=\"", name);
	for (i = from; i < to; i++) {
		if (i > from)
			fputc(' ', f);
		grub_put_sh(f, cfg->v[i]);
	}
	fputs("\"\n", f);
}

/*
 * Without --base: extend GRUB_CMDLINE_LINUX when update-grub sources the
 * drop-in, the words before a "--" in it (after it they go to init).
 * Init's words go at the end of the line, which is the end of
 * GRUB_CMDLINE_LINUX_DEFAULT (10_linux puts it last), behind the "--"
 * of either variable or, when neither has one, behind a new one. No
 * second "--" is ever added.
 */
static void grub_append(const struct words *cfg, FILE *f)
{
	size_t adash = words_dashes(cfg);

	grub_put_list(f, "bt_words", cfg, 0, adash);
	fputs("bt_v=\" $GRUB_CMDLINE_LINUX \"\n"
	      "case \"$bt_v\" in\n"
	      "*\" -- \"*)\n"
	      "\tbt_pre=${bt_v%%\" -- \"*} bt_post=${bt_v#*\" -- \"}\n"
	      "\tbt_pre=${bt_pre# } bt_post=${bt_post% }\n"
	      "\tGRUB_CMDLINE_LINUX=\"${bt_pre:+$bt_pre }$bt_words --${bt_post:+ $bt_post}\" ;;\n"
	      "*) GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX:+$GRUB_CMDLINE_LINUX }$bt_words\" ;;\n"
	      "esac\n", f);
	if (adash + 1 < cfg->n) {
		grub_put_list(f, "bt_init", cfg, adash + 1, cfg->n);
		fputs("case \" $GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT \" in\n"
		      "*\" -- \"*) ;;\n"
		      "*) bt_init=\"-- $bt_init\" ;;\n"
		      "esac\n"
		      "GRUB_CMDLINE_LINUX_DEFAULT=\"${GRUB_CMDLINE_LINUX_DEFAULT:+$GRUB_CMDLINE_LINUX_DEFAULT }$bt_init\"\n", f);
	}
	fputs("unset bt_words bt_init bt_v bt_pre bt_post\n", f);
}

int emit_grub(const struct emit_in *in, struct bt_error *e)
{
	struct words cfg;
	struct outfile o;
	size_t klen;
	int ret = -1;

	words_init(&cfg);
	if (grub_words(in->kernel, &cfg, &klen, e) ||
	    emit_check_kernel_len(in->board, klen, "the tracing words (GRUB puts BOOT_IMAGE=, root= and the rest of GRUB_CMDLINE_LINUX in front)", e) ||
	    outfile_open(&o, in->out, e))
		goto out;
	fputs("# boottrace compile -t grub: kernel tracing words. Put it in /etc/default/grub.d/\n# (e.g. 90-boottrace.cfg), then run update-grub.\n", o.f);
	if (in->base && grub_from_base(in, &cfg, o.f, e)) {
		outfile_abort(&o);
		goto out;
	}
	if (!in->base && cfg.n)
		grub_append(&cfg, o.f);
	ret = outfile_commit(&o, e);
out:
	words_free(&cfg);
	return ret;
}

/* ---- kernel-install, uki ------------------------------------------------- */

/*
 * systemd's kernel-install (90-loaderentry.install, Debian 12's systemd 252)
 * reads /etc/kernel/cmdline with `tr -s "$IFS" ' '`: every run of
 * whitespace becomes one space, inside quotes too, so a word whose quoted
 * value holds a tab or two spaces in a row would arrive changed. It then
 * writes the entry with /bin/sh's echo, which on Debian (dash) reads '\' as
 * an escape: `\c` ends the options line there and swallows the entry's next
 * line (tests/e2e/uki.sh shows it). Both refused.
 */
int emit_ki_word_bad(const char *w, char *why, size_t size)
{
	size_t i;

	for (i = 0; w[i]; i++) {
		if ((w[i] != ' ' && w[i] >= '\t' && w[i] <= '\r') ||
		    (w[i] == ' ' && w[i + 1] == ' ')) {
			snprintf(why, size, "kernel-install turns every run of whitespace into one space, inside quotes too: use single spaces in quoted values");
			return 1;
		}
		if (w[i] == '\\') {
			snprintf(why, size, "kernel-install writes the entry's options line with /bin/sh's echo, which takes '\\' as an escape (dash: \\c ends the line there): change the value, or use the bootconfig target");
			return 1;
		}
	}
	return 0;
}

/*
 * -t uki: the same file, for a unified kernel image (systemd-stub). The stub
 * turns the UTF-16 command line a loader passes it into 8-bit text for the
 * kernel, one byte of each character (docs/compile-targets.md, uki), so a
 * word with a byte outside printable ASCII is refused.
 */
int emit_uki_word_bad(const char *w, char *why, size_t size)
{
	size_t i;

	if (emit_ki_word_bad(w, why, size))
		return 1;
	for (i = 0; w[i]; i++)
		if ((unsigned char)w[i] < 0x20 || (unsigned char)w[i] > 0x7e) {
			snprintf(why, size, "systemd-stub carries only printable ASCII of the command line a loader passes it (it converts UTF-16 to 8-bit text): use ASCII");
			return 1;
		}
	return 0;
}

static int ki_check_word(const char *w, const char *target, emit_word_fn bad,
			 struct bt_error *e)
{
	char why[256];

	if (!bad(w, why, sizeof(why)))
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, NULL, "kernel word '%s' cannot go through kernel-install (-t %s): %s", w, target, why);
}

/*
 * BOOT_IMAGE= and initrd= are put there by the bootloader (a --base read
 * from /proc/cmdline has them); kernel-install leaves them out of
 * /proc/cmdline as well, and adds the initrd itself.
 */
static int ki_bootloader_word(const char *w)
{
	return !strncmp(w, "BOOT_IMAGE=", 11) || !strncmp(w, "initrd=", 7);
}

/* --base as words, in @base (freed by the caller either way). */
static int files_split_base(const struct emit_in *in, struct words *base,
			    struct bt_error *e)
{
	words_init(base);
	if (words_split(base, in->base))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return 0;
}

/*
 * The plan's words merged into @base, checked against the kernel's limit
 * (@what names the line in the message) and written.
 */
static int files_finish(const struct emit_in *in, struct words *base,
			const char *what, struct bt_error *e)
{
	char *line = files_merge(in, base, e);
	int ret = -1;

	if (line && !emit_check_kernel_len(in->board, strlen(line), what, e))
		ret = files_write_line(in, line, e);
	free(line);
	return ret;
}

/*
 * " systemd.machine_id=" and 32 hex digits: what 90-loaderentry.install
 * appends to a line that has no "systemd.machine_id=" when the entries are
 * named after the machine ID (the default entry token).
 */
#define KI_MACHINE_ID_WORD (sizeof(" systemd.machine_id=") - 1 + 32)
_Static_assert(KI_MACHINE_ID_WORD == 52, "the limit message says 52 bytes");

/*
 * The merged line as kernel-install puts it into the entry's options:
 * systemd-boot takes a '"' at both ends of a value as quotes around it
 * (as for -t bls), and the machine-id word must fit the kernel's limit too.
 */
static int ki_check_line(const struct emit_in *in, const char *line,
			 struct bt_error *e)
{
	size_t len = strlen(line);

	if (len > 1 && line[0] == '"' && line[len - 1] == '"')
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "the line would begin and end with '\"' (%s), and systemd-boot removes those two as quotes around the whole options value of the entry kernel-install writes: put another word first or last in the base (or drop the quotes of one of them)", line);
	if (strstr(line, "systemd.machine_id="))
		return emit_check_kernel_len(in->board, len, "the /etc/kernel/cmdline line", e);
	return emit_check_kernel_len(in->board, len + KI_MACHINE_ID_WORD, "the /etc/kernel/cmdline line with the 52 bytes of \" systemd.machine_id=ID\" kernel-install appends (entries named after the machine ID; a base with that word is counted as written)", e);
}

static int ki_emit(const struct emit_in *in, const char *target,
		   emit_word_fn bad, struct bt_error *e)
{
	struct words base;
	size_t i;
	char *line = NULL;
	int ret = -1;

	if (files_need_base(in, target,
			    "/etc/kernel/cmdline, or /proc/cmdline", e))
		return -1;
	if (files_split_base(in, &base, e))
		goto out;
	for (i = 0; i < base.n;) {
		if (!ki_bootloader_word(base.v[i])) {
			i++;
			continue;
		}
		if (in->verbose)
			bt_say(NULL, BT_SAY_PLAIN, "dropped '%s' (the bootloader adds it)", base.v[i]);
		words_remove(&base, i);
	}
	for (i = 0; i < in->kernel->n; i++)
		if (ki_check_word(in->kernel->v[i], target, bad, e))
			goto out;
	line = files_merge(in, &base, e);
	if (line && !ki_check_line(in, line, e))
		ret = files_write_line(in, line, e);
out:
	free(line);
	words_free(&base);
	return ret;
}

int emit_kernel_install(const struct emit_in *in, struct bt_error *e)
{
	return ki_emit(in, "kernel-install", emit_ki_word_bad, e);
}

/*
 * No ukify in Debian 12 (it came with systemd 253; there is no
 * systemd-ukify package), so no command-line addon is built: the UKI's line
 * is the /etc/kernel/cmdline that kernel-install and the UKI builders read.
 */
int emit_uki(const struct emit_in *in, struct bt_error *e)
{
	return ki_emit(in, "uki", emit_uki_word_bad, e);
}

/* ---- rpi ------------------------------------------------------------------ */

/* The firmware reads the first line of cmdline.txt only. */
static int rpi_check_base(const char *base, struct bt_error *e)
{
	const char *nl = strchr(base, '\n');

	if (!nl || !nl[strspn(nl, " \t\r\n")])
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, NULL, "--base has more than one line, but the firmware reads only the first line of cmdline.txt (the rest is ignored at boot today): give only the first line");
}

int emit_rpi(const struct emit_in *in, struct bt_error *e)
{
	struct words base;
	int ret = -1;

	if (files_need_base(in, "rpi", "cmdline.txt on the boot partition, not /proc/cmdline, which has the firmware's own words", e) || rpi_check_base(in->base, e))
		return -1;
	if (in->verbose && strcmp(in->board->bootloader, "rpi"))
		bt_say(NULL, BT_SAY_PLAIN, "board %s is not a Raspberry Pi profile: the firmware's 1024-byte limit is not checked (use -b rpi4)", in->board->name);
	if (!files_split_base(in, &base, e))
		ret = files_finish(in, &base, "the cmdline.txt line", e);
	words_free(&base);
	return ret;
}
