#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# kernel-612.sh: print the directory of an unpacked Debian 6.12 cloud-amd64
# kernel from bookworm-backports (the version linux-image-cloud-amd64 points
# at there), for tests/e2e/persistent.sh (the persistent ring buffer needs
# Linux 6.12: docs/kernel-facts.md 50). The directory holds root/ (the
# package's files: boot/vmlinuz-KVER, the modules, modules.dep from
# depmod), kver, and System.map: the real one, taken out of the -dbg
# package (about 300 MB to download once; the package's own
# boot/System.map-KVER is a placeholder, docs/kernel-facts.md 16).
#
# apt is asked with a PRIVATE sources list and private lists, under the
# cache: the system's apt configuration is neither read for sources nor
# changed. The .deb is checked against the SHA256 of the Packages index apt
# verified, unpacked with `dpkg -x` (nothing is installed) and cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel-6.12/KPKG_VERSION/.
# Offline (apt-get update fails), the newest cached kernel is used.
# Exit 3 when no kernel can be had.
set -eu
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/../../scripts/progress.sh"

say() { echo "kernel-612.sh: $*" >&2; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel-6.12
mirror=${BT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# shellcheck source=tests/e2e/apt-private.sh
. "$(dirname "$0")/apt-private.sh"
apt_private "$cache/apt"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm-backports main" \
	>"$apt/sources.list"

cached() {
	d=$(for c in "$cache"/linux-image-*_*/; do [ -f "$c/ok" ] && echo "${c%/}"; done |
		sort -V | tail -n 1)
	[ -n "$d" ] || return 1
	say "$1; using cached $d"
	echo "$d"
	exit 0
}

aget update -qq >"$apt/update.log" 2>&1 || {
	cached "apt-get update of bookworm-backports failed" ||
		{ cat "$apt/update.log" >&2; say "apt-get update of bookworm-backports failed, nothing cached"; exit 3; }
}
pkg=$(acache depends linux-image-cloud-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-6\.12\.[^ :]*-cloud-amd64\)$/\1/p' | head -n 1)
ver=
[ -n "$pkg" ] && ver=$(acache show --no-all-versions "$pkg" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
if [ -z "$pkg" ] || [ -z "$ver" ]; then
	cached "bookworm-backports offers no linux-image-6.12.*-cloud-amd64" ||
		{ say "bookworm-backports offers no linux-image-6.12.*-cloud-amd64"; exit 3; }
fi
d=$cache/${pkg}_$ver
if [ -f "$d/ok" ]; then
	echo "$d"
	exit 0
fi
w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"
(cd "$w" && progress_run -k -o "$w/log" -s "$w" "kernel-612.sh: downloading $pkg" aget download "$pkg=$ver") || {
	cat "$w/log" >&2
	say "apt-get download $pkg=$ver failed"
	exit 3
}
check() { # PKG DEB
	deb_sha_ok "$2" acache show --no-all-versions "$1" || exit 3
}
deb=$(ls "$w"/*.deb)
check "$pkg" "$deb"
dpkg -x "$deb" "$w/root"
rm -f "$deb"
for kver in "$w"/root/lib/modules/*; do kver=${kver##*/}; break; done
depmod -b "$w/root" "$kver"
echo "$kver" >"$w/kver"
say "fetching $pkg-dbg for its System.map (about 300 MB, once)"
(cd "$w" && progress_run -k -o "$w/log" -s "$w" "kernel-612.sh: downloading $pkg-dbg" aget download "$pkg-dbg=$ver") || {
	cat "$w/log" >&2
	say "apt-get download $pkg-dbg=$ver failed"
	exit 3
}
deb=$(ls "$w"/*.deb)
check "$pkg-dbg" "$deb"
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/lib/debug/boot/System.map-$kver" >"$w/System.map" || {
	say "$pkg-dbg has no usr/lib/debug/boot/System.map-$kver"
	exit 3
}
grep -q ' T _text$' "$w/System.map" || { say "$w/System.map has no _text"; exit 3; }
rm -f "$deb" "$w/log"
rm -rf "$d"
mv "$w" "$d"
trap - EXIT INT TERM HUP
touch "$d/ok"
echo "$d"
