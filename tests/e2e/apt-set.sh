#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# apt-set.sh: the one place that chooses which Debian kernel packages a test
# fetches (docs/test-archive.md). A test never asks for one package at a
# version of its own making: it asks for a SET (a kernel image and the parts
# it needs beside it), and this script finds one that the archive can
# deliver now, as a whole, and that apt's own resolver accepts.
#
#   apt-set.sh [--apt DIR] [--arch ARCH] [--image PKG=VER] SERIES FLAVOUR [PART...]
#
# SERIES is the kernel's series (6.1, 6.12), FLAVOUR the image's (cloud-amd64,
# cloud-arm64, 5kc-malta), PART any of
#   headers  linux-headers-KVER and what apt installs with it among
#            linux-headers-* and linux-kbuild-* (the flavour's Makefile
#            includes the common part; kbuild has the scripts and modpost)
#   dbg      linux-image-KVER-dbg (vmlinux and the real System.map)
# --apt DIR asks apt with the private sources list DIR/sources.list and
# private lists (tests/e2e/apt-private.sh); without it, the system's apt.
# --image PKG=VER takes that image or nothing (a test that already boots
# it and wants its other parts).
#
# The candidates, in order: the image that the metapackage
# linux-image-FLAVOUR points at now; the sets already complete in the cache
# (newest first); every other image of SERIES the archive lists (newest
# first); last, the one the distribution's main suite carries (stable
# between point releases, where the security suite moves daily). For each,
# apt resolves the parts as it would install them (`apt-get -s install`
# against an empty dpkg status, so that nothing of this machine counts),
# every member is downloaded and checked against the SHA256 of apt's index;
# the first candidate whose every member arrives is the set. Members are
# cached by package, version and architecture under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/apt-set/debs/, each complete set
# as a file under .../sets/; a cached set needs no network.
#
# Standard output: one line a member, "PKG VERSION ARCH DEB", the image
# first. Standard error: "# " lines saying the set taken and why each
# earlier candidate was passed over (the suites keep them in their logs).
# Exit 0; 3 when no candidate is whole, with one line naming what the
# archive lacks; 2 on bad arguments.
# shellcheck disable=SC2317 # the candidate stages run through $stage
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=scripts/progress.sh
. "$here/../../scripts/progress.sh"
# shellcheck source=tests/e2e/apt-private.sh
. "$here/apt-private.sh"

say() { echo "apt-set.sh: $*" >&2; }
usage() { say "usage: apt-set.sh [--apt DIR] [--arch ARCH] [--image PKG=VER] SERIES FLAVOUR [headers] [dbg]"; exit 2; }
arch=$(dpkg --print-architecture)
only=
apt=
while [ $# -gt 0 ]; do
	case $1 in
	--apt) [ $# -ge 2 ] || usage; apt_private "$2"; shift 2 ;;
	--arch) [ $# -ge 2 ] || usage; arch=$2; shift 2 ;;
	--image) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -ge 2 ] || usage
series=$1
flavour=$2
shift 2
parts=
for p; do
	case $p in headers | dbg) parts="$parts $p" ;; *) usage ;; esac
