/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boottrace boards: the board profiles and their limits. */
#include <stdio.h>
#include <string.h>

#include "kernel/board.h"
#include "cmd/commands.h"

static int boards_row(const struct board *b, void *ctx)
{
	char limits[128] = "";
	size_t n = 0;

	(void)ctx;
	n += snprintf(limits + n, sizeof(limits) - n, "cmdline %u", b->cmdline_max);
	if (b->cmdline_loader)
		n += snprintf(limits + n, sizeof(limits) - n, " (loader %u)", b->cmdline_loader);
	if (b->uboot_cbsize)
		n += snprintf(limits + n, sizeof(limits) - n, ", CBSIZE %u",
			      b->uboot_cbsize);
	if (b->uboot_max_words)
		n += snprintf(limits + n, sizeof(limits) - n, ", %u words",
			      b->uboot_max_words);
	if (b->env_size)
		snprintf(limits + n, sizeof(limits) - n, ", env %u%s%s", b->env_size,
			 b->env_big_endian ? " BE" : "",
			 b->env_redundant ? " redundant" : "");
	printf("%-18s %-9s %-15s %-40s %s%s\n", b->name, b->arch, b->bootloader,
	       limits, b->title, b->ftrace_stack_zero ?
	       " [ftrace stacks all zero: parent-chain mode]" : "");
	return 0;
}

static int boards_usage(FILE *f)
{
	char dir[4096];

	fputs("usage: boottrace boards\n", f);
	if (f == stdout)
		printf("\nList the board profiles in %s (set BOOTTRACE_BOARD_DIR to use another directory).\n", board_dir(dir, sizeof(dir)));
	return 0;
}

int cmd_boards(int argc, char **argv)
{
	struct board b;
	struct bt_error e;

	if (argc > 1)
		return cmd_parse_exit(strcmp(argv[1], "-h") && strcmp(argv[1], "--help") ? CMD_BAD : CMD_HELP, boards_usage);
	bt_error_clear(&e);
	printf("%-18s %-9s %-15s %-40s %s\n", "BOARD", "ARCH", "BOOTLOADER",
	       "LIMITS (bytes incl. NUL)", "DESCRIPTION");
	if (board_each(&b, boards_row, NULL, &e)) {
		bt_error_print(&e, stderr);
		return e.code ? (int)e.code : 1;
	}
	return fflush(stdout) ? BT_EXIT_ENV : 0;
}
