/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boottrace.ask word (ask.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "kernel/ask.h"
#include "kernel/words.h"

static const struct {
	enum bt_ask_kind kind;
	const char *name, *words;
} ask_kinds[] = {
	{ BT_ASK_CREATES, "who-creates", "who creates" },
	{ BT_ASK_CALLS, "who-calls", "who calls" },
};
#define NKINDS (sizeof(ask_kinds) / sizeof(ask_kinds[0]))

/* A field of @k's row: its name, or its words; "" for BT_ASK_NONE. */
static const char *ask_field(enum bt_ask_kind k, int words)
{
	size_t i;

	for (i = 0; i < NKINDS; i++)
		if (ask_kinds[i].kind == k)
			return words ? ask_kinds[i].words : ask_kinds[i].name;
	return "";
}

const char *bt_ask_kind_name(enum bt_ask_kind k)
{
	return ask_field(k, 0);
}

const char *bt_ask_kind_words(enum bt_ask_kind k)
{
	return ask_field(k, 1);
}

/*
 * No blank, quote, '=' or '#': the word is one word on the kernel's line
 * and in a bootconfig value, and the hook's and report's splitting stay
 * simple.
 */
static int ask_byte_ok(unsigned char c)
{
	return isalnum(c) || (c && strchr("_.-:,*+@", c));
}

int bt_ask_parse(const char *v, struct bt_ask *a, const char **why,
		 size_t *off)
{
	const char *colon = strchr(v, ':');
	size_t i, k, klen = colon ? (size_t)(colon - v) : strlen(v), n;

	memset(a, 0, sizeof(*a));
	*off = 0;
	for (k = 0; k < NKINDS; k++)
		if (strlen(ask_kinds[k].name) == klen &&
		    !strncmp(ask_kinds[k].name, v, klen))
			break;
	if (k == NKINDS || !colon) {
		*why = "is not KIND:OBJECT with KIND who-creates or who-calls (who-creates:bond0, who-calls:register_netdevice)";
		return -1;
	}
	n = strlen(colon + 1);
	*off = klen + 1;
	if (!n) {
		*why = "names no object after the ':' (a device for who-creates, a function for who-calls)";
		return -1;
	}
	if (n > BT_ASK_OBJECT_MAX) {
		*why = "has an object of more than 127 bytes";
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!ask_byte_ok((unsigned char)colon[1 + i])) {
			*off += i;
			*why = "holds a byte that is not a letter, digit or one of _ . - : , * + @ (the word must stay one word on the kernel's line and in a bootconfig)";
			return -1;
		}
	a->kind = ask_kinds[k].kind;
	memcpy(a->object, colon + 1, n + 1);
	return 0;
}

int bt_ask_from_cmdline(const char *cmdline, struct bt_ask *a,
			const char **why)
{
	char *line, *p, val[BT_ASK_OBJECT_MAX + 32];
	struct bconf_arg arg;
	size_t off;
	int found = 0;

	memset(a, 0, sizeof(*a));
	if (!cmdline || !(line = strdup(cmdline)))
		return 0;
	val[0] = 0;
	for (p = line; (p = bconf_cmdline_next(p, &arg));) {
		if (!strcmp(arg.param, "--"))	/* the words after it are init's */
			break;
		if (arg.val && words_parameq(arg.param, BT_ASK_PARAM, sizeof(BT_ASK_PARAM))) {
			snprintf(val, sizeof(val), "%s", arg.val);
			found = 1;
		}
	}
	free(line);
	if (!found)
		return 0;
	if (bt_ask_parse(val, a, why, &off)) {
		/* as far as it fits: the message shows its start */
		snprintf(a->object, sizeof(a->object), "%.*s", (int)sizeof(a->object) - 1, val);
		return -1;
	}
	return 1;
}
