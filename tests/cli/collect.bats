#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace collect: this boot's snapshot + a live tracefs (fixtures with
# known times) -> one boot record; its errors, the join, pruning, the unit.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	ROOT="$BATS_TEST_DIRNAME/../.."
	T="$BATS_TEST_TMPDIR"
	ID=$(cat /proc/sys/kernel/random/boot_id)
	RUN="$T/run"
	SNAP="$RUN/$ID"
	TFS="$T/tracefs"
	STATE="$T/state"
	MNT=
	. "$ROOT/tests/lib/testenv.sh"   # bt_make: make with no inherited build flags or MAKEFLAGS
	: >"$T/empty.conf"
	snapshot
	live
}

teardown() {
	if [ -n "$MNT" ] && mountpoint -q "$MNT"; then umount "$MNT"; fi
}

HEAD='# tracer: function
#
# entries-in-buffer/entries-written: 4/4   #P:2
#
#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
#              | |         |   |||||     |         |'

# The hook's snapshot: two CPUs, the last event of CPU 0 at 2.406534 (two
# events at that time), of CPU 1 at 2.500000.
snapshot() {
	mkdir -p "$SNAP/per_cpu/cpu0" "$SNAP/options"
	cat >"$SNAP/trace" <<EOF
$HEAD
         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create
         busybox-92      [000] .....     2.406534: <stack trace>
 => register_netdevice
 => bond_create
 => bonding_init
         busybox-92      [000] .....     2.406534: dev_open <-bond_open
          insmod-93      [001] .....     2.500000: register_netdevice <-loopback_net_init
EOF
	printf 'format=1\nversion=0.1.0\nboot_id=%s\npoint=init-top\nuptime_start=4.41\nuptime_end=4.73\nstopped=1\nfollow=1\nresumed=1\nerrors=0\nwarnings=0\n' "$ID" >"$SNAP/meta"
	echo "errors=0 warnings=0" >"$SNAP/COMPLETE"
	echo "[local] global counter" >"$SNAP/trace_clock"
	echo function >"$SNAP/tracer"
	echo "BOOT_IMAGE=/vmlinuz root=/dev/vda1 boottrace.follow=1" >"$SNAP/cmdline"
	echo "6.1.0-27-cloud-amd64" >"$SNAP/release"
	echo "bonding 200704 0 - Live 0xffffffffc0100000" >"$SNAP/modules"
	echo "[    0.000000] Linux version 6.1" >"$SNAP/dmesg"
	printf 'entries: 3\noverrun: 0\n' >"$SNAP/per_cpu/cpu0/stats"
	echo 1 >"$SNAP/options/func_stack_trace"
}

# tracefs now: the snapshot's events still there, then the rest of the boot.
live() {
	mkdir -p "$TFS/per_cpu/cpu0" "$TFS/per_cpu/cpu1"
	cat >"$TFS/trace" <<EOF
$HEAD
         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create
         busybox-92      [000] .....     2.406534: <stack trace>
 => register_netdevice
 => bond_create
 => bonding_init
         busybox-92      [000] .....     2.406534: dev_open <-bond_open
          insmod-93      [001] .....     2.500000: register_netdevice <-loopback_net_init
              ip-300     [000] .....     2.406534: dev_close <-late
              ip-300     [001] .....     9.100000: register_netdevice <-rtnl_newlink
              ip-300     [001] .....     9.100001: <stack trace>
 => register_netdevice
 => rtnl_newlink
 => rtnetlink_rcv_msg
EOF
	echo 1 >"$TFS/tracing_on"
	echo "[local] global counter" >"$TFS/trace_clock"
	echo function >"$TFS/current_tracer"
	printf 'entries: 5\noverrun: 0\ndropped events: 0\n' >"$TFS/per_cpu/cpu0/stats"
	cp "$TFS/per_cpu/cpu0/stats" "$TFS/per_cpu/cpu1/stats"
}

collect() {
	run "$BT" collect --run "$RUN" --state "$STATE" --tracefs "$TFS" --config "$T/empty.conf" "$@"
}

# nothing of ours left in DIR (no record, no temporary directory)
empty_of_records() {
	[ -z "$(find "$1" -mindepth 1 -maxdepth 1 2>/dev/null)" ]
}

@test "collect --help and the verb list name collect" {
	run "$BT" collect --help
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"usage: boottrace collect"* ]]
	[[ "$output" == *"--keep N"* ]]
	run "$BT" --help
	[[ "$output" == *"collect [--keep N]"* ]]
	run "$BT" collect --keep 0
	[ "$status" -eq 2 ]
	[[ "$output" == *"--keep takes a whole number of records from 1 to 1000, not '0'"* ]]
	run "$BT" collect extra
	[ "$status" -eq 2 ]
}

@test "no tracefs: exit 3, says so, nothing written" {
	run "$BT" collect --run "$RUN" --state "$STATE" --tracefs "$T/nowhere" --config "$T/empty.conf"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$T/nowhere: error: no tracefs here (no readable 'trace' file)"* ]]
	empty_of_records "$STATE"
}

