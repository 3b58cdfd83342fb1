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

# the keys of kernel/ftrace_keys.c's table but "ftrace", which is also the
# config's top-level word (plan.c reads it beside kernel, init, boottrace)
FKEYS='options|tracing_on|trace_clock|buffer_size|alloc_snapshot|cpumask|events|tracer|event|instance|fgraph|tp_printk|tp_printk_stop_on_boot|dump_on_oops|traceoff_on_warning|boot_snapshot'
# and the subkeys (ftrace.ftrace.*, ftrace.fgraph.*, an event's), which plan.c reads
FSUBS='filters|notraces|max_depth|enable|filter|actions|hist|probes|fields'

@test "the ftrace.* keys: plan, the bootconfig route and try compare ids of kernel/ftrace_keys.c, never a name of their own" {
	run sh -c 'cd "$1" && grep -nE "strn?cmp\\([^;]*\"($2)\"" bootcfg/plan/*.c bootcfg/compile/route_*.c bootcfg/try/*.c' sh "$R" "$FKEYS|ftrace\\.[a-z_][a-z_.]*"
	[ -z "$output" ]
	run sh -c 'cd "$1" && grep -nE "strn?cmp\\([^;]*\"($2)\"" bootcfg/plan/plan.c bootcfg/compile/route_bconf.c' sh "$R" "$FSUBS"
	[ -z "$output" ]
	# a whole key (ftrace.tracer, ftrace.ftrace.filters) is its parameter's row of kernel/params.c
	run sh -c 'cd "$1" && grep -nE "\"ftrace\\.($2)(\\.[a-z_]+)?\"" bootcfg/plan/*.c bootcfg/compile/*.c bootcfg/try/*.c bootcfg/report/*/*.c bootcfg/record/*.c' sh "$R" "$FKEYS|ftrace"
	[ -z "$output" ]
}
