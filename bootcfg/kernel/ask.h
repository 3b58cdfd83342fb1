/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The question a boot asked: the command-line word
 * boottrace.ask=KIND:OBJECT (boottrace ask writes it; "who-creates:bond0",
 * "who-calls:register_netdevice"). The one reader of that word, for every
 * verb that shows a boot's question (report, its --list).
 */
#ifndef BT_ASK_H
#define BT_ASK_H

#include <stddef.h>

#define ASK_PARAM "boottrace.ask"

struct ask {
	char kind[32];		/* "who-creates" */
	char object[512];	/* "bond0": a function name may be long */
};

/*
 * Find the word in @cmdline (a /proc/cmdline: words split as the kernel
 * splits them, none after "--", which are init's). When it is there more
 * than once the last counts, as for any repeated parameter. 1 with *@ask
 * filled; 0 when the boot asked nothing; -1 when the word is there but is
 * not KIND:OBJECT, with *@why saying what is wrong with it.
 */
int ask_find(const char *cmdline, struct ask *ask, const char **why);

#endif /* BT_ASK_H */
