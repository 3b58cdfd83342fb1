#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What boottrace reads from Debian's mips64el (5kc-malta) and arm64
# (cloud-arm64) 6.1 images themselves -- their trace events, traceable
# functions and tracers (docs/kernel-image.md) -- against the same kernels
# booted in QEMU (TCG, no KVM): a busybox initramfs whose /init prints
# available_events, available_filter_functions and available_tracers on
# the serial console between marker lines, then powers off. The
# comparisons are tests/e2e/imgcmp.sh's, as try.sh's for amd64: events
# exactly (arm64's sys_call_table, which kallsyms does not list, found by
# its shape). Last line "archboot: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
W=$top/build/e2e-archboot
# shellcheck disable=SC2034 # read by tap.sh
SUITE=archboot
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
# shellcheck source=tests/e2e/imgcmp.sh
. "$top/tests/e2e/imgcmp.sh"

[ -x "$bt" ] || { nok "$bt missing (make all)"; finish; }
rm -rf "$W"
mkdir -p "$W"

# The guest's /init: what the booted kernel lists, between marker lines.
cat >"$W/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox mkdir -p /proc /sys /dev
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
/bin/busybox mount -t tracefs tracefs /sys/kernel/tracing
for f in available_events available_filter_functions available_tracers; do
	echo "==begin $f"
	/bin/busybox cat "/sys/kernel/tracing/$f"
	echo "==end $f"
done
/bin/busybox poweroff -f
EOF

# The lines of the serial log SERIAL between "==begin F" and "==end F".
listed() { # SERIAL F
	tr -d '\r' <"$1" | awk -v f="$2" '$0 == "==end " f { on = 0 } on { print } $0 == "==begin " f { on = 1 }'
}

one() { # ARCH FLAVOUR QEMU CONSOLE QEMU-ARGS...
	arch=$1 flavour=$2 qemu=$3 console=$4
	shift 4
	if ! command -v "$qemu" >/dev/null 2>&1; then
		nok "$arch: $qemu is not installed (make deps)"
		return
	fi
	d=$(sh tests/e2e/kernel-pkg.sh "$arch" "$flavour") || { nok "$arch: no Debian 6.1 $flavour kernel"; return; }
	kv=$(cat "$d/kver")
	img=$d/root/boot/vmlinuz-$kv
	w=$W/$arch
	mkdir -p "$w/root/bin"
	cp "$d/busybox" "$w/root/bin/busybox"
	cp "$W/init" "$w/root/init"
	chmod 755 "$w/root/init" "$w/root/bin/busybox"
	(cd "$w/root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -9n >"$w/initrd.gz"
	# quiet: no kernel message between the listed lines
	progress_run -o "$w/qemu.log" -t "$w/serial.log" "booting $arch" \
		timeout 600 "$qemu" "$@" -display none -monitor none -no-reboot \
		-serial "file:$w/serial.log" -kernel "$img" -initrd "$w/initrd.gz" \
		-append "console=$console quiet panic=-1"
	for f in available_events available_filter_functions available_tracers; do
		listed "$w/serial.log" "$f" >"$w/$f"
	done
	if ! tr -d '\r' <"$w/serial.log" | grep -qx '==end available_tracers'; then
		nok "$arch: the booted kernel listed its events, functions and tracers (serial: $w/serial.log)"
		tail -n 5 "$w/serial.log" | sed 's/^/#   /'
		return
	fi
	ok "$arch: the booted kernel listed its events, functions and tracers"
	imgcmp_events "$arch:" "$img" "$w/available_events" "$w"
	imgcmp_functions "$arch:" "$img" "$w/available_filter_functions" "$w"
	imgcmp_tracers "$arch:" --kernel "$img" "$w/available_tracers" "$w"
}

one mips64el 5kc-malta qemu-system-mips64el ttyS0 -M malta -cpu 5KEc -m 512
one arm64 cloud-arm64 qemu-system-aarch64 ttyAMA0 -M virt -cpu cortex-a57 -m 1024
finish
