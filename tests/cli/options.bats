#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One option table per verb (issue 33, bootcfg/cmd/cmd_opt.h): every option
# a verb accepts is in its --help, its man page's OPTIONS, the completion,
# and boottrace --help's verb lines come from the same tables. The tables
# are read from boottrace --list-options (BT_TABLE: another binary's, to
# hold an older build's --help against them).

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$(cd "$B" && pwd)/boottrace"
	TAB="${BT_TABLE:-$BT}"
	R="$BATS_TEST_DIRNAME/../.."
	M="$R/docs/man"
	C="$R/completion/boottrace"
	H="$BATS_TEST_DIRNAME/helpers/options-vs-man.py"
	T="$BATS_TEST_TMPDIR"
	"$TAB" --list-options >"$T/list"
}

verbs() { cut -f1 "$T/list" | uniq; }

# The long options of VERB, hidden ones aside (an old spelling).
longs() { awk -F '\t' -v v="$1" '$1 == v && $2 != "-" && $5 != "hidden" { print $2 }' "$T/list"; }

@test "the listing: every verb, one line per option, its common options too" {
	[ "$(verbs | tr '\n' ' ')" = "ask compile decompile bootconfig boards report collect check arm-boot disarm-boot try " ]
	for v in $(verbs); do
		for o in --quiet --verbose --help; do
			grep -q "^$v	$o	" "$T/list" || { echo "$v: no $o"; false; }
		done
	done
	grep -qx 'compile	--target	-t	TARGET	-	cmdline,bootconfig,.*' "$T/list"
	grep -qx 'report	--format	-f	FORMAT	-	text,json,folded,html,svg,perfetto' "$T/list"
	grep -qx 'arm-boot	--loader	-	LOADER	-	grub,uboot-env,systemd-boot' "$T/list"
	grep -qx 'ask	--loader	-	LOADER	-	grub,uboot-env,systemd-boot' "$T/list"
	run "$TAB" --list-options no-such-verb
	[ "$status" -eq 2 ]
}

@test "every long option of every verb is in that verb's --help" {
	for v in $(verbs); do
		"$BT" "$v" --help >"$T/help"
		for o in $(longs "$v"); do
			grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" "$T/help" || { echo "$v: $o not in --help"; false; }
		done
	done
}

@test "every verb's man page OPTIONS list its table's options, and no other" {
	for v in $(verbs); do
		python3 "$H" "$T/list" "$M/boottrace.1" options "$v"
	done
	python3 "$H" "$T/list" "$M/boottrace-arm-boot.1" options arm-boot,disarm-boot OPTIONS
}

@test "the man pages' SYNOPSIS name no option the tables lack" {
	python3 "$H" "$T/list" "$M/boottrace.1" synopsis
	python3 "$H" "$T/list" "$M/boottrace-arm-boot.1" synopsis
}

@test "the man page check sees an option missing from the page, and one the table lacks" {
	sed 's/^\.B \\-\\-print\\-events$/.B \\-\\-print\\-eventz/' "$M/boottrace.1" >"$T/m.1"
	run python3 "$H" "$T/list" "$T/m.1" options check
	[ "$status" -eq 1 ]
	[ "$output" = "$(printf 'check: --print-events in the option table, not in the man page\ncheck: --print-eventz in the man page, not in the option table')" ]
	sed 's/^\.RB \[ \\-\\-keep\\-bootargs \]$/.RB [ \\-\\-keep\\-bootargs ] [ \\-\\-bogus ]/' "$M/boottrace.1" >"$T/s.1"
	run python3 "$H" "$T/list" "$T/s.1" synopsis
	[ "$status" -eq 1 ]
	[ "$output" = "compile: --bogus in the SYNOPSIS, not in the option table" ]
}

@test "the completion offers every long option of every verb, and each option's values" {
	comp() {
		(cd "$T" && bash --norc --noprofile -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _boottrace; printf "%s\n" "${COMPREPLY[@]}" | sort' "$C" "$@")
	}
	for v in $(verbs); do
		[ "$v" = bootconfig ] && continue	# the symlink's, below
		comp "$BT" "$v" -- >"$T/offered"
		for o in $(longs "$v"); do
			grep -qx -- "$o" "$T/offered" || { echo "$v: $o not completed"; false; }
		done
	done
	ln -s "$BT" "$T/bootconfig"
	comp "$T/bootconfig" -- >"$T/offered"
	for o in $(longs bootconfig); do
		grep -qx -- "$o" "$T/offered" || { echo "bootconfig: $o not completed"; false; }
	done
	awk -F '\t' '$6 != "-" { print $1, $2, $6 }' "$T/list" | while read -r v o values; do
		[ "$(comp "$BT" "$v" "$o" "" | tr '\n' ,)" = "$(tr , '\n' <<<"$values" | sort | tr '\n' ,)" ] ||
			{ echo "$v $o: not its values"; false; }
	done
}

@test "boottrace --help's verb lines are the tables': each verb, its key options, its summary" {
	"$BT" --help >"$T/help"
	[ "$(sed -n 's/^  \([a-z][a-z-]*\).*/\1/p' "$T/help" | tr '\n' ' ')" = "$(verbs | tr '\n' ' ')" ]
	grep -qx '  compile \[-t TARGET\] \[-b BOARD\] \[-k KVER\] CONFIG' "$T/help"
	grep -qx '  report \[-f text|json|folded|html|svg|perfetto\] \[--function FUNC\] \[INPUT...\]' "$T/help"
	grep -qx '  arm-boot --loader grub|uboot-env|systemd-boot \[-b BOARD\] \[-k KVER\] CONFIG | --line LINE' "$T/help"
	grep -qx '  boards' "$T/help"
	# each verb's usage lines name only options of its table
	for v in $(verbs); do
		"$BT" "$v" --help | sed -n 's/^\(usage:\|      \) boottrace '"$v"' //p' >"$T/usage"
		for o in $(grep -oE -- '(^|[ [|])--?[a-zA-Z][a-z-]*' "$T/usage" | sed 's/^[ [|]//' | sort -u); do
			grep -q "^$v	\($o	\|[^	]*	$o	\)" "$T/list" || { echo "$v: $o in its usage, not in its table"; false; }
		done
	done
}

@test "report's formats: one table for -f, its errors, its help and the completion" {
	"$BT" report --help >"$T/help"
	for f in text json folded html svg perfetto; do
		grep -qE "^ +$f +" "$T/help" || { echo "no $f"; false; }
	done
	run "$BT" report -f pdf x
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "boottrace report: error: -f takes text, json, folded, html, svg or perfetto" ]
	run "$BT" report --diff a -f svg b
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "boottrace report: error: --diff A B writes -f text, json or html" ]
}

@test "every option of every table is accepted by its verb's parser (then --help)" {
	awk -F '\t' '{ print $1, ($2 != "-" ? $2 : $3), $4 }' "$T/list" | while read -r v o arg; do
		[ "$o" = --help ] || [ "$o" = -h ] && continue
		if [ "$arg" = - ]; then set -- "$o"; else set -- "$o" 1; fi
		run "$BT" "$v" "$@" --help
		[ "$status" -eq 0 ] || { echo "$v $*: $status $output"; false; }
	done
}

@test "arm-boot's --loader values are the loaders arm-boot takes" {
	want=$(awk -F '\t' '$1 == "arm-boot" && $2 == "--loader" { gsub(/,/, ", ", $6); print $6 }' "$T/list")
	run "$BT" arm-boot --loader bogus --line 'a b' --root "$T"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--loader bogus: unknown; arm-boot knows $want" ]] || { echo "$output / $want"; false; }
}
