/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The question a boot carries: the word boottrace.ask=KIND:OBJECT on its
 * command line (boottrace.ask = "KIND:OBJECT" in a config), KIND one of
 * who-creates (OBJECT a network device) or who-calls (OBJECT a function
 * list, as --who-calls takes it). compile --who-creates/--who-calls write
 * it, the hook ignores it, and report reads it back from the snapshot's
 * cmdline to say first whether its window can hold the answer. The one
 * home of the word's grammar: plan/ checks a config's value with it,
 * report/ parses the boot's line with it.
 */
#ifndef BT_ASK_H
#define BT_ASK_H

#include <stddef.h>

#define BT_ASK_PARAM "boottrace.ask"
/* OBJECT's bytes at most: a device name is 15, a function list is short */
#define BT_ASK_OBJECT_MAX 127

enum bt_ask_kind { BT_ASK_NONE, BT_ASK_CREATES, BT_ASK_CALLS };

struct bt_ask {
	enum bt_ask_kind kind;
	char object[BT_ASK_OBJECT_MAX + 1];
};

/* "who-creates", "who-calls" (the word's KIND). */
const char *bt_ask_kind_name(enum bt_ask_kind k);
/* "who creates", "who calls" (the question in words). */
const char *bt_ask_kind_words(enum bt_ask_kind k);
/*
 * Parse the value @v ("who-creates:bond0") into @a. 0, or -1 with *@why
 * (static text) and *@off (the byte of @v at fault).
 */
int bt_ask_parse(const char *v, struct bt_ask *a, const char **why,
		 size_t *off);
/*
 * The question of command line @cmdline (the last boottrace.ask word, as
 * the kernel keeps the last of a repeated parameter): 1 with @a filled,
 * 0 when the line asks nothing, -1 when its word is malformed (*@why,
 * with the value in @a->object as far as it fits).
 */
int bt_ask_from_cmdline(const char *cmdline, struct bt_ask *a,
			const char **why);

#endif /* BT_ASK_H */
