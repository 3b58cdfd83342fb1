#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Boots that die (issue 18, the Debian 6.1 proofs): QEMU (TCG) boots of the
# Debian linux-image-6.1.0-*-cloud-amd64 (tests/e2e/kernel.sh) with a
# busybox initramfs (initramfs-hook/mkinitramfs.sh -n: no hook) whose /init
# (tests/e2e/crashmod/init) loads the test module tests/e2e/crashmod,
# built here against Debian's headers for that kernel (crashmod/build.sh).
# The module's init calls crashmod_probe_device() and then panics, or spins
# with preemption off until the soft-lockup detector panics. The kernel
# prints its trace buffer on the serial console (ftrace_dump_on_oops), which
# QEMU writes to a file, and `boottrace report` reads that log:
#   1. panic: names the module init that never finished, crashmod_probe_device
#      among the last events of its CPU, and the panic message;
#   2. hang: the compiled softlockup_panic=1 watchdog_thresh=5 turn the hang
#      into a panic;
#      report names the initcall that never finished and the task on its CPU;
#   3. the panic log cut in the middle of its dump: report says so;
#   4. an oops (a NULL dereference) made a panic by the compiled oops=panic:
#      two dumps, the first read, the second (empty) said.
# The last line is "crash: N passed, N failed". Exit 77 (with a SKIP line)
# only when no boot is possible.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
W=$top/build/e2e-crash
SUITE=crash
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"

if command -v shellcheck >/dev/null 2>&1; then
	t "shellcheck -s sh: this script, the module's build and init" shellcheck -x -s sh \
		tests/e2e/crash.sh tests/e2e/crashmod/build.sh tests/e2e/crashmod/init
else
	nok "shellcheck is not installed (make deps)"
fi
crashmod_kernel
if ! sh initramfs-hook/mkinitramfs.sh -n -o "$W/crash.cpio.gz" \
	-f "$ko:/lib/crashmod.ko" -f tests/e2e/crashmod/init:/init; then
	nok "mkinitramfs.sh builds the crash initramfs"
	finish
fi

# What makes a crash leave its trace on the console, compiled from
# tests/e2e/crashmod/crash.bconf (boottrace.crash = console, hang = panic,
# docs/crash.md) for this kernel's .config and the QEMU board: the dump on
# an oops or panic, a small buffer (the dump prints it at serial speed),
# initcall and module events, the functions around a module's init with
# their stacks, a kprobe on the module's function, and the words that turn
# a soft lockup into a panic.
compile_for_qemu tests/e2e/crashmod/crash.bconf ftrace_dump_on_oops console=ttyS0 panic=-1 \
	softlockup_panic=1 watchdog_thresh=5

# crash NAME CMDLINE: boot until the panic (panic=-1 from crash_reboot = -1,
# and -no-reboot: QEMU exits), the serial log in $W/NAME.log; one retry
# when the module never ran
crash() {
	for try in 1 2; do
		t0=$(date +%s%N)
		progress_run -o "$W/$1.qemu" -t "$W/$1.log" "booting $1 (try $try)" \
			timeout 120 qemu-system-x86_64 -M pc -m 512 -smp 2 -display none \
			-monitor none -serial "file:$W/$1.log" -no-reboot \
			-kernel "$KD/root/boot/vmlinuz-$KV" -initrd "$W/crash.cpio.gz" \
			-append "$2"
		t1=$(date +%s%N)
		echo "# boot $1 (try $try): $(((t1 - t0) / 1000000)) ms, serial log $(wc -c <"$W/$1.log") bytes; cmdline: $2"
		grep -q "crash-init: insmod" "$W/$1.log" && return 0
	done
	return 1
}

# shellcheck disable=SC2317 # run through t
not_at_dump() { ! grep -q "at the dump" "$1"; }

report() { # NAME: the text and JSON reports of $W/NAME.log, shown in the note
	"$bt" report "$W/$1.log" >"$W/$1.txt" 2>&1
	"$bt" report -f json "$W/$1.log" >"$W/$1.json" 2>/dev/null
	sed -n '/^crash:/,/^$/p' "$W/$1.txt" | sed 's/^/# /'
}

