#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# report --modules DIR (issue 22): a module's freed init code, shown as
# [init of M], named from M's .ko in a modules tree. The "module" is a real
# relocatable ELF object cc makes here, as module_init() lays one out (the
# init function in .init.text, init_module its alias), put where a Debian
# tree has bonding.ko; the trace is the real capture of
# debian-6.1-amd64-frames.trace (bonding's init read after dummy was loaded
# into it, docs/report.md "Names the report checks").

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$(cd "$B" && pwd)/boottrace"
	R="$BATS_TEST_DIRNAME/../.."
	D="$BATS_TEST_DIRNAME/../data/traces"
	F="$D/debian-6.1-amd64-frames.trace"
	T="$BATS_TEST_TMPDIR"
	cat >"$T/bonding.c" <<-'EOF'
	static int helper(int x) { return x + 1; }
	__attribute__((section(".init.text"), used)) int bonding_init(void) { return helper(0) - 1; }
	int init_module(void) __attribute__((alias("bonding_init")));
	__attribute__((section(".modinfo"), used)) static const char name[] = "name=bonding";
	EOF
	mkdir -p "$T/tree/kernel/drivers/net/bonding" "$T/xz/kernel/drivers/net/bonding" \
		"$T/other/kernel/net/tls"
	cc -c -O2 -o "$T/tree/kernel/drivers/net/bonding/bonding.ko" "$T/bonding.c"
	xz -c "$T/tree/kernel/drivers/net/bonding/bonding.ko" >"$T/xz/kernel/drivers/net/bonding/bonding.ko.xz"
	# a tree without bonding: another module only
	cp "$T/tree/kernel/drivers/net/bonding/bonding.ko" "$T/other/kernel/net/tls/tls.ko"
}

json() { # FILE EXPR: evaluate a python expression on the parsed JSON j
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

@test "--modules TREE: bonding's init is named from bonding.ko, still said to be its init" {
	run "$BT" report --function register_netdevice --modules "$T/tree" "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: bonding_init [init of bonding] -> bond_create [bonding] -> register_netdevice"* ]]
	[[ "$output" != *"dummy_change_carrier -> bond_create"* ]]
	[[ "$output" == *"1 frame of module init code named from the module's .ko under $T/tree: bonding_init (bonding, kernel/drivers/net/bonding/bonding.ko), at its init_module; the offset in it is unknown"*"e.g. dummy_change_carrier [dummy]"* ]]
	# the callers tree and the folded stacks carry the same name
	[[ "$output" == *"  bonding_init [init of bonding]"* ]]
	run "$BT" report -f folded --function register_netdevice --modules "$T/tree" "$F"
	[[ "$output" == *";do_one_initcall;bonding_init_[init_of_bonding];bond_create_[bonding];register_netdevice 1"* ]]
	# dummy's own init (not renamed) keeps its name
	[[ "$output" == *";do_one_initcall;dummy_init_module_[dummy];register_netdevice 1"* ]]
}

@test "--modules TREE with bonding.ko.xz: the same name" {
	run "$BT" report --function register_netdevice --modules "$T/xz" "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: bonding_init [init of bonding] -> bond_create"* ]]
	[[ "$output" == *"bonding_init (bonding, kernel/drivers/net/bonding/bonding.ko.xz)"* ]]
}

@test "-f json: renamed[] carries the resolved function" {
	"$BT" report -f json --function register_netdevice --modules "$T/tree" "$F" >"$T/r.json"
	r="[x for s in j['functions'][0]['stacks'] for x in s['renamed']]"
	[ "$(json "$T/r.json" "len($r)")" = 1 ]
	[ "$(json "$T/r.json" "$r[0]['frame']")" = dummy_change_carrier ]
	[ "$(json "$T/r.json" "$r[0]['as']")" = "bonding_init [init of bonding]" ]
	[ "$(json "$T/r.json" "$r[0]['why']")" = freed-init ]
	[ "$(json "$T/r.json" "$r[0]['function']")" = bonding_init ]
	[ "$(json "$T/r.json" "[f['code'] for f in j['findings'] if f['code'] == 'init-named']")" = "['init-named']" ]
	# without a tree: no function
	"$BT" report -f json --function register_netdevice "$F" >"$T/n.json"
	[ "$(json "$T/n.json" "'function' in $r[0]")" = False ]
}

