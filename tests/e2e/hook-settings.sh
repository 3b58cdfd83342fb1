#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Host-side tests of the initramfs hook's opt-in and settings
# (initramfs-hook/README.md, "Opt-in" and "Settings"), under dash and under
# busybox sh: which command lines and bootconfigs ask for the hook, and what
# hostile values become. The hook reads the boot's words from files named by
# BOOTTRACE_CMDLINE / BOOTTRACE_BOOTCONFIG / BOOTTRACE_CONF; only the
# `asked`, `settings` and `wait-modules` modes run here, which touch neither
# tracefs nor /run. No QEMU. The last line is
# "hook-settings: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
# shellcheck disable=SC2034 # read by tap.sh
SUITE=hook-settings
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
core=$top/initramfs-hook/boottrace-snapshot.sh

W=$(mktemp -d "${TMPDIR:-/tmp}/bt-hook-settings.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM HUP
# a file whose name a glob of the arm list would find (set -f test)
mkdir -p "$W/cwd"
: >"$W/cwd/a:mod:b"

shells=
command -v dash >/dev/null 2>&1 && shells="dash"
if command -v busybox >/dev/null 2>&1 && busybox sh -c : 2>/dev/null; then
	shells="$shells busybox"
fi
[ -n "$shells" ] || skip "neither dash nor busybox is installed (make deps)"
for s in dash busybox; do
	case " $shells " in *" $s "*) ;; *) nok "$s is not installed (make deps): not tested under it" ;; esac
done

# run SHELL CMDLINE BOOTCONFIG CONF MODE...: the core with those files
# (an empty BOOTCONFIG / CONF: no such file); output in $W/out, status $rc
run() {
	sh_=$1
	printf '%s\n' "$2" >"$W/cmdline"
	bc=$W/none
	[ -n "$3" ] && printf '%s\n' "$3" >"$W/bootconfig" && bc=$W/bootconfig
	cf=$W/none
	[ -n "$4" ] && printf '%s\n' "$4" >"$W/conf" && cf=$W/conf
	shift 4
	case $sh_ in busybox) set -- busybox sh "$core" "$@" ;; *) set -- "$sh_" "$core" "$@" ;; esac
	(cd "$W/cwd" && BOOTTRACE_CMDLINE=$W/cmdline BOOTTRACE_BOOTCONFIG=$bc \
		BOOTTRACE_CONF=$cf BOOTTRACE_RUN=$W/run "$@") >"$W/out" 2>"$W/err"
	rc=$?
}

# asked SHELL EXPECT(yes|no) NAME CMDLINE [BOOTCONFIG [CONF]]
asked() {
	run "$1" "$4" "${5:-}" "${6:-}" asked
	case $2:$rc in
	yes:0 | no:1) ok "$1: $3" ;;
	*) nok "$1: $3 (asked exits $rc, expected $2)" ;;
	esac
}

# setting SHELL NAME CMDLINE BOOTCONFIG LINE...: `settings` prints each LINE
setting() {
	sh_=$1
	n=$2
	run "$sh_" "$3" "$4" "" settings
	shift 4
	if [ "$rc" != 0 ] || [ -s "$W/err" ]; then
		nok "$sh_: $n (exit $rc: $(head -c 300 "$W/err"))"
		return
	fi
	for l; do
		if ! grep -qxF -- "$l" "$W/out"; then
			nok "$sh_: $n (no line '$l' in: $(tr '\n' '|' <"$W/out"))"
			return
		fi
	done
	ok "$sh_: $n"
}

# bad SHELL KEY VALUE DEFAULT: VALUE on the command line and in bootconfig
# is refused with an error naming it, and DEFAULT stays
bad() {
	case $2 in max_kb) m=max_kb ;; timeout) m=timeout ;; esac
	setting "$1" "boottrace.$2=$3 on the command line: error, $m=$4" "boottrace boottrace.$2=$3" "" \
		"$m=$4" "errors=1"
	grep -qF -- "error=boottrace.$2=$3 on the command line is not a whole number" "$W/out" ||
		nok "$1: the error names boottrace.$2=$3 ($(grep error= "$W/out"))"
	setting "$1" "boottrace.$2 = \"$3\" in bootconfig: error, $m=$4" "quiet" "boottrace.$2 = \"$3\"" \
		"$m=$4" "errors=1"
}

