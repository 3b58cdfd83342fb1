#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace report on messy serial logs and on every trace format it reads
# or refuses (issue 15 classes 5 and 6). The console logs are built from
# tests/data/traces/qemu-6.1-console-nographic.log, a real capture of a
# QEMU -nographic boot (SeaBIOS escape codes, CR/LF) with the hook's
# console snapshot; tests/data/traces/README.md says how it was made.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	T="$BATS_TEST_TMPDIR"
	LOG="$D/qemu-6.1-console-nographic.log"
	GOOD="culprit: bonding_init -> bond_create -> register_netdevice"
	LO="culprit: net_dev_init -> register_pernet_device -> register_pernet_operations -> ops_init -> loopback_net_init -> register_netdev -> register_netdevice"
}

whole() { # the answers of a report that must be those of the clean log
	[ "$status" -eq 0 ]
	[[ "$output" == *"$GOOD"* ]]
	[[ "$output" == *"$LO"* ]]
	[[ "$output" != *"DAMAGED"* ]]
	[[ "$output" != *"damaged"* ]]
	[[ "$output" == *"register_netdevice: 2 hits"* ]]
	[[ "$output" != *"register_net["* ]]
}

@test "console: the real -nographic capture (escape codes, CR/LF) is read whole" {
	run "$BT" report "$LOG"
	whole
}

@test "console: begin marker glued to SeaBIOS's escape codes (old writer, no blank line)" {
	# what the hook wrote before: no empty line, so the marker followed the
	# firmware's "\ec\e[?7l\e[2J" on the same line
	awk 'BEGIN { esc = sprintf("%c", 27) }
	     /^\r?$/ && !done { getline nx; if (nx ~ /snapshot begin/) { printf "%sc%s[?7l%s[2J%s\n", esc, esc, esc, nx; done = 1; next } print; print nx; next }
	     { print }' "$LOG" >"$T/glued.log"
	grep -q "$(printf '\033')\[2J=== boottrace snapshot begin" "$T/glued.log"
	run "$BT" report "$T/glued.log"
	whole
}

@test "console: minicom timestamps in front of every line" {
	sed 's/^/[2026-11-25 10:00:00.123] /' "$LOG" >"$T/minicom.log"
	run "$BT" report "$T/minicom.log"
	whole
}

@test "console: grabserial-style uptime stamps in front of every line, LF only" {
	tr -d '\r' <"$LOG" | sed 's/^/[    1.234567] /' >"$T/grab.log"
	run "$BT" report "$T/grab.log"
	whole
}

@test "console: a kernel message printed in the middle of a trace line is taken out" {
	awk '/insmod-120 .*register_netdevice <-bond_create/ && !d {
		sub(/register_netdevice <-bond_create/, "register_net[    5.123456] random: crng init done\r\ndevice <-bond_create"); d = 1 }
	     { print }' "$LOG" >"$T/mid.log"
	grep -q 'register_net\[    5.123456\] random' "$T/mid.log"
	run "$BT" report "$T/mid.log"
	whole
}

@test "console: a lost trace line is named, the answer marked damaged" {
	awk '/^\| => bond_create\r?$/ && !d { d = 1; next } { print }' "$LOG" >"$T/lost.log"
	run "$BT" report "$T/lost.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"part 'trace' has 36 of its 37 lines"* ]]
	[[ "$output" == *"DAMAGED CAPTURE, this answer may be wrong"* ]]
}

@test "console: a garbled trace line fails its md5 and is named" {
	sed 's/^| => bonding_init/| => bondxng_init/' "$LOG" >"$T/garbled.log"
	run "$BT" report "$T/garbled.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"part 'trace' is garbled (md5 "* ]]
	[[ "$output" == *"DAMAGED CAPTURE"* ]]
}

@test "console: a lost file marker is counted against the end marker's files=" {
	awk '/^--- boottrace file tracer size=/ { next } { print }' "$LOG" >"$T/nomark.log"
	run "$BT" report "$T/nomark.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 of the 66 parts the end marker counts are missing"* ]]
}

@test "console: a damaged part that is not the trace is named, the answer kept" {
	awk '/^\|\[    0.000000\] BIOS-e820/ && !d { d = 1; next } { print }' "$LOG" >"$T/dmesg.log"
	run "$BT" report "$T/dmesg.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"part 'dmesg' has 349 of its 350 lines"* ]]
	[[ "$output" == *"the trace itself came through whole"* ]]
	[[ "$output" != *"DAMAGED CAPTURE"* ]]
	[[ "$output" == *"$GOOD"* ]]
}
