/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line word lists (words.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "kernel/words.h"
#include "util/grow.h"

void words_init(struct words *w)
{
	w->v = NULL;
	w->n = 0;
	w->cap = 0;
}

void words_free(struct words *w)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	words_init(w);
}

int words_addn(struct words *w, const char *word, size_t len)
{
	char *copy;

	if (BT_GROW(w->v, w->n + 1, w->cap) < 0)
		return -1;
	copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, word, len);
	copy[len] = '\0';
	w->v[w->n++] = copy;
	return 0;
}

int words_add(struct words *w, const char *word)
{
	return words_addn(w, word, strlen(word));
}

int words_add_param(struct words *w, const char *param, const char *val,
		    const char *what, struct bt_error *e)
{
	struct bconf_error pe;
	char small[256], *buf = small;
	int n, ret;

	n = bconf_cmdline_quote(param, val, small, sizeof(small), &pe);
	if (n < 0)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s: %s", what,
				    pe.msg);
	if ((size_t)n >= sizeof(small)) {
		buf = malloc((size_t)n + 1);
		if (!buf)
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		bconf_cmdline_quote(param, val, buf, (size_t)n + 1, &pe);
	}
	ret = words_addn(w, buf, (size_t)n);
	if (buf != small)
		free(buf);
	if (ret)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return 0;
}

char words_bconf_quote(const char *val, const char **why)
{
	const char *c;

	for (c = val; *c; c++) {
		unsigned char b = (unsigned char)*c;

		/* Printable ASCII or a space of both parsers' ctype tables. */
		if ((b < 0x20 && !(b >= '\t' && b <= '\r')) || b >= 0x7f) {
			*why = "a bootconfig value may hold only printable ASCII and whitespace";
			return 0;
		}
	}
	if (!strchr(val, '"'))
		return '"';
	if (!strchr(val, '\''))
		return '\'';
	*why = "a value with both quote kinds ('\"' and \"'\") cannot be written in bootconfig, which has no escape";
	return 0;
}

int words_check_from_bconf(const char *param, const char *val,
			   const char *what, struct bt_error *e)
{
	struct bconf_error pe;
	struct bconf_arg arg;
	const char *q;
	char *word, *rest;
	size_t plen = strlen(param), vlen = val ? strlen(val) : 0;
	int same;

	/* What the command line cannot carry, whoever writes it. */
	if (bconf_cmdline_quote(param, val, NULL, 0, &pe) < 0)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s: %s", what, pe.msg);
	if (!val)
		return 0;
	q = strpbrk(val, " \t\r\n") ? "\"" : "";
	word = malloc(plen + vlen + 5);
	if (!word)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	sprintf(word, "%s=%s%s%s ", param, q, val, q);
	rest = bconf_cmdline_next(word, &arg);
	same = rest && !*rest && !strcmp(arg.param, param) && arg.val &&
	       !strcmp(arg.val, val);
	free(word);
	if (!same)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s: the kernel turns a bootconfig value into the command-line word %s=VALUE, quoted only when it holds whitespace, and this value would come back changed (a leading '\"' is dropped): use a value without quotes at its start",
				    what, param);
	return 0;
}

int words_split(struct words *w, const char *line)
{
	const char *word;
	size_t len;

	while ((len = bconf_cmdline_span(line, &word)) > 0) {
		if (words_addn(w, word, len))
			return -1;
		line = word + len;
	}
	return 0;
}

size_t words_param_len(const char *word)
{
	/* The kernel drops a leading quote of the whole word: "a=b c". */
	const char *s = word + (word[0] == '"');
	size_t i = 0;

	while (s[i] && s[i] != '=' && s[i] != '"')
		i++;
	return i;
}

int words_parameq(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char x = a[i] == '-' ? '_' : a[i];
		char y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return 0;
	}
	return 1;
}

size_t words_dashes(const struct words *w)
{
	size_t i;

	for (i = 0; i < w->n && strcmp(w->v[i], "--"); i++)
		;
	return i;
}

long words_find(const struct words *w, const char *param, size_t from)
{
	size_t i, plen = strlen(param);

	for (i = from; i < w->n; i++) {
		const char *s = w->v[i] + (w->v[i][0] == '"');

		if (words_param_len(w->v[i]) == plen &&
		    words_parameq(s, param, plen))
			return (long)i;
	}
	return -1;
}

void words_remove(struct words *w, size_t i)
{
	if (i >= w->n)
		return;
	free(w->v[i]);
	memmove(w->v + i, w->v + i + 1, (w->n - i - 1) * sizeof(*w->v));
	w->n--;
}

size_t words_join_len(const struct words *w)
{
	size_t i, len = 0;

	for (i = 0; i < w->n; i++)
		len += strlen(w->v[i]) + (i > 0);
	return len;
}

char *words_join(const struct words *w)
{
	size_t i, len = words_join_len(w), at = 0;
	char *s = malloc(len + 1);

	if (!s)
		return NULL;
	for (i = 0; i < w->n; i++) {
		size_t l = strlen(w->v[i]);

		if (i)
			s[at++] = ' ';
		memcpy(s + at, w->v[i], l);
		at += l;
	}
	s[at] = '\0';
	return s;
}
