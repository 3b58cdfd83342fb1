#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion (completion/boottrace, issue 20 part 6): bash with the
# completion sourced, COMPREPLY for verbs, flags, -t targets, -b boards,
# formats and files; and make install puts it where bash-completion looks.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$(cd "$B" && pwd)/boottrace"
	R="$BATS_TEST_DIRNAME/../.."
	C="$R/completion/boottrace"
	T="$BATS_TEST_TMPDIR"
	# bt_make: make with the variables given and none inherited (a package
	# build's CFLAGS, a parent make's MAKEFLAGS, the Makefile's ?= ones)
	. "$R/tests/lib/testenv.sh"
}

# complete WORD...: COMPREPLY, sorted, one per line, for the command line
# WORD... (the last word is the one completed); runs in $T.
complete_line() {
	(cd "$T" && bash --norc --noprofile -c '
		source "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_boottrace
		printf "%s\n" "${COMPREPLY[@]}" | sort' "$C" "$@")
}

@test "completion: the verbs, then each verb's flags from its --help" {
	run complete_line "$BT" ""
	for v in compile decompile bootconfig boards report collect check --help --version; do
		grep -qx -- "$v" <<<"$output" || { echo "no $v"; false; }
	done
	run complete_line "$BT" re
	[ "$output" = report ]
	run complete_line "$BT" check --th
	[ "$output" = --threshold ]
	run complete_line "$BT" report --proc
	[ "$output" = --proc-modules ]
	run complete_line "$BT" boards -
	[ "$output" = "$(printf -- '--help\n--quiet\n--verbose\n-h\n-q\n-v')" ]
	ln -s "$BT" "$T/bootconfig"
	run complete_line "$T/bootconfig" --f
	[ "$output" = --force ]
}

@test "completion: -t targets, -b boards, -f formats, --crash modes" {
	run complete_line "$BT" compile -t uboot-s
	[ "$output" = "$(printf 'uboot-scr\nuboot-script')" ]
	run complete_line "$BT" compile -t ""
	[ "$(wc -l <<<"$output")" -eq "$("$BT" --list-options compile | awk -F '\t' '$2 == "--target" { print split($6, t, ",") }')" ]
	run complete_line "$BT" compile -b qemu-arm64
	[ "$output" = qemu-arm64-uboot ]
	run complete_line "$BT" compile -b ""
	[ "$(wc -l <<<"$output")" -eq "$(("$("$BT" boards | wc -l)" - 1))" ]
	run complete_line "$BT" report -f ""
	[ "$output" = "$(printf 'folded\nhtml\njson\nperfetto\nsvg\ntext')" ]
	run complete_line "$BT" check -f ""
	[ "$output" = "$(printf 'json\ntext')" ]
	run complete_line "$BT" compile --who-calls f --crash ""
	[ "$output" = "$(printf 'console\npersistent')" ]
}

@test "completion: ask's question words, its --loader values" {
	run complete_line "$BT" a
	[ "$output" = $'arm-boot\nask' ]
	run complete_line "$BT" ask who
	[ "$output" = $'who-calls\nwho-creates' ]
	run complete_line "$BT" ask --loader ""
	[ "$output" = $'grub\nsystemd-boot\nuboot-env' ]
	run complete_line "$BT" ask --dry
	[ "$output" = --dry-run ]
}

@test "completion: files for arguments, directories for --modules DIR (not report's)" {
	mkdir "$T/mods" "$T/modx"
	: >"$T/my.bconf"
	: >"$T/mods.txt"
	run complete_line "$BT" compile my
	[ "$output" = my.bconf ]
	run complete_line "$BT" check --modules mod
	[ "$output" = "$(printf 'mods\nmodx')" ]
	run complete_line "$BT" check --root mod
	[ "$output" = "$(printf 'mods\nmodx')" ]
	run complete_line "$BT" report --proc-modules mods.
	[ "$output" = mods.txt ]
	run complete_line "$BT" check --depth ""
	[ -z "$output" ]
}

@test "make install puts the completion for boottrace and bootconfig where bash-completion looks" {
	command -v pkg-config >/dev/null || skip "no pkg-config"
	bt_make -s -C "$R" install DESTDIR="$T/dest" PREFIX=/usr/local INSTALL_HOOK=0 INSTALL_COLLECT=0 >/dev/null
	d=$(pkg-config --define-variable=prefix=/usr/local --variable=completionsdir bash-completion 2>/dev/null || true)
	d=${d:-/usr/local/share/bash-completion/completions}
	cmp "$T/dest$d/boottrace" "$C"
	[ "$(readlink "$T/dest$d/bootconfig")" = boottrace ]
	bt_make -s -C "$R" uninstall DESTDIR="$T/dest" PREFIX=/usr/local >/dev/null
	[ -z "$(find "$T/dest" -mindepth 1)" ]
}
