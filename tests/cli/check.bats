#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace check from the outside, on small inputs made here (the real
# Debian kernel is tests/e2e/check.sh).

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data"
	T="$BATS_TEST_TMPDIR"
	cat >"$T/System.map" <<'MAP'
ffffffff817b45f0 T register_netdevice
ffffffff817b5000 T register_netdev
ffffffff82000000 T _sinittext
ffffffff82000100 t net_dev_init
ffffffff82100000 T _einittext
ffffffff8324fc60 d __initcall__kmod_dev__1613_11668_net_dev_init4
MAP
}

@test "check: existing and near-miss names against a System.map" {
	printf 'ftrace.ftrace.filters = register_netdevice, register_netdev1ce\n' >"$T/c.bconf"
	run "$BT" check --system-map "$T/System.map" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"c.bconf:1:15: note: register_netdevice found in vmlinux; traceability not checked"* ]]
	[[ "$output" == *"c.bconf:1:15: error: ftrace filter 'register_netdev1ce' is not a function of this kernel (no --modules given"*"did you mean register_netdevice"* ]]
	[[ "$output" == *"check: 1 error(s), 0 warning(s)" ]]
}

@test "check: all names fine exits 0; json output" {
	printf 'ftrace.ftrace.filters = "register_*", net_dev_init\n' >"$T/c.bconf"
	run "$BT" check --system-map "$T/System.map" -f json "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == '{"schema": "boottrace-check", "version": 2, "errors": 0, "warnings": 0, "findings": ['* ]]
	[[ "$output" == *'"name": "register_*", "message": "'"'"'register_*'"'"' matches 2 function(s)'* ]]
	[[ "$output" == *"subsys_initcall (level 4)"* ]]
}

@test "check: .config options the plan needs are errors naming the option" {
	printf 'CONFIG_FTRACE=y\n# CONFIG_FUNCTION_TRACER is not set\nCONFIG_UNWINDER_GUESS=y\n' >"$T/config"
	printf 'ftrace.tracer = function\nftrace.options = func_stack_trace\nftrace.event.kprobes.a.probes = register_netdev\n' >"$T/c.bconf"
	run "$BT" check --kernel-config "$T/config" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"c.bconf:1:8: error: function tracing needs CONFIG_FUNCTION_TRACER"* ]]
	[[ "$output" == *"func_stack_trace needs CONFIG_STACKTRACE"* ]]
	[[ "$output" == *"warning: func_stack_trace with the guess unwinder"* ]]
	[[ "$output" == *"a kprobe event needs CONFIG_KPROBE_EVENTS"* ]]
	[[ "$output" == *"no --vmlinux, --system-map or --root"* ]]
}

@test "check: bad inputs name the file and what was expected" {
	printf 'ftrace.tracer = function\n' >"$T/c.bconf"
	run "$BT" check --vmlinux "$T/nope" "$T/c.bconf"
	[ "$status" -eq 3 ]
	[[ "$output" == "$T/nope: error: cannot open (expected a vmlinux or a kernel module): No such file or directory" ]]
	run "$BT" check --vmlinux "$T/System.map" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == "$T/System.map: error: not an ELF file: expected a vmlinux"* ]]
	printf 'ffffffffffffffff B The real System.map is in the linux-image-6.1.0-56-cloud-amd64-dbg package\n' >"$T/placeholder"
	run "$BT" check --system-map "$T/placeholder" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == "$T/placeholder: error: a placeholder, not a symbol table: the distribution ships the real System.map in the linux-image-6.1.0-56-cloud-amd64-dbg package; "*"/usr/lib/debug/boot/vmlinux-6.1.0-56-cloud-amd64 as --vmlinux, or give the running board's /proc/kallsyms"* ]]
	mkdir -p "$T/root/boot"
	cp "$T/placeholder" "$T/root/boot/System.map-6.1.0-56-cloud-amd64"
	run "$BT" check --root "$T/root" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == "$T/root: error: no vmlinux"*"the real symbols are in the linux-image-6.1.0-56-cloud-amd64-dbg package"*"/proc/kallsyms"* ]]
	run "$BT" check --system-map "$T/System.map" --modules "$T" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no *.ko, *.ko.xz, *.ko.zst or *.ko.gz under this directory"* ]]
	run "$BT" check --system-map "$T/System.map" --vmlinux x "$T/c.bconf"
	[ "$status" -eq 2 ]
	run "$BT" check --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--callers FUNC"* ]]
}

