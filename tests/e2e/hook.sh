#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end tests of the initramfs hook: QEMU (TCG) boots of a real Debian
# linux-image-6.1.0-*-cloud-amd64 (tests/e2e/kernel.sh) with a busybox-static
# initramfs (initramfs-hook/mkinitramfs.sh) and with one built by the real
# dracut; kernel command lines come from `boottrace compile` of the configs
# in tests/e2e/hook/. The guest writes /run/boottrace as a tar to a raw
# virtio disk, which is read back here. Every boot that expects a snapshot
# carries the opt-in word ($OPTIN); the opt-out boots carry none. The last line is
# "hook: N passed, N failed". Exit 77 (with a SKIP line) only when no boot
# is possible: no qemu-system-x86_64 or no kernel to fetch.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
td=$top/tests/e2e/hook
W=$top/build/e2e-hook
SUITE=hook
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
# shellcheck disable=SC2317
meta() { grep -qxF -- "$2" "$1/meta"; } # SNAPDIR LINE
# shellcheck disable=SC2317
metahas() { grep -F -- "$2" "$1/meta" | grep -q .; }

# 1. The hook scripts are POSIX sh, shellcheck clean.
if command -v shellcheck >/dev/null 2>&1; then
	t "shellcheck -s sh: hook scripts, adapters and these tests" shellcheck -x -s sh \
		initramfs-hook/boottrace-snapshot.sh initramfs-hook/boottrace-init \
		initramfs-hook/mkinitramfs.sh initramfs-hook/dracut/90boottrace/*.sh \
		initramfs-hook/initramfs-tools/hooks/boottrace \
		initramfs-hook/initramfs-tools/scripts/boottrace tests/e2e/hook.sh tests/e2e/hook-settings.sh \
		tests/e2e/kernel.sh tests/e2e/kernel-pkg.sh tests/e2e/uboot-disk.sh \
		tests/e2e/selfbuilt-kernel.sh tests/e2e/scenarios.sh tests/e2e/tap.sh "$td"/stage1 "$td"/stage2 "$td"/root-init \
		"$td"/console-rebuild.sh tests/bench/hook.sh
else
	nok "shellcheck is not installed (make deps)"
fi

qemu_kernel kernel.sh "Debian 6.1 cloud kernel"
vmlinuz=$KD/root/boot/vmlinuz-$KV
if ! sh initramfs-hook/mkinitramfs.sh -o "$W/bb.cpio.gz" -M "$KD/root" -V "$KV" \
	-m "virtio_pci virtio_blk bonding" -f "$td/stage1:/stage1" -f "$td/stage2:/init"; then
	nok "mkinitramfs.sh builds the test initramfs"
	finish
fi

# The opt-in word (initramfs-hook/README.md, "Opt-in"): every boot that
# expects a snapshot carries it, whatever compile writes
OPTIN=boottrace
# the words of a command line without any that asks for the hook
noask() { echo "$1" | tr ' ' '\n' | grep -v '^boottrace$' | grep -v '^boottrace\.' | tr '\n' ' '; }

cl() { # CONFIG [extra words]: the compiled command line
	c=$("$bt" compile -k 6.1 "$1") || { echo "COMPILE-FAILED:$1"; return; }
	shift
	echo "$c $*"
}

# boot NAME INITRD CMDLINE [qemu args]: S = the snapshot read back (if any)
boot() {
	n=$1
	i=$2
	c=$3
	shift 3
	d=$W/$n
	mkdir -p "$d/out"
	rm -f "$d/disk.img"
	truncate -s 64M "$d/disk.img"
	t0=$(date +%s%N)
	progress_run -o "$d/qemu.log" -t "$d/serial.log" "booting $n" \
		timeout 240 qemu-system-x86_64 -M pc -m 512 -smp 2 -display none \
		-monitor none -serial "file:$d/serial.log" -no-reboot \
		-kernel "$vmlinuz" -initrd "$i" \
		-drive "file=$d/disk.img,format=raw,if=virtio" "$@" \
		-append "console=ttyS0 panic=-1 $c"
	t1=$(date +%s%N)
	echo "# boot $n: $(((t1 - t0) / 1000000)) ms; cmdline: $c"
	# for tests/e2e/scenarios.sh, which reports on these boots
	echo "$(((t1 - t0) / 1000000)) $c" >"$d/boot"
	tar -xf "$d/disk.img" -C "$d/out" 2>/dev/null
	S=
	for s in "$d"/out/boottrace/*/; do
		[ -d "$s" ] && S=${s%/} && break
	done
	S=${S:-$d/none}
	t "$n: boots to the end" has "$d/serial.log" "bttest: reached the end"
}

