#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cross-sysroot.sh ARCH: print the path of a sysroot holding Debian's ARCH
# (arm64, armhf, mips64el, s390x) libraries that boottrace builds against
# and runs with: the -dev packages of the Makefile's LIBS and libc6-dev,
# with everything apt installs beside them (libc6, libgcc-s1, the runtime
# libraries). For `make CROSS_COMPILE=... SYSROOT=...` and for
# `qemu-ARCH -L SYSROOT` (tests/e2e/cross.sh; README.md, "Building").
#
# Nothing is installed and dpkg's architectures are not changed: apt is
# asked with a private sources list and lists (tests/e2e/apt-private.sh)
# as on a machine of ARCH alone; its resolver says which packages an
# install of the -dev packages needs on an empty machine (no version is
# chosen here), each .deb comes through the one package cache, checked
# against the SHA256 of apt's index, and is unpacked with dpkg-deb -x.
# The sysroot is ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/cross/ARCH-KEY,
# KEY a hash of the resolved set ("PKG VERSION ARCH" lines): a new point
# release makes a new one. Offline, or when the archive cannot deliver the
# set, the newest complete sysroot of ARCH is printed (said on stderr).
# Exit 3, said on stderr, when there is none.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/progress.sh
. "$here/../../scripts/progress.sh"
# shellcheck source=tests/e2e/apt-private.sh
. "$here/apt-private.sh"

say() { echo "cross-sysroot.sh: $*" >&2; }
[ $# = 1 ] || { say "usage: cross-sysroot.sh ARCH"; exit 2; }
arch=$1
case $arch in *[!a-z0-9]* | '') say "not a Debian architecture: '$arch'"; exit 2 ;; esac
# the headers and libraries of the Makefile's LIBS (-lelf -lcapstone -llzma
# -lzstd -llz4 -lz -lmd -pthread) and of libc
devs="libc6-dev libelf-dev libcapstone-dev liblzma-dev libzstd-dev liblz4-dev zlib1g-dev libmd-dev"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/cross
mirror=${BT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$cache"

# newest: the complete sysroot of ARCH made last (the fallback offline)
newest() {
	# shellcheck disable=SC2012 # our own names, no newline in them
	n_=$(ls -td "$cache/$arch"-*/ok 2>/dev/null | head -n 1)
	[ -n "$n_" ] || return 1
	say "$1: taking the newest cached sysroot of $arch"
	dirname "$n_"
}

apt_private "$cache/apt-$arch" "$arch"
key=/usr/share/keyrings/debian-archive-keyring.gpg
# ARCH only (the lists of one architecture, about 10 MB) of the main suite:
# it changes at point releases only, where the security suite moves daily
# (a new sysroot each time) and its mirrors lag per architecture
printf 'deb [arch=%s signed-by=%s] %s bookworm main\n' "$arch" "$key" "$mirror" >"$apt/sources.list"
# a mirror caught mid-sync ("File has unexpected size") is asked once more
update() { progress_run -o "$apt/update.log" "apt-get update ($arch)" aget update -q --error-on=any </dev/null; }
if ! update && ! { sleep 5 && update; }; then
	newest "apt-get update failed ($(apt_words "$apt/update.log"))" && exit 0
	say "apt-get update for $arch failed and no sysroot of $arch is cached: $(apt_words "$apt/update.log")"
	exit 3
fi

w=$(mktemp -d "$cache/.work.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
: >"$w/empty-status"
# shellcheck disable=SC2086 # $devs is a list of names
if ! apt_simulate "$w/empty-status" "$w/apt.log" $devs >"$w/set"; then
	newest "apt cannot resolve the set ($(apt_words "$w/apt.log"))" && exit 0
	say "apt cannot install $devs for $arch: $(apt_words "$w/apt.log")"
	exit 3
fi
[ -s "$w/set" ] || { say "apt resolved no package for $arch (see $w/apt.log)"; exit 3; }
LC_ALL=C sort "$w/set" >"$w/set.sorted"
d=$cache/$arch-$(sha256sum <"$w/set.sorted" | cut -c1-16)
if [ -f "$d/ok" ]; then
	echo "$d"
	exit 0
fi

why=$(apt_fetch_set <"$w/set.sorted") || {
	newest "$why" && exit 0
	say "$why"
	exit 3
}
while read -r p v a; do
	dpkg-deb -x "$(apt_deb_of "$p" "$v" "$a")" "$w/root"
done <"$w/set.sorted"

# Absolute symbolic links (libfoo.so -> /lib/TRIPLET/libfoo.so.1) would
# lead the linker to this machine's own files: each is made relative,
# inside the sysroot.
find "$w/root" -type l | while read -r l; do
	t=$(readlink "$l")
	case $t in /*) ;; *) continue ;; esac
	ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$w/root$t")" "$l"
done
cp "$w/set.sorted" "$w/root/.cross-set"
mv "$w/root" "$d.new"
rm -rf "$d"
mv "$d.new" "$d"
touch "$d/ok"
say "sysroot of $arch: $(wc -l <"$d/.cross-set") packages in $d"
echo "$d"
