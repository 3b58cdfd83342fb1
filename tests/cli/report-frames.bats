#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Frame names the report checks (issue 22, docs/report.md "Names the report
# checks"): debian-6.1-amd64-frames.trace is a real boot read after dummy
# was loaded into bonding's freed init code, with sym-offset frames and a
# kprobe sharing the call site (tests/data/traces/README.md).

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	F="$D/debian-6.1-amd64-frames.trace"
}

@test "text: bonding's init is named as such, never as the module loaded there later" {
	run "$BT" report --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [init of bonding] -> bond_create [bonding] -> register_netdevice"* ]]
	[[ "$output" != *"culprit: dummy_change_carrier"* ]]
	[[ "$output" == *"! 1 frame of module init code was named after a module loaded later into that memory"*"e.g. dummy_change_carrier [dummy]"* ]]
	# dummy's own init, loaded by modprobe, keeps its name
	run "$BT" report -f folded --function register_netdevice "$F"
	[[ "$output" == *";do_one_initcall;dummy_init_module_[dummy];register_netdevice 1"* ]]
}

@test "ftrace's own frames are left out of callers and named in one evidence line" {
	run "$BT" report --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"carry an ftrace trampoline frame (0xffffffffc0383083, arch_ftrace_ops_list_func, ftrace_regs_call)"* ]]
	callers=$(printf '%s\n' "$output" | sed -n '/callers (/,/^$/p')
	[[ "$callers" != *arch_ftrace_ops_list_func* ]]
	[[ "$callers" != *ftrace_regs_call* ]]
	[[ "$callers" == *"[init of bonding]"* ]]
}

@test "folded and json carry the checked name; json keeps the trace's under renamed[]" {
	run "$BT" report -f folded --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"do_one_initcall;[init_of_bonding];bond_create_[bonding];register_netdevice 1"* ]]
	[[ "$output" != *dummy_change_carrier* ]]
	[[ "$output" != *arch_ftrace_ops_list_func* ]]
	run "$BT" report -f json --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"renamed": [{"frame": "dummy_change_carrier", "as": "[init of bonding]", "why": "freed-init"}]'* ]]
	[[ "$output" == *'"callers": ['*'"do_one_initcall", "[init of bonding]", "bond_create", "register_netdevice"]'* ]]
}

@test "the lineage capture (no sym-offset) read late: the same check from the module events" {
	run "$BT" report "$D/debian-6.1-amd64-lineage.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [init of bonding] -> bond_create -> register_netdevice"* ]]
	[[ "$output" != *"culprit: dummy_change_carrier"* ]]
}

@test "no module_load events: the init names are marked unverified and the report says why" {
	run "$BT" report "$D/debian-6.1-amd64-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
	[[ "$output" != *"culprit: bonding_init"* ]]
	[[ "$output" == *"so the name is shown as [unverified NAME]"* ]]
	[[ "$output" == *"! 1 stack runs a module's init (do_init_module -> do_one_initcall -> bonding_init ...) and the trace has no module_load event of its task"* ]]
	[[ "$output" == *"trace module:module_load to have each checked, and trace_options=sym-offset to have each frame's module printed (compile --who-calls does both)"* ]]
}