# 1. panic in the module's init
if crash panic "$TRACE crashmod.mode=panic"; then
	ok "panic: the module ran"
	t "panic: the kernel dumped its trace buffer" has "$W/panic.log" "Dumping ftrace buffer:"
	report panic
	t "panic: report names the panic" has "$W/panic.txt" "panic: crashmod: device 0 failed to come up"
	t "panic: report names the module init that never finished" \
		has "$W/panic.txt" "the initcall that never finished: crashmod_init (module crashmod)"
	t "panic: crashmod_probe_device among the last events of its CPU" \
		jqt '[.dump.cpus[].last[] | select(test("crashmod_probe_device:"))] | length == 1' "$W/panic.json"
	t "panic: the call trace has crashmod_init" \
		jqt '.dump.call_trace | index("crashmod_init [crashmod]") != null' "$W/panic.json"
	# shellcheck disable=SC2016 # jq's variables
	t "panic: the dump's trace answers as a snapshot (crashmod_probe_device by the oops' PID)" \
		jqt '(.dump.task | capture("PID: (?<p>[0-9]+)").p | tonumber) as $p | .functions[] | select(.name == "crashmod_probe_device") | .tasks[0].pid == $p' "$W/panic.json"
	# 3. the same log cut in the middle of its dump
	d=$(grep -n "Dumping ftrace buffer:" "$W/panic.log" | cut -d: -f1)
	n=$(wc -l <"$W/panic.log")
	head -n "$((d + (n - d) / 2))" "$W/panic.log" >"$W/cut.log"
	report cut
	t "truncated: report says the dump is truncated" has "$W/cut.txt" "MISSING: the dump is truncated"
	t "truncated: JSON says so" jqt '.dump.truncated == true' "$W/cut.json"
	t "truncated: no task is claimed to be at the dump" not_at_dump "$W/cut.txt"
else
	nok "panic: the module ran (see $W/panic.log)"
fi

# 2. a hang made a panic by the soft-lockup detector
if crash hang "$TRACE crashmod.mode=hang"; then
	ok "hang: the module ran"
	report hang
	# hang_seconds = 10 gives the soft-lockup and the RCU-stall detectors the
	# same 10 s: either may fire first (docs/kernel-facts.md 40)
	t "hang: a detector made the hang a panic (soft lockup or RCU stall)" \
		grep -qE "^  panic: (softlockup: hung tasks|RCU Stall)$" "$W/hang.txt"
	t "hang: report names the initcall that never finished" \
		has "$W/hang.txt" "the initcall that never finished: crashmod_init (module crashmod)"
	t "hang: the spinning function is the RIP" has "$W/hang.txt" "at: crashmod_spin+"
	# shellcheck disable=SC2016 # jq's variables
	t "hang: the task on the spinning CPU is insmod" \
		jqt '.dump.unfinished_initcalls[0].cpu as $c | .dump.cpus[] | select(.cpu == $c) | .task | startswith("insmod-")' "$W/hang.json"
else
	nok "hang: the module ran (see $W/hang.log)"
fi
# 4. an oops, made a panic by the compiled oops=panic: two dumps, the second empty
if crash oops "$TRACE crashmod.mode=oops"; then
	ok "oops: the module ran"
	report oops
	t "oops: report names the oops" has "$W/oops.txt" "oops: BUG: kernel NULL pointer dereference"
	t "oops: the faulting function is the RIP" has "$W/oops.txt" "at: crashmod_init+"
	t "oops: oops=panic made it a panic" has "$W/oops.txt" "panic: Fatal exception"
	t "oops: the first dump is read, the empty second one said" \
		jqt '.dump.dumps == 2 and .dump.later_empty == 1 and .dump.unfinished_initcalls[0].func == "crashmod_init"' "$W/oops.json"
else
	nok "oops: the module ran (see $W/oops.log)"
fi
finish
