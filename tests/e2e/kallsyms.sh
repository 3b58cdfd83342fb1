#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The symbols boottrace reads from a kernel image's own kallsyms tables
# (check --kernel IMAGE --print-map, docs/kernel-image.md) against the real
# System.map of the same build, for Debian's 6.1 amd64 cloud image (a
# bzImage with an LZ4 payload, KALLSYMS_ALL, ABSOLUTE_PERCPU) and mips64el
# 5kc-malta image (an ELF self-decompressor carrying an xz vmlinux.bin) and
# arm64 cloud-arm64 Image (raw, relocatable: its relocations give the base):
# the images from tests/e2e/kernel-pkg.sh, the maps from the -dbg packages
# (tests/e2e/dbg-sysmap.sh: about 280 MB, 660 MB and 250 MB, downloaded once and
# cached as their System.map only). Every function symbol (t, T, w, W) the
# kernel keeps in kallsyms -- all of them with CONFIG_KALLSYMS_ALL, else
# those between _stext and _etext or _sinittext and _einittext, as
# scripts/kallsyms.c keeps them -- must be there with its address and type,
# and nothing else. The counts are printed.
# Last line: "kallsyms: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bt=${BT:-$root/build/boottrace}
SUITE=kallsyms
top=$root
. "$root/tests/e2e/tap.sh"
w=$(mktemp -d "${TMPDIR:-/tmp}/bt-kallsyms.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP

# the function symbols of a System.map that kallsyms keeps: "NAME ADDR TYPE".
# With IGN 1: as scripts/kallsyms.c keeps them: not the arm64 mapping
# symbols ($x, $d), nor the prefixes and suffixes of its is_ignored_symbol,
# and without KALLSYMS_ALL (ALL 0) not what lies outside the text ranges or
# at _etext's or _einittext's address (kernel-facts 105).
functions() { # MAP ALL IGN
	awk -v all="$2" -v ign="$3" '
	NR == FNR {
		if ($3 == "_stext") s = $1; if ($3 == "_etext") e = $1
		if ($3 == "_sinittext") is = $1; if ($3 == "_einittext") ie = $1
		next
	}
	$2 !~ /^[tTwW]$/ { next }
	!ign { print $3, $1, $2; next }
	$3 ~ /^[$]/ || $3 ~ /^(__efistub_|__kvm_nvhe_[$.]|__AArch64ADRPThunk_|__ARMV[57]PILongThunk_|__ThumbV7PILongThunk_|__LA25Thunk_|__microLA25Thunk_|__kcfi_typeid_)/ { next }
	$3 ~ /(_from_arm|_from_thumb|_veneer)$/ || $3 ~ /\.(long|plt)_branch\./ { next }
	all { print $3, $1, $2; next }
	!(($1 >= s && $1 <= e) || ($1 >= is && $1 <= ie)) { next }
	($1 == e && $3 != "_etext") || ($1 == ie && $3 != "_einittext") { next }
	{ print $3, $1, $2 }
	' "$1" "$1" | LC_ALL=C sort -u
}

one() { # ARCH FLAVOUR
	arch=$1
	d=$(sh "$root/tests/e2e/kernel-pkg.sh" "$1" "$2") || { nok "$arch: no Debian 6.1 $2 kernel (tests/e2e/kernel-pkg.sh)"; return; }
	map=$(sh "$root/tests/e2e/dbg-sysmap.sh" "$d") || { nok "$arch: no System.map from the -dbg package (tests/e2e/dbg-sysmap.sh)"; return; }
	for img in "$d"/root/boot/vmlinuz-*; do break; done
	for cfg in "$d"/root/boot/config-*; do break; done
	all=0
	grep -qx 'CONFIG_KALLSYMS_ALL=y' "$cfg" && all=1
	if ! "$bt" check -v --kernel "$img" --print-map >"$w/$arch.map" 2>"$w/$arch.err"; then
		nok "$arch: check --kernel $img --print-map"
		sed 's/^/#   /' "$w/$arch.err"
		return
	fi
	sed 's/^/# /' "$w/$arch.err"
	functions "$map" "$all" 1 >"$w/$arch.want"
	functions "$w/$arch.map" 1 0 >"$w/$arch.got"
	nw=$(wc -l <"$w/$arch.want")
	ng=$(wc -l <"$w/$arch.got")
	miss=$(LC_ALL=C comm -23 "$w/$arch.want" "$w/$arch.got" | wc -l)
	extra=$(LC_ALL=C comm -13 "$w/$arch.want" "$w/$arch.got" | wc -l)
	echo "# $arch: System.map $(wc -l <"$map") lines, $nw function symbols kallsyms keeps (KALLSYMS_ALL=$all); image $(wc -l <"$w/$arch.map") symbols, $ng functions; missing $miss, extra $extra"
	if [ "$nw" -gt 10000 ] && [ "$miss" = 0 ] && [ "$extra" = 0 ]; then
		ok "$arch: every function symbol of the -dbg System.map, address and type, from the image ($nw)"
	else
		nok "$arch: function symbols differ from the -dbg System.map"
		LC_ALL=C comm -3 "$w/$arch.want" "$w/$arch.got" | head -n 10 | sed 's/^/#   /'
	fi
	# what is not a function is there too, where the map has it
	for s in _stext _sinittext; do
		if grep -q " $s\$" "$w/$arch.map" && [ "$(grep " $s\$" "$w/$arch.map" | cut -d' ' -f1)" = "$(grep " $s\$" "$map" | cut -d' ' -f1)" ]; then
			ok "$arch: $s at the System.map's address"
		else
			nok "$arch: $s not at the System.map's address"
		fi
	done
}

one amd64 cloud-amd64
one mips64el 5kc-malta
one arm64 cloud-arm64
finish
