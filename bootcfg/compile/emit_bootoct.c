/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -t bootoctlinux: merge the tracing words into an existing Octeon
 * `bootoctlinux ADDR [options] [endbootargs] kernel-args...` command.
 *
 * How the words travel (U-Boot common/cli_simple.c, arch/mips/mach-octeon/
 * bootoctlinux.c; Linux arch/mips/cavium-octeon/setup.c):
 *  - U-Boot's simple parser cuts the command at an unescaped ';' outside
 *    single quotes, removes one level of '\' escapes and the single quotes,
 *    expands $(var) / ${var}, then splits at every space and tab. Double
 *    quotes group nothing.
 *  - bootoctlinux reads its own options from its arguments up to
 *    `endbootargs`; the kernel gets the words after `endbootargs`, or every
 *    word (the command and the address too) when there is none.
 *  - Octeon Linux builds its command line by appending " " + word for each
 *    word while strlen(line) + strlen(word) + 1 < COMMAND_LINE_SIZE - 1,
 *    dropping a word that does not fit silently; it consumes mem= itself
 *    and appends " console=ttyS0,115200" when no word holds "console=".
 * So a kernel word foo="a b" arrives intact (split in two, joined by one
 * space), but foo="a  b" or a tab inside quotes does not: such words are
 * refused. Each added word is escaped for the parser and the escaped form
 * is run back through a model of the parser to prove the kernel gets it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/emit.h"
#include "util/outfile.h"

/* What Octeon Linux appends when no word holds "console=". */
#define OCT_CONSOLE_ADD (sizeof(" console=ttyS0,115200") - 1)

/* bootoctlinux's own options: matched by prefix, as U-Boot's strncmp does. */
static const char *const oct_options[] = {
	"coremask=", "numcores=", "skipcores=", "nodemask=", "console_uart=",
	"namedblock=", "forceboot", "debug", "endbootargs",
};

struct oct_cmd {
	int quoted;		/* --base came in single quotes: give them back */
	long qword;		/* the kernel's words are in '...' from this word on, or -1 */
	int endbootargs;
	size_t nhead;		/* words of head before the kernel's are added */
	struct words head;	/* bootoctlinux, address, options: untouched */
	struct words args;	/* the kernel's words, as written */
};

static const char *oct_option(const char *w)
{
	size_t i;

	for (i = 0; i < sizeof(oct_options) / sizeof(oct_options[0]); i++)
		if (!strncmp(w, oct_options[i], strlen(oct_options[i])))
			return oct_options[i];
	return NULL;
}

static int oct_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The load address as do_bootoctlinux recognises it, or a variable. */
static int oct_is_address(const char *w)
{
	if (w[0] == '$' && (w[1] == '(' || w[1] == '{'))
		return 1;
	return isxdigit((unsigned char)w[0]) &&
	       (isxdigit((unsigned char)w[1]) || w[1] == 'x' || w[1] == 'X' ||
		!w[1]);
}

/* Does the simple parser end the command at a ';' in @s? */
static int oct_has_separator(const char *s)
{
	int inq = 0;
	size_t i;

	for (i = 0; s[i]; i++) {
		if (s[i] == '\'' && (!i || s[i - 1] != '\\'))
			inq = !inq;
		if (!inq && s[i] == ';' && i && s[i - 1] != '\\')
			return 1;
	}
	return 0;
}

/*
 * The argument words U-Boot gives bootoctlinux for @s: escapes and single
 * quotes removed, split at blanks. $(var) stays as written (its value is
 * not known here); *@expands tells whether one was met.
 */
