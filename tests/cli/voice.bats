#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# One CLI voice (issue 20, part 5): one error format for every verb, -q and
# -v everywhere with one meaning, one meaning per flag, JSON schemas named
# the same way, valid UTF-8 in every text output.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data"
	T="$BATS_TEST_TMPDIR"
	printf 'ffffffff817b45f0 T register_netdevice\n' >"$T/System.map"
}

utf8() { # FILE: valid UTF-8
	python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$1"
}

VERBS="compile decompile bootconfig boards report collect check"

@test "an error with no file is said as 'boottrace VERB: error: TEXT'" {
	run "$BT" check --callers register_netdevice
	[ "$status" -eq 2 ]
	[ "$output" = "boottrace check: error: --callers needs --vmlinux (call instructions) and/or --modules (relocations)" ]
	printf 'ftrace.tracer = function\n' >"$T/c.bconf"
	run "$BT" compile --who-calls register_netdevice --print-config -o /dev/null
	run sh -c '"$0" compile --who-calls register_netdevice --print-config >/dev/full' "$BT"
	[ "$status" -eq 3 ]
	[ "$output" = "boottrace compile: error: cannot write output: No space left on device" ]
}

@test "an unknown option is one error line in the verb's voice, then the usage; exit 2" {
	for v in compile bootconfig boards report collect check; do
		run "$BT" "$v" --no-such-option
		[ "$status" -eq 2 ] || { echo "$v: $status"; false; }
		[ "${lines[0]}" = "boottrace $v: error: unknown or ambiguous option '--no-such-option'; see --help" ] || { echo "$v: ${lines[0]}"; false; }
		[[ "${lines[1]}" == [Uu]sage:* ]]
	done
	run "$BT" report -Z x
	[ "${lines[0]}" = "boottrace report: error: unknown option -Z; see --help" ]
	run "$BT" check --vmlinux
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "boottrace check: error: option '--vmlinux' needs an argument; see --help" ]
	run "$BT" compile -t
	[ "${lines[0]}" = "boottrace compile: error: option -t needs an argument; see --help" ]
	ln -s "$BT" "$T/bootconfig"
	run "$T/bootconfig" --no-such-option
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "bootconfig: error: unknown or ambiguous option '--no-such-option'; see --help" ]
	run "$BT" frob
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "boottrace: error: unknown verb 'frob'; see boottrace --help" ]
}

@test "every verb takes -q/--quiet and -v/--verbose and lists them in its --help" {
	for v in $VERBS; do
		for o in -q --quiet -v --verbose; do
			run "$BT" "$v" "$o" --help
			[ "$status" -eq 0 ] || { echo "$v $o: $status $output"; false; }
		done
		[[ "$output" == *"-q, --quiet"* ]] || { echo "$v: no -q"; false; }
		[[ "$output" == *"-v, --verbose"* ]] || { echo "$v: no -v"; false; }
	done
}

@test "-q: errors only; warnings and notes are not said, errors still are" {
	"$BT" decompile 'trace_options=sym-addr trace_options=func_stack_trace' >"$T/o" 2>"$T/e"
	grep -q 'note: trace_options= appears again' "$T/e"
	"$BT" decompile -q 'trace_options=sym-addr trace_options=func_stack_trace' >"$T/oq" 2>"$T/eq"
	[ ! -s "$T/eq" ]
	cmp "$T/o" "$T/oq"
	: >"$T/empty.modules"
	"$BT" report --modules "$T/empty.modules" "$D/traces/debian-6.1-amd64-stack.trace" >/dev/null 2>"$T/e"
	grep -qF "warning: --modules $T/empty.modules: a file, not a directory, so taken as the old spelling of --proc-modules" "$T/e"
	"$BT" report -q --modules "$T/empty.modules" "$D/traces/debian-6.1-amd64-stack.trace" >/dev/null 2>"$T/e"
	[ ! -s "$T/e" ]
	printf 'ftrace.traser = function\n' >"$T/bad.bconf"
	run "$BT" compile -q "$T/bad.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == "$T/bad.bconf:1:"*": error: "* ]]
}

@test "-v: more said, in each verb's own way (compile: where settings go; boards: files)" {
	printf 'ftrace.tracer = function\n' >"$T/c.bconf"
	"$BT" compile "$T/c.bconf" 2>"$T/e" >/dev/null
	[ ! -s "$T/e" ]
	"$BT" compile --verbose "$T/c.bconf" 2>"$T/e" >/dev/null
	grep -q '^route: ' "$T/e"
	run "$BT" boards --verbose
	[[ "$output" == *"search path, first match wins:"* ]]
}

