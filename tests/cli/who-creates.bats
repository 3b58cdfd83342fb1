#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 22 part 4: compile --who-creates NETDEV and --who-calls FUNC --arg
# NAME=FETCH (a boot kprobe recording what each call is about, checked per
# arch and kernel: kernel/fetcharg.c, docs/kernel-facts.md 84-86), and the
# report's answer that starts with the object.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data"
	T="$BATS_TEST_TMPDIR"
}

@test "who-creates: the device's name at entry, from the board's first-argument register" {
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 -k 6.1
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace"* ]]
	[[ "$output" == *" kprobe_event=p:kprobes/bt_register_netdevice,register_netdevice,name=+0(%di):string "* ]]
	# enabled, next to the lineage and module events the who-calls preset adds
	[[ "$output" == *"module:module_load"*"kprobes:bt_register_netdevice"* ]]
	run "$BT" compile --who-creates bond0 -b qemu-arm64-uboot -k 6.1
	[ "$status" -eq 0 ]
	[[ "$output" == *"register_netdevice,name=+0(%x0):string"* ]]
	# MIPS: the kernel's names are r0..r31, the first argument is r4
	run "$BT" compile --who-creates bond0 -b mips-malta -k 6.1
	[ "$status" -eq 0 ]
	[[ "$output" == *"register_netdevice,name=+0(%r4):string"* ]]
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 -k 6.1 --print-config
	[ "$status" -eq 0 ]
	[[ "$output" == *"# Who creates bond0?"* ]]
	[[ "$output" == *'ftrace.event.kprobes.bt_register_netdevice.probes = "register_netdevice name=+0(%di):string"'* ]]
	[[ "$output" == *"calls before the kprobe's first hit"*"are traced but not probed"* ]]
	# the bootconfig target carries the probe as a key
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 -k 6.1 -t bootconfig
	[ "$status" -eq 0 ]
	[[ "$output" == *'ftrace.event.kprobes.bt_register_netdevice.probes = "register_netdevice name=+0(%di):string"'* ]]
}

@test "who-creates: no arch known (no -b) is refused, saying to name the register" {
	run "$BT" compile --who-creates bond0 -k 6.1
	[ "$status" -eq 2 ]
	[[ "$output" == *"error: --who-creates: board generic's arch (unknown) is not one whose first-argument register boottrace knows"*"give -b BOARD, or give --who-calls register_netdevice --arg name=+0(%REG):string"* ]]
	run "$BT" compile --who-creates 'bond0/x' -b qemu-x86_64
	[ "$status" -eq 2 ]
	[[ "$output" == *"a network device's name is 1 to 15 bytes"* ]]
	run "$BT" compile --who-creates bond0 --who-calls f -b qemu-x86_64
	[ "$status" -eq 2 ]
	[[ "$output" == *"give one of them"* ]]
}

@test "who-calls --arg: the kprobe records each NAME=FETCH, \$argN where the kernel has it" {
	run "$BT" compile --who-calls vfs_read --arg 'a=$arg1' --arg 'c=$comm' -b qemu-x86_64 -k 6.1
	[ "$status" -eq 0 ]
	[[ "$output" == *"kprobe_event=p:kprobes/bt_vfs_read,vfs_read,a=\$arg1,c=\$comm "* ]]
	run "$BT" compile --who-calls vfs_read --arg 'a=$arg1' -b qemu-x86_64 -k 5.10
	[ "$status" -eq 2 ]
	[[ "$output" == *"a=\$arg1: byte 2: error: --arg: \$arg1: boottrace knows function-argument access on x86_64 from Linux 6.1's sources only, and the kernel is 5.10; name the register instead: %di, %si"* ]]
	run "$BT" compile --who-calls vfs_read --arg 'a=$arg1' -b mips-malta -k 6.1
	[ "$status" -eq 2 ]
	[[ "$output" == *"no function-argument access (HAVE_FUNCTION_ARG_ACCESS_API) on mips"*"%r4, %r5"* ]]
	# boot kprobes: 5.3 and later
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 -k 5.2
	[ "$status" -eq 1 ]
	[[ "$output" == *"kprobe_event=) needs kernel 5.3 or later; the target is 5.2"* ]]
}

