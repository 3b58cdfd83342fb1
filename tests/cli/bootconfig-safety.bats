#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# bootconfig -a/-d under pressure (issue 15, class 8): two runs at once on
# one initrd, signals mid-write, a read-only initrd, endless or oversized
# config input.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BC="$B/bootconfig"
	T="$BATS_TEST_TMPDIR"
	printf 'kernel.a = 1\nftrace.tracer = function\n' >"$T/a.bconf"
	printf 'kernel.b = 2\nftrace.tracer = function_graph\nftrace.options = sym-addr\n' >"$T/b.bconf"
	mkdir -p "$T/d/root" && echo '#!/bin/sh' >"$T/d/root/init"
	(cd "$T/d/root" && find . | cpio -o -H newc --quiet | gzip -9n) >"$T/d/initrd.img"
	# 16 MB, as a small real initrd: copying it takes a moment, as it does
	truncate -s 16M "$T/d/initrd.img"
	cp "$T/d/initrd.img" "$T/orig.img"
}

# no temp file of ours beside the initrd
no_temp() {
	! ls -A "$T/d" | grep -q 'boottrace-'
}

@test "two -a at once, 25 times: both succeed, the result is one of them, whole" {
	"$BC" -a "$T/a.bconf" "$T/orig.img" >/dev/null && "$BC" -l "$T/orig.img" >"$T/a.list"
	cp "$T/d/initrd.img" "$T/orig.img"
	"$BC" -a "$T/b.bconf" "$T/orig.img" >/dev/null && "$BC" -l "$T/orig.img" >"$T/b.list"
	cp "$T/d/initrd.img" "$T/orig.img"
	for i in $(seq 1 25); do
		"$BC" -a "$T/a.bconf" "$T/d/initrd.img" >"$T/oa" 2>&1 & pa=$!
		"$BC" -a "$T/b.bconf" "$T/d/initrd.img" >"$T/ob" 2>&1 & pb=$!
		sa=0 sb=0
		wait $pa || sa=$?
		wait $pb || sb=$?
		cat "$T/oa" "$T/ob"
		[ "$sa" -eq 0 ] && [ "$sb" -eq 0 ]
		"$BC" -l "$T/d/initrd.img" >"$T/now.list"
		cmp -s "$T/now.list" "$T/a.list" || cmp -s "$T/now.list" "$T/b.list"
		no_temp
		# exactly one footer: deleting it gives the original bytes back
		"$BC" -d "$T/d/initrd.img"
		cmp "$T/d/initrd.img" "$T/orig.img"
	done
}

@test "-a and -d at once, 25 times: the second sees the first's result" {
	for i in $(seq 1 25); do
		"$BC" -a "$T/a.bconf" "$T/d/initrd.img" >/dev/null
		"$BC" -a "$T/b.bconf" "$T/d/initrd.img" >"$T/oa" 2>&1 & pa=$!
		"$BC" -d "$T/d/initrd.img" >"$T/ob" 2>&1 & pb=$!
		sa=0 sb=0
		wait $pa || sa=$?
		wait $pb || sb=$?
		cat "$T/oa" "$T/ob"
		[ "$sa" -eq 0 ] && [ "$sb" -eq 0 ]
		# either order is whole: b's config, or none at all
		if "$BC" -l "$T/d/initrd.img" >"$T/now.list" 2>/dev/null && [ -s "$T/now.list" ]; then
			grep -q 'kernel.b = "2"' "$T/now.list"
			"$BC" -d "$T/d/initrd.img"
		fi
		cmp "$T/d/initrd.img" "$T/orig.img"
		no_temp
	done
}

