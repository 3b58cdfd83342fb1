#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace report on a pstore record (a previous boot's log tail that
# ramoops kept at a panic) and on a snapshot directory holding pstore/
# records (issue 18 part 4): real records of tests/e2e/pstore.sh
# (tests/data/traces/README.md, "pstore records") and hand-made variants.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	T="$BATS_TEST_TMPDIR"
	R="$D/qemu-6.1-pstore-panic.dmesg-ramoops-0"
}

@test "record: a previous boot's panic, its dump read as for a console log" {
	run "$BT" report "$R"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(pstore)"* ]]
	[[ "$output" == *"pstore: qemu-6.1-pstore-panic.dmesg-ramoops-0: a PREVIOUS boot's log kept by pstore: Panic#1 Part1 (Panic, the newest part of that boot's log tail), 453 lines, printk times 0.000000 to 33.133905 s"* ]]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
	[[ "$output" == *"the initcall that never finished: crashmod_init (module crashmod)"* ]]
	[[ "$output" == *"crashmod_probe_device: (crashmod_probe_device+0x0/0x26 [crashmod])"* ]]
	[[ "$output" != *"MISSING"* ]]
}

@test "record: JSON has the pstore member and the dump" {
	run "$BT" report -f json "$R"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.input.kind == "pstore" and .pstore.previous_boot == true and .pstore.reason == "Panic" and .pstore.count == 1 and .pstore.part == 1 and .pstore.log_lines == 453 and .pstore.raw_header == false'
	echo "$output" | jq -e '.dump.start_cut == false and .dump.unfinished_initcalls[0].func == "crashmod_init" and ([.dump.cpus[].last[] | select(test("crashmod_probe_device:"))] | length == 1)'
}

@test "record: the <N> prefixes are off, the trace answers as a snapshot" {
	run "$BT" report --function panic "$R"
	[ "$status" -eq 0 ]
	[[ "$output" == *"panic: 1 hit"* ]]
	[[ "$output" != *"<0>"* ]]
}

@test "record with its start cut: said missing, the panic message not guessed" {
	gzip -dc "$D/qemu-6.1-pstore-tracing-stopped.dmesg-ramoops-0.gz" >"$T/dmesg-ramoops-0"
	run "$BT" report "$T/dmesg-ramoops-0"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Panic#1 Part1"* ]]
	[[ "$output" == *"MISSING: the dump's start: the log kept begins inside it"* ]]
	[[ "$output" == *"panic: its message came before the dump and was lost with the dump's start"* ]]
	[[ "$output" == *"initcalls: none started and unfinished in what was kept; the dump's start is lost"* ]]
	[[ "$output" != *"panic: crashmod"* ]]
	run "$BT" report -f json "$T/dmesg-ramoops-0"
	echo "$output" | jq -e '.dump.start_cut == true and .dump.panic == null and .dump.interleaved == 0'
}

@test "record in ramoops' raw layout: the ====SECONDS.USECONDS line is read" {
	{ printf '====1764130000.123456-D\n'; cat "$R"; } >"$T/raw"
	run "$BT" report "$T/raw"
	[ "$status" -eq 0 ]
	[[ "$output" == *"stored at 1764130000.123456 (ramoops' header)"* ]]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
}

@test "record still compressed (-C): refused, saying where to read it" {
	printf '====1764130000.123456-C\nPanic#1 Part1\n<0>[    1.0] x\n' >"$T/rawc"
	run "$BT" report "$T/rawc"
	[ "$status" -ne 0 ]
	[[ "$output" == *"rawc: error: line 1: \"-C\": the record is still compressed"* ]]
}

@test "record without a dump: said, not an error" {
	printf 'Oops#2 Part1\n<4>[    5.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000\n' >"$T/oops"
	run "$BT" report "$T/oops"
	[ "$status" -eq 0 ]
	[[ "$output" == *"a PREVIOUS boot's log kept by pstore: Oops#2 Part1"* ]]
	[[ "$output" == *"no ftrace dump in the record"* ]]
}

