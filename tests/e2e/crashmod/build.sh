#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build.sh KDIR: print the path of crashmod.ko (this folder's test module)
# built for the Debian kernel unpacked in KDIR (tests/e2e/kernel-pkg.sh ...
# headers: kver, root/). The module is built against Debian's own headers
# for that kernel, the set tests/e2e/apt-set.sh resolves for that image:
# linux-headers-KVER (the flavour), linux-headers-KVER-common (its common
# part, shared by all flavours) and the linux-kbuild-6.1 apt would install
# with them (scripts, prebuilt modpost; it may be a newer upload than the
# image, as its dependency allows), unpacked with `dpkg -x`: nothing is
# installed. The flavour's Makefile includes the common one by an absolute
# /usr/src path, rewritten to the unpacked copy. The compiler is the one
# the kernel was built with (CONFIG_CC_VERSION_TEXT: gcc-12 on bookworm).
# Cached under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/crashmod/KVER-SHA
# (SHA: sha256 of crashmod.c and Makefile), the headers under
# .../crashmod/headers-KEY (KEY: the set's members). Exit 3 when it cannot
# be built.
set -eu

say() { echo "crashmod/build.sh: $*" >&2; }
[ $# = 1 ] || { say "usage: build.sh KDIR (from tests/e2e/kernel.sh)"; exit 2; }
kd=$1
here=$(cd "$(dirname "$0")" && pwd)
kver=$(cat "$kd/kver")
# KDIR is .../linux-image-KVER_VERSION: the headers come at the same version
ver=${kd##*_}
sum=$(cat "$here/crashmod.c" "$here/Makefile" | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/crashmod
out=$cache/$kver-$sum
if [ -f "$out/crashmod.ko" ]; then
	echo "$out/crashmod.ko"
	exit 0
fi
mkdir -p "$cache"
pkg=${kd%_*}
pkg=${pkg##*/}
members=$(sh "$here/../apt-set.sh" --image "$pkg=$ver" 6.1 "${kver#*-*-}" headers) || {
	say "no headers set for $pkg $ver (tests/e2e/apt-set.sh)"
	exit 3
}
hd=$cache/headers-$(echo "$members" | cut -d' ' -f1-3 | sha256sum | cut -c1-16)
if [ ! -f "$hd/ok" ]; then
	w=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$w"' EXIT INT TERM HUP
	chmod 755 "$w"
	echo "$members" | while read -r p _ _ deb; do
		case $p in linux-headers-* | linux-kbuild-*) dpkg -x "$deb" "$w/root" ;; esac
	done
	[ -f "$w/root/usr/src/linux-headers-$kver/Makefile" ] ||
		{ say "the headers set of $pkg $ver has no usr/src/linux-headers-$kver"; exit 3; }
	sed -i "s|^include /usr/src/|include $hd/root/usr/src/|" \
		"$w/root/usr/src/linux-headers-$kver/Makefile"
	rm -rf "$hd"
	mkdir "$hd"
	mv "$w/root" "$hd/root"
	# the Makefile names $hd: moved into place before it is used
	touch "$hd/ok"
	rm -rf "$w"
	trap - EXIT INT TERM HUP
fi
hdir=$hd/root/usr/src/linux-headers-$kver
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$hdir/.config")
command -v "$cc" >/dev/null 2>&1 || { say "$cc (the kernel's compiler) is missing: make deps"; exit 3; }
command -v make >/dev/null 2>&1 || { say "make is missing: make deps"; exit 3; }
b=$(mktemp -d "$cache/.build.XXXXXX")
cp "$here/crashmod.c" "$here/Makefile" "$b/"
if ! make -s -C "$hdir" M="$b" CC="$cc" modules >"$b/log" 2>&1; then
	cat "$b/log" >&2
	say "the module did not build against $hdir"
	rm -rf "$b"
	exit 3
fi
rm -rf "$out"
mkdir -p "$out"
mv "$b/crashmod.ko" "$out/crashmod.ko"
rm -rf "$b"
echo "$out/crashmod.ko"
