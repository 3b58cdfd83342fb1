/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bootconfig of an initrd, as the kernel's tools/bootconfig reads,
 * applies and deletes it, but atomic and refusing what is not an initrd.
 * Used by `bootconfig` and by `compile -t bootconfig --apply`.
 */
#ifndef BT_INITRD_BCONF_H
#define BT_INITRD_BCONF_H

#include <stddef.h>
#include <stdio.h>

#include "bconf.h"
#include "util/bt_error.h"

/*
 * The config to show for @path: the one in its footer, or the file itself
 * when it is small enough to be a config (as the kernel's tool reads it).
 * 1 with *@out (free with bconf_free), 0 when there is none (a note said
 * why where it matters), -1 with @e. @force: take @path as an initrd even
 * when it does not look like one.
 */
int initrd_bconf_load(const char *path, int force, struct bconf **out,
		      struct bt_error *e);
/*
 * Remove @path's bootconfig, if any, atomically. 0, or -1 with @e.
 * -d and -a hold atomic_lock on @path from the read to the rename (two
 * runs on one initrd take turns, waiting at most IBC_LOCK_WAIT seconds, or
 * BOOTTRACE_LOCK_WAIT's),
 * and refuse a file without its owner's write bit unless @force.
 */
#define IBC_LOCK_WAIT 30
int initrd_bconf_delete(const char *path, int force, struct bt_error *e);
/*
 * Replace @path's bootconfig by @conf (@len bytes counting its NUL; named
 * @name in messages), atomically, locked as above. First prints what the
 * kernel's tool prints on its standard output to @summary. 0, or -1 with @e.
 */
int initrd_bconf_apply(const char *name, const char *conf, size_t len,
		       const char *path, int force, FILE *summary,
		       struct bt_error *e);

#endif /* BT_INITRD_BCONF_H */
