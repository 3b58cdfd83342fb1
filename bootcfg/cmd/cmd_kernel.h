/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel a config is compiled for, as compile and arm-boot take it
 * (cmd_opts_target, cmd_opts_image): -k KVER, --kernel-config FILE and
 * --kernel IMAGE, read once into the kcaps the routes check against.
 */
#ifndef BT_CMD_KERNEL_H
#define BT_CMD_KERNEL_H

#include "arm/arm.h"
#include "check/check.h"
#include "kernel/board.h"
#include "kernel/kcaps.h"
#include "kimage/kimg.h"
#include "util/bt_error.h"
#include "util/source.h"

struct cmd_kernel {
	const char *kver, *kconfig, *image;	/* -k, --kernel-config, --kernel IMAGE */
	int verbose;
	struct kcaps k;			/* what the routes check against */
	struct kimg_params params;	/* the image's own boot parameters (k points in) */
	struct kimg img;		/* the unpacked image, for compile --check to read once */
	unsigned cmdline_size;		/* its setup header's cmdline_size, 0: none */
};

/* "6.1", "6.12": a version, which --kernel takes as -k; anything else is an image. */
int cmd_kernel_is_version(const char *s);

/*
 * What the shared block of compile and arm-boot (cmd_opts_target,
 * cmd_opts_image) gives: the board and the kernel the words are for.
 */
struct cmd_target {
	const char *board, *kver, *kconfig, *image;	/* -b, -k, --kernel-config, --kernel IMAGE */
	int allow_drop;					/* --allow-drop */
};
/*
 * Option @c of the shared block, with its argument @arg, into @t: 1 when
 * @c is one of them, 0 when it is the verb's own.
 */
int cmd_target_take(struct cmd_target *t, int c, const char *arg);
/* @ck's kcaps from what was given. 0, or -1 with @e. */
int cmd_kernel_load(struct cmd_kernel *ck, struct bt_error *e);
/* A bzImage's command-line size in place of board @b's. 0, or -1 with @e. */
int cmd_kernel_cmdline_size(const struct cmd_kernel *ck, struct board *b,
			    struct bt_error *e);
/*
 * The checks of `boottrace check` on @src, against @in (the files given:
 * --kernel IMAGE, --vmlinux, --system-map, --modules, --root) and the
 * .config @ck read with the image. The findings go to stderr (stdout
 * carries the verb's output); an error among them fails with an empty
 * message in @e (they said it all). 0, or -1.
 */
int cmd_kernel_check(struct cmd_kernel *ck, struct check_inputs *in,
		     const struct source *src, const char *voice,
		     struct bt_error *e);
/*
 * @src compiled for the next boot through loader @o->loader: the words
 * its file holds (arm_loaders' form), merged into its current line
 * (arm_base), checked against @ck and @b as compile does. The line
 * malloc'd into *@line. 0, or -1 with @e.
 */
int cmd_kernel_oneshot(const struct arm_opts *o, const struct cmd_kernel *ck,
		       const struct board *b, const struct source *src,
		       int allow_drop, char **line, struct bt_error *e);
void cmd_kernel_free(struct cmd_kernel *ck);

#endif