stack_has() { # TRACE FRAME: a <stack trace> block lists FRAME
	awk -v f=" => $2" '/<stack trace>/ { s = 1; next } !/^ =>/ { s = 0 }
		s && $0 == f { found = 1 } END { exit !found }' "$1"
}

# 2. bond0 on the console: snapshot once bonding is live, printed between
#    markers; the files rebuilt from the serial log equal the /run files.
boot console "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl "$td/console.bconf")"
t "console: COMPLETE, no errors" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
t "console: register_netdevice <-bond_create" has "$S/trace" "register_netdevice <-bond_create"
stack_ok=0
stack_has "$S/trace" register_netdevice && stack_has "$S/trace" bond_create &&
	stack_has "$S/trace" bonding_init && stack_ok=1
t "console: stack block => register_netdevice => bond_create => bonding_init" [ "$stack_ok" = 1 ]
t "console: meta point=modules (boottrace.at)" meta "$S" point=modules
t "console: tracing was on, then stopped" sh -c "grep -qx tracing_on_before=1 '$S/meta' && grep -qx 0 '$S/tracing_on'"
t "console: tracer, filter, options, stats, buffer size copied" sh -c "
	grep -qx function '$S/tracer' && grep -qx register_netdevice '$S/set_ftrace_filter' &&
	grep -qx 1 '$S/options/func_stack_trace' && grep -q '^overrun:' '$S/per_cpu/cpu0/stats' &&
	grep -q '^overrun:' '$S/per_cpu/cpu1/stats' && grep -qx '[0-9]*' '$S/buffer_size_kb' &&
	grep -q func_stack_trace '$S/trace_options'"
t "console: cmdline, release, modules, dmesg" sh -c "
	grep -q boottrace.snapshot=console '$S/cmdline' && grep -qx '$KV' '$S/release' &&
	grep -q '^bonding ' '$S/modules' && grep -q 'Linux version' '$S/dmesg'"
t "console: meta has uptimes and duration" sh -c "
	grep -q '^uptime_start=[0-9]*\.[0-9][0-9]$' '$S/meta' && grep -q '^uptime_end=' '$S/meta' &&
	grep -q '^duration_ms=[0-9]*$' '$S/meta'"
rm -rf "$W/console/rebuilt"
t "console: serial log rebuilds, sizes and md5 match the headers" \
	sh "$td/console-rebuild.sh" "$W/console/serial.log" "$W/console/rebuilt"
t "console: rebuilt files == the run-mode snapshot of the same boot" \
	diff -r "$W/console/rebuilt/${S##*/}" "$S"

# 3. Arm, then snapshot: module functions filtered before bonding loads.
boot arm "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl "$td/arm.bconf")"
t "arm: COMPLETE, no errors" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
t "arm: bond_create <-bonding_init" has "$S/trace" "bond_create <-bonding_init"
t "arm: bonding_init <-do_one_initcall" has "$S/trace" "bonding_init <-do_one_initcall"
t "arm: register_netdevice <-bond_create" has "$S/trace" "register_netdevice <-bond_create"
t "arm: default point moved to the latest (modules), meta says why" sh -c "
	grep -qx point=modules '$S/meta' &&
	grep -qx 'point_reason=default moved to the latest point modules because boottrace.arm is set' '$S/meta'"
t "arm: set_ftrace_filter holds bond_create after the load" grep -q '^bond_create' "$S/set_ftrace_filter"
t "arm: raw buffers, formats, kallsyms copied" sh -c "
	{ [ -s '$S/per_cpu/cpu0/trace_pipe_raw' ] || [ -s '$S/per_cpu/cpu1/trace_pipe_raw' ]; } &&
	[ -s '$S/events/header_page' ] && [ -s '$S/events/ftrace/function/format' ] &&
	grep -q ' bond_create' '$S/kallsyms' && [ -s '$S/printk_formats' ]"
if command -v trace-cmd >/dev/null 2>&1; then
	r=$W/arm/restore
	mkdir -p "$r"
	(cd "$r" && trace-cmd restore -c -t "$S" -k "$S/kallsyms" -o head.dat &&
		trace-cmd restore -i head.dat -o trace.dat "$S"/per_cpu/cpu*/trace_pipe_raw &&
		trace-cmd report -i trace.dat) >"$r/report" 2>"$r/err"
	t "arm: trace-cmd restore + report of the raw buffers shows bond_create" \
		grep -q 'bond_create' "$r/report"
