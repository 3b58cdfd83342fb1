#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The boot on the time axis (issue 19): phases from the kernel's own
# boundaries, initcalls timed from initcall_start to initcall_finish, each
# function's hits in bounded time buckets, and a boot that died said by
# every picture (-f html, svg, perfetto, --diff). docs/report.md, "Pictures".

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	T="$BATS_TEST_TMPDIR"
	H="$BATS_TEST_DIRNAME/helpers"
	TL="$D/hand-initcall-timeline.trace"
}

@test "html: boot phases from initcall_level events, pid 1's execs, with hover titles" {
	"$BT" report -f html "$TL" >"$T/t.html"
	grep -q "<title>early kernel: 0.010000 to 0.100000 s (from the trace&#39;s first event to the first initcall_level event)</title>" "$T/t.html"
	grep -q "<title>level core: 0.200000 to 0.300000 s (from its initcall_level event to the next level&#39;s)</title>" "$T/t.html"
	grep -q "<title>level fs: 0.500000 to 0.700000 s " "$T/t.html"
	# the last level ends with its last initcall's finish
	grep -q "<title>level late: 1.200000 to 1.201600 s (from its initcall_level event to the end of its last initcall (initcall_finish))</title>" "$T/t.html"
	grep -q "<title>initramfs: 1.300000 to 2.000000 s (from pid 1&#39;s first exec (/init) to its second (the root&#39;s init))</title>" "$T/t.html"
	grep -q "<title>root / userspace: 2.000000 to 2.500000 s " "$T/t.html"
	# a label where the band is wide enough
	grep -q '<g class="mk ph"><rect [^>]*/><text [^>]*>level device</text>' "$T/t.html"
	! grep -q 'phase-missing' "$T/t.html"
	python3 -c 'import html.parser,sys; p=html.parser.HTMLParser(); p.feed(open(sys.argv[1]).read()); p.close()' "$T/t.html"
}

@test "html: the initramfs ends at the hook's snapshot (meta uptime_start); the trace past it is said to be after it" {
	cp -r "$D/snapshot-amd64-stack" "$T/s"
	grep -v '/sbin/init' "$TL" >"$T/s/trace"
	sed -i 's/^uptime_start=.*/uptime_start=1.5/' "$T/s/meta"
	"$BT" report -f html "$T/s" >"$T/s.html"
	grep -q "<title>initramfs: 1.300000 to 1.500000 s (from pid 1&#39;s first exec (/init) to the hook&#39;s snapshot (meta uptime_start))</title>" "$T/s.html"
	grep -q "<title>after the snapshot: 1.500000 to 2.500000 s " "$T/s.html"
}

@test "html: a boundary not in the trace is said plainly, not drawn" {
	"$BT" report -f html "$D/debian-6.1-mips64el-parent.trace" >"$T/m.html"
	grep -q '<p class="sub phase-missing">Missing: no initcall_level event in the trace' "$T/m.html"
	grep -q 'Missing: no hook snapshot time (meta uptime_start) and no second exec of pid 1' "$T/m.html"
	! grep -q '<g class="mk ph">' "$T/m.html"
	# levels that began before the trace's events were on
	grep -v 'level=early' "$TL" >"$T/late.trace"
	"$BT" report -f html "$T/late.trace" >"$T/l.html"
	grep -q 'Missing: the first initcall_level in the trace is &quot;pure&quot;: the levels before it ran before' "$T/l.html"
}

