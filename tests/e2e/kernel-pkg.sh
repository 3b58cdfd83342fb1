#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-pkg.sh ARCH FLAVOUR: print the directory of an unpacked Debian 6.1
# kernel (the version linux-image-FLAVOUR:ARCH points at) and busybox-static
# for the same architecture, for the tests that boot one in QEMU: amd64
# cloud-amd64 (tests/e2e/kernel.sh: make demo, S1, the hook tests), arm64
# cloud-arm64 (S5, booted by U-Boot) and mips64el 5kc-malta (S6,
# tests/e2e/check.sh). Fetched with `apt-get
# download`, checked against apt's SHA256, unpacked with `dpkg -x`, once:
# cached under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/ARCH/KPKG_KVERSION/
# with root/ (the kernel package, modules.dep from depmod), busybox (static,
# ARCH) and kver. Nothing is installed. apt only knows ARCH packages once
# the architecture is added (`dpkg --add-architecture ARCH` + apt-get
# update): done here when missing, as root, and said so. Offline, the newest
# cached kernel is used. Exit 3 when nothing can be had, 2 on bad arguments.
set -eu
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/../../scripts/progress.sh"
# shellcheck source=tests/e2e/apt-private.sh
. "$(dirname "$0")/apt-private.sh"

say() { echo "kernel-pkg.sh: $*" >&2; }
[ $# = 2 ] || { say "usage: kernel-pkg.sh ARCH FLAVOUR (amd64 cloud-amd64, arm64 cloud-arm64, mips64el 5kc-malta)"; exit 2; }
arch=$1
flavour=$2
# the amd64 and MIPS caches keep the names they had before arm64 joined
case $arch in amd64) cdir=kernel ;; mips64el) cdir=mips ;; *) cdir=$arch ;; esac
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/$cdir
mkdir -p "$cache"

cached() {
	d=$(for c in "$cache"/linux-image-*_*/; do [ -f "$c/ok" ] && echo "${c%/}"; done |
		sort -V | tail -n 1)
	[ -n "$d" ] || return 1
	say "apt offers no $arch $flavour kernel; using cached $d"
	echo "$d"
	exit 0
}

if [ "$(dpkg --print-architecture)" != "$arch" ] &&
	! dpkg --print-foreign-architectures | grep -qx "$arch"; then
	if [ "$(id -u)" != 0 ]; then
		cached || { say "apt knows no $arch packages: run (as root) dpkg --add-architecture $arch && apt-get update"; exit 3; }
	fi
	say "adding the dpkg architecture $arch (apt-get download of the $arch kernel and busybox; nothing is installed)"
	dpkg --add-architecture "$arch"
	apt-get update -qq || { say "apt-get update failed"; cached || exit 3; }
fi

pkg=$(apt-cache depends "linux-image-$flavour:$arch" 2>/dev/null |
	sed -n "s/^ *Depends: \\(linux-image-6\\.1\\.0-[0-9]*-$flavour\\)\\(:$arch\\)\\{0,1\\}\$/\\1/p" | head -n 1)
ver=
[ -n "$pkg" ] && ver=$(apt-cache show --no-all-versions "$pkg:$arch" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
if [ -z "$pkg" ] || [ -z "$ver" ]; then
	cached || { say "apt offers no linux-image-6.1.0-*-$flavour:$arch (apt-get update?)"; exit 3; }
fi
d=$cache/${pkg}_$ver
if [ -f "$d/ok" ]; then
	echo "$d"
	exit 0
fi

w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"
# on a terminal a line with the bytes so far (scripts/progress.sh)
(cd "$w" && progress_run -k -o "$w/log" -s "$w" "kernel-pkg.sh: downloading $pkg:$arch and busybox-static:$arch" \
	apt-get download "$pkg:$arch=$ver" "busybox-static:$arch") || {
	cat "$w/log" >&2
	say "apt-get download $pkg:$arch busybox-static:$arch failed"
	exit 3
}
for p in "$pkg" busybox-static; do
	deb=$(ls "$w"/"${p}"_*_"$arch".deb)
	deb_sha_ok "$deb" apt-cache show --no-all-versions "$p:$arch" || exit 3
done
dpkg -x "$w/${pkg}"_*.deb "$w/root"
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
