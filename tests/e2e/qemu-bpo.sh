#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# qemu-bpo.sh: print the path of a working qemu-system-aarch64 from
# bookworm-backports' qemu-system-arm (QEMU 10), for tests/e2e/uboot-oneshot.sh:
# Debian 12's own QEMU 7.2 aborts U-Boot's buffered pflash writes, so
# U-Boot's saveenv fails there (QEMU issue 2343, fixed upstream by
# "hw/pflash: fix block write start"; docs/arm-boot.md).
#
# apt is asked as tests/e2e/kernel-612.sh asks it: a PRIVATE sources list
# (bookworm-backports, and bookworm for a library the system lacks) and
# private lists under the cache; the system's apt configuration is neither
# read for sources nor changed. Each .deb is checked against the SHA256 of
# the Packages index apt verified and unpacked with `dpkg -x` (nothing is
# installed) into ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/qemu-bpo/VERSION/.
# Dependencies are fetched only when the extracted binary does not find
# its shared libraries on this system (ldd says "not found"): those of
# qemu-system-arm's that dpkg does not have in the version asked, and
# theirs in turn. They go to VERSION/lib, and VERSION/bin/qemu-system-aarch64
# is then a wrapper that sets LD_LIBRARY_PATH. No data directory (-L) is
# needed: the tests give -bios by path and load no option ROM (-nic none).
#
# Once cached, nothing is asked of the network: the newest cached version
# is printed (BT_QEMU_BPO_REFRESH=1 asks apt for a newer one). Offline with
# nothing cached: exit 3, said on stderr; the caller fails loudly.
set -eu
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/../../scripts/progress.sh"

