#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Boots that die, kept by pstore (issue 18 part 4, Debian 6.1): one QEMU
# (TCG) process, two boots of the Debian linux-image-6.1.0-*-cloud-amd64
# (tests/e2e/kernel.sh) with a busybox initramfs carrying the boottrace
# hook (rdinit=/sbin/boottrace-init), ramoops.ko with its dependency and
# the test module tests/e2e/crashmod (built by crashmod/build.sh). The
# command line is `boottrace compile -b qemu-x86_64 --kernel-config` of
# tests/e2e/crashmod/pstore.bconf (crash = pstore, crash_reboot = 1,
# snapshot = console). Boot 1: the hook loads ramoops (modprobe with the
# line's ramoops.* words), the init (crashmod/pstore-init) loads crashmod,
# whose init panics; the kernel dumps its trace into its log
# (ftrace_dump_on_oops), ramoops keeps the log's tail, panic=1 resets the
# machine (a warm reset keeps RAM). Boot 2: the hook copies
# /sys/fs/pstore into its snapshot, printed on the serial console; the
# init powers off. `boottrace report` reads the record, the snapshot
# rebuilt from the serial log (tests/e2e/hook/console-rebuild.sh), and the
# serial log itself.
# The last line is "pstore: N passed, N failed". Exit 77 (with a SKIP
# line) only when no boot is possible.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
W=$top/build/e2e-pstore
SUITE=pstore
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"

if command -v shellcheck >/dev/null 2>&1; then
	t "shellcheck -s sh: this script and its init" shellcheck -x -s sh \
		tests/e2e/pstore.sh tests/e2e/crashmod/pstore-init
else
	nok "shellcheck is not installed (make deps)"
fi
crashmod_kernel

# ramoops and what it needs, where the hook's modprobe (busybox) finds
# them: /lib/modules/KVER with a modules.dep of the kernel's own lines
md=$KD/root/lib/modules/$KV
grep -E '^kernel/(fs/pstore/ramoops|lib/reed_solomon/reed_solomon)\.ko:' \
	"$md/modules.dep" >"$W/modules.dep"
t "modules.dep: ramoops needs reed_solomon only" \
	grep -qx 'kernel/fs/pstore/ramoops.ko: kernel/lib/reed_solomon/reed_solomon.ko' "$W/modules.dep"
if ! sh initramfs-hook/mkinitramfs.sh -o "$W/pstore.cpio.gz" \
	-f "$ko:/lib/crashmod.ko" -f tests/e2e/crashmod/pstore-init:/init \
	-f "$md/kernel/fs/pstore/ramoops.ko:/lib/modules/$KV/kernel/fs/pstore/ramoops.ko" \
	-f "$md/kernel/lib/reed_solomon/reed_solomon.ko:/lib/modules/$KV/kernel/lib/reed_solomon/reed_solomon.ko" \
	-f "$W/modules.dep:/lib/modules/$KV/modules.dep"; then
	nok "mkinitramfs.sh builds the pstore initramfs"
	finish
fi

# shellcheck disable=SC2016 # memmap='s $ is the kernel's, not the shell's
compile_for_qemu tests/e2e/crashmod/pstore.bconf ftrace_dump_on_oops panic=1 'memmap=0x100000$0x1f000000' \
	ramoops.mem_address=0x1f000000 ramoops.mem_size=0x100000 ramoops.record_size=0x80000 \
	boottrace.snapshot=console console=ttyS0

# The two boots, one QEMU process: no -no-reboot, so panic=1 resets the
# machine; the second boot's init powers off. One retry when the module
# never ran.
for try in 1 2; do
	t0=$(date +%s%N)
	progress_run -o "$W/qemu.out" -t "$W/serial.log" "booting twice (try $try)" \
		timeout 300 qemu-system-x86_64 -M pc -m 512 -smp 2 -display none \
		-monitor none -serial "file:$W/serial.log" \
		-kernel "$KD/root/boot/vmlinuz-$KV" -initrd "$W/pstore.cpio.gz" \
		-append "rdinit=/sbin/boottrace-init $TRACE"
	rc=$?
	t1=$(date +%s%N)
	echo "# two boots (try $try): $(((t1 - t0) / 1000000)) ms, QEMU exit $rc, serial log $(wc -c <"$W/serial.log") bytes"
	grep -q "pstore-init: insmod crashmod" "$W/serial.log" && break
