#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Long work shows progress on a terminal and nothing in a pipe (issue 20,
# part 7): `boottrace check` under script(1), which gives it a real
# pseudo-terminal, and the shell helper scripts/progress.sh the same way.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	S="$BATS_TEST_DIRNAME/../../scripts/progress.sh"
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

@test "compile --check and --who-calls over a vmlinux on a terminal: the line, gone before the output" {
	inputs
	on_tty "'$BT' compile --vmlinux '$T/vmlinux' --modules '$T/m' '$T/c.bconf'"
	grep -q $'\rboottrace compile: reading symbols 0/[0-9]* (0%)\e\[K' "$T/tty"
	# erased before the first finding, and the compiled line after it
	grep -q $'\r\e\[K'"$T/c.bconf:1:15: note: f10 found in vmlinux" "$T/tty"
	grep -q '^ftrace_filter=f10' "$T/tty"
	# parent-chain mode finds the callers in the same inputs
	on_tty "'$BT' compile --who-calls f10 -b mips-malta -k 6.1 --vmlinux '$T/vmlinux' --modules '$T/m'"
	grep -q $'\rboottrace compile: reading symbols' "$T/tty"
	# what stays on screen of each line (after its last \r) is never the progress
	! awk -F'\r' '$NF ~ /boottrace compile: reading/' "$T/tty" | grep -q .
	tr -d '\r' <"$T/tty" | grep -q '^ftrace=function ftrace_filter=f10,f11,f12,f13 boottrace.arm=bond_create:mod:bonding$'
	# in a pipe: not one byte of it
	"$BT" compile --vmlinux "$T/vmlinux" --modules "$T/m" "$T/c.bconf" >"$T/out" 2>"$T/err"
	! grep -q 'boottrace compile: reading' "$T/err"
	! grep -q $'\e' "$T/err"
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
	# -q: errors only, so no progress line on a terminal either
	on_tty "'$BT' check -q --vmlinux '$T/vmlinux' --modules '$T/m' '$T/c.bconf'"
	! grep -q 'boottrace check: reading' "$T/tty"
}

# scripts/progress.sh: a stage that takes 2 s, as the e2e suites and
# selfbuilt-kernel.sh run theirs
stage_script() {
	cat >"$T/stage.sh" <<SH
set -eu
. '$S'
echo '  CC      kernel/fork.o' >'$T/build.log'
progress_run -k -t '$T/build.log' "building" sh -c 'echo out; echo err >&2; sleep 2'
echo "rc=\$?"
progress_run -o '$T/qemu.log' "booting x" sh -c 'echo hidden; exit 3' || echo "rc=\$?"
progress_run -k "failing" sh -c 'exit 4' || echo "rc=\$?"
SH
}

@test "progress.sh on a terminal: a line redrawn with the time and the log's last line, kept per stage" {
	stage_script
	on_tty "sh '$T/stage.sh'"
	grep -q $'\rbuilding \.\.\. [0-9] s: CC kernel/fork\.o\e\[K' "$T/tty"
	grep -q $'\r\e\[Kbuilding: [0-9] s\r$' "$T/tty"
	grep -q '^out' "$T/tty"
	grep -q '^err' "$T/tty"
	grep -q '^rc=0' "$T/tty"
	# -o: the command's output goes to its log, the status comes back
	! grep -q hidden "$T/tty"
	[ "$(cat "$T/qemu.log")" = hidden ]
	grep -q 'rc=3' "$T/tty"
	grep -q $'\e\[Kfailing: failed after [0-9] s (exit 4)\r$' "$T/tty"
	grep -q '^rc=4' "$T/tty"
}

@test "progress.sh in a pipe, on a dumb terminal, with BT_QUIET=1: the command's own bytes only" {
	stage_script
	sh "$T/stage.sh" >"$T/out" 2>"$T/err"
	[ "$(cat "$T/err")" = err ]
	[ "$(cat "$T/out")" = "out
rc=0
rc=3
rc=4" ]
	TERM=dumb on_tty "sh '$T/stage.sh'"
	[ "$(tr -d '\r' <"$T/tty")" = "out
err
rc=0
rc=3
rc=4" ]
	BT_QUIET=1 on_tty "sh '$T/stage.sh'"
	! grep -q $'\e' "$T/tty"
	# stderr a file, stdout the terminal: nothing drawn
	on_tty "sh '$T/stage.sh' 2>'$T/err2'"
	[ "$(cat "$T/err2")" = err ]
}

# make deps (scripts/deps.sh) with apt-get, dpkg-query and id faked: -q in
# a pipe, apt's own progress (no -q) on a terminal
@test "make deps: apt-get -q in a pipe, its progress on a terminal" {
	mkdir -p "$T/bin"
	printf '#!/bin/sh\nexit 1\n' >"$T/bin/dpkg-query"
	printf '#!/bin/sh\necho 0\n' >"$T/bin/id"
	printf '#!/bin/sh\necho "apt-get $*"\n' >"$T/bin/apt-get"
	chmod +x "$T/bin/"*
	D="$BATS_TEST_DIRNAME/../../scripts/deps.sh"
	PATH="$T/bin:$PATH" sh "$D" >"$T/out" 2>&1 </dev/null
	grep -qx 'apt-get -q update' "$T/out"
	grep -q '^apt-get -q install -y --no-install-recommends ' "$T/out"
	PATH="$T/bin:$PATH" on_tty "sh '$D'"
	grep -q $'^apt-get update\r$' "$T/tty"
	grep -q '^apt-get install -y --no-install-recommends ' "$T/tty"
	! grep -q 'apt-get -q' "$T/tty"
}