@test "a run waits for another's lock, and gives up after BOOTTRACE_LOCK_WAIT with a clear error" {
	command -v flock >/dev/null
	# flock(1) on the directory: what a concurrent run holds
	flock "$T/d" sleep 3 &
	sleep 0.5
	start=$(date +%s)
	run "$BC" -a "$T/a.bconf" "$T/d/initrd.img"
	[ "$status" -eq 0 ]
	[ $(($(date +%s) - start)) -ge 2 ]
	wait
	"$BC" -d "$T/d/initrd.img"
	flock "$T/d" sleep 10 &
	sleep 0.5
	BOOTTRACE_LOCK_WAIT=1 run timeout 30 "$BC" -a "$T/a.bconf" "$T/d/initrd.img"
	[ "$status" -eq 3 ]
	[[ "$output" == *"$T/d/initrd.img: error: not rewritten (file left unchanged): another boottrace or bootconfig has been rewriting a file in $T/d for 1 s; retry when it is done" ]]
	cmp "$T/d/initrd.img" "$T/orig.img"
	kill %1 2>/dev/null || true
}

@test "SIGTERM, SIGINT, SIGHUP mid-write: the temp file is removed, the initrd untouched" {
	cc -shared -fPIC -o "$T/slow.so" "$BATS_TEST_DIRNAME/helpers/slow-copy.c" -ldl
	for sig in TERM INT HUP; do
		rm -f "$T/mark"
		# python3 restores SIGINT, which a shell's background job ignores
		SLOW_MARK="$T/mark" SLOW_SECONDS=20 LD_PRELOAD="$T/slow.so" \
			ASAN_OPTIONS=verify_asan_link_order=0 \
			python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])' \
			"$BC" -a "$T/a.bconf" "$T/d/initrd.img" >/dev/null 2>&1 &
		pid=$!
		for _ in $(seq 1 100); do [ -e "$T/mark" ] && break; sleep 0.1; done
		[ -e "$T/mark" ]
		# mid-write: the temp file exists now
		ls -A "$T/d" | grep -q 'boottrace-'
		kill -s "$sig" "$pid"
		s=0
		wait "$pid" || s=$?
		[ "$s" -gt 128 ]
		no_temp
		cmp "$T/d/initrd.img" "$T/orig.img"
	done
}

@test "a read-only initrd is refused unless --force, which keeps its mode" {
	chmod 0444 "$T/d/initrd.img"
	run "$BC" -a "$T/a.bconf" "$T/d/initrd.img"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/d/initrd.img: error: is read-only (mode 0444): not rewritten; make it writable (chmod u+w) or, with bootconfig, give --force" ]]
	cmp "$T/d/initrd.img" "$T/orig.img"
	run "$BC" --force -a "$T/a.bconf" "$T/d/initrd.img"
	[ "$status" -eq 0 ]
	[ "$(stat -c %a "$T/d/initrd.img")" = 444 ]
	run "$BC" -d "$T/d/initrd.img"
	[ "$status" -eq 1 ]
	[[ "$output" == *"is read-only (mode 0444)"* ]]
	run "$BC" --force -d "$T/d/initrd.img"
	[ "$status" -eq 0 ]
	cmp "$T/d/initrd.img" "$T/orig.img"
	# nothing to remove: nothing written, no refusal
	run "$BC" -d "$T/d/initrd.img"
	[ "$status" -eq 0 ]
	no_temp
}

@test "an endless or oversized config is refused before it is read whole" {
	run timeout 10 "$BC" -a /dev/zero "$T/d/initrd.img"
	[ "$status" -eq 1 ]
	[ "$output" = "/dev/zero: error: is a character device, not a bootconfig: give a regular file (or pipe the data to '-', standard input)" ]
	run timeout 10 sh -c 'yes "kernel.x = 1" | "$1" -a - "$2"' sh "$BC" "$T/d/initrd.img"
	[ "$status" -eq 1 ]
	[[ "$output" == *"Config data is too big"* || "$output" == *"32768 bytes or more"* || "$output" == *"too big"* ]]
	truncate -s 4G "$T/huge.bconf"
	run timeout 10 "$BC" -a "$T/huge.bconf" "$T/d/initrd.img"
	[ "$status" -eq 1 ]
	cmp "$T/d/initrd.img" "$T/orig.img"
	no_temp
}