static int oct_uboot_argv(const char *s, struct words *argv, int *expands)
{
	size_t n = strlen(s), i, o = 0;
	char *buf = malloc(n + 1), c, prev = '\0';
	int inq = 0, ret = 0;
	const char *p;
	size_t len;

	if (!buf)
		return -1;
	*expands = 0;
	for (i = 0; i < n; i++) {
		c = s[i];
		if (!inq && c == '\\' && prev != '\\') {
			if (++i == n)
				break;
			prev = c;
			c = s[i];
		}
		if (c == '\'' && prev != '\\')
			inq = !inq;
		else
			buf[o++] = c;
		if (!inq && c == '$' && prev != '\\' && i + 1 < n &&
		    (s[i + 1] == '(' || s[i + 1] == '{'))
			*expands = 1;
		prev = c;
	}
	buf[o] = '\0';
	for (p = buf; *p && !ret;) {
		while (oct_blank(*p))
			p++;
		for (len = 0; p[len] && !oct_blank(p[len]); len++)
			;
		if (len && words_addn(argv, p, len))
			ret = -1;
		p += len;
	}
	free(buf);
	return ret;
}

static int oct_unescaped_quote(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (s[i] == '\'' && (!i || s[i - 1] != '\\'))
			return 1;
	return 0;
}

/* Strip optional surrounding single quotes (the form setenv is given). */
static char *oct_unquote(const char *base, int *quoted)
{
	size_t n;
	char *s;

	while (isspace((unsigned char)*base))
		base++;
	n = strlen(base);
	while (n && isspace((unsigned char)base[n - 1]))
		n--;
	*quoted = n >= 2 && base[0] == '\'' && base[n - 1] == '\'' &&
		  base[n - 2] != '\\';
	s = malloc(n + 1);
	if (!s)
		return NULL;
	memcpy(s, base + *quoted, n - 2 * *quoted);
	s[n - 2 * *quoted] = '\0';
	/* 'a' b 'c': the outer quotes are not one pair; keep it as written. */
	if (*quoted && oct_unescaped_quote(s)) {
		*quoted = 0;
		memcpy(s, base, n);
		s[n] = '\0';
	}
	return s;
}

/*
 * Is @w, word @nw of the command, still bootoctlinux's own (the address or
 * a leading option)? Sets c->endbootargs when it is the last one.
 */
static int oct_head_word(struct oct_cmd *c, size_t nw, const char *w)
{
	const char *opt = oct_option(w);

	if (c->endbootargs || (!opt && (nw > 1 || !oct_is_address(w))))
		return 0;
	if (opt && !strcmp(opt, "endbootargs"))
		c->endbootargs = 1;
	return 1;
}

/*
 * Where a command ends in @s at @i: an unescaped ';' outside single quotes
 * (the simple parser), or "&&" / "||" (hush). Returns its length, or 0.
 */
static size_t oct_separator(const char *s, size_t i, int inq)
{
	if (inq || (i && s[i - 1] == '\\'))
		return 0;
	if (s[i] == ';')
		return 1;
	if ((s[i] == '&' || s[i] == '|') && s[i + 1] == s[i])
		return 2;
	return 0;
}

/*
 * The one bootoctlinux command of a bootcmd of several (fatload ...;
 * bootoctlinux ...): its start and length in @text, blanks trimmed.
 */
static int oct_find_command(const char *text, size_t *start, size_t *len,
			    struct bt_error *e)
{
	size_t i = 0, from = 0, sep, found = 0, b, n;
	int inq = 0;

	for (;; i++) {
		sep = text[i] ? oct_separator(text, i, inq) : 1;
		if (text[i] == '\'' && (!i || text[i - 1] != '\\'))
			inq = !inq;
		if (!sep)
			continue;
		for (b = from; oct_blank(text[b]); b++)
			;
		for (n = i - b; n && oct_blank(text[b + n - 1]); n--)
			;
		if (n >= 12 && !strncmp(text + b, "bootoctlinux", 12) &&
		    (n == 12 || oct_blank(text[b + 12]))) {
			if (found++)
				return bt_error_set(e, BT_EXIT_INPUT, NULL, "--base holds more than one bootoctlinux command: give the line with the one that boots this kernel");
			*start = b;
			*len = n;
		}
		if (!text[i])
			break;
		i += sep - 1;
		from = i + 1;
	}
	for (b = 0; oct_blank(text[b]); b++)
		;
	for (n = 0; text[b + n] && !oct_blank(text[b + n]); n++)
		;
	if (!found && !n)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "--base is empty: give the bootoctlinux command to merge into");
	if (!found)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "--base must be a bootoctlinux command (bootoctlinux ADDR [options] kernel-args), or a bootcmd holding one (fatload ...; bootoctlinux ...), but it starts with '%.*s' and has none", (int)n, text + b);
	return 0;
}

