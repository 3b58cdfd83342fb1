/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Target forms. The routes (route.h) decide which kernel command-line
 * words and which bootconfig text carry the plan; an emitter writes them
 * in one target's form (emit_TARGET.c, one file per bootloader family)
 * and checks them against the board's limits, failing with the numbers.
 */
#ifndef BT_EMIT_H
#define BT_EMIT_H

#include <stddef.h>

#include "kernel/board.h"
#include "util/bt_error.h"
#include "kernel/words.h"

struct emit_in {
	/* The words the kernel must see, each as written (quoted already). */
	const struct words *kernel;
	/* Bootconfig text to embed (target bootconfig), else NULL. */
	const char *bconf;
	size_t bconf_len;
	const struct board *board;
	/* --base: the existing line to merge into (bootoctlinux, cmdline). */
	const char *base;
	/* --keep-bootargs: U-Boot forms append to ${bootargs}. */
	int keep_bootargs;
	/* --apply INITRD (bootconfig target). */
	const char *apply;
	/* -o FILE; NULL means standard output. */
	const char *out;
	/* The file --base came from, for messages ("--base" when given inline). */
	const char *base_name;
	/* --label NAME (extlinux): the LABEL whose APPEND is merged. */
	const char *label;
	int verbose;
};

typedef int (*emit_fn)(const struct emit_in *in, struct bt_error *e);

/* Which route feeds a target: the words alone, or a bootconfig and words. */
enum emit_route { EMIT_FROM_CMDLINE, EMIT_FROM_BOOTCONFIG };

/*
 * The form's own limits on one kernel word (as written): 1 with the reason
 * in @why when the form cannot carry it. The route asks it for each word a
 * setting makes (the refusal then points at the setting); the emitter asks
 * it again for words that come from --base.
 */
typedef int (*emit_word_fn)(const char *w, char *why, size_t size);

struct emit_target {
	const char *name;
	emit_fn run;
	enum emit_route route;
	emit_word_fn word_bad;	/* NULL: no limit beyond the kernel's */
	const char *summary;
	/*
	 * 1: --base is a whole file of the loader (extlinux.conf, an entry),
	 * never the board's board.cmdline.base line.
	 */
	int base_is_file;
};

/* The targets, NULL-terminated by name; emit_find(NULL) is the default. */
extern const struct emit_target emit_targets[];
const struct emit_target *emit_find(const char *name);

/* emit_cmdline.c, emit_bootconfig.c, emit_uboot.c, emit_bootoct.c, emit_files.c */
int emit_cmdline(const struct emit_in *in, struct bt_error *e);
int emit_bootconfig(const struct emit_in *in, struct bt_error *e);
int emit_uboot_script(const struct emit_in *in, struct bt_error *e);
int emit_uboot_scr(const struct emit_in *in, struct bt_error *e);
int emit_uboot_env(const struct emit_in *in, struct bt_error *e);
int emit_uboot_envimage(const struct emit_in *in, struct bt_error *e);
int emit_bootoctlinux(const struct emit_in *in, struct bt_error *e);
int emit_grub(const struct emit_in *in, struct bt_error *e);
int emit_kernel_install(const struct emit_in *in, struct bt_error *e);
int emit_uki(const struct emit_in *in, struct bt_error *e);
int emit_rpi(const struct emit_in *in, struct bt_error *e);
/* emit_loaders.c */
int emit_extlinux(const struct emit_in *in, struct bt_error *e);
int emit_uboot_menu(const struct emit_in *in, struct bt_error *e);
int emit_bls(const struct emit_in *in, struct bt_error *e);

/* The word limits of the forms that have their own (emit_uboot.c, emit_files.c). */
int emit_uboot_word_bad(const char *w, char *why, size_t size);
int emit_grub_word_bad(const char *w, char *why, size_t size);
int emit_ki_word_bad(const char *w, char *why, size_t size);
int emit_uki_word_bad(const char *w, char *why, size_t size);
int emit_extlinux_word_bad(const char *w, char *why, size_t size);
int emit_bls_word_bad(const char *w, char *why, size_t size);

/*
 * How kernel word @w is written in grub.cfg so that GRUB's linux loader
 * hands it over as written (emit_files.c; arm-boot's menu entry):
 * malloc'd into *@cfg, or -1 with @e when GRUB cannot carry it.
 */
int emit_grub_cfg_word(const char *w, char **cfg, struct bt_error *e);

/* ---- shared by emitters (emit_common.c) ------------------------------ */

/*
 * The value of the last `[export] NAME=VALUE` line of sh text @text
 * (/etc/default/grub, /etc/default/u-boot): "..." (\\, \", \$, \`
 * unescaped), '...' or a bare word, malloc'd into *@val (NULL when no line
 * sets it); *@at (if not NULL) the byte offset of that line, or -1. A value
 * sh would expand ($, `) cannot be merged: refused (emit_files.c).
 */
int emit_sh_assigned(const char *text, const char *name, char **val,
		     long *at, struct bt_error *e);

/*
 * Merge @add into @base, into @out: every base word keeps its place and
 * order; a base tracing word (kparam_is_trace_word) is replaced in place by
 * the added word of the same parameter, or dropped when @add has none
 * (a stale setting of an earlier run); the other added words go at the
 * end of the kernel's words: before a "--" (init's arguments follow it).
 * Added words after a "--" of @add (init's) go after the base's own init
 * arguments, never behind a second "--".
 * Each change is told on stderr with @verbose. Fails (emit_check_kept)
 * if the result lost a root= or console= of @base.
 */
int emit_merge(const struct words *base, const struct words *add,
	       struct words *out, int verbose, struct bt_error *e);
/*
 * The board boots only with its root= and console= words: each one the
 * kernel reads in @base (before "--") must be in @out as written, or
 * nothing may be written (emit_merge checks its own result with it).
 */
int emit_check_kept(const struct words *base, const struct words *out,
		    struct bt_error *e);
/*
 * The kernel's own limit: @len bytes of command line (no NUL) must fit
 * the board's COMMAND_LINE_SIZE, or the kernel cuts the rest silently.
 */
int emit_check_kernel_len(const struct board *b, size_t len, const char *what,
			  struct bt_error *e);

#endif /* BT_EMIT_H */
