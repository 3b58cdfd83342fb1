# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by tests/e2e/uboot.sh and tests/e2e/loaders.sh.
#
# uboot_run BIOS DISK TXT: Debian's qemu_arm64 U-Boot (BIOS) boots on DISK
# (virtio, a disk of tests/e2e/uboot-disk.sh) with no network, for at most
# 60 s; its serial output goes to TXT.log and, without the CRs, to TXT.
# QEMU runs in the background as $QPID so that the caller's trap can kill it
# on an interrupt; QPID is empty again when it has ended.
uboot_run() {
	timeout 60 qemu-system-aarch64 -M virt -cpu cortex-a57 -m 256 -nographic \
		-nic none -no-reboot -bios "$1" \
		-drive if=none,file="$2",format=raw,id=d0 \
		-device virtio-blk-device,drive=d0 </dev/null >"$3.log" 2>&1 &
	QPID=$!
	wait "$QPID"
	QPID=
	tr -d '\r' <"$3.log" >"$3"
}