@test "html: initcall durations, longest first with their level, and as slices on the time axis" {
	"$BT" report -f html "$TL" >"$T/t.html"
	grep -q '8 initcalls timed from initcall_start to initcall_finish' "$T/t.html"
	rows=$(grep -o '<tr><td class="mono">[a-z_]*</td><td>[a-z-]*</td><td class="mono">[^<]*</td><td class="r">[0-9.]*</td><td class="r">[0-9.]*</td><td class="r">-\?[0-9]*</td>' "$T/t.html" |
		sed 's/<[^>]*>/ /g' | tr -s ' ')
	echo "$rows"
	[ "$(echo "$rows" | head -1)" = " slow_probe_init device swapper/0-1 0.700100 350.000 0 " ]
	[ "$(echo "$rows" | sed -n 2p)" = " bond_init module insmod-90 1.600000 40.000 0 " ]
	[ "$(echo "$rows" | tail -1)" = " fast_init device swapper/0-1 1.050200 0.050 -19 " ]
	grep -q '<title>initcall slow_probe_init (device, swapper/0-1): 0.350000 s from 0.700100, ret=0</title>' "$T/t.html"
	grep -q '<g class="mk ic"><rect [^>]* fill="#c62828"/><title>initcall fast_init ' "$T/t.html"
}

@test "html: initcalls that never finished and finishes with no start are counted" {
	grep -v 'initcall_finish: func=slow_probe_init' "$TL" |
		sed 's/initcall_start: func=net_core_init.*/kmem_cache_alloc <-x/' >"$T/open.trace"
	"$BT" report -f html "$T/open.trace" >"$T/o.html"
	grep -q '6 initcalls timed from initcall_start to initcall_finish' "$T/o.html"
	grep -q ' 1 started and never finished in the trace. 1 finish had no start before it in the trace.' "$T/o.html"
}

@test "perfetto: initcalls as complete slices on their task's track, phases on a track of their own" {
	"$BT" report -f perfetto "$TL" >"$T/p.json"
	python3 "$H/check-trace-events.py" "$T/p.json"
	jq -e '
		(.traceEvents[] | select(.ph == "M" and .name == "thread_name" and .args.name == "swapper/0-1") | .tid) as $t |
		[.traceEvents[] | select(.cat == "initcall" and .name == "slow_probe_init")][0] |
		.ph == "X" and .ts == 700100 and .dur == 350000 and .tid == $t and .args.level == "device" and .args.ret == 0' "$T/p.json"
	jq -e '[.traceEvents[] | select(.cat == "initcall")] | length == 8' "$T/p.json"
	jq -e '[.traceEvents[] | select(.cat == "initcall" and .name == "bond_init")][0].args.level == "module"' "$T/p.json"
	jq -e '[.traceEvents[] | select(.cat == "phase" and .name == "level core")][0] | .ph == "X" and .ts == 200000 and .dur == 100000' "$T/p.json"
}

@test "html: each function's hits as ticks in 200 time buckets per task, the bucket width on the page" {
	"$BT" report -f html "$TL" >"$T/t.html"
	grep -q 'counted in 200 time buckets of <b>0.016777 s</b> each' "$T/t.html"
	# 30 hits of init-1 between 1.400 and 1.429 s: buckets of 2^24 ns from 0.01 s
	grep -q '<title>kmem_cache_alloc on init-1: 30 hits in 3 of the 200 buckets, at most 17 in one (a bucket is 0.016777 s wide)</title>' "$T/t.html"
	grep -q '<title>kmem_cache_alloc on kworker/1:0-20: 6 hits in 6 of the 200 buckets, at most 1 in one ' "$T/t.html"
	# the per-CPU view: a toggle without script
	grep -q "<details id=\"cpus\"><summary>Per-CPU lanes (2 CPUs, from the trace's CPU column)</summary>" "$T/t.html"
	grep -q '<title>kmem_cache_alloc on CPU 1: ' "$T/t.html"
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$T/t.html"
}

@test "html: the buckets stay bounded: 20000 (function, task) pairs, a 2 MB page at most, the cut said" {
	awk 'BEGIN {
		print "# tracer: function"
		for (i = 0; i < 20000; i++)
			printf "  task%d-%d [000] ..... %d.%06d: fn%d <-caller\n", i % 100, 1000 + i % 100, 1 + int(i / 1000000), i % 1000000, int(i / 100)
	}' >"$T/wide.trace"
	"$BT" report -f html "$T/wide.trace" >"$T/w.html"
	[ "$(wc -c <"$T/w.html")" -le 2097152 ]
	grep -q 'hits of (function, task or CPU) pairs past the first 4096 are not in the ticks' "$T/w.html"
}

