#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace report -f html, -f svg, -f perfetto and --diff (issue 19).
# The same pages in a real browser: tests/e2e/browser.sh.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	T="$BATS_TEST_TMPDIR"
	H="$BATS_TEST_DIRNAME/helpers"
}

# A page that fetches nothing: the policy forbids it, and nothing names a
# resource outside the page (the SVG namespace is a name, not a fetch).
no_fetch() { # FILE
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$1"
	! grep -Eiq '<(link|img|iframe|object|embed)[ >]|<script[^>]* src=|@import|url\(' "$1"
	[ -z "$(grep -Eo 'https?://[^"< ]*' "$1" | grep -v '^http://www.w3.org/2000/svg$')" ]
}

@test "html: x86 bond0 (console log): the culprit chain at the top, evidence a click away, no fetch" {
	"$BT" report -f html "$D/debian-6.1-console-stack.log" >"$T/x.html"
	no_fetch "$T/x.html"
	grep -q '<div class="culprit">\[unverified bonding_init\] -&gt; bond_create -&gt; register_netdevice</div>' "$T/x.html"
	# the answer comes before the time axis and the callers
	a=$(grep -n 'id="answer"' "$T/x.html" | cut -d: -f1)
	t=$(grep -n 'id="timeline"' "$T/x.html" | cut -d: -f1)
	c=$(grep -n 'id="callers"' "$T/x.html" | cut -d: -f1)
	[ "$a" -lt "$t" ] && [ "$t" -lt "$c" ]
	# the evidence: task, phase, time, the whole stack
	grep -q '<summary>by insmod-98, phase module-load, 1 hit, at 4.290720 s (stack trace)</summary>' "$T/x.html"
	grep -q '^ *<b>bond_create</b>$' "$T/x.html"
	grep -q 'entry_SYSCALL_64_after_hwframe' "$T/x.html"
	# a mark on the time axis for the hit, on its task's lane
	grep -q '<title>register_netdevice by insmod-98: 1 hit, first 4.290720</title>' "$T/x.html"
	python3 -c 'import html.parser,sys; p=html.parser.HTMLParser(); p.feed(open(sys.argv[1]).read()); p.close()' "$T/x.html"
}

@test "html: MIPS parent chains: both culprits, stitched, with their tasks and phases" {
	"$BT" report -f html "$D/debian-6.1-mips64el-parent.trace" >"$T/m.html"
	no_fetch "$T/m.html"
	grep -q '<div class="culprit">register_netdev -&gt; register_netdevice</div>' "$T/m.html"
	grep -qF '<div class="culprit">[unverified bonding_init] -&gt; bond_create -&gt; register_netdevice</div>' "$T/m.html"
	grep -q 'by swapper/0-1, phase initcall, 1 hit, at 0.285107 s (stitched from &lt;-parent columns)' "$T/m.html"
	grep -q 'by busybox-85, phase module-load, 1 hit, at 3.111826 s' "$T/m.html"
	# phase bands from the culprits
	grep -q '<title>phase initcall: culprit hits from 0.285107 to ' "$T/m.html"
	grep -q '<title>phase module-load: culprit hits from ' "$T/m.html"
}

@test "html: what went wrong is a banner at the top, linked to its evidence line" {
	"$BT" report -f html "$D/snapshot-selfbuilt-clock-reset" >"$T/c.html"
	no_fetch "$T/c.html"
	b=$(grep -n 'class="banner warn" data-code="clock-reset"' "$T/c.html" | cut -d: -f1)
	a=$(grep -n 'id="answer"' "$T/c.html" | cut -d: -f1)
	[ -n "$b" ] && [ "$b" -lt "$a" ]
	grep -q 'data-code="clock-reset">.*<a href="#ev-[0-9]*">evidence</a>' "$T/c.html"
	grep -q 'id="ev-1"' "$T/c.html"
	grep -q 'docs/report.md, &quot;Evidence lines&quot;\|docs/report.md, "Evidence lines"' "$T/c.html"
}