else
	nok "trace-cmd is not installed (make deps)"
fi

# 3b. The same arm list from the settings file (compile --hook-settings,
#     installed as /etc/boottrace.conf by mkinitramfs.sh -c): the command
#     line carries no boottrace.* setting (only compile's boottrace.enable=1,
#     if any, and the opt-in word: the file does not ask for the hook).
hs=$W/boottrace.conf
armline=$("$bt" compile -k 6.1 --hook-settings "$hs" "$td/arm.bconf") || armline=COMPILE-FAILED
t "settings file: compile --hook-settings leaves boottrace.* settings off the line" \
	sh -c "[ '$armline' != COMPILE-FAILED ] &&
		! echo '$armline' | tr ' ' '\n' | grep -vx 'boottrace.enable=1' | grep -q boottrace."
t "settings file: it holds the arm list as /proc/bootconfig shows it" \
	grep -qx 'boottrace.arm = "bond_create:mod:bonding,bonding_init:mod:bonding"' "$hs"
t "settings file: the hook reads it (arm set: snapshot moves to the latest point)" \
	sh -c "echo boottrace >'$W/optin.cmdline' && BOOTTRACE_CMDLINE='$W/optin.cmdline' BOOTTRACE_BOOTCONFIG=/nonexistent \
		BOOTTRACE_CONF='$hs' sh initramfs-hook/boottrace-snapshot.sh wants modules 'top modules'"
if sh initramfs-hook/mkinitramfs.sh -o "$W/bbconf.cpio.gz" -M "$KD/root" -V "$KV" \
	-m "virtio_pci virtio_blk bonding" -f "$td/stage1:/stage1" -f "$td/stage2:/init" -c "$hs"; then
	boot armfile "$W/bbconf.cpio.gz" "rdinit=/stage1 $OPTIN $armline"
	t "armfile: COMPLETE, no errors" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
	t "armfile: meta names the settings file" meta "$S" settings_file=/etc/boottrace.conf
	t "armfile: bond_create <-bonding_init (armed from the file)" has "$S/trace" "bond_create <-bonding_init"
	t "armfile: register_netdevice <-bond_create" has "$S/trace" "register_netdevice <-bond_create"
else
	nok "mkinitramfs.sh -c builds the initramfs with /etc/boottrace.conf"
fi

# 4. Faults: each boots to the end and records why.
boot big "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl "$td/big.bconf") boottrace.timeout=2"
t "big: COMPLETE" [ -f "$S/COMPLETE" ]
t "big: trace capped at exactly max_kb=256" [ "$(wc -c <"$S/trace")" = 262144 ]
t "big: meta says the trace was truncated by boottrace.max_kb" \
	metahas "$S" "error=trace truncated at 256 KB (boottrace.max_kb=256)"
t "big: buffer_size_kb is 8 MB (page-rounded)" [ "$(cat "$S/buffer_size_kb")" -ge 8192 ]
t "big: missing destination device falls back to /run, recorded" \
	metahas "$S" "error=destination LABEL=NOPE not found after 2s; snapshot kept in /run/boottrace"

rm -f "$W/dev.img"
mke2fs -q -t ext4 -L BTSNAP "$W/dev.img" 16M
boot device "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl "$td/nop.bconf")" \
	-drive "file=$W/dev.img,format=raw,if=virtio"