@test "record on standard input" {
	run sh -c "cat '$R' | '$BT' report -"
	[ "$status" -eq 0 ]
	[[ "$output" == *"a PREVIOUS boot's log kept by pstore: Panic#1 Part1"* ]]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
}

@test "snapshot with pstore/: the records listed, the previous boot's crash apart from this boot's trace" {
	mkdir -p "$T/snap/pstore"
	cp "$D/debian-6.1-amd64-stack.trace" "$T/snap/trace"
	cp "$R" "$T/snap/pstore/dmesg-ramoops-0"
	gzip -dc "$D/qemu-6.1-pstore-tracing-stopped.dmesg-ramoops-0.gz" |
		sed '1s/Panic#1/Panic#0/' >"$T/snap/pstore/dmesg-ramoops-1"
	printf 'console text\n' >"$T/snap/pstore/console-ramoops-0"
	run "$BT" report "$T/snap"
	[ "$status" -eq 0 ]
	[[ "$output" == *"pstore: 3 records from previous boots in pstore/:"* ]]
	[[ "$output" == *"pstore/console-ramoops-0: 13 bytes, not a kernel log record"* ]]
	[[ "$output" == *"pstore/dmesg-ramoops-0: Panic#1 Part1, 31637 bytes, a trace dump"* ]]
	[[ "$output" == *"pstore/dmesg-ramoops-1: Panic#0 Part1, 161404 bytes, a trace dump (its start lost)"* ]]
	[[ "$output" == *"PREVIOUS BOOT's crash, from pstore/dmesg-ramoops-0 (Panic#1 Part1; not this boot's trace, which follows it):"* ]]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
	[[ "$output" == *"THIS BOOT:"* ]]
	run "$BT" report -f json "$T/snap"
	echo "$output" | jq -e '.input.kind == "snapshot" and .pstore.record == "dmesg-ramoops-0" and (.pstore.records | length == 3) and .pstore.dump.panic == "crashmod: device 0 failed to come up" and .dump == null'
}

@test "snapshot without pstore/: no pstore member" {
	mkdir -p "$T/snap"
	cp "$D/debian-6.1-amd64-stack.trace" "$T/snap/trace"
	run "$BT" report -f json "$T/snap"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.pstore == null'
}

# the hook's console framing (initramfs-hook/README.md) of FILE as REL
frame() {
	printf -- '--- boottrace file %s size=%s lines=%s eol=1 enc=text md5=%s ---\n' "$1" \
		"$(wc -c <"$2")" "$(wc -l <"$2")" "$(md5sum <"$2" | cut -d' ' -f1)"
	sed 's/^/|/' "$2"
	printf -- '--- boottrace end %s ---\n' "$1"
}

@test "console log whose snapshot holds pstore/ records: read as a snapshot directory's" {
	{
		echo "[    5.000000] some kernel line"
		echo "=== boottrace snapshot begin 0123-abcd ==="
		frame trace "$D/debian-6.1-amd64-stack.trace"
		frame pstore/dmesg-ramoops-0 "$R"
		echo "=== boottrace snapshot end 0123-abcd files=2 ==="
	} >"$T/serial.log"
	run "$BT" report "$T/serial.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(console 0123-abcd"* ]]
	[[ "$output" == *"pstore/dmesg-ramoops-0: Panic#1 Part1, 31637 bytes, a trace dump"* ]]
	[[ "$output" == *"PREVIOUS BOOT's crash, from pstore/dmesg-ramoops-0"* ]]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
	run "$BT" report -f json "$T/serial.log"
	echo "$output" | jq -e '.input.kind == "console" and .pstore.record == "dmesg-ramoops-0" and .pstore.dump.unfinished_initcalls[0].func == "crashmod_init"'
}
