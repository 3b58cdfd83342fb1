#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace report on traces captured from real boots (tests/data/traces).

bats_require_minimum_version 1.5.0

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/traces"
	T="$BATS_TEST_TMPDIR"
}

json() { # FILE EXPR: evaluate a python expression on the parsed JSON j
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

@test "amd64 module stack: culprit chain, task, phase; trampoline labelled, not a caller" {
	run "$BT" report "$D/debian-6.1-amd64-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
	[[ "$output" == *"by busybox-92, phase module-load, 1 hit, at 2.406358 s (stack trace)"* ]]
	[[ "$output" == *"ftrace trampoline frame (0xffffffffc00ef083)"* ]]
	# not in the caller tree
	! echo "$output" | grep -q '^ *1 *0xffffffffc00ef083'
	"$BT" report -f json "$D/debian-6.1-amd64-stack.trace" >"$T/r.json"
	[ "$(json "$T/r.json" "j['version']")" = 1 ]
	c="j['functions'][0]['culprits'][0]"
	[ "$(json "$T/r.json" "' '.join($c['chain'])")" = "[unverified bonding_init] bond_create register_netdevice" ]
	[ "$(json "$T/r.json" "$c['task']")" = busybox-92 ]
	[ "$(json "$T/r.json" "$c['phase']")" = module-load ]
	[ "$(json "$T/r.json" "$c['source']")" = stack ]
	[ "$(json "$T/r.json" "'0xffffffffc00ef083' in $c['full']")" = False ]
	[ "$(json "$T/r.json" "j['functions'][0]['stacks'][0]['dropped'][0]['why']")" = trampoline ]
}

@test "kallsyms names the trampoline ftrace_trampoline and still drops it" {
	run "$BT" report --kallsyms "$D/debian-6.1-amd64-stack.kallsyms" --modules "$D/debian-6.1-amd64-stack.modules" "$D/debian-6.1-amd64-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"trampoline frame (ftrace_trampoline)"* ]]
	[[ "$output" == *"1 raw frame addresses were resolved"* ]]
	[[ "$output" == *"culprit: [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
}

@test "MIPS zero stacks: said so, parent-chain mode recommended and used" {
	run "$BT" report "$D/debian-6.1-mips64el-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no usable frame (all zero or trampoline"*"use parent-chain mode"* ]]
	[[ "$output" == *"culprit: bond_create -> register_netdevice"*"by busybox-82"*"stitched from <-parent columns"* ]]
	"$BT" report -f json "$D/debian-6.1-mips64el-stack.trace" >"$T/m.json"
	[ "$(json "$T/m.json" "[f['code'] for f in j['findings']].count('zero-frames')")" = 1 ]
}

@test "MIPS parent columns: stitched chain do_one_initcall -> bonding_init -> bond_create -> register_netdevice, insmod task" {
	run "$BT" report --function register_netdevice "$D/debian-6.1-mips64el-parent.trace"
	[ "$status" -eq 0 ]
	# no module_load events: bonding's init entry cannot be checked (issue 22)
	[[ "$output" == *"do_one_initcall -> [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
	[[ "$output" == *"culprit: [unverified bonding_init] -> bond_create -> register_netdevice"*"by busybox-85, phase module-load"* ]]
	[[ "$output" == *"! 1 call path runs a module's init (do_one_initcall of a module-loading task -> bonding_init ...) and the trace has no module_load event of its task"* ]]
	[[ "$output" == *"culprit: register_netdev -> register_netdevice"*"by swapper/0-1, phase initcall"* ]]
	[[ "$output" != *"bonding_init: "* ]]
	"$BT" report -f json "$D/debian-6.1-mips64el-parent.trace" >"$T/p.json"
	[ "$(json "$T/p.json" "[' '.join(c['functions']) for f in j['functions'] if f['name']=='register_netdevice' for c in f['chains']]")" = \
	  "['register_netdev register_netdevice', 'do_one_initcall [unverified bonding_init] bond_create register_netdevice']" ]
}

@test "amd64 parent columns (real boot) give the same chain" {
	run "$BT" report --function register_netdevice "$D/debian-6.1-amd64-parent.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"do_one_initcall -> [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
}

@test "kprobe event with stacktrace: event line parsed, clean stack" {
	run "$BT" report "$D/debian-6.1-amd64-kprobe.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"register_netdevice (event): 1 hit"* ]]
	[[ "$output" == *"culprit: [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
	[[ "$output" != *trampoline* ]]
}

@test "console log: snapshot rebuilt, --boot picks one of two" {
	run "$BT" report "$D/debian-6.1-console-stack.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(console d3c090ea-1982-4eca-b55f-0e38f271039a, kernel 6.1.0-50-cloud-amd64)"* ]]
	[[ "$output" == *"by insmod-98, phase module-load"* ]]
	cat "$D/debian-6.1-console-stack.log" "$D/debian-6.1-console-parent.log" >"$T/two.log"
	run "$BT" report "$T/two.log"
	[[ "$output" == *"console d49fe5db"* ]]
	[[ "$output" == *"holds 2 snapshots; this is number 2"* ]]
	run "$BT" report --boot 1 "$T/two.log"
	[[ "$output" == *"console d3c090ea"* ]]
	run "$BT" report --boot 3 "$T/two.log"
	[ "$status" -eq 1 ]
	[[ "$output" == *"holds 2 boottrace snapshot(s); --boot 3 does not exist"* ]]
}

@test "self-built 6.1, bonding built in: bonding_init -> bond_create -> register_netdevice under swapper-1 at initcall" {
	run "$BT" report "$D/selfbuilt-6.1-builtin-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: bonding_init -> bond_create -> register_netdevice"$'\n'"    by swapper-1, phase initcall, 1 hit, at 0.916024 s (stack trace)"* ]]
	[[ "$output" == *"culprit: net_dev_init -> "*"loopback_net_init -> register_netdev -> register_netdevice"* ]]
	[[ "$output" == *"ftrace trampoline frame (0xffffffffa0000083)"* ]]
	"$BT" report -f json "$D/selfbuilt-6.1-builtin-stack.trace" >"$T/b.json"
	[ "$(json "$T/b.json" "[(' '.join(c['chain']), c['task'], c['phase'], c['source']) for c in j['functions'][0]['culprits'] if 'bond_create' in c['chain']]")" = \
	  "[('bonding_init bond_create register_netdevice', 'swapper-1', 'initcall', 'stack')]" ]
	[ "$(json "$T/b.json" "j['functions'][0]['first']")" = 0.524 ]
}

@test "the kernel's clock switch emptied the buffer: said so from dmesg, not blamed on the filter" {
	run "$BT" report "$D/snapshot-selfbuilt-clock-reset"
	[ "$status" -eq 0 ]
	[[ "$output" == *"switched the trace clock to \"global\" at 0.894749 s"*"put trace_clock=global on the command line"* ]]
	[[ "$output" == *"the trace is empty although tracer \"function\" is set: the kernel emptied it at 0.894749 s"* ]]
	[[ "$output" != *"filter matched nothing"* ]]
	"$BT" report -f json "$D/snapshot-selfbuilt-clock-reset" >"$T/c.json"
	[ "$(json "$T/c.json" "[f['code'] for f in j['findings']].count('clock-reset')")" = 1 ]
	# a dmesg without the switch says nothing about the clock
	cp -r "$D/snapshot-selfbuilt-clock-reset" "$T/noswitch"
	grep -v 'Unstable clock detected' "$D/snapshot-selfbuilt-clock-reset/dmesg" >"$T/noswitch/dmesg"
	run "$BT" report "$T/noswitch"
	[[ "$output" != *"switched the trace clock"* ]]
	[[ "$output" == *"filter matched nothing"* ]]
}

@test "arm64 (Debian 6.1 from U-Boot): module stack without a trampoline, insmod, module-load" {
	run "$BT" report "$D/debian-6.1-arm64-stack.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: [unverified bonding_init] -> bond_create -> register_netdevice"$'\n'"    by insmod-104, phase module-load, 1 hit, at 1.422611 s (stack trace)"* ]]
	[[ "$output" == *"culprit: net_dev_init -> "*"-> register_netdevice"$'\n'"    by swapper/0-1, phase initcall"* ]]
	[[ "$output" != *trampoline* ]]
	[[ "$output" == *"__arm64_sys_finit_module"* ]]
}

