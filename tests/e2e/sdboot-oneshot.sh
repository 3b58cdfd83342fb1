#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `boottrace arm-boot --loader systemd-boot` through the real firmware and
# loader: QEMU x86_64 with OVMF (ovmf: OVMF_CODE_4M.fd, and a copy of
# OVMF_VARS_4M.fd as the writable pflash that keeps the EFI variables from
# one reset to the next), Debian's systemd-boot (systemd-boot-efi) as
# \EFI\BOOT\BOOTX64.EFI on a FAT disk (mkfs.vfat, mcopy: no loop mount)
# with loader.conf (default debian.conf, timeout 0) and one entry booting
# the Debian 6.1 cloud kernel (tests/e2e/kernel.sh) and a busybox
# initramfs (initramfs-hook/mkinitramfs.sh) carrying build/boottrace and
# tests/e2e/sdboot-oneshot/init. One QEMU process runs every boot: the
# guest reboots with `reboot -f` and counts its boots on the ESP.
#
#  boot 0: the normal entry; arm-boot --loader systemd-boot writes
#          boottrace-oneshot.conf and LoaderEntryOneShot; reboot
#  boot 1: systemd-boot took the one-shot: the one-shot line in
#          /proc/cmdline, LoaderEntrySelected boottrace-oneshot.conf, and
#          LoaderEntryOneShot gone (systemd-boot deletes it); reboot
#  boot 2: the next reset: the normal line again; disarm-boot; then
#          arm-boot and disarm-boot at once: the real efivarfs file (made
#          immutable by efivarfs) removed by disarm-boot; power off
#
# Then, on the host: the variable's bytes arm-boot wrote (attributes 0x7,
# UTF-16LE name and NUL), the entry file, and the ESP's loader/ directory
# after disarm-boot the same as before arm-boot, byte for byte.
# Needs qemu-system-x86_64, ovmf, systemd-boot-efi, dosfstools, mtools.
# Last line "sdboot-oneshot: N passed, N failed"; exit 77 (a loud SKIP)
# only when a tool or the kernel is missing.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
# shellcheck disable=SC2034 # read by tap.sh
SUITE=sdboot-oneshot
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
SDBOOT=/usr/lib/systemd/boot/efi/systemd-bootx64.efi