@test "svg: a boot that died is a banner under the title, in the dump's words" {
	"$BT" report -f svg "$D/qemu-6.1-dump-panic.log" >"$T/c.svg"
	python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "$T/c.svg"
	grep -q '<g id="crash"><title>The boot died (the ftrace dump in the console log): crashmod: device 0 failed to come up; the initcall that never finished: crashmod_init</title>' "$T/c.svg"
	grep -q '>The boot died: crashmod: device 0 failed to come up; the initcall that never finished: crashmod_init</text>' "$T/c.svg"
	"$BT" report -f svg "$D/debian-6.1-amd64-stack.trace" >"$T/n.svg"
	! grep -q 'The boot died' "$T/n.svg"
}

@test "perfetto: a boot that died is in otherData and a global instant event" {
	"$BT" report -f perfetto "$D/qemu-6.1-dump-panic.log" >"$T/c.json"
	python3 "$H/check-trace-events.py" "$T/c.json"
	jq -e '.otherData.boot_died == "crashmod: device 0 failed to come up; the initcall that never finished: crashmod_init"' "$T/c.json"
	jq -e '[.traceEvents[] | select(.cat == "crash")][0] | .ph == "i" and .s == "g" and (.args.crash | startswith("crashmod: device 0"))' "$T/c.json"
	"$BT" report -f perfetto "$D/debian-6.1-amd64-stack.trace" >"$T/n.json"
	jq -e '(.otherData | has("boot_died") | not) and ([.traceEvents[] | select(.cat == "crash")] | length == 0)' "$T/n.json"
}

@test "--diff: a line for a boot that died, in text, JSON and HTML" {
	run "$BT" report --diff "$D/qemu-6.1-dump-panic.log" "$D/debian-6.1-amd64-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\nA: the boot died: crashmod: device 0 failed to come up; the initcall that never finished: crashmod_init\n'* ]]
	[[ "$output" != *"B: the boot died"* ]]
	run "$BT" report --diff "$D/qemu-6.1-dump-panic.log" "$D/debian-6.1-amd64-stack.trace" -f json
	echo "$output" | jq -e '(.A.boot_died | startswith("crashmod: device 0 failed")) and .B.boot_died == null'
	run "$BT" report --diff "$D/debian-6.1-amd64-stack.trace" "$D/qemu-6.1-dump-panic.log" -f html
	[[ "$output" == *'<div class="banner damage"><b>B: the boot died</b>: crashmod: device 0 failed to come up'* ]]
}

@test "text and JSON: the same phases and initcalls (one aggregation)" {
	run "$BT" report "$TL"
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n  level device         0.700000 s - 1.200000 s\n'* ]]
	[[ "$output" == *$'\ninitcalls: 8 timed (initcall_start to initcall_finish), 0 never finished, 0 finishes without a start; the longest:\n       350.000 ms  slow_probe_init (device, swapper/0-1, ret 0)\n'* ]]
	"$BT" report -f json "$TL" >"$T/t.json"
	jq -e '.phases[0] == {"name": "early kernel", "from": 0.01, "to": 0.1, "bounds": "from the trace'"'"'s first event to the first initcall_level event"}
		and (.phases | map(.name) | index("initramfs")) == 10
		and .phases_missing == [] and .initcalls_unfinished == 0
		and .initcalls[0] == {"func": "slow_probe_init", "level": "device", "task": "swapper/0-1", "start": 0.7001, "duration_ns": 350000000, "ret": 0}
		and (.initcalls | length) == 8' "$T/t.json"
	# without initcall events: neither
	"$BT" report -f json "$D/debian-6.1-amd64-stack.trace" | jq -e 'has("initcalls") or has("phases") | not'
}

@test "html: a bucket narrower than the microseconds shown is given in ns, never as 0.000000 s" {
	run "$BT" report -f html "$D/debian-6.1-console-stack.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"counted in 200 time buckets of <b>1 ns</b> each"* ]]
	[[ "$output" != *"of <b>0.000000 s</b>"* ]]
}