done
t "boot 1: the hook loaded ramoops" has "$W/serial.log" "pstore-init: no pstore record; ramoops: /sys/module/ramoops"
t "boot 1: the module panicked" has "$W/serial.log" "Kernel panic - not syncing: crashmod: device 0 failed to come up"
t "boot 1: the kernel dumped its trace" has "$W/serial.log" "Dumping ftrace buffer:"
t "boot 2: the kernel started again (warm reset)" [ "$(grep -c "^\[ *0.000000\] Linux version" "$W/serial.log")" = 2 ]
t "boot 2: the init found the record and powered off" has "$W/serial.log" "pstore-init: records: /sys/fs/pstore/dmesg-ramoops-0"
t "QEMU stopped by the power-off, not the timeout" [ "$rc" = 0 ]
# the times of each boot, from the serial log's printk stamps
awk '/^\[ *0.000000\] Linux version/ { b++ } { t = $0; sub(/^\[ */, "", t); sub(/\].*/, "", t) }
	/Kernel panic - not syncing/ && b == 1 { print "# boot 1 panicked at " t " s" }
	/reboot: Power down/ && b == 2 { print "# boot 2 powered off at " t " s" }' "$W/serial.log"

# the snapshot of boot 2, rebuilt from the serial log (the last one)
rm -rf "$W/rebuilt"
# (console-rebuild.sh is a plain check of the framing: a kernel message
# printed into the middle of a long file's line, which report takes out,
# makes it say that file is damaged; the pstore record must come whole)
# shellcheck disable=SC2016 # expanded by that sh
t "the serial log's snapshots rebuild, the pstore record whole" sh -c \
	'sh tests/e2e/hook/console-rebuild.sh "$1" "$2" 2>"$3"; [ -d "$2" ] && ! grep -q "/pstore/" "$3"' \
	sh "$W/serial.log" "$W/rebuilt" "$W/rebuild.err"
sed 's/^/# /' "$W/rebuild.err"
S=
for d in "$W"/rebuilt/*/pstore; do [ -d "$d" ] && S=${d%/pstore}; done
R=$S/pstore/dmesg-ramoops-0
t "boot 2's snapshot holds the record pstore/dmesg-ramoops-0" [ -s "$R" ]
if [ -s "$R" ]; then
	cp "$R" "$W/dmesg-ramoops-0"
	echo "# record: $(wc -c <"$R") bytes, $(wc -l <"$R") lines, first: $(head -n 1 "$R")"
	echo "# record's dump lines: $(grep -c '^<[0-9]*>\[ *[0-9.]*\] ' "$R")"
	# shellcheck disable=SC2016 # expanded by that sh
	t "the record starts with its pstore header" sh -c 'head -n 1 "$1" | grep -qx "Panic#1 Part1"' sh "$R"
	t "the record holds the panic" has "$R" "Kernel panic - not syncing: crashmod: device 0 failed to come up"
fi

report() { # NAME INPUT: text and JSON reports, shown in the note
	"$bt" report "$2" >"$W/$1.txt" 2>&1
	"$bt" report -f json "$2" >"$W/$1.json" 2>/dev/null
	sed 's/^/# /' "$W/$1.txt" | head -n 40
}
if [ -s "$R" ]; then
	report record "$R"
	t "record: report says it is a previous boot's panic" has "$W/record.txt" "a PREVIOUS boot's log kept by pstore: Panic#1 Part1"
	t "record: report names the panic" has "$W/record.txt" "panic: crashmod: device 0 failed to come up"
	t "record: the initcall that never finished is crashmod_init" \
		has "$W/record.txt" "the initcall that never finished: crashmod_init (module crashmod)"
	t "record: crashmod_probe_device among the last events" \
		jqt '[.dump.cpus[].last[] | select(test("crashmod_probe_device:"))] | length == 1' "$W/record.json"
	t "record: JSON says pstore, Panic, part 1" \
		jqt '.pstore.reason == "Panic" and .pstore.part == 1 and .pstore.previous_boot == true' "$W/record.json"
	report snapshot "$S"
	t "snapshot: report names the previous boot's record" has "$W/snapshot.txt" "pstore/dmesg-ramoops-0"
	t "snapshot: the previous boot's panic" has "$W/snapshot.txt" "panic: crashmod: device 0 failed to come up"
	t "snapshot: crashmod_init never finished (previous boot)" \
		has "$W/snapshot.txt" "the initcall that never finished: crashmod_init (module crashmod)"
	t "snapshot: JSON: crashmod_probe_device among the previous boot's last events" \
		jqt '[.pstore.dump.cpus[].last[] | select(test("crashmod_probe_device:"))] | length == 1' "$W/snapshot.json"
	# the serial log itself: its last console snapshot (boot 2's) and the
	# record in it (boot 1's dump is on the console too, said after it)
	"$bt" report "$W/serial.log" >"$W/serial.txt" 2>&1
	t "serial log: report answers from boot 2's snapshot's record" \
		has "$W/serial.txt" "PREVIOUS BOOT's crash, from pstore/dmesg-ramoops-0 (Panic#1 Part1"
fi
finish
