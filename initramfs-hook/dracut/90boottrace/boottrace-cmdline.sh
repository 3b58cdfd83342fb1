#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dracut cmdline hook of the boottrace module. dracut sources it: the core
# script runs as a child, so nothing it does can end the boot.
# Priority 00, before every other cmdline hook: arms boottrace.arm before
# any module loads, and snapshots unless boottrace.at or boottrace.arm
# names a later point.
sh /lib/boottrace/boottrace-snapshot.sh hook cmdline "cmdline pre-udev pre-trigger pre-mount pre-pivot"