done
parts=$(echo "$parts" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ' | sed 's/ $//')

cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/apt-set
mkdir -p "$cache/sets"
w=$(mktemp -d "$cache/.work.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"
: >"$w/empty-status"
: >"$w/passed"

# the image packages of SERIES and FLAVOUR: linux-image-6.1.0-56-cloud-amd64,
# linux-image-6.12.48+deb12-cloud-amd64; not -dbg, not -unsigned
sre=$(echo "$series" | sed 's/\./\\./g')
fre=$(echo "$flavour" | sed 's/\./\\./g')
image_re="^linux-image-${sre}[.-][^ ]*-$fre\$"
# the name of the set of IMAGE VERSION in sets/ (one file a set)
set_name() { echo "$1_$(echo "$2" | tr ':~' '%-')_${arch}_$(echo "$parts" | tr ' ' '+')"; }

# madison PKG: "VERSION SUITE" a line, as the archive lists them
madison() {
	acache madison "$1:$arch" </dev/null 2>/dev/null | awk -F'|' '
		{ for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i)
		  split($3, s, " "); sub(/\/.*/, "", s[2]); print $2, s[2] }'
}

# ---- the candidates: "IMAGE VERSION ORIGIN" a line, stage by stage ----
# (each stage is asked of apt only when the ones before it gave no set;
# they run through $stage below)
stage_meta() {
	if [ -n "$only" ]; then
		echo "${only%%=*} ${only#*=} asked"
		return
	fi
	# of every version of the metapackage, the newest whose image is of
	# SERIES (backports' metapackage is not apt's candidate beside the base
	# suite's, whose priority is higher)
	meta=$(acache show "linux-image-$flavour:$arch" </dev/null 2>/dev/null | awk '
		/^Version: / { v = $2 }
		/^Depends: / { n = split(substr($0, 10), d, /, */)
		  for (i = 1; i <= n; i++) { sub(/[ :(].*/, "", d[i]); print v, d[i] } }' |
		awk -v re="$image_re" '$2 ~ re' | sort -k1,1Vr | head -n 1 | cut -d' ' -f2) || :
	[ -z "$meta" ] || madison "$meta" | head -n 1 | sed "s/^\([^ ]*\) .*/$meta \1 metapackage/"
}
# the complete sets of the cache, newest first
stage_cached() {
	[ -z "$only" ] || return 0
	for s in "$cache"/sets/*_"${arch}_$(echo "$parts" | tr ' ' '+')"; do
		[ -f "$s" ] || continue
		head -n 1 "$s" | awk '{ print $1, $2, "cached" }'
	done | sort -t' ' -k2,2Vr
}
# every image of SERIES the archive lists, newest first, the main suite's last
stage_archive() {
	[ -z "$only" ] || return 0
	main=$(sed -n 's/^VERSION_CODENAME=//p' /etc/os-release 2>/dev/null)
	: >"$w/main"
	acache pkgnames linux-image- 2>/dev/null | grep -E "$image_re" | sort -Vr | while read -r img; do
		madison "$img" | while read -r v suite; do
			if [ "$suite" = "${main:-bookworm}" ]; then
				echo "$img $v main" >>"$w/main"
			else
				echo "$img $v archive"
			fi
		done
	done
	sort -u "$w/main"
}

# ---- one candidate ----------------------------------------------------
passed() { # IMAGE VERSION WHY
	echo "$1=$2: $3" >>"$w/passed"
	echo "# apt-set: passed over $1 $2: $3" >&2
}
# the heads apt is asked to install for IMAGE VERSION
heads() {
	echo "$1:$arch=$2"
	kv=${1#linux-image-}
	for p in $parts; do
		case $p in
		headers) echo "linux-headers-$kv:$arch=$2" ;;
		dbg) echo "$1-dbg:$arch=$2" ;;
		esac
	done
}
# the members of the set apt resolves for IMAGE VERSION, "PKG VERSION ARCH"
# a line, the image first; fails with apt's own words in $w/apt.log
resolve() {
	# shellcheck disable=SC2046 # one word a head
	apt_simulate "$w/empty-status" "$w/apt.log" $(heads "$1" "$2") >"$w/inst" || return 1
	while read -r p v a; do
		case $p in
		"$1") echo "$p $v $a" ;;
		"$1-dbg") case " $parts " in *" dbg "*) echo "$p $v $a" ;; esac ;;
		linux-headers-* | linux-kbuild-*) case " $parts " in *" headers "*) echo "$p $v $a" ;; esac ;;
		esac
	done <"$w/inst" | sort -k1,1 | awk -v img="$1" '$1 == img { print; next } { rest = rest $0 "\n" } END { printf "%s", rest }'
}
# take_set IMAGE VERSION: the set's members, all fetched, into sets/, or fail
# saying why
take_set() {
	s=$cache/sets/$(set_name "$1" "$2")
	if [ -f "$s" ] && while read -r p v a; do [ -f "$(apt_deb_of "$p" "$v" "$a")" ] || exit 1; done <"$s"; then
		cp "$s" "$w/set"
		return 0
	fi
	if ! resolve "$1" "$2" >"$w/set"; then
		passed "$1" "$2" "apt cannot install it: $(apt_words "$w/apt.log")"
		return 1
	fi
	for want in $(heads "$1" "$2"); do
		want=${want%%:*}
		grep -q "^$want " "$w/set" ||
			{ passed "$1" "$2" "apt would not install $want at $2"; return 1; }
	done
	while read -r p v a; do
		why=$(apt_fetch "$p" "$v" "$a") || { passed "$1" "$2" "$why"; return 1; }
	done <"$w/set"
	cp "$w/set" "$s.new"
	mv "$s.new" "$s"
}

: >"$w/tried"
for stage in stage_meta stage_cached stage_archive; do
	$stage >"$w/candidates"
	while read -r img ver origin; do
		! grep -qxF "$img $ver" "$w/tried" || continue
		echo "$img $ver" >>"$w/tried"
		take_set "$img" "$ver" || continue
		echo "# apt-set: $arch $flavour${parts:+ with $parts}: $(awk '{ printf "%s%s %s", sep, $1, $2; sep = ", " }' "$w/set") ($origin)" >&2
		while read -r p v a; do echo "$p $v $a $(apt_deb_of "$p" "$v" "$a")"; done <"$w/set"
		exit 0
	done <"$w/candidates"
done
[ -s "$w/tried" ] || {
	say "the archive lists no linux-image-$series*-$flavour:$arch and nothing is cached (apt-get update?)"
	exit 3
}
say "no coherent $arch $flavour${parts:+ with $parts} set can be had: $(tr '\n' ';' <"$w/passed" | sed 's/;$//; s/;/; /g')"
exit 3
