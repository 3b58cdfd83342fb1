#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Debian's real mkinitramfs for an unpacked kernel package, without
# installing it: in a private mount namespace (root), the package's
# lib/modules and boot are bound read-only where mkinitramfs looks (an
# overlay on /lib makes room for modules/ when the host has none), and a
# settings file, when given, is overlaid as /etc/boottrace.conf.
# Used by tests/e2e/initramfs-tools.sh and tests/e2e/systemd-boot.sh.
#
#   mkinitramfs-ns.sh KROOT WORK CONFDIR OUT KVER [SETTINGS]
#
# KROOT: the unpacked package (lib/modules/KVER, boot/); WORK: an empty
# scratch directory; CONFDIR: mkinitramfs -d; OUT: the image. Exits with
# mkinitramfs's status; its output goes to standard output and error.
set -u
[ $# -ge 5 ] || { echo "usage: $0 KROOT WORK CONFDIR OUT KVER [SETTINGS]" >&2; exit 2; }
work=$2
mkdir -p "$work/upper" "$work/work" "$work/tmp" "$work/etcup" "$work/etcwork" || exit 3
if [ -n "${6:-}" ]; then
	cp "$6" "$work/etcup/boottrace.conf" || exit 3
fi
# shellcheck disable=SC2016 # expanded by the inner sh
exec unshare -m --propagation private sh -c '
	set -e
	if [ -d /lib/modules ]; then
		m=/lib/modules
	else
		lib=$(readlink -f /lib)
		mount -t overlay overlay -o "lowerdir=$lib,upperdir=$2/upper,workdir=$2/work" "$lib"
		mkdir "$lib/modules"
		m=$lib/modules
	fi
	mount --bind "$1/lib/modules" "$m"
	mount -o remount,bind,ro "$m"
	mount --bind "$1/boot" /boot
	mount -o remount,bind,ro /boot
	if [ -f "$2/etcup/boottrace.conf" ]; then
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$2/etcup,workdir=$2/etcwork" /etc
	fi
	TMPDIR=$2/tmp mkinitramfs -d "$3" -o "$4" "$5"
' sh "$1" "$work" "$3" "$4" "$5"
