/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a running kernel shows its tracing files: tracefs at
 * /sys/kernel/tracing (4.1+), else the same files under debugfs at
 * /sys/kernel/debug/tracing, looked at in that order. The one finder in C
 * (try, collect); the initramfs hook's bt_find_tracefs, in shell, looks in
 * the same order.
 */
#ifndef BT_TRACEFS_H
#define BT_TRACEFS_H

#include <stddef.h>

/* Where tracefs goes when nobody mounted it (the hook mounts it there too). */
#define TRACEFS_MOUNT "/sys/kernel/tracing"

/* What a directory must hold to be the tracefs a verb can use. */
enum tracefs_need {
	TFN_TRACE,		/* a readable 'trace' file: a trace to read */
	TFN_INSTANCES,		/* an instances/ directory: instances to make */
};

/* Does @dir hold what @need asks for? */
int tracefs_has(const char *dir, enum tracefs_need need);
/* The first of the known places that does, or NULL. */
const char *tracefs_find(enum tracefs_need need);
/* The known places in the order looked at: the @i-th, NULL past the last. */
const char *tracefs_dir(size_t i);

#endif /* BT_TRACEFS_H */