/*
 * A command whose arguments end in '...' (bootoctlinux ADDR 'root=... ')
 * keeps the new words inside them: the quote pair is taken out of @seg
 * and its first word's index put in c->qword. Other quoting is refused.
 */
static int oct_inner_quote(char *seg, struct oct_cmd *c, struct bt_error *e)
{
	size_t n = strlen(seg), i, q[3], nq = 0, words = 0;

	c->qword = -1;
	for (i = 0; i < n; i++)
		if (seg[i] == '\'' && (!i || seg[i - 1] != '\\') && nq < 3)
			q[nq++] = i;
	if (!nq)
		return 0;
	if (nq != 2 || q[1] != n - 1 || !q[0] || !oct_blank(seg[q[0] - 1]))
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "the bootoctlinux command in --base is quoted in a way this compiler does not rewrite: only one '...' running from the start of an argument to the end of the command is kept (bootoctlinux ADDR 'args...')");
	for (i = 0; i < q[0]; i++)
		words += !oct_blank(seg[i]) && (!i || oct_blank(seg[i - 1]));
	c->qword = (long)words;
	memmove(seg + q[0], seg + q[0] + 1, n - q[0] - 2);
	seg[n - 2] = '\0';
	return 0;
}

static int oct_split_base(const char *text, struct oct_cmd *c,
			  struct bt_error *e)
{
	const char *p = text;
	size_t len, nw = 0;

	for (;;) {
		while (oct_blank(*p))
			p++;
		for (len = 0; p[len] && !oct_blank(p[len]); len++)
			;
		if (!len)
			break;
		if (nw == 0 && (len != 12 || strncmp(p, "bootoctlinux", 12)))
			return bt_error_set(e, BT_EXIT_INPUT, NULL,
					    "--base must be a bootoctlinux command (bootoctlinux ADDR [options] kernel-args), but it starts with '%.*s'", (int)len, p);
		if (words_addn(&c->head, p, len))
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		if (nw > 0 && !oct_head_word(c, nw, c->head.v[c->head.n - 1])) {
			words_remove(&c->head, c->head.n - 1);
			break;
		}
		p += len;
		nw++;
	}
	if (!nw)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "--base is empty: give the bootoctlinux command to merge into");
	c->nhead = c->head.n;
	if (words_split(&c->args, p))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return 0;
}

/* @w with '\', '\'', ';' and a '$' before '(' or '{' escaped by '\'. */
static char *oct_escape(const char *w)
{
	size_t i, o = 0, n = strlen(w);
	char *s = malloc(2 * n + 1);

	if (!s)
		return NULL;
	for (i = 0; i < n; i++) {
		if (w[i] == '\\' || w[i] == '\'' || w[i] == ';' ||
		    (w[i] == '$' && (w[i + 1] == '(' || w[i + 1] == '{')))
			s[o++] = '\\';
		s[o++] = w[i];
	}
	s[o] = '\0';
	return s;
}

/*
 * Escape kernel word @w for U-Boot into @out and prove it: the parser's
 * words for it, joined by single spaces as Octeon Linux does, must give
 * back @w byte for byte.
 */
static int oct_add_word(const char *w, int endbootargs, int inquote,
			struct words *out, int verbose, struct bt_error *e)
{
	struct words argv;
	char *esc = inquote ? strdup(w) : oct_escape(w), *back = NULL;
	char *parsed = esc ? malloc(strlen(esc) + 3) : NULL;
	int expands = 0, ok, ret = -1;

