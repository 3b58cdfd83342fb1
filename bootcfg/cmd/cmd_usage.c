/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every verb shares on its command line (commands.h, cmd_opt.h): the
 * options all of them take, the blocks of options several take (declared
 * once here, so that a flag means one thing and is said one way in every
 * verb), and the one ending of a parse and of a failure.
 */
#include <stdio.h>

#include "arm/arm.h"
#include "cmd/cmd_opt.h"
#include "cmd/commands.h"

/* The target a config is compiled for: compile, arm-boot. */
const struct cmd_opt cmd_opts_target[] = {
	{ 'b', 'b', "board", "BOARD", "board profile name or file (boottrace boards)",
	  CMD_OPT_KEY, NULL },
	{ 'k', 'k', NULL, "KVER", "target kernel version, e.g. 4.9, 5.10, 6.1",
	  CMD_OPT_KEY, NULL },
	CMD_FLAG(0, "allow-drop", CMD_O_DROP,
		 "drop, with a warning each, what the target or the kernel cannot carry"),
	CMD_OPT_END,
};

/* The kernel that will boot, by its files: compile, check, arm-boot. */
const struct cmd_opt cmd_opts_image[] = {
	CMD_ARG(0, "kernel", "IMAGE", CMD_O_KERNEL,
		"the kernel image that will boot (/boot/vmlinuz-VER, bzImage, Image, vmlinux): "
		"its own symbols (kallsyms), traceable functions, trace events and boot "
		"parameters, and its .config (IKCONFIG, else config-VER beside it) when no "
		"--kernel-config (docs/kernel-image.md); where -k is taken, a version (6.1) "
		"is -k"),
	CMD_ARG(0, "kernel-config", "FILE", CMD_O_KCONFIG,
		"that kernel's .config (/boot/config-VER): its version when there is no -k; "
		"wins over --kernel IMAGE's own"),
	CMD_OPT_END,
};

/* The kernel's symbol files and modules: check, and compile --check. */
const struct cmd_opt cmd_opts_kfiles[] = {
	CMD_ARG(0, "vmlinux", "FILE", CMD_O_VMLINUX,
		"the kernel with its symbol table (build tree or -dbg package)"),
	CMD_ARG(0, "system-map", "FILE", CMD_O_SYSMAP,
		"System.map or /proc/kallsyms text instead (no traceability)"),
	CMD_ARG(0, "modules", "DIR", CMD_O_MODULES,
		"modules tree (*.ko, .ko.xz, .ko.zst, .ko.gz), e.g. /lib/modules/VER"),
	CMD_ARG(0, "root", "DIR", CMD_O_ROOT,
		"an unpacked linux-image package (dpkg -x): finds the above (its "
		"boot/vmlinuz-VER as --kernel when no symbols else)"),
	CMD_OPT_END,
};

int cmd_parse_exit(enum cmd_parse p, const struct cmd_verb *v)
{
	if (p == CMD_HELP) {
		cmd_usage(v, stdout);
		return fflush(stdout) ? BT_EXIT_ENV : BT_EXIT_OK;
	}
	cmd_usage(v, stderr);
	return BT_EXIT_USAGE;
}

int cmd_fail(const struct bt_error *e, enum bt_exit fallback)
{
	if (e->msg[0])
		bt_error_print(e, stderr);
	return e->code ? (int)e->code : (int)fallback;
}

/* The loaders of arm-boot and ask, for their help and the completion: arm/arm.c's table. */
const char *cmd_loader_value(size_t i, const char **help)
{
	size_t n;

	for (n = 0; n < i && arm_loaders[n].name; n++)
		;
	if (!arm_loaders[n].name)
		return NULL;
	*help = arm_loaders[n].help;
	return arm_loaders[n].name;
}
