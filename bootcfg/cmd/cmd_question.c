// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_question.h: a question's words into the config that answers it. */
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd_question.h"
#include "util/grow.h"
#include "util/bt_error.h"

int cmd_question_arg(struct cmd_question *q, const char *arg)
{
	/* one slot more for who-creates' own argument */
	if (BT_GROW(q->args, q->nargs + 2, q->capargs) < 0) {
		bt_say(NULL, BT_SAY_ERROR, "out of memory");
		return -1;
	}
	q->args[q->nargs++] = arg;
	return 0;
}

int cmd_question_settle(struct cmd_question *q)
{
	if (q->creates && q->func) {
		bt_say(NULL, BT_SAY_ERROR, "who-creates %s is who-calls %s with its own argument: give one of them", q->creates, WHOCALLS_CREATES_FUNC);
		return -1;
	}
	if (q->creates)
		q->func = WHOCALLS_CREATES_FUNC;
	return 0;
}

/* Who-creates: the device's name is the probe's first argument, the user's own after it. */
static int cmd_question_creates(struct cmd_question *q, const struct board *b,
				struct bt_error *e)
{
	if (q->creates) {
		if (whocalls_creates(q->creates, b, q->creates_arg,
				     sizeof(q->creates_arg), e))
			return -1;
		if (!q->args && BT_GROW(q->args, 1, q->capargs) < 0)
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		memmove(q->args + 1, q->args, q->nargs * sizeof(*q->args));
		q->args[0] = q->creates_arg;
		q->nargs++;
		q->probe.object = q->creates;
	}
	q->probe.args = q->args;
	q->probe.nargs = q->nargs;
	return 0;
}

char *cmd_question_config(struct cmd_question *q, const struct board *b,
			  const struct kcaps *k, int bootconfig,
			  struct bt_error *e)
{
	if (cmd_question_creates(q, b, e))
		return NULL;
	return whocalls_config(q->func, q->callers, b, k,
			       whocalls_lineage_fits(b, bootconfig),
			       whocalls_ask_fits(b, bootconfig, q->creates != NULL,
						 q->creates ? q->creates : q->func),
			       q->crash, &q->probe, e);
}

void cmd_question_free(struct cmd_question *q)
{
	free(q->args);
	q->args = NULL;
	q->nargs = q->capargs = 0;
}