	words_init(&argv);
	if (parsed)	/* inside the command's '...', as U-Boot meets it */
		sprintf(parsed, inquote ? "'%s'" : "%s", esc);
	if (!parsed || oct_uboot_argv(parsed, &argv, &expands) ||
	    !(back = words_join(&argv))) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if (inquote && strchr(w, '\'')) {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "kernel word '%s' cannot go inside the quoted arguments of the bootoctlinux command in --base: a ' would end them; change the value, or take the quotes out of the command", w);
		goto out;
	}
	ok = !expands && !oct_has_separator(parsed) && !strcmp(back, w);
	if (!ok) {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "kernel word '%s' cannot go through bootoctlinux: U-Boot's simple parser splits at every space and tab (double quotes do not group) and undoes '\\' escapes, and Octeon Linux joins the pieces with one space, so the kernel would get '%s': use single spaces inside quoted values and no '\\\\', or the bootconfig target",
			     w, back);
		goto out;
	}
	if (!endbootargs && argv.n && oct_option(argv.v[0])) {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "kernel word '%s' would also be read by bootoctlinux as its own option '%s' (--base has no endbootargs): add endbootargs after the bootoctlinux options in --base", w,
			     oct_option(argv.v[0]));
		goto out;
	}
	if (verbose && strcmp(esc, w))
		bt_say(NULL, BT_SAY_PLAIN, "'%s' written as '%s' for U-Boot's parser", w, esc);
	ret = words_add(out, esc) ? bt_error_set(e, BT_EXIT_ENV, NULL,
						 "out of memory") : 0;
out:
	free(esc);
	free(parsed);
	free(back);
	words_free(&argv);
	return ret;
}

/* With -v, name the added words that replace nothing in --base. */
static void oct_tell_added(const struct words *args, const struct words *add)
{
	size_t i, n, dashes = words_dashes(args);
	char name[256];
	long j;

	for (i = 0; i < add->n; i++) {
		n = words_param_len(add->v[i]);
		if (n >= sizeof(name))
			continue;
		memcpy(name, add->v[i] + (add->v[i][0] == '"'), n);
		name[n] = '\0';
		j = words_find(args, name, 0);
		if (j < 0 || (size_t)j >= dashes)
			bt_say(NULL, BT_SAY_PLAIN, "added '%s'", add->v[i]);
	}
}

/* U-Boot's limits on the command as run (@line: no surrounding quotes). */
static int oct_check_uboot(const struct board *b, size_t len,
			   size_t nwords, int verbose, struct bt_error *e)
{
	if (b->uboot_max_words && nwords > b->uboot_max_words)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "the bootoctlinux command has %zu words, but U-Boot on board %s takes at most %u (CONFIG_SYS_MAXARGS, command and load address included; a space inside a quoted value starts a new word): trace fewer functions or events, put them in one list word (ftrace_filter=a,b), or drop words from --base", nwords, b->name,
				    b->uboot_max_words);
	if (b->uboot_cbsize && len + 1 > b->uboot_cbsize)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "the bootoctlinux command is %zu bytes (its whole line, every command of --base counted), but U-Boot on board %s reads at most %u (CONFIG_SYS_CBSIZE %u, the NUL included) and refuses it with '## Command too long!': trace fewer functions or events, or drop words from --base", len, b->name,
				    b->uboot_cbsize - 1, b->uboot_cbsize);
	if (verbose && (!b->uboot_max_words || !b->uboot_cbsize))
		bt_say(NULL, BT_SAY_PLAIN, "board %s gives no uboot.cbsize or uboot.max_words: U-Boot's limits are not checked",
			b->name);
	return 0;
}

/*
 * The kernel's limit on what Octeon Linux builds from @argv (from @start):
 * " word" each, mem= consumed, one byte kept free, and " console=..."
 * appended unchecked when no word holds "console=".
 */
static int oct_check_kernel(const struct board *b, const struct words *argv,
			    size_t start, struct bt_error *e)
{
	size_t i, len = 0;
	int console = 0;

	for (i = start; i < argv->n; i++) {
		const char *w = argv->v[i];

		if (!strncmp(w, "mem=", 4) || !strncmp(w, "MEM=", 4))
			continue;
		len += 1 + strlen(w);
		console |= strstr(w, "console=") != NULL;
	}
	len += console ? 1 : OCT_CONSOLE_ADD;
	return emit_check_kernel_len(b, len, console ?
		"the kernel's part of the bootoctlinux command (a space before each word and one spare byte, as Octeon Linux builds it)" :
		"the kernel's part of the bootoctlinux command (a space before each word, as Octeon Linux builds it, and the console= it adds)",
		e);
}

