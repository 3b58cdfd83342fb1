#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One home per fact (issue 33): each test fails when a second home appears
# in the sources. The facts' behaviour has its unit tests (test_kgzip,
# test_tracefs, test_compile's test_route_crash_params).

setup() {
	R="$BATS_TEST_DIRNAME/../.."
}

@test "a check_* file lives in bootcfg/check/ only: elsewhere the name would lie about its room" {
	run sh -c 'cd "$1" && find parser bootcfg -name "check_*" ! -path "bootcfg/check/*"' sh "$R"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "one gzip inflater: only bootcfg/kimage/kgzip.c uses zlib" {
	run sh -c 'cd "$1" && grep -l "<zlib.h>\|inflateInit\|[^_]inflate(" $(find parser bootcfg -name "*.[ch]")' sh "$R"
	[ "$output" = "bootcfg/kimage/kgzip.c" ]
}

@test "one tracefs finder: the places are spelled in bootcfg/kernel/tracefs.[ch] only" {
	run sh -c 'cd "$1" && grep -l "\"/sys/kernel/tracing\"\|\"/sys/kernel/debug/tracing\"" $(find parser bootcfg -name "*.[ch]")' sh "$R"
	[ "$output" = "$(printf 'bootcfg/kernel/tracefs.c\nbootcfg/kernel/tracefs.h')" ]
}
