#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace compile and boards, from the outside.

bats_require_minimum_version 1.5.0

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data"
	T="$BATS_TEST_TMPDIR"
	export BOOTTRACE_BOARD_DIR="$BATS_TEST_DIRNAME/../../board"
}

@test "bond0 question for 4.9: legacy parameters, route explained by -v" {
	run "$BT" compile -k 4.9 "$D/bond0.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_clock=global boottrace.enable=1" ]
	run "$BT" compile -k 4.9 -v "$D/bond0.bconf"
	[[ "$output" == *"kernel 4.9 has no bootconfig"* ]]
	[[ "$output" == *"ftrace.options ("*"bond0.bconf:5:2) -> trace_options=func_stack_trace"* ]]
}

@test "bond0 for 6.1 without CONFIG_BOOT_CONFIG: bootconfig refused, cmdline works" {
	run "$BT" compile -t bootconfig --kernel-config "$D/kconfig/6.1-debian.config" "$D/bond0.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"CONFIG_BOOT_CONFIG is not set"*"use -t cmdline"* ]]
	run "$BT" compile --kernel-config "$D/kconfig/6.1-debian.config" "$D/bond0.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_clock=global boottrace.enable=1" ]
}


@test "bond0 for 6.1 with bootconfig: func_stack_trace routed via kernel.* (silent failure #1)" {
	run "$BT" compile -t bootconfig -o "$T/b.bconf" -v --kernel-config "$D/kconfig/6.1-bootconfig.config" "$D/bond0.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bootconfig"* ]]
	[[ "$output" == *"applies options before the tracer"* ]]
	grep -qx 'kernel.trace_options = "func_stack_trace"' "$T/b.bconf"
	grep -qx 'kernel.ftrace = "function"' "$T/b.bconf"
	! grep -q '^ftrace\.' "$T/b.bconf"
}

@test "without func_stack_trace the tracer stays an ftrace.* key" {
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = a, b\nftrace.event.sched.sched_switch.filter = "prev_pid == 1"\n' > "$T/c.bconf"
	run "$BT" compile -t bootconfig --kernel-config "$D/kconfig/6.1-bootconfig.config" -o "$T/out" "$T/c.bconf"
	[ "$status" -eq 0 ]
	grep -qx 'ftrace.tracer = "function"' "$T/out"
	grep -qx 'ftrace.ftrace.filters = "a", "b"' "$T/out"
	grep -qx 'ftrace.event.sched.sched_switch.filter = "prev_pid == 1"' "$T/out"
}

@test "bootconfig on x86: the trace clock is a kernel.* word, ftrace.trace_clock would not stop the switch" {
	printf 'ftrace.tracer = function\nftrace.trace_clock = local\n' > "$T/c.bconf"
	run --separate-stderr "$BT" compile -t bootconfig --kernel-config "$D/kconfig/6.1-bootconfig.config" "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nkernel.trace_clock = "local"\nkernel.boottrace.enable = "1"\nftrace.tracer = "function"' ]]
	[[ "$output" != *"ftrace.trace_clock"* ]]
	# no clock given: global is added
	printf 'ftrace.tracer = function\n' > "$T/d.bconf"
	run --separate-stderr "$BT" compile -t bootconfig -v --kernel-config "$D/kconfig/6.1-bootconfig.config" "$T/d.bconf"
	[[ "$output" == *'kernel.trace_clock = "global"'* ]]
	[[ "$stderr" == *"trace_clock=global added (CONFIG_HAVE_UNSTABLE_SCHED_CLOCK=y)"* ]]
	# a kernel that cannot switch: the bootconfig key stays
	grep -v UNSTABLE_SCHED_CLOCK "$D/kconfig/6.1-bootconfig.config" > "$T/stable.config"
	run --separate-stderr "$BT" compile -t bootconfig --kernel-config "$T/stable.config" "$T/c.bconf"
	[[ "$output" == *'ftrace.trace_clock = "local"'* ]]
	[[ "$output" != *"kernel.trace_clock"* ]]
}

