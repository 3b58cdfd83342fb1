#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# compile -t uboot-script, uboot-scr, uboot-env, uboot-envimage: the
# tracing words merged into the board's bootargs (issue 14, class 4).
# Real U-Boot reads them back in tests/e2e/uboot.sh.

bats_require_minimum_version 1.5.0

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	T="$BATS_TEST_TMPDIR"
	export BOOTTRACE_BOARD_DIR="$BATS_TEST_DIRNAME/../../board"
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, bond_create\nftrace.options = func_stack_trace\n' > "$T/trace.bconf"
	WORDS="ftrace=function ftrace_filter=register_netdevice,bond_create trace_options=func_stack_trace boottrace.enable=1"
	BASE='console=ttyAMA0 root=/dev/vda2 ftrace=nop rootwait'
	MERGED='console=ttyAMA0 root=/dev/vda2 ftrace=function rootwait ftrace_filter=register_netdevice,bond_create trace_options=func_stack_trace boottrace.enable=1'
}

@test "uboot forms without a base refuse, saying what to give" {
	for t in uboot-script uboot-env; do
		run "$BT" compile -t $t -b qemu-arm64-uboot "$T/trace.bconf"
		[ "$status" -eq 2 ]
		[[ "$output" == *"give --base 'LINE' or --base-file FILE"*"board.cmdline.base"*"--keep-bootargs"* ]]
	done
	for t in uboot-scr uboot-envimage; do
		run "$BT" compile -t $t -b qemu-arm64-uboot -o "$T/out.$t" "$T/trace.bconf"
		[ "$status" -eq 2 ]
		[ ! -e "$T/out.$t" ]
	done
}

@test "uboot-script and uboot-env merge into --base: root= and console= kept, stale words replaced" {
	run --separate-stderr "$BT" compile -t uboot-script -b qemu-arm64-uboot --base "$BASE" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "setenv bootargs '$MERGED'" ]
	# fw_printenv's form, from a file
	printf 'bootargs=%s\n' "$BASE" > "$T/env.txt"
	run --separate-stderr "$BT" compile -t uboot-env -b qemu-arm64-uboot --base-file "$T/env.txt" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "bootargs=$MERGED" ]
	# words after -- go to init: the tracing words go before it
	run --separate-stderr "$BT" compile -t uboot-env -b qemu-arm64-uboot --base 'root=/dev/vda2 -- single' "$T/trace.bconf"
	[ "$output" = "bootargs=root=/dev/vda2 $WORDS -- single" ]
}

@test "uboot forms take the profile's board.cmdline.base; --keep-bootargs and --base do not mix" {
	cp "$BOOTTRACE_BOARD_DIR/qemu-arm64-uboot.bconf" "$T/my.bconf"
	printf 'board.cmdline.base = "%s"\n' "$BASE" >> "$T/my.bconf"
	run --separate-stderr "$BT" compile -v -t uboot-env -b "$T/my.bconf" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "bootargs=$MERGED" ]
	[[ "$stderr" == *"merging into board.cmdline.base of $T/my.bconf"* ]]
	run "$BT" compile -t uboot-scr -b "$T/my.bconf" -o "$T/boot.scr" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[ -s "$T/boot.scr" ]
	# --base wins over the profile
	run --separate-stderr "$BT" compile -t uboot-env -b "$T/my.bconf" --base 'root=/dev/sda1' "$T/trace.bconf"
	[ "$output" = "bootargs=root=/dev/sda1 $WORDS" ]
	# --keep-bootargs takes the line at run time: the profile's is not used
	run --separate-stderr "$BT" compile -t uboot-script -b "$T/my.bconf" --keep-bootargs "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *root=* ]]
	run "$BT" compile -t uboot-script -b qemu-arm64-uboot --keep-bootargs --base "$BASE" "$T/trace.bconf"
	[ "$status" -eq 2 ]
	[[ "$output" == *"give one of them"* ]]
}

@test "uboot --keep-bootargs names no variable: the old value is never parsed by hush" {
	run --separate-stderr "$BT" compile -t uboot-script -b qemu-arm64-uboot --keep-bootargs "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" != *'${'* ]]
	[[ "$output" == *"setexpr bootargs sub '^.+\$' '\\\\0 $WORDS'"* ]]
}
