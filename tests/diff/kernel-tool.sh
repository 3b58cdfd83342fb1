#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the Linux kernel's own tools/bootconfig from Debian's
# linux-source-6.1 tarball and print the path of the binary. It is the
# oracle of the differential test and the baseline of the benchmark; no
# kernel code is kept in this repository, it is only extracted at test time
# into the cache:
#
#   ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel-tool/<sha16>/
#       bootconfig      the tool, built -O2 -g (callgrind needs the symbols)
#       samples/        tools/bootconfig/samples/*.bconf
#       src/            the few extracted sources
#       sha256          sha256 of the tarball it was built from
#
# <sha16> is the first 16 hex digits of the tarball's sha256. So that a
# second run is instant, the tarball is hashed only once: by-key/ maps the
# package version plus the tarball's size and mtime to <sha16>.
#
# Exit status: 0 and the path on stdout; 3 when linux-source-6.1 is missing
# (run `make deps`); 1 when extracting or building fails.
set -eu

PKG=linux-source-6.1
TARBALL=${KERNEL_TARBALL:-/usr/src/$PKG.tar.xz}
BASE=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernel-tool
KCC=${KERNEL_TOOL_CC:-gcc}

die() { echo "kernel-tool: $*" >&2; exit 1; }

status=$(dpkg-query -W -f='${Status}|${Version}' "$PKG" 2>/dev/null) || status=
case $status in
"install ok installed|"*) ver=${status#*|} ;;
*) ver= ;;
esac
if [ -z "$ver" ] || [ ! -r "$TARBALL" ]; then
	echo "kernel-tool: $PKG is not installed (no $TARBALL): run \`make deps\`" >&2
	exit 3
fi

# shellcheck disable=SC2046
set -- $(stat -L -c '%s %Y' "$TARBALL")
key=$(printf '%s-%s-%s' "$ver" "$1" "$2" | tr -c 'A-Za-z0-9.+~_-' '_')
keyfile=$BASE/by-key/$key

# Fast path: a tool already built from this very tarball.
if [ -r "$keyfile" ]; then
	IFS= read -r sha16 <"$keyfile" || sha16=
	if [ -n "$sha16" ] && [ -x "$BASE/$sha16/bootconfig" ]; then
		echo "$BASE/$sha16/bootconfig"
		exit 0
	fi
fi

mkdir -p "$BASE/by-key"
tmp=$(mktemp -d "$BASE/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM HUP

echo "kernel-tool: extracting tools/bootconfig from $TARBALL ($PKG $ver)" >&2
# Hash while tar decompresses: two cores, two jobs.
sha256sum "$TARBALL" >"$tmp/sha256.out" &
shapid=$!
top=$PKG
mkdir "$tmp/src"
tar -xJf "$TARBALL" -C "$tmp/src" \
	"$top/tools/bootconfig" \
	"$top/lib/bootconfig.c" \
	"$top/include/linux/bootconfig.h" ||
	die "cannot extract tools/bootconfig from $TARBALL"
wait "$shapid" || die "cannot hash $TARBALL"
read -r sha _ <"$tmp/sha256.out"
sha16=$(printf '%.16s' "$sha")
echo "$sha" >"$tmp/sha256"
rm -f "$tmp/sha256.out"

ksrc=$tmp/src/$top
[ -f "$ksrc/tools/bootconfig/main.c" ] || die "no tools/bootconfig/main.c in $TARBALL"
echo "kernel-tool: building tools/bootconfig with $KCC -O2 -g" >&2
# The same sources as tools/bootconfig/Makefile, built directly: that
# Makefile hard-codes CFLAGS (-g, no -O) and runs its self-test on `all`.
(cd "$ksrc/tools/bootconfig" &&
	"$KCC" -O2 -g -Wall -Iinclude -o "$tmp/bootconfig" \
		main.c ../../lib/bootconfig.c) ||
	die "building tools/bootconfig failed"
mkdir "$tmp/samples"
cp "$ksrc"/tools/bootconfig/samples/*.bconf "$tmp/samples/"

dest=$BASE/$sha16
if [ ! -x "$dest/bootconfig" ]; then
	rm -rf "$dest"
	# -T: fail rather than move into a directory a concurrent run made.
	mv -T "$tmp" "$dest" 2>/dev/null || [ -x "$dest/bootconfig" ] ||
		die "cannot install into $dest"
fi
printf '%s\n' "$sha16" >"$keyfile.tmp.$$" && mv -f "$keyfile.tmp.$$" "$keyfile"
echo "$dest/bootconfig"
