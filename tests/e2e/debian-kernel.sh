#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch a real Debian kernel for the offline checks and print its cache
# directory:  tests/e2e/debian-kernel.sh [FLAVOUR]   (default cloud-amd64)
#
# The kernel is the resolver's choice of an image with its -dbg package
# (tests/e2e/apt-set.sh: a set the archive delivers whole, said in "#"
# lines on stderr; offline, a set already cached).
# Cached under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/debian/KVER_VERSION/
# (never committed), with:
#   config      /boot/config-KVER            (linux-image-KVER)
#   System.map  the real map                  (linux-image-KVER-dbg; the
#               image package ships an 83-byte placeholder instead)
#   vmlinux     with symbols, __mcount_loc and DWARF (-dbg, ~590 MB)
#   modules/    lib/modules/KVER/kernel of the image package (plain .ko)
# Why the -dbg package and not a kernel built from linux-source-6.1: it is
# the exact kernel whose System.map, .config and bonding.ko are tested
# (same build, same addresses), its symbol table is full size (the bench
# needs that), and it downloads in seconds (283 MB) where a build takes
# minutes and is a different kernel. Only vmlinux and System.map are kept.
# Exit 3 when it cannot be fetched (no network, no apt).
set -eu
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/../../scripts/progress.sh"

flavour=${1:-cloud-amd64}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/debian

die() {
	echo "debian-kernel: $*" >&2
	exit 3
}

command -v dpkg-deb >/dev/null || die "dpkg-deb is needed to unpack the kernel packages"
members=$(sh "$(dirname "$0")/apt-set.sh" 6.1 "$flavour" dbg) || exit 3
# the image first, then its -dbg: PKG VERSION ARCH DEB
# shellcheck disable=SC2086 # words of two lines
set -- $members
kver=${1#linux-image-}
dir=$cache/${kver}_$2
ideb=$4
ddeb=$8
if [ -f "$dir/COMPLETE" ]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$cache"
w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
mkdir -p "$w/img" "$w/out"
dpkg -x "$ideb" "$w/img"
# shellcheck disable=SC2016 # that sh expands them
progress_run -k -s "$w/out" "debian-kernel: unpacking vmlinux and System.map of linux-image-$kver-dbg" \
	sh -c 'dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" "./usr/lib/debug/boot/vmlinux-$3" "./usr/lib/debug/boot/System.map-$3"' \
	sh "$ddeb" "$w/out" "$kver"
mv "$w/out/usr/lib/debug/boot/vmlinux-$kver" "$w/out/vmlinux"
mv "$w/out/usr/lib/debug/boot/System.map-$kver" "$w/out/System.map"
rm -rf "$w/out/usr"
mv "$w/img/boot/config-$kver" "$w/out/config"
mv "$w/img/lib/modules/$kver/kernel" "$w/out/modules"
touch "$w/out/COMPLETE"
rm -rf "$dir"
mv "$w/out" "$dir"
echo "$dir"