say() { echo "qemu-bpo.sh: $*" >&2; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/qemu-bpo
mirror=${BT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
pkg=qemu-system-arm

# the qemu-system-aarch64 of cached version directory DIR, when it runs
qemu_of() {
	if [ -x "$1/bin/qemu-system-aarch64" ]; then
		echo "$1/bin/qemu-system-aarch64"
	else
		echo "$1/root/usr/bin/qemu-system-aarch64"
	fi
}
cached() {
	d=$(for c in "$cache"/*/; do [ -f "$c/ok" ] && echo "${c%/}"; done | sort -V | tail -n 1)
	[ -n "$d" ] || return 1
	q=$(qemu_of "$d")
	"$q" --version >/dev/null 2>&1 || { say "$q does not run (remove $d)"; exit 3; }
	echo "$q"
	exit 0
}
[ "${BT_QEMU_BPO_REFRESH:-0}" != 0 ] || cached || :

# shellcheck source=tests/e2e/apt-private.sh
. "$(dirname "$0")/apt-private.sh"
apt_private "$cache/apt"
arch=$(dpkg --print-architecture)
key=/usr/share/keyrings/debian-archive-keyring.gpg
# the host's architecture only: the system's foreign ones would triple the lists
printf 'deb [arch=%s signed-by=%s] %s %s main\n' \
	"$arch" "$key" "$mirror" bookworm-backports "$arch" "$key" "$mirror" bookworm >"$apt/sources.list"
aget update -qq --error-on=any >"$apt/update.log" 2>&1 || {
	cat "$apt/update.log" >&2
	cached || { say "apt-get update of bookworm-backports from $mirror failed and nothing is cached in $cache"; exit 3; }
}
# madison PKG [SUITE]: the newest version of PKG the archive offers (in
# SUITE); madison lists the archive's versions, not dpkg's, its columns
# padded with blanks
madison() {
	acache madison "$1" 2>/dev/null | awk -F'|' -v suite=" ${2:-}" '
		{ for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i) }
		index(" " $3, suite "/") || suite == " " { print $2; exit }'
}
ver=$(madison "$pkg" bookworm-backports)
[ -n "$ver" ] || { cached || { say "bookworm-backports offers no $pkg"; exit 3; }; }
d=$cache/$(echo "$ver" | tr ':' '_')
if [ -f "$d/ok" ]; then
	qemu_of "$d"
	exit 0
fi
w=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
chmod 755 "$w"

# fetch PKG=VER: download into $w, check it against apt's SHA256, print the .deb
fetch() {
	rm -f "$w"/*.deb
	(cd "$w" && progress_run -k -o "$w/log" -s "$w" "qemu-bpo.sh: downloading $1" aget download "$1") || {
		cat "$w/log" >&2
		say "apt-get download $1 failed"
		exit 3
	}
	deb=$(ls "$w"/*.deb)
	deb_sha_ok "$deb" acache show "$1" || exit 3
	echo "$deb"
}
deb=$(fetch "$pkg=$ver")
dpkg -x "$deb" "$w/root"
rm -f "$deb"
bin=$w/root/usr/bin/qemu-system-aarch64
[ -x "$bin" ] || { say "$pkg $ver has no usr/bin/qemu-system-aarch64"; exit 3; }

# missing: the libraries (or symbol versions) ldd does not find
missing() { LD_LIBRARY_PATH=${1:-} ldd "$bin" 2>&1 | grep 'not found' || :; }
# depends PKG=VER: its Pre-Depends and Depends, one a line as NAME [(OP
# VER)], the first of alternatives
depends() {
	acache show "$1" | sed -n 's/^Pre-Depends: //p; s/^Depends: //p' | tr ',' '\n' |
		sed 's/|.*//; s/^ *//; s/ *$//; s/:any / /; s/:any$//' | grep . || :
}
# lacking NAME [(OP VER)]: 0 when dpkg has no NAME installed for this
# architecture (or for all) in a version that satisfies OP VER
lacking() {
	for l_q in "$1:$arch" "$1"; do
		case $(dpkg-query -W -f '${db:Status-Abbrev}' "$l_q" 2>/dev/null) in ii*) break ;; esac
		[ "$l_q" = "$1" ] && return 0
	done
	set -- "$l_q" "$(echo "${2:-}" | sed -n 's/^(\([<>=]*\) .*)$/\1/p')" \
		"$(echo "${2:-}" | sed -n 's/^([<>=]* \(.*\))$/\1/p')"
	[ -n "$2" ] || return 1
	! dpkg --compare-versions "$(dpkg-query -W -f '${Version}' "$1")" "$2" "$3"
}
if [ -n "$(missing)" ]; then
	say "the system lacks: $(missing | tr -s ' \t\n' ' ')"
	# what ldd cannot find comes from a dependency that dpkg does not have
	# in the version asked, or from one of its own: each such package is
	# fetched, and its dependencies looked at in turn
	echo "$pkg=$ver" >"$w/todo"
	: >"$w/seen"
	while [ -s "$w/todo" ]; do
		next=$(head -n 1 "$w/todo")
		sed -i 1d "$w/todo"
		depends "$next" >"$w/depends"
		while read -r dep rel; do
			case $dep in qemu-system-*) continue ;; esac # QEMU's own, not libraries
			! grep -qxF "$dep" "$w/seen" || continue
			echo "$dep" >>"$w/seen"
			lacking "$dep" "$rel" || continue
			d_ver=$(madison "$dep")
			[ -n "$d_ver" ] || { say "no $dep in bookworm or bookworm-backports"; exit 3; }
			say "fetching $dep $d_ver (${next%%=*} depends on $dep ${rel:-})"
			ddeb=$(fetch "$dep=$d_ver")
			dpkg -x "$ddeb" "$w/deps"
			rm -f "$ddeb"
			echo "$dep=$d_ver" >>"$w/todo"
		done <"$w/depends"
	done
	mkdir -p "$w/lib"
	find "$w/deps" -name '*.so*' \( -type f -o -type l \) -exec mv {} "$w/lib/" \; 2>/dev/null || :
	rm -rf "$w/deps"
	if [ -n "$(missing "$w/lib")" ]; then
		say "still missing with the fetched libraries: $(missing "$w/lib" | tr -s ' \t\n' ' ')"
		exit 3
	fi
fi
mv "$w" "$d.new"
trap 'rm -rf "$d.new"' EXIT INT TERM HUP
if [ -d "$d.new/lib" ]; then
	mkdir -p "$d.new/bin"
	# shellcheck disable=SC2016 # the wrapper expands them
	printf '#!/bin/sh\n# qemu-bpo.sh: QEMU %s with the libraries the system lacks\nLD_LIBRARY_PATH='\''%s/lib'\''${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec '\''%s/root/usr/bin/qemu-system-aarch64'\'' "$@"\n' \
		"$ver" "$d" "$d" >"$d.new/bin/qemu-system-aarch64"
	chmod 755 "$d.new/bin/qemu-system-aarch64"
fi
rm -rf "$d"
mv "$d.new" "$d"
trap - EXIT INT TERM HUP
q=$(qemu_of "$d")
"$q" --version >"$d/version" 2>&1 || { cat "$d/version" >&2; say "$q --version fails"; exit 3; }
touch "$d/ok"
say "$(head -n 1 "$d/version") in $d"
echo "$q"