@test "CONFIG_BOOTTIME_TRACING unset: ftrace.* become kernel.*, event filters refused" {
	run "$BT" compile -t bootconfig --kernel-config "$D/kconfig/6.1-nobtt.config" -o "$T/out" "$D/bond0.bconf"
	[ "$status" -eq 0 ]
	! grep -q '^ftrace\.' "$T/out"
	printf 'ftrace.event.sched.sched_switch.filter = "prev_pid == 1"\n' > "$T/f.bconf"
	run "$BT" compile -t bootconfig --kernel-config "$D/kconfig/6.1-nobtt.config" "$T/f.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"f.bconf:1:"*"event filter"* ]]
}

@test "the bootconfig applied to an initrd reads back with the kernel's own tool" {
	K=$(sh "$BATS_TEST_DIRNAME/../diff/kernel-tool.sh") || { echo "the kernel tool cannot be built: make deps"; false; }
	printf '\x30\x37\x30\x37\x30\x31 fake initrd\n' > "$T/initrd"
	"$BT" compile -t bootconfig --kernel-config "$D/kconfig/6.1-bootconfig.config" --apply "$T/initrd" "$D/bond0.bconf" >"$T/words" 2>"$T/summary"
	# stdout is only the words the bootloader must still pass
	[ "$(cat "$T/words")" = bootconfig ]
	grep -q "^Apply bootconfig to $T/initrd\$" "$T/summary"
	"$BT" compile -t bootconfig --kernel-config "$D/kconfig/6.1-bootconfig.config" -o "$T/text" "$D/bond0.bconf"
	"$K" -l "$T/initrd" > "$T/k.out"
	"$K" -l "$T/text" > "$T/t.out"
	cmp "$T/k.out" "$T/t.out"
	grep -qx 'kernel.trace_options = "func_stack_trace"' "$T/k.out"
}

@test "unknown key: file:line:col and the nearest valid key" {
	printf 'ftrace {\n\ttraser = function\n}\n' > "$T/u.bconf"
	run "$BT" compile "$T/u.bconf"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/u.bconf:2:2: error: unknown key 'ftrace.traser'; did you mean 'ftrace.tracer'? (see boottrace.bconf(5))" ]
}

@test "documented kernel.fgraph_filters has no handler: refused with the real name" {
	printf 'kernel.fgraph_filters = foo\n' > "$T/g.bconf"
	run "$BT" compile "$T/g.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"g.bconf:1:8: error: kernel.fgraph_filters"*"ftrace_graph_filter"* ]]
}

@test "trace_options=stacktrace with the function tracer is refused (silent failure #3)" {
	printf 'kernel.ftrace = function\nkernel.trace_options = stacktrace\n' > "$T/s.bconf"
	run "$BT" compile "$T/s.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"s.bconf:2:"*"use func_stack_trace"*"--allow-drop"* ]]
	run "$BT" compile --allow-drop "$T/s.bconf"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"warning: dropped (--allow-drop)"* ]]
}

