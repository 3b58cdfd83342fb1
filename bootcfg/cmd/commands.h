/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verbs main() dispatches to; each returns an exit status (bt_error.h). */
#ifndef BT_COMMANDS_H
#define BT_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "util/bt_error.h"

/* argv[0] is the verb (or "bootconfig" for the symlink). */
int cmd_bootconfig(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_boards(int argc, char **argv);
int cmd_decompile(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);

#endif
