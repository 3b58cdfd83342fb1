/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Board profiles: board/NAME.bconf, read with our own parser. A profile
 * says what the board's kernel and bootloader can carry, so that every
 * target form is checked against real limits before anyone reboots.
 */
#ifndef BT_BOARD_H
#define BT_BOARD_H

#include "util/bt_error.h"

#define BOARD_NAME_MAX 64

struct board {
	char name[BOARD_NAME_MAX];	/* file stem: qemu-x86_64 */
	char title[128];		/* board.name */
	char arch[32];			/* x86_64, arm64, arm, mips, mips64, ... */
	char bootloader[32];		/* u-boot, bootoctlinux, grub, rpi, qemu-direct, kernel-install */
	char console[64];		/* console= the board needs, "" if none */
	char tracefs[128];		/* where the hook finds tracefs */
	unsigned cmdline_max;		/* COMMAND_LINE_SIZE, the NUL included */
	/* where cmdline_max came from when not the profile ("the setup
	 * header of IMAGE", compile --kernel IMAGE); "" = the board */
	char cmdline_from[4200];
	/* bytes of it the loader fills with words of its own (QEMU Malta's
	 * rd_start=... rd_size=...), before ours reach the kernel */
	unsigned cmdline_loader;
	/* The board's own command line (root=, console=, ...) that the
	 * bootloader targets merge into without --base; "" if none. */
	char cmdline_base[4096];
	/* U-Boot */
	unsigned uboot_cbsize;		/* CONFIG_SYS_CBSIZE, the NUL included; 0 = unknown */
	unsigned uboot_max_words;	/* CONFIG_SYS_MAXARGS, command word included; 0 = unknown */
	char uboot_script[64];		/* boot script file name */
	unsigned env_size;		/* environment size in bytes, 0 = unknown */
	int env_redundant;
	int env_big_endian;
	/*
	 * RAM for pstore's ramoops that survives a warm reboot: its physical
	 * address ("" if none), its size, and who keeps the kernel out of it
	 * (memmap: compile adds memmap=SIZE$ADDR; firmware: the firmware or
	 * device tree already does).
	 */
	char pstore_address[24];
	unsigned pstore_size;
	char pstore_reserve[16];
	/* Quirks */
	int ftrace_stack_zero;		/* func_stack_trace frames are all 0: parent-chain mode */
	char path[4096];		/* the profile read */
};

/*
 * Where named profiles are looked for, first match wins (docs/boards.md):
 * the directories of $BOOTTRACE_BOARDS (a colon list; $BOOTTRACE_BOARD_DIR
 * is its older name), /etc/boottrace/boards (the Makefile's sysconfdir),
 * then board/ of the source tree when the program runs from build/, else
 * PREFIX/share/boottrace/boards found beside the installed binary and the
 * one compiled in.
 */
#define BOARD_PATH_MAX 12
enum board_from { BOARD_FROM_ENV, BOARD_FROM_ETC, BOARD_FROM_TREE, BOARD_FROM_PREFIX };
struct board_path {
	int n;
	char dir[BOARD_PATH_MAX][1024];
	enum board_from from[BOARD_PATH_MAX];
};
void board_path(struct board_path *p);
/* the path as DIR:DIR:... in @buf */
const char *board_path_text(const struct board_path *p, char *buf, size_t size);
/*
 * Load @name: a path (contains '/' or ends in ".bconf") or a profile name
 * looked up along board_path(). -1 with @e (FILE:LINE:COL for a bad profile).
 */
/* No -b: a board with the common 2048-byte limit and no bootloader quirks. */
void board_generic(struct board *b);
int board_load(const char *name, struct board *b, struct bt_error *e);
/*
 * Load every profile along board_path() into @b, sorted by name, and call
 * @fn; a name in two directories is the first one's. @b is the caller's so
 * that an error can name its file after the call.
 */
int board_each(struct board *b, int (*fn)(const struct board *b, void *ctx),
	       void *ctx, struct bt_error *e);

#endif /* BT_BOARD_H */
