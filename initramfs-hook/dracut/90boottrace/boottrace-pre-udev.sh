#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dracut pre-udev hook of the boottrace module. dracut sources it: the core
# script runs as a child, so nothing it does can end the boot.
# Snapshots here when boottrace.at=pre-udev.
sh /lib/boottrace/boottrace-snapshot.sh hook pre-udev "cmdline pre-udev pre-trigger pre-mount pre-pivot"