@test "html: function_graph durations as a table; trace text is escaped" {
	"$BT" report -f html "$D/qemu-6.1-amd64-function-graph.trace" >"$T/g.html"
	grep -q '<section id="durations">' "$T/g.html"
	no_fetch "$T/g.html"
	# a name with markup in it stays text
	printf '# tracer: function\n  <x>-1 [000] ..... 1.000000: f<script> <-p&q\n' >"$T/evil.trace"
	"$BT" report -f html "$T/evil.trace" >"$T/e.html"
	! grep -q '<script>\|<x>' "$T/e.html"
	grep -q 'f&lt;script&gt;' "$T/e.html"
}

@test "html: bounded: a 5 MB trace of 4000 stacks gives a page under 2 MB" {
	mawk -v MB=5 -v NSTACKS=4000 -f "$BATS_TEST_DIRNAME/../bench/gen-trace.awk" >"$T/big.trace"
	"$BT" report -f html "$T/big.trace" >"$T/big.html"
	s=$(wc -c <"$T/big.html")
	[ "$s" -lt 2000000 ]
	grep -q 'The trees are cut at 3000 nodes' "$T/big.html"
}

@test "svg: a flame graph of exactly -f folded's paths, hover titles, valid XML" {
	for t in debian-6.1-console-stack.log debian-6.1-mips64el-parent.trace qemu-6.1-amd64-trigger-stack.trace; do
		"$BT" report -f svg "$D/$t" >"$T/f.svg"
		"$BT" report -f folded "$D/$t" >"$T/f.folded"
		xmllint --noout "$T/f.svg"
		! grep -q '<script' "$T/f.svg"
		total=$(awk '{ n += $NF } END { print n }' "$T/f.folded")
		grep -q "<title>all ($total hit" "$T/f.svg"
		# every frame of every path has a hover title
		tr ';' '\n' <"$T/f.folded" | sed 's/ [0-9]*$//' | sort -u | while read -r fr; do
			grep -qF "<title>$fr (" "$T/f.svg" || { echo "no title for $fr"; exit 1; }
		done
	done
	"$BT" report -f svg "$D/debian-6.1-console-stack.log" >"$T/x.svg"
	grep -q '<title>bond_create (1 hit, 100.00%)</title>' "$T/x.svg"
}

@test "perfetto: trace-event JSON, required fields and types per event; culprits with their stacks" {
	for t in debian-6.1-console-stack.log debian-6.1-mips64el-parent.trace qemu-6.1-amd64-function-graph.trace debian-6.1-amd64-stack.trace; do
		"$BT" report -f perfetto "$D/$t" >"$T/p.json"
		run python3 "$H/check-trace-events.py" "$T/p.json"
		echo "$t: $output"
		[ "$status" -eq 0 ]
	done
	"$BT" report -f perfetto "$D/debian-6.1-mips64el-parent.trace" >"$T/m.json"
	[ "$(jq -r '[.traceEvents[] | select(.cat == "culprit") | .args.culprit] | join("|")' "$T/m.json")" = \
		"register_netdev -> register_netdevice|[unverified bonding_init] -> bond_create -> register_netdevice|[unverified bonding_init]|[unverified bonding_init] -> bond_create" ]
	[ "$(jq -r '.traceEvents[] | select(.cat == "culprit" and .name == "register_netdevice") | .ts' "$T/m.json" | head -1)" = 285107 ]
	[ "$(jq -r '.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .args.name' "$T/m.json" | sort | tr '\n' ' ')" = "busybox-85 swapper/0-1 " ]
	"$BT" report -f perfetto "$D/qemu-6.1-amd64-function-graph.trace" >"$T/g.json"
	[ "$(jq '[.traceEvents[] | select(.ph == "X")] | length' "$T/g.json")" -gt 0 ]
}

