#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run every suite of `make check` and add up what they report. The last line
# is "N passed, N failed" (CI reads it). A suite that cannot run here fails;
# nothing is skipped quietly. --offline (make test): only the suites that
# need no QEMU, no network and no root, up to kernel-docs below.
# --packages (make package-check): only the Debian packages and the dist
# tarball, which build the whole tree again (they would double make
# check's time; CI runs both).
set -u
OFFLINE=0
PACKAGES=0
[ "${1:-}" = --offline ] && OFFLINE=1
[ "${1:-}" = --packages ] && PACKAGES=1
cd "$(dirname "$0")/.." || exit 3
# The suites' caches (tests/diff/kernel-tool.sh, tests/unit/cmdline_oracle.sh)
# are under ${XDG_CACHE_HOME:-$HOME/.cache}; with no HOME either (env -i, a
# bare service) tests/lib/testenv.sh picks one and says which, never /.cache
if [ -z "${XDG_CACHE_HOME:-}" ] && [ -z "${HOME:-}" ]; then
	. tests/lib/testenv.sh
	XDG_CACHE_HOME=$(bt_cache_dir) || exit 3
	export XDG_CACHE_HOME
fi
B=build
LOG=$B/test-logs
mkdir -p "$LOG"
PASS=0
FAIL=0
FAILED_SUITES=""
# wall time: each suite's from the end of the one before (the first's from
# here), and the total, in the summary (the CI budget, README.md "Tests")
T_START=$(date +%s)
T_LAST=$T_START
secs() { # N: "M min S s" or "S s"
	if [ "$1" -ge 60 ]; then echo "$(($1 / 60)) min $(($1 % 60)) s"; else echo "$1 s"; fi
}

