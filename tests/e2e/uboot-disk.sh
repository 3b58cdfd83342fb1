#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# uboot-disk.sh OUT SIZE_MB FILE...: a raw disk image for Debian's
# qemu_arm64 U-Boot: an MBR with one FAT partition at 1 MiB holding FILEs
# (in its root, by their base names). This U-Boot's distro boot looks for
# partition 1 and ignores a bare FAT disk. Used by tests/e2e/uboot.sh and
# S5 of tests/e2e/scenarios.sh. Needs mkfs.vfat and mcopy.
set -eu
[ $# -ge 2 ] || { echo "usage: uboot-disk.sh OUT SIZE_MB FILE..." >&2; exit 2; }
out=$1
mb=$2
shift 2
part=$out.part

# a little-endian 32-bit number as 4 bytes (octal escapes as the format)
# shellcheck disable=SC2059
le32() {
	printf "\\$(printf %03o $(($1 & 255)))\\$(printf %03o $(($1 >> 8 & 255)))"
	printf "\\$(printf %03o $(($1 >> 16 & 255)))\\$(printf %03o $(($1 >> 24 & 255)))"
}
sectors=$(((mb - 1) * 2048))
rm -f "$out" "$part"
truncate -s "${mb}M" "$out"
mkfs.vfat -C "$part" $((sectors / 2)) >/dev/null
# partition 1: not active, CHS unused, type 0x0c (FAT32 LBA), from sector 2048
{
	dd if=/dev/zero bs=446 count=1 2>/dev/null
	printf '\000\000\002\000\014\377\377\377'
	le32 2048
	le32 "$sectors"
	dd if=/dev/zero bs=48 count=1 2>/dev/null
	printf '\125\252'
} | dd of="$out" conv=notrunc 2>/dev/null
dd if="$part" of="$out" bs=1M seek=1 conv=notrunc 2>/dev/null
rm -f "$part"
for f in "$@"; do
	mcopy -i "$out@@1M" "$f" "::$(basename "$f")"
done
