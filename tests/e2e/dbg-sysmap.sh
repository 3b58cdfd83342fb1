#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# dbg-sysmap.sh KDIR: print the path of the real System.map of the Debian
# kernel unpacked in KDIR (a directory tests/e2e/kernel-pkg.sh printed,
# named PKG_VERSION). The real map is only in the PKG-dbg package (amd64
# about 283 MB, mips64el about 664 MB): it is fetched with `apt-get
# download`, checked against apt's SHA256, and only boot/System.map-KVER
# is taken out of it (dpkg-deb --fsys-tarfile | tar -xO); the .deb is
# deleted. Cached once under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/
# dbg-sysmap/PKG-dbg_VERSION/System.map. The download time goes to stderr.
# Exit 3 when it cannot be had, 2 on bad arguments.
set -eu
say() { echo "dbg-sysmap.sh: $*" >&2; }
[ $# = 1 ] && [ -d "$1" ] || { say "usage: dbg-sysmap.sh KDIR (a directory printed by tests/e2e/kernel-pkg.sh)"; exit 2; }
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
(cd "$w" && apt-get download "$pkg-dbg:$arch=$ver") >"$w/log" 2>&1 || {
	cat "$w/log" >&2
	say "apt-get download $pkg-dbg:$arch=$ver failed"
	exit 3
}
t1=$(date +%s)
deb=$(ls "$w"/*.deb)
say "downloaded $pkg-dbg:$arch $ver ($(($(stat -c %s "$deb") / 1048576)) MB) in $((t1 - t0)) s"
want=$(apt-cache show --no-all-versions "$pkg-dbg:$arch=$ver" | sed -n 's/^SHA256: //p' | head -n 1)
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ -z "$want" ] || [ "$want" != "$got" ]; then
	say "$deb: sha256 $got, apt says ${want:-nothing}"
	exit 3
fi
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/lib/debug/boot/System.map-$kver" >"$w/System.map" 2>/dev/null ||
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/System.map-$kver" >"$w/System.map"
rm -f "$deb"
[ -s "$w/System.map" ] || { say "$pkg-dbg holds no System.map-$kver"; exit 3; }
mkdir -p "$cache"
mv "$w/System.map" "$cache/System.map"
echo "$cache/System.map"
