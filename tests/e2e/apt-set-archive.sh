#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel-set resolver (tests/e2e/apt-set.sh) against archives written
# here: a private sources list (file: URIs, Dir::State::Lists in a temp dir)
# over Packages and Release files made with apt-ftparchive from tiny .debs,
# so each state of Debian's archive that broke or could break the suites
# is reproduced exactly, offline (docs/test-archive.md):
#   A  2026-11-28: bookworm-security carries linux-image-6.1.0-56 at
#      6.1.192-2, its headers depend on linux-kbuild-6.1 (>= 6.1.192-2),
#      kbuild only at 6.1.192-3, and ABI 57's headers without its image;
#      main carries ABI 50. The old pin (kbuild=6.1.192-2) fails there.
#   B  a header that pins its kbuild exactly (= a version gone): passed over
#      with apt's words, the next ABI taken
#   C  a member listed but missing from the pool, and one whose bytes are
#      not the index's: passed over, named
#   D  a point release: main's kernel replaced by ABI 57; the new set whole
#      is taken; incomplete, the set cached in A is taken instead
#   E  no network (no lists): the cached set
#   F  nothing whole and nothing cached: exit 3, one line naming what lacks
# Needs apt-get, apt-ftparchive (apt-utils), dpkg-deb. No root, no network.
# Last line: "apt-set: N passed, N failed".
# shellcheck disable=SC2016 # the checks' sh -c scripts expand their own arguments
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 3
SUITE="apt-set"
top=$root
# shellcheck source=tests/e2e/tap.sh
. "$root/tests/e2e/tap.sh"
for t in apt-get apt-ftparchive dpkg-deb; do
	command -v "$t" >/dev/null 2>&1 || { nok "$t is not installed (make deps: apt-utils)"; finish; }
done
if command -v shellcheck >/dev/null 2>&1; then
	t "shellcheck -s sh: the resolver, the fetchers on it and this test" shellcheck -x -s sh \
		tests/e2e/apt-set.sh tests/e2e/apt-private.sh tests/e2e/kernel-pkg.sh tests/e2e/kernel-612.sh \
		tests/e2e/debian-kernel.sh tests/e2e/dbg-sysmap.sh tests/e2e/crashmod/build.sh \
		tests/e2e/qemu-bpo.sh tests/e2e/accel.sh tests/e2e/apt-set-archive.sh
else
	nok "shellcheck is not installed (make deps)"
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT INT TERM HUP
chmod 755 "$W"
export XDG_CACHE_HOME="$W/cache"
resolver=$root/tests/e2e/apt-set.sh

# mkdeb SUITE NAME VERSION ARCH [DEPENDS]: a .deb in the pool of SUITE
mkdeb() {
	d=$W/build/$2_$3_$4
	mkdir -p "$d/DEBIAN" "$W/repo/pool/$1"
	{
		echo "Package: $2"
		echo "Version: $3"
		echo "Architecture: $4"
		echo "Maintainer: boottrace tests <tests@invalid>"
		[ -z "${5:-}" ] || echo "Depends: $5"
		echo "Description: test package $2"
	} >"$d/DEBIAN/control"
	dpkg-deb -Zgzip --build "$d" "$W/repo/pool/$1/$2_$3_$4.deb" >/dev/null
}
# kernel SUITE ABI VERSION [KBUILD-RELATION]: the image, its -dbg, its headers
# and the common headers of one ABI, as Debian's linux source builds them
kernel() {
	mkdeb "$1" "linux-image-6.1.0-$2-cloud-amd64" "$3" amd64
	mkdeb "$1" "linux-image-6.1.0-$2-cloud-amd64-dbg" "$3" amd64
	headers "$@"
}
headers() { # SUITE ABI VERSION [KBUILD-RELATION]
	mkdeb "$1" "linux-headers-6.1.0-$2-common" "$3" all
	mkdeb "$1" "linux-headers-6.1.0-$2-cloud-amd64" "$3" amd64 \
		"linux-headers-6.1.0-$2-common (= $3), linux-kbuild-6.1 (${4:->= $3})"
}
meta() { mkdeb "$1" linux-image-cloud-amd64 "$2" amd64 "linux-image-6.1.0-$3-cloud-amd64 (= $2)"; }
# publish SUITE...: Packages and Release of each suite, a sources list
# naming them, apt's lists of it in DIR=$W/apt (a fresh state each time)
publish() {
	rm -rf "$W/apt"
	mkdir -p "$W/apt"
	: >"$W/apt/sources.list"
	for s; do
		mkdir -p "$W/repo/dists/$s/main/binary-amd64" "$W/repo/pool/$s"
		(cd "$W/repo" && apt-ftparchive packages "pool/$s" >"dists/$s/main/binary-amd64/Packages")
		(cd "$W/repo" && apt-ftparchive -o "APT::FTPArchive::Release::Suite=$s" \
			-o "APT::FTPArchive::Release::Codename=$s" -o APT::FTPArchive::Release::Components=main \
			-o APT::FTPArchive::Release::Architectures=amd64 release "dists/$s" >"$W/Release" &&
			mv "$W/Release" "dists/$s/Release")
		echo "deb [trusted=yes arch=amd64] file:$W/repo $s main" >>"$W/apt/sources.list"
	done
	. "$root/tests/e2e/apt-private.sh"
	apt_private "$W/apt"
	aget update -qq -o APT::Sandbox::User=root -o Dir::State::status=/dev/null >"$W/update.log" 2>&1 ||
		{ cat "$W/update.log"; nok "apt-get update of the test archive"; finish; }
}
# resolve ARGS...: the resolver with the test archive, arch amd64; stdout
# in $W/out, stderr in $W/err
resolve() {
	sh "$resolver" --apt "$W/apt" --arch amd64 "$@" >"$W/out" 2>"$W/err"
}
# shellcheck disable=SC2317 # run through t
member() { grep -q "^$1 $2 " "$W/out"; } # PKG VERSION: in the set taken
show() { sed 's/^/# /' "$W/err"; }

