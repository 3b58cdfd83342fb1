# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sourced by the x86 suites that may boot under KVM (systemd-boot.sh, for
# systemd-root.sh and make demo DEMO=script): the one probe of the
# accelerator. Every other suite boots under TCG, whose timing and faults
# the tests were measured with (docs/kernel-facts.md 55).
#
# qemu_accel KERNEL DIR: print kvm or tcg. BT_QEMU_ACCEL=tcg (or kvm)
# decides instead (CI's time budget is measured with tcg, README.md
# "Tests"). Otherwise KVM only when /dev/kvm opens and a 30 s probe boot of
# KERNEL under it (no root: the kernel panics, -no-reboot ends QEMU) prints
# the kernel's banner: on some hosts (nested virtualisation) /dev/kvm takes
# the kernel and prints nothing. Why TCG is said in a "# " line on stderr;
# the probe's console is DIR/kvm-probe.log.
qemu_accel() {
	case ${BT_QEMU_ACCEL:-} in
	tcg | kvm)
		echo "# QEMU accelerator $BT_QEMU_ACCEL: BT_QEMU_ACCEL says so" >&2
		echo "$BT_QEMU_ACCEL"
		return 0
		;;
	'') ;;
	*) echo "# BT_QEMU_ACCEL=$BT_QEMU_ACCEL is neither tcg nor kvm: probing" >&2 ;;
	esac
	if [ ! -w /dev/kvm ]; then
		echo "# no usable /dev/kvm: TCG" >&2
		echo tcg
		return 0
	fi
	timeout 30 qemu-system-x86_64 -M pc -accel kvm -m 512 -smp 1 -display none -monitor none \
		-serial "file:$2/kvm-probe.log" -no-reboot -kernel "$1" \
		-append "console=ttyS0 panic=-1" >/dev/null 2>&1
	if grep -q 'Linux version' "$2/kvm-probe.log" 2>/dev/null; then
		echo "# /dev/kvm boots the kernel: KVM" >&2
		echo kvm
	else
		echo "# /dev/kvm is there but a probe boot printed nothing in 30 s under it: TCG" >&2
		echo tcg
	fi
}
