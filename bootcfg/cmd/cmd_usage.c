/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one ending of a verb's option parse (commands.h). */
#include "cmd/commands.h"

int cmd_parse_exit(enum cmd_parse p, int (*usage)(FILE *f))
{
	if (p == CMD_HELP) {
		usage(stdout);
		return fflush(stdout) ? BT_EXIT_ENV : BT_EXIT_OK;
	}
	usage(stderr);
	return BT_EXIT_USAGE;
}
