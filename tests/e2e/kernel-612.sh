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
# Which kernel is the resolver's choice (tests/e2e/apt-set.sh, asked with a
# PRIVATE sources list and private lists under the cache: the system's apt
# configuration is neither read for sources nor changed): an image with its
# -dbg that bookworm-backports delivers whole, said in "#" lines on stderr.
# The image is unpacked with `dpkg -x` (nothing is installed) and cached
# under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel-6.12/KPKG_VERSION/.
# Offline (apt-get update fails), a set already cached is used.
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
# bookworm too: the image depends on packages only the base suite has
# (linux-base, kmod, initramfs-tools), and apt resolves the set with them;
# the host's architecture only
key=/usr/share/keyrings/debian-archive-keyring.gpg
arch=$(dpkg --print-architecture)
printf 'deb [arch=%s signed-by=%s] %s %s main\n' \
	"$arch" "$key" "$mirror" bookworm-backports "$arch" "$key" "$mirror" bookworm >"$apt/sources.list"

aget update -qq >"$apt/update.log" 2>&1 ||
	{ sed 's/^/# /' "$apt/update.log" >&2; say "apt-get update of bookworm-backports failed: only a cached set can be used"; }
members=$(sh "$(dirname "$0")/apt-set.sh" --apt "$cache/apt" 6.12 cloud-amd64 dbg) || exit 3
# the image first, then its -dbg: PKG VERSION ARCH DEB
# shellcheck disable=SC2086 # words of two lines
set -- $members
pkg=$1
ver=$2
ideb=$4
ddeb=$8
d=$cache/${pkg}_$ver
if [ -f "$d/ok" ]; then
	echo "$d"
	exit 0
fi
w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"
dpkg -x "$ideb" "$w/root"
for kver in "$w"/root/lib/modules/*; do kver=${kver##*/}; break; done
depmod -b "$w/root" "$kver"
echo "$kver" >"$w/kver"
dpkg-deb --fsys-tarfile "$ddeb" | tar -xOf - "./usr/lib/debug/boot/System.map-$kver" >"$w/System.map" || {
	say "$pkg-dbg has no usr/lib/debug/boot/System.map-$kver"
	exit 3
}
grep -q ' T _text$' "$w/System.map" || { say "$w/System.map has no _text"; exit 3; }
rm -rf "$d"
mv "$w" "$d"
trap - EXIT INT TERM HUP
touch "$d/ok"
echo "$d"