@test "html and svg show the checked name" {
	run "$BT" report -f html "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"[init of bonding]"* ]]
	# the flame graph draws the folded stacks (a blank is a separator there)
	run "$BT" report -f svg "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"[init_of_bonding] (1 hit,"* ]]
	[[ "$output" != *dummy_change_carrier* ]]
}

@test "kprobe hits join their call: counted once, their values shown with the culprit" {
	run "$BT" report --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nregister_netdevice: 4 hits, first 1.254900 s'* ]]
	[[ "$output" == *'kprobe values: name="bond%d" (1), name="bond1" (1), name="dummy%d" (1) (3 kprobe hits joined to the calls they were made in, not counted again); the kprobe'"'"'s first hit at 3.979217 s: calls before it were not probed'* ]]
	[[ "$output" == *'culprit: [init of bonding] -> bond_create [bonding] -> register_netdevice'$'\n''    by insmod-97, phase module-load, 1 hit, at 3.979217 s (stack trace)'$'\n''    recorded by its kprobe: name="bond%d" (1)'* ]]
	[[ "$output" == *'bond_newlink [bonding] -> register_netdevice'$'\n''    by ip-100'*$'\n''    recorded by its kprobe: name="bond1" (1)'* ]]
	run "$BT" report -f json --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"kprobe": {"joined": 3, "values": [{"values": "name=\"bond%d\"", "count": 1}'* ]]
	[[ "$output" == *'"recorded": [{"values": "name=\"bond1\"", "count": 1}]'* ]]
}

@test "a kprobe with no function hit to join (tracer nop) is a hit of its own, with its values" {
	run "$BT" report "$D/debian-6.1-amd64-kprobe.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"register_netdevice (event): 1 hit"* ]]
	[[ "$output" == *'kprobe values: name="bond%d" (1)'* ]]
	[[ "$output" != *"joined"* ]]
}

@test "sym-offset's [module] is kept and shown: chains, parents, callers, folded, html; json's modules{}" {
	run "$BT" report --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"  parents: register_netdev (1), bond_create [bonding] (1), bond_newlink [bonding] (1), dummy_init_module [dummy] (1)"* ]]
	[[ "$output" == *$'\n''           1              bond_create [bonding]'$'\n'* ]]
	[[ "$output" == *"culprit: dummy_init_module [dummy] -> register_netdevice"* ]]
	run "$BT" report -f html --function register_netdevice "$F"
	[[ "$output" == *"bond_create [bonding]"* ]]
	run "$BT" report -f json --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *'"modules": {"bond_create": "bonding", "dummy_change_carrier": "dummy", "bond_newlink": "bonding", "dummy_init_module": "dummy"},'* ]]
	# json names stay the kernel's symbols
	[[ "$output" == *'"parents": [{"name": "register_netdev", "hits": 1}, {"name": "bond_create", "hits": 1}'* ]]
	# the same capture without sym-offset: no module to show, none made up
	sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+//g; s/ \[[a-z_0-9]+\]$//' "$F" >"$BATS_TEST_TMPDIR/plain.trace"
	run "$BT" report --function register_netdevice "$BATS_TEST_TMPDIR/plain.trace"
	[[ "$output" == *"culprit: dummy_init_module -> register_netdevice"* ]]
	[[ "$output" != *"[bonding]"* ]]
	run "$BT" report -f json "$BATS_TEST_TMPDIR/plain.trace"
	[[ "$output" == *'"modules": {},'* ]]
	# and the two boots' culprits are the same callers
	run "$BT" report --function register_netdevice --diff "$F" "$BATS_TEST_TMPDIR/plain.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit in both: [init of bonding] -> bond_create [bonding] -> register_netdevice"* ]]
	[[ "$output" == *"culprit in both: dummy_init_module [dummy] -> register_netdevice"* ]]
	[[ "$output" != *"culprit only"* ]]
}

@test "a module function's own [module] before <- keeps its parent column" {
	printf '# tracer: function\n          insmod-98      [001] ...1.     4.000000: veth_newlink+0x0/0x90 [veth] <-rtnl_newlink+0x40/0x90\n' >"$BATS_TEST_TMPDIR/v.trace"
	run "$BT" report "$BATS_TEST_TMPDIR/v.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"veth_newlink [veth]: 1 hit"* ]]
	[[ "$output" == *"culprit: rtnl_newlink -> veth_newlink [veth]"* ]]
}

@test "html: each call's object line comes first, as in the text" {
	run "$BT" report -f html --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *'<div class="object">bond1: network device created by ip-100, via bond_newlink [bonding] -&gt; register_netdevice</div>'$'\n''<div class="culprit">'* ]]
	[[ "$output" == *'<div class="object">bond%d (a name pattern: register_netdevice records the name at its entry'* ]]
	# lo's call came before the kprobe: no object made up for it
	[ "$(printf '%s\n' "$output" | grep -c 'class="object"')" -eq 3 ]
}