# ---- A: the archive of 2026-11-28 ----
kernel bookworm 50 6.1.176-1
mkdeb bookworm linux-kbuild-6.1 6.1.176-1 amd64
meta bookworm 6.1.176-1 50
kernel bookworm-security 56 6.1.192-2
headers bookworm-security 57 6.1.192-3
mkdeb bookworm-security linux-image-6.1.0-57-cloud-amd64-dbg 6.1.192-3 amd64
mkdeb bookworm-security linux-kbuild-6.1 6.1.192-3 amd64
meta bookworm-security 6.1.192-2 56
publish bookworm bookworm-security
if (cd "$W" && aget download linux-kbuild-6.1=6.1.192-2 >/dev/null 2>&1); then
	nok "A: the pin the suites made (linux-kbuild-6.1=6.1.192-2) fails in this archive"
else
	ok "A: the pin the suites made (linux-kbuild-6.1=6.1.192-2) fails in this archive"
fi
resolve 6.1 cloud-amd64 headers
show
t "A: a set is found (exit 0)" test -s "$W/out"
t "A: the metapackage's image, 56 at 6.1.192-2" member linux-image-6.1.0-56-cloud-amd64 6.1.192-2
t "A: its headers at 6.1.192-2" member linux-headers-6.1.0-56-cloud-amd64 6.1.192-2
t "A: the common headers at 6.1.192-2" member linux-headers-6.1.0-56-common 6.1.192-2
t "A: linux-kbuild-6.1 at 6.1.192-3, the version apt can install" member linux-kbuild-6.1 6.1.192-3
t "A: the image is the first line" sh -c 'head -n 1 "$1" | grep -q "^linux-image-6.1.0-56-cloud-amd64 "' sh "$W/out"
t "A: nothing of ABI 57 (its image is not in the archive)" sh -c '! grep -q "6.1.0-57" "$1"' sh "$W/out"
t "A: each member's .deb is in the cache" sh -c 'while read -r p v a d; do [ -f "$d" ] || exit 1; done <"$1"' sh "$W/out"
t "A: the choice is said in a # line" grep -q '^# apt-set: .*linux-kbuild-6.1 6.1.192-3 (metapackage)' "$W/err"
resolve 6.1 cloud-amd64 dbg
t "A: with dbg: the image and its -dbg at 6.1.192-2" sh -c 'grep -q "^linux-image-6.1.0-56-cloud-amd64-dbg 6.1.192-2 " "$1" && [ "$(wc -l <"$1")" = 2 ]' sh "$W/out"
resolve 6.1 cloud-amd64
t "A: the image alone: one member" sh -c '[ "$(wc -l <"$1")" = 1 ]' sh "$W/out"
resolve --image linux-image-6.1.0-50-cloud-amd64=6.1.176-1 6.1 cloud-amd64 headers
t "A: --image takes main's 50 with its headers, kbuild at 6.1.192-3 (>= 6.1.176-1)" \
	sh -c 'grep -q "^linux-image-6.1.0-50-cloud-amd64 6.1.176-1 " "$1" && grep -q "^linux-kbuild-6.1 6.1.192-3 " "$1"' sh "$W/out"

# ---- B: an exact pin on a kbuild that is gone ----
rm -rf "$W/repo/pool/bookworm-security"/linux-headers-6.1.0-56-*
headers bookworm-security 56 6.1.192-2 "= 6.1.192-2"
kernel bookworm-security 55 6.1.192-1
publish bookworm bookworm-security
rm -rf "$XDG_CACHE_HOME"
resolve 6.1 cloud-amd64 headers
show
t "B: 56 passed over with apt's words" grep -q '^# apt-set: passed over linux-image-6.1.0-56-cloud-amd64 6.1.192-2: apt cannot install it: .*linux-kbuild-6.1' "$W/err"
t "B: the next ABI, 55, taken whole" sh -c 'grep -q "^linux-image-6.1.0-55-cloud-amd64 6.1.192-1 " "$1" && grep -q "^linux-headers-6.1.0-55-common 6.1.192-1 " "$1"' sh "$W/out"
t "B: said as taken from the archive" grep -q '(archive)$' "$W/err"

