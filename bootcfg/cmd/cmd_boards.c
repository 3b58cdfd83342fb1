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

/* The search path, on the help's stream. */
static void boards_epilog(FILE *f)
{
	struct board_path p;
	int i;

	fputs("BOOTTRACE_BOARDS=DIR:DIR... puts directories first. The search path here:\n", f);
	board_path(&p);
	for (i = 0; i < p.n; i++)
		fprintf(f, "  %s (%s)\n", p.dir[i], from_text[p.from[i]]);
	fputs("\nExit status: 0 listed, 1 a profile that cannot be read, 2 usage,\n"
	      "3 environment (I/O).\n", f);
}

static int cmd_boards(int argc, char **argv);

/* No options of its own: the common ones only. */
const struct cmd_verb cmd_boards_verb = {
	.name = "boards", .run = cmd_boards,
	.summary = "list board profiles and their limits",
	.about = "List the board profiles found along the search path, a name in two directories\n"
		 "being the first one's.\n",
	.verbose = "the search path and the file each profile is read from",
	.epilog = boards_epilog,
};

static int cmd_boards(int argc, char **argv)
{
	struct board b;
	struct bt_error e;
	int verbose, i, c;

	optind = 1;
	if ((c = cmd_getopt(argc, argv, &cmd_boards_verb)) != -1)
		return cmd_parse_exit(c == CMD_OPT_HELP ? CMD_HELP : CMD_BAD, &cmd_boards_verb);
	if (optind < argc) {
		bt_say(NULL, BT_SAY_ERROR, "no argument is taken ('%s')", argv[optind]);
		return cmd_parse_exit(CMD_BAD, &cmd_boards_verb);
	}
	verbose = bt_verbose();
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
	if (board_each(&b, boards_row, &verbose, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	return fflush(stdout) ? BT_EXIT_ENV : 0;
}
