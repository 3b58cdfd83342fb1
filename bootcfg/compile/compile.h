/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compiler as one call: a parsed config through plan, route and one
 * target's emitter (docs/architecture.md, "How compile flows").
 */
#ifndef BT_COMPILE_H
#define BT_COMPILE_H

#include "compile/emit.h"
#include "compile/route.h"
#include "kernel/board.h"
#include "kernel/kcaps.h"
#include "util/source.h"

/* What the emitter needs besides the plan (see struct emit_in). */
struct compile_opts {
	struct route_opts route;
	const char *base;	/* the line to merge into, or NULL */
	int keep_bootargs;
	const char *apply;	/* initrd for -t bootconfig, or NULL */
	const char *out;	/* NULL: standard output */
	const char *label;	/* --label (extlinux), or NULL */
	const char *base_name;	/* --base-file's path, or "--base" */
	/*
	 * --hook-settings FILE: the hook's boottrace.* settings go to FILE
	 * (lines as /proc/bootconfig shows them), for the initramfs's
	 * /etc/boottrace.conf, instead of onto the command line.
	 */
	const char *hook_settings;
};

/* Compile @src for kernel @k and board @b into target @t. 0, or -1 with @e. */
int compile_source(const struct source *src, const struct kcaps *k,
		   const struct board *b, const struct emit_target *t,
		   const struct compile_opts *o, struct bt_error *e);

/*
 * The kernel command line @src makes for @k and @b, with target @t's word
 * limits (@t->word_bad), merged into @base (NULL: the words alone) as
 * emit_merge does, and checked against the board's COMMAND_LINE_SIZE:
 * malloc'd into *@line (the one-shot line of arm-boot). 0, or -1 with @e.
 */
int compile_line(const struct source *src, const struct kcaps *k,
		 const struct board *b, const struct emit_target *t,
		 const struct route_opts *o, const char *base, char **line,
		 struct bt_error *e);

#endif /* BT_COMPILE_H */