# ---- C: a member not in the pool; a member whose bytes are not the index's ----
rm -f "$W/repo/pool/bookworm-security/linux-headers-6.1.0-55-common_6.1.192-1_all.deb"
rm -rf "$XDG_CACHE_HOME"
resolve 6.1 cloud-amd64 headers
show
t "C: 55 passed over: its common headers do not download" \
	grep -q 'passed over linux-image-6.1.0-55-cloud-amd64 6.1.192-1: apt-get download linux-headers-6.1.0-55-common=6.1.192-1 failed' "$W/err"
t "C: main's set, 50, taken last" sh -c 'grep -q "^linux-image-6.1.0-50-cloud-amd64 6.1.176-1 " "$1" && grep -q "(main)$" "$2"' sh "$W/out" "$W/err"
cp "$W/repo/pool/bookworm/linux-image-6.1.0-50-cloud-amd64-dbg_6.1.176-1_amd64.deb" "$W/dbg.keep"
printf 'not the bytes apt listed' >>"$W/repo/pool/bookworm/linux-image-6.1.0-50-cloud-amd64-dbg_6.1.176-1_amd64.deb"
resolve --image linux-image-6.1.0-50-cloud-amd64=6.1.176-1 6.1 cloud-amd64 dbg
show
t "C: a .deb whose bytes are not the index's: refused, exit 3, said" \
	sh -c '[ ! -s "$1" ] && grep -Eq "passed over linux-image-6.1.0-50-cloud-amd64 6.1.176-1: .*(Hash Sum mismatch|sha256 .*index says)" "$2"' sh "$W/out" "$W/err"
cp "$W/dbg.keep" "$W/repo/pool/bookworm/linux-image-6.1.0-50-cloud-amd64-dbg_6.1.176-1_amd64.deb"

# ---- D: a point release replaces main's kernel ----
rm -rf "$W/repo" "$XDG_CACHE_HOME"
kernel bookworm-security 56 6.1.192-2
mkdeb bookworm-security linux-kbuild-6.1 6.1.192-3 amd64
meta bookworm-security 6.1.192-2 56
kernel bookworm 50 6.1.176-1
mkdeb bookworm linux-kbuild-6.1 6.1.176-1 amd64
meta bookworm 6.1.176-1 50
publish bookworm bookworm-security
resolve 6.1 cloud-amd64 headers
t "D: before the point release: 56" member linux-image-6.1.0-56-cloud-amd64 6.1.192-2
rm -rf "$W/repo"
kernel bookworm 57 6.1.192-3
mkdeb bookworm linux-kbuild-6.1 6.1.192-3 amd64
meta bookworm 6.1.192-3 57
rm -f "$W/repo/pool/bookworm/linux-headers-6.1.0-57-common_6.1.192-3_all.deb"
publish bookworm bookworm-security
resolve 6.1 cloud-amd64 headers
show
t "D: after it, 57 incomplete: the set cached before (56, gone from the archive) is taken" \
	sh -c 'grep -q "^linux-image-6.1.0-56-cloud-amd64 6.1.192-2 " "$1" && grep -q "(cached)$" "$2"' sh "$W/out" "$W/err"
t "D: and 57's gap is said" grep -q 'passed over linux-image-6.1.0-57-cloud-amd64 6.1.192-3: .*linux-headers-6.1.0-57-common' "$W/err"
mkdeb bookworm linux-headers-6.1.0-57-common 6.1.192-3 all
publish bookworm bookworm-security
resolve 6.1 cloud-amd64 headers
show
t "D: 57 whole again: the new main kernel is taken" member linux-image-6.1.0-57-cloud-amd64 6.1.192-3

# ---- E: no network: no lists at all ----
rm -rf "$W/apt/lists"
mkdir -p "$W/apt/lists/partial"
resolve 6.1 cloud-amd64 headers
t "E: offline, the cached set" sh -c 'grep -q "^linux-kbuild-6.1 6.1.192-3 " "$1" && grep -q "(cached)$" "$2"' sh "$W/out" "$W/err"

# ---- F: nothing whole, nothing cached ----
rm -rf "$XDG_CACHE_HOME"
rm -f "$W"/repo/pool/*/linux-kbuild-6.1_*
publish bookworm bookworm-security
resolve 6.1 cloud-amd64 headers
rc=$?
show
t "F: exit 3 (the environment)" test "$rc" = 3
t "F: one line naming what the archive lacks" \
	sh -c '[ "$(grep -c "no coherent amd64 cloud-amd64 with headers set" "$1")" = 1 ] && grep -q "no coherent.*linux-image-6.1.0-57-cloud-amd64=6.1.192-3: .*linux-kbuild-6.1" "$1"' sh "$W/err"
resolve 6.1 cloud-amd64 bogus
t "F: an unknown part is a usage error (exit 2)" test $? = 2
finish
