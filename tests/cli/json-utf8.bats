#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Every JSON output is valid UTF-8 whatever bytes its input held: one
# escaper (bootcfg/util/json.c) for report, check and collect.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data"
	T="$BATS_TEST_TMPDIR"
}

utf8_json() { # FILE: valid UTF-8 and valid JSON
	python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$1"
}

@test "check -f json: a config path with a byte that is not UTF-8" {
	bad="$T/b$(printf '\377').bconf"
	cp "$D/bond0.bconf" "$bad"
	"$BT" check -f json "$bad" >"$T/c.json"
	utf8_json "$T/c.json"
	grep -q 'b\\u00ff.bconf' "$T/c.json"
}

@test "report -f json: task and program names with invalid and with valid UTF-8" {
	printf '# tracer: function\n    caf\303\251-5  [000] .....  1.000000: sched_process_exec: filename=/bin/x\377y pid=5 old_pid=5\n    caf\303\251-5  [000] .....  1.500000: register_netdevice <-rtnl_newlink\n' >"$T/u.trace"
	"$BT" report -f json "$T/u.trace" >"$T/r.json"
	utf8_json "$T/r.json"
	grep -q 'caf\xc3\xa9-5\|café-5' "$T/r.json"
	grep -q 'x\\u00ffy' "$T/r.json"
	"$BT" report -f perfetto "$T/u.trace" >"$T/p.json"
	utf8_json "$T/p.json"
}