for tool in qemu-system-x86_64 mkfs.vfat mcopy mmd mdir iconv; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is not installed (make deps: scripts/debian-packages.txt)"
done
{ [ -r "$CODE" ] && [ -r "$VARS" ]; } || skip "$CODE or $VARS is missing (ovmf)"
[ -r "$SDBOOT" ] || skip "$SDBOOT is missing (systemd-boot-efi)"
[ -x "$bt" ] || { nok "$bt missing (make all)"; finish; }
KD=$(sh tests/e2e/kernel.sh) || skip "no Debian 6.1 cloud kernel could be fetched"
KV=$(cat "$KD/kver")
echo "# kernel: $KD ($KV)"
W=$(mktemp -d "${TMPDIR:-/tmp}/bt-sdboot.XXXXXX") || exit 3
QPID=
# shellcheck disable=SC2317
cleanup() { [ -z "$QPID" ] || kill "$QPID" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# the initramfs: boottrace and its libraries (at the paths ldd names), the
# guest's /init, the config to arm; the modules for the disk, the ESP's
# vfat (its default iocharset is ascii) and efivarfs
printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, bond_create\n' >"$W/trace.bconf"
libs=$(ldd "$bt" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
set -- -f "$bt:/bin/boottrace" -f "$top/tests/e2e/sdboot-oneshot/init:/init" \
	-f "$W/trace.bconf:/etc/sdb/trace.bconf"
for l in $libs; do
	set -- "$@" -f "$l:$l"
done
if ! BUSYBOX=$KD/busybox sh initramfs-hook/mkinitramfs.sh -o "$W/initrd.img" -M "$KD/root" -V "$KV" \
	-m "virtio_pci virtio_blk nls_cp437 nls_ascii vfat efivarfs" -n "$@" >"$W/mkinitramfs.log" 2>&1; then
	sed 's/^/#   /' "$W/mkinitramfs.log"
	nok "mkinitramfs.sh builds the test initramfs"
	finish
fi

# the ESP: a whole-disk FAT (no partition table; OVMF reads it as it reads
# a USB stick) with systemd-boot as the removable-media loader
mkdir -p "$W/loader/entries"
printf 'default debian.conf\ntimeout 0\n' >"$W/loader/loader.conf"
cat >"$W/loader/entries/debian.conf" <<EOT
title Debian GNU/Linux 12 (e2e)
sort-key debian
version $KV
linux /vmlinuz
initrd /initrd.img
options console=ttyS0 panic=-1 rdinit=/init
EOT
rm -f "$W/esp.img"
mkfs.vfat -C -n ESP "$W/esp.img" 131072 >"$W/mkfs.log" 2>&1 || { nok "mkfs.vfat makes the ESP"; finish; }
export MTOOLS_SKIP_CHECK=1
{ mmd -i "$W/esp.img" ::/EFI ::/EFI/BOOT ::/loader ::/loader/entries &&
	mcopy -i "$W/esp.img" "$SDBOOT" ::/EFI/BOOT/BOOTX64.EFI &&
	mcopy -i "$W/esp.img" "$KD/root/boot/vmlinuz-$KV" ::/vmlinuz &&
	mcopy -i "$W/esp.img" "$W/initrd.img" ::/initrd.img &&
	mcopy -i "$W/esp.img" "$W/loader/loader.conf" ::/loader/loader.conf &&
	mcopy -i "$W/esp.img" "$W/loader/entries/debian.conf" ::/loader/entries/debian.conf; } \
	>"$W/mtools.log" 2>&1 || { sed 's/^/#   /' "$W/mtools.log"; nok "mtools fills the ESP"; finish; }
cp "$VARS" "$W/vars.fd"

# TCG: under this machine's KVM, OVMF stops at its first x87 instruction
# ("KVM internal error. Suberror: 1, emulation failure"), and the boots
# here are short
accel=tcg
t0=$(date +%s)
progress_run -o "$W/qemu.log" -t "$W/serial.log" "booting OVMF + systemd-boot three times ($accel)" \
	timeout 900 qemu-system-x86_64 -M q35 -accel "$accel" -m 1024 -smp 1 -display none \
	-monitor none -serial "file:$W/serial.log" -nic none \
	-drive "if=pflash,format=raw,readonly=on,file=$CODE" \
	-drive "if=pflash,format=raw,file=$W/vars.fd" \
	-drive "file=$W/esp.img,format=raw,if=virtio"
qrc=$?
echo "# QEMU ($accel): $(($(date +%s) - t0)) s, exit $qrc"
tr -d '\r' <"$W/serial.log" | grep '^sdb: ' | sed 's/^/# /'

mkdir -p "$W/out"
mcopy -i "$W/esp.img" -s -n ::/e2e ::/loader "$W/out/" >"$W/mcopy-out.log" 2>&1
O=$W/out/e2e
[ -s "$O/phase" ] || tail -n 40 "$W/serial.log" | tr -d '\r' | sed 's/^/#   serial: /'
t "QEMU powered off by the guest (no timeout)" [ "$qrc" = 0 ]
t "the guest ran three boots" grep -qx 3 "$O/phase"
c0=$(cat "$O/cmdline.0" 2>/dev/null)
c1=$(cat "$O/cmdline.1" 2>/dev/null)
c2=$(cat "$O/cmdline.2" 2>/dev/null)
t "boot 0: systemd-boot booted debian.conf" grep -qx debian.conf "$O/selected.0"
# systemd-boot 252 puts initrd=PATH of the entry's initrd line first
t "boot 0: its line is the entry's options (after systemd-boot's initrd=)" \
	[ "$c0" = 'initrd=\initrd.img console=ttyS0 panic=-1 rdinit=/init' ]
t "boot 0: arm-boot exit 0" grep -qx 0 "$O/arm.rc"
sed 's/^/#   arm-boot: /' "$O/arm.out" 2>/dev/null
armed=$(sed -n 's/^boottrace arm-boot: note: armed for the next boot: \(.*\) (boottrace disarm-boot puts everything back)$/\1/p' "$O/arm.out" 2>/dev/null)
want="console=ttyS0 panic=-1 rdinit=/init ftrace=function ftrace_filter=register_netdevice,bond_create trace_clock=global boottrace.enable=1"
t "boot 0: the one-shot line is the entry's options with the tracing words merged" [ "$armed" = "$want" ]
{ printf '\007\000\000\000'; printf 'boottrace-oneshot.conf\000' | iconv -f ASCII -t UTF-16LE; } >"$W/var.want"
t "boot 0: LoaderEntryOneShot as efivarfs holds it: attributes 0x7, UTF-16LE boottrace-oneshot.conf and NUL" cmp "$W/var.want" "$O/var.armed"
echo "# boot 1: $c1"
t "boot 1: systemd-boot booted the one-shot entry (LoaderEntrySelected)" grep -qx boottrace-oneshot.conf "$O/selected.1"
t "boot 1: /proc/cmdline is the one-shot line (after systemd-boot's initrd=)" [ "$c1" = "initrd=\\initrd.img $want" ]
t "boot 1: systemd-boot deleted LoaderEntryOneShot" grep -qx '(unset)' "$O/oneshot.1"
echo "# boot 2: $c2"
t "boot 2 (the next reset): debian.conf again" grep -qx debian.conf "$O/selected.2"
t "boot 2: the normal line, as boot 0's" [ -n "$c2" -a "$c2" = "$c0" ]
t "boot 2: disarm-boot exit 0" grep -qx 0 "$O/disarm.rc"
sed 's/^/#   disarm-boot: /' "$O/disarm.out" 2>/dev/null
t "boot 2: disarm-boot saw the loader take the one-shot" grep -q 'LoaderEntryOneShot deleted' "$O/disarm.out"
t "boot 2: disarm-boot removed the variable" grep -qx '(unset)' "$O/oneshot.disarmed"
sed 's/^/#   /' "$O/var2.rm" 2>/dev/null
t "boot 2: arm-boot again: efivarfs made the variable immutable (rm fails, it stays)" \
	grep -q '^rm exit [1-9][0-9]*: boottrace-oneshot.conf$' "$O/var2.rm"
t "boot 2: disarm-boot at once removes it all the same" \
	sh -c "grep -qx 0 '$O/disarm2.rc' && grep -qx '(unset)' '$O/oneshot.disarmed2'"
# (after a disarm-boot that ran: an ESP never armed would pass these too)
t "after disarm-boot: loader/ on the ESP is as before arm-boot, byte for byte" \
	sh -c "grep -qx 0 '$O/disarm.rc' && diff -r '$W/loader' '$W/out/loader'"
t "after disarm-boot: the state directories are gone" sh -c "grep -qx 0 '$O/disarm.rc' && [ ! -e '$O/state' ] && [ ! -e '$O/state2' ]"
finish