@test "snapshot directory: release, boot id, per-CPU stats read" {
	run "$BT" report "$D/snapshot-amd64-stack"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(snapshot snapshot-amd64-stack, kernel 6.1.0-50-cloud-amd64)"* ]]
	[[ "$output" != *"no COMPLETE marker"* ]]
	mkdir "$T/snap"
	cp "$D/snapshot-amd64-stack/trace" "$T/snap/"
	run "$BT" report "$T/snap"
	[[ "$output" == *"no COMPLETE marker"* ]]
}

@test "4.x layout and guess unwinder: parsed, stale frame flagged, lost events" {
	run "$BT" report "$D/hand-4.x-guess-unwinder.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"register_netdevice: 2 hits"* ]]
	[[ "$output" == *"stale frames from a guess unwinder"* ]]
	[[ "$output" == *"entries-in-buffer 4 < entries-written 9 (5 overwritten)"* ]]
	"$BT" report -f json "$D/hand-4.x-guess-unwinder.trace" >"$T/o.json"
	[ "$(json "$T/o.json" "j['trace']['layout']")" = 4.x ]
}

@test "latency-format columns" {
	run "$BT" report "$D/hand-latency-format.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"register_netdevice: 1 hit, first 2.406358 s"* ]]
	[[ "$output" == *"culprit: [unverified bonding_init] -> bond_create -> register_netdevice"* ]]
}