@test "without --modules: [init of bonding] as before" {
	run "$BT" report --function register_netdevice "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [init of bonding] -> bond_create [bonding] -> register_netdevice"* ]]
	[[ "$output" != *"bonding_init"* ]]
}

@test "a module missing from the tree is said, not an error" {
	run "$BT" report --function register_netdevice --modules "$T/other" "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [init of bonding] -> bond_create"* ]]
	[[ "$output" == *"! a module's init is not named: no .ko of bonding under $T/other"*"give the modules tree of the kernel that booted"* ]]
}

@test "a .ko that does not name its init is said, not an error" {
	mkdir -p "$T/bad/kernel"
	echo 'not an ELF file' >"$T/bad/kernel/bonding.ko"
	run "$BT" report --function register_netdevice --modules "$T/bad" "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [init of bonding] -> bond_create"* ]]
	[[ "$output" == *"! 1 module's .ko under $T/bad did not name its init (shown as [init of MODULE]): $T/bad/kernel/bonding.ko: "* ]]
}

@test "a file given to --modules: the old meaning (--proc-modules) with a warning" {
	run "$BT" report --function register_netdevice --modules "$D/debian-6.1-amd64-frames.modules" "$F"
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: --modules $D/debian-6.1-amd64-frames.modules: a file, not a directory, so taken as the old spelling of --proc-modules"* ]]
	[[ "$output" == *"culprit: [init of bonding] -> bond_create"* ]]
	# the same report as --proc-modules
	a=$("$BT" report --modules "$D/debian-6.1-amd64-frames.modules" "$F" 2>/dev/null)
	b=$("$BT" report --proc-modules "$D/debian-6.1-amd64-frames.modules" "$F")
	[ "$a" = "$b" ]
}

@test "--modules: a directory that is no modules tree is an error naming it" {
	mkdir "$T/empty"
	run "$BT" report --modules "$T/empty" "$F"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/empty: error: no *.ko, *.ko.xz, *.ko.zst or *.ko.gz under this directory: expected a modules tree"* ]]
	run "$BT" report --modules "$T/nowhere" "$F"
	[ "$status" -ne 0 ]
	[[ "$output" == *"$T/nowhere: error: cannot open directory (expected a modules tree such as /lib/modules/VERSION)"* ]]
	# a tree and nothing to name: said so
	run "$BT" report --modules "$T/tree" "$D/debian-6.1-amd64-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no frame of a module's freed init code to name from the modules tree $T/tree"* ]]
}

@test "--help, the man page and completion know --modules DIR" {
	run "$BT" report --help
	[[ "$output" == *"--modules DIR"* ]]
	grep -q -- '^.BI \\-\\-modules " DIR"' "$R/docs/man/boottrace.1"
	mkdir "$T/mods"
	run bash --norc --noprofile -c 'cd "$1" && source "$2"
		COMP_WORDS=(boottrace report --modules mo); COMP_CWORD=3
		COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
		_boottrace; printf "%s\n" "${COMPREPLY[@]}"' _ "$T" "$R/completion/boottrace"
	[ "$output" = mods ]
}

@test "--modules TREE names a parent chain's init entry from the .ko too (no stacks, as on MIPS)" {
	{
		echo '# tracer: function'
		echo '         busybox-85      [000] .....     3.100000: module_load: bonding '
		echo '         busybox-85      [000] .....     3.109408: bonding_init <-do_one_initcall'
		echo '         busybox-85      [000] .....     3.111247: bond_create <-bonding_init'
		echo '         busybox-85      [000] .....     3.111300: register_netdevice <-bond_create'
		echo '         busybox-90      [000] .....     4.000000: module_load: sr_mod '
	} >"$T/chain.trace"
	run "$BT" report --function register_netdevice "$T/chain.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [init of bonding] -> bond_create -> register_netdevice"* ]]
	run "$BT" report --function register_netdevice --modules "$T/tree" "$T/chain.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: bonding_init [init of bonding] -> bond_create -> register_netdevice"* ]]
	[[ "$output" == *"1 frame of module init code named from the module's .ko under $T/tree: bonding_init (bonding, kernel/drivers/net/bonding/bonding.ko)"*"e.g. bonding_init)"* ]]
}
