#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dracut module "boottrace": snapshot the boot's trace buffer into
# /run/boottrace/<boot-id>/ from the initramfs (initramfs-hook/README.md).
# Included only when asked: add_dracutmodules+=" boottrace " or
# `dracut --add boottrace`. Points, in boot order: cmdline (earliest,
# default) pre-udev pre-trigger pre-mount pre-pivot (latest; the default
# when boottrace.arm is set). boottrace.at=POINT picks one.

# called by dracut
check() {
	return 255
}

# called by dracut
depends() {
	echo base
	return 0
}

# called by dracut
install() {
	# shellcheck disable=SC2154 # moddir is set by dracut
	_bt_core=$moddir/boottrace-snapshot.sh
	# run from a source tree, the core script sits two levels up
	[ -f "$_bt_core" ] || _bt_core=$moddir/../../boottrace-snapshot.sh
	# the programs the core script runs, from its own list
	# shellcheck disable=SC2046 # one name a line
	inst_multiple $(sh "$_bt_core" tools need) || return 1
	# shellcheck disable=SC2046
	inst_multiple -o $(sh "$_bt_core" tools may)
	inst_simple "$_bt_core" /lib/boottrace/boottrace-snapshot.sh
	# the settings `boottrace compile --hook-settings` wrote, if any
	[ -f /etc/boottrace.conf ] && inst_simple /etc/boottrace.conf /etc/boottrace.conf
	inst_hook cmdline 00 "$moddir/boottrace-cmdline.sh"
	inst_hook pre-udev 99 "$moddir/boottrace-pre-udev.sh"
	inst_hook pre-trigger 99 "$moddir/boottrace-pre-trigger.sh"
	inst_hook pre-mount 99 "$moddir/boottrace-pre-mount.sh"
	inst_hook pre-pivot 99 "$moddir/boottrace-pre-pivot.sh"
}
