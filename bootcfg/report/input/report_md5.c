/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MD5 of a console-mode file, to check it against the md5= its marker
 * carries (the hook's `md5sum`, which busybox and coreutils both have;
 * busybox has no `cksum`). Not for security: it only proves that a serial
 * capture came through whole. libmd computes it.
 */
#include <stdint.h>
#include <md5.h>

#include "report/input/input.h"

void rp_md5_hex(const char *data, size_t len, char out[33])
{
	MD5Data((const uint8_t *)data, len, out);
}
