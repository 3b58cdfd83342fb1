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

/*
 * `bootconfig -a` with the config text in memory (@len counts its NUL),
 * named @name in messages: replace @initrd's bootconfig atomically.
 * Prints what the kernel's tool prints on its stdout to @summary (compile
 * keeps its own stdout for the words the bootloader still needs); returns
 * an exit status.
 */
int bootconfig_apply_text(const char *name, const char *conf, size_t len,
			  const char *initrd, int force, FILE *summary);

#endif
