#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-pkg.sh ARCH FLAVOUR [PART...]: print the directory of an unpacked
# Debian 6.1 kernel and busybox-static for the same architecture, for the
# tests that boot one in QEMU: amd64 cloud-amd64 (tests/e2e/kernel.sh: make
# demo, S1, the hook tests), arm64 cloud-arm64 (S5, booted by U-Boot) and
# mips64el 5kc-malta (S6, tests/e2e/check.sh). Which kernel is the
# resolver's choice (tests/e2e/apt-set.sh): a set the archive delivers
# whole, with the PARTs the caller needs beside the image (headers for a
# module built against it, dbg for its System.map), the choice said in "#"
# lines on stderr. The image is unpacked with `dpkg -x`, once: cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/ARCH/KPKG_KVERSION/ with root/
# (the kernel package, modules.dep from depmod), busybox (static, ARCH) and
# kver. Nothing is installed. apt only knows ARCH packages once the
# architecture is added (`dpkg --add-architecture ARCH` + apt-get update):
# done here when missing, as root, and said so. Exit 3 when nothing can be
# had, 2 on bad arguments.
set -eu
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/../../scripts/progress.sh"
# shellcheck source=tests/e2e/apt-private.sh
. "$(dirname "$0")/apt-private.sh"

say() { echo "kernel-pkg.sh: $*" >&2; }
[ $# -ge 2 ] || { say "usage: kernel-pkg.sh ARCH FLAVOUR [headers] [dbg] (amd64 cloud-amd64, arm64 cloud-arm64, mips64el 5kc-malta)"; exit 2; }
arch=$1
flavour=$2
shift 2
# the amd64 and MIPS caches keep the names they had before arm64 joined
case $arch in amd64) cdir=kernel ;; mips64el) cdir=mips ;; *) cdir=$arch ;; esac
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/$cdir
mkdir -p "$cache"

if [ "$(dpkg --print-architecture)" != "$arch" ] &&
	! dpkg --print-foreign-architectures | grep -qx "$arch"; then
	if [ "$(id -u)" = 0 ]; then
		say "adding the dpkg architecture $arch (apt-get download of the $arch kernel and busybox; nothing is installed)"
		dpkg --add-architecture "$arch"
		apt-get update -qq || say "apt-get update failed: only what is cached can be used"
	else
		say "apt knows no $arch packages (as root: dpkg --add-architecture $arch && apt-get update): only what is cached can be used"
	fi
fi

members=$(sh "$(dirname "$0")/apt-set.sh" --arch "$arch" 6.1 "$flavour" "$@") || exit 3
# the image is the set's first member: PKG VERSION ARCH DEB
# shellcheck disable=SC2086 # words of one line
set -- $members
pkg=$1
ver=$2
ideb=$4
d=$cache/${pkg}_$ver
if [ -f "$d/ok" ]; then
	echo "$d"
	exit 0
fi

w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"
# busybox-static: whatever version apt offers (the initramfs's shell, not
# part of the kernel's set)
(cd "$w" && progress_run -k -o "$w/log" -s "$w" "kernel-pkg.sh: downloading busybox-static:$arch" \
	apt-get download "busybox-static:$arch" </dev/null) || {
	cat "$w/log" >&2
	say "apt-get download busybox-static:$arch failed"
	exit 3
}
deb_sha_ok "$(ls "$w"/busybox-static_*_"$arch".deb)" apt-cache show --no-all-versions "busybox-static:$arch" || exit 3
dpkg -x "$ideb" "$w/root"
dpkg -x "$w"/busybox-static_*.deb "$w/bb"
mv "$w/bb/bin/busybox" "$w/busybox"
for kver in "$w"/root/lib/modules/*; do kver=${kver##*/}; break; done
depmod -b "$w/root" "$kver"
echo "$kver" >"$w/kver"
rm -rf "$w"/*.deb "$w/bb" "$w/log"
rm -rf "$d"
mv "$w" "$d"
trap - EXIT INT TERM HUP
touch "$d/ok"
echo "$d"
