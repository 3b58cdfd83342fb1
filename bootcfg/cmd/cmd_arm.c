// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottrace arm-boot / disarm-boot: the compiled command line for the next
 * boot only, and the way back (arm/arm.h, docs/arm-boot.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm/arm.h"
#include "cmd/cmd_kernel.h"
#include "cmd/commands.h"
#include "compile/compile.h"

struct arm_args {
	struct arm_opts o;
	struct cmd_target t;	/* -b, -k, --kernel, --kernel-config, --allow-drop */
	const char *line, *config;
	int force;
};

enum { O_LOADER = CMD_O_VERB, O_ROOT, O_STATE, O_GRUBDIR, O_FWCONFIG, O_LINE, O_FORCE,
       O_ESP, O_EFIVARS, O_ENTRY };

static const struct cmd_opt arm_opts[] = {
	{ O_LOADER, 0, "loader", "LOADER", "the bootloader:",
	  CMD_OPT_KEY | CMD_OPT_NEEDED | CMD_OPT_INLINE, cmd_loader_value },
	CMD_ARG(0, "root", "DIR", O_ROOT, "GRUB's files and the state are under DIR (default /)"),
	CMD_ARG(0, "grub-dir", "DIR", O_GRUBDIR,
		"GRUB's directory under the root (default /boot/grub)"),
	CMD_ARG(0, "fw-config", "FILE", O_FWCONFIG,
		"libubootenv's fw_env.config (default /etc/fw_env.config)"),
	CMD_ARG(0, "esp", "DIR", O_ESP, "the ESP or XBOOTLDR under the root holding "
		"loader/entries (default the first of /efi, /boot, /boot/efi that has it)"),
	CMD_ARG(0, "efivars", "DIR", O_EFIVARS,
		"efivarfs under the root (default /sys/firmware/efi/efivars)"),
	CMD_ARG(0, "entry", "ID", O_ENTRY, "the entry to copy (default: LoaderEntryDefault, "
		"else loader.conf's default, else the only entry)"),
	CMD_ARG(0, "state", "DIR", O_STATE, "where the originals are kept until disarm-boot "
		"(default ROOT/var/lib/boottrace/arm-boot)"),
	CMD_ARG(0, "line", "LINE", O_LINE,
		"the whole kernel command line to boot once, instead of CONFIG"),
	CMD_OPT_END,
};

static const struct cmd_optgroup arm_groups[] = {
	{ NULL, arm_opts },
	{ "Compiling CONFIG (as compile)", cmd_opts_target },
	{ NULL, cmd_opts_image },
	{ NULL, NULL },
};

static const struct cmd_opt disarm_opts[] = {
	CMD_ARG(0, "root", "DIR", O_ROOT, "as given to arm-boot"),
	CMD_ARG(0, "state", "DIR", O_STATE, "as given to arm-boot"),
	CMD_FLAG(0, "force", O_FORCE, "restore even files changed since by someone else"),
	CMD_OPT_END,
};

static const struct cmd_optgroup disarm_groups[] = {
	{ NULL, disarm_opts },
	{ NULL, NULL },
};

static void arm_epilog(FILE *f)
{
	fputs("Exit status: 0 armed, 1 refused (the config, the loader's files, already\n"
	      "armed), 2 usage, 3 environment (a tool missing or failing, I/O).\n"
	      "See boottrace-arm-boot(1) and docs/arm-boot.md.\n", f);
}

static void disarm_epilog(FILE *f)
{
	fputs("Exit status: 0 restored, 1 nothing armed or the files changed since,\n"
	      "2 usage, 3 environment. See boottrace-arm-boot(1).\n", f);
}

static int cmd_arm_boot(int argc, char **argv);
static int cmd_disarm_boot(int argc, char **argv);

const struct cmd_verb cmd_arm_boot_verb = {
	.name = "arm-boot", .run = cmd_arm_boot, .operands = "CONFIG | --line LINE",
	.summary = "the compiled line for the next boot only",
	.about = "Install the command line CONFIG compiles to for the next boot only: a board\n"
		 "that does not come up boots normally on the next reset. The bootloader's\n"
		 "current line is the base the tracing words are merged into (as compile does).\n"
		 "boottrace disarm-boot puts every byte back.\n",
	.groups = arm_groups, .epilog = arm_epilog,
};

const struct cmd_verb cmd_disarm_boot_verb = {
	.name = "disarm-boot", .run = cmd_disarm_boot,
	.summary = "put back what arm-boot changed, byte for byte",
	.about = "Put back, byte for byte, every file boottrace arm-boot changed, also after the\n"
		 "bootloader took the one-shot; then remove the state.\n",
	.groups = disarm_groups, .epilog = disarm_epilog,
};

/* The option @c, into @a: 0, or -1 (a usage error, said). */
static int arm_take(struct arm_args *a, int c, const char *arg)
{
	if (cmd_target_take(&a->t, c, arg))
		return 0;
	switch (c) {
	case O_LOADER: a->o.loader = arg; break;
	case O_ROOT: a->o.root = arg; break;
	case O_STATE: a->o.state = arg; break;
	case O_GRUBDIR: a->o.grub_dir = arg; break;
	case O_FWCONFIG: a->o.fw_config = arg; break;
	case O_ESP: a->o.esp = arg; break;
	case O_EFIVARS: a->o.efivars = arg; break;
	case O_ENTRY: a->o.entry = arg; break;
	case O_LINE: a->line = arg; break;
	case O_FORCE: a->force = 1; break;
	default: return -1;
	}
	return 0;
}

static enum cmd_parse arm_parse(int argc, char **argv, struct arm_args *a, int disarm)
{
	int c;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, disarm ? &cmd_disarm_boot_verb : &cmd_arm_boot_verb)) != -1) {
		if (c == CMD_OPT_HELP)
			return CMD_HELP;
		if (arm_take(a, c, optarg))
			return CMD_BAD;
	}
	if (disarm) {
		if (optind < argc) {
			bt_say(NULL, BT_SAY_ERROR, "takes no CONFIG: it restores what arm-boot changed");
			return CMD_BAD;
		}
		return CMD_RUN;
	}
	if (optind < argc)
		a->config = argv[optind++];
	if (!a->o.loader) {
		bt_say(NULL, BT_SAY_ERROR, "give --loader (%s)", arm_loader_names());
		return CMD_BAD;
	}
	if (optind < argc || !a->config == !a->line) {
		bt_say(NULL, BT_SAY_ERROR, "give one CONFIG or --line LINE");
		return CMD_BAD;
	}
	if (a->line && (a->t.board || a->t.kver || a->t.kconfig || a->t.image || a->t.allow_drop)) {
		bt_say(NULL, BT_SAY_ERROR, "-b, -k, --kernel, --kernel-config and --allow-drop go with CONFIG, not --line (the line is taken as given)");
		return CMD_BAD;
	}
	return CMD_RUN;
}

