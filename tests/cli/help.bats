#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace(1) and --help agree (issue 20, part 6): every option a verb's
# --help lists is in the verb's man section (or COMMON OPTIONS) and the
# other way round (tests/cli/helpers/help-vs-man.py says how each side is
# read).

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	M="$BATS_TEST_DIRNAME/../../docs/man/boottrace.1"
	H="$BATS_TEST_DIRNAME/helpers/help-vs-man.py"
	T="$BATS_TEST_TMPDIR"
}

@test "the check sees a flag missing from the man page, and one missing from --help" {
	"$BT" check --help >"$T/h"
	run python3 "$H" "$M" check "$T/h"
	[ "$status" -eq 0 ]
	printf '  --no-such-flag F   made up\n' >>"$T/h"
	run python3 "$H" "$M" check "$T/h"
	[ "$status" -eq 1 ]
	[ "$output" = "check: --no-such-flag in --help, not in the man page" ]
	"$BT" check --help | grep -v -- '--threshold' >"$T/h2"
	run python3 "$H" "$M" check "$T/h2"
	[ "$status" -eq 1 ]
	[ "$output" = "check: --threshold in the man page, not in --help" ]
	sed 's/^\.SS check$/.SS kcheck/' "$M" >"$T/m.1"
	run python3 "$H" "$T/m.1" check "$T/h"
	[ "$status" -eq 1 ]
	[ "$output" = 'check: no ".SS check" section in the man page' ]
}

@test "every verb's --help and its man section list the same options" {
	for v in compile decompile bootconfig boards report collect check arm-boot disarm-boot try; do
		"$BT" "$v" --help >"$T/$v.help"
		python3 "$H" "$M" "$v" "$T/$v.help"
	done
}

@test "the bootconfig symlink's --help is the same as boottrace bootconfig's" {
	ln -s "$BT" "$T/bootconfig"
	"$T/bootconfig" --help >"$T/a"
	"$BT" bootconfig --help >"$T/b"
	cmp "$T/a" "$T/b"
}

@test "the verbs boottrace --help lists are the verbs with a man section" {
	"$BT" --help | sed -n 's/^  \([a-z][a-z-]*\).*/\1/p' >"$T/verbs"
	[ "$(wc -l <"$T/verbs")" -eq 11 ]
	while read -r v; do
		grep -qx ".SS $v" "$M" || { echo "no .SS $v"; false; }
	done <"$T/verbs"
}
