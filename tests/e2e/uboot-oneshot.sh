#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `boottrace arm-boot --loader uboot-env` in a real U-Boot: Debian's
# qemu_arm64 U-Boot (u-boot-qemu) in qemu-system-aarch64 keeps its
# environment at 0x4000000, the start of the second pflash bank, 0x40000
# bytes. The bank is a 64 MiB file holding an environment made with
# mkenvimage, and fw_env.config names it as a board's names its flash
# (offset 0, size 0x40000, sector 0x40000): arm-boot arms it with the real
# fw_setenv, each QEMU run on the same file is the next reset, and the
# board's bootcmd prints the ${bootargs} it would boot with, then powers
# off (no kernel: the line is the bootloader's to choose).
#
#  A. the bank write-protected (readonly=on): the one-shot branch runs
#     saveenv, which fails, so the normal line is used, on this boot and on
#     the next (a one-shot that cannot be cleared is never taken); nothing
#     in the flash changed; disarm-boot puts back every byte; the original
#     environment then boots its own bootcmd.
#  B. the bank writable, in Debian 12's QEMU 7.2: its pflash aborts every
#     buffer write of U-Boot's past the first 4 KiB of a sector (QEMU issue
#     2343, docs/arm-boot.md), so saveenv fails after erasing the
#     environment. What is checked is what a board whose saveenv fails
#     must see: the normal line on that boot, and disarm-boot --force
#     putting back every byte of the environment it left unreadable. (A
#     system QEMU whose saveenv works gets C's checks here instead.)
#  C. the one-shot itself, in bookworm-backports' QEMU 10
#     (tests/e2e/qemu-bpo.sh), whose pflash takes U-Boot's writes: the
#     board's bootcmd boots Debian's arm64 cloud kernel (kernel-pkg.sh) from
#     a virtio disk, and its initramfs prints /proc/cmdline and powers off.
#     Boot 1 takes the one-shot line and saves the environment with it
#     cleared, boot 2 (the next reset, the same flash file) the normal
#     line; disarm-boot sees the one-shot taken and puts back every byte.
#     Not being able to fetch that QEMU or kernel is a failure, not a skip.
#
# Needs qemu-system-aarch64, u-boot-qemu, libubootenv-tool, u-boot-tools,
# cpio, mkfs.vfat and mcopy, and the network once (QEMU 10 and the kernel
# are cached). Last line: "uboot-oneshot: N passed, N failed". Exit 77 (loud
# SKIP) only when a tool is missing (make deps installs them). About 15 s
# once cached (6 U-Boot runs in QEMU 7.2, 4 boots of U-Boot and the kernel
# in QEMU 10); the first run fetches QEMU 10, 10 MB.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
# shellcheck disable=SC2034 # read by tap.sh
SUITE=uboot-oneshot
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
BT=${BT:-$top/build/boottrace}
UBOOT=/usr/lib/u-boot/qemu_arm64/u-boot.bin
export BOOTTRACE_BOARD_DIR="$top/board"

for tool in qemu-system-aarch64 mkenvimage fw_printenv fw_setenv cmp cpio mkfs.vfat mcopy; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is not installed (make deps: scripts/debian-packages.txt)"
done
[ -r "$UBOOT" ] || skip "$UBOOT is missing (u-boot-qemu)"
[ -x "$BT" ] || { nok "$BT missing (make all)"; finish; }