@test "a setting said dropped (--allow-drop) is in no output form; its list's other items stay" {
	# the option alone: trace_options= goes, in the line and in the bootconfig
	printf 'kernel.ftrace = function\nkernel.trace_options = stacktrace\n' > "$T/s.bconf"
	run --separate-stderr "$BT" compile --allow-drop -k 6.1 "$T/s.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=function trace_clock=global boottrace.enable=1" ]
	[[ "$stderr" == *"dropped (--allow-drop): option 'stacktrace'"* ]]
	run --separate-stderr "$BT" compile --allow-drop -t bootconfig -k 6.1 "$T/s.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"stacktrace"* ]]
	# one item of a list: the others are kept
	printf 'ftrace.tracer = function\nftrace.options = sym-addr, stacktrace\n' > "$T/s2.bconf"
	run --separate-stderr "$BT" compile --allow-drop -k 6.1 "$T/s2.bconf"
	[ "$output" = "ftrace=function trace_options=sym-addr trace_clock=global boottrace.enable=1" ]
	run --separate-stderr "$BT" compile --allow-drop -t bootconfig -k 6.1 "$T/s2.bconf"
	[[ "$output" == *'ftrace.options = "sym-addr"'* ]]
	[[ "$output" != *"stacktrace"* ]]
	# a whole setting refused by the .config: its word goes
	printf '# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_FUNCTION_TRACER=y\nCONFIG_DYNAMIC_FTRACE=y\n' > "$T/nog.config"
	printf 'ftrace.tracer = function_graph\nftrace.ftrace.filters = vfs_read\n' > "$T/g.bconf"
	run --separate-stderr "$BT" compile --allow-drop --kernel-config "$T/nog.config" "$T/g.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace_filter=vfs_read boottrace.enable=1" ]
	[[ "$stderr" == *"dropped (--allow-drop): the function_graph tracer needs CONFIG_FUNCTION_GRAPH_TRACER"* ]]
}

@test "the tracer is one Linux has, built by the .config (kernel/tracers.c)" {
	printf 'ftrace.tracer = functon\n' > "$T/t.bconf"
	run "$BT" compile -k 6.1 "$T/t.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"t.bconf:1:8: error: no tracer 'functon' in Linux: the kernel would start none and trace nothing; did you mean function"* ]]
	run --separate-stderr "$BT" compile --allow-drop -k 6.1 "$T/t.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"ftrace="* ]]
	printf '# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_FUNCTION_TRACER=y\n# CONFIG_SCHED_TRACER is not set\nCONFIG_IRQSOFF_TRACER=y\n' > "$T/k.config"
	for tr in wakeup wakeup_rt wakeup_dl preemptirqsoff; do
		printf 'ftrace.tracer = %s\n' "$tr" > "$T/t.bconf"
		run "$BT" compile --kernel-config "$T/k.config" "$T/t.bconf"
		[ "$status" -eq 1 ]
		[[ "$output" == *"the $tr tracer needs CONFIG_"*"_TRACER, which is not set in $T/k.config"* ]]
	done
	printf 'ftrace.tracer = irqsoff\n' > "$T/t.bconf"
	run "$BT" compile --kernel-config "$T/k.config" "$T/t.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=irqsoff boottrace.enable=1" ]
	# check says the same of the .config
	printf 'ftrace.tracer = wakeup\n' > "$T/t.bconf"
	run "$BT" check --kernel-config "$T/k.config" "$T/t.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"t.bconf:1:8: error: the wakeup tracer needs CONFIG_SCHED_TRACER, which $T/k.config does not set"* ]]
}