@test "who-calls --arg: a bad FETCH is refused at its byte, with what to write" {
	run "$BT" compile --who-calls register_netdevice --arg 'name=+0(%rdi):string' -b qemu-x86_64 -k 6.1
	[ "$status" -eq 2 ]
	[ "$output" = "name=+0(%rdi):string: byte 9: error: --arg: 'rdi' is not a register name of x86_64 (arch/x86/kernel/ptrace.c); its function arguments come in %di, %si, %dx, %cx, %r8, %r9" ]
	run "$BT" compile --who-calls register_netdevice --arg 'name=%di:string' -b qemu-x86_64
	[ "$status" -eq 2 ]
	[[ "$output" == *"name=%di:string: byte 9: error: --arg: a string is read from memory"*"name=+0(%di):string"* ]]
	run "$BT" compile --who-calls register_netdevice --arg 'name=+0(%a0):strin' -b qemu-arm64-uboot
	[ "$status" -eq 2 ]
	[[ "$output" == *"byte 13: error: --arg: 'strin' is not a fetch type"* ]]
	run "$BT" compile --who-calls register_netdevice --arg 'name=+0(%a0):string' -b qemu-arm64-uboot
	[ "$status" -eq 2 ]
	[[ "$output" == *"byte 9: error: --arg: 'a0' is not a register name of arm64"*"%x0"* ]]
	run "$BT" compile --who-calls register_netdevice,bond_create --arg 'a=%di' -b qemu-x86_64
	[ "$status" -eq 2 ]
	[[ "$output" == *"a boot kprobe goes on one function of the kernel's own"* ]]
	run "$BT" compile --arg 'a=%di' -b qemu-x86_64 x.bconf
	[ "$status" -eq 2 ]
	[[ "$output" == *"--arg a=%di goes with --who-calls FUNC"* ]]
}

@test "who-creates: a .config without KPROBE_EVENTS is refused, naming the file" {
	grep -v KPROBE_EVENTS "$D/kconfig/6.1-debian.config" >"$T/k.config"
	echo '# CONFIG_KPROBE_EVENTS is not set' >>"$T/k.config"
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 --kernel-config "$T/k.config"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: kprobe events needs CONFIG_KPROBE_EVENTS, which is not set in $T/k.config"* ]]
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 --kernel-config "$D/kconfig/6.1-debian.config"
	[ "$status" -eq 0 ]
}

@test "who-creates: help, man page and completion know the options" {
	run "$BT" compile --help
	[[ "$output" == *"--who-creates DEV"* ]]
	[[ "$output" == *"--arg NAME=FETCH"* ]]
	grep -qF -- 'who\-creates' "$BATS_TEST_DIRNAME/../../docs/man/boottrace.1"
	: >"$T/bond0.txt"
	run bash --norc --noprofile -c 'cd "$1" && source "$2" && COMP_WORDS=("$3" compile --who-creates bond); COMP_CWORD=3; _boottrace; echo "${COMPREPLY[*]}"' _ "$T" "$BATS_TEST_DIRNAME/../../completion/boottrace" "$(cd "$(dirname "$BT")" && pwd)/boottrace"
	[ "$output" = "" ]
}

@test "report: a call whose kprobe recorded a name starts its answer with the object" {
	F="$D/traces/debian-6.1-amd64-frames.trace"
	# the real capture, ip's device renamed bond0 (its kprobe line)
	sed 's/name="bond1"/name="bond0"/' "$F" >"$T/bond0.trace"
	grep -q 'rnd: (register_netdevice+0x0/0x7e0) name="bond0"' "$T/bond0.trace"
	run "$BT" report --function register_netdevice "$T/bond0.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n''  bond0: network device created by ip-100, via bond_newlink [bonding] -> register_netdevice'$'\n''  culprit: __sys_sendmsg -> '*'bond_newlink [bonding] -> register_netdevice'$'\n''    by ip-100, phase syscall'* ]]
	# a pattern at entry is said to be one
	[[ "$output" == *$'\n''  bond%d (a name pattern: register_netdevice records the name at its entry, and the kernel puts in the first free number inside the call): network device created by insmod-97, via bond_create [bonding] -> register_netdevice'$'\n''  culprit: [init of bonding] -> bond_create [bonding] -> register_netdevice'* ]]
	[[ "$output" == *$'\n''  dummy%d (a name pattern'*'created by modprobe-103, via dummy_init_module [dummy] -> register_netdevice'* ]]
}

