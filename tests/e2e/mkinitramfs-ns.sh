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
#   mkinitramfs-ns.sh [-n] KROOT WORK CONFDIR OUT KVER [SETTINGS]
#
# KROOT: the unpacked package (lib/modules/KVER, boot/); WORK: an empty
# scratch directory; CONFDIR: mkinitramfs -d; OUT: the image. -n: as on a
# root installed without busybox (without Recommends): mkinitramfs sees
# none of the files busybox's packages give it (conf-hooks.d/busybox, which
# sets BUSYBOXDIR, and hooks/zz-busybox), so BUSYBOX=auto leaves busybox
# out and the image has only klibc's tools. Exits with mkinitramfs's
# status; its output goes to standard output and error.
set -u
nobb=0
[ "${1:-}" = -n ] && nobb=1 && shift
[ $# -ge 5 ] || { echo "usage: $0 [-n] KROOT WORK CONFDIR OUT KVER [SETTINGS]" >&2; exit 2; }
work=$2
mkdir -p "$work/upper" "$work/work" "$work/tmp" "$work/etcup" "$work/etcwork" || exit 3
if [ -n "${6:-}" ]; then
	cp "$6" "$work/etcup/boottrace.conf" || exit 3
fi
# -n: copies of the two directories without busybox's files, bound over
# them in the namespace below (the host's stay as they are)
: >"$work/hide"
if [ "$nobb" = 1 ]; then
	for d in conf-hooks.d hooks; do
		cp -a "/usr/share/initramfs-tools/$d" "$work/itools-$d" || exit 3
		echo "$d" >>"$work/hide"
	done
	dpkg-query -L busybox busybox-static 2>/dev/null |
		sed -n 's#^/usr/share/initramfs-tools/\(conf-hooks.d\|hooks\)/\([^/]*\)$#\1 \2#p' |
		while read -r d f; do rm -f "$work/itools-$d/$f"; done
	if grep -qs '^BUSYBOXDIR=' "$work/itools-conf-hooks.d"/*; then
		echo "mkinitramfs-ns.sh -n: a conf hook still sets BUSYBOXDIR (busybox's files not found with dpkg-query -L)" >&2
		exit 3
	fi
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
	while read -r d; do
		mount --bind "$2/itools-$d" "/usr/share/initramfs-tools/$d"
	done <"$2/hide"
	if [ -f "$2/etcup/boottrace.conf" ]; then
		mount -t overlay overlay -o "lowerdir=/etc,upperdir=$2/etcup,workdir=$2/etcwork" /etc
	fi
	TMPDIR=$2/tmp mkinitramfs -d "$3" -o "$4" "$5"
' sh "$1" "$work" "$3" "$4" "$5"
