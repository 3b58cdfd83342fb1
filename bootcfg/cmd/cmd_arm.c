// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottrace arm-boot / disarm-boot: the compiled command line for the next
 * boot only, and the way back (arm/arm.h, docs/arm-boot.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arm/arm.h"
#include "cmd/commands.h"
#include "compile/compile.h"

struct arm_args {
	struct arm_opts o;
	const char *board, *kver, *kconfig, *line, *config;
	int allow_drop, force;
};

static int arm_usage(FILE *f)
{
	fputs("usage: boottrace arm-boot --loader grub|uboot-env|systemd-boot [--root DIR]\n"
	      "                          [--state DIR] [--grub-dir DIR] [--fw-config FILE]\n"
	      "                          [--esp DIR] [--efivars DIR] [--entry ID] [-b BOARD] [-k KVER]\n"
	      "                          [--kernel-config FILE] [--allow-drop] CONFIG | --line LINE\n\n"
	      "Install the command line CONFIG compiles to for the next boot only: a board\n"
	      "that does not come up boots normally on the next reset. The bootloader's\n"
	      "current line is the base the tracing words are merged into (as compile does).\n"
	      "boottrace disarm-boot puts every byte back.\n\n"
	      "  --loader grub      a menu entry 'boottrace one-shot' (id boottrace-oneshot) in\n"
	      "                     GRUB's custom.cfg, made from grub.cfg's first entry, and\n"
	      "                     next_entry in grubenv (as grub-reboot; grub-editenv writes\n"
	      "                     it when installed)\n"
	      "  --loader uboot-env boottrace_oneshot, boottrace_bootcmd and a bootcmd that takes\n"
	      "                     the one-shot once, by fw_setenv on the environment of\n"
	      "                     --fw-config (default /etc/fw_env.config)\n"
	      "  --loader systemd-boot  a loader entry boottrace-oneshot.conf in the ESP, a copy\n"
	      "                     of the default entry with the one-shot options line, and\n"
	      "                     the EFI variable LoaderEntryOneShot naming it (what\n"
	      "                     bootctl set-oneshot sets; systemd-boot deletes it at boot)\n"
	      "  --root DIR         GRUB's files and the state are under DIR (default /)\n"
	      "  --grub-dir DIR     GRUB's directory under the root (default /boot/grub)\n"
	      "  --fw-config FILE   libubootenv's fw_env.config (default /etc/fw_env.config)\n"
	      "  --esp DIR          the ESP or XBOOTLDR under the root holding loader/entries\n"
	      "                     (default the first of /efi, /boot, /boot/efi that has it)\n"
	      "  --efivars DIR      efivarfs under the root (default /sys/firmware/efi/efivars)\n"
	      "  --entry ID         the entry to copy (default: LoaderEntryDefault, else\n"
	      "                     loader.conf's default, else the only entry)\n"
	      "  --state DIR        where the originals are kept until disarm-boot\n"
	      "                     (default ROOT/var/lib/boottrace/arm-boot)\n"
	      "  --line LINE        the whole kernel command line to boot once, instead of CONFIG\n"
	      "  -b, -k, --kernel-config, --allow-drop  as for compile\n", f);
	cmd_common_usage(f);
	fputs("\nExit status: 0 armed, 1 refused (the config, the loader's files, already\n"
	      "armed), 2 usage, 3 environment (a tool missing or failing, I/O).\n"
	      "See boottrace-arm-boot(1) and docs/arm-boot.md.\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

static int disarm_usage(FILE *f)
{
	fputs("usage: boottrace disarm-boot [--root DIR] [--state DIR] [--force]\n\n"
	      "Put back, byte for byte, every file boottrace arm-boot changed, also after the\n"
	      "bootloader took the one-shot; then remove the state.\n\n"
	      "  --root DIR    as given to arm-boot\n"
	      "  --state DIR   as given to arm-boot\n"
	      "  --force       restore even files changed since by someone else\n", f);
	cmd_common_usage(f);
	fputs("\nExit status: 0 restored, 1 nothing armed or the files changed since,\n"
	      "2 usage, 3 environment. See boottrace-arm-boot(1).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

enum { O_LOADER = 256, O_ROOT, O_STATE, O_GRUBDIR, O_FWCONFIG, O_LINE, O_KCONFIG,
       O_DROP, O_FORCE, O_ESP, O_EFIVARS, O_ENTRY };

static enum cmd_parse arm_parse(int argc, char **argv, struct arm_args *a, int disarm)
{
	static const struct option arm_opts[] = {
		{ "loader", required_argument, NULL, O_LOADER },
		{ "root", required_argument, NULL, O_ROOT },
		{ "state", required_argument, NULL, O_STATE },
		{ "grub-dir", required_argument, NULL, O_GRUBDIR },
		{ "fw-config", required_argument, NULL, O_FWCONFIG },
		{ "esp", required_argument, NULL, O_ESP },
		{ "efivars", required_argument, NULL, O_EFIVARS },
		{ "entry", required_argument, NULL, O_ENTRY },
		{ "line", required_argument, NULL, O_LINE },
		{ "board", required_argument, NULL, 'b' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "kernel-config", required_argument, NULL, O_KCONFIG },
		{ "allow-drop", no_argument, NULL, O_DROP },
		{ NULL, 0, NULL, 0 },
	};
	static const struct option disarm_opts[] = {
		{ "root", required_argument, NULL, O_ROOT },
		{ "state", required_argument, NULL, O_STATE },
		{ "force", no_argument, NULL, O_FORCE },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, disarm ? "" : "b:k:",
			       disarm ? disarm_opts : arm_opts)) != -1) {
		switch (c) {
		case CMD_OPT_HELP: return CMD_HELP;
		case O_LOADER: a->o.loader = optarg; break;
		case O_ROOT: a->o.root = optarg; break;
		case O_STATE: a->o.state = optarg; break;
		case O_GRUBDIR: a->o.grub_dir = optarg; break;
		case O_FWCONFIG: a->o.fw_config = optarg; break;
		case O_ESP: a->o.esp = optarg; break;
		case O_EFIVARS: a->o.efivars = optarg; break;
		case O_ENTRY: a->o.entry = optarg; break;
		case O_LINE: a->line = optarg; break;
		case 'b': a->board = optarg; break;
		case 'k': a->kver = optarg; break;
		case O_KCONFIG: a->kconfig = optarg; break;
		case O_DROP: a->allow_drop = 1; break;
		case O_FORCE: a->force = 1; break;
		default: return CMD_BAD;
		}
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
		bt_say(NULL, BT_SAY_ERROR, "give --loader (%s)", ARM_LOADERS);
		return CMD_BAD;
	}
	if (optind < argc || !a->config == !a->line) {
		bt_say(NULL, BT_SAY_ERROR, "give one CONFIG or --line LINE");
		return CMD_BAD;
	}
	if (a->line && (a->board || a->kver || a->kconfig || a->allow_drop)) {
		bt_say(NULL, BT_SAY_ERROR, "-b, -k, --kernel-config and --allow-drop go with CONFIG, not --line (the line is taken as given)");
		return CMD_BAD;
	}
	return CMD_RUN;
}

/* CONFIG compiled for the loader's form and merged into its current line. */
static int arm_compile(const struct arm_args *a, char **line, struct bt_error *e)
{
	/* the words each loader's file can hold (bls: an entry's options line) */
	const struct emit_target *t = emit_find(!strcmp(a->o.loader, "grub") ? "grub" :
						!strcmp(a->o.loader, "systemd-boot") ? "bls" : "uboot-env");
	struct route_opts ro = { 0 };
	struct source src = { 0 };
	struct board b;
	struct kcaps k;
	char *base = NULL;
	int ret = -1;

	memset(&k, 0, sizeof(k));
	if ((a->kver && kcaps_set_version(&k, a->kver, e)) ||
	    (a->kconfig && kcaps_load_config(&k, a->kconfig, e)))
		return -1;
	if (a->board ? board_load(a->board, &b, e) : (board_generic(&b), 0))
		return -1;
	if (arm_base(&a->o, &base, e) || source_load(a->config, &src, e))
		goto out;
	if (bt_verbose())
		bt_say(NULL, BT_SAY_PLAIN, "merging into the %s line: %s", a->o.loader, base);
	ro.allow_drop = a->allow_drop;
	ro.verbose = bt_verbose();
	ret = compile_line(&src, &k, &b, t, &ro, base, line, e);
out:
	source_free(&src);
	free(base);
	return ret;
}

int cmd_arm_boot(int argc, char **argv)
{
	struct arm_args a = { 0 };
	struct bt_error e;
	char *line = NULL;
	int ret;

	bt_error_clear(&e);
	ret = arm_parse(argc, argv, &a, 0);
	if (ret)
		return cmd_parse_exit(ret, arm_usage);
	if (!a.line && arm_compile(&a, &line, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	ret = arm_boot(&a.o, a.line ? a.line : line, &e);
	if (!ret)
		bt_say(NULL, BT_SAY_NOTE, "armed for the next boot: %s (boottrace disarm-boot puts everything back)", a.line ? a.line : line);
	free(line);
	return ret ? cmd_fail(&e, BT_EXIT_INPUT) : BT_EXIT_OK;
}

int cmd_disarm_boot(int argc, char **argv)
{
	struct arm_args a = { 0 };
	struct bt_error e;
	int ret;

	bt_error_clear(&e);
	ret = arm_parse(argc, argv, &a, 1);
	if (ret)
		return cmd_parse_exit(ret, disarm_usage);
	if (arm_disarm(&a.o, a.force, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	return BT_EXIT_OK;
}
