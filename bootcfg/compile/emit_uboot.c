/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -t uboot-script and -t uboot-env: bootargs for U-Boot as script text
 * (hush) and as `fw_setenv --script` input. The images (uboot-scr,
 * uboot-envimage) are built from the same text in emit_uboot_image.c.
 *
 * U-Boot's hush (common/cli_hush.c, verified in Debian's 2023.01 build in
 * QEMU) differs from a POSIX shell in two ways that decide the quoting:
 *  - inside '...' every byte is literal except that a backslash still
 *    escapes the next byte (it is stripped when the word is finished), so
 *    a value is written in single quotes with ' as '\'' and \ as \\;
 *  - a command that refers to a variable is expanded and then parsed
 *    again: the variable's value would become hush syntax. So no command
 *    we write refers to one. --keep-bootargs appends with
 *    `setexpr bootargs sub '^.+$' '\0 WORDS'` (cmd/setexpr.c, CONFIG_REGEX):
 *    setexpr reads the old value itself and only "\0" in WORDS is
 *    replaced by it, so the old value is never parsed.
 * The plain form (no variable) also means the same to the simple parser
 * when the value has no backslash and no run of spaces.
 *
 * Without --keep-bootargs the script sets the whole bootargs, so the
 * tracing words are merged (emit_merge) into the board's current line:
 * --base, --base-file or the profile's board.cmdline.base. Without any,
 * nothing is written: the board would boot without root= and console=.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/emit_uboot.h"
#include "util/outfile.h"
#include "util/textbuf.h"

#define SET_PLAIN "setenv bootargs '"
/* setexpr's replacement: "\0" is the whole old value ('^.+$'). */
#define SET_KEEP "setexpr bootargs sub '^.+$' '\\\\0 "

/* A control byte would end or break a script line or an env entry. */
int emit_uboot_word_bad(const char *w, char *why, size_t size)
{
	const unsigned char *p;

	for (p = (const unsigned char *)w; *p; p++)
		if (*p < 0x20 || *p == 0x7f) {
			snprintf(why, size, "byte 0x%02x at offset %zu is a control character, which would end or break a U-Boot command or environment entry; remove it from the setting", *p, (size_t)(p - (const unsigned char *)w));
			return 1;
		}
	return 0;
}

static int emit_uboot_word_ok(const char *word, struct bt_error *e)
{
	char why[160];

	if (!emit_uboot_word_bad(word, why, sizeof(why)))
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, NULL, "U-Boot cannot carry the word '%s': %s", word, why);
}

/* --base as U-Boot prints it ("bootargs=VALUE") or the value alone. */
static const char *emit_uboot_base(const char *base)
{
	base += strspn(base, " \t\r\n");
	return strncmp(base, "bootargs=", 9) ? base : base + 9;
}

/* The words bootargs gets: the plan's merged into the base, or alone. */
static int emit_uboot_words(const struct emit_in *in, struct words *merged,
			    struct bt_error *e)
{
	struct words base;
	int ret;

	if (in->keep_bootargs && in->base)
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--keep-bootargs appends to ${bootargs} as the board has it when the script runs, --base gives that line now: give one of them");
	if (!in->keep_bootargs && !in->base)
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "the U-Boot forms set the whole bootargs, so they need the board's current one to merge into (else it boots without its root= and console=): give --base 'LINE' or --base-file FILE (the output of fw_printenv bootargs or U-Boot's printenv bootargs), set board.cmdline.base in the board profile, or use --keep-bootargs (-t uboot-script, uboot-scr) to append when the script runs");
	words_init(&base);
	ret = in->base ? words_split(&base, emit_uboot_base(in->base)) : 0;
	if (ret)
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	else
		ret = emit_merge(&base, in->kernel, merged, in->verbose, e);
	words_free(&base);
	return ret;
}

int emit_uboot_value(const struct emit_in *in, char **value,
		     struct bt_error *e)
{
	struct words line;
	size_t i;

	*value = NULL;
	words_init(&line);
	if (emit_uboot_words(in, &line, e))
		goto fail;
	for (i = 0; i < line.n; i++)
		if (emit_uboot_word_ok(line.v[i], e))
			goto fail;
	*value = words_join(&line);
	words_free(&line);
	if (!*value)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (emit_check_kernel_len(in->board, strlen(*value),
				  "the command line", e)) {
		free(*value);
		*value = NULL;
		return -1;
	}
	return 0;
fail:
	words_free(&line);
	return -1;
}

/* @s for one hush parse inside '...'. */
static void emit_uboot_quote(struct textbuf *t, const char *s)
{
	const char *p;

	for (p = s; *p; p++) {
		if (*p == '\'')
			textbuf_puts(t, "'\\''");
		else if (*p == '\\')
			textbuf_puts(t, "\\\\");
		else
			textbuf_put(t, p, 1);
	}
}

/* A command of @len bytes must fit CONFIG_SYS_CBSIZE with its NUL. */
static int emit_uboot_check_cbsize(const struct board *b, size_t len,
				   struct bt_error *e)
{
	if (!b->uboot_cbsize || len + 1 <= b->uboot_cbsize)
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, NULL,
			    "the U-Boot command setting bootargs is %zu bytes, but U-Boot on board %s takes at most %u (CONFIG_SYS_CBSIZE %u, the NUL included): trace fewer functions or events, or raise CONFIG_SYS_CBSIZE and uboot.cbsize in the board profile", len, b->name, b->uboot_cbsize - 1,
			    b->uboot_cbsize);
}