@test "the kernel's symbols decide the tracer, over its .config (kernel/tracers.c)" {
	# symbols with the nop and function tracers' code, not wakeup's; a
	# .config that says otherwise
	printf 'ffffffff81000000 T _stext\nffffffff81001000 t nop_trace_init\nffffffff81002000 t function_trace_init\n' > "$T/m.map"
	printf '# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_FUNCTION_TRACER=y\nCONFIG_SCHED_TRACER=y\n' > "$T/k.config"
	printf 'ftrace.tracer = wakeup\n' > "$T/t.bconf"
	run "$BT" check --system-map "$T/m.map" --kernel-config "$T/k.config" "$T/t.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"t.bconf:1:8: error: the wakeup tracer is not in this kernel: $T/m.map's symbols have no wakeup_tracer_init, its code (built by CONFIG_SCHED_TRACER): ftrace=wakeup would start nothing"* ]]
	printf 'ftrace.tracer = preemptirqsoff\n' > "$T/p.bconf"
	run "$BT" check --system-map "$T/m.map" "$T/p.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no preemptirqsoff_tracer_init, its code (built by CONFIG_IRQSOFF_TRACER and CONFIG_PREEMPT_TRACER)"* ]]
	# one the symbols have is taken, though the .config leaves it out
	printf 'ffffffff81003000 t wakeup_tracer_init\n' >> "$T/m.map"
	printf '# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_FUNCTION_TRACER=y\n# CONFIG_SCHED_TRACER is not set\n' > "$T/k.config"
	run "$BT" check --system-map "$T/m.map" --kernel-config "$T/k.config" "$T/t.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"t.bconf:1:8: note: the wakeup tracer is in this kernel: $T/m.map's symbols have wakeup_tracer_init, its code"* ]]
	# symbols with no tracer at all, not even nop's, say nothing: the .config decides
	printf 'ffffffff81000000 T _stext\nffffffff81001000 T f1\n' > "$T/bare.map"
	run "$BT" check --system-map "$T/bare.map" --kernel-config "$T/k.config" "$T/t.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the wakeup tracer needs CONFIG_SCHED_TRACER, which $T/k.config does not set"* ]]
	# compile --kernel IMAGE: the image's kallsyms (nop and function only)
	run "$BT" compile -v -t cmdline --kernel "$BATS_TEST_DIRNAME/../data/kimg/bzImage-lz4" "$T/t.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"t.bconf:1:8: error: the wakeup tracer is not in this kernel: "*"bzImage-lz4's symbols have no wakeup_tracer_init"* ]]
	printf 'ftrace.tracer = function\n' > "$T/f.bconf"
	run "$BT" compile -v -t cmdline --kernel "$BATS_TEST_DIRNAME/../data/kimg/bzImage-lz4" "$T/f.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the function tracer: in "*"bzImage-lz4 (its symbol function_trace_init)"* ]]
	[[ "$output" == *"ftrace=function"* ]]
}

@test "legacy and ftrace.* forms merge into one parameter" {
	printf 'kernel.trace_options = sym-addr\nftrace.options = func_stack_trace\nkernel.ftrace_filter = "a,b"\nftrace.ftrace.filters = c\n' > "$T/m.bconf"
	run "$BT" compile "$T/m.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace_filter=a,b,c trace_options=sym-addr,func_stack_trace boottrace.enable=1" ]
}

