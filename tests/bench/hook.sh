#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark of the initramfs hook (`make bench`): in one QEMU boot of the
# Debian 6.1 cloud kernel with every function traced into the default-size
# buffer (full), the time of a bare `cat trace > /run/x` against a whole
# hook snapshot of the same stopped buffer (five of each, interleaved,
# /proc/uptime in the guest; best of five). Target: hook <= 1.25 x cat.
# Also the size the hook adds to a busybox initramfs (target <= 20 KB).
# Exit 0 either way (a report); non-zero when a measurement failed.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
W=$top/build/bench-hook
rm -rf "$W"
mkdir -p "$W"
fail() {
	echo "bench-hook: measurement failed: $*" >&2
	exit 1
}
command -v qemu-system-x86_64 >/dev/null 2>&1 || fail "qemu-system-x86_64 missing (make deps)"
KD=$(sh tests/e2e/kernel.sh) || fail "no kernel"
KV=$(cat "$KD/kver")
sh initramfs-hook/mkinitramfs.sh -o "$W/with.cpio.gz" -M "$KD/root" -V "$KV" \
	-m "virtio_pci virtio_blk" -f tests/e2e/hook/stage1:/stage1 \
	-f tests/e2e/hook/stage2:/init || fail "mkinitramfs.sh"
sh initramfs-hook/mkinitramfs.sh -o "$W/plain.cpio.gz" || fail "mkinitramfs.sh"
sh initramfs-hook/mkinitramfs.sh -n -o "$W/nohook.cpio.gz" || fail "mkinitramfs.sh -n"
c=$(build/boottrace compile -k 6.1 tests/e2e/hook/all.bconf) || fail "compile"
truncate -s 256M "$W/disk.img"
timeout 600 qemu-system-x86_64 -M pc -m 1024 -smp 2 -display none -monitor none \
	-serial "file:$W/serial.log" -no-reboot -kernel "$KD/root/boot/vmlinuz-$KV" \
	-initrd "$W/with.cpio.gz" -drive "file=$W/disk.img,format=raw,if=virtio" \
	-append "console=ttyS0 panic=-1 rdinit=/stage1 bttest=bench $c" >/dev/null 2>&1
mkdir -p "$W/out"
tar -xf "$W/disk.img" -C "$W/out" 2>/dev/null
times=$W/out/boottrace/bench-times
[ -s "$times" ] || fail "no timings came back (see $W/serial.log)"
awk '
function cs(x) { split(x, a, "."); return a[1] * 100 + a[2] }
$2 == "cat" { d = cs($4) - cs($3); if (!c || d < c) c = d; bytes = $5 }
$2 == "hook" { d = cs($4) - cs($3); if (!h || d < h) h = d }
END {
	if (!c || !h) exit 1
	printf "bench-hook: trace text %d bytes (default buffer, every function)\n", bytes
	printf "bench-hook: bare cat trace > /run/x: %.2f s; hook snapshot: %.2f s; ratio %.3f\n", c / 100, h / 100, h / c
	if (h / c <= 1.25) print "bench-hook: hook/cat ratio <= 1.25: target met"
	else print "bench-hook: hook/cat ratio > 1.25: target NOT met"
}' "$times" || fail "unreadable timings: $(cat "$times")"
a=$(wc -c <"$W/plain.cpio.gz")
b=$(wc -c <"$W/nohook.cpio.gz")
d=$((a - b))
echo "bench-hook: initramfs $b bytes without the hook, $a with it: +$d bytes (gzip -9)"
if [ "$d" -le 20480 ]; then
	echo "bench-hook: hook adds <= 20 KB: target met"
else
	echo "bench-hook: hook adds > 20 KB: target NOT met"
fi