@test "check text output is valid UTF-8 whatever bytes the path and the names hold" {
	# the config parser refuses bytes that are not printable in a value;
	# the path and the names from the kernel's files come as they are
	bad="$T/b$(printf '\377\033').bconf"
	printf 'ftrace.ftrace.filters = register_netdevice\n' >"$bad"
	run "$BT" check --system-map "$T/System.map" "$bad"
	[ "$status" -eq 0 ]
	"$BT" check --system-map "$T/System.map" "$bad" >"$T/out" 2>&1
	utf8 "$T/out"
	grep -q 'b\\xff\\x1b\.bconf:1:15: note: register_netdevice found' "$T/out"
	# a module whose function names are not UTF-8 and hold an escape
	command -v gcc >/dev/null
	mkdir "$T/m"
	printf '\t.text\n\t.globl "c\377\033x"\n\t.type "c\377\033x", @function\n"c\377\033x":\n\tcall "t\377x"@PLT\n\tret\n\t.size "c\377\033x", .-"c\377\033x"\n' >"$T/b.s"
	gcc -c -o "$T/m/bad.ko" "$T/b.s"
	"$BT" check --callers "$(printf 't\377x')" --modules "$T/m" >"$T/cl"
	utf8 "$T/cl"
	[ "$(cat "$T/cl")" = 't\xffx
  <- c\xff\x1bx [bad]' ]
	"$BT" check --system-map "$T/nope$(printf '\376')" "$bad" 2>"$T/e" || true
	utf8 "$T/e"
	grep -q 'nope\\xfe: error: ' "$T/e"
}

@test "--modules means a modules tree; report's /proc/modules is --proc-modules (old spelling warns)" {
	S="$D/traces/debian-6.1-amd64-stack"
	"$BT" report --kallsyms "$S.kallsyms" --proc-modules "$S.modules" "$S.trace" >"$T/new" 2>"$T/e"
	[ ! -s "$T/e" ]
	"$BT" report --kallsyms "$S.kallsyms" --modules "$S.modules" "$S.trace" >"$T/old" 2>"$T/e"
	cmp "$T/new" "$T/old"
	[ "$(cat "$T/e")" = "boottrace report: warning: --modules $S.modules: a file, not a directory, so taken as the old spelling of --proc-modules (a module list); --modules DIR names a modules tree (/lib/modules/VERSION), as in check and compile; the old spelling goes away in a later release" ]
	run "$BT" report --help
	[[ "$output" == *"--proc-modules F"* ]]
}

@test "check and report JSON name their schema the same way: \"schema\" NAME, \"version\" N" {
	printf 'ftrace.ftrace.filters = register_netdevice\n' >"$T/c.bconf"
	"$BT" check --system-map "$T/System.map" -f json "$T/c.bconf" >"$T/c.json"
	"$BT" report -f json "$D/traces/debian-6.1-amd64-stack.trace" >"$T/r.json"
	python3 - "$T/c.json" "$T/r.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
assert c["schema"] == "boottrace-check" and c["version"] == 2, c
assert r["schema"] == "boottrace-report" and r["version"] == 1, r
PY
}

@test "exit statuses: 0 done, 1 bad input, 2 usage, 3 environment, as boottrace(1) says per verb" {
	printf 'ftrace.ftrace.filters = register_netdev1ce\n' >"$T/c.bconf"
	run "$BT" check --system-map "$T/System.map" "$T/c.bconf"
	[ "$status" -eq 1 ]
	run "$BT" check --system-map "$T/System.map" "$T/missing.bconf"
	[ "$status" -eq 3 ]
	printf 'not a trace\nat all\n' >"$T/x.trace"
	run "$BT" report "$T/x.trace"
	[ "$status" -eq 1 ]
	# no INPUT, and no record nor snapshot to read: bad input, said in one line
	run "$BT" report --state "$T/no-state" --run "$T/no-run"
	[ "$status" -eq 1 ]
	run "$BT" report --no-such-option
	[ "$status" -eq 2 ]
	run "$BT" boards extra
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "boottrace boards: error: no argument is taken ('extra')" ]
	run "$BT" decompile
	[ "$status" -eq 2 ]
	# each verb's status words are in the man page's EXIT STATUS table
	sed -n '/^\.SH EXIT STATUS/,/^\.SH DIAGNOSTICS/p' "$BATS_TEST_DIRNAME/../../docs/man/boottrace.1" >"$T/exit"
	for v in $VERBS; do
		grep -qx "\.B $v" "$T/exit" || { echo "no exit status row for $v"; false; }
	done
}

@test "report: names with bytes that are not UTF-8 come out as \\xNN in every format" {
	printf '# tracer: function\n            sh-9       [000] .....     1.000000: caf\303\251_\377fn <-par\340\200ent\n            sh-9       [000] .....     1.000001: <stack trace>\n => caf\303\251_\377fn\n => \355\240\200bad\n => ok_fn\n' >"$T/u.trace"
	for f in text json folded html svg perfetto; do
		"$BT" report -f "$f" "$T/u.trace" >"$T/u.$f"
		utf8 "$T/u.$f"
	done
	grep -q 'culprit: ok_fn -> \\xed\\xa0\\x80bad -> café_\\xfffn' "$T/u.text"
	grep -q 'café_\\xfffn' "$T/u.folded"
}