@test "a setting given twice is refused with both places" {
	printf 'kernel.ftrace = function\nftrace.tracer = function_graph\n' > "$T/d.bconf"
	run "$BT" compile "$T/d.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"d.bconf:2:8: error: 'ftrace.tracer' is set twice (also at line 1 column 8"* ]]
}

@test "kprobe events: minimum kernel 5.3, then kprobe_event= with ',' for spaces" {
	printf 'ftrace.event.kprobes.rnd.probes = "register_netdevice dev=%%di"\nftrace.event.kprobes.rnd.enable\n' > "$T/k.bconf"
	run "$BT" compile -k 4.19 "$T/k.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"needs kernel 5.3 or later; the target is 4.19"* ]]
	run "$BT" compile -k 5.10 "$T/k.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "trace_clock=global kprobe_event=p:kprobes/rnd,register_netdevice,dev=%di trace_event=kprobes:rnd boottrace.enable=1" ]
}

@test "instances: trace_instance= from 6.3, refused before" {
	printf 'ftrace.instance.boot.event.sched.sched_switch.enable\n' > "$T/i.bconf"
	run "$BT" compile -k 6.1 "$T/i.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"needs kernel 6.3 or later"* ]]
	run "$BT" compile -k 6.6 "$T/i.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "trace_instance=boot,sched:sched_switch boottrace.enable=1" ]
}

@test "values that would split are quoted; impossible ones refused" {
	printf 'kernel.foo = "a b"\ninit.x = 1\n' > "$T/q.bconf"
	run "$BT" compile "$T/q.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = 'boottrace.enable=1 foo="a b" -- x=1' ]
	printf "kernel.foo = 'a\"b c'\n" > "$T/q2.bconf"
	run "$BT" compile "$T/q2.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"q2.bconf:1:8: error: foo=: kernel parameter value contains both"* ]]
}

@test "the board's command-line limit, with the numbers" {
	{ printf 'ftrace.ftrace.filters = '; for i in $(seq 1 60); do printf 'some_long_function_name_%02d, ' "$i"; done; printf 'last\n'; } > "$T/l.bconf"
	run "$BT" compile -b rpi4 "$T/l.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"keeps at most 1023 (COMMAND_LINE_SIZE 1024 of board rpi4)"* ]]
	run "$BT" compile -b qemu-x86_64 "$T/l.bconf"
	[ "$status" -eq 0 ]
}

@test "--who-calls: parent-chain mode on MIPS Malta, module callers armed by the hook" {
	run --separate-stderr "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1 --callers bond_create:mod:bonding,bonding_init:mod:bonding
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=function ftrace_filter=register_netdevice boottrace.arm=bond_create:mod:bonding,bonding_init:mod:bonding" ]
	# Malta's 207 bytes: the callers' half has no room for the lineage events
	# nor the question's words (the word and tracing past the initramfs), said so
	[[ "$stderr" == *"the lineage events (129 bytes) and sym-offset are left out"* ]]
	[[ "$stderr" == *"the question's words boottrace.ask and boottrace.follow (62 bytes) are left out, so the trace ends at the initramfs snapshot"*"-t bootconfig carries them"* ]]
	# Octeon's 4096 have room for both
	run --separate-stderr "$BT" compile --who-calls register_netdevice -b octeon-uboot -k 6.1 --callers bond_create:mod:bonding
	[[ "$output" == *" trace_options=sym-offset trace_event=sched:sched_process_fork,"*"module:module_load "* ]]
	run "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1 --print-config
	[[ "$output" == *"Parent-chain mode"* ]]
	[[ "$output" != *"func_stack_trace"* ]]
}

# sym-offset: each frame and <-parent with offset, size and [module], which
# report needs to tell freed module init code from a module loaded there later
@test "--who-calls where stacks work: func_stack_trace, and sym-offset" {
	run "$BT" compile --who-calls register_netdevice -b qemu-x86_64 -k 6.1
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace,sym-offset trace_clock=global trace_event=sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit,module:module_request,module:module_load boottrace.ask=who-calls:register_netdevice boottrace.follow=1" ]
}

@test "--who-calls asks for the lineage; -t bootconfig starts it as kernel.trace_event" {
	run "$BT" compile --who-calls register_netdevice -b qemu-x86_64 -k 6.1 --print-config
	[[ "$output" == *$'\nboottrace.lineage = on'* ]]
	run --separate-stderr "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1 -t bootconfig
	[ "$status" -eq 0 ]
	[[ "$output" == *'kernel.trace_event = "sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit,module:module_request,module:module_load"'* ]]
	[[ "$stderr" != *"lineage events"* ]]
}

@test "boottrace.lineage: the events once, checked like the user's, never a hook word" {
	printf 'ftrace.tracer = function\nftrace.events = "sched:sched_process_exec", "irq:irq_handler_entry"\nboottrace.lineage = on\n' >"$T/lin.bconf"
	run "$BT" compile -k 6.1 "$T/lin.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "ftrace=function trace_clock=global trace_event=sched:sched_process_exec,irq:irq_handler_entry,sched:sched_process_fork,sched:sched_process_exit,module:module_request,module:module_load boottrace.enable=1" ]
	# a kernel without modules has no module_load event
	grep -v '^CONFIG_MODULES=' "$BATS_TEST_DIRNAME/../data/kconfig/6.1-debian.config" >"$T/nomod.config"
	echo '# CONFIG_MODULES is not set' >>"$T/nomod.config"
	run "$BT" compile --kernel-config "$T/nomod.config" "$T/lin.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"trace_event=sched:sched_process_exec,irq:irq_handler_entry,sched:sched_process_fork,sched:sched_process_exit "* ]]
	printf 'boottrace.lineage = off\n' >"$T/off.bconf"
	run "$BT" compile -k 6.1 "$T/off.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "boottrace.enable=1" ]
	printf 'boottrace {\n  lineage = maybe\n}\n' >"$T/bad.bconf"
	run "$BT" compile -k 6.1 "$T/bad.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.bconf:2:3: error: boottrace.lineage is on or off"* ]]
	# an event key refused for the kernel is named at its own place, not at "ftrace"
	printf 'ftrace {\n  tracer = function\n  event.sched.sched_switch.enable\n}\n' >"$T/ev.bconf"
	run "$BT" compile -k 3.10 "$T/ev.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ev.bconf:3:"*"trace_event= needs kernel 3.19"* ]]
	# too old for trace_event=: refused at the lineage key
	printf 'boottrace.lineage = on\n' >"$T/on.bconf"
	run "$BT" compile -k 3.10 "$T/on.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"on.bconf:1:11: error: trace_event= needs kernel 3.19"* ]]
}

