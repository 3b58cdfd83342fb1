#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch a real Debian kernel for the offline checks and print its cache
# directory:  tests/e2e/debian-kernel.sh [FLAVOUR]   (default cloud-amd64)
#
# The version is the one Debian's metapackage linux-image-FLAVOUR points at
# (apt-cache depends); with no apt metadata, the newest already cached one.
# Cached under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/debian/KVER/ (never
# committed), with:
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

kver=$(apt-cache depends "linux-image-$flavour" 2>/dev/null |
	sed -n "s/.*Depends: linux-image-\(6[^ ]*-$flavour\)\$/\1/p" | head -n 1) || kver=
if [ -z "$kver" ]; then
	kver=$(for d in "$cache"/*-"$flavour"; do
		[ -d "$d" ] && echo "${d##*/}"
	done | sort -V | tail -n 1)
	[ -n "$kver" ] || die "no linux-image-$flavour in apt's lists and nothing cached (run apt-get update)"
fi
dir=$cache/$kver
if [ -f "$dir/COMPLETE" ]; then
	echo "$dir"
	exit 0
fi

if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
	die "apt-get and dpkg-deb are needed to fetch linux-image-$kver"
fi
mkdir -p "$cache"
w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
# on a terminal a line with the bytes so far (scripts/progress.sh); the log otherwise
(cd "$w" && progress_run -k -o "$w/log" -s "$w" "debian-kernel: downloading linux-image-$kver and its -dbg (about 300 MB)" \
	apt-get download "linux-image-$kver" "linux-image-$kver-dbg") || die "apt-get download linux-image-$kver(-dbg) failed: $(tail -n 2 "$w/log")"
mkdir -p "$w/img" "$w/out"
dpkg -x "$w"/linux-image-"$kver"_*.deb "$w/img"
dpkg-deb --fsys-tarfile "$w"/linux-image-"$kver"-dbg_*.deb |
	tar -x -C "$w/out" "./usr/lib/debug/boot/vmlinux-$kver" \
		"./usr/lib/debug/boot/System.map-$kver"
mv "$w/out/usr/lib/debug/boot/vmlinux-$kver" "$w/out/vmlinux"
mv "$w/out/usr/lib/debug/boot/System.map-$kver" "$w/out/System.map"
rm -rf "$w/out/usr"
mv "$w/img/boot/config-$kver" "$w/out/config"
mv "$w/img/lib/modules/$kver/kernel" "$w/out/modules"
touch "$w/out/COMPLETE"
rm -rf "$dir"
mv "$w/out" "$dir"
echo "$dir"