@test "diff: two boots: culprits appeared and vanished, first hits moved, tasks changed (text, JSON, HTML)" {
	run "$BT" report --diff "$D/debian-6.1-console-stack.log" "$D/debian-6.1-mips64el-parent.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"register_netdevice: hits 1 -> 2, first 4.290720 s -> 0.285107 s (moved -4.005613 s)"* ]]
	[[ "$output" == *"  culprit appeared: register_netdev -> register_netdevice"* ]]
	[[ "$output" == *"  culprit in both: [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
	[[ "$output" == *"  task appeared: swapper/0"* ]]
	[[ "$output" == *"  task vanished: insmod"* ]]
	[[ "$output" == *"bond_create: only in B"* ]]
	# the evidence compared: A's trampoline note vanished, none in both
	[[ "$output" == *"  vanished: trampoline"* ]]
	! echo "$output" | grep -q 'in both: trampoline'
	# only what both have is "in both"
	[ "$(echo "$output" | grep -c 'culprit in both')" = 1 ]
	"$BT" report -f json --diff "$D/debian-6.1-console-stack.log" "$D/debian-6.1-mips64el-parent.trace" >"$T/d.json"
	[ "$(jq -r .schema "$T/d.json")" = boottrace-report-diff ]
	[ "$(jq -r '.functions[0] | "\(.name) \(.in) \(.hits) \(.moved) \(.culprits_appeared) \(.tasks_vanished)"' "$T/d.json")" = \
		'register_netdevice both [1,2] -4.005613 ["register_netdev -> register_netdevice"] ["insmod"]' ]
	"$BT" report -f html --diff "$D/debian-6.1-console-stack.log" "$D/debian-6.1-mips64el-parent.trace" >"$T/d.html"
	no_fetch "$T/d.html"
	grep -q '<li class="add">culprit appeared: <span class="mono">register_netdev -&gt; register_netdevice</span></li>' "$T/d.html"
	# a boot against itself: nothing appeared, nothing vanished
	run "$BT" report --diff "$D/debian-6.1-mips64el-parent.trace" "$D/debian-6.1-mips64el-parent.trace"
	[ "$status" -eq 0 ]
	! echo "$output" | grep -q 'appeared\|vanished\|only in'
	[[ "$output" == *"first 0.285107 s -> 0.285107 s (same time)"* ]]
}

@test "pictures: usage errors name what is allowed" {
	run "$BT" report -f png "$D/debian-6.1-mips64el-parent.trace"
	[ "$status" -eq 2 ]
	[[ "$output" == *"-f takes text, json, folded, html, svg or perfetto"* ]]
	run "$BT" report -f svg --diff "$D/debian-6.1-mips64el-parent.trace" "$D/debian-6.1-mips64el-parent.trace"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--diff A B writes -f text, json or html"* ]]
	run "$BT" report --diff "$D/debian-6.1-mips64el-parent.trace"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--diff takes two inputs: --diff A B"* ]]
	run "$BT" report --diff - - </dev/null
	[ "$status" -eq 2 ]
	[[ "$output" == *"standard input (\"-\") can be only one of the two"* ]]
	run "$BT" report --help
	[[ "$output" == *" html "*"one self-contained page"* && "$output" == *"--diff A B"* ]]
}

@test "diff: functions are matched by every byte of their names (a NUL inside one, after 64 KB of text)" {
	{
		printf '# tracer: function\n'
		i=1
		while [ $i -le 3000 ]; do printf '  a-1 [000] ..... 1.%06d: g <-p\n' $i; i=$((i + 1)); done
		printf '  a-1 [000] ..... 1.000000: f\000x <-p\n  a-1 [000] ..... 2.000000: f <-p\n'
	} >"$T/nul.trace"
	run "$BT" report --diff "$T/nul.trace" "$T/nul.trace"
	[ "$status" -eq 0 ]
	# "f\0x" (first at 1 s) against itself, not against "f" (first at 2 s)
	[ "$(echo "$output" | grep -c '^f: hits 1 -> 1, first 1.000000 s -> 1.000000 s (same time)')" = 1 ]
	[ "$(echo "$output" | grep -c '^f: hits 1 -> 1, first 2.000000 s -> 2.000000 s (same time)')" = 1 ]
	! echo "$output" | grep -q 'appeared\|vanished\|only in'
}