@test "cmdline --base: tracing words replaced in place, others kept" {
	run "$BT" compile --base 'console=ttyS0 ftrace=nop root=/dev/sda1 trace_options=sym-addr quiet' "$BATS_TEST_DIRNAME/../data/bond0.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "console=ttyS0 ftrace=function root=/dev/sda1 trace_options=func_stack_trace quiet ftrace_filter=register_netdevice trace_clock=global boottrace.enable=1" ]
}

@test "boards lists every profile" {
	run "$BT" boards
	[ "$status" -eq 0 ]
	for b in qemu-x86_64 qemu-arm64-uboot octeon-uboot edgerouter-lite rpi4 x86_64-grub mips-malta; do
		[[ "$output" == *"$b "* ]]
	done
}

@test "usage errors exit 2" {
	run "$BT" compile
	[ "$status" -eq 2 ]
	run "$BT" compile -t nosuch "$D/bond0.bconf"
	[ "$status" -eq 2 ]
	run "$BT" compile -k x.y "$D/bond0.bconf"
	[ "$status" -eq 2 ]
}

@test "kernel version boundaries: the last refusing and the first accepting version" {
	check() { # CONFIG-LINE LAST-NO FIRST-YES TEXT
		printf '%b\n' "$1" > "$T/v.bconf"
		run "$BT" compile -k "$2" "$T/v.bconf"
		[ "$status" -eq 1 ] || { echo "$2 accepted: $1"; false; }
		[[ "$output" == *"needs kernel $3 or later; the target is $2"* ]] || { echo "$output"; false; }
		run "$BT" compile -k "$3" "$T/v.bconf"
		[ "$status" -eq 0 ] || { echo "$3 refused: $output"; false; }
		[[ "$output" == *"$4"* ]]
	}
	check 'ftrace.event.kprobes.p.probes = vfs_read' 5.2 5.3 'kprobe_event=p:kprobes/p,vfs_read'
	check 'ftrace.boot_snapshot' 5.17 5.18 'ftrace_boot_snapshot'
	check 'ftrace.tp_printk_stop_on_boot' 5.15 5.16 'tp_printk_stop_on_boot'
	check 'ftrace.event.sched.sched_switch.actions = traceoff' 6.1 6.2 'trace_trigger=sched_switch.traceoff'
	check 'ftrace.instance.i.events = "sched:*"' 6.2 6.3 'trace_instance=i,sched:*'
	printf 'ftrace.tracer = function\n' > "$T/b.bconf"
	run "$BT" compile -t bootconfig -k 5.5 "$T/b.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"kernel 5.5 has no bootconfig (5.6 or later): use -t cmdline"* ]]
	run "$BT" compile -t bootconfig -k 5.6 "$T/b.bconf"
	[ "$status" -eq 0 ]
	printf 'ftrace.event.sched.sched_switch.hist.keys = prev_pid\n' > "$T/h.bconf"
	run "$BT" compile -t bootconfig -k 5.14 "$T/h.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"needs kernel 5.15 or later"* ]]
	run "$BT" compile -t bootconfig -k 5.15 "$T/h.bconf"
	[ "$status" -eq 0 ]
}

