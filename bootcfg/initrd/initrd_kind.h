/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Is this file an initrd? Recognised by its first bytes. */
#ifndef BT_INITRD_KIND_H
#define BT_INITRD_KIND_H

#include <stddef.h>
#include "util/bt_error.h"

/* Bytes of the file start that initrd_kind() looks at. */
#define INITRD_HEAD_LEN 1088

/*
 * Name of the initrd format that @head (the first @len bytes of a file)
 * starts with — "cpio (newc)", "gzip", "zstd", "ext2/3/4", … — or NULL.
 */
const char *initrd_kind(const unsigned char *head, size_t len);

/* Read the head of @path and name its kind; NULL with @err if unknown. */
const char *initrd_kind_of_file(const char *path, struct bt_error *err);

#endif
