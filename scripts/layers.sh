#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The layer rule of docs/architecture.md, checked: prints the include graph
# between the folders of parser/ and bootcfg/ and fails on
#  - an include of a later layer (the order is the Makefile's LAYERS),
#  - a cycle of includes between files,
#  - with built objects (BUILD, default build/obj): a cycle of calls between
#    files (file A uses a name file B defines, and B one of A's, directly or
#    through others).
# Usage: scripts/layers.sh [-q]   (-q: only the verdict)
set -u
cd "$(dirname "$0")/.." || exit 3
quiet=${1:-}
BUILD=${BUILD:-build/obj}
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
bad=0

layers="parser $(sed -n 's/^LAYERS *:= *//p' Makefile)"
[ -n "$(echo "$layers" | cut -d' ' -f2)" ] || { echo "layers: no LAYERS line in Makefile" >&2; exit 3; }

# file edges "from to" (paths as in the tree); a layer is a folder of
# bootcfg/, or a folder of one (report/lex), as LAYERS names it
for f in parser/*.[ch] bootcfg/*/*.[ch] bootcfg/*/*/*.[ch]; do
	[ -f "$f" ] || continue
	sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
		case $inc in
		*/*) to="bootcfg/$inc" ;;
		*) to="${f%/*}/$inc"; [ -f "$to" ] || to="parser/$inc" ;;
		esac
		[ -f "$to" ] || { echo "$f: includes \"$inc\", which is neither bootcfg/$inc, beside it nor in parser/" >>"$tmp/errors"; continue; }
		echo "$f $to"
	done
done >"$tmp/files"
[ -s "$tmp/errors" ] && { cat "$tmp/errors"; bad=1; }

# folder graph: "n from to", and the check of each edge against the order
awk -v layers="$layers" '
function folder(p,  x, n) { n = split(p, x, "/"); return x[1] == "parser" ? "parser" : n > 3 ? x[2] "/" x[3] : x[2] }
BEGIN { n = split(layers, l, " "); for (i = 1; i <= n; i++) rank[l[i]] = i }
{ a = folder($1); b = folder($2); if (a != b) { cnt[a " " b]++; ex[a " " b] = ex[a " " b] "  " $1 " -> " $2 "\n" } }
END {
	for (k in cnt) {
		split(k, ab, " ")
		printf "%d %s %s\n", cnt[k], ab[1], ab[2] > FILENAME ".folders"
		if (!(ab[1] in rank) || !(ab[2] in rank))
			printf "layers: folder %s or %s is not in the Makefile LAYERS\n", ab[1], ab[2] > "/dev/stderr"
		else if (rank[ab[2]] >= rank[ab[1]])
			printf "layers: upward include: %s includes %s, a later layer:\n%s", ab[1], ab[2], ex[k] > "/dev/stderr"
		else continue
		bad = 1
	}
	exit bad
}' "$tmp/files" || bad=1
[ "$quiet" = -q ] || {
	echo "layers, lowest first: $layers"
	sort -k2,2 -k3,3 "$tmp/files.folders" | awk '{printf "  %-8s -> %-8s (%d includes)\n", $2, $3, $1}'
}

# cycles: tsort names the files of a loop on stderr
cycles() { # what edges-file
	tsort "$2" >/dev/null 2>"$tmp/loop" || true
	if [ -s "$tmp/loop" ]; then
		echo "layers: a cycle of $1 between files:" >&2
		sed -n 's/^tsort: [^:]*: input contains a loop:/  a loop:/p; /^tsort: [^:]*: input/!s/^tsort: /    /p' "$tmp/loop" >&2
		bad=1
	fi
}
cycles includes "$tmp/files"

if [ -d "$BUILD/bootcfg" ]; then
	for o in "$BUILD"/parser/*.o "$BUILD"/bootcfg/*/*.o "$BUILD"/bootcfg/*/*/*.o; do
		[ -f "$o" ] || continue
		src=${o#"$BUILD"/}; src=${src%.o}.c
		nm "$o" | awk -v s="$src" '$2 ~ /^[TDRBC]$/ {print "D", $3, s} $1 == "U" {print "U", $2, s}'
	done >"$tmp/syms"
	awk '$1 == "D" {def[$2] = $3} $1 == "U" {use[NR] = $2; by[NR] = $3}
	     END {for (i in use) if ((use[i] in def) && def[use[i]] != by[i]) print by[i], def[use[i]]}' \
		"$tmp/syms" | sort -u >"$tmp/calls"
	cycles calls "$tmp/calls"
	[ "$quiet" = -q ] || echo "calls between files: $(wc -l <"$tmp/calls") edges"
else
	echo "layers: $BUILD not built: calls not checked (make all first)" >&2
	bad=1
fi

if [ "$bad" = 0 ]; then
	echo "layers: 1 passed, 0 failed"
else
	echo "layers: 0 passed, 1 failed"
	exit 1
fi
