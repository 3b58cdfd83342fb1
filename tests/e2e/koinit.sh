#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# report --modules DIR against a real Debian 6.1 modules tree
# (tests/e2e/kernel-pkg.sh: linux-image-6.1.0-*-cloud-amd64, unpacked and
# cached): on the real capture tests/data/traces/debian-6.1-amd64-frames.trace
# (bonding's init read after dummy was loaded into it), the real bonding.ko
# names the init frame bonding_init, as a plain .ko and packed with xz and
# zstd as MODULE_COMPRESS_* would; a tree without bonding says so. No boot.
# Last line: "koinit: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bt=${BT:-$root/build/boottrace}
SUITE=koinit
top=$root
. "$root/tests/e2e/tap.sh"
# no package to read: said loudly, exit 77 (tests/run.sh: a failure in CI)
skip() {
	echo "SKIP: $SUITE: $* — NOTHING WAS TESTED"
	echo "$SUITE: $P passed, $F failed"
	exit 77
}
d=$(sh "$root/tests/e2e/kernel-pkg.sh" amd64 cloud-amd64) || skip "no Debian 6.1 amd64 kernel package (network?)"
kver=$(cat "$d/kver") || skip "no kver in $d"
tree=$d/root/lib/modules/$kver
[ -d "$tree" ] || skip "no modules tree in $d"
ko=$(find "$tree" -name 'bonding.ko*' | head -n 1)
[ -n "$ko" ] || skip "no bonding.ko under $tree"
trace=$root/tests/data/traces/debian-6.1-amd64-frames.trace
w=$(mktemp -d "${TMPDIR:-/tmp}/bt-koinit.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP

check() { # NAME FILE PATTERN...: one test, each pattern in FILE
	n=$1 f=$2
	shift 2
	for p in "$@"; do
		if ! grep -qF -- "$p" "$f"; then
			nok "$n"
			echo "# no '$p' in:"
			sed 's/^/#   /' "$f" | head -n 20
			return
		fi
	done
	ok "$n"
}

"$bt" report --function register_netdevice --modules "$tree" "$trace" >"$w/out" 2>&1
check "the Debian tree: bonding's init is bonding_init [init of bonding]" \
	"$w/out" "culprit: bonding_init [init of bonding] -> bond_create [bonding] -> register_netdevice" \
	"bonding_init (bonding, kernel/drivers/net/bonding/bonding.ko" "dummy_init_module [dummy] -> register_netdevice"

mkdir -p "$w/xz" "$w/zst" "$w/none/kernel"
case $ko in
*.ko) cp "$ko" "$w/plain.ko" ;;
*) echo "# $ko is packed: tested as it is"; cp "$ko" "$w/xz/" ;;
esac
if [ -f "$w/plain.ko" ]; then
	xz -c "$w/plain.ko" >"$w/xz/bonding.ko.xz"
	zstd -q -c "$w/plain.ko" >"$w/zst/bonding.ko.zst"
	"$bt" report --function register_netdevice --modules "$w/zst" "$trace" >"$w/zst.out" 2>&1
	check "the real bonding.ko packed with zstd: the same name" \
		"$w/zst.out" "culprit: bonding_init [init of bonding] -> bond_create" "(bonding, bonding.ko.zst)"
fi
"$bt" report --function register_netdevice --modules "$w/xz" "$trace" >"$w/xz.out" 2>&1
check "the real bonding.ko packed with xz: the same name" \
	"$w/xz.out" "culprit: bonding_init [init of bonding] -> bond_create"

# another module only: bonding is not there, and that is said
cp "$(find "$tree" -name 'dummy.ko*' | head -n 1)" "$w/none/kernel/"
"$bt" report --function register_netdevice --modules "$w/none" "$trace" >"$w/none.out" 2>&1
check "a tree without bonding.ko: [init of bonding], and said" \
	"$w/none.out" "culprit: [init of bonding] -> bond_create" "no .ko of bonding under $w/none"
finish
