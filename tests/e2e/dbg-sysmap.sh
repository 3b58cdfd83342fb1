#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dbg-sysmap.sh KDIR: print the path of the real System.map of the Debian
# kernel unpacked in KDIR (a directory tests/e2e/kernel-pkg.sh printed,
# named PKG_VERSION). The real map is only in the PKG-dbg package (amd64
# about 283 MB, mips64el about 664 MB): the resolver fetches it as the
# dbg part of that image's set (tests/e2e/apt-set.sh, which keeps the
# .deb in its cache), and only boot/System.map-KVER is taken out of it
# (dpkg-deb --fsys-tarfile | tar -xO). Cached once under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/dbg-sysmap/PKG-dbg_VERSION/System.map. The download time goes to stderr.
# Exit 3 when it cannot be had, 2 on bad arguments.
set -eu
say() { echo "dbg-sysmap.sh: $*" >&2; }
if [ $# != 1 ] || [ ! -d "$1" ]; then say "usage: dbg-sysmap.sh KDIR (a directory printed by tests/e2e/kernel-pkg.sh)"; exit 2; fi
base=${1%/}
base=${base##*/}
pkg=${base%%_*}
ver=${base#*_}
kver=${pkg#linux-image-}
case $pkg in linux-image-6.*) ;; *) say "$1: not a kernel-pkg.sh directory (PKG_VERSION)"; exit 2 ;; esac
case $1 in */mips/*) arch=mips64el ;; */arm64/*) arch=arm64 ;; *) arch=amd64 ;; esac
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/dbg-sysmap/${pkg}-dbg_$ver
if [ -s "$cache/System.map" ]; then
	echo "$cache/System.map"
	exit 0
fi
mkdir -p "${cache%/*}"
w=$(mktemp -d "${cache%/*}/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
t0=$(date +%s)
# the -dbg of exactly this image, as the resolver fetches a set's members
members=$(sh "$(dirname "$0")/apt-set.sh" --arch "$arch" --image "$pkg=$ver" 6.1 "${kver#*-*-}" dbg) || exit 3
deb=$(echo "$members" | awk -v p="$pkg-dbg" '$1 == p { print $4 }')
[ -f "$deb" ] || { say "the resolver gave no $pkg-dbg"; exit 3; }
say "$pkg-dbg:$arch $ver ($(($(stat -c %s "$deb") / 1048576)) MB) in $(($(date +%s) - t0)) s"
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/lib/debug/boot/System.map-$kver" >"$w/System.map" 2>/dev/null ||
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/System.map-$kver" >"$w/System.map"
[ -s "$w/System.map" ] || { say "$pkg-dbg holds no System.map-$kver"; exit 3; }
mkdir -p "$cache"
mv "$w/System.map" "$cache/System.map"
echo "$cache/System.map"
