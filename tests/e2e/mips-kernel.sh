#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Print the directory of an unpacked Debian mips64el 5kc-malta kernel (the
# version linux-image-5kc-malta:mips64el points at) and busybox-static for
# mips64el, for the MIPS scenario (S6) of tests/e2e/scenarios.sh. Fetched
# with `apt-get download`, checked against apt's SHA256, unpacked with
# `dpkg -x`, once: cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/mips/KPKG_KVERSION/ with root/
# (the kernel package, modules.dep from depmod), busybox (static, mips64el)
# and kver. Nothing is installed. apt only knows mips64el packages once the
# architecture is added (`dpkg --add-architecture mips64el` + apt-get
# update): done here when missing, as root, and said so. Offline, the newest
# cached kernel is used. Exit 3 when nothing can be had.
set -eu

cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/mips
mkdir -p "$cache"
say() { echo "mips-kernel.sh: $*" >&2; }

cached() {
	d=$(for c in "$cache"/linux-image-*_*/; do [ -f "$c/ok" ] && echo "${c%/}"; done |
		sort -V | tail -n 1)
	[ -n "$d" ] || return 1
	say "apt offers no mips64el 5kc-malta kernel; using cached $d"
	echo "$d"
	exit 0
}

if ! dpkg --print-foreign-architectures | grep -qx mips64el; then
	if [ "$(id -u)" != 0 ]; then
		cached || { say "apt knows no mips64el packages: run (as root) dpkg --add-architecture mips64el && apt-get update"; exit 3; }
	fi
	say "adding the dpkg architecture mips64el (apt-get download of the MIPS kernel and busybox; nothing is installed)"
	dpkg --add-architecture mips64el
	apt-get update -qq || { say "apt-get update failed"; cached || exit 3; }
fi

pkg=$(apt-cache depends linux-image-5kc-malta:mips64el 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-5kc-malta\):mips64el$/\1/p' | head -n 1)
ver=
[ -n "$pkg" ] && ver=$(apt-cache show --no-all-versions "$pkg:mips64el" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
if [ -z "$pkg" ] || [ -z "$ver" ]; then
	cached || { say "apt offers no linux-image-6.1.0-*-5kc-malta:mips64el (apt-get update?)"; exit 3; }
fi
d=$cache/${pkg}_$ver
if [ -f "$d/ok" ]; then
	echo "$d"
	exit 0
fi

w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"
(cd "$w" && apt-get download "$pkg:mips64el=$ver" busybox-static:mips64el >/dev/null 2>"$w/log") || {
	cat "$w/log" >&2
	say "apt-get download $pkg:mips64el busybox-static:mips64el failed"
	exit 3
}
for p in "$pkg" busybox-static; do
	deb=$(ls "$w"/"${p}"_*_mips64el.deb)
	want=$(apt-cache show --no-all-versions "$p:mips64el" | sed -n 's/^SHA256: //p' | head -n 1)
	got=$(sha256sum "$deb" | cut -d' ' -f1)
	if [ -n "$want" ] && [ "$want" != "$got" ]; then
		say "$deb: sha256 $got, apt says $want"
		exit 3
	fi
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
