/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of target forms: `compile -t NAME`. */
#include <string.h>

#include "compile/emit.h"

const struct emit_target emit_targets[] = {
	{ "cmdline", emit_cmdline, EMIT_FROM_CMDLINE, NULL,
	  "legacy kernel parameters, one line (merged into --base if given)", 0 },
	{ "bootconfig", emit_bootconfig, EMIT_FROM_BOOTCONFIG, NULL,
	  "bootconfig text (or --apply INITRD) plus the words the cmdline still needs", 0 },
	{ "bootoctlinux", emit_bootoctlinux, EMIT_FROM_CMDLINE, NULL,
	  "the Octeon bootoctlinux command of --base, tracing words merged", 0 },
	{ "grub", emit_grub, EMIT_FROM_CMDLINE, emit_grub_word_bad,
	  "an /etc/default/grub.d drop-in adding to GRUB_CMDLINE_LINUX", 0 },
	{ "kernel-install", emit_kernel_install, EMIT_FROM_CMDLINE, emit_ki_word_bad,
	  "the whole /etc/kernel/cmdline line (--base merged)", 0 },
	{ "uki", emit_uki, EMIT_FROM_CMDLINE, emit_uki_word_bad,
	  "the whole /etc/kernel/cmdline line a UKI gets (kernel-install; no ukify addon: Debian 12 has no ukify)", 0 },
	{ "rpi", emit_rpi, EMIT_FROM_CMDLINE, NULL,
	  "the whole Raspberry Pi cmdline.txt line (--base merged)", 0 },
	{ "uboot-script", emit_uboot_script, EMIT_FROM_CMDLINE, emit_uboot_word_bad,
	  "U-Boot script text setting bootargs (hush)", 0 },
	{ "uboot-scr", emit_uboot_scr, EMIT_FROM_CMDLINE, emit_uboot_word_bad,
	  "that script as a mkimage script image (boot.scr), -o required", 0 },
	{ "uboot-env", emit_uboot_env, EMIT_FROM_CMDLINE, emit_uboot_word_bad,
	  "bootargs=VALUE for fw_setenv --script (libubootenv)", 0 },
	{ "uboot-envimage", emit_uboot_envimage, EMIT_FROM_CMDLINE, emit_uboot_word_bad,
	  "a mkenvimage environment image of the board's size, -o required", 0 },
	{ "extlinux", emit_extlinux, EMIT_FROM_CMDLINE, emit_extlinux_word_bad,
	  "extlinux.conf (--base-file): APPEND of the DEFAULT or --label LABEL merged", 1 },
	{ "u-boot-menu", emit_uboot_menu, EMIT_FROM_CMDLINE, emit_extlinux_word_bad,
	  "Debian's /etc/default/u-boot (--base-file): U_BOOT_PARAMETERS merged", 1 },
	{ "bls", emit_bls, EMIT_FROM_CMDLINE, emit_bls_word_bad,
	  "a Boot Loader Specification entry (systemd-boot, barebox): options merged", 1 },
	{ NULL, NULL, EMIT_FROM_CMDLINE, NULL, NULL, 0 },
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
