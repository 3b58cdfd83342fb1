#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux 6.12's persistent ring buffer (issue 18, docs/kernel-facts.md
# 50-55), host side: the hook on a tracefs laid out as 6.12 lays out a
# persistent instance (previous/NAME/, the instance emptied and left on),
# collect (the instance left on, previous_boot in record.json) and report
# (the previous boot's section, its raw pointers named through the text
# delta, this boot's _text and a System.map).

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	ROOT="$BATS_TEST_DIRNAME/../.."
	T="$BATS_TEST_TMPDIR"
	ID=$(cat /proc/sys/kernel/random/boot_id)
	TFS="$T/tracefs"
	RUN="$T/run"
	# the hook with a dmesg of our own: its own bin/ comes first in PATH
	mkdir -p "$T/hook/bin" "$TFS/instances/boottrace/per_cpu/cpu0" "$TFS/instances/other"
	cp "$ROOT/initramfs-hook/boottrace-snapshot.sh" "$T/hook/"
	echo boottrace >"$T/cmdline"
	: >"$T/bootconfig"
	: >"$T/empty.conf"
	echo "# tracer: nop" >"$TFS/trace"
	echo 1 >"$TFS/tracing_on"
	echo nop >"$TFS/current_tracer"
	printf 'text delta:\t-411041792\ndata delta:\t-411041792\n' >"$TFS/instances/boottrace/last_boot_info"
	cp "$ROOT/tests/cli/persistent/trace" "$TFS/instances/boottrace/trace"
	echo 1 >"$TFS/instances/boottrace/tracing_on"
	printf 'entries: 8\noverrun: 0\n' >"$TFS/instances/boottrace/per_cpu/cpu0/stats"
	echo "# tracer: nop" >"$TFS/instances/other/trace"
	echo 1 >"$TFS/instances/other/tracing_on"
}

dmesg_says() { # the kernel log the hook's dmesg prints
	printf '#!/bin/sh\ncat <<"EOF"\n%s\nEOF\n' "$1" >"$T/hook/bin/dmesg"
	chmod +x "$T/hook/bin/dmesg"
}

hook() {
	run env BOOTTRACE_TRACEFS="$TFS" BOOTTRACE_RUN="$RUN" BOOTTRACE_CMDLINE="$T/cmdline" \
		BOOTTRACE_BOOTCONFIG="$T/bootconfig" BOOTTRACE_CONF="$T/none.conf" \
		sh "$T/hook/boottrace-snapshot.sh" snapshot test
	S="$RUN/$ID"
}

@test "hook: a previous boot's instance goes to previous/NAME/, then emptied and left on" {
	dmesg_says '[    0.368389] Tracing: mapped boot instance boottrace at physical memory 0x000000003ea00000 of size 0x200000
[    0.375425] Ring buffer meta [0] is from previous boot!
[    1.052296] Ring buffer meta [1] is from previous boot!'
	hook
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	cmp "$ROOT/tests/cli/persistent/trace" "$S/previous/boottrace/trace"
	grep -q 'text delta:	-411041792' "$S/previous/boottrace/last_boot_info"
	grep -qx 'previous_boot=boottrace' "$S/meta"
	grep -qx 'previous_boot_cpus=2' "$S/meta"
	grep -qx 'persistent=boottrace emptied and on' "$S/meta"
	# not also taken for this boot's instance
	[ ! -e "$S/instances/boottrace" ]
	[ -e "$S/instances/other/trace" ]
	# emptied and on again (stop=1 stopped it for the copy); the other stays off
	[ ! -s "$TFS/instances/boottrace/trace" ]
	[ "$(cat "$TFS/instances/boottrace/tracing_on")" = 1 ]
	[ "$(cat "$TFS/instances/other/tracing_on")" = 0 ]
	grep -q '^errors=0$' "$S/meta"
}

