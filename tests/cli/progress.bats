#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Long work shows progress on a terminal and nothing in a pipe (issue 20,
# part 7): `boottrace check` under script(1), which gives it a real
# pseudo-terminal.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	T="$BATS_TEST_TMPDIR"
	export TERM=xterm
}

# A "vmlinux" of 20000 functions, each calling the one before (assembled
# here: a second, where the C compiler takes several), and a modules tree
# with two modules.
inputs() {
	awk 'BEGIN { print ".text"; for (i = 0; i < 20000; i++) {
		printf ".globl f%d\n.type f%d,@function\nf%d:\n", i, i, i
		if (i) printf "\tcall f%d\n", i - 1
		printf "\tret\n.size f%d,.-f%d\n", i, i } }' >"$T/v.s"
	gcc -nostdlib -static -no-pie -Wl,-e,f0 -o "$T/vmlinux" "$T/v.s"
	mkdir -p "$T/m/net"
	printf '.text\n.globl bond_create\n.type bond_create,@function\nbond_create:\n\tcall f10\n\tret\n.size bond_create,.-bond_create\n' >"$T/b.s"
	gcc -c -o "$T/m/net/bonding.ko" "$T/b.s"
	gcc -c -o "$T/m/dummy.ko" "$T/b.s"
	printf 'ftrace.ftrace.filters = f10, "f199*"\nboottrace.arm = "bond_create:mod:bonding"\n' >"$T/c.bconf"
}

# on a terminal: CMD's bytes (stdout and stderr both on the pty) in $T/tty
on_tty() {
	script -qec "$*" /dev/null >"$T/tty" </dev/null
}

@test "check on a terminal: a progress line, redrawn in place and cleared before the findings" {
	inputs
	on_tty "'$BT' check --vmlinux '$T/vmlinux' --modules '$T/m' '$T/c.bconf'"
	# the first stage is drawn at once: what, done/total, percent
	grep -q $'\rboottrace check: reading symbols 0/[0-9]* (0%)\e\[K' "$T/tty"
	# the line is erased (no newline left behind) before the first finding
	grep -q $'\r\e\[K'"$T/c.bconf:1:15: note: f10 found in vmlinux" "$T/tty"
	grep -q 'check: 0 error(s), 0 warning(s)' "$T/tty"
	# every redraw is on the one line the first finding then takes over: no newline
	[ "$(grep -c 'boottrace check: reading' "$T/tty")" = 1 ]
}

@test "check --callers on a terminal: the progress line is gone before the tree" {
	inputs
	on_tty "'$BT' check --callers f10 --depth 2 --vmlinux '$T/vmlinux' --modules '$T/m'"
	grep -q $'\rboottrace check: reading symbols' "$T/tty"
	grep -q $'\r\e\[Kf10\r$' "$T/tty"
	grep -q 'bond_create \[bonding\]' "$T/tty"
}

@test "check in a pipe, on a dumb terminal: not one byte of progress" {
	inputs
	"$BT" check --vmlinux "$T/vmlinux" --modules "$T/m" "$T/c.bconf" >"$T/out" 2>"$T/err"
	[ ! -s "$T/err" ]
	# stderr a pipe, stdout the terminal
	on_tty "'$BT' check --vmlinux '$T/vmlinux' --modules '$T/m' '$T/c.bconf' 2>'$T/err2'"
	[ ! -s "$T/err2" ]
	! grep -q 'boottrace check: reading' "$T/tty"
	# the findings are the same bytes as without a terminal
	[ "$(tr -d '\r' <"$T/tty")" = "$(cat "$T/out")" ]
	TERM=dumb on_tty "'$BT' check --vmlinux '$T/vmlinux' --modules '$T/m' '$T/c.bconf'"
	! grep -q 'boottrace check: reading' "$T/tty"
	! grep -q $'\e' "$T/tty"
	env -u TERM script -qec "'$BT' check --vmlinux '$T/vmlinux' '$T/c.bconf'" /dev/null >"$T/tty" </dev/null
	! grep -q $'\e' "$T/tty"
}
