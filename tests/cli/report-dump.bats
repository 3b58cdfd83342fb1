#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace report on a console log that holds an ftrace_dump_on_oops dump
# (issue 18): real captures of tests/e2e/crash.sh's boots and hand-damaged
# copies of them (tests/data/traces/README.md, "Crash dumps").

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	T="$BATS_TEST_TMPDIR"
}

@test "panic: the panic, the call trace, the init that never finished, the last events" {
	run "$BT" report "$D/qemu-6.1-dump-panic.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(dump)"* ]]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
	[[ "$output" == *"call trace (innermost first): dump_stack_lvl <- panic <- crashmod_init [crashmod] <- do_one_initcall"* ]]
	[[ "$output" == *"the initcall that never finished: crashmod_init (module crashmod), started at 0.358673 s by insmod-89 on CPU 1"* ]]
	[[ "$output" == *"CPU 1 at the dump: insmod-89"* ]]
	[[ "$output" == *"crashmod_probe_device: (crashmod_probe_device+0x0/0x26 [crashmod])"* ]]
	[[ "$output" != *"MISSING"* ]]
}

@test "panic: the dump's trace answers as a snapshot: tasks, stacks, no printk times taken for tasks" {
	run "$BT" report --function do_init_module "$D/qemu-6.1-dump-panic.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"do_init_module: 1 hit"* ]]
	[[ "$output" == *"(stack trace)"* ]]
	[[ "$output" == *"tasks: <...>-89 (1)"* ]]
	[[ "$output" != *"[    "* ]]
}

@test "hang: the soft lockup, the spinning RIP, the task on each CPU" {
	run "$BT" report "$D/qemu-6.1-dump-hang.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"panic: softlockup: hung tasks"* ]]
	[[ "$output" == *"oops: watchdog: BUG: soft lockup - CPU#0 stuck for 13s! [insmod:89]"* ]]
	[[ "$output" == *"at: crashmod_spin+0xe/0x10 [crashmod] on CPU: 0 PID: 89 Comm: insmod"* ]]
	[[ "$output" == *"the initcall that never finished: crashmod_init (module crashmod)"* ]]
	[[ "$output" == *"CPU 0 at the dump: insmod-89"* ]]
	[[ "$output" == *"CPU 1 at the dump: <idle>-0"* ]]
}

@test "oops without a panic: the BUG line and the RIP" {
	run "$BT" report "$D/qemu-6.1-dump-oops.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"oops: BUG: kernel NULL pointer dereference, address: 0000000000000000"* ]]
	[[ "$output" == *"at: crashmod_init+0x77/0x1000 [crashmod]"* ]]
}

@test "truncated: said, and no task claimed to be at the dump" {
	run "$BT" report "$D/hand-dump-truncated.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"MISSING: the dump is truncated"* ]]
	[[ "$output" == *"the dump is cut, so one may be in the part lost"* ]]
	[[ "$output" != *"at the dump:"* ]]
	[[ "$output" != *"never finished:"* ]]
}

@test "interleaved: other lines kept out and counted, lost events named" {
	run "$BT" report "$D/hand-dump-interleaved.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"MISSING: CPU 1 lost 17 events"* ]]
	[[ "$output" == *"2 other console lines came inside the dump and were kept out of the trace (the first: \"random: crng init done\")"* ]]
	"$BT" report "$D/qemu-6.1-dump-panic.log" | sed -n '/^initcall_finish/,$p' >"$T/real"
	"$BT" report "$D/hand-dump-interleaved.log" | sed -n '/^initcall_finish/,$p' >"$T/inter"
	cmp "$T/real" "$T/inter"
}

@test "minicom capture (timestamps, escape codes): the same report as the raw log" {
	"$BT" report "$D/qemu-6.1-dump-hang.log" | tail -n +2 >"$T/raw"
	"$BT" report "$D/hand-dump-minicom.log" | tail -n +2 >"$T/minicom"
	diff "$T/raw" "$T/minicom"
}

@test "on standard input too" {
	run sh -c "'$BT' report - <'$D/qemu-6.1-dump-panic.log'"
	[ "$status" -eq 0 ]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
}

@test "JSON: the dump object (docs/report-schema.md)" {
	run "$BT" report -f json "$D/qemu-6.1-dump-hang.log"
	[ "$status" -eq 0 ]
	echo "$output" | jq -e '.input.kind == "dump"
		and .dump.panic == "softlockup: hung tasks"
		and .dump.truncated == false
		and .dump.unfinished_initcalls[0].func == "crashmod_init"
		and .dump.unfinished_initcalls[0].module == "crashmod"
		and (.dump.cpus[] | select(.cpu == 0) | .task) == "insmod-89"
		and (.dump.call_trace | index("crashmod_init [crashmod]")) == 0'
	run "$BT" report -f json "$D/hand-dump-truncated.log"
	echo "$output" | jq -e '.dump.truncated == true and .dump.unfinished_initcalls == []'
}

@test "a log with a console snapshot and a dump: the snapshot's trace, the crash beside it" {
	cat "$D/debian-6.1-console-stack.log" "$D/qemu-6.1-dump-panic.log" >"$T/both.log"
	run "$BT" report "$T/both.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(console"* ]]
	[[ "$output" == *"register_netdevice"* ]]
	[[ "$output" == *"panic: crashmod: device 0 failed to come up"* ]]
}

@test "report -f html of a dump: a banner names the panic and the initcall, the crash section is the text report's" {
	run "$BT" report -f html "$D/qemu-6.1-dump-panic.log"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"<b>The boot died</b>: crashmod: device 0 failed to come up; the initcall that never finished: crashmod_init"* ]]
	[[ "$output" == *'<section id="crash">'*"call trace (innermost first): dump_stack_lvl &lt;- panic"* ]]
	run "$BT" report -f html "$D/hand-dump-truncated.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the dump is cut"* ]]
	[[ "$output" != *"The boot died</b>"*"never finished"* ]]
}
