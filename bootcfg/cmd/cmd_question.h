/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A question as compile (--who-calls, --who-creates) and ask (who-calls,
 * who-creates) take it, and the config that answers it (compile/whocalls.h):
 * one way from the words to the config, for both verbs.
 */
#ifndef BT_CMD_QUESTION_H
#define BT_CMD_QUESTION_H

#include <stddef.h>

#include "compile/whocalls.h"
#include "kernel/board.h"
#include "kernel/kcaps.h"
#include "util/bt_error.h"

struct cmd_question {
	const char *func;	/* who calls FUNC ("a,b"); who-creates sets it */
	const char *creates;	/* who creates NETDEV */
	const char *callers;	/* parent-chain callers, NULL: none */
	const char *crash;	/* console, persistent, NULL */
	const char **args;	/* NAME=FETCH, in order */
	size_t nargs, capargs;
	char creates_arg[64];	/* who-creates' own argument, the first */
	struct whocalls_probe probe;
};

/* One more NAME=FETCH. 0, or -1 (out of memory, said). */
int cmd_question_arg(struct cmd_question *q, const char *arg);
/*
 * Who-creates into who-calls (its function, its argument first): 0, or
 * -1 having said why (both given).
 */
int cmd_question_settle(struct cmd_question *q);
/*
 * The config text (malloc'd) answering @q on board @b and kernel @k;
 * @bootconfig: it goes into a bootconfig (the lineage always fits).
 * NULL with @e.
 */
char *cmd_question_config(struct cmd_question *q, const struct board *b,
			  const struct kcaps *k, int bootconfig,
			  struct bt_error *e);
void cmd_question_free(struct cmd_question *q);

#endif
