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
 *    again, quoted words wrapped in '...': with ${bootargs} in the command
 *    our literal text goes through two parses and is quoted twice.
 * The plain form (no variable) also means the same to the simple parser
 * when the value has no backslash and no run of spaces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/emit_uboot.h"
#include "util/outfile.h"
#include "util/textbuf.h"

#define SET_PLAIN "setenv bootargs '"
#define SET_KEEP "setenv bootargs ${bootargs}' "
/* What hush makes of SET_KEEP after expansion, the old value left out. */
#define SET_KEEP_EXPANDED "setenv bootargs ' "

/* A control byte would end or break a script line or an env entry. */
static int emit_uboot_word_ok(const char *word, struct bt_error *e)
{
	const unsigned char *p;

	for (p = (const unsigned char *)word; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return bt_error_set(e, BT_EXIT_INPUT, NULL,
					    "U-Boot cannot carry the word '%s': byte 0x%02x at offset %zu is a control character; remove it from the setting", word, *p,
					    (size_t)(p - (const unsigned char *)word));
	return 0;
}

int emit_uboot_value(const struct emit_in *in, char **value,
		     struct bt_error *e)
{
	size_t i;

	*value = NULL;
	for (i = 0; i < in->kernel->n; i++)
		if (emit_uboot_word_ok(in->kernel->v[i], e))
			return -1;
	*value = words_join(in->kernel);
	if (!*value)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (emit_check_kernel_len(in->board, strlen(*value),
				  "the command line", e)) {
		free(*value);
		*value = NULL;
		return -1;
	}
	return 0;
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
 * the limits leave, and what hush's second parse cannot keep.
 */
static void emit_uboot_keep_warning(const struct board *b, size_t expanded,
				    size_t value_len)
{
	bt_say("boottrace", BT_SAY_WARN, "--keep-bootargs: the existing ${bootargs} comes first when the script runs and adds its length to the limits: it must be at most %ld bytes for U-Boot (CONFIG_SYS_CBSIZE %u, after ${bootargs} expansion) and %ld bytes for the kernel (COMMAND_LINE_SIZE %u); a ' or \\ in it is lost (hush parses it twice)",
		emit_uboot_room(b->uboot_cbsize, expanded + 1), b->uboot_cbsize,
		emit_uboot_room(b->cmdline_max, value_len + 2), b->cmdline_max);
}

/* if/else so that an unset bootargs does not leave a leading space. */
static void emit_uboot_keep_text(struct textbuf *t, const char *value,
				 size_t *cmd_len, size_t *expanded)
{
	struct textbuf once = { 0 };
	size_t start;

	emit_uboot_quote(&once, value);
	textbuf_puts(t, "if env exists bootargs; then ");
	start = t->len;
	textbuf_puts(t, SET_KEEP);
	emit_uboot_quote(t, once.failed ? "" : once.s);
	textbuf_puts(t, "'");
	*cmd_len = t->len - start;
	*expanded = strlen(SET_KEEP_EXPANDED) + once.len + 1;
	textbuf_puts(t, "; else " SET_PLAIN);
	textbuf_put(t, once.s ? once.s : "", once.len);
	textbuf_puts(t, "'; fi\n");
	if (once.failed)
		t->failed = 1;
	textbuf_free(&once);
}

int emit_uboot_script_text(const struct emit_in *in, char **text,
			   struct bt_error *e)
{
	struct textbuf t = { 0 };
	size_t cmd_len = 0, expanded = 0;
	char *value;

	*text = NULL;
	if (emit_uboot_value(in, &value, e))
		return -1;
	if (in->keep_bootargs && *value) {
		emit_uboot_keep_text(&t, value, &cmd_len, &expanded);
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
		emit_uboot_keep_warning(in->board, expanded, strlen(value));
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
