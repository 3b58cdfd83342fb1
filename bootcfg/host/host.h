/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine boottrace runs on, as `boottrace ask` learns it instead of
 * asking for a board (docs/ask.md): its architecture and running kernel,
 * that kernel's image and .config, its initramfs, the bootloader that
 * booted it, whether the hook is in that initramfs and whether the
 * collect unit will run on a traced boot. Every path is under a root
 * (NULL or "/": this machine; a directory: a fixture, or another system's
 * tree), so the tests give each case as a tree of files.
 */
#ifndef BT_HOST_H
#define BT_HOST_H

#include <stddef.h>
#include <sys/types.h>

#include "util/bt_error.h"

struct host {
	const char *root;	/* NULL: / */
	char arch[32];		/* uname -m: x86_64, aarch64, armv7l, mips64 */
	char release[256];	/* uname -r */
	char from[128];		/* where arch and release came from */
	char *image;		/* the running kernel's image, NULL: none found */
	char *config;		/* its .config (a file, or /proc/config.gz), NULL: none */
	char *initrd;		/* its initramfs, NULL: none found */
	/* the bootloader: "grub", "systemd-boot", "uboot-env", or "" */
	char loader[16];
	char loader_why[512];	/* how it was told, or why it could not be */
	char *entry;		/* systemd-boot: LoaderEntrySelected, NULL: not known */
};

/*
 * Where each part is looked for, in order ("%s" is the release), for the
 * messages and docs/ask.md; NULL-ended.
 */
extern const char *const host_image_paths[], *const host_config_paths[],
	*const host_initrd_paths[];

/*
 * The architecture and release (uname(2) on /; under another root its
 * proc/sys/kernel/arch and osrelease files), then the image, .config and
 * initramfs of that release. 0, or -1 with @e when the arch or release
 * cannot be read. A part not found is NULL, not an error: the caller
 * says what is missing and what to give.
 */
int host_kernel(const char *root, struct host *h, struct bt_error *e);

/*
 * The bootloader that booted the machine (host_loader.c): systemd-boot
 * when its EFI variable LoaderInfo says so; else GRUB when the root has
 * /boot/grub/grub.cfg; else U-Boot's environment when it has
 * /etc/fw_env.config and fw_printenv is installed. 1 found, 0 not (the
 * reasons in h->loader_why), -1 with @e on an unreadable variable.
 */
int host_loader(struct host *h, struct bt_error *e);

/* The file the hook puts in every initramfs it is in (both generators). */
#define HOST_HOOK_MARK "lib/boottrace/boottrace-snapshot.sh"

/*
 * Is the hook in @h's initramfs? Lists it with lsinitramfs
 * (initramfs-tools) or lsinitrd (dracut). 1 yes, 0 no, -1 with @e when
 * there is no initramfs or no tool to list it.
 */
int host_hook_in_initrd(const struct host *h, struct bt_error *e);

/*
 * The generator of the installed hook that rebuilds @h's initramfs
 * ("initramfs-tools", "dracut"), or NULL when neither has boottrace's
 * hook installed.
 */
const char *host_hook_generator(const struct host *h);

/*
 * Will boottrace-collect.service run on a traced boot? 1: systemd runs
 * this root and boottrace's generator is installed (it pulls the unit in
 * on a boot that has /run/boottrace, and only then); 0: not, with why
 * and what to do in @why.
 */
int host_collect_ready(const struct host *h, char *why, size_t cap);

/* Is ROOT + @path there and of @type (S_IFREG, S_IFDIR)? */
int host_has(const char *root, const char *path, mode_t type);

void host_free(struct host *h);

#endif /* BT_HOST_H */