@test "no snapshot of this boot: exit 1, says why, nothing written" {
	rm -rf "$SNAP"
	mkdir -p "$RUN/0123-other-boot"
	collect
	[ "$status" -eq 1 ]
	[[ "$output" == *"$RUN/$ID: error: no initramfs snapshot of this boot"* ]]
	empty_of_records "$STATE"
	# a directory that is not a snapshot
	mkdir -p "$SNAP"
	collect
	[ "$status" -eq 1 ]
	[[ "$output" == *"holds neither 'trace' nor 'meta'"* ]]
}

@test "the join: the snapshot whole, then each CPU's events after its last one" {
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"$STATE/$ID: boot record from $SNAP (tracing stopped; 0 errors, 0 warnings"* ]]
	R="$STATE/$ID"
	# the snapshot's lines, then exactly the new live ones
	# (without the snapshot buffer's entry counts, which are not the record's)
	{
		grep -v '^# entries-in-buffer/entries-written: ' "$SNAP/trace"
		sed -n '/dev_close <-late/,$p' "$TFS/trace"
	} >"$T/want"
	diff "$T/want" "$R/trace"
	grep -qx 'join=yes' "$R/meta"
	grep -qx 'join_snapshot_events=4' "$R/meta"
	grep -qx 'join_live_events=3' "$R/meta"
	grep -qx 'join_overlap=4' "$R/meta"
	grep -qx 'join_snapshot_end=2.500000' "$R/meta"
	grep -qx 'join_live_start=2.406534' "$R/meta"
	grep -qx 'join_live_end=9.100001' "$R/meta"
	# the hook's meta is kept, first
	head -1 "$R/meta" | grep -qx 'format=1'
	grep -qx 'point=init-top' "$R/meta"
}

@test "the join: a tie at the snapshot's last time counts the snapshot's events once" {
	# CPU 0 had two events at 2.406534; a third at that time is new
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(grep -c '2.406534:' "$STATE/$ID/trace")" -eq 3 ]
	[ "$(grep -c 'dev_close <-late' "$STATE/$ID/trace")" -eq 1 ]
}

@test "a gap: the live buffer wrapped past the snapshot's end on CPU 0 (error in meta and record.json, exit 0)" {
	cat >"$TFS/trace" <<EOF
$HEAD
##### CPU 0 buffer started ####
          insmod-93      [001] .....     2.500000: register_netdevice <-loopback_net_init
            sshd-500     [000] .....     7.000000: dev_open <-x
              ip-300     [001] .....     9.100000: register_netdevice <-rtnl_newlink
EOF
	# a ring that wrapped counts what it overwrote
	printf 'entries: 1\noverrun: 12\ndropped events: 0\n' >"$TFS/per_cpu/cpu0/stats"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"boottrace collect: error: gap on CPU 0 from 2.406534 to 7.000000: the live buffer wrapped"* ]]
	R="$STATE/$ID"
	grep -q '^error=gap on CPU 0 from 2.406534 to 7.000000' "$R/meta"
	grep -qx 'collect_errors=1' "$R/meta"
	[ "$(jq '.join.gaps | length' "$R/record.json")" = 1 ]
	[ "$(jq '.join.gaps[0].cpu' "$R/record.json")" = 0 ]
	[ "$(jq '.join.gaps[0].from' "$R/record.json")" = 2.406534 ]
	[ "$(jq '.join.gaps[0].to' "$R/record.json")" = 7 ]
	[ "$(jq '.errors | length' "$R/record.json")" = 1 ]
	# the new events of both CPUs are in, the old one of CPU 1 is not twice
	grep -q 'dev_open <-x' "$R/trace"
	[ "$(grep -c 'loopback_net_init' "$R/trace")" -eq 1 ]
	# report shows collect's error as one the record holds
	run "$BT" report "$R"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"gap on CPU 0 from 2.406534 to 7.000000"* ]]
}

@test "a gap: the live buffer was cleared (no event of a CPU), and dropped events are errors" {
	cat >"$TFS/trace" <<EOF
$HEAD
              ip-300     [001] .....     9.100000: register_netdevice <-rtnl_newlink
EOF
	printf 'entries: 1\noverrun: 0\ndropped events: 7\n' >"$TFS/per_cpu/cpu1/stats"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"gap on CPU 0 after 2.406534: the live buffer holds no event of this CPU"* ]]
	[[ "$output" == *"the live buffer dropped 7 events"* ]]
	[ "$(jq '.join.gaps[0].cleared' "$STATE/$ID/record.json")" = true ]
	[ "$(jq '.join.gaps[0].to' "$STATE/$ID/record.json")" = null ]
	[ "$(jq '.join.live_dropped' "$STATE/$ID/record.json")" = 7 ]
}

@test "a snapshot cut mid-line (max_kb): the cut line is left out, the live events after it joined" {
	printf '%s' "              ip-300     [001] .....     2.6000" >>"$SNAP/trace"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"warning: the snapshot's trace ended in a cut line"* ]]
	! grep -q '2.6000$' "$STATE/$ID/trace"
	grep -q 'rtnl_newlink' "$STATE/$ID/trace"
	[ "$(jq '.join.snapshot_cut' "$STATE/$ID/record.json")" = true ]
}

