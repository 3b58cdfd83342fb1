/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boottrace boards: the board profiles and their limits. */
#include <stdio.h>
#include <string.h>

#include "kernel/board.h"
#include "cmd/commands.h"

static int boards_row(const struct board *b, void *ctx)
{
	int verbose = *(int *)ctx;
	char limits[128] = "";
	size_t n = 0;

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
	if (verbose)
		printf("%-18s from %s\n", "", b->path);
	return 0;
}

static const char *const from_text[] = {
	[BOARD_FROM_ENV] = "$BOOTTRACE_BOARDS",
	[BOARD_FROM_ETC] = "the administrator's",
	[BOARD_FROM_TREE] = "the source tree (run from build/)",
	[BOARD_FROM_PREFIX] = "installed",
};

static int boards_usage(FILE *f)
{
	struct board_path p;
	int i;

	fputs("usage: boottrace boards [-v]\n", f);
	if (f != stdout)
		return 0;
	fputs("\nList the board profiles found along the search path, a name in two directories\n"
	      "being the first one's; -v, --verbose: the file each profile is read from.\n"
	      "BOOTTRACE_BOARDS=DIR:DIR... puts directories first. The search path here:\n", f);
	board_path(&p);
	for (i = 0; i < p.n; i++)
		printf("  %s (%s)\n", p.dir[i], from_text[p.from[i]]);
	return 0;
}

int cmd_boards(int argc, char **argv)
{
	struct board b;
	struct bt_error e;
	int verbose = 0, i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			verbose = 1;
		else
			return cmd_parse_exit(strcmp(argv[i], "-h") && strcmp(argv[i], "--help") ? CMD_BAD : CMD_HELP, boards_usage);
	}
	bt_error_clear(&e);
	if (verbose) {
		struct board_path p;

		board_path(&p);
		puts("search path, first match wins:");
		for (i = 0; i < p.n; i++)
			printf("  %s (%s)\n", p.dir[i], from_text[p.from[i]]);
	}
	printf("%-18s %-9s %-15s %-40s %s\n", "BOARD", "ARCH", "BOOTLOADER",
	       "LIMITS (bytes incl. NUL)", "DESCRIPTION");
	if (board_each(&b, boards_row, &verbose, &e)) {
		bt_error_print(&e, stderr);
		return e.code ? (int)e.code : 1;
	}
	return fflush(stdout) ? BT_EXIT_ENV : 0;
}
