/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * arm-boot / disarm-boot (docs/arm-boot.md): the compiled kernel command
 * line for the next boot only, and the way back byte for byte.
 *
 * arm-boot keeps, in a state directory, each file (or env region) it
 * changes: its bytes before (orig.N) and as arm-boot left them (armed.N),
 * listed in the index file "armed". disarm-boot puts the orig.N bytes back
 * when the files still hold the armed bytes, or what the bootloader makes
 * of them when it takes the one-shot (GRUB clears next_entry; the U-Boot
 * bootcmd of arm-boot clears boottrace_oneshot and runs saveenv;
 * systemd-boot deletes the EFI variable LoaderEntryOneShot).
 */
#ifndef BT_ARM_H
#define BT_ARM_H

#include <stddef.h>

#include "util/bt_error.h"

struct arm_opts {
	const char *loader;	/* "grub", "uboot-env" or "systemd-boot" */
	const char *root;	/* the tree GRUB's files and the state are under; NULL: / */
	const char *state;	/* the state directory; NULL: ROOT/var/lib/boottrace/arm-boot */
	const char *grub_dir;	/* GRUB's directory under ROOT; NULL: /boot/grub */
	const char *fw_config;	/* libubootenv's config; NULL: /etc/fw_env.config */
	const char *esp;	/* systemd-boot's ESP/XBOOTLDR under ROOT; NULL: /efi, /boot, /boot/efi */
	const char *efivars;	/* efivarfs under ROOT; NULL: /sys/firmware/efi/efivars */
	const char *entry;	/* systemd-boot: the entry to copy; NULL: the default */
};

/* One file, or one region of a file or block device, arm-boot changes. */
struct arm_item {
	char *path;
	int region;		/* 1: bytes [off, off + size) of path; 0: the whole file */
	unsigned long long off, size;
	int existed;		/* whole file: it existed before arm-boot */
	int efivar;		/* whole file in efivarfs: written in one write, no rename */
	char *orig;		/* the bytes before (NULL: absent) */
	size_t orig_len;
	char *armed;		/* the bytes arm-boot left */
	size_t armed_len;
};

struct arm_state {
	char *dir;
	char loader[16];
	char *config;		/* uboot-env: the fw_env.config */
	struct arm_item *v;
	size_t n, cap;
};

/* Where each loader's files are when arm_opts does not say (ask looks there too). */
#define ARM_GRUB_DIR	"/boot/grub"
#define ARM_FW_CONFIG	"/etc/fw_env.config"
#define ARM_EFIVARS	"/sys/firmware/efi/efivars"

/*
 * The loaders arm-boot knows, the one table (arm.c): each name, the
 * compile target whose words its file holds (an entry's options line is
 * "bls"), and what arming it writes, for --help and the completion.
 */
struct arm_loader {
	const char *name, *form, *help;
};
extern const struct arm_loader arm_loaders[];	/* ends with a NULL name */
/* "grub, uboot-env, systemd-boot": the table's names, for messages. */
const char *arm_loader_names(void);
/* @name's row, or NULL. */
const struct arm_loader *arm_loader_find(const char *name);

/*
 * The state directory's default: ROOT/ARM_STATE_PARENT/ARM_STATE_NAME, among
 * the boot records of collect (which are STATE/<boot-id>), so that collect
 * and report find it beside them.
 */
#define ARM_STATE_PARENT "/var/lib/boottrace"
#define ARM_STATE_NAME "arm-boot"

/* What became of an armed one-shot (arm_fate). */
enum arm_fate {
	ARM_NONE,	/* nothing armed: no state */
	ARM_PENDING,	/* every file as arm-boot left it: the next boot takes it */
	ARM_TAKEN,	/* the bootloader took it (and reverted): only the state is left */
	ARM_CHANGED,	/* changed otherwise since, or unreadable: disarm-boot decides */
};

/* The state directory of @o into *@dir (malloc'd). 0, or -1 with @e. */
int arm_state_dir(const struct arm_opts *o, char **dir, struct bt_error *e);
/*
 * The line the one-shot is merged into: the arguments of the linux line
 * of grub.cfg's first menu entry, U-Boot's bootargs, the options of
 * systemd-boot's default entry. malloc'd. 0, or -1.
 */