@test "report: which window each source covers (lo's registration came before the kprobe)" {
	run "$BT" report --function register_netdevice "$D/traces/debian-6.1-amd64-frames.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the kprobe's first hit at 3.979217 s: calls before it were not probed (1 of 4: the function tracer covers the whole boot, a boot kprobe only from when it is set up)"* ]]
	[[ "$output" == *"by init-1 "*$'\n''    recorded by its kprobe: nothing: the call came before the kprobe'"'"'s first hit at 3.979217 s'* ]]
	# a call with no value gets no object line
	[[ "$output" != *$'\n''  : '* ]]
}

@test "report: a kprobe of --who-calls FUNC --arg names its value, not a creation" {
	F="$D/traces/debian-6.1-amd64-kprobe.trace"
	sed 's/register_netdevice+0x0\/0x7e0) name="bond%d"/register_netdevice+0x0\/0x7e0) flags=0x10 name="x"/' "$F" >"$T/arg.trace"
	sed -i 's/register_netdevice/vfs_read/g' "$T/arg.trace"
	run "$BT" report "$T/arg.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n''  flags=0x10: recorded by the kprobe on vfs_read, called by busybox-93, via bond_create -> vfs_read'$'\n''  culprit: '* ]]
}

@test "report -f json: each stack culprit whose kprobe recorded a name carries the object" {
	F="$D/traces/debian-6.1-amd64-frames.trace"
	"$BT" report -f json --function register_netdevice "$F" >"$T/r.json"
	[ "$(jq -c '[.functions[] | select(.name == "register_netdevice") | .culprits[] | select(.object) | .object] | sort_by(.names)' "$T/r.json")" = \
		'[{"names":"bond%d","pattern":true,"kind":"network device"},{"names":"bond1","pattern":false,"kind":"network device"},{"names":"dummy%d","pattern":true,"kind":"network device"}]' ]
	# lo's call came before the kprobe: no object
	[ "$(jq '[.functions[] | select(.name == "register_netdevice") | .culprits[] | select(.task == "init-1") | has("object")] | any' "$T/r.json")" = false ]
}

# The question travels with the boot (boottrace.ask, kernel/ask.h) and is
# traced past the initramfs (boottrace.follow = 1): report says first
# whether its window can hold the answer (report_window.c).

@test "who-creates/who-calls: the question goes on the line as boottrace.ask, and tracing on past the initramfs" {
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 -k 6.1
	[ "$status" -eq 0 ]
	[[ "$output" == *" boottrace.ask=who-creates:bond0 boottrace.follow=1" ]]
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 -k 6.1 --print-config
	[[ "$output" == *$'\nboottrace.ask = "who-creates:bond0"\n'* ]]
	[[ "$output" == *$'# A device is often created after the switch to the real root\n# (systemd-networkd, udev, a service):\n# tracing goes on past the initramfs snapshot'*$'\nboottrace.follow = 1\n'* ]]
	run "$BT" compile --who-calls register_netdevice,bond_create -b qemu-x86_64 -k 6.1
	[[ "$output" == *" boottrace.ask=who-calls:register_netdevice,bond_create boottrace.follow=1" ]]
	# a bootconfig carries it as a kernel.* key: the kernel puts it on /proc/cmdline
	run "$BT" compile --who-creates bond0 -b qemu-x86_64 -k 6.1 -t bootconfig
	[[ "$output" == *'kernel.boottrace.ask = "who-creates:bond0"'* ]]
	[[ "$output" == *'kernel.boottrace.follow = "1"'* ]]
	# a name the word cannot carry is refused before anything is written
	run "$BT" compile --who-creates 'bond"0' -b qemu-x86_64 -k 6.1
	[ "$status" -eq 2 ]
	[[ "$output" == *"error: --who-creates 'bond\"0': the question goes on the kernel's line as boottrace.ask=who-creates:OBJECT, and this one holds a byte that is not a letter, digit or one of _ . - : , * + @"* ]]
}