W=$(mktemp -d "${TMPDIR:-/tmp}/bt-uboot-oneshot.XXXXXX") || exit 3
QPID=
# shellcheck disable=SC2317
cleanup() { [ -z "$QPID" ] || kill "$QPID" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# The QEMU that boots, and the virtio disk it boots from (C's kernel; none
# for A and B, whose bootcmd only prints ${bootargs}).
QEMU=qemu-system-aarch64
DISK=
# boot NAME [,readonly=on]: U-Boot in $QEMU with $W/bank1.img as the second
# pflash bank (bank 0 is -bios), at most 120 s; the console without CRs in
# $W/NAME.out. QEMU runs in the background as $QPID so that the trap can
# end it.
boot() {
	set -- "$1" "${2:-}"
	[ -z "$DISK" ] || set -- "$@" -drive if=none,file="$DISK",format=raw,id=d0 \
		-device virtio-blk-device,drive=d0
	b_name=$1 b_ro=$2
	shift 2
	timeout 120 "$QEMU" -M virt -cpu cortex-a57 -m 1024 -nographic \
		-nic none -no-reboot -bios "$UBOOT" \
		-drive if=pflash,index=1,format=raw,file="$W/bank1.img$b_ro" "$@" \
		</dev/null >"$W/$b_name.log" 2>&1 &
	QPID=$!
	wait "$QPID"
	QPID=
	tr -d '\r' <"$W/$b_name.log" >"$W/$b_name.out"
}
# the line the board's bootcmd printed, "" when none
line_of() { sed -n 's/^bootargs=\[\(.*\)\]$/\1/p' "$W/$1.out" | head -1; }
# the kernel's /proc/cmdline as C's initramfs printed it, "" when none
cmdline_of() { sed -n 's/^cmdline=\[\(.*\)\]$/\1/p' "$W/$1.out" | head -1; }
# eq NAME WANT GOT (an empty line is never a pass)
eq() {
	if [ -n "$3" ] && [ "$2" = "$3" ]; then ok "$1"; else
		nok "$1"
		printf '#   want: %s\n#   got:  %s\n' "$2" "$3"
	fi
}
# booted NAME WHAT WANT: boot NAME's U-Boot printed WANT as ${bootargs}
# and, with C's kernel, the kernel booted with it
booted() {
	eq "$1: $2 (U-Boot's bootargs)" "$3" "$(line_of "$1")"
	[ -z "$DISK" ] || eq "$1: $2 (the kernel's /proc/cmdline)" "$3" "$(cmdline_of "$1")"
}
# the console of boot NAME, as notes, when a check on it failed: U-Boot's
# part, and of a kernel only its last lines
show() {
	sed -n '/^Loading Environment/,/^Starting kernel/s/^/#   /p' "$W/$1.out"
	! grep -q '^Starting kernel' "$W/$1.out" || tail -n 4 "$W/$1.out" | sed 's/^/#   /'
}
saved() { grep -q '^Saving Environment to Flash' "$W/$1.out"; }
save_failed() { grep -q '^Failed (' "$W/$1.out"; }

NORMAL='console=ttyAMA0 root=/dev/vda2 ftrace=nop rootwait'
# the board's bootcmd for A and B: print what it would boot with, then
# power off
# shellcheck disable=SC2016 # ${bootargs} is U-Boot's
BOARDCMD='echo "bootargs=[${bootargs}]"; poweroff'
printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, bond_create\n' >"$W/t.bconf"
ONESHOT=$("$BT" compile -t cmdline -b qemu-arm64-uboot --base "$NORMAL" "$W/t.bconf" 2>"$W/err")
if [ -z "$ONESHOT" ] || [ "$ONESHOT" = "$NORMAL" ]; then
	nok "compile -t cmdline: $(cat "$W/err")"
	finish
fi
printf '# device offset size sector\n%s 0x0 0x40000 0x40000\n' "$W/bank1.img" >"$W/fw_env.config"

# newbank BOOTCMD [VAR=VALUE...]: $W/bank1.img, exactly 64 MiB (QEMU's virt
# flash), holding at offset 0 an environment with bootargs $NORMAL, the
# board's BOOTCMD and the VARs; a copy in bank1.orig and what fw_printenv
# reads of it in env.orig.txt
newbank() {
	nb_cmd=$1
	shift
	{
		echo bootdelay=0
		for nb_v; do echo "$nb_v"; done
		echo "bootargs=$NORMAL"
		echo "bootcmd=$nb_cmd"
	} >"$W/env.txt"
	rm -f "$W/bank1.img"
	mkenvimage -s 0x40000 -o "$W/env.bin" "$W/env.txt" || { nok "mkenvimage"; finish; }
	truncate -s 64M "$W/bank1.img"
	dd if="$W/env.bin" of="$W/bank1.img" conv=notrunc 2>/dev/null
	cp "$W/bank1.img" "$W/bank1.orig"
	fw_printenv -c "$W/fw_env.config" >"$W/env.orig.txt" 2>&1 || nok "fw_printenv reads the bank"
}

# arm NAME: arm-boot on the bank, its state in $W/NAME.state; the one-shot
# fw_printenv shows must be compile's line merged into bootargs
arm() {
	if "$BT" arm-boot -q --loader uboot-env --fw-config "$W/fw_env.config" \
		--state "$W/$1.state" -b qemu-arm64-uboot "$W/t.bconf" 2>"$W/err"; then
		ok "$1: arm-boot arms the bank's environment"
	else
		nok "$1: arm-boot arms the bank's environment"
		sed 's/^/#   /' "$W/err"
	fi
	eq "$1: fw_printenv shows the one-shot: compile's words merged into bootargs" "$ONESHOT" \
		"$(fw_printenv -c "$W/fw_env.config" -n boottrace_oneshot 2>&1)"
	cp "$W/bank1.img" "$W/bank1.armed"
}
# restored NAME: the bank is the original byte for byte and reads the same
restored() {
	if cmp "$W/bank1.orig" "$W/bank1.img" >"$W/cmp" 2>&1; then
		ok "$1: the bank is the original byte for byte"
	else
		nok "$1: the bank is the original byte for byte"
		sed 's/^/#   /' "$W/cmp"
	fi
	fw_printenv -c "$W/fw_env.config" >"$W/env.now.txt" 2>&1
	if cmp -s "$W/env.orig.txt" "$W/env.now.txt"; then
		ok "$1: fw_printenv shows the original environment"
	else
		nok "$1: fw_printenv shows the original environment"
		diff "$W/env.orig.txt" "$W/env.now.txt" | sed 's/^/#   /'
	fi
}
# oneshot NAME: the issue's test, after arm NAME and boot NAME1 on a
# writable bank whose saveenv worked: boot 1 took the one-shot and saved
# it cleared, boot 2 (the next reset) takes the normal line and saves
# nothing, disarm-boot sees the one-shot taken and restores every byte,
# and the board's own bootcmd then boots the normal line
oneshot() {
	booted "${1}1" "the one-shot line" "$ONESHOT"
	if fw_printenv -c "$W/fw_env.config" >"$W/env.${1}1.txt" 2>&1 &&
		! grep -q '^boottrace_oneshot=.' "$W/env.${1}1.txt" &&
		grep -q '^boottrace_bootcmd=' "$W/env.${1}1.txt"; then
		ok "${1}1 saved the environment with the one-shot cleared"
	else
		nok "${1}1 saved the environment with the one-shot cleared"
		sed 's/^/#   /' "$W/env.${1}1.txt"
	fi
	boot "${1}2"
	booted "${1}2" "the next reset: the normal line" "$NORMAL"
	if saved "${1}2"; then
		nok "${1}2: no one-shot left to clear (no saveenv)"
		show "${1}2"
	else ok "${1}2: no one-shot left to clear (no saveenv)"; fi
	if "$BT" disarm-boot --state "$W/$1.state" >"$W/err" 2>&1 &&
		grep -q 'took the one-shot' "$W/err"; then
		ok "$1: disarm-boot sees the one-shot taken and restores"
	else
		nok "$1: disarm-boot sees the one-shot taken and restores"
		sed 's/^/#   /' "$W/err"
	fi
	restored "$1"
	boot "${1}3"
	booted "${1}3" "after disarm-boot, the original environment: the normal line" "$NORMAL"
	if saved "${1}3"; then
		nok "${1}3: the board's own bootcmd (no saveenv)"
		show "${1}3"
	else ok "${1}3: the board's own bootcmd (no saveenv)"; fi
}

# ---- 0. the environment as U-Boot reads it ---------------------------------
echo "# A, B: $(qemu-system-aarch64 --version | head -n 1)"
newbank "$BOARDCMD"
boot boot0 ,readonly=on
if grep -q '^Loading Environment from Flash\.\.\. OK' "$W/boot0.out"; then
	ok "U-Boot loads the bank's environment (fw_env.config's offset and size are its own)"
else
	nok "U-Boot loads the bank's environment (fw_env.config's offset and size are its own)"
	show boot0
fi
booted boot0 "unarmed: the board's bootcmd boots the normal line" "$NORMAL"

# ---- A. write-protected: saveenv fails, the one-shot is never taken --------
arm A
for n in 1 2; do
	boot "A$n" ,readonly=on
	if saved "A$n" && save_failed "A$n"; then
		ok "A$n: the one-shot branch ran saveenv, which failed (write-protected)"
	else
		nok "A$n: the one-shot branch ran saveenv, which failed (write-protected)"
		show "A$n"
	fi
	booted "A$n" "the normal line, not the one-shot" "$NORMAL"
	if cmp -s "$W/bank1.armed" "$W/bank1.img"; then
		ok "A$n: the flash is as arm-boot left it"
	else nok "A$n: the flash is as arm-boot left it"; fi
done
if "$BT" disarm-boot -q --state "$W/A.state" 2>"$W/err"; then
	ok "A: disarm-boot"
else
	nok "A: disarm-boot"
	sed 's/^/#   /' "$W/err"
fi
restored A
boot A3 ,readonly=on
booted A3 "after disarm-boot: the normal line" "$NORMAL"
if saved A3; then
	nok "A3: the board's own bootcmd (no saveenv)"
	show A3
else ok "A3: the board's own bootcmd (no saveenv)"; fi

# ---- B. writable, the system's QEMU: saveenv fails there --------------------
arm B
boot B1
if saved B1 && ! save_failed B1; then
	# a system QEMU whose pflash takes U-Boot's writes: the issue's test
	echo "# B: the system's QEMU saves U-Boot's environment: the one-shot checks"
	oneshot B
elif saved B1; then
	grep -E '^Writing to Flash|timeout' "$W/B1.out" | sed 's/^/#   B1: /'
	# the one way it is known to fail; any other is news
	if grep -q '^Writing to Flash\.\.\. Flash buffer write timeout' "$W/B1.out"; then
		ok "B1: saveenv fails as QEMU 7.2's pflash makes it (buffer write timeout)"
	else
		nok "B1: saveenv fails as QEMU 7.2's pflash makes it (buffer write timeout)"
		show B1
	fi
	booted B1 "saveenv failed, so the normal line, not the one-shot" "$NORMAL"
	# saveenv erased the environment before it failed: U-Boot's next
	# reset reads no environment, and disarm-boot cannot read it either
	if "$BT" disarm-boot --state "$W/B.state" >"$W/err" 2>&1; then
		ok "B: disarm-boot (the environment was left readable)"
	elif grep -q 'changed since arm-boot and cannot be read' "$W/err" &&
		[ -e "$W/B.state/armed" ]; then
		ok "B: disarm-boot refuses the environment saveenv left unreadable, keeps the state"
		if "$BT" disarm-boot -q --force --state "$W/B.state" 2>"$W/err"; then
			ok "B: disarm-boot --force"
		else
			nok "B: disarm-boot --force"
			sed 's/^/#   /' "$W/err"
		fi
	else
		nok "B: disarm-boot after the failed saveenv"
		sed 's/^/#   /' "$W/err"
	fi
	restored B
	boot B2
	booted B2 "after disarm-boot, U-Boot boots the original environment's normal line" "$NORMAL"
else
	nok "B1: the one-shot branch ran saveenv"
	show B1
fi

# ---- C. the one-shot, then the normal line, in QEMU 10 with a kernel -------
if ! QEMU=$(sh tests/e2e/qemu-bpo.sh 2>"$W/qemu-bpo.err"); then
	nok "C: bookworm-backports' QEMU (tests/e2e/qemu-bpo.sh)"
	sed 's/^/#   /' "$W/qemu-bpo.err"
	finish
fi
echo "# C: $("$QEMU" --version | head -n 1)"
if ! AD=$(sh tests/e2e/kernel-pkg.sh arm64 cloud-arm64 2>"$W/kernel.err"); then
	nok "C: Debian's arm64 cloud kernel (tests/e2e/kernel-pkg.sh)"
	sed 's/^/#   /' "$W/kernel.err"
	finish
fi
grep '^# ' "$W/kernel.err"
akv=$(cat "$AD/kver")
echo "# C: linux-image-$akv"
# the initramfs: the static arm64 busybox and an /init that prints the
# line the kernel booted with and powers off (the kernel's built-in
# initramfs gives /dev/console)
mkdir -p "$W/initrd/bin" "$W/initrd/proc"
cp "$AD/busybox" "$W/initrd/bin/busybox"
cat >"$W/initrd/init" <<'EOI'
#!/bin/busybox sh
/bin/busybox mount -t proc proc /proc
echo "cmdline=[$(/bin/busybox cat /proc/cmdline)]"
/bin/busybox poweroff -f
EOI
chmod 755 "$W/initrd/init"
(cd "$W/initrd" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -9n >"$W/initrd.gz"
# Debian's arm64 vmlinuz is an uncompressed Image, as booti wants
cp "$AD/root/boot/vmlinuz-$akv" "$W/Image"
DISK=$W/disk.img
sh tests/e2e/uboot-disk.sh "$DISK" 64 "$W/Image" "$W/initrd.gz" || { nok "C: the FAT disk (uboot-disk.sh)"; finish; }
# the board's bootcmd: print the line, boot the kernel with it; the load
# addresses are those of U-Boot's default environment, which the bank's
# replaces
# shellcheck disable=SC2016 # U-Boot's variables
newbank 'echo "bootargs=[${bootargs}]"; virtio scan; load virtio 0:1 ${kernel_addr_r} Image && load virtio 0:1 ${ramdisk_addr_r} initrd.gz && booti ${kernel_addr_r} ${ramdisk_addr_r}:${filesize} ${fdtcontroladdr}; poweroff' \
	kernel_addr_r=0x40400000 ramdisk_addr_r=0x44000000
boot C0
booted C0 "unarmed: the normal line" "$NORMAL"
arm C
boot C1
if saved C1 && ! save_failed C1; then
	ok "C1: the one-shot branch's saveenv worked"
else
	nok "C1: the one-shot branch's saveenv worked"
	show C1
fi
oneshot C
finish