rm -rf "$W/device/dev"
mkdir -p "$W/device/dev"
debugfs -R "rdump /boottrace $W/device/dev" "$W/dev.img" >/dev/null 2>&1
S=
for s in "$W"/device/dev/boottrace/*/; do [ -d "$s" ] && S=${s%/}; done
S=${S:-$W/device/none}
t "device: snapshot written to LABEL=BTSNAP, COMPLETE" [ -f "$S/COMPLETE" ]
t "device: meta names /dev/vdb" meta "$S" device=/dev/vdb
t "device: unmounted cleanly (e2fsck -fn)" e2fsck -fn "$W/dev.img"
t "device: mounted nosuid,nodev,noexec" sh -c "
	grep '^device_mount=' '$S/meta' | grep -q nosuid &&
	grep '^device_mount=' '$S/meta' | grep -q nodev &&
	grep '^device_mount=' '$S/meta' | grep -q noexec"
t "nop: tracer nop recorded in meta" metahas "$S" "warning=tracer is nop"

boot runfull "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl "$td/all.bconf") bttest=runfull"
t "runfull: COMPLETE" [ -f "$S/COMPLETE" ]
t "runfull: trace cut to the free space, recorded" sh -c "
	grep -q '^error=trace truncated at [0-9]* KB (only [0-9]* KB free on /run/boottrace, 512 KB kept' '$S/meta' &&
	[ -s '$S/trace' ]"

# shellcheck disable=SC2317 # runs through t
freeok() { # DIR: /run kept 10 % of its size free after the snapshot
	awk 'NR == 2 && $2 > 0 { ok = ($4 * 10 >= $2) } END { exit !ok }' "$1/out/bttest/df"
}
t "runfull: /run still 10 % free after the snapshot" freeok "$W/runfull"

# A small empty /run (8 MB tmpfs): the trace (about 9 MB) is cut so that
# 10 % of /run stays free, and meta and report say so; the destination is a
# symlink to a regular file: refused, the snapshot stays in /run
boot runtiny "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl "$td/all.bconf") bttest=runtiny boottrace.snapshot=/dev/btfile"
t "runtiny: COMPLETE, a trace" sh -c "[ -f '$S/COMPLETE' ] && [ -s '$S/trace' ]"
t "runtiny: the cut names the room kept: 512 KB for the files, 10 % for the boot" sh -c "
	grep -q '^error=trace truncated at [0-9]* KB (only [0-9]* KB free on /run/boottrace, 512 KB kept for the other files and 819 KB (10 % of its 8192 KB) for the rest of the boot)' '$S/meta'"
t "runtiny: /run still 10 % free after the snapshot" freeok "$W/runtiny"
t "runtiny: a symlink to a regular file is refused, snapshot kept in /run" metahas "$S" \
	"error=destination /dev/btfile refused: /dev/btfile leads to /init, a regular file, not a block device; snapshot kept in /run/boottrace"
"$bt" report "$S" >"$W/runtiny/report.txt" 2>&1
t "runtiny: report says the trace was cut and why" sh -c "
	grep -q 'trace truncated at [0-9]* KB (only [0-9]* KB free on /run/boottrace' '$W/runtiny/report.txt'"

# /run on ramfs, df says 0: the room comes from MemAvailable (24 MB left
# by the test, 16 MB of it kept), the cut is said; the destination is a
# symlink to a character device (refused); a hostile max_kb is an error
boot ramfs "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl "$td/all.bconf") bttest=ramfs boottrace.snapshot=/dev/btlink boottrace.max_kb=0x10"
t "ramfs: COMPLETE, a trace of more than 1 MB" sh -c "[ -f '$S/COMPLETE' ] && [ \$(wc -c <'$S/trace') -gt 1048576 ]"
t "ramfs: /run is ramfs, df gives it no size" sh -c "awk 'NR == 2 { z = (\$2 == 0) } END { exit !z }' '$W/ramfs/out/bttest/df'"
t "ramfs: meta: cut to MemAvailable less 16 MB, df gives it no size" sh -c "
	grep -q '^error=trace truncated at [0-9]* KB (only [0-9]* KB of memory available (MemAvailable) for ramfs /run/boottrace, 512 KB kept for the other files and 16384 KB for the rest of the boot; df gives it no size)' '$S/meta'"
t "ramfs: a symlink to a character device is refused, snapshot kept in /run" metahas "$S" \
	"error=destination /dev/btlink refused: /dev/btlink leads to /dev/null, a character device, not a block device; snapshot kept in /run/boottrace"
t "ramfs: max_kb=0x10 is an error, the default stays" sh -c "
	grep -qx 'max_kb=65536' '$S/meta' &&
	grep -q '^error=boottrace.max_kb=0x10 on the command line is not a whole number of KB' '$S/meta'"
"$bt" report "$S" >"$W/ramfs/report.txt" 2>&1
t "ramfs: report says the trace was cut and why" \
	grep -q 'trace truncated at [0-9]* KB (only [0-9]* KB of memory available (MemAvailable)' "$W/ramfs/report.txt"

# A symlink to the block device: followed, mounted, unmounted
rm -f "$W/dev.img"
mke2fs -q -t ext4 -L BTSNAP "$W/dev.img" 16M
boot devlink "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl tests/data/bond0.bconf) bttest=devlink boottrace.snapshot=/dev/btsnap" \
	-drive "file=$W/dev.img,format=raw,if=virtio"
rm -rf "$W/devlink/dev"
mkdir -p "$W/devlink/dev"
debugfs -R "rdump /boottrace $W/devlink/dev" "$W/dev.img" >/dev/null 2>&1
S=
for s in "$W"/devlink/dev/boottrace/*/; do [ -d "$s" ] && S=${s%/}; done
S=${S:-$W/devlink/none}
t "devlink: snapshot written through the symlink /dev/btsnap, COMPLETE" [ -f "$S/COMPLETE" ]
t "devlink: meta names the final node /dev/vdb" meta "$S" device=/dev/vdb
t "devlink: unmounted cleanly (e2fsck -fn)" e2fsck -fn "$W/dev.img"