/* @line: the bootoctlinux command; @whole_len: the whole line it is in. */
static int oct_check(const struct emit_in *in, const struct oct_cmd *c,
		     const char *line, size_t whole_len, struct bt_error *e)
{
	struct words argv;
	int expands, ret;

	words_init(&argv);
	if (oct_uboot_argv(line, &argv, &expands)) {
		words_free(&argv);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	ret = oct_check_uboot(in->board, whole_len, argv.n, in->verbose, e);
	if (!ret)
		ret = oct_check_kernel(in->board, &argv,
				       c->endbootargs ? c->nhead : 0, e);
	words_free(&argv);
	return ret;
}

/* @w joined by spaces, from word @qword on (if >= 0) in '...'. */
static char *oct_join(const struct words *w, long qword)
{
	size_t i, len = words_join_len(w) + 3, o = 0;
	char *s = malloc(len);

	if (!s)
		return NULL;
	for (i = 0; i < w->n; i++) {
		if (i)
			s[o++] = ' ';
		if ((long)i == qword)
			s[o++] = '\'';
		memcpy(s + o, w->v[i], strlen(w->v[i]));
		o += strlen(w->v[i]);
	}
	if (qword >= 0 && (size_t)qword < w->n)
		s[o++] = '\'';
	s[o] = '\0';
	return s;
}

/* The merged command: head words, then the merged kernel words. */
static char *oct_build(const struct emit_in *in, struct oct_cmd *c,
		       struct bt_error *e)
{
	struct words add, merged;
	char *line = NULL;
	size_t i;

	words_init(&add);
	words_init(&merged);
	for (i = 0; i < in->kernel->n; i++)
		if (oct_add_word(in->kernel->v[i], c->endbootargs,
				 c->qword >= 0, &add, in->verbose, e))
			goto out;
	if (in->verbose)
		oct_tell_added(&c->args, &add);
	if (emit_merge(&c->args, &add, &merged, in->verbose, e))
		goto out;
	for (i = 0; i < merged.n; i++)
		if (words_add(&c->head, merged.v[i])) {
			bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			goto out;
		}
	line = oct_join(&c->head, c->qword);
	if (!line)
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
out:
	words_free(&add);
	words_free(&merged);
	return line;
}

int emit_bootoctlinux(const struct emit_in *in, struct bt_error *e)
{
	struct oct_cmd c = { 0 };
	char *text = NULL, *seg = NULL, *line = NULL;
	size_t start = 0, len = 0;
	struct outfile o;
	int ret = -1;

	if (!in->base)
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "-t bootoctlinux needs --base: the board's bootcmd holding the bootoctlinux command (from fw_printenv bootcmd or U-Boot's printenv), or board.cmdline.base in the board profile");
	words_init(&c.head);
	words_init(&c.args);
	text = oct_unquote(in->base, &c.quoted);
	if (!text) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if (oct_find_command(text, &start, &len, e))
		goto out;
	seg = malloc(len + 1);
	if (!seg) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	memcpy(seg, text + start, len);
	seg[len] = '\0';
	if (oct_inner_quote(seg, &c, e) || oct_split_base(seg, &c, e))
		goto out;
	if (c.qword > (long)c.nhead) {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "the quoted arguments of the bootoctlinux command in --base start after the kernel's first word: put the opening ' before the kernel's words (or before its options)");
		goto out;
	}
	line = oct_build(in, &c, e);
	if (!line || oct_check(in, &c, line, strlen(text) - len + strlen(line), e) ||
	    outfile_open(&o, in->out, e))
		goto out;
	fprintf(o.f, "%s%.*s%s%s%s\n", c.quoted ? "'" : "", (int)start, text, line,
		text + start + len, c.quoted ? "'" : "");
	ret = outfile_commit(&o, e);
out:
	free(text);
	free(seg);
	free(line);
	words_free(&c.head);
	words_free(&c.args);
	return ret;
}
