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
	GOOD="culprit: [unverified bonding_init] -> bond_create -> register_netdevice"
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

# ---- formats (class 6): samples captured in QEMU (tests/data/traces/README.md)

@test "function_graph: calls, callers from the nesting, durations (a task moving CPUs mid-call)" {
	run "$BT" report "$D/qemu-6.1-amd64-function-graph.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"trace: tracer function_graph, 88 entries in 92 lines"* ]]
	[[ "$output" != *"empty"* ]]
	[[ "$output" != *"skipped"* ]]
	echo "$output" | grep -qx "  culprit: register_netdevice -> bond_init -> alloc_workqueue"
	echo "$output" | grep -qx "  culprit: register_netdevice -> netdev_register_kobject -> device_add"
	# the return printed on CPU 0 of a call made on CPU 1: "} /* alloc_workqueue */"
	echo "$output" | grep -A1 '^alloc_workqueue: 1 hit' | grep -qx "  time in it: 1 call timed, 2736.053 us in all, longest 2736.053 us"
	echo "$output" | grep -A1 '^register_netdevice: 1 hit' | grep -qx "  time in it: 1 call timed, 31139.920 us in all, longest 31139.920 us"
	"$BT" report -f json "$D/qemu-6.1-amd64-function-graph.trace" >"$T/g.json"
	python3 - "$T/g.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
f = {x['name']: x for x in j['functions']}
assert f['register_netdevice']['call_time_ns'] == {'calls': 1, 'total': 31139920, 'max': 31139920}, f['register_netdevice']
assert f['kstrdup_const']['culprits'][0]['chain'] == ['register_netdevice', 'netdev_register_kobject', 'kstrdup_const']
assert j['trace']['tracer'] == 'function_graph'
PY
}

@test "syscall events: sys_X(args) and sys_X -> ret are enter and exit events, not functions" {
	run "$BT" report "$D/qemu-6.1-amd64-syscalls.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"sys_enter_finit_module (event): 2 hits"* ]]
	[[ "$output" == *"sys_exit_finit_module (event): 2 hits"* ]]
	[[ "$output" == *"sys_enter_openat (event): 5 hits"* ]]
	[[ "$output" == *"sys_exit_openat (event): 5 hits"* ]]
	[[ "$output" != *"sys_openat("* ]]
	[[ "$output" != *"culprit: sys_openat"* ]]
}

@test "trigger-attached stack: the kprobe event's stacktrace trigger is its stack, the tracer's frames left out" {
	run "$BT" report "$D/qemu-6.1-amd64-trigger-stack.trace"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qxF "  culprit: [unverified bonding_init] -> bond_create -> register_netdevice"
	[[ "$output" == *"(stack trace)"* ]]
	! echo "$output" | grep -q "culprit:.*kprobe"
	[[ "$output" != *"orphan"* ]]
}

@test "trace-cmd report text: header lines known, function: lines are function hits" {
	run "$BT" report "$D/qemu-6.1-amd64-trace-cmd.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"trace: tracer (trace-cmd report text), 2 entries in 3 lines, 2 CPUs"* ]]
	[[ "$output" == *"register_netdevice: 1 hit, first 11.246302 s"* ]]
	[[ "$output" == *"sys_enter_finit_module (event): 1 hit"* ]]
	[[ "$output" != *"function (event)"* ]]
	[[ "$output" != *"skipped"* ]]
}

@test "trace-cmd report of function_graph: funcgraph_entry/exit read as a call graph" {
	run "$BT" report "$D/qemu-6.1-amd64-trace-cmd-graph.trace"
	[ "$status" -eq 0 ]
	[[ "$output" != *"funcgraph_entry (event)"* ]]
	echo "$output" | grep -qx "  culprit: register_netdevice -> rtnl_is_locked -> mutex_is_locked"
	echo "$output" | grep -A1 '^mutex_is_locked: 1 hit' | grep -qx "  time in it: 1 call timed, 2.886 us in all, longest 2.886 us"
	echo "$output" | grep -qx "    by insmod-122, phase unknown, 1 hit, at 26.482816 s (call graph)"
}

@test "latency tracer (irqsoff) read: latency layout, its stack attached" {
	run "$BT" report "$D/hand-irqsoff.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"trace: tracer irqsoff, 4 entries"* ]]
	echo "$output" | grep -qxF "  culprit: [unverified bonding_init] -> bond_create -> register_netdevice -> trace_hardirqs_on"
}