@test "boottrace.ask in a config: KIND:OBJECT checked at its line; the user's config keeps its own follow" {
	printf 'ftrace.tracer = function\nboottrace.ask = "who-creates:bond0"\n' >"$T/ask.bconf"
	run "$BT" compile -k 6.1 "$T/ask.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=function trace_clock=global boottrace.ask=who-creates:bond0" ]
	printf 'ftrace.tracer = function\nboottrace.ask = "who-made:bond0"\n' >"$T/bad.bconf"
	run "$BT" compile -k 6.1 "$T/bad.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/bad.bconf:2:"*"error: boottrace.ask = 'who-made:bond0' is not KIND:OBJECT with KIND who-creates or who-calls"* ]]
	printf 'ftrace.tracer = function\nboottrace.ask = "who-calls:"\n' >"$T/bad.bconf"
	run "$BT" compile -k 6.1 "$T/bad.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"names no object after the ':'"* ]]
}

@test "hook: boottrace.ask on the line is passed by without a warning (the snapshot keeps /proc/cmdline as it is)" {
	printf 'boottrace boottrace.ask=who-creates:bond0\n' >"$T/cl"
	run env BOOTTRACE_CMDLINE="$T/cl" BOOTTRACE_BOOTCONFIG="$T/none" BOOTTRACE_CONF="$T/none" \
		BOOTTRACE_KMSG="$T/kmsg" sh "$BATS_TEST_DIRNAME/../../initramfs-hook/boottrace-snapshot.sh" settings
	[ "$status" -eq 0 ]
	[[ "$output" == *"warnings=0"* ]]
	[[ "$output" != *"boottrace.ask"* ]]
}

# tests/data/traces/ask-snapshot-follow-off: snapshot-amd64-stack with
# boottrace.ask=who-creates:bond0 added to its cmdline and follow=0,
# resumed=0 to its meta (the hook's words for "tracing stopped here").
@test "report: a who-creates boot traced to the snapshot only says first that bond0 was not seen, and why" {
	A="$D/traces/ask-snapshot-follow-off"
	run "$BT" report "$A"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "asked: who creates bond0 (boottrace.ask on the boot's command line)" ]
	[ "${lines[2]}" = "window: the initramfs snapshot only: tracing stopped there (boottrace.follow was off)" ]
	[ "${lines[3]}" = "! bond0 was not seen by name: the 1 device registration in this window recorded no name (no kprobe on the registering function, or every call before its first hit: compile --who-creates bond0 adds it); the trace ended at the initramfs snapshot (boottrace.follow was off); ask again with boottrace.follow = 1, or \`boottrace ask who-creates bond0\`, which sets it" ]
	# the rest is the report of the same snapshot without a question, byte for byte
	diff <("$BT" report "$D/traces/snapshot-amd64-stack" | sed 1d) <(printf '%s\n' "$output" | sed 1,4d)
	"$BT" report -f json "$A" >"$T/r.json"
	[ "$(jq -c '.question | {kind, object, window, seen, calls}' "$T/r.json")" = \
		'{"kind":"who-creates","object":"bond0","window":{"kind":"snapshot","follow":false,"collected":false,"live_events":null,"joined":null},"seen":false,"calls":1}' ]
	[ "$(jq -r '.question.findings | map(.code) | join(",")' "$T/r.json")" = asked,window,asked-not-seen ]
	# without a question, no member at all
	[ "$("$BT" report -f json "$D/traces/snapshot-amd64-stack" | jq 'has("question")')" = false ]
}