add() { # suite passed failed [seconds: a suite that ran beside the others]
	PASS=$((PASS + $2))
	FAIL=$((FAIL + $3))
	[ "$3" -gt 0 ] && FAILED_SUITES="$FAILED_SUITES $1"
	a_now=$(date +%s)
	if [ -n "${4:-}" ]; then
		printf '%-14s %5d passed, %d failed%*s%s (beside the others)\n' "$1:" "$2" "$3" $((8 - ${#3})) "" "$(secs "$4")"
	else
		printf '%-14s %5d passed, %d failed%*s%s\n' "$1:" "$2" "$3" $((8 - ${#3})) "" "$(secs $((a_now - T_LAST)))"
	fi
	T_LAST=$a_now
}

# cmocka binaries: count the tests each one reports.
run_cmocka() { # suite wrapper... -- binaries
	suite=$1; shift
	p=0; f=0
	for t in "$@"; do
		name=$(basename "$t")
		if "$t" >"$LOG/$suite-$name.log" 2>&1; then :; else
			echo "  $suite/$name: exit $? (log: $LOG/$suite-$name.log)"
		fi
		n=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$LOG/$suite-$name.log" | tail -1)
		m=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$LOG/$suite-$name.log" | tail -1)
		if [ -z "$n" ] && [ -z "$m" ]; then m=1; fi   # crashed before its summary
		if grep -q 'ERROR: AddressSanitizer\|runtime error:\|WARNING: ThreadSanitizer' "$LOG/$suite-$name.log"; then m=$((${m:-0} + 1)); fi
		p=$((p + ${n:-0})); f=$((f + ${m:-0}))
	done
	add "$suite" "$p" "$f"
}

# One binary = one test: valgrind must report no error and no leak.
run_valgrind() {
	p=0; f=0
	for t in "$@"; do
		name=$(basename "$t")
		if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
			"$t" >"$LOG/valgrind-$name.log" 2>&1; then p=$((p + 1)); else
			f=$((f + 1)); echo "  valgrind/$name failed (log: $LOG/valgrind-$name.log)"
		fi
	done
	add valgrind "$p" "$f"
}

# A script that prints "NAME: N passed, N failed" as its last counting line.
run_counted() { # suite command...
	suite=$1; shift
	"$@" >"$LOG/$suite.log" 2>&1
	counted "$suite" $?
}

# A suite that spends its time in QEMU and the network while the others use
# the CPU: started at once, beside them (its own caches and directories,
# nothing the others write), its result taken by bg_counted. CI's budget
# (README.md, "Tests") is wall time on 2 cores.
run_bg() { # suite command...
	suite=$1; shift
	"$@" >"$LOG/$suite.log" 2>&1 &
	BG_PID=$!
	BG_T0=$(date +%s)
}
bg_counted() { # suite: wait for run_bg's suite, then count it
	wait "$BG_PID"
	# its own time: to its log's last write, not to this wait
	counted "$1" $? $(($(stat -c %Y "$LOG/$1.log") - BG_T0))
}

counted() { # suite rc [seconds]
	suite=$1
	rc=$2
	line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$LOG/$suite.log" | tail -1)
	p=$(echo "$line" | sed -n 's/.*[^0-9]\([0-9][0-9]*\) passed.*/\1/p;s/^\([0-9][0-9]*\) passed.*/\1/p' | head -1)
	f=$(echo "$line" | sed -n 's/.* \([0-9][0-9]*\) failed.*/\1/p')
	if [ "$rc" = 77 ] && [ "${CI:-}" != true ]; then
		echo "  $suite: SKIPPED — $(grep SKIP "$LOG/$suite.log" | head -1)"
		echo "  !!! $suite did not run; CI treats this as a failure !!!"
		add "$suite" 0 0 ${3:+"$3"}
		return
	fi
	# a failed check's own line (and what it printed under it) in the
	# summary: CI keeps only this output, not build/test-logs
	# and the suite's own notes ("# ..." lines: what it saw), the last 40
	if [ "${f:-0}" -gt 0 ]; then
		grep -A4 '^not ok ' "$LOG/$suite.log" | head -n 40 | sed 's/^/    /'
		grep '^#' "$LOG/$suite.log" | tail -n 40 | sed 's/^/    /'
	fi
	if [ -z "$line" ] || { [ "$rc" != 0 ] && [ "${f:-0}" = 0 ]; }; then
		f=$((${f:-0} + 1))
		echo "  $suite: exit $rc (log: $LOG/$suite.log)"
		tail -5 "$LOG/$suite.log" | sed 's/^/    /'
	fi
	add "$suite" "${p:-0}" "${f:-0}" ${3:+"$3"}
}

run_bats() { # suite [build dir]
	BT_BUILD=${2:-} bats --tap tests/cli/*.bats >"$LOG/$1.log" 2>&1
	p=$(grep -c '^ok ' "$LOG/$1.log")
	f=$(grep -c '^not ok ' "$LOG/$1.log")
	[ "$p" = 0 ] && [ "$f" = 0 ] && f=1
	grep -A3 '^not ok ' "$LOG/$1.log" | sed 's/^/    /'
	add "$1" "$p" "$f"
}

if [ "$PACKAGES" = 0 ]; then
# the user's journey from the .debs (tests/e2e/journey.sh): installed with apt
# in Debian 12 roots, systemd-boot and GRUB under OVMF, ask / one-shot /
# report / nothing armed (two systems, two QEMUs), beside everything below
[ "$OFFLINE" = 0 ] && run_bg journey sh tests/e2e/journey.sh
run_cmocka unit $B/unit/test_*
run_cmocka unit-asan $B/unit-asan/test_*
run_cmocka unit-tsan $B/unit-tsan/test_*
run_valgrind $B/unit/test_*
run_bats cli
run_bats cli-asan "$PWD/$B/asan-bin"
# the layer rule of docs/architecture.md: no upward include, no cycle
run_counted layers sh scripts/layers.sh
# build hardening and the Makefile's flags (readelf; hardening-check if installed)
run_counted hardening sh tests/cli/hardening.sh
run_counted kernel-suite sh tests/diff/kernel-suite.sh
run_counted diff sh tests/diff/run.sh "$B/boottrace"
run_counted cmdline-diff sh tests/unit/cmdline_oracle.sh
run_counted enospc sh tests/cli/enospc.sh
run_counted kernel-docs sh tests/cli/kernel-docs.sh
# the offline suites end here (make test)
if [ "$OFFLINE" = 0 ]; then
# issue 32: the one kernel-set resolver against archives written here (today's gap, a point release)
run_counted apt-set sh tests/e2e/apt-set-archive.sh
run_counted check sh tests/e2e/check.sh
# cross builds (arm64, armhf, mips64el; s390x big-endian) under qemu-user: the native bytes on all of tests/data, collect on a fixture
run_counted cross sh tests/e2e/cross.sh
# issue 22: report --modules DIR names bonding's freed init from the real bonding.ko (no boot)
run_counted koinit sh tests/e2e/koinit.sh
# issue 21: the symbols of Debian's amd64 and mips64el 6.1 images (kallsyms) against their -dbg System.map
run_counted kallsyms sh tests/e2e/kallsyms.sh
# the events, traceable functions and tracers read from Debian's mips64el and arm64 images against the same kernels booted
run_counted archboot sh tests/e2e/archboot.sh
# report -f html/svg pages in headless Chromium: culprit shown, no fetch, no console error, screenshots
run_counted browser sh tests/e2e/browser.sh "$B/boottrace"
run_counted uboot sh tests/e2e/uboot.sh
# arm-boot --loader uboot-env in a real U-Boot: saveenv fails (write-protected, and QEMU 7.2's pflash) and the normal line is booted; in bookworm-backports' QEMU 10 (tests/e2e/qemu-bpo.sh) the kernel boots the one-shot once, then the normal line; disarm-boot
run_counted uboot-oneshot sh tests/e2e/uboot-oneshot.sh
# arm-boot --loader systemd-boot in OVMF + Debian's systemd-boot: the one-shot line once, then the normal one; disarm-boot
run_counted sdboot-oneshot sh tests/e2e/sdboot-oneshot.sh
# extlinux, u-boot-menu, bls through u-boot-update, U-Boot's sysboot and bootctl
run_counted loaders sh tests/e2e/loaders.sh
# -t uki / kernel-install: /etc/kernel/cmdline through the real kernel-install (systemd 252) and bootctl
run_counted uki sh tests/e2e/uki.sh
run_counted hook-settings sh tests/e2e/hook-settings.sh
# issue 21 part 2: boottrace try on the running 6.1 kernel: good, bad, held and interrupted
run_counted try sh tests/e2e/try.sh
run_counted hook sh tests/e2e/hook.sh
# Linux 6.12 persistent ring buffer: a boot dies, the next one keeps its trace (cached 6.12 kernel)
run_counted persistent sh tests/e2e/persistent.sh
# issue 18: a module that panics or hangs in its init, its ftrace dump read from the serial log
run_counted crash sh tests/e2e/crash.sh
# issue 22: bonding's init frame read after other modules reused its freed code
run_counted frames sh tests/e2e/frames.sh
run_counted pstore sh tests/e2e/pstore.sh
run_counted itools sh tests/e2e/initramfs-tools.sh
# issue 16 on a real Debian 12 systemd root: who made bond0, a script or the driver?
run_counted systemd-root sh tests/e2e/systemd-root.sh
# after hook: S4 and S7 report on its boots
run_counted e2e sh tests/e2e/scenarios.sh
bg_counted journey
fi
fi
if [ "$PACKAGES" = 1 ]; then
# issue 20: the Debian packages built, lintian, installed and purged in a Debian 12 chroot
run_counted package sh tests/e2e/package.sh
# make dist twice the same bytes; the tarball builds and passes make test
run_counted dist sh tests/e2e/dist.sh
fi

[ -n "$FAILED_SUITES" ] && echo "failed suites:$FAILED_SUITES"
echo "wall time:     $(secs $(($(date +%s) - T_START)))${BT_QEMU_ACCEL:+ (BT_QEMU_ACCEL=$BT_QEMU_ACCEL)}"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
