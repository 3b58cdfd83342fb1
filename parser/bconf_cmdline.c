/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel command line as the kernel splits it: the word rules of
 * next_arg() (lib/cmdline.c), reproduced byte for byte including the NULs it
 * writes into the buffer, and a quoter that only emits what those rules give
 * back unchanged.
 *
 * Whitespace is ASCII (space, \t, \n, \v, \f, \r). The kernel's own ctype
 * table also counts 0xa0 (Latin-1 NBSP) as a space; the quoter refuses all
 * bytes >= 0x80, so nothing it writes can split differently at boot.
 */
#include <limits.h>
#include <string.h>

#include "bconf.h"

static int bconf_cmdline_isspace(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static char *bconf_cmdline_skip_space(char *s)
{
	while (bconf_cmdline_isspace(*s))
		s++;
	return s;
}

/*
 * Length of the word at @w and, in *@eq, the index of its first '=' other
 * than at index 0 (0 if there is none): next_arg() uses 0 as "no '=' yet",
 * so a '=' in front is part of the name, and only a later one splits.
 * A '"' toggles quoting anywhere in the word, so quotes in the middle of a
 * word glue spaces into it as well.
 */
static size_t bconf_cmdline_scan(const char *w, int in_quote, size_t *eq)
{
	size_t i;

	*eq = 0;
	for (i = 0; w[i]; i++) {
		if (!in_quote && bconf_cmdline_isspace(w[i]))
			break;
		if (!*eq && i && w[i] == '=')
			*eq = i;
		if (w[i] == '"')
			in_quote = !in_quote;
	}
	return i;
}

/*
 * Leading whitespace is skipped first, as parse_args() does before its first
 * next_arg(); next_arg() itself would turn it into an empty word. Every
 * later call gets a pointer that is already past the spaces.
 */
char *bconf_cmdline_next(char *line, struct bconf_arg *arg)
{
	char *w;
	size_t len, eq;
	int quoted;

	if (!line)
		return NULL;
	line = bconf_cmdline_skip_space(line);
	if (!*line)
		return NULL;

	/* An opening quote is dropped; its partner, if last, goes too. */
	quoted = *line == '"';
	w = line + quoted;
	len = bconf_cmdline_scan(w, quoted, &eq);

	arg->param = w;
	arg->val = NULL;
	if (eq) {
		w[eq] = '\0';
		arg->val = w + eq + 1;
		/* param="v a l": the value's quotes are not part of it. */
		if (*arg->val == '"') {
			arg->val++;
			if (w[len - 1] == '"')
				w[len - 1] = '\0';
		}
	}
	if (quoted && len && w[len - 1] == '"')
		w[len - 1] = '\0';

	if (!w[len])
		return w + len;
	w[len] = '\0';
	return bconf_cmdline_skip_space(w + len + 1);
}

size_t bconf_cmdline_span(const char *line, const char **word)
{
	size_t eq;

	while (bconf_cmdline_isspace(*line))
		line++;
	*word = line;
	/* A leading '"' toggles quoting as it does in bconf_cmdline_next(). */
	return bconf_cmdline_scan(line, 0, &eq);
}

/* Why @c cannot appear in a name, or NULL if it can. */
static const char *bconf_cmdline_bad_name_char(unsigned char c)
{
	if (c == '\n')
		return "kernel parameter name contains a newline";
	if (c == ' ')
		return "kernel parameter name contains a space";
	if (c < 0x20 || c >= 0x7f)
		return "kernel parameter name contains a non-printable byte";
	if (c == '=')
		return "kernel parameter name contains '=': the kernel splits the value off at the first one";
	if (c == '"')
		return "kernel parameter name contains '\"': the kernel treats it as a quote";
	return NULL;
}

/*
 * Check @val; returns NULL if the kernel can carry it, else why not, with
 * the offending byte's offset in *@at. *@space tells the caller to quote.
 */
static const char *bconf_cmdline_check_val(const char *val, size_t *at,
					   int *space)
{
	size_t i, quotes = 0, first_quote = 0;

	*space = 0;
	for (i = 0; val[i]; i++) {
		unsigned char c = (unsigned char)val[i];

		*at = i;
		if (c == '\n')
			return "kernel parameter value contains a newline: the command line cannot carry it";
		/*
		 * Tab and the other control characters would survive inside
		 * quotes, but bootloaders and /proc/cmdline readers mangle
		 * them: only printable ASCII goes through.
		 */
		if (c < 0x20 || c >= 0x7f)
			return "kernel parameter value contains a non-printable byte: only printable ASCII is allowed";
		if (c == ' ')
			*space = 1;
		if (c == '"' && !quotes++)
			first_quote = i;
	}
	*at = first_quote;
	/*
	 * Quotes do not nest and cannot be escaped: inside "..." a '"' ends
	 * the quoting and the next space ends the word.
	 */
	if (*space && quotes)
		return "kernel parameter value contains both '\"' and whitespace: the kernel cannot quote that";
	/* An odd count leaves the quote open and swallows the next words. */
	if (quotes % 2)
		return "kernel parameter value contains an unbalanced '\"': it would glue the following parameters onto this one";
	return NULL;
}

static int bconf_cmdline_refuse(struct bconf_error *err, const char *msg,
				long pos, char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	if (err) {
		err->msg = msg;
		err->pos = pos;
		err->line = 0;
		err->col = 0;
	}
	return -1;
}

/* Append what still fits before @end: snprintf's truncation. */
static void bconf_cmdline_put(char **p, const char *end, const char *s,
			      size_t n)
{
	size_t room = (size_t)(end - *p);

	if (n > room)
		n = room;
	memcpy(*p, s, n);
	*p += n;
}

/*
 * err->pos is the offset of the offending byte in the unquoted word
 * "param=val", so a caller can point into what the user wrote.
 * An empty value is written as "param=", which the kernel reads as "".
 */
int bconf_cmdline_quote(const char *param, const char *val, char *buf,
			size_t size, struct bconf_error *err)
{
	size_t plen, vlen, at, i;
	const char *why;
	int space, wrap;
	int n;

	if (!param || !*param)
		return bconf_cmdline_refuse(err,
			"kernel parameter name is empty", -1, buf, size);
	if (!buf && size)
		return bconf_cmdline_refuse(err,
			"no buffer to write the parameter to", -1, buf, 0);
	plen = strlen(param);
	for (i = 0; i < plen; i++) {
		why = bconf_cmdline_bad_name_char((unsigned char)param[i]);
		if (why)
			return bconf_cmdline_refuse(err, why, (long)i, buf,
						    size);
	}

	vlen = 0;
	wrap = 0;
	if (val) {
		why = bconf_cmdline_check_val(val, &at, &space);
		if (why)
			return bconf_cmdline_refuse(err, why,
						    (long)(plen + 1 + at),
						    buf, size);
		vlen = strlen(val);
		/* A leading '"' would be eaten as an opening quote. */
		wrap = space || val[0] == '"';
	}
	if (plen + vlen + 3 > (size_t)INT_MAX)
		return bconf_cmdline_refuse(err,
			"kernel parameter is too long", -1, buf, size);

	n = (int)(plen + (val ? 1 + vlen + 2 * wrap : 0));
	if (size) {
		char *p = buf;
		const char *end = buf + size - 1;

		bconf_cmdline_put(&p, end, param, plen);
		if (val) {
			bconf_cmdline_put(&p, end, "=", 1);
			bconf_cmdline_put(&p, end, "\"", wrap);
			bconf_cmdline_put(&p, end, val, vlen);
			bconf_cmdline_put(&p, end, "\"", wrap);
		}
		*p = '\0';
	}
	return n;
}