@test "board limit: a line of exactly COMMAND_LINE_SIZE-1 bytes passes, one more fails" {
	# "x=" + value + " boottrace.enable=1": the line is 1023 bytes.
	v=$(head -c 1002 /dev/zero | tr '\0' a)
	printf 'kernel.x = %s\n' "$v" > "$T/e.bconf"
	run "$BT" compile -b rpi4 "$T/e.bconf"
	[ "$status" -eq 0 ]
	[ "${#output}" -eq 1023 ]
	printf 'kernel.x = %sa\n' "$v" > "$T/e.bconf"
	run "$BT" compile -b rpi4 "$T/e.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the command line is 1024 bytes, but the arm64 kernel keeps at most 1023"* ]]
}

@test "bootconfig node limit of the target kernel" {
	{ printf 'ftrace.ftrace.filters = '; for i in $(seq 1 1100); do printf 'f%d, ' "$i"; done; printf 'last\n'; } > "$T/n.bconf"
	run "$BT" compile -t bootconfig -k 5.10 -o "$T/out" "$T/n.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"would not load: Too many nodes"*"node limit 1024"* ]]
	run "$BT" compile -t bootconfig -k 6.1 -o "$T/out" "$T/n.bconf"
	[ "$status" -eq 0 ]
}

@test "an instance's tracer option would be lost: refused, or dropped from the text" {
	printf 'ftrace.instance.x.tracer = function\nftrace.instance.x.options = func_stack_trace, sym-addr\n' > "$T/ix.bconf"
	run "$BT" compile -t bootconfig -k 6.1 "$T/ix.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ix.bconf:2:"*"option 'func_stack_trace' of instance 'x'"* ]]
	run "$BT" compile -t bootconfig -k 6.1 --allow-drop -o "$T/out" "$T/ix.bconf"
	[ "$status" -eq 0 ]
	grep -qx 'ftrace.instance.x.options = "sym-addr"' "$T/out"
}

@test "hook settings: every key the hook reads, numbers and switches checked" {
	printf 'boottrace.timeout = 2\nboottrace.init = /sbin/init\nboottrace.stop = no\nboottrace.max_kb = 512\n' > "$T/h.bconf"
	run "$BT" compile "$T/h.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "boottrace.timeout=2 boottrace.init=/sbin/init boottrace.stop=no boottrace.max_kb=512" ]
	printf 'boottrace.max_kb = lots\n' > "$T/h.bconf"
	run "$BT" compile "$T/h.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"h.bconf:1:11: error: boottrace.max_kb 'lots' is not a number"* ]]
}

@test "-o through a symlink: the link stays, its target is replaced, mode kept (util/atomic.c)" {
	printf 'old\n' >"$T/real.cmdline"
	chmod 0640 "$T/real.cmdline"
	ln -s real.cmdline "$T/link.cmdline"
	run "$BT" compile -k 4.9 -o "$T/link.cmdline" "$D/bond0.bconf"
	[ "$status" -eq 0 ]
	[ -L "$T/link.cmdline" ]
	[ "$(stat -c %a "$T/real.cmdline")" = 640 ]
	grep -q '^ftrace=function ' "$T/real.cmdline"
	[ -z "$(find "$T" -name '*.boottrace-*')" ]
}

@test "--hook-settings: the hook's boottrace.* settings go to a file for /etc/boottrace.conf, not onto the line" {
	printf 'ftrace.tracer = function\nboottrace {\n\tarm = "bond_create:mod:bonding", "bonding_init:mod:bonding"\n\traw = yes\n}\n' >"$T/arm.bconf"
	run "$BT" compile -k 6.1 --hook-settings "$T/hs.conf" "$T/arm.bconf"
	[ "$status" -eq 0 ]
	# only the word that asks the hook into the boot (the file does not ask)
	[ "$(printf '%s\n' $output | grep -c '^boottrace\.')" -eq 1 ]
	[[ " $output " == *" boottrace.enable=1 "* ]]
	grep -qx 'boottrace.arm = "bond_create:mod:bonding,bonding_init:mod:bonding"' "$T/hs.conf"
	grep -qx 'boottrace.raw = "yes"' "$T/hs.conf"
	run "$BT" compile -k 6.1 "$T/arm.bconf"
	[[ "$output" == *"boottrace.arm=bond_create:mod:bonding,bonding_init:mod:bonding"* ]]
	run "$BT" compile -k 6.1 -t bootconfig --hook-settings "$T/hs2.conf" "$T/arm.bconf"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--hook-settings goes with the command-line targets"* ]]
	[ ! -e "$T/hs2.conf" ]
}

