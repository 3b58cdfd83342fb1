/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the U-Boot target forms share (emit_uboot.c): the checked bootargs
 * value and the script text, so that -t uboot-scr compiles exactly the
 * text -t uboot-script prints.
 */
#ifndef BT_EMIT_UBOOT_H
#define BT_EMIT_UBOOT_H

#include "compile/emit.h"

/*
 * The kernel words joined by spaces, checked: every byte must be one a
 * U-Boot command or environment can hold, and the kernel's
 * COMMAND_LINE_SIZE must take it. malloc'd into *@value.
 */
int emit_uboot_value(const struct emit_in *in, char **value,
		     struct bt_error *e);
/*
 * "bootargs=VALUE" as U-Boot's environment must hold it: U-Boot reads
 * every stored environment through himport_r(), which takes a backslash
 * as an escape, so each \ is written twice. malloc'd, NULL on no memory.
 */
char *emit_uboot_env_entry(const char *value);
/* The script text setting bootargs (checked against CONFIG_SYS_CBSIZE). */
int emit_uboot_script_text(const struct emit_in *in, char **text,
			   struct bt_error *e);
/* mkimage's -A name for a board arch, NULL if mkimage has none. */
const char *emit_uboot_mkimage_arch(const char *arch);

#endif /* BT_EMIT_UBOOT_H */
