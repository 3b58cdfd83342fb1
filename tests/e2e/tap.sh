# SPDX-License-Identifier: GPL-2.0-or-later
#
# Counting for the e2e suites (hook.sh, initramfs-tools.sh, scenarios.sh),
# sourced after SUITE is set: one "ok - NAME" / "not ok - NAME" line a test
# and, last, "SUITE: N passed, N failed", the line tests/run.sh adds up.
# shellcheck shell=sh
# The QEMU boots run through progress_run: a line "booting NAME ... Ns" on
# a terminal, nothing in make check's logs (scripts/progress.sh).
# shellcheck source=scripts/progress.sh
. "${top:-$PWD}/scripts/progress.sh"
P=0
F=0

ok() {
	P=$((P + 1))
	echo "ok - $*"
}
nok() {
	F=$((F + 1))
	echo "not ok - $*"
}
# shellcheck disable=SC2317 # the commands run through t
t() { # NAME CMD...: one test, the command's output hidden
	n=$1
	shift
	if "$@" >/dev/null 2>&1; then ok "$n"; else nok "$n"; fi
}
finish() {
	echo "$SUITE: $P passed, $F failed"
	[ "$F" -eq 0 ] || exit 1
	exit 0
}
# Nothing could be booted: said loudly, exit 77 (tests/run.sh counts it as
# a failure in CI).
skip() {
	echo "SKIP: $SUITE: $* — no boot possible, NOTHING WAS TESTED"
	echo "$SUITE: $P passed, $F failed"
	exit 77
}
# shellcheck disable=SC2317
has() { grep -qF -- "$2" "$1"; } # FILE TEXT
# jq -e EXPR FILE [jq args]: the assertion is the jq expression. jq -e on
# an empty file exits 0 (no output is not false), and a report that failed
# leaves its JSON empty: that must fail
# shellcheck disable=SC2317
jqt() {
	[ -s "$2" ] || return 1
	bt_e=$1
	bt_f=$2
	shift 2
	jq -e "$@" "$bt_e" "$bt_f"
}
# TRACE=the line `boottrace compile` makes of BCONF for the QEMU board and
# the .config of the kernel in $KD ($KV), as a boot's command line; each
# WORD is a test that it is on the line (crash.sh, pstore.sh). Needs $bt
# and $W.
compile_for_qemu() { # BCONF WORD...
	cq_b=$1
	shift
	# shellcheck disable=SC2154 # $bt, $KD, $KV and $W are the suite's
	if ! TRACE=$("$bt" compile -b qemu-x86_64 --kernel-config "$KD/root/boot/config-$KV" \
		"$cq_b" 2>"$W/compile.err"); then
		cat "$W/compile.err"
		nok "boottrace compile of $cq_b"
		finish
	fi
	ok "boottrace compile of $cq_b"
	echo "# compiled: $TRACE"
	for cq_w; do
		# shellcheck disable=SC2016 # expanded by that sh
		t "compile wrote $cq_w" sh -c 'echo " $1 " | grep -qF " $2 "' sh "$TRACE" "$cq_w"
	done
}
# The kernel tests/e2e/FETCHER ARGS... fetches, in $KD ($KV), with $W
# emptied (frames.sh, hook.sh, persistent.sh, try.sh, crashmod_kernel).
# Skips without QEMU or that kernel; needs $bt and $W.
qemu_kernel() { # FETCHER WHAT [ARGS...]
	command -v qemu-system-x86_64 >/dev/null 2>&1 ||
		skip "qemu-system-x86_64 is not installed (make deps)"
	# shellcheck disable=SC2154 # $bt and $W are the suite's
	[ -x "$bt" ] || { nok "$bt missing (make all)"; finish; }
	qk_f=$1
	qk_what=$2
	shift 2
	KD=$(sh "tests/e2e/$qk_f" "$@") || skip "no $qk_what could be fetched"
	KV=$(cat "$KD/kver")
	echo "# kernel: $KD ($KV)"
	rm -rf "$W"
	mkdir -p "$W"
}
# The Debian 6.1 cloud kernel (qemu_kernel) whose headers the archive has
# too, and the test module of tests/e2e/crashmod built for it in $ko
# (crash.sh, pstore.sh).
crashmod_kernel() {
	qemu_kernel kernel-pkg.sh "Debian 6.1 cloud kernel with its headers" amd64 cloud-amd64 headers
	# shellcheck disable=SC2034 # $ko is the suite's
	if ! ko=$(sh tests/e2e/crashmod/build.sh "$KD"); then
		nok "crashmod builds against linux-headers-$KV"
		finish
	fi
	ok "crashmod builds against linux-headers-$KV"
}
