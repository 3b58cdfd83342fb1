/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel command line as an ordered list of words, each kept exactly as
 * it is written on the line (quotes included). Every target form is built
 * from one of these; merging replaces a parameter instead of repeating it,
 * because a repeated kernel parameter silently overrides the earlier one.
 */
#ifndef BT_WORDS_H
#define BT_WORDS_H

#include <stddef.h>

#include "util/bt_error.h"

struct words {
	char **v;
	size_t n, cap;
};

void words_init(struct words *w);
void words_free(struct words *w);
/* Append a copy of @word (written form). 0, or -1 on allocation failure. */
int words_add(struct words *w, const char *word);
int words_addn(struct words *w, const char *word, size_t len);
/*
 * Append param=val quoted so the kernel gives back exactly @val (NULL @val:
 * a bare "param"). -1 with @e naming @what (the setting, for the message)
 * when the kernel cannot carry the value.
 */
int words_add_param(struct words *w, const char *param, const char *val,
		    const char *what, struct bt_error *e);
/*
 * The one check of a value written into bootconfig text (every key family):
 * the quote character to write it in ('"', or '\'' when it holds a '"'),
 * or 0 with *@why when no quoting gives it back (bootconfig has no escape,
 * so a value with both quote kinds cannot be written, nor a byte the
 * bootconfig parser refuses).
 */
char words_bconf_quote(const char *val, const char **why);
/*
 * kernel.PARAM = VAL (or init.PARAM) in a bootconfig: the kernel makes the
 * command-line word PARAM=VAL of it, quoted only when VAL holds whitespace
 * (xbc_snprint_cmdline, docs/kernel-facts.md 19). 0 when that word, split
 * as the kernel splits the command line, gives back exactly PARAM and VAL
 * and the command line can carry VAL at all (words_add_param's rules);
 * else -1 with @e naming @what.
 */
int words_check_from_bconf(const char *param, const char *val,
			   const char *what, struct bt_error *e);
/* Split @line into words as the kernel does, keeping each word as written. */
int words_split(struct words *w, const char *line);
/* The parameter name of a written word ("a" for a="b c", a, "a=b"). */
size_t words_param_len(const char *word);
/* The kernel's parameq() on @n bytes: '-' and '_' are the same in names. */
int words_parameq(const char *a, const char *b, size_t n);
/* Index of the first word whose parameter name is @param, or -1. */
long words_find(const struct words *w, const char *param, size_t from);
/* Index of the first "--" of @w (init's arguments follow it), or w->n. */
size_t words_dashes(const struct words *w);
/* Remove word @i. */
void words_remove(struct words *w, size_t i);
/* Length of the words joined by single spaces (no NUL). */
size_t words_join_len(const struct words *w);
/* The words joined by single spaces; malloc'd, NULL on allocation failure. */
char *words_join(const struct words *w);

#endif /* BT_WORDS_H */
