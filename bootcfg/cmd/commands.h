/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The verbs main() dispatches to; each returns an exit status (bt_error.h). */
#ifndef BT_COMMANDS_H
#define BT_COMMANDS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd/cmd_opt.h"
#include "util/bt_error.h"

/*
 * What a verb's option parser decided. Every verb ends a parse that is
 * not CMD_RUN with cmd_parse_exit, so --help and usage errors behave the
 * same everywhere: --help prints the usage on stdout and exits 0; a usage
 * error (after its one-line message) prints it on stderr and exits 2.
 */
enum cmd_parse { CMD_BAD = -1, CMD_RUN = 0, CMD_HELP = 1 };
int cmd_parse_exit(enum cmd_parse p, const struct cmd_verb *v);

/*
 * getopt_long over @v's option table (cmd_opt.h) and the common options:
 * -q/--quiet and -v/--verbose set the voice's level (bt_voice_level) and
 * are consumed here, -h/--help returns CMD_OPT_HELP; an unknown option or
 * a missing argument is said in the one voice and returns CMD_OPT_BAD.
 * Else as getopt_long: the next option's id, -1 at the end (optind as
 * getopt leaves it). Reset optind to 1 before the first call.
 */
enum { CMD_OPT_HELP = -2, CMD_OPT_BAD = -3 };
int cmd_getopt(int argc, char **argv, const struct cmd_verb *v);

/*
 * The end of a verb that failed: @e printed once (when it has a message: an
 * empty one means the findings already said it all), its exit class
 * returned, or @fallback when it has none.
 */
int cmd_fail(const struct bt_error *e, enum bt_exit fallback);

/* Each verb's table and entry (argv[0] is the verb, or "bootconfig" for the symlink). */
extern const struct cmd_verb cmd_ask_verb, cmd_compile_verb, cmd_decompile_verb, cmd_bootconfig_verb,
	cmd_boards_verb, cmd_report_verb, cmd_collect_verb, cmd_check_verb,
	cmd_arm_boot_verb, cmd_disarm_boot_verb, cmd_try_verb;

#endif
