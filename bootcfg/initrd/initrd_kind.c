// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Appending a bootconfig to something that is not an initrd (a kernel
 * image, a config file passed in the wrong order) damages it for nothing,
 * so -a first checks the file starts like an image the kernel unpacks:
 * cpio in any of its forms, one of the kernel's decompressors, or a
 * ramdisk filesystem.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "initrd/initrd_kind.h"
#include "util/readfile.h"

struct magic {
	size_t off;
	size_t len;
	const char *bytes;
	const char *name;
};

static const struct magic magics[] = {
	{ 0, 6, "070701", "cpio (newc)" },
	{ 0, 6, "070702", "cpio (newc, crc)" },
	{ 0, 6, "070707", "cpio (odc)" },
	{ 0, 2, "\xc7\x71", "cpio (binary)" },
	{ 0, 2, "\x71\xc7", "cpio (binary)" },
	{ 0, 2, "\x1f\x8b", "gzip" },
	{ 0, 2, "\x1f\x9e", "gzip (old)" },
	{ 0, 6, "\xfd" "7zXZ\0", "xz" },
	{ 0, 3, "\x5d\0\0", "lzma" },
	{ 0, 3, "BZh", "bzip2" },
	{ 0, 4, "\x89LZO", "lzo" },
	{ 0, 4, "\x02\x21\x4c\x18", "lz4" },
	{ 0, 4, "\x28\xb5\x2f\xfd", "zstd" },
	{ 0, 4, "hsqs", "squashfs" },
	{ 0, 4, "\x45\x3d\xcd\x28", "cramfs" },
	{ 0, 8, "-rom1fs-", "romfs" },
	{ 1080, 2, "\x53\xef", "ext2/3/4" },
};

const char *initrd_kind(const unsigned char *head, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		const struct magic *m = &magics[i];

		if (m->off + m->len <= len &&
		    !memcmp(head + m->off, m->bytes, m->len))
			return m->name;
	}
	return NULL;
}

const char *initrd_kind_of_file(const char *path, struct bt_error *err)
{
	unsigned char head[INITRD_HEAD_LEN];
	const char *kind;
	struct stat st;
	ssize_t n;
	int fd;

	fd = readfile_open(path, RF_IMAGE_MAX, 0, "an initrd image file", &st, err);
	if (fd < 0)
		return NULL;
	n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n < 0) {
		bt_error_errno(err, errno, path, "cannot read");
		return NULL;
	}
	kind = initrd_kind(head, (size_t)n);
	if (!kind)
		bt_error_set(err, BT_EXIT_INPUT, path,
			     "not an initrd (no cpio, compressor or ramdisk filesystem signature at its start); check the argument order (-a CONFIG INITRD) or use --force");
	return kind;
}