@test "different trace clocks: not joined, said, the snapshot kept (and with follow=1 the record is empty: exit 1)" {
	echo "local [global] counter" >"$TFS/trace_clock"
	collect
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"error: the record is empty: its live window is empty: the boot asked to trace past the initramfs (boottrace.follow=1)"*"(the trace clock changed"* ]]
	[[ "$output" == *"live trace not joined: the trace clock changed from local (snapshot) to global (live)"* ]]
	grep -v '^# entries-in-buffer/entries-written: ' "$SNAP/trace" | diff - "$STATE/$ID/trace"
	[ "$(jq '.windows[1].joined' "$STATE/$ID/record.json")" = false ]
}

@test "the hook's pause is not a gap: stopped for the copy, turned back on, nothing overwritten" {
	# tracing_on 0 -> 1 empties the buffer under the function tracer
	# (docs/kernel-facts.md 36): the live buffer starts after the resume
	grep -qx 'stopped=1' "$SNAP/meta"
	grep -qx 'resumed=1' "$SNAP/meta"
	cat >"$TFS/trace" <<EOF
$HEAD
            sshd-500     [000] .....     7.000000: dev_open <-x
              ip-300     [001] .....     9.100000: register_netdevice <-rtnl_newlink
EOF
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" != *"gap on CPU"* ]]
	R="$STATE/$ID"
	grep -qx 'join_pause=CPU 0: tracing was off from 2.406534 (the snapshot) until the hook turned it back on; its next event is at 7.000000 (nothing lost)' "$R/meta"
	grep -qx 'collect_errors=0' "$R/meta"
	[ "$(jq -c '[.join.paused, (.join.gaps | length), (.errors | length)]' "$R/record.json")" = '[true,0,0]' ]
	grep -q 'dev_open <-x' "$R/trace"
	# the same with an overrun is a loss
	printf 'entries: 1\noverrun: 3\ndropped events: 0\n' >"$TFS/per_cpu/cpu0/stats"
	collect
	[[ "$output" == *"error: gap on CPU 0 from 2.406534 to 7.000000"* ]]
}

@test "record.json is valid JSON with the schema, boot, host, kernel, cmdline and windows" {
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	J="$STATE/$ID/record.json"
	jq -e . "$J" >/dev/null
	[ "$(jq -r .schema "$J")" = boottrace-record ]
	[ "$(jq .version "$J")" = 1 ]
	[ "$(jq -r .boot_id "$J")" = "$ID" ]
	[ "$(jq -r .hostname "$J")" = "$(uname -n)" ]
	[ "$(jq -r .kernel_release "$J")" = 6.1.0-27-cloud-amd64 ]
	[ "$(jq -r .cmdline "$J")" = "BOOT_IMAGE=/vmlinuz root=/dev/vda1 boottrace.follow=1" ]
	[ "$(jq -r '.windows[0].name' "$J")" = initramfs ]
	[ "$(jq '.windows[0].uptime_start' "$J")" = 4.41 ]
	[ "$(jq '.windows[0].uptime_end' "$J")" = 4.73 ]
	[ "$(jq '.windows[0].start' "$J")" = 2.406358 ]
	[ "$(jq '.windows[0].end' "$J")" = 2.5 ]
	[ "$(jq '.windows[0].events' "$J")" = 4 ]
	[ "$(jq '.windows[0].complete' "$J")" = true ]
	[ "$(jq -r '.windows[1].name' "$J")" = live ]
	[ "$(jq '.windows[1].start' "$J")" = 2.406534 ]
	[ "$(jq '.windows[1].end' "$J")" = 9.100001 ]
	[ "$(jq '.windows[1].events' "$J")" = 3 ]
	[ "$(jq '.windows[1].uptime_end >= .windows[1].uptime_start' "$J")" = true ]
	[ "$(jq -r '.collected.tracing_after' "$J")" = stopped ]
	[ "$(jq -r '.join.clock' "$J")" = local ]
	[[ "$(jq -r '.collected.utc' "$J")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$ ]]
	[ "$(jq '.snapshot_broken' "$J")" = null ]
}

# The initramfs lacked programs (an initramfs-tools image without busybox
# before its build hook copied its own): the hook went on and said so in
# meta. The record holds what there is; collect fails so its unit does.
@test "a snapshot with the hook's errors (programs missing): the record written, exit 1, the first error said" {
	printf 'error=copy of %s/tracer: cp: not found\nerror=trace: copy failed: dd: bad operand '"'"'iflag=fullblock'"'"'\n' "$SNAP" >>"$SNAP/meta"
	sed -i 's/^errors=0$/errors=2/' "$SNAP/meta"
	echo "errors=2 warnings=0" >"$SNAP/COMPLETE"
	collect
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"$STATE/$ID: boot record from $SNAP"* ]]
	[[ "$output" == *"$SNAP: error: the snapshot is broken: the hook recorded 2 errors in its meta, the first: copy of $SNAP/tracer: cp: not found; the record holds what could be copied"* ]]
	R="$STATE/$ID"
	[ -f "$R/COMPLETE" ] && [ -f "$R/.boottrace-record" ]
	grep -q 'rtnl_newlink' "$R/trace"
	grep -qx "error=copy of $SNAP/tracer: cp: not found" "$R/meta"
	[[ "$(jq -r '.snapshot_broken' "$R/record.json")" == "the snapshot is broken: the hook recorded 2 errors"* ]]
	[ "$(jq '.hook_errors | length' "$R/record.json")" = 2 ]
}

