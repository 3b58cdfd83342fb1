/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of target forms: `compile -t NAME`. */
#include <string.h>

#include "compile/emit.h"

const struct emit_target emit_targets[] = {
	{ "cmdline", emit_cmdline,
	  "legacy kernel parameters, one line (merged into --base if given)" },
	{ "bootconfig", emit_bootconfig,
	  "bootconfig text (or --apply INITRD) plus the words the cmdline still needs" },
	{ "bootoctlinux", emit_bootoctlinux,
	  "the Octeon bootoctlinux command of --base, tracing words merged" },
	{ "grub", emit_grub,
	  "an /etc/default/grub.d drop-in adding to GRUB_CMDLINE_LINUX" },
	{ "kernel-install", emit_kernel_install,
	  "the whole /etc/kernel/cmdline line (--base merged)" },
	{ "rpi", emit_rpi,
	  "the whole Raspberry Pi cmdline.txt line (--base merged)" },
	{ "uboot-script", emit_uboot_script,
	  "U-Boot script text setting bootargs (hush)" },
	{ "uboot-scr", emit_uboot_scr,
	  "that script as a mkimage script image (boot.scr), -o required" },
	{ "uboot-env", emit_uboot_env,
	  "bootargs=VALUE for fw_setenv --script (libubootenv)" },
	{ "uboot-envimage", emit_uboot_envimage,
	  "a mkenvimage environment image of the board's size, -o required" },
	{ NULL, NULL, NULL },
};

const struct emit_target *emit_find(const char *name)
{
	const struct emit_target *t;

	if (!name)
		return &emit_targets[0];
	for (t = emit_targets; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}