# shellcheck disable=SC2016 # $(...) and backticks are the hostile values
for sh in $shells; do
	# 1. Opt-in: the one way a boot asks
	asked "$sh" no "no boottrace word: not asked" "quiet console=ttyS0"
	asked "$sh" yes "the bare word boottrace asks" "quiet boottrace"
	asked "$sh" yes "a boottrace.KEY=VALUE word asks" "quiet boottrace.at=rdinit"
	asked "$sh" yes "boottrace.enable=1 asks" "boottrace.enable=1"
	asked "$sh" no "boottrace.enable=0 wins over other boottrace words" "boottrace boottrace.at=x boottrace.enable=0"
	asked "$sh" no "boottrace.enable=off wins too" "boottrace.enable=off boottrace"
	asked "$sh" no "words after -- are init's: not asked" "quiet -- boottrace boottrace.at=x"
	asked "$sh" yes "a quoted -- does not end the kernel's words" 'x="a -- b" boottrace'
	asked "$sh" no "boottrace inside another word's quoted value: not asked" 'x="a boottrace b"'
	asked "$sh" yes "a quoted word asks" '"boottrace.at=rdinit"'
	asked "$sh" no "boottracex, xboottrace.at=1, boottrace.=1, boottrace.at: not asked" \
		"boottracex xboottrace.at=1 boottrace.=1 boottrace.at"
	asked "$sh" yes "a boottrace key in /proc/bootconfig asks" "quiet" 'boottrace.at = "rdinit"'
	asked "$sh" no "boottrace.enable = \"0\" in bootconfig turns a cmdline word off" "boottrace" 'boottrace.enable = "0"'
	asked "$sh" yes "boottrace.enable=1 on the command line wins over bootconfig's 0" "boottrace.enable=1" 'boottrace.enable = "0"'
	asked "$sh" no "a bootconfig value's second line is no key" "quiet" 'kernel.x = "a
boottrace.at = x"'
	asked "$sh" no "the settings file alone does not ask" "quiet" "" 'boottrace.at = "rdinit"'
	asked "$sh" no "no /proc/cmdline, no bootconfig: not asked" ""

	# 2. Not asked: every mode does nothing and says nothing
	run "$sh" "quiet" "" "" asked
	if [ "$rc" = 2 ]; then
		# a script without the gate would snapshot this host: not run
		nok "$sh: not asked: 'all' does nothing (the script has no 'asked' gate; not run here)"
	else
		run "$sh" "quiet -- boottrace" "" 'boottrace.at = "rdinit"' all
		t "$sh: not asked: 'all' exits 0, prints nothing, creates no run dir" \
			sh -c "[ $rc = 0 ] && [ ! -s '$W/out' ] && [ ! -s '$W/err' ] && [ ! -e '$W/run' ]"
		run "$sh" "quiet" "" "" wants rdinit "rdinit modules"
		t "$sh: not asked: 'wants' says no" [ "$rc" = 1 ]
		# the cost of a boot that did not ask: the adapter's call, 20 times
		t0=$(date +%s%N)
		for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
			run "$sh" "quiet console=ttyS0 root=/dev/vda1 ro" "" "" hook rdinit "rdinit modules"
		done
		t1=$(date +%s%N)
		echo "# $sh: not asked, 'hook rdinit': $(((t1 - t0) / 20000)) us a call (with this test's file writes)"
	fi

	# 3. Settings are data
	setting "$sh" "leading zeros are decimal: max_kb=010 is 10, timeout=08 is 8" \
		"boottrace boottrace.max_kb=010 boottrace.timeout=08" "" "max_kb=10" "timeout=8" "errors=0"
	setting "$sh" "bootconfig: max_kb = \"0009\", timeout = \"000\"" "quiet" \
		'boottrace.max_kb = "0009"