@test "a snapshot without COMPLETE or without meta: the record written, exit 1, said why" {
	rm "$SNAP/COMPLETE"
	collect
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"$SNAP: error: the snapshot is broken: it has no COMPLETE (the hook was interrupted or could not write)"* ]]
	[ "$(jq '.windows[0].complete' "$STATE/$ID/record.json")" = false ]
	[[ "$(jq -r '.snapshot_broken' "$STATE/$ID/record.json")" == *"no COMPLETE"* ]]
	snapshot
	rm "$SNAP/meta"
	collect
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"$SNAP: error: the snapshot is broken: its meta cannot be read"* ]]
	grep -q 'rtnl_newlink' "$STATE/$ID/trace"
}

@test "report reads the record as a snapshot: the live culprit too" {
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	run "$BT" report "$STATE/$ID"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"(snapshot $ID, kernel 6.1.0-27-cloud-amd64)"* ]]
	[[ "$output" == *"culprit: bonding_init -> bond_create -> register_netdevice"* ]]
	[[ "$output" == *"culprit: rtnetlink_rcv_msg -> rtnl_newlink -> register_netdevice"*"by ip-300"* ]]
	"$BT" report -f json "$STATE/$ID" >"$T/r.json"
	[ "$(jq -r .input.kind "$T/r.json")" = snapshot ]
	[ "$(jq -r .input.boot_id "$T/r.json")" = "$ID" ]
	[ "$(jq -r .input.release "$T/r.json")" = 6.1.0-27-cloud-amd64 ]
	# the record's layout: the snapshot's own files kept beside the live ones
	R="$STATE/$ID"
	[ -f "$R/COMPLETE" ] && [ -f "$R/options/func_stack_trace" ] && [ -f "$R/per_cpu/cpu0/stats" ]
	diff "$SNAP/meta" "$R/initramfs/meta"
	diff "$SNAP/modules" "$R/initramfs/modules"
	[ -f "$R/live/per_cpu/cpu1/stats" ] && [ "$(cat "$R/live/tracing_on")" = 1 ]
	grep -q 'collect_errors=0' "$R/COMPLETE"
	[ "$(stat -c %a "$R")" = 700 ]
}

@test "tracing after collect: follow=1 stops it, keep leaves it, no follow leaves it unchanged" {
	collect
	[ "$(cat "$TFS/tracing_on")" = 0 ]
	echo 1 >"$TFS/tracing_on"
	sed -i 's/^follow=1$/follow=keep/' "$SNAP/meta"
	collect
	[[ "$output" == *"tracing kept on"* ]]
	[ "$(cat "$TFS/tracing_on")" = 1 ]
	sed -i '/^follow=/d' "$SNAP/meta"
	collect
	[[ "$output" == *"tracing unchanged"* ]]
	[ "$(cat "$TFS/tracing_on")" = 1 ]
	[ "$(jq -r .collected.tracing_after "$STATE/$ID/record.json")" = unchanged ]
}

@test "a later snapshot of the same boot (<boot-id>-2) is the one collected" {
	cp -a "$SNAP" "$RUN/$ID-2"
	sed -i 's/^point=init-top$/point=init-bottom/' "$RUN/$ID-2/meta"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(jq -r '.windows[0].point' "$STATE/$ID/record.json")" = init-bottom ]
}

@test "a second collect of the same boot replaces its own record whole" {
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	touch "$STATE/$ID/stale-file"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ ! -e "$STATE/$ID/stale-file" ]
	[ "$(find "$STATE" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ]
}

@test "a directory of the final name that collect did not write is refused and left alone" {
	mkdir -p "$STATE/$ID"
	echo mine >"$STATE/$ID/notes"
	collect
	[ "$status" -eq 3 ]
	[[ "$output" == *"$STATE/$ID: error: exists and is not a record of boottrace collect (no .boottrace-record in it)"* ]]
	[ "$(cat "$STATE/$ID/notes")" = mine ]
	[ "$(find "$STATE" -mindepth 1 -maxdepth 1 | wc -l)" -eq 1 ]
}

@test "keep N: the oldest records of ours go, foreign directories and links stay" {
	mkdir -p "$STATE"
	for n in 1 2 3; do
		d="$STATE/0000000$n-old"
		mkdir -p "$d"
		printf 'boottrace-record/1\nboot_id=0000000%s-old\ncollected=%s\n' "$n" "100$n" >"$d/.boottrace-record"
		echo t >"$d/trace"
	done
	mkdir -p "$STATE/foreign" "$STATE/00000004-no-mark" "$T/outside"
	printf 'boottrace-record/1\ncollected=1\n' >"$T/outside/.boottrace-record"
	ln -s "$T/outside" "$STATE/00000005-link"
	# a mark that is not ours: not the first line
	mkdir -p "$STATE/00000006-fake"
	printf 'hello\nboottrace-record/1\ncollected=1\n' >"$STATE/00000006-fake/.boottrace-record"
	# a temporary directory a crashed collect left
	mkdir -p "$STATE/.dead.tmp-99999"
	printf 'boottrace-record/1\nboot_id=dead\ncollected=5\n' >"$STATE/.dead.tmp-99999/.boottrace-record"
	collect --keep 2
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"3 older records removed"* ]]
	[[ "$output" == *"removed $STATE/00000001-old (older than the last 2 records)"* ]]
	[ -d "$STATE/$ID" ] && [ -d "$STATE/00000003-old" ]
	[ ! -e "$STATE/00000001-old" ] && [ ! -e "$STATE/00000002-old" ] && [ ! -e "$STATE/.dead.tmp-99999" ]
	[ -d "$STATE/foreign" ] && [ -d "$STATE/00000004-no-mark" ] && [ -d "$STATE/00000006-fake" ]
	[ -L "$STATE/00000005-link" ] && [ -f "$T/outside/.boottrace-record" ]
}

