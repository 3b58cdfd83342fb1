#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Print the directory of an unpacked Debian linux-image-6.1.0-*-cloud-amd64
# (the version apt offers through linux-image-cloud-amd64): root/ (the
# package's files, modules.dep from depmod), kver and busybox. Fetched and
# cached once by tests/e2e/kernel-pkg.sh, under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel/. Exit 3 when no kernel
# can be had.
exec sh "$(dirname "$0")/kernel-pkg.sh" amd64 cloud-amd64