@test "check --callers on a module made by gcc here" {
	command -v gcc >/dev/null
	mkdir -p "$T/m"
	printf 'extern int register_netdevice(void *);\nint bond_create(void *p) { return register_netdevice(p); }\nint bonding_init(void) { return bond_create(0); }\n' >"$T/b.c"
	gcc -O2 -fno-inline -c -o "$T/m/bonding.ko" "$T/b.c"
	run "$BT" check --callers register_netdevice --modules "$T/m"
	[ "$status" -eq 0 ]
	[ "$output" = "register_netdevice
  <- bond_create [bonding]
    <- bonding_init [bonding]" ]
}

@test "check --modules alone: core names are not called missing, it says what to pass" {
	command -v gcc >/dev/null
	mkdir -p "$T/m"
	printf 'extern int register_netdevice(void *);\nint bond_create(void *p) { return register_netdevice(p); }\nint bonding_init(void) { return bond_create(0); }\n' >"$T/b.c"
	gcc -O2 -fno-inline -c -o "$T/m/bonding.ko" "$T/b.c"
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, "tcp_*"\nboottrace.arm = "bond_create:mod:bonding"\n' >"$T/c.bconf"
	run "$BT" check --modules "$T/m" "$T/c.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *"is not a function of this kernel"* ]]
	[[ "$output" != *"did you mean"* ]]
	[[ "$output" == *"c.bconf:2:15: note: ftrace filter 'register_netdevice' is in none of the modules given; core-kernel names cannot be checked without the kernel's symbols: give --vmlinux"*"--system-map"*"/proc/kallsyms"* ]]
	[[ "$output" == *"note: ftrace filter 'tcp_*' not checked: core-kernel names cannot be checked"* ]]
	[[ "$output" == *"note: bond_create found in module bonding"* ]]
	[[ "$output" == *"check: 0 error(s), 0 warning(s)" ]]
}

# compile --who-calls takes its callers from check's caller analysis; with
# nothing to analyse it must say what it could not do (issue 14, class 7).
@test "compile --who-calls without callers, vmlinux or modules says what it costs" {
	run "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace=function ftrace_filter=register_netdevice"* ]]
	[[ "$output" == *"warning: --who-calls: board mips-malta has no ftrace stacks (parent-chain mode), and without --callers, --vmlinux or --modules no callers of register_netdevice could be found"*"direct callers only"*"one more reboot"*"give --vmlinux"*"--modules /lib/modules/VER"*"--callers"* ]]
	run "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1 --print-config
	[[ "$output" == *"warning: --who-calls"*"one more reboot"* ]]
	run "$BT" compile --who-calls register_netdevice -b mips-malta -k 6.1 --callers bond_create:mod:bonding
	[ "$status" -eq 0 ]
	# the warnings left: Malta's short line has no room for the lineage nor the question's word
	[[ "$output" != *"no callers of"* ]]
	[ "$(printf '%s\n' "$output" | grep -c warning)" = 2 ]
	[[ "$output" == *"warning: --who-calls: board mips-malta's command line holds 207 bytes"*"lineage events"*"left out"* ]]
	[[ "$output" == *"warning: --who-calls: board mips-malta's command line holds 207 bytes"*"the question's words boottrace.ask and boottrace.follow"*"are left out"* ]]
	run "$BT" compile --who-calls register_netdevice -b qemu-x86_64 -k 6.1
	[ "$status" -eq 0 ]
	[[ "$output" != *"warning"* ]]
}