@test "report: who-calls of a function never called, a name pattern, a malformed word" {
	cp -r "$D/traces/ask-snapshot-follow-off" "$T/s"
	sed -i 's/boottrace.ask=[^ ]*/boottrace.ask=who-calls:dev_open,register_netdevice/' "$T/s/cmdline"
	run "$BT" report "$T/s"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "asked: who calls dev_open,register_netdevice (boottrace.ask on the boot's command line)" ]
	[ "${lines[3]}" = "! dev_open was never called: the trace ended at the initramfs snapshot (boottrace.follow was off); ask again with boottrace.follow = 1, or \`boottrace ask who-calls dev_open,register_netdevice\`, which sets it" ]
	sed -i 's/boottrace.ask=[^ ]*/boottrace.ask=who-calls:register_*/' "$T/s/cmdline"
	run "$BT" report "$T/s"
	[[ "$output" != *"never called"* ]]
	# the kprobe recorded bond%d: bond0 may be it, said so
	cp "$D/traces/debian-6.1-amd64-frames.trace" "$T/s/trace"
	sed -i 's/boottrace.ask=[^ ]*/boottrace.ask=who-creates:bond0/' "$T/s/cmdline"
	run "$BT" report "$T/s"
	[ "${lines[3]}" = "! bond0 may be a device registered under a name pattern (the kprobe saw the pattern at the call's entry; the kernel puts in the number inside it): no call recorded the name bond0 itself" ]
	"$BT" report -f json "$T/s" | jq -e '.question.seen == "pattern"'
	sed -i 's/boottrace.ask=[^ ]*/boottrace.ask=who-made:bond0/' "$T/s/cmdline"
	run "$BT" report "$T/s"
	[ "${lines[1]}" = "! the boot's boottrace.ask=who-made:bond0 is not KIND:OBJECT with KIND who-creates or who-calls (who-creates:bond0, who-calls:register_netdevice): no question is answered first" ]
}

# A record that `boottrace collect` makes from the fixture snapshot with
# boottrace.follow=1, and a tracefs holding TRACE (the live buffer).
collect_record() { # TRACE
	ID=00000000-0000-4000-8000-00000000a5c0
	mkdir -p "$T/run" "$T/tfs"
	cp -r "$D/traces/ask-snapshot-follow-off" "$T/run/$ID"
	sed -i 's/^follow=0$/follow=1/; s/^resumed=0$/resumed=1/' "$T/run/$ID/meta"
	sed -i 's/$/ boottrace.follow=1/' "$T/run/$ID/cmdline"
	cp "$1" "$T/tfs/trace"
	echo 1 >"$T/tfs/tracing_on"
	: >"$T/empty.conf"
	run "$BT" collect --run "$T/run" --state "$T/state" --tracefs "$T/tfs" --config "$T/empty.conf" --boot-id "$ID"
}

@test "report: a record whose live window is empty (collect failed its unit) says so first" {
	# the live buffer holds only what the snapshot has
	collect_record "$D/traces/ask-snapshot-follow-off/trace"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: the record is empty: its live window is empty"* ]]
	run "$BT" report "$T/state/$ID"
	[ "$status" -eq 0 ]
	[ "${lines[2]}" = "! window: the initramfs snapshot only: the live window after it is empty though boottrace.follow was on (0 events after the snapshot)" ]
	[[ "${lines[3]}" == "! bond0 was not seen by name: "*"the live window after the initramfs is empty though boottrace.follow was on (0 events after the snapshot); check that tracing stayed on after the initramfs"* ]]
	"$BT" report -f json "$T/state/$ID" | jq -e '.question.window == {"kind":"snapshot","follow":true,"collected":true,"live_events":0,"joined":true}'
}

@test "report: a record where bond0 is there names the window and no verdict, then the culprit" {
	# the live buffer: the snapshot's event, then the real who-creates capture
	# (debian-6.1-amd64-frames.trace) later in the boot, ip's device named bond0
	{ cat "$D/traces/ask-snapshot-follow-off/trace"
	  sed -n '/^[^#]/p' "$D/traces/debian-6.1-amd64-frames.trace" |
		awk '{ if (match($0, /[0-9]+\.[0-9]+:/)) { t = substr($0, RSTART, RLENGTH - 1); sub(/[0-9]+\.[0-9]+:/, sprintf("%.6f:", t + 10)) } print }' |
		sed 's/name="bond1"/name="bond0"/'
	} >"$T/live"
	collect_record "$T/live"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run "$BT" report "$T/state/$ID"
	[ "$status" -eq 0 ]
	[ "${lines[1]}" = "asked: who creates bond0 (boottrace.ask on the boot's command line)" ]
	[[ "${lines[2]}" == "window: the initramfs snapshot and the live window after it ("*" live events, to "*" s)" ]]
	[[ "$output" != *"was not seen"* ]]
	[[ "$output" == *$'\n''  bond0: network device created by ip-100, via bond_newlink [bonding] -> register_netdevice'$'\n'* ]]
	"$BT" report -f json "$T/state/$ID" | jq -e '.question.seen == true and .question.window.kind == "snapshot+live"'
}