@test "osnoise is refused with its name and exit status 1, no advice about an empty trace" {
	run "$BT" report "$D/refused/hand-osnoise.trace"
	[ "$status" -eq 1 ]
	[[ "$output" == *'tracer "osnoise"'* ]]
	[[ "$output" == *"noise samples"* ]]
	[[ "$output" != *"empty"* ]]
	run "$BT" report -f json "$D/refused/hand-osnoise.trace"
	[ "$status" -eq 1 ]
}

@test "a tracer report does not know is refused with its name, from a pipe and in a console log too" {
	printf '# tracer: blk\n#\n   kworker/0:1-12    [000] .....     1.000000:   8,0    Q  WS 2048 + 8 [kworker/0:1]\n' >"$T/blk.trace"
	run "$BT" report "$T/blk.trace"
	[ "$status" -eq 1 ]
	[[ "$output" == *'tracer "blk"'* ]]
	[[ "$output" != *"empty"* ]]
	printf '# tracer: made_up\n#\n' >"$T/u.trace"
	run sh -c "'$BT' report - <'$T/u.trace'"
	[ "$status" -eq 1 ]
	[[ "$output" == *'tracer "made_up"'* ]]
	[[ "$output" != *"empty"* ]]
	# the same refusal for a trace rebuilt from a console log
	awk '/^\|# tracer: function/ { sub(/function/, "timerlat") } { print }' "$LOG" >"$T/tl.log"
	run "$BT" report "$T/tl.log"
	[ "$status" -eq 1 ]
	[[ "$output" == *'tracer "timerlat"'* ]]
}

@test "tracepoint stacktrace trigger: the event's stack without the tracer's frame" {
	run "$BT" report "$D/qemu-6.1-amd64-tracepoint-trigger.trace"
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "  culprit: __do_sys_finit_module -> load_module -> module_load"
	! echo "$output" | grep -q "culprit:.*trace_event_raw_event"
	"$BT" report -f json "$D/qemu-6.1-amd64-tracepoint-trigger.trace" | grep -q '"why": "tracer"'
}

@test "function_graph with funcgraph-abstime and funcgraph-proc: times and tasks of the calls" {
	run "$BT" report "$D/qemu-6.1-amd64-function-graph-abstime-proc.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"trace: tracer function_graph, 19 entries in 23 lines"* ]]
	echo "$output" | grep -qx "  culprit: register_netdevice -> bond_init"
	echo "$output" | grep -A3 '^bond_init: 1 hit, first 11.502497 s' | grep -qx "    by insmod-90, phase unknown, 1 hit, at 11.502497 s (call graph)"
	echo "$output" | grep -A1 '^bond_init: 1 hit' | grep -qx "  time in it: 1 call timed, 22938.350 us in all, longest 22938.350 us"
}

@test "console: a kernel message mid-line under minicom, which stamps the line's rest too" {
	awk '/insmod-120 .*register_netdevice <-bond_create/ && !d {
		sub(/register_netdevice <-bond_create/, "register_net[    5.123456] random: crng init done\r\ndevice <-bond_create"); d = 1 }
	     { print }' "$LOG" | sed 's/^/[2026-11-25 10:00:00.123] /' >"$T/mid-minicom.log"
	grep -q '^\[2026-11-25 10:00:00.123\] device <-bond_create' "$T/mid-minicom.log"
	run "$BT" report "$T/mid-minicom.log"
	whole
}

@test "console: a kernel message between two dmesg lines does not touch them" {
	awk '/^\|\[    0.000000\] BIOS-e820/ && !d { print; print "[    5.123456] random: crng init done\r"; d = 1; next } { print }' "$LOG" >"$T/between.log"
	run "$BT" report "$T/between.log"
	whole
}

@test "a tracer report reads, in a layout it does not (function_graph without durations): refused, not empty" {
	printf '# tracer: function_graph\n#\n 0)  register_netdevice() {\n 0)    __cond_resched();\n 0)  }\n' >"$T/nodur.trace"
	run "$BT" report "$T/nodur.trace"
	[ "$status" -eq 1 ]
	[[ "$output" == *'tracer "function_graph": none of the 3 lines after its header is in a layout report reads (first at line 3)'* ]]
	[[ "$output" != *"empty"* ]]
}

@test "stacktrace triggers on events that are not enabled: the stacks alone count as their events" {
	run "$BT" report "$D/qemu-6.1-amd64-trigger-no-event.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"module_load (event): 2 hits"* ]]
	[[ "$output" == *"register_netdevice (event): 1 hit"* ]]
	echo "$output" | grep -qxF "  culprit: [unverified bonding_init] -> bond_create -> register_netdevice"
	echo "$output" | grep -qx "  culprit: __do_sys_finit_module -> load_module -> module_load"
	[[ "$output" == *"3 stack block(s) came without their event line"* ]]
	[[ "$output" != *"mid-event"* ]]
}