/* CONFIG compiled for the loader's form and merged into its current line. */
static int arm_compile(const struct arm_args *a, char **line, struct bt_error *e)
{
	struct cmd_kernel kern = { .kver = a->t.kver, .kconfig = a->t.kconfig,
				   .image = a->t.image, .verbose = bt_verbose() };
	struct source src = { 0 };
	struct board b;
	int ret = -1;

	if (!cmd_kernel_load(&kern, e) &&
	    !(a->t.board ? board_load(a->t.board, &b, e) : (board_generic(&b), 0)) &&
	    !cmd_kernel_cmdline_size(&kern, &b, e) && !source_load(a->config, &src, e))
		ret = cmd_kernel_oneshot(&a->o, &kern, &b, &src, a->t.allow_drop, line, e);
	cmd_kernel_free(&kern);
	source_free(&src);
	return ret;
}

static int cmd_arm_boot(int argc, char **argv)
{
	struct arm_args a = { 0 };
	struct bt_error e;
	char *line = NULL;
	int ret;

	bt_error_clear(&e);
	ret = arm_parse(argc, argv, &a, 0);
	if (ret)
		return cmd_parse_exit(ret, &cmd_arm_boot_verb);
	if (!a.line && arm_compile(&a, &line, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	ret = arm_boot(&a.o, a.line ? a.line : line, &e);
	if (!ret)
		bt_say(NULL, BT_SAY_NOTE, "armed for the next boot: %s (boottrace disarm-boot puts everything back)", a.line ? a.line : line);
	free(line);
	return ret ? cmd_fail(&e, BT_EXIT_INPUT) : BT_EXIT_OK;
}

static int cmd_disarm_boot(int argc, char **argv)
{
	struct arm_args a = { 0 };
	struct bt_error e;
	int ret;

	bt_error_clear(&e);
	ret = arm_parse(argc, argv, &a, 1);
	if (ret)
		return cmd_parse_exit(ret, &cmd_disarm_boot_verb);
	if (arm_disarm(&a.o, a.force, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	return BT_EXIT_OK;
}