@test "hook: a cold boot's instance is this boot's (instances/NAME/), with a note" {
	dmesg_says '[    0.377167] Ring buffer boot meta[0] mismatch of magic or struct size
[    0.377501] Ring buffer boot meta[1] mismatch of magic or struct size'
	hook
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ ! -e "$S/previous" ]
	cmp "$ROOT/tests/cli/persistent/trace" "$S/instances/boottrace/trace"
	grep -q '^previous_boot_none=boottrace: the kernel found no previous boot.s data (2 CPU buffers without it' "$S/meta"
	[ ! -s "$TFS/instances/boottrace/trace" ]
	[ "$(cat "$TFS/instances/boottrace/tracing_on")" = 1 ]
	grep -q '^errors=0$' "$S/meta"
}

@test "hook: a region that could not be mapped, or a previous boot's invalid buffer, is said" {
	dmesg_says '[    0.300000] Tracing: Failed to map boot instance boottrace'
	hook
	[ "$status" -eq 0 ]
	grep -q '^error=persistent ring buffer: the kernel could not map a boot instance (dmesg: \[    0.300000\] Tracing: Failed to map boot instance boottrace).*check reserve_mem=' "$S/meta"
	rm -rf "$RUN"
	cp "$ROOT/tests/cli/persistent/trace" "$TFS/instances/boottrace/trace"
	dmesg_says '[    0.375425] Ring buffer meta [0] is from previous boot!
[    0.375500] Ring buffer meta [1] buffer invalid commit'
	hook
	[ "$status" -eq 0 ]
	grep -q '^warning=persistent instance boottrace: 1 CPU buffers of the previous boot were invalid (dmesg: Ring buffer meta \[1\] buffer invalid commit): their events are lost' "$S/meta"
	[ -s "$S/previous/boottrace/trace" ]
}

@test "hook: a buffer refused for any reason is counted; a log without the ring buffer's lines is said, and the copy goes to previous/" {
	dmesg_says '[    0.375425] Ring buffer meta [0] is from previous boot!
[    0.375500] Ring buffer boot meta [1] head buffer out of range'
	hook
	[ "$status" -eq 0 ]
	grep -q '^warning=persistent instance boottrace: 1 CPU buffers of the previous boot were invalid (dmesg: Ring buffer boot meta \[1\] head buffer out of range)' "$S/meta"
	# the kernel's lines lost (the log wrapped before the hook): not taken
	# as a cold boot's instance; report splits the boots by their times
	rm -rf "$RUN"
	cp "$ROOT/tests/cli/persistent/trace" "$TFS/instances/boottrace/trace"
	dmesg_says '[  900.000000] eth0: link up'
	hook
	[ "$status" -eq 0 ]
	grep -q "^warning=persistent instance boottrace: the kernel's log has no 'Ring buffer meta' line (it wrapped before the hook, or dmesg is not readable), so whether the instance holds a previous boot's events is not known: copied to previous/boottrace/" "$S/meta"
	cmp "$ROOT/tests/cli/persistent/trace" "$S/previous/boottrace/trace"
	grep -qx 'previous_boot=boottrace' "$S/meta"
	grep -qx 'previous_boot_cpus=unknown' "$S/meta"
	! grep -q '^previous_boot_none' "$S/meta"
}

# a snapshot as the hook leaves it after a dead boot (above)
prev_snapshot() {
	S="$T/snap/$ID"
	mkdir -p "$S/previous/boottrace"
	cp "$ROOT/tests/cli/persistent/trace" "$S/previous/boottrace/trace"
	printf 'text delta:\t-411041792\ndata delta:\t-411041792\n' >"$S/previous/boottrace/last_boot_info"
	echo "ffffffffa0e00000 T _text" >"$S/previous/boottrace/text"
	printf '# tracer: nop\n#\n        swapper/0-1       [000] .....     4.000000: initcall_level: level=late\n' >"$S/trace"
	printf 'format=1\nboot_id=%s\npoint=test\nprevious_boot=boottrace\nstopped=1\nfollow=1\nresumed=1\nerrors=0\nwarnings=0\n' "$ID" >"$S/meta"
	echo "errors=0 warnings=0" >"$S/COMPLETE"
}

# The live buffer of a boot that asked to follow (follow=1): the snapshot's
# event and one after it, so the record's live window is not empty (an
# empty one fails collect, record_empty in record_collect.c).
live_after() {
	{ cat "$S/trace"
	  printf '        swapper/0-1       [000] .....     5.000000: initcall_level: level=late\n'; } >"$TFS/trace"
}

