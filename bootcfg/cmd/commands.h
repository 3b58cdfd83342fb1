/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verbs main() dispatches to; each returns an exit status (bt_error.h). */
#ifndef BT_COMMANDS_H
#define BT_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "util/bt_error.h"

/*
 * What a verb's option parser decided. Every verb ends a parse that is
 * not CMD_RUN with cmd_parse_exit, so --help and usage errors behave the
 * same everywhere: --help prints the usage on stdout and exits 0; a usage
 * error (after its one-line message) prints it on stderr and exits 2.
 */
enum cmd_parse { CMD_BAD = -1, CMD_RUN = 0, CMD_HELP = 1 };
int cmd_parse_exit(enum cmd_parse p, int (*usage)(FILE *f));

/* argv[0] is the verb (or "bootconfig" for the symlink). */
int cmd_bootconfig(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_boards(int argc, char **argv);
int cmd_decompile(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_collect(int argc, char **argv);

#endif
