#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The man pages make install ships render with man -l, without a warning.

setup() {
	M="$BATS_TEST_DIRNAME/../../docs/man"
	T="$BATS_TEST_TMPDIR"
}

render() { # PAGE: stderr of man's groff run with all warnings on (groff -ww)
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$1" 2>&1 >"$T/out"
}

@test "the warning check sees a broken page" {
	printf '.TH X 1\n.SH NAME\nx \\- y\n.BOGUS macro\n\\fBunclosed\n' >"$T/bad.1"
	run render "$T/bad.1"
	[ -n "$output" ]
}

@test "boottrace.1 renders without warnings, with its sections" {
	run render "$M/boottrace.1"
	[ -z "$output" ]
	grep -q 'SYNOPSIS' "$T/out"
	grep -q 'compile' "$T/out"
	grep -q 'report' "$T/out"
}

@test "boottrace.bconf.5 renders without warnings, with the board keys" {
	run render "$M/boottrace.bconf.5"
	[ -z "$output" ]
	grep -q 'BOARD PROFILES' "$T/out"
	grep -q 'cmdline.max' "$T/out"
}