@test "keep from the settings file; a bad line there is FILE:LINE:COL, exit 1" {
	mkdir -p "$STATE/00000001-old"
	printf 'boottrace-record/1\ncollected=1\n' >"$STATE/00000001-old/.boottrace-record"
	printf '# records\nkeep = 1\n' >"$T/collect.conf"
	run "$BT" collect --run "$RUN" --state "$STATE" --tracefs "$TFS" --config "$T/collect.conf"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ ! -e "$STATE/00000001-old" ]
	printf 'keep = 1\nkeep = lots\n' >"$T/bad.conf"
	run "$BT" collect --run "$RUN" --state "$STATE" --tracefs "$TFS" --config "$T/bad.conf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/bad.conf:2:8: error: keep takes a whole number of records from 1 to 1000, not 'lots'"* ]]
	printf 'kept = 3\n' >"$T/bad.conf"
	run "$BT" collect --run "$RUN" --state "$STATE" --tracefs "$TFS" --config "$T/bad.conf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/bad.conf:1:1: error: 'kept = 3' is not a setting of collect"* ]]
	# --keep wins over the file
	run "$BT" collect --run "$RUN" --state "$STATE" --tracefs "$TFS" --config "$T/collect.conf" --keep 3
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "full disk: exit 3 naming the file and ENOSPC, nothing half-written left" {
	MNT="$T/small"
	mkdir -p "$MNT"
	mount -t tmpfs -o size=64k bt-collect "$MNT" || skip "cannot mount tmpfs"
	# a live trace far bigger than the filesystem
	awk -v h="$HEAD" 'BEGIN { print h; for (i = 0; i < 4000; i++) printf "              ip-300     [001] .....     %d.%06d: register_netdevice <-rtnl_newlink\n", 10 + i, i }' >"$TFS/trace"
	run "$BT" collect --run "$RUN" --state "$MNT/state" --tracefs "$TFS" --config "$T/empty.conf"
	[ "$status" -eq 3 ]
	[[ "$output" == *"error: not written"*"No space left on device"* ]]
	empty_of_records "$MNT/state"
}

@test "read-only state directory: exit 3, says so, nothing written" {
	MNT="$T/ro"
	mkdir -p "$MNT"
	mount -t tmpfs -o size=1m bt-collect "$MNT" || skip "cannot mount tmpfs"
	mkdir "$MNT/state"
	mount -o remount,ro "$MNT"
	run "$BT" collect --run "$RUN" --state "$MNT/state" --tracefs "$TFS" --config "$T/empty.conf"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$MNT/state/.$ID.tmp-"*"error: cannot create the record's temporary directory"*"Read-only file system"* ]]
	empty_of_records "$MNT/state"
	# and a state directory that cannot even be made
	run "$BT" collect --run "$RUN" --state "$MNT/state/sub" --tracefs "$TFS" --config "$T/empty.conf"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$MNT/state/sub: error: cannot create the state directory"*"Read-only file system"* ]]
}

@test "make install: the unit and the init script, with the installed binary's path; systemd-analyze verify passes; uninstall removes them" {
	command -v systemd-analyze >/dev/null || skip "systemd-analyze not installed"
	P="$T/prefix"
	bt_make -s -C "$ROOT" install-collect PREFIX="$P" SYSTEMD_UNIT_DIR="$T/units" INITD_DIR="$T/initd" \
		SYSTEMD_GENERATOR_DIR="$T/gens"
	U="$T/units/boottrace-collect.service"
	grep -qx "ExecStart=$P/bin/boottrace collect" "$U"
	grep -qx 'ConditionPathIsDirectory=/run/boottrace' "$U"
	grep -qx 'After=multi-user.target local-fs.target' "$U"
	grep -qx 'WantedBy=multi-user.target' "$U"
	grep -qx 'Type=oneshot' "$U"
	grep -qx "BOOTTRACE=$P/bin/boottrace" "$T/initd/boottrace-collect"
	[ -x "$T/initd/boottrace-collect" ]
	# the binary it names, and the man page its Documentation= names
	mkdir -p "$P/bin" "$P/share/man/man1"
	cp "$BT" "$P/bin/boottrace"
	cp "$ROOT/docs/man/boottrace.1" "$P/share/man/man1/"
	run env MANPATH="$P/share/man" systemd-analyze verify "$U"
	echo "$output"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ -z "$output" ]
	# a unit naming a binary that is not there fails the same check
	sed "s|$P/bin/boottrace|$T/nothing/boottrace|" "$U" >"$T/bad.service"
	run env MANPATH="$P/share/man" systemd-analyze verify "$T/bad.service"
	[ "$status" -ne 0 ]
	bt_make -s -C "$ROOT" uninstall PREFIX="$P" SYSTEMD_UNIT_DIR="$T/units" INITD_DIR="$T/initd" \
		DRACUT_MODULES_DIR="$T/dracut" INITRAMFS_TOOLS_DIR="$T/itools" SYSTEMD_GENERATOR_DIR="$T/gens"
	[ ! -e "$U" ] && [ ! -e "$T/initd/boottrace-collect" ] && [ ! -e "$T/gens/boottrace-generator" ]
}

