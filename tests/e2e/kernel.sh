#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Print the directory of an unpacked Debian linux-image-6.1.0-*-cloud-amd64
# (the version apt offers through linux-image-cloud-amd64), fetched with
# `apt-get download`, checked against apt's SHA256 and unpacked with
# `dpkg -x`, once: it is cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel/PACKAGE_VERSION/ with the
# .deb's sha256 in `sha256`. The directory holds root/ (the package's files,
# with modules.dep from depmod) and `kver`.  Offline, the newest cached
# kernel is used.  Exit 3 when no kernel can be had.
set -eu

cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel
meta=linux-image-cloud-amd64
mkdir -p "$cache"

pkg=$(apt-cache depends "$meta" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-6\.1\.0-[0-9]*-cloud-amd64\)$/\1/p' | head -n 1)
ver=
[ -n "$pkg" ] && ver=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
if [ -z "$pkg" ] || [ -z "$ver" ]; then
	d=$(for c in "$cache"/linux-image-6.1.0-*_*/; do echo "$c"; done | sort -V | tail -n 1)
	if [ -n "$d" ] && [ -f "$d/ok" ]; then
		echo "kernel.sh: apt offers no 6.1 cloud kernel; using cached ${d%/}" >&2
		echo "${d%/}"
		exit 0
	fi
	echo "kernel.sh: apt offers no linux-image-6.1.0-*-cloud-amd64 (apt-get update?)" >&2
	exit 3
fi
d=$cache/${pkg}_$ver
if [ -f "$d/ok" ]; then
	echo "$d"
	exit 0
fi

w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"
(cd "$w" && apt-get download "$pkg=$ver" >/dev/null 2>"$w/log") || {
	cat "$w/log" >&2
	echo "kernel.sh: apt-get download $pkg=$ver failed" >&2
	exit 3
}
deb=$(ls "$w"/*.deb)
want=$(apt-cache show --no-all-versions "$pkg" | sed -n 's/^SHA256: //p' | head -n 1)
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ -n "$want" ] && [ "$want" != "$got" ]; then
	echo "kernel.sh: $deb: sha256 $got, apt says $want" >&2
	exit 3
fi
dpkg -x "$deb" "$w/root"
for kver in "$w"/root/lib/modules/*; do kver=${kver##*/}; break; done
depmod -b "$w/root" "$kver"
echo "$kver" >"$w/kver"
echo "$got" >"$w/sha256"
rm -f "$deb" "$w/log"
rm -rf "$d"
mv "$w" "$d"
trap - EXIT INT TERM HUP
touch "$d/ok"
echo "$d"