# Opt-in: the same initramfs and line, without and with the word. Without:
# no /run/boottrace, tracefs not even mounted, tracing_on still 1 and the
# buffer still holds the events; with: the whole snapshot.
ol=$(noask "$(cl tests/data/bond0.bconf)")
boot optout "$W/bb.cpio.gz" "rdinit=/stage1 $ol bttest=state"
o=$W/optout/out/bttest
t "optout: no /run/boottrace" sh -c "[ -s '$o/df' ] && [ ! -e '$W/optout/out/boottrace' ]"
t "optout: the hook did not mount tracefs" grep -qx no "$o/tracefs-mounted"
t "optout: tracing_on still 1" grep -qx 1 "$o/tracing_on"
t "optout: the buffer still has the events (register_netdevice)" sh -c "[ \$(cat '$o/events') -gt 0 ]"
t "optout: nothing from boottrace in the kernel log" sh -c "! grep -q '\] boottrace: ' '$W/optout/serial.log'"
boot optin "$W/bb.cpio.gz" "rdinit=/stage1 $ol $OPTIN bttest=state"
t "optin: the whole snapshot, COMPLETE, no errors" sh -c "
	grep -qx 'errors=0 warnings=0' '$S/COMPLETE' && grep -qx tracing_on_before=1 '$S/meta' &&
	grep -q register_netdevice '$S/trace' && [ -s '$S/dmesg' ] && [ -s '$S/cmdline' ] &&
	grep -qx 0 '$W/optin/out/bttest/tracing_on'"
for v in optout optin; do
	a=$(cat "$W/$v/out/bttest/t-wrapper" 2>/dev/null)
	b=$(cat "$W/$v/out/bttest/t-init" 2>/dev/null)
	echo "# $v: rdinit wrapper to the real init: $(awk -v a="${a:-0}" -v b="${b:-0}" 'BEGIN { printf "%d", (b - a) * 1000 }') ms (TCG)"
done

boot traceoff "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl tests/data/bond0.bconf) bttest=traceoff"
t "traceoff: COMPLETE" [ -f "$S/COMPLETE" ]
t "traceoff: tracing_on already 0 recorded" metahas "$S" "warning=tracing_on was already 0 before the hook"
t "traceoff: snapshot at the earliest point by default" meta "$S" "point_reason=default: earliest point"

boot nosys "$W/bb.cpio.gz" "rdinit=/stage1 $OPTIN $(cl tests/data/bond0.bconf) bttest=nosys"
t "nosys: COMPLETE" [ -f "$S/COMPLETE" ]
t "nosys: no tracefs recorded" metahas "$S" "error=no tracefs: /sys is not mounted"