@test "the generator pulls the unit into multi-user.target on a traced boot only (/run/boottrace), naming the installed unit" {
	bt_make -s -C "$ROOT" install-collect PREFIX="$T/prefix" SYSTEMD_UNIT_DIR="$T/units" INITD_DIR="$T/initd" \
		SYSTEMD_GENERATOR_DIR="$T/gens"
	G="$T/gens/boottrace-generator"
	[ -x "$G" ]
	grep -qx "unit=$T/units/boottrace-collect.service" "$G"
	# a boot the hook did not trace: nothing
	BOOTTRACE_RUN="$T/no-run" "$G" "$T/out1" "$T/early1" "$T/late1"
	[ ! -e "$T/out1" ]
	# a traced boot: the unit is wanted by multi-user.target, as `systemctl enable` would make it
	mkdir -p "$T/run"
	BOOTTRACE_RUN="$T/run" "$G" "$T/out2" "$T/early2" "$T/late2"
	[ "$(readlink "$T/out2/multi-user.target.wants/boottrace-collect.service")" = "$T/units/boottrace-collect.service" ]
	# twice (systemctl daemon-reload runs generators again): the same link
	BOOTTRACE_RUN="$T/run" "$G" "$T/out2" "$T/early2" "$T/late2"
	[ "$(ls "$T/out2/multi-user.target.wants")" = boottrace-collect.service ]
}

@test "the init script: LSB header, POSIX sh, start does nothing on a boot without /run/boottrace" {
	S="$ROOT/systemd/boottrace-collect.init"
	sh -n "$S"
	grep -qx '### BEGIN INIT INFO' "$S"
	grep -qx '# Provides:          boottrace-collect' "$S"
	grep -q '^# Required-Start:.*\$all' "$S"
	grep -qx '# Default-Start:     2 3 4 5' "$S"
	grep -qx '### END INIT INFO' "$S"
	# the collect it runs, through a stand-in binary that records its call
	printf '#!/bin/sh\necho "$@" >%s/called\n' "$T" >"$T/fake"
	chmod +x "$T/fake"
	sed "s|^BOOTTRACE=.*|BOOTTRACE=$T/fake|; s|/etc/default/boottrace-collect|$T/default|g" "$S" >"$T/init"
	echo 'BOOTTRACE_COLLECT_ARGS="--keep 9"' >"$T/default"
	run sh "$T/init" start
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	if [ -d /run/boottrace ]; then
		[ "$(cat "$T/called")" = "collect --keep 9" ]
	else
		[ ! -e "$T/called" ]
	fi
	run sh "$T/init" bogus
	[ "$status" -eq 2 ]
}

# The hook's snapshot mode against the fixture tracefs (BOOTTRACE_TRACEFS),
# with the boot's words from a file; its kernel messages go to a file.
hook() { # CMDLINE
	rm -rf "$RUN"
	printf '%s\n' "$1" >"$T/cmdline"
	BOOTTRACE_TRACEFS="$TFS" BOOTTRACE_KMSG="$T/kmsg" BOOTTRACE_RUN="$RUN" \
		BOOTTRACE_CMDLINE="$T/cmdline" BOOTTRACE_BOOTCONFIG="$T/none" BOOTTRACE_CONF="$T/none" \
		sh "$ROOT/initramfs-hook/boottrace-snapshot.sh" snapshot test
}

@test "hook follow=1 -> collect: tracing on again after the snapshot, the rest of the boot joined, tracing stopped" {
	hook "boottrace boottrace.follow=1"
	[ "$(cat "$TFS/tracing_on")" = 1 ]
	grep -qx 'stopped=1' "$SNAP/meta"
	grep -qx 'follow=1' "$SNAP/meta"
	grep -qx 'resumed=1' "$SNAP/meta"
	grep -q '^resumed_uptime=[0-9]*\.[0-9][0-9]$' "$SNAP/meta"
	# the rest of the boot, into the same buffer
	printf '            sshd-700     [000] .....    12.000000: register_netdevice <-late_one\n' >>"$TFS/trace"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"tracing stopped; 0 errors"* ]]
	[ "$(cat "$TFS/tracing_on")" = 0 ]
	grep -q 'late_one' "$STATE/$ID/trace"
	[ "$(grep -c 'loopback_net_init' "$STATE/$ID/trace")" -eq 1 ]
	grep -qx 'join_live_events=1' "$STATE/$ID/meta"
	[ "$(jq -r '.windows[0].point' "$STATE/$ID/record.json")" = test ]
}