@test "mips-malta: 255 bytes reach the kernel, 48 of them QEMU's own; a longer line is refused, --hook-settings makes it fit" {
	callers=bond_create:mod:bonding,bonding_init:mod:bonding,bond_enslave:mod:bonding,bond_netdev_event:mod:bonding,bond_open:mod:bonding,bond_close:mod:bonding,bond_init:mod:bonding
	run "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1 --callers "$callers"
	[ "$status" -eq 1 ]
	[[ "$output" == *"gets at most 207 of them (a line of 256 bytes with the NUL, 48 taken by the loader's own words)"*"--hook-settings"* ]]
	run "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1 --callers "$callers" --hook-settings "$T/hs.conf"
	[ "$status" -eq 0 ]
	[[ "$output" != *boottrace.arm* ]]
	grep -q '^boottrace.arm = "bond_create:mod:bonding,bonding_init:mod:bonding,bond_enslave:mod:bonding' "$T/hs.conf"
}

@test "-t bootconfig: a kernel.bootconfig key is not written into the bootconfig, where it would do nothing; the line gets the word once" {
	printf 'ftrace.tracer = function\nkernel.bootconfig\n' > "$T/kb.bconf"
	run --separate-stderr "$BT" compile -k 6.1 -t bootconfig "$T/kb.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"kernel.bootconfig"* ]]
	[[ "$stderr" == *"add to the kernel command line: bootconfig" ]]
}

@test "-t bootconfig: the words still to add are said in the verb's voice (bt_say), and -q keeps them: without them the bootconfig does nothing" {
	printf 'ftrace.tracer = function\n' > "$T/kb.bconf"
	run --separate-stderr "$BT" compile -k 6.1 -t bootconfig "$T/kb.bconf"
	[ "$status" -eq 0 ]
	[ "${stderr_lines[-1]}" = "boottrace compile: add to the kernel command line: bootconfig" ]
	run --separate-stderr "$BT" compile -q -k 6.1 -t bootconfig "$T/kb.bconf"
	[ "$status" -eq 0 ]
	[ "$stderr" = "boottrace compile: add to the kernel command line: bootconfig" ]
	run --separate-stderr "$BT" compile -q -k 6.1 -t bootconfig -o "$T/kb.out" "$T/kb.bconf"
	[ "$output" = "bootconfig" ]
	[ -z "$stderr" ]
}

@test "hook settings the hook would refuse at boot are refused at their place (its ranges and destinations)" {
	for v in 'max_kb = 0' 'max_kb = 4194305' 'max_kb = 99999999999999999999' 'timeout = 3601' 'snapshot = foo' 'snapshot = /dev/'; do
		printf 'boottrace.%s\n' "$v" > "$T/h.bconf"
		run "$BT" compile "$T/h.bconf"
		[ "$status" -eq 1 ] || { echo "accepted: $v"; false; }
		[[ "$output" == *"h.bconf:1:11: error: boottrace."* ]]
	done
	for v in 'max_kb = 0010' 'timeout = 0' 'snapshot = LABEL=boot' 'snapshot = /dev/vdb'; do
		printf 'boottrace.%s\n' "$v" > "$T/h.bconf"
		run "$BT" compile "$T/h.bconf"
		[ "$status" -eq 0 ] || { echo "refused: $v: $output"; false; }
	done
}
