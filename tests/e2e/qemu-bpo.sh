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
# When the extracted binary does not find its shared libraries on this
# system (ldd says "not found"), apt's resolver says what an install of
# qemu-system-arm from bookworm-backports would bring onto THIS system
# (apt_simulate against the real dpkg status, tests/e2e/apt-private.sh):
# its libraries (lib*) are fetched through the one package cache, their
# .so files go to VERSION/lib, and VERSION/bin/qemu-system-aarch64 is a
# wrapper that sets LD_LIBRARY_PATH. No data directory (-L) is needed: the
# tests give -bios by path and load no option ROM (-nic none).
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

# fetch PKG VER ARCH: the .deb through the one package cache (apt_fetch)
fetch() {
	why=$(apt_fetch "$1" "$2" "$3") || { say "$why"; exit 3; }
	apt_deb_of "$1" "$2" "$3"
}
dpkg -x "$(fetch "$pkg" "$ver" "$arch")" "$w/root"
bin=$w/root/usr/bin/qemu-system-aarch64
[ -x "$bin" ] || { say "$pkg $ver has no usr/bin/qemu-system-aarch64"; exit 3; }

# missing: the libraries (or symbol versions) ldd does not find
missing() { LD_LIBRARY_PATH=${1:-} ldd "$bin" 2>&1 | grep 'not found' || :; }
if [ -n "$(missing)" ]; then
	say "the system lacks: $(missing | tr -s ' \t\n' ' ')"
	# what an install from backports would bring onto this system: its
	# libraries are what ldd cannot find (QEMU's own packages are not)
	apt_simulate /var/lib/dpkg/status "$w/apt.log" -t bookworm-backports "$pkg=$ver" >"$w/inst" ||
		{ say "apt cannot install $pkg $ver here: $(apt_words "$w/apt.log")"; exit 3; }
	while read -r p v a; do
		case $p in lib*) ;; *) continue ;; esac
		say "fetching $p $v (apt would install it with $pkg)"
		dpkg -x "$(fetch "$p" "$v" "$a")" "$w/deps"
	done <"$w/inst"
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
