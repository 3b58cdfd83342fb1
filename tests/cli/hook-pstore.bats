#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The hook and pstore (boottrace.crash = pstore, docs/crash.md): it loads
# ramoops with the line's ramoops.* words, first thing, and copies the
# previous boots' pstore records into the snapshot. Run against a tracefs,
# a pstore directory and a modprobe of the test's own.

bats_require_minimum_version 1.5.0

setup() {
	ROOT="$BATS_TEST_DIRNAME/../.."
	T="$BATS_TEST_TMPDIR"
	ID=$(cat /proc/sys/kernel/random/boot_id)
	RUN="$T/run"
	SNAP="$RUN/$ID"
	TFS="$T/tracefs"
	PS="$T/pstore"
	mkdir -p "$TFS/per_cpu/cpu0" "$PS" "$T/bin"
	printf '# tracer: nop\n' >"$TFS/trace"
	echo 1 >"$TFS/tracing_on"
	echo nop >"$TFS/current_tracer"
	echo "[local] global" >"$TFS/trace_clock"
	printf 'entries: 0\noverrun: 0\n' >"$TFS/per_cpu/cpu0/stats"
	# a modprobe that says what it was given
	printf '#!/bin/sh\necho "$@" >>%s/modprobe.args\nexit ${FAKE_MODPROBE_RC:-0}\n' "$T" >"$T/bin/modprobe"
	chmod +x "$T/bin/modprobe"
}

hook() { # CMDLINE
	rm -rf "$RUN"
	printf '%s\n' "$1" >"$T/cmdline"
	BOOTTRACE_MODPROBE="$T/bin/modprobe" BOOTTRACE_TRACEFS="$TFS" BOOTTRACE_PSTORE="$PS" BOOTTRACE_KMSG="$T/kmsg" \
		BOOTTRACE_RUN="$RUN" BOOTTRACE_CMDLINE="$T/cmdline" BOOTTRACE_BOOTCONFIG="$T/none" \
		BOOTTRACE_CONF="$T/none" sh "$ROOT/initramfs-hook/boottrace-snapshot.sh" all test
}

@test "the line's ramoops.* words load ramoops, before the snapshot" {
	run hook "root=/dev/vda ftrace_dump_on_oops ramoops.mem_address=0x1f000000 ramoops.mem_size=0x100000 ramoops.record_size=0x80000 boottrace.enable=1"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(cat "$T/modprobe.args")" = "ramoops mem_address=0x1f000000 mem_size=0x100000 record_size=0x80000" ]
	grep -q 'pstore=ramoops loaded: mem_address=0x1f000000 mem_size=0x100000 record_size=0x80000' "$SNAP/meta"
}

@test "no ramoops words: ramoops is not loaded" {
	run hook "root=/dev/vda boottrace.enable=1"
	[ "$status" -eq 0 ]
	[ ! -e "$T/modprobe.args" ]
}

@test "a failed load is a warning in meta and the kernel log, and the boot goes on" {
	FAKE_MODPROBE_RC=1 run hook "ramoops.mem_address=0x1f000000 ramoops.mem_size=0x100000 boottrace.enable=1"
	[ "$status" -eq 0 ]
	[ "$(cat "$T/modprobe.args")" = "ramoops mem_address=0x1f000000 mem_size=0x100000" ]
	grep -q '^warning=pstore: modprobe ramoops mem_address=0x1f000000 mem_size=0x100000 failed' "$SNAP/meta"
	grep -q 'a crash of this boot is not kept' "$T/kmsg"
	[ -e "$SNAP/COMPLETE" ]
}

@test "the previous boots' pstore records are copied whole into pstore/" {
	printf 'Panic#1 Part1\n<6>[    1.000000] Dumping ftrace buffer:\n' >"$PS/dmesg-ramoops-0"
	head -c 300000 /dev/zero | tr '\0' 'x' >"$PS/console-ramoops-0"
	run hook "boottrace.enable=1"
	[ "$status" -eq 0 ]
	cmp "$PS/dmesg-ramoops-0" "$SNAP/pstore/dmesg-ramoops-0"
	cmp "$PS/console-ramoops-0" "$SNAP/pstore/console-ramoops-0"
	grep -q 'pstore_record=dmesg-ramoops-0' "$SNAP/meta"
	# read, never removed: the kernel keeps them for whoever archives them
	[ -e "$PS/dmesg-ramoops-0" ]
}

@test "an empty pstore adds nothing" {
	run hook "boottrace.enable=1"
	[ "$status" -eq 0 ]
	[ ! -e "$SNAP/pstore" ]
	! grep -q pstore_record "$SNAP/meta"
}