@test "hook: follow=0 leaves tracing stopped; tracing off before the hook is not resumed (a warning)" {
	hook "boottrace"
	[ "$(cat "$TFS/tracing_on")" = 0 ]
	grep -qx 'follow=0' "$SNAP/meta"
	grep -qx 'resumed=0' "$SNAP/meta"
	echo 0 >"$TFS/tracing_on"
	hook "boottrace boottrace.follow=keep"
	[ "$(cat "$TFS/tracing_on")" = 0 ]
	grep -qx 'resumed=0' "$SNAP/meta"
	grep -q '^warning=boottrace.follow=keep: tracing_on was 0 before the hook' "$SNAP/meta"
	grep -q 'boottrace: boottrace.follow=keep: tracing_on was 0' "$T/kmsg"
}

@test "keep 1 keeps the record just written even when an older one was collected at a later clock time" {
	mkdir -p "$STATE/00000001-future"
	printf 'boottrace-record/1\ncollected=99999999999\n' >"$STATE/00000001-future/.boottrace-record"
	collect --keep 1
	[ "$status" -eq 0 ]
	[ -d "$STATE/$ID" ]
	[ ! -e "$STATE/00000001-future" ]
}

@test "record.json stays valid when the hook's meta holds odd uptimes" {
	sed -i 's/^uptime_start=.*/uptime_start=nan/; s/^uptime_end=.*/uptime_end=1e3/' "$SNAP/meta"
	collect
	[ "$status" -eq 0 ]
	jq -e . "$STATE/$ID/record.json" >/dev/null
	[ "$(jq '.windows[0].uptime_start' "$STATE/$ID/record.json")" = null ]
	[ "$(jq '.windows[0].uptime_end' "$STATE/$ID/record.json")" = null ]
}

@test "pstore: records of earlier boots taken from --pstore when the snapshot has none, named in record.json" {
	mkdir -p "$T/pstore"
	printf 'Panic#1 Part1\n<0>[    3.9] Kernel panic - not syncing: x\n' >"$T/pstore/dmesg-ramoops-0"
	collect --pstore "$T/pstore"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	cmp "$T/pstore/dmesg-ramoops-0" "$STATE/$ID/pstore/dmesg-ramoops-0"
	[ "$(jq -c '.pstore' "$STATE/$ID/record.json")" = '["dmesg-ramoops-0"]' ]
	grep -q '^collect_pstore=1 record(s) from ' "$STATE/$ID/meta"
	[ -e "$T/pstore/dmesg-ramoops-0" ]
}

@test "pstore: the hook's copy in the snapshot is the one kept; none at all is an empty list" {
	collect --pstore "$T/nothing"
	[ "$status" -eq 0 ]
	[ "$(jq -c '.pstore' "$STATE/$ID/record.json")" = '[]' ]
	rm -rf "$STATE"
	mkdir -p "$SNAP/pstore" "$T/pstore"
	echo hook >"$SNAP/pstore/dmesg-ramoops-0"
	echo live >"$T/pstore/dmesg-ramoops-1"
	collect --pstore "$T/pstore"
	[ "$status" -eq 0 ]
	[ "$(cat "$STATE/$ID/pstore/dmesg-ramoops-0")" = hook ]
	[ ! -e "$STATE/$ID/pstore/dmesg-ramoops-1" ]
	[ "$(jq -c '.pstore' "$STATE/$ID/record.json")" = '["dmesg-ramoops-0"]' ]
}

# ---- arm-boot's state after the one-shot boot (the fixtures of arm-boot.bats) ----

# A GRUB tree (tests/data/arm-boot/grub.cfg) armed with the state in $STATE/arm-boot.
arm_grub() {
	G="$T/groot"
	mkdir -p "$G/boot/grub"
	cp "$ROOT/tests/data/arm-boot/grub.cfg" "$G/boot/grub/grub.cfg"
	grub-editenv "$G/boot/grub/grubenv" create
	cp -a "$G/boot" "$T/gboot.orig"
	"$BT" arm-boot -q --loader grub --root "$G" --state "$STATE/arm-boot" --line 'root=/dev/vda1 ftrace=function'
}

# A scratch ESP and efivarfs directory armed for systemd-boot.
arm_sdboot() {
	E="$T/sroot"
	mkdir -p "$E/efi/loader/entries" "$E/ev"
	printf 'default debian-*\n' >"$E/efi/loader/loader.conf"
	printf 'title Debian\nlinux /vmlinuz\noptions root=UUID=abcd ro\n' >"$E/efi/loader/entries/debian-6.1.conf"
	cp -a "$E" "$T/sroot.orig"
	V="$E/ev/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
	"$BT" arm-boot -q --loader systemd-boot --root "$E" --efivars /ev --state "$STATE/arm-boot" --line 'root=UUID=abcd ro ftrace=function'
}

# A U-Boot environment image armed through fw_setenv.
arm_uboot() {
	printf 'bootargs=root=/dev/vda1\nbootcmd=run distro_bootcmd\n' >"$T/env.txt"
	mkenvimage -s 0x4000 -o "$T/env.img" "$T/env.txt"
	cp "$T/env.img" "$T/env.orig"
	printf '%s 0x0 0x4000\n' "$T/env.img" >"$T/fw_env.config"
	"$BT" arm-boot -q --loader uboot-env --fw-config "$T/fw_env.config" --state "$STATE/arm-boot" --line 'root=/dev/vda1 ftrace=function'
}