# 5. dracut: the real dracut builds the initramfs with our module from a
#    scratch copy of its modules dir; the real root is an ext4 disk.
if command -v dracut >/dev/null 2>&1; then
	dr=$W/dracut
	mkdir -p "$dr/empty" "$dr/tmp" "$dr/rootfs/sbin" "$dr/rootfs/bin" "$dr/rootfs/run" \
		"$dr/rootfs/proc" "$dr/rootfs/sys" "$dr/rootfs/dev"
	cp -a /usr/lib/dracut "$dr/base"
	cp -r initramfs-hook/dracut/90boottrace "$dr/base/modules.d/"
	cp initramfs-hook/boottrace-snapshot.sh "$dr/base/modules.d/90boottrace/"
	t0=$(date +%s%N)
	dracutbasedir=$dr/base dracut --force --no-hostonly --quiet --kver "$KV" \
		--kmoddir "$KD/root/lib/modules/$KV" --conf /dev/null --confdir "$dr/empty" \
		--tmpdir "$dr/tmp" --no-early-microcode \
		--modules "base rootfs-block udev-rules kernel-modules boottrace" \
		--drivers "virtio_pci virtio_blk ext4" --force-drivers bonding \
		"$dr/initrd.img" >"$dr/build.log" 2>&1
	t1=$(date +%s%N)
	echo "# dracut build: $(((t1 - t0) / 1000000)) ms, $(wc -c <"$dr/initrd.img" 2>/dev/null) bytes"
	t "dracut: builds with the boottrace module" [ -s "$dr/initrd.img" ]
	lsinitrd "$dr/initrd.img" >"$dr/list" 2>&1
	t "dracut: image holds the cmdline hook (priority 00) and the core" sh -c "
		grep -q 'lib/dracut/hooks/cmdline/00-boottrace-cmdline.sh' '$dr/list' &&
		grep -q 'lib/dracut/hooks/pre-pivot/99-boottrace-pre-pivot.sh' '$dr/list' &&
		grep -q 'lib/boottrace/boottrace-snapshot.sh' '$dr/list'"
	# module-setup.sh installs the core script's own list of programs
	t "dracut: image holds every program the core script runs (its tools list)" sh -c "
		l=\$(sh initramfs-hook/boottrace-snapshot.sh tools) && [ -n \"\$l\" ] || exit 1
		for p in \$l; do
			grep -qE \" (usr/)?s?bin/\$p( ->|\$)\" '$dr/list' || { echo \"no \$p\"; exit 1; }
		done"
	cp "$(command -v busybox)" "$dr/rootfs/bin/busybox"
	for a in sh cat mkdir tar sync poweroff; do ln -sf busybox "$dr/rootfs/bin/$a"; done
	cp "$td/root-init" "$dr/rootfs/sbin/init"
	for v in cmdline arm optout; do
		rm -f "$dr/root.img"
		mke2fs -q -t ext4 -d "$dr/rootfs" "$dr/root.img" 16M
		case $v in
		cmdline) c=$(cl tests/data/bond0.bconf) ;;
		# systemd's /usr/lib/modprobe.d/systemd.conf (copied by dracut) says
		# bonding max_bonds=0: no bond0, no bond_create; the command line wins
		arm) c="$(cl "$td/arm.bconf") bonding.max_bonds=1" ;;
		# not asked: the five hooks return at once
		optout) c=$(noask "$(cl tests/data/bond0.bconf)") ;;
		esac
		o=$W/dracut-$v/out
		if [ "$v" = optout ]; then
			boot "dracut-$v" "$dr/initrd.img" \
				"root=/dev/vdb rootfstype=ext4 rd.shell=0 rd.emergency=poweroff $c" \
				-drive "file=$dr/root.img,format=raw,if=virtio"
			t "dracut-optout: no /run/boottrace in the real root" sh -c "
				grep -q '^/dev/vdb / ext4' '$o/bttest/mounts' && [ ! -e '$o/boottrace' ]"
			t "dracut-optout: nothing from boottrace in the kernel log" sh -c "
				! grep -q '\] boottrace: ' '$W/dracut-optout/serial.log'"
			continue
		fi
		# vda: the tar the real root's init writes; vdb: the real root
		boot "dracut-$v" "$dr/initrd.img" \
			"root=/dev/vdb rootfstype=ext4 rd.shell=0 rd.emergency=poweroff $OPTIN $c" \
			-drive "file=$dr/root.img,format=raw,if=virtio"
		t "dracut-$v: /run/boottrace survives switch_root, COMPLETE" sh -c "
			[ -f '$S/COMPLETE' ] && grep -q '^/dev/vdb / ext4' '$o/bttest/mounts'"
		case $v in
		cmdline)
			t "dracut-cmdline: snapshot taken at the cmdline hook" meta "$S" point=cmdline
			t "dracut-cmdline: meta holds no error of a program (not found, bad operand)" sh -c "
				! grep -e 'not found' -e 'bad operand' '$S/meta'"
			;;
		arm)
			t "dracut-arm: snapshot moved to pre-pivot" meta "$S" point=pre-pivot
			# bonding_init's text is freed once it returns: a snapshot seconds
			# later prints whatever symbol now covers the parent address
			t "dracut-arm: armed bond_create traced (module loaded by dracut)" has "$S/trace" " bond_create <-"
			t "dracut-arm: register_netdevice <-bond_create" has "$S/trace" "register_netdevice <-bond_create"
			;;
		esac
	done
else
	nok "dracut is not installed (dracut-core, make deps)"
fi

finish