static long emit_uboot_room(unsigned limit, size_t used)
{
	return limit && limit > used ? (long)(limit - used) : 0;
}

/*
 * The old value is only known when the script runs: say how much of it
 * the kernel's limit leaves. (U-Boot's CONFIG_SYS_CBSIZE does not see it:
 * setexpr reads it from the environment, not from the command line.)
 */
static void emit_uboot_keep_warning(const struct board *b, size_t value_len)
{
	bt_say(NULL, BT_SAY_WARN, "--keep-bootargs: the existing ${bootargs} comes first when the script runs and adds its length to the kernel's limit: it must be at most %ld bytes (COMMAND_LINE_SIZE %u); stale tracing words in it stay, before the new ones (give --base instead to have them replaced)",
		emit_uboot_room(b->cmdline_max, value_len + 2), b->cmdline_max);
}

/*
 * setexpr replaces each "\0" of its replacement with the old value: a
 * word holding one cannot be appended this way.
 */
static int emit_uboot_keep_ok(const char *value, struct bt_error *e)
{
	const char *p = strstr(value, "\\0");

	if (!p)
		return 0;
	return bt_error_set(e, BT_EXIT_INPUT, NULL, "--keep-bootargs appends with U-Boot's setexpr, which puts the old ${bootargs} in place of every '\\0' of the new words, and the line holds one at offset %zu: change that value, or give --base instead of --keep-bootargs", (size_t)(p - value));
}

/*
 * One line each: hush reads a script line by line into CONFIG_SYS_CBSIZE.
 * An unset bootargs is set plainly (setexpr needs an old value).
 */
static void emit_uboot_keep_text(struct textbuf *t, const char *value,
				 size_t *cmd_len)
{
	size_t start;

	textbuf_puts(t, "if env exists bootargs; then\n");
	start = t->len;
	textbuf_puts(t, SET_KEEP);
	emit_uboot_quote(t, value);
	textbuf_puts(t, "'");
	*cmd_len = t->len - start;
	textbuf_puts(t, "\nelse\n" SET_PLAIN);
	emit_uboot_quote(t, value);
	textbuf_puts(t, "'\nfi\n");
}

int emit_uboot_script_text(const struct emit_in *in, char **text,
			   struct bt_error *e)
{
	struct textbuf t = { 0 };
	size_t cmd_len = 0;
	char *value;

	*text = NULL;
	if (emit_uboot_value(in, &value, e))
		return -1;
	if (in->keep_bootargs && emit_uboot_keep_ok(value, e)) {
		free(value);
		return -1;
	}
	if (in->keep_bootargs && *value) {
		emit_uboot_keep_text(&t, value, &cmd_len);
	} else if (in->keep_bootargs) {
		/* Nothing to append: an empty script. */
		textbuf_put(&t, "", 0);
	} else if (*value) {
		textbuf_puts(&t, SET_PLAIN);
		emit_uboot_quote(&t, value);
		textbuf_puts(&t, "'");
		cmd_len = t.len;
		textbuf_puts(&t, "\n");
	} else {
		/* No words: an empty setenv deletes the variable. */
		textbuf_puts(&t, "setenv bootargs\n");
		cmd_len = t.len - 1;
	}
	if (t.failed) {
		free(value);
		textbuf_free(&t);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	if (emit_uboot_check_cbsize(in->board, cmd_len, e)) {
		free(value);
		textbuf_free(&t);
		return -1;
	}
	if (in->keep_bootargs && *value)
		emit_uboot_keep_warning(in->board, strlen(value));
	free(value);
	*text = t.s;
	return 0;
}

int emit_uboot_script(const struct emit_in *in, struct bt_error *e)
{
	struct outfile o;
	char *text;
	int ret;

	if (emit_uboot_script_text(in, &text, e))
		return -1;
	if (outfile_open(&o, in->out, e)) {
		free(text);
		return -1;
	}
	fputs(text, o.f);
	free(text);
	ret = outfile_commit(&o, e);
	return ret;
}

char *emit_uboot_env_entry(const char *value)
{
	struct textbuf t = { 0 };
	const char *p;

	textbuf_puts(&t, "bootargs=");
	for (p = value; *p; p++)
		textbuf_put(&t, *p == '\\' ? "\\\\" : p, *p == '\\' ? 2 : 1);
	if (t.failed) {
		textbuf_free(&t);
		return NULL;
	}
	return t.s;
}

int emit_uboot_env(const struct emit_in *in, struct bt_error *e)
{
	struct outfile o;
	char *value, *entry;

	if (in->keep_bootargs)
		return bt_error_set(e, BT_EXIT_USAGE, NULL,
				    "--keep-bootargs cannot be expressed in fw_setenv --script input: its values are set literally, with no ${bootargs} expansion; use -t uboot-script or -t uboot-scr, or drop --keep-bootargs");
	if (emit_uboot_value(in, &value, e))
		return -1;
	entry = emit_uboot_env_entry(value);
	free(value);
	if (!entry)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (outfile_open(&o, in->out, e)) {
		free(entry);
		return -1;
	}
	/*
	 * libubootenv (Debian 12, 0.3.2) reads name=value lines and ignores
	 * "name value" ones; it stores the value as written.
	 */
	fprintf(o.f, "%s\n", entry);
	free(entry);
	return outfile_commit(&o, e);
}