# collect left the one-shot armed, said so, and the record says so
left_armed() { # LOADER
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"note: the next boot is armed by arm-boot ($1): the one-shot is still to come"*"boottrace disarm-boot undoes it"* ]]
	[ -e "$STATE/arm-boot/armed" ]
	grep -qx "collect_arm_boot=$1 pending" "$STATE/$ID/meta"
	[ "$(jq -c .arm_boot "$STATE/$ID/record.json")" = "{\"loader\":\"$1\",\"one_shot\":\"pending\",\"restored\":false}" ]
}

# collect put the files back as disarm-boot does and said so
cleaned() { # LOADER
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"note: the one-shot boot of arm-boot ($1) is over: what arm-boot changed is put back"* ]]
	[ ! -e "$STATE/arm-boot" ]
	grep -qx "collect_arm_boot=$1 taken restored" "$STATE/$ID/meta"
	[ "$(jq -c .arm_boot "$STATE/$ID/record.json")" = "{\"loader\":\"$1\",\"one_shot\":\"taken\",\"restored\":true}" ]
}

@test "arm-boot grub: pending (next_entry still set) is left armed; taken (GRUB's save_env cleared next_entry) is put back" {
	arm_grub
	collect
	left_armed grub
	grub-editenv "$G/boot/grub/grubenv" list | grep -qx 'next_entry=boottrace-oneshot'
	grub-editenv "$G/boot/grub/grubenv" set next_entry=
	collect
	cleaned grub
	diff -r "$T/gboot.orig" "$G/boot"
}

@test "arm-boot systemd-boot: pending (LoaderEntryOneShot there) is left; taken (systemd-boot deleted it) is put back" {
	arm_sdboot
	collect
	left_armed systemd-boot
	[ -e "$V" ]
	rm "$V"
	collect
	cleaned systemd-boot
	diff -r "$T/sroot.orig/efi" "$E/efi"
	diff -r "$T/sroot.orig/ev" "$E/ev"
}

@test "arm-boot uboot-env: pending is left; taken (bootcmd cleared boottrace_oneshot and ran saveenv) is put back byte for byte" {
	arm_uboot
	collect
	left_armed uboot-env
	printf 'boottrace_oneshot=\nfdtcontroladdr=4ff3a000\n' >"$T/script"
	fw_setenv -c "$T/fw_env.config" -s "$T/script"
	collect
	cleaned uboot-env
	cmp "$T/env.orig" "$T/env.img"
}

@test "arm-boot: files changed by someone else are left for disarm-boot (a warning), and nothing armed is null" {
	collect
	[ "$(jq -c .arm_boot "$STATE/$ID/record.json")" = null ]
	! grep -q '^collect_arm_boot=' "$STATE/$ID/meta"
	arm_grub
	echo '# mine' >>"$G/boot/grub/custom.cfg"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"warning: arm-boot's state in $STATE/arm-boot is left: its files changed since"* ]]
	[ -e "$STATE/arm-boot/armed" ]
	grep -qx 'collect_arm_boot=grub changed' "$STATE/$ID/meta"
}

@test "arm-boot: the one-shot is settled even when there is no snapshot to collect" {
	arm_grub
	grub-editenv "$G/boot/grub/grubenv" set next_entry=
	rm -rf "$SNAP"
	collect
	[ "$status" -eq 1 ]
	[[ "$output" == *"is over: what arm-boot changed is put back"* ]]
	[ ! -e "$STATE/arm-boot" ]
	diff -r "$T/gboot.orig" "$G/boot"
}

# The record is empty (record_collect.c record_empty): written, saying why,
# and collect exits 1 so that boottrace-collect.service shows failed.
@test "an empty live window though the boot asked to follow: the record is written with why, exit 1" {
	# tracefs holds only what the snapshot has: nothing after the initramfs
	sed -n '1,/insmod-93/p' "$TFS/trace" >"$T/t" && mv "$T/t" "$TFS/trace"
	collect
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	R="$STATE/$ID"
	[[ "$output" == *"$R: boot record from $SNAP"* ]]
	[[ "$output" == *"$R: error: the record is empty: its live window is empty: the boot asked to trace past the initramfs (boottrace.follow=1) and no event after the snapshot is in it (tracing was off after the hook, or the traced functions were not called again)"* ]]
	grep -q '^error=the record is empty: its live window is empty' "$R/meta"
	grep -qx 'join_live_events=0' "$R/meta"
	[ "$(jq '[.errors[] | select(startswith("the record is empty"))] | length' "$R/record.json")" = 1 ]
	[ -f "$R/COMPLETE" ]
	# follow=0: the same live window is what the boot asked for
	sed -i 's/^follow=1$/follow=0/' "$SNAP/meta"
	collect
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	! grep -q 'the record is empty' "$STATE/$ID/meta"
}

@test "a record with no trace event at all: written with why, exit 1" {
	printf '%s\n' "$HEAD" >"$SNAP/trace"
	printf '%s\n' "$HEAD" >"$TFS/trace"
	sed -i 's/^follow=1$/follow=0/' "$SNAP/meta"
	collect
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	[[ "$output" == *"error: the record is empty: it holds no trace event at all"* ]]
	grep -q '^error=the record is empty: it holds no trace event at all' "$STATE/$ID/meta"
}
