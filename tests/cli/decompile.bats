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

# A line as compile writes it back: with the word that asks the hook into
# the boot when no boottrace.* word does (route_cmdline.c).
asked() { case " $1 " in *" boottrace."*) printf '%s' "$1" ;; *) printf '%s boottrace.enable=1' "$1" ;; esac; }

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
		[ "$(sorted "$output")" = "$(sorted "$(asked "$x")")" ] || { echo "in:  $x"; echo "out: $output"; false; }
	done
}

@test "quoted values and init words survive exactly" {
	x='foo="a b" ftrace=function -- x=1'
	"$BT" decompile "$x" > "$T/q.bconf"
	grep -qx 'kernel.foo = "a b"' "$T/q.bconf"
	grep -qx 'init.x = "1"' "$T/q.bconf"
	run "$BT" compile -b qemu-arm64-uboot "$T/q.bconf"
	[ "$output" = 'ftrace=function boottrace.enable=1 foo="a b" -- x=1' ]
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

# The tracing words of a line (kernel side, before "--"), names with '-' read
# as '_' (the kernel's parameq), one per line, sorted.
tracing() {
	printf '%s\n' $1 | awk '$0 == "--" { exit }
		{ n = $0; sub(/=.*/, "", n); v = substr($0, length(n) + 1); gsub(/-/, "_", n)
		  if (n ~ /^(ftrace|ftrace_[a-z_]+|trace_[a-z_]+|tp_printk[a-z_]*|kprobe_event|alloc_snapshot|traceoff_on_warning|boottrace\..+)$/) print n v }' | sort
}

# decompile -> compile on real /proc/cmdline lines: the config parses and
# gives the same tracing words (issue 14, class 6). Each case: the line, then
# the tracing words the kernel acts on (a repeated replace-parameter: the
# last; no clock given: compile adds trace_clock=global).
@test "round trip of real /proc/cmdline lines: the same tracing words" {
	d="$BATS_TEST_DIRNAME/../data/traces"
	while IFS='|' read -r x want; do
		[ -n "$x" ] || continue
		"$BT" decompile "$x" >"$T/c.bconf" 2>"$T/err" || { echo "decompile: $x"; cat "$T/err"; false; }
		run "$BT" compile -k 6.1 "$T/c.bconf"
		[ "$status" -eq 0 ] || { echo "compile: $x: $output"; cat "$T/c.bconf"; false; }
		[ "$(tracing "$output")" = "$(printf '%s\n' $(asked "$want") | sort)" ] ||
			{ echo "in:  $x"; echo "out: $output"; cat "$T/c.bconf"; false; }
	done <<EOF
BOOT_IMAGE=/boot/vmlinuz-6.1.0-18-amd64 root=UUID=5f0c3b9a-1d2e-4c7b-9a8f-0e1d2c3b4a59 ro quiet ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace|ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_clock=global
BOOT_IMAGE=/vmlinuz-6.5.0-14-generic root=/dev/mapper/vgubuntu-root ro quiet splash vt.handoff=7 trace_event=sched:sched_switch,irq:* trace_buf_size=10M|trace_event=sched:sched_switch,irq:* trace_buf_size=10M trace_clock=global
BOOT_IMAGE=(hd0,gpt2)/vmlinuz-6.6.8-200.fc39.x86_64 root=UUID=2b1e5c3a-9f0d-4e7b-8a6c-1d2e3f4a5b6c ro rootflags=subvol=root rd.luks.uuid=luks-0a1b2c3d-4e5f-6789-abcd-ef0123456789 rd.lvm.lv=fedora/root rd.lvm=1 rhgb quiet ftrace=function_graph ftrace_graph_filter=do_one_initcall trace_clock=local|ftrace=function_graph ftrace_graph_filter=do_one_initcall trace_clock=local
coherent_pool=1M 8250.nr_uarts=1 snd_bcm2835.enable_headphones=0 bcm2708_fb.fbwidth=656 smsc95xx.macaddr=B8:27:EB:00:00:00 vc_mem.mem_base=0x3ec00000 console=ttyS0,115200 console=tty1 root=PARTUUID=12345678-02 rootfstype=ext4 fsck.repair=yes rootwait ftrace=function ftrace_notrace=rcu_*|ftrace=function ftrace_notrace=rcu_* trace_clock=global
intel_iommu=on iommu=pt iommu.passthrough=1 nvidia-drm.modeset=1 pcie_aspm=off mitigations=off ftrace=function ftrace_filter=register_netdevice trace_clock=global|ftrace=function ftrace_filter=register_netdevice trace_clock=global
console=ttyS0,115200 earlycon=uart8250,mmio32,0xfe215040 trace-event=sched:sched_switch trace-buf-size=1M trace_clock=global|trace_event=sched:sched_switch trace_buf_size=1M trace_clock=global
ftrace=function_graph ftrace_graph_filter=a ftrace_graph_filter=b trace_options=sym-addr trace_options=func_stack_trace trace_clock=global -- single init=/bin/sh ftrace=nop|ftrace=function_graph ftrace_graph_filter=b trace_options=func_stack_trace trace_clock=global
a/b=1 x.=2 a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p=1 foo foo=1 y=it's"x y" ftrace=nop trace_clock=global -- a/b c=it's"q"|ftrace=nop trace_clock=global
$(cat "$d/snapshot-amd64-stack/cmdline")|ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_clock=global boottrace.snapshot=console
$(cat "$d/snapshot-selfbuilt-clock-reset/cmdline")|ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_clock=global boottrace.at=rdinit boottrace.snapshot=console
EOF
}

@test "words the config keys cannot hold are named and kept as verbatim.* values that compile writes back; a tracing one is an error" {
	x='iommu=pt iommu.passthrough=1 a/b=1 a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p=1 foo foo=1 y=it'"'"'s"x y" ftrace=function -- c/d=1'
	"$BT" decompile "$x" >"$T/c.bconf" 2>"$T/err"
	cat "$T/err"
	grep -qF "'iommu.passthrough=1' kept as written in verbatim.kernel: the config cannot have 'kernel.iommu' with a value and 'kernel.iommu.passthrough'" "$T/err"
	grep -qF "'a/b=1' kept as written in verbatim.kernel: the name has a character config keys cannot hold ('/'" "$T/err"
	grep -qF "'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p=1' kept as written in verbatim.kernel: its key 'kernel.a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p' has 17 words, more than the 16" "$T/err"
	grep -qF "'foo=1' kept as written in verbatim.kernel: it appears both with and without a value" "$T/err"
	# both quote kinds: no config value holds it, only a comment
	grep -qF "'y=it's\"x y\"' kept verbatim in a comment: its value has both quote kinds" "$T/err"
	grep -qF "'c/d=1' kept as written in verbatim.init" "$T/err"
	grep -qxF 'verbatim.kernel = "iommu.passthrough=1", "a/b=1", "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p=1", "foo=1"' "$T/c.bconf"
	grep -qxF 'verbatim.init = "c/d=1"' "$T/c.bconf"
	grep -qxF '#	y=it'"'"'s"x y"' "$T/c.bconf"
	grep -qx 'kernel.iommu = "pt"' "$T/c.bconf"
	run "$BT" compile -k 6.1 "$T/c.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = 'ftrace=function trace_clock=global boottrace.enable=1 iommu=pt foo iommu.passthrough=1 a/b=1 a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p=1 foo=1 -- c/d=1' ]
	# a verbatim value is one word, and no tracing parameter
	printf 'verbatim.kernel = "a=1 b=2"\n' > "$T/v.bconf"
	run "$BT" compile -k 6.1 "$T/v.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"v.bconf:1:"*"verbatim.kernel 'a=1 b=2' is not one word"* ]]
	printf 'verbatim.kernel = "ftrace=function"\n' > "$T/v.bconf"
	run "$BT" compile -k 6.1 "$T/v.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"v.bconf:1:"*"is a tracing parameter: write it as its ftrace.* or kernel.* key"* ]]
	# the bootconfig target puts them on the bootloader's line
	run "$BT" compile -k 6.1 -t bootconfig "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"add to the kernel command line: iommu.passthrough=1 a/b=1 a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p=1 foo=1 bootconfig -- c/d=1"* ]]
	run "$BT" decompile 'trace_options=a"b'"'"'c ftrace=function'
	[ "$status" -eq 1 ]
	[[ "$output" == *"tracing parameter"*"cannot be written as a config: its value has both quote kinds"* ]]
}
