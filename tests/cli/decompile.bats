#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace decompile, and compile(decompile(x)) == x for tracing words.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	T="$BATS_TEST_TMPDIR"
}

# Words of a line, one per line, sorted (values here have no spaces).
sorted() { printf '%s\n' $1 | sort; }

# compile adds trace_clock=global where the kernel could switch clocks and
# empty the buffer (no -b: the architecture is unknown), so lines that trace
# carry a clock to come back unchanged
@test "round trip: the same words come back" {
	for x in \
		'ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_clock=global' \
		'console=ttyS0,115200 ftrace=function_graph ftrace_graph_filter=a,b ftrace_graph_max_depth=3 root=/dev/vda quiet trace_clock=local' \
		'trace_event=sched:*,irq:irq_handler_entry trace_buf_size=1M trace_clock=global tp_printk traceoff_on_warning ftrace_dump_on_oops=orig_cpu' \
		'ftrace=function ftrace_notrace=rcu_*,*spin* alloc_snapshot ftrace_boot_snapshot boottrace.arm=bond_create:mod:bonding boottrace.snapshot=console trace_clock=global' \
		'kprobe_event=p:kprobes/rnd,register_netdevice trace_event=kprobes:rnd console=tty0 console=ttyS0 trace_clock=counter -- single emergency'
	do
		"$BT" decompile "$x" > "$T/c.bconf"
		run "$BT" compile -k 6.1 "$T/c.bconf"
		[ "$status" -eq 0 ]
		[ "$(sorted "$output")" = "$(sorted "$x")" ] || { echo "in:  $x"; echo "out: $output"; false; }
	done
}

@test "quoted values and init words survive exactly" {
	x='foo="a b" ftrace=function -- x=1'
	"$BT" decompile "$x" > "$T/q.bconf"
	grep -qx 'kernel.foo = "a b"' "$T/q.bconf"
	grep -qx 'init.x = "1"' "$T/q.bconf"
	run "$BT" compile -b qemu-arm64-uboot "$T/q.bconf"
	[ "$output" = 'ftrace=function foo="a b" -- x=1' ]
}

@test "a repeated tracing parameter: the kernel keeps the last, so does decompile" {
	run "$BT" decompile 'trace_options=sym-addr quiet trace_options=func_stack_trace'
	[ "$status" -eq 0 ]
	[[ "$output" == *"appears again"* ]]
	[[ "$output" == *'ftrace.options = "func_stack_trace"'* ]]
	[[ "$output" != *'sym-addr'* ]]
}

@test "reads a file (as /proc/cmdline) and stdin" {
	printf 'ftrace=function quiet\n' > "$T/cmdline"
	run "$BT" decompile "$T/cmdline"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'ftrace.tracer = "function"\nkernel.quiet')" ]
	run sh -c "printf 'ftrace=nop\n' | '$BT' decompile -"
	[ "$output" = 'ftrace.tracer = "nop"' ]
}

@test "a parameter bootconfig cannot name is refused" {
	run "$BT" decompile 'a/b=1'
	[ "$status" -eq 1 ]
	[[ "$output" == *"'a/b'"*"keep it on the bootloader's line"* ]]
}