@test "report: the previous boot's last events per CPU, named with KASLR moved, and the initcall that never finished" {
	prev_snapshot
	run "$BT" report --system-map "$ROOT/tests/cli/persistent/System.map" "$S"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"Previous boot (persistent instance boottrace, copied by this boot's hook):"* ]]
	[[ "$output" == *"the kernel moved by -411041792 bytes since"* ]]
	[[ "$output" == *"CPU 0: 4 events of the previous boot, the last at 1.060982 s (then this boot's from 0.402274 s)"* ]]
	[[ "$output" == *"initcall_finish: func=con_init+0x0 ret=0"* ]]
	[[ "$output" == *"initcall that started and never finished"*"func=hang_init+0x0"* ]]
	[[ "$output" != *"func=0xffffffffb9"* ]]
	# the same in -f json
	"$BT" report -f json --system-map "$ROOT/tests/cli/persistent/System.map" "$S" >"$T/r.json"
	jq -e '.previous_boot.instance == "boottrace" and .previous_boot.text_delta == -411041792' "$T/r.json"
	jq -e '.previous_boot.cpus[] | select(.cpu == 0) | .events == 4 and .last == 1.060982 and .this_boot_from == 0.402274 and (.last_events | length) == 4' "$T/r.json"
	jq -e '.previous_boot.cpus[] | select(.cpu == 2) | .ambiguous and .events == 0' "$T/r.json"
	jq -e '.previous_boot.initcalls == "unfinished" and (.previous_boot.unfinished[0] | test("func=hang_init\\+0x0$")) and .previous_boot.pointers == "named"' "$T/r.json"
	# without a symbol table: raw, and said so
	run "$BT" report "$S"
	[ "$status" -eq 0 ]
	[[ "$output" == *"func=0xffffffffb9955790"* ]]
	[[ "$output" == *"pointers left raw"* ]]
}

@test "collect: the persistent instance stays on, previous/ is in the record, record.json names it" {
	prev_snapshot
	live_after
	cp -r "$T/snap" "$RUN"
	run "$BT" collect --run "$RUN" --state "$T/state" --tracefs "$TFS" --config "$T/empty.conf"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	R="$T/state/$ID"
	cmp "$ROOT/tests/cli/persistent/trace" "$R/previous/boottrace/trace"
	[ "$(cat "$TFS/instances/boottrace/tracing_on")" = 1 ]
	[ "$(cat "$TFS/instances/other/tracing_on")" = 0 ]
	jq -e '.previous_boot == {"instance": "boottrace", "dir": "previous/boottrace", "text_delta": -411041792, "this_boot_text": "ffffffffa0e00000"}' "$R/record.json"
	# and report reads the record as it reads the snapshot
	run "$BT" report --system-map "$ROOT/tests/cli/persistent/System.map" "$R"
	[[ "$output" == *"func=hang_init+0x0"* ]]
}

@test "collect: no previous boot, previous_boot is null" {
	prev_snapshot
	rm -rf "$T/snap/$ID/previous"
	sed -i '/^previous_boot=/d' "$T/snap/$ID/meta"
	live_after
	cp -r "$T/snap" "$RUN"
	run "$BT" collect --run "$RUN" --state "$T/state" --tracefs "$TFS" --config "$T/empty.conf"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	jq -e 'has("previous_boot") and .previous_boot == null' "$T/state/$ID/record.json"
	"$BT" report -f json "$T/state/$ID" >"$T/r.json"
	jq -e 'has("previous_boot") and .previous_boot == null' "$T/r.json"
}

@test "report -f html: the previous boot in a banner and its own section, the text report's words escaped" {
	prev_snapshot
	run "$BT" report -f html --system-map "$ROOT/tests/cli/persistent/System.map" "$S"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"<b>A previous boot's trace</b> was kept in the persistent instance boottrace"* ]]
	[[ "$output" == *'<section id="previous-boot">'*"initcall that started and never finished"*"func=hang_init+0x0"* ]]
}