@test "folded output: strict a;b;c N lines; flamegraph.pl when installed" {
	"$BT" report -f folded "$D/debian-6.1-amd64-stack.trace" >"$T/f"
	[ "$(cat "$T/f")" = "entry_SYSCALL_64_after_hwframe;do_syscall_64;__do_sys_finit_module;do_init_module;do_one_initcall;[unverified_bonding_init];bond_create;register_netdevice 1" ]
	for f in "$D"/*.trace "$D"/*.log; do
		"$BT" report -f folded "$f" >"$T/f"
		[ -s "$T/f" ]
		! grep -Ev '^[^; ]+(;[^; ]+)* [1-9][0-9]*$' "$T/f"
	done
	if command -v flamegraph.pl >/dev/null; then
		flamegraph.pl "$T/f" >"$T/f.svg"
		grep -q '<svg' "$T/f.svg"
	fi
}

@test "JSON is valid for every fixture" {
	for f in "$D"/*.trace "$D"/*.log "$D/snapshot-amd64-stack"; do
		"$BT" report -f json "$f" | python3 -m json.tool >/dev/null
	done
}

@test "a pipe, standard input, one thread or two: the same report (trace, console log, 12 MB)" {
	for f in debian-6.1-amd64-stack.trace debian-6.1-console-stack.log; do
		"$BT" report -f json "$D/$f" | sed 4d >"$T/file.json"
		"$BT" report -f json - <"$D/$f" | sed 4d >"$T/stdin.json"
		cat "$D/$f" | "$BT" report -f json - | sed 4d >"$T/pipe.json"
		cmp "$T/file.json" "$T/stdin.json"
		cmp "$T/file.json" "$T/pipe.json"
		"$BT" report -f json <(cat "$D/$f") | sed 4d >"$T/fifo.json"
		cmp "$T/file.json" "$T/fifo.json"
	done
	# 12 MB: three mapped windows for the file, counted on a second
	# thread (two CPUs) or not (BOOTTRACE_THREADS=1); 4 MB reads for the pipe
	[ "$(nproc)" -gt 1 ] || echo "# one CPU: the counting thread is not tested" >&3
	mawk -v MB=12 -v NSTACKS=3000 -f "$BATS_TEST_DIRNAME/../bench/gen-trace.awk" >"$T/big"
	"$BT" report -f json "$T/big" | sed 4d >"$T/file.json"
	BOOTTRACE_THREADS=1 "$BT" report -f json "$T/big" | sed 4d >"$T/one.json"
	cat "$T/big" | "$BT" report -f json - | sed 4d >"$T/pipe.json"
	cmp "$T/file.json" "$T/one.json"
	cmp "$T/file.json" "$T/pipe.json"
	[ "$(json "$T/file.json" "j['trace']['entries'] > 60000")" = True ]
	run "$BT" report - </dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"the trace has no entries"* ]]
	run "$BT" report - < <(printf 'x\0y')
	[ "$status" -eq 1 ]
	[[ "$output" == *"standard input: error: binary data"* ]]
}

@test "bad input: binary, directory without trace, not a trace, truncated, empty" {
	head -c 100000 /dev/urandom >"$T/bin"
	printf 'x\0y' >>"$T/bin"
	run "$BT" report "$T/bin"
	[ "$status" -eq 1 ]
	[[ "$output" == *"binary data"* ]]
	mkdir "$T/d"
	run "$BT" report "$T/d"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no readable 'trace' file: not a snapshot directory"* ]]
	printf 'hello\nworld\n' >"$T/t"
	run "$BT" report "$T/t"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no trace line in 2 lines"* ]]
	head -c 800 "$D/debian-6.1-amd64-stack.trace" >"$T/cut"
	run "$BT" report "$T/cut"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the last line has no newline"* ]]
	head -n 12 "$D/debian-6.1-amd64-stack.trace" >"$T/empty"
	run "$BT" report "$T/empty"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the trace is empty although tracer \"function\" is set"* ]]
	{ cat "$D/debian-6.1-amd64-stack.trace"; printf 'garbage line\n'; } >"$T/g"
	run "$BT" report "$T/g"
	[ "$status" -eq 0 ]
	[[ "$output" == *"skipped 1 line(s) that are not trace text (first at line 24)"* ]]
	run "$BT" report -f xml "$D/debian-6.1-amd64-stack.trace"
	[ "$status" -eq 2 ]
	run "$BT" report "$T/missing"
	[ "$status" -ne 0 ]
	[[ "$output" == *"cannot read the input"* ]]
	mkdir -p "$T/d2/trace"	# the error names it (it was freed before)
	run "$BT" report "$T/d2"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/d2/trace: error: is a directory, not a trace: give a regular file (or pipe the data to '-', standard input)" ]
}

@test "a trace file that shrinks while it is read: an error that says so, not a crash" {
	cc -shared -fPIC -o "$T/shrink.so" "$BATS_TEST_DIRNAME/helpers/shrink-on-mmap.c" -ldl
	mawk -v MB=12 -v NSTACKS=3000 -f "$BATS_TEST_DIRNAME/../bench/gen-trace.awk" >"$T/t"
	size=$(stat -c %s "$T/t")
	# ASan: its own SIGBUS handler would take the signal first
	SHRINK_PATH="$T/t" SHRINK_TO=1000000 LD_PRELOAD="$T/shrink.so" \
		ASAN_OPTIONS=verify_asan_link_order=0:handle_sigbus=0 \
		run "$BT" report "$T/t"
	[ "$status" -eq 1 ]
	[[ "$output" == "$T/t: error: the file shrank while it was read ($size bytes when opened; a page after byte 0 was gone): it is being rewritten; report on a copy that is not" ]]
	[ "$(stat -c %s "$T/t")" -eq 1000000 ]
	run "$BT" report "$T/t"	# what is left of it reads
	[ "$status" -eq 0 ]
}

@test "hook meta: its errors and warnings become findings; no trace: the hook's error is the answer" {
	mkdir "$T/nosys"
	printf 'format=1\nerrors=1\nwarnings=0\nerror=no tracefs: /sys is not mounted (mount sysfs before the hook runs)\n' >"$T/nosys/meta"
	echo "errors=1 warnings=0" >"$T/nosys/COMPLETE"
	run "$BT" report "$T/nosys"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the hook copied no trace: no tracefs: /sys is not mounted (mount sysfs before the hook runs)"* ]]
	cp -r "$D/snapshot-amd64-stack" "$T/cut"
	printf 'format=1\nerror=trace truncated at 256 KB (boottrace.max_kb=256)\nwarning=tracing_on was already 0 before the hook\n' >"$T/cut/meta"
	run "$BT" report "$T/cut"
	[ "$status" -eq 0 ]
	[[ "$output" == *"! the hook recorded: trace truncated at 256 KB (boottrace.max_kb=256)"* ]]
	[[ "$output" == *"! the hook recorded: tracing_on was already 0 before the hook"* ]]
	"$BT" report -f json "$T/cut" >"$T/cut.json"
	[ "$(json "$T/cut.json" '[f["code"] for f in j["findings"] if f["code"].startswith("hook-")]')" = "['hook-error', 'hook-warning']" ]
}

@test "hook meta: tracing_on 0 after the hook's own stop is not blamed; tracing_on_before=0 is" {
	mkdir "$T/s"
	head -n 12 "$D/debian-6.1-amd64-stack.trace" >"$T/s/trace"
	echo 0 >"$T/s/tracing_on"
	echo nop >"$T/s/tracer"
	printf 'format=1\ntracing_on_before=1\nstopped=1\n' >"$T/s/meta"
	run "$BT" report "$T/s"
	[ "$status" -eq 0 ]
	[[ "$output" != *"tracing_on is 0"* ]]
	[[ "$output" == *"the trace has no entries (tracer nop)"* ]]
	printf 'format=1\ntracing_on_before=0\nstopped=1\n' >"$T/s/meta"
	run "$BT" report "$T/s"
	[[ "$output" == *"the trace is empty and tracing_on is 0"* ]]
}

@test "hook meta: each hook error stands beside every function's culprits (text and JSON hook_errors)" {
	cp -r "$D/snapshot-amd64-stack" "$T/cut"
	printf 'format=1\nerror=boottrace.arm: cannot write bond_create:mod:bonding to set_ftrace_filter\nwarning=tracing_on was already 0 before the hook\n' >"$T/cut/meta"
	run "$BT" report "$T/cut"
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit: "*"hook error, which may have cost this answer: boottrace.arm: cannot write bond_create:mod:bonding to set_ftrace_filter"* ]]
	[[ "$output" != *"which may have cost this answer: tracing_on"* ]]
	"$BT" report -f json "$T/cut" >"$T/cut.json"
	[ "$(json "$T/cut.json" 'sorted(set(str(f["hook_errors"]) for f in j["functions"]))')" = "[\"['boottrace.arm: cannot write bond_create:mod:bonding to set_ftrace_filter']\"]" ]
	"$BT" report -f json "$D/snapshot-amd64-stack" >"$T/clean.json"
	[ "$(json "$T/clean.json" 'sorted(set(len(f["hook_errors"]) for f in j["functions"]))')" = "[0]" ]
}

@test "--system-map: Debian's placeholder System.map is named as one, with where the real map is" {
	printf 'ffffffffffffffff B The real System.map is in the linux-image-6.1.0-56-cloud-amd64-dbg package\n' >"$T/System.map"
	run "$BT" report --system-map "$T/System.map" "$D/snapshot-amd64-stack"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a placeholder, not a symbol table: the real System.map is in the linux-image-6.1.0-56-cloud-amd64-dbg package"*"--kallsyms"* ]]
}

# ---- no INPUT: boot records (collect's, in --state) and this boot's snapshot ----

# A record as collect writes one: the mark (its time: TIME), the snapshot's
# files, a cmdline. mkrec ID TIME TRACE [CMDLINE]
mkrec() {
	mkdir -p "$S/$1"
	printf 'boottrace-record/1\nboot_id=%s\ncollected=%s\n' "$1" "$2" >"$S/$1/.boottrace-record"
	cp "$D/$3" "$S/$1/trace"
	printf '%s\n' "${4:-BOOT_IMAGE=/vmlinuz root=/dev/vda1}" >"$S/$1/cmdline"
	echo 'errors=0 warnings=0 collect_errors=0 collect_warnings=0' >"$S/$1/COMPLETE"
}

records() { # three boots; the oldest has the newest mtime
	S="$T/state"
	ID=$(cat /proc/sys/kernel/random/boot_id)
	mkrec 0ld0ld00-0000-0000-0000-000000000001 1700000000 debian-6.1-amd64-lineage.trace \
		'root=/dev/vda1 boottrace.ask=who-calls:register_netdevice'
	mkrec 5ec0d000-0000-0000-0000-000000000002 1700086400 debian-6.1-amd64-kprobe.trace
	mkrec "$ID" 1700172800 debian-6.1-amd64-frames.trace \
		'root=/dev/vda1 boottrace.ask=who-creates:bond0 quiet'
	rm "$S/$ID/COMPLETE"
	touch -d '2030-01-01' "$S/0ld0ld00-0000-0000-0000-000000000001"
}

@test "no INPUT: the newest record by the time collect wrote in it (not mtime), said first; --boot as journalctl -b or a boot id's start" {
	records
	run --separate-stderr "$BT" report --state "$S" --run "$T/run"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "${lines[0]}" = "boot $ID (this boot): its record $S/$ID, collected 2023-11-16 22:13:20 UTC" ]
	[ "${lines[1]}" = "boottrace report: $S/$ID (snapshot)" ]
	# then the report of that record, as report DIR writes it
	cmp <(sed 1,2d <<<"$output") <("$BT" report "$S/$ID")
	run "$BT" report --state "$S" --boot -1
	[ "${lines[0]}" = "boot 5ec0d000-0000-0000-0000-000000000002 (an earlier boot, --boot -1): its record $S/5ec0d000-0000-0000-0000-000000000002, collected 2023-11-15 22:13:20 UTC" ]
	run "$BT" report --state "$S" --boot 1
	[[ "${lines[0]}" == "boot 0ld0ld00-0000-0000-0000-000000000001 (an earlier boot, --boot -2)"* ]]
	run "$BT" report --state "$S" --boot 5EC0
	[[ "${lines[0]}" == "boot 5ec0d000-"* ]]
	run "$BT" report --state "$S" --boot 0
	[[ "${lines[0]}" == "boot $ID (this boot)"* ]]
	run "$BT" report --state "$S" --boot 4
	[ "$status" -eq 1 ]
	[ "$output" = "boottrace report: error: --boot 4: $S holds 3 records: 0 is the newest, -2 the oldest (or 1 the oldest, 3 the newest); boottrace report --list shows them" ]
	run "$BT" report --state "$S" --boot ffff
	[ "$status" -eq 1 ]
	[[ "$output" == *"--boot ffff: no record's boot id starts so in $S"* ]]
	mkrec 5ec0d000-1111-0000-0000-000000000003 1600000000 debian-6.1-amd64-kprobe.trace
	run "$BT" report --state "$S" --boot 5ec0d000
	[ "$status" -eq 1 ]
	[[ "$output" == *"--boot 5ec0d000: 2 records' boot ids start so in $S: give more of the boot id"* ]]
}

@test "--list: oldest first, the --boot number, when, the question asked (boottrace.ask=), complete or not, this boot" {
	records
	mkdir "$S/not-a-record" "$S/.$ID.tmp-99"
	printf 'boottrace-record/1\ncollected=1800000000\n' >"$S/.$ID.tmp-99/.boottrace-record"
	run --separate-stderr "$BT" report --list --state "$S"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "  -2  0ld0ld00-0000-0000-0000-000000000001  2023-11-14 22:13:20 UTC  who-calls register_netdevice  complete" ]
	[ "${lines[1]}" = "  -1  5ec0d000-0000-0000-0000-000000000002  2023-11-15 22:13:20 UTC  (asked nothing)  complete" ]
	[ "${lines[2]}" = "   0  $ID  2023-11-16 22:13:20 UTC  who-creates bond0  incomplete  (this boot)" ]
	[ -z "$stderr" ]
	# errors the hook or collect counted, and a word that is not KIND:OBJECT
	echo 'errors=1 warnings=0 collect_errors=2 collect_warnings=0' >"$S/5ec0d000-0000-0000-0000-000000000002/COMPLETE"
	echo 'root=/dev/vda1 boottrace.ask=bond0' >"$S/0ld0ld00-0000-0000-0000-000000000001/cmdline"
	run "$BT" report --list --state "$S"
	[ "${lines[0]}" = "  -2  0ld0ld00-0000-0000-0000-000000000001  2023-11-14 22:13:20 UTC  (a boottrace.ask= word that is not KIND:OBJECT)  complete" ]
	[ "${lines[1]}" = "  -1  5ec0d000-0000-0000-0000-000000000002  2023-11-15 22:13:20 UTC  (asked nothing)  complete, 3 errors" ]
	run --separate-stderr "$BT" report --list --state "$T/nowhere"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$stderr" = "boottrace report: note: no record in $T/nowhere" ]
}

@test "no INPUT and no record: this boot's live snapshot (a later one of the boot first), said so; nothing at all is one line, exit 1" {
	ID=$(cat /proc/sys/kernel/random/boot_id)
	mkdir -p "$T/run/$ID" "$T/run/$ID-2"
	cp "$D/debian-6.1-amd64-kprobe.trace" "$T/run/$ID/trace"
	cp "$D/debian-6.1-amd64-frames.trace" "$T/run/$ID-2/trace"
	run "$BT" report --state "$T/state" --run "$T/run"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "boot $ID (this boot): its live snapshot $T/run/$ID-2, not yet a record (boottrace collect makes one)" ]
	[ "${lines[1]}" = "boottrace report: $T/run/$ID-2 (snapshot)" ]
	rm -rf "$T/run"
	run "$BT" report --state "$T/state" --run "$T/run"
	[ "$status" -eq 1 ]
	[ "$output" = "boottrace report: error: no record in $T/state and no snapshot of this boot in $T/run: this boot asked for no tracing; to trace the next boot, run boottrace ask QUESTION (boottrace ask who-creates bond0), reboot, then boottrace report" ]
	# JSON: standard output is the report alone, the block goes to stderr
	records
	run --separate-stderr "$BT" report -f json --state "$S"
	[ "$status" -eq 0 ]
	python3 -c 'import json,sys; json.loads(sys.argv[1])' "$output"
	[[ "$stderr" == "boot $ID (this boot): its record $S/$ID"* ]]
	run --separate-stderr "$BT" report -q -f json --state "$S"
	[ -z "$stderr" ]
}

# arm-boot's state beside the records, as arm-boot --root leaves it
armed() {
	mkdir -p "$T/groot/boot/grub"
	cp "$BATS_TEST_DIRNAME/../data/arm-boot/grub.cfg" "$T/groot/boot/grub/grub.cfg"
	grub-editenv "$T/groot/boot/grub/grubenv" create
	"$BT" arm-boot -q --loader grub --root "$T/groot" --state "$S/arm-boot" --line 'root=/dev/vda1 ftrace=function'
}

@test "arm-boot's state among the records: report DIR says what it is; report STATE/*/ works while armed; the top says the next boot is armed" {
	records
	rm -r "$S/0ld0ld00-0000-0000-0000-000000000001" "$S/5ec0d000-0000-0000-0000-000000000002"
	armed
	run "$BT" report "$S/arm-boot"
	[ "$status" -eq 1 ]
	[ "$output" = "$S/arm-boot: error: arm-boot's state (grub: the one-shot is still to come), not a boot record: give a record (STATE/<boot-id>), or no INPUT for the newest record" ]
	run --separate-stderr "$BT" report "$S"/*/
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ "$stderr" = "$S/arm-boot/: note: arm-boot's state (grub: the one-shot is still to come), not a boot record: left out" ]
	[ "${lines[0]}" = "boottrace report: $S/$ID/ (snapshot)" ]
	run "$BT" report --state "$S"
	[ "${lines[1]}" = "the next boot is armed by arm-boot (grub); boottrace disarm-boot undoes it" ]
	run --separate-stderr "$BT" report --list --state "$S"
	[ "${#lines[@]}" -eq 1 ]
	[ "$stderr" = "the next boot is armed by arm-boot (grub); boottrace disarm-boot undoes it" ]
	# several records: each in turn, a blank line between
	mkrec 5ec0d000-0000-0000-0000-000000000002 1700086400 debian-6.1-amd64-kprobe.trace
	run "$BT" report "$S"/*/
	[ "$status" -eq 0 ]
	[ "$(grep -c '^boottrace report: ' <<<"$output")" -eq 2 ]
	# the loader took the one-shot: said, not as armed
	grub-editenv "$T/groot/boot/grub/grubenv" set next_entry=
	run "$BT" report --state "$S"
	[[ "${lines[1]}" == "arm-boot's one-shot (grub) was taken by the bootloader, but its state is still there: boottrace collect (or disarm-boot) puts its files back" ]]
}

@test "no INPUT: usage errors" {
	run "$BT" report --list "$D/debian-6.1-amd64-kprobe.trace"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--list lists the records of the state directory: no INPUT, --boot or --diff with it"* ]]
	run "$BT" report --state "$T" "$D/debian-6.1-amd64-kprobe.trace"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--state and --run say where to look when no INPUT is given"* ]]
	run "$BT" report -f json "$D/debian-6.1-amd64-kprobe.trace" "$D/debian-6.1-amd64-frames.trace"
	[ "$status" -eq 2 ]
	[[ "$output" == *"several INPUTs are reported one after another as text: -f json takes one INPUT"* ]]
	run "$BT" report --boot -1 "$D/debian-6.1-amd64-kprobe.trace"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--boot with an INPUT picks a snapshot of a console log: a number from 1, not '-1'"* ]]
}