boottrace.timeout = "000"' "max_kb=9" "timeout=0" "errors=0"
	setting "$sh" "the bounds are allowed: max_kb=4194304 timeout=3600" \
		"boottrace boottrace.max_kb=4194304 boottrace.timeout=3600" "" \
		"max_kb=4194304" "timeout=3600" "errors=0"
	for v in 0x10 99999999999999999999 -1 1e3 '*' '$(reboot)' ';' '`reboot`' '' 4194305 0; do
		bad "$sh" max_kb "$v" 65536
	done
	for v in 0x10 99999999999999999999 -1 1e3 '*' '$(reboot)' ';' '`reboot`' 3601 08.5; do
		bad "$sh" timeout "$v" 10
	done
	setting "$sh" "no command substitution: \$(touch) and backticks stay text" \
		"boottrace boottrace.at=\$(touch\${IFS}$W/canary1) boottrace.snapshot=\`touch\${IFS}$W/canary2\`" \
		"boottrace.arm = \"\$(touch $W/canary3):mod:x\"" "errors=3"
	t "$sh: no canary file was created" sh -c "[ ! -e '$W/canary1' ] && [ ! -e '$W/canary2' ] && [ ! -e '$W/canary3' ]"
	setting "$sh" "no pathname expansion: arm=*:mod:* stays, snapshot=/dev/* stays" \
		"boottrace boottrace.arm=*:mod:* boottrace.snapshot=/dev/*" "" "armed=*:mod:*" "destination=/dev/*" "errors=0"
	setting "$sh" "a bootconfig value with a line break is refused, its second line is no key" "boottrace" \
		'boottrace.max_kb = "1
boottrace.timeout = 5"
boottrace.raw = "1"' "max_kb=65536" "timeout=10" "raw=1" "errors=1"
	setting "$sh" "bootconfig arrays and single quotes" "boottrace" \
		"boottrace.arm = \"f:mod:m\", \"g:mod:n\"
boottrace.at = 'modules'" "armed=f:mod:m,g:mod:n" "at=modules" "errors=0"
	setting "$sh" "bad booleans, snapshot, at, arm entries: errors, defaults kept" \
		"boottrace boottrace.stop=maybe boottrace.raw=2 boottrace.snapshot=disk boottrace.at=a;b boottrace.arm=ok:mod:m,bad,x:mod:" "" \
		"stopped=1" "raw=0" "destination=run" "at=" "armed=ok:mod:m" "errors=6"
	setting "$sh" "the command line wins over bootconfig, bootconfig over the file" \
		"boottrace.max_kb=3" 'boottrace.max_kb = "2"
boottrace.timeout = "7"' "max_kb=3" "timeout=7"
	setting "$sh" "boottrace.enable=maybe: asked, an error" "boottrace.enable=maybe" "" "asked=1" "errors=1"
	setting "$sh" "an unknown key is a warning" "boottrace.colour=red" "" "warnings=1" "errors=0"
	setting "$sh" "follow: 0 by default; 1, yes and keep taken" "boottrace" "" "follow=0" "errors=0"
	setting "$sh" "follow=yes is 1" "boottrace.follow=yes" "" "follow=1" "errors=0"
	setting "$sh" "follow = \"keep\" in a bootconfig" "quiet" 'boottrace.follow = "keep"' "follow=keep" "errors=0"
	setting "$sh" "follow=2 and follow=\$(reboot): errors, the value before stays" \
		"boottrace.follow=keep boottrace.follow=2 boottrace.follow=\$(reboot)" "" "follow=keep" "errors=2"

	# 4. A number with leading zeros in the settings file does not abort
	#    the hook where it does arithmetic (wait-modules: timeout * 5)
	run "$sh" "boottrace" "" 'boottrace.timeout = "08"' wait-modules
	t "$sh: wait-modules with timeout 08 from the settings file exits 0, no shell error" \
		sh -c "[ $rc = 0 ] && [ ! -s '$W/err' ]"
done

finish