int arm_base(const struct arm_opts *o, char **base, struct bt_error *e);
/*
 * Is a one-shot armed (arm-boot's state under @o)? 1, with @e saying so
 * and naming disarm-boot; 0 not; -1 with @e.
 */
int arm_armed(const struct arm_opts *o, struct bt_error *e);
/* Install @line for the next boot only. 0, or -1 with @e (nothing changed). */
int arm_boot(const struct arm_opts *o, const char *line, struct bt_error *e);
/*
 * The fate of the one-shot whose state is the directory @dir (no state
 * there: ARM_NONE), and its loader into @loader. It reads the files the
 * way disarm-boot does and changes nothing. 0, or -1 with @e when the
 * state or a file cannot be read.
 */
int arm_fate(const char *dir, enum arm_fate *fate, char loader[16],
	     struct bt_error *e);
/* @f in words for messages ("the one-shot is still to come") ... */
const char *arm_fate_name(enum arm_fate f);
/* ... and as one word for files: none, pending, taken, changed. */
const char *arm_fate_word(enum arm_fate f);
/*
 * Restore what arm-boot changed, from its state. @force: also over changes
 * made since by someone else. 0, or -1 with @e.
 */
int arm_disarm(const struct arm_opts *o, int force, struct bt_error *e);

/* ---- insides shared by the arm files (arm_state.c, arm_run.c) ---- */
void arm_state_free(struct arm_state *s);
struct arm_item *arm_state_add(struct arm_state *s, const char *path,
			       struct bt_error *e);
/* Read the current bytes of @it into a malloc'd *@buf (NULL: absent). */
int arm_item_read(const struct arm_item *it, char **buf, size_t *len,
		  struct bt_error *e);
/* Write @buf (NULL: remove the file) to @it's place: atomic for files. */
int arm_item_write(const struct arm_item *it, const char *buf, size_t len,
		   struct bt_error *e);
/* Write the state directory (orig.N, armed.N, then the index). */
int arm_state_save(const struct arm_state *s, struct bt_error *e);
/* Read it back; @e says what to do when it is missing or damaged. */
int arm_state_load(const char *dir, struct arm_state *s, struct bt_error *e);
/* Remove the state directory's files and the directory. */
int arm_state_remove(const struct arm_state *s, struct bt_error *e);
/*
 * Run @argv (argv[0] looked up in PATH); its standard output (at most
 * ARM_RUN_MAX bytes, else an error) into a malloc'd *@out when @out is
 * not NULL, else discarded; its stderr passes through. @pkg: the Debian
 * package that has it, for the message.
 * 0, or -1 with @e (not found, or a failure exit).
 */
#define ARM_RUN_MAX (64 << 20)	/* the most of a tool's output arm_run keeps */
int arm_run(char *const argv[], const char *pkg, char **out, size_t *outlen,
	    struct bt_error *e);
/* Nonzero when @tool is an executable in PATH. */
int arm_have(const char *tool);
/* Files of @root: ROOT + @path (malloc'd), or NULL on no memory. */
char *arm_path(const char *root, const char *path);

/* arm_grub.c, arm_uboot.c */
int arm_grub_base(const struct arm_opts *o, char **base, struct bt_error *e);
int arm_grub(const struct arm_opts *o, const char *line, struct arm_state *s,
	     struct bt_error *e);
int arm_grub_consumed(const struct arm_state *s, size_t i, const char *cur,
		      size_t len);
int arm_uboot_base(const struct arm_opts *o, char **base, struct bt_error *e);
int arm_uboot(const struct arm_opts *o, const char *line, struct arm_state *s,
	      struct bt_error *e);
int arm_uboot_consumed(const struct arm_state *s, struct bt_error *e);
/* arm_sdboot.c */
int arm_sdboot_base(const struct arm_opts *o, char **base, struct bt_error *e);
int arm_sdboot(const struct arm_opts *o, const char *line, struct arm_state *s,
	       struct bt_error *e);
int arm_sdboot_consumed(const struct arm_state *s, size_t i, const char *cur);
/*
 * An efivarfs file holding a UTF-16LE string (4 bytes of attributes
 * first), as printable ASCII into *@out (malloc'd; NULL: no such
 * variable). 0, or -1 with @e.
 */
int arm_efivar_string(const char *path, char **out, struct bt_error *e);
/* systemd's loader vendor GUID, the suffix of its variables' efivarfs names */
#define ARM_SDB_GUID "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

#endif /* BT_ARM_H */
