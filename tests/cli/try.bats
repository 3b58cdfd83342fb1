#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace try (issue 21 part 2) at the command line: usage, --help, the
# errors without a tracefs or with a wrong config, and a run on a directory
# standing in for a tracefs (never the machine's own: the real kernel is
# tests/e2e/try.sh's, in QEMU).

bats_require_minimum_version 1.5.0

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	T="$BATS_TEST_TMPDIR"
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = vfs_read\n' >"$T/good.bconf"
	mkdir -p "$T/tfs/instances"
	: >"$T/tfs/error_log"
}

@test "try --help: usage on stdout, exit 0, every option" {
	run -0 "$BT" try --help
	[[ "$output" == "usage: boottrace try "* ]]
	for o in --tracefs --hold --remove-stale --quiet --verbose; do
		grep -q -- "$o" <<<"$output" || { echo "no $o"; false; }
	done
	run -0 "$BT" --help
	grep -q '^  try ' <<<"$output"
}

@test "try: no CONFIG, two CONFIGs, an unknown option: usage, exit 2" {
	run -2 "$BT" try
	[[ "$output" == *"give one CONFIG"* ]]
	run -2 "$BT" try "$T/good.bconf" "$T/good.bconf"
	run -2 "$BT" try --no-such "$T/good.bconf"
	run -2 "$BT" try --tracefs
}

@test "try: no tracefs at --tracefs: exit 3, says what to do" {
	run -3 "$BT" try --tracefs "$T/none" "$T/good.bconf"
	[[ "$output" == *"$T/none: error: is not a tracefs (no instances/ directory): give the tracefs mount point"* ]]
}

@test "try: instances/ not writable (not root): exit 3" {
	chmod 555 "$T/tfs/instances"
	if [ "$(id -u)" = 0 ]; then
		# root may write anywhere: run it as nobody, on copies nobody can read
		u=$(mktemp -d /tmp/bt-try-XXXXXX)
		cp -r "$T/tfs" "$T/good.bconf" "$u/"
		cp "$BT" "$u/boottrace"
		chmod -R a+rX "$u"
		chmod 555 "$u/tfs/instances"
		run -3 setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$u/boottrace" try --tracefs "$u/tfs" "$u/good.bconf"
		rm -rf "$u"
	else
		run -3 "$BT" try --tracefs "$T/tfs" "$T/good.bconf"
	fi
	[[ "$output" == *"run boottrace try as root"* ]]
}

@test "try: a wrong config is exit 1 at its position, nothing created" {
	printf 'ftrace.tracer = function\nftrace.no_such_key = 1\n' >"$T/bad.bconf"
	run -1 "$BT" try --tracefs "$T/tfs" "$T/bad.bconf"
	[[ "$output" == *"bad.bconf:2:"* ]]
	[ -z "$(ls "$T/tfs/instances")" ]
}

@test "try: on a stand-in tracefs each missing file is a refusal at FILE:LINE:COL, and our instance is gone" {
	run -1 "$BT" try --tracefs "$T/tfs" "$T/good.bconf"
	[[ "$output" == *"good.bconf:2:"*": refused: function filter 'vfs_read' ("*"/set_ftrace_filter): No such file or directory (ENOENT)"* ]]
	[[ "$output" == *"try: 0 accepted, "*" refused, 0 not tried; everything added was removed"* ]]
	[ -z "$(ls "$T/tfs/instances")" ]
}

@test "try: a stale instance of a gone process is named and left; --remove-stale removes it" {
	sh -c 'exit 0' &
	dead=$!
	wait "$dead" || true
	mkdir "$T/tfs/instances/boottrace-try-$dead"
	run -1 "$BT" try --tracefs "$T/tfs" "$T/good.bconf"
	[[ "$output" == *"boottrace-try-$dead: left by a run that is gone (process $dead"*"remove it with --remove-stale or rmdir"* ]]
	[ -d "$T/tfs/instances/boottrace-try-$dead" ]
	run -1 "$BT" try --remove-stale --tracefs "$T/tfs" "$T/good.bconf"
	[[ "$output" == *"boottrace-try-$dead: left by a run that is gone (process $dead): removed (--remove-stale)"* ]]
	[ ! -e "$T/tfs/instances/boottrace-try-$dead" ]
}
