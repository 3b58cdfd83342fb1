#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A rewrite that cannot fit must fail loudly and leave the user's initrd
# byte-identical, with no temp file left. Runs on a 256 KiB tmpfs (root
# only); prints "SKIP: ..." and exits 77 where it cannot mount one.
#
# The command under test is $APPEND, called as `$APPEND CONFIG INITRD`:
# `build/boottrace bootconfig -a` unless BT_APPEND names another.
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
pass=0
fail=0
mounted=0
work=

ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; }

# check DESCRIPTION COMMAND...: one counted result per call.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

summary() {
	echo "enospc: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
}

skip() {
	echo "SKIP: cannot mount tmpfs ($1)"
	exit 77
}

# Unmount before removing: rm -rf must never walk into a live mount.
cleanup() {
	[ "$mounted" -eq 1 ] && umount "$work/mnt" && mounted=0
	[ -n "$work" ] && [ "$mounted" -eq 0 ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" -eq 0 ] || skip "not root"
command -v cpio >/dev/null || { echo "SKIP: cpio not installed"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bt-enospc.XXXXXX") || exit 99
mkdir "$work/mnt"
mount -t tmpfs -o size=256k,mode=0755 bt-enospc "$work/mnt" \
	2>"$work/mount.err" || skip "$(head -n 1 "$work/mount.err")"
mounted=1
mnt=$work/mnt

APPEND=${BT_APPEND:-$root/build/boottrace bootconfig -a}

# ---- helpers ------------------------------------------------------------

page=$(stat -f -c %S "$mnt")
free_pages() { stat -f -c %a "$mnt"; }
sha() { sha256sum <"$1" | cut -d' ' -f1; }
no_temps() { [ -z "$(find "$mnt" -name '*.boottrace-*' -print)" ]; }
same() { [ "$1" = "$2" ]; }
has() { grep -qF -- "$2" "$1"; }
lines_are() { [ "$(wc -l <"$1")" -eq "$2" ]; }

# make_initrd FILE BYTES: a real newc cpio archive of random data (so the
# real CLI, which checks the format, accepts it), zero-padded to exactly
# BYTES as initramfs archives may be.
make_initrd() {
	head -c $(($2 - 1024)) /dev/urandom >"$work/payload"
	(cd "$work" && echo payload | cpio -o -H newc --quiet) >"$1"
	have=$(stat -c %s "$1")
	head -c $(($2 - have)) /dev/zero >>"$1"
}

# run_full NAME PAGES: an initrd of PAGES pages that the rewrite cannot
# fit; check the failure and that nothing changed.
run_full() {
	name=$1
	img=$mnt/initrd.img-$name
	make_initrd "$img" $(($2 * page))
	chmod 0640 "$img"
	before=$(sha "$img")
	free_before=$(free_pages)

	$APPEND "$work/test.bconf" "$img" >"$work/out" 2>"$work/err"
	rc=$?
	sed 's/^/# /' "$work/err"
	check "$name: fails with exit 3 (environment)" same "$rc" 3
	check "$name: says No space left on device" \
		has "$work/err" "No space left on device"
	check "$name: names the initrd" has "$work/err" "initrd.img-$name"
	check "$name: one error line" lines_are "$work/err" 1
	check "$name: initrd byte-identical (sha256)" same "$before" "$(sha "$img")"
	check "$name: mode kept" same "$(stat -c %a "$img")" 640
	check "$name: no temp file left" no_temps
	check "$name: temp space given back" same "$free_before" "$(free_pages)"
	rm -f "$img"
}

# ---- cases --------------------------------------------------------------

printf 'boottrace.test = "enospc"\n' >"$work/test.bconf"

# Control: the same command succeeds where there is room, so the failures
# below are about space and nothing else.
img=$mnt/initrd.img-control
make_initrd "$img" 8192
size=$(stat -c %s "$img")
before=$(sha "$img")
$APPEND "$work/test.bconf" "$img" >"$work/out" 2>"$work/err"
rc=$?
sed 's/^/# /' "$work/err"
check "control: append with room succeeds" same "$rc" 0
check "control: initrd grew" test "$(stat -c %s "$img")" -gt "$size"
check "control: original bytes kept in front" \
	same "$before" "$(head -c "$size" "$img" | sha256sum | cut -d' ' -f1)"
check "control: no temp file left" no_temps
rm -f "$img"

# The copy of the initrd itself does not fit: one page is left.
run_full copy $(($(free_pages) - 1))

# The copy fits exactly (an even number of free pages, half of them used),
# so it is the appended config, whatever its size, that does not.
[ $(($(free_pages) % 2)) -eq 0 ] || head -c "$page" /dev/zero >"$mnt/filler"
run_full append $(($(free_pages) / 2))
rm -f "$mnt/filler"

summary
