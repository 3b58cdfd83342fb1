#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run libFuzzer targets: tests/fuzz/run.sh SECONDS BIN...   (`make fuzz`)
#
# Each target runs for SECONDS (-max_total_time) with -rss_limit_mb=2048
# and -detect_leaks=1, on a corpus kept across runs in
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/fuzz-corpus/NAME. The corpus is
# seeded with tests/data/*.bconf and, for parser targets (NAME contains
# "parse"), the kernel's tools/bootconfig/samples (from
# tests/diff/kernel-tool.sh); a parser target reads a mode byte first, so
# each seed is stored twice, after mode bytes 0x00 and 0x03. Report targets
# (NAME contains "trace", "console" or "dump") are seeded with every trace and log
# of tests/data/traces (and refused/) and tests/fuzz/seeds/; the pstore
# target with the pstore records there; the question's target (fuzz_ask) with
# the boots' command lines there.
#
# Per target: "fuzz NAME: ok (RUNS runs, N corpus files)" or the crash file
# and the sanitizer's first lines; crash files and logs go to
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/fuzz-artifacts/NAME/. The last
# line is "fuzz: N passed, N failed"; the exit status is non-zero on any
# crash, leak, timeout or sanitizer report.
set -u

usage() {
	echo "usage: tests/fuzz/run.sh SECONDS BIN..." >&2
	exit 2
}
[ $# -ge 2 ] || usage
secs=$1
shift
case $secs in '' | *[!0-9]*) usage ;; esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace
samples=
if kbin=$(sh "$root/tests/diff/kernel-tool.sh"); then
	samples=${kbin%/*}/samples
else
	echo "fuzz: warning: no kernel samples to seed the corpus with" >&2
fi

passed=0
failed=0
for bin in "$@"; do
	name=${bin##*/}
	corpus=$cache/fuzz-corpus/$name
	art=$cache/fuzz-artifacts/$name
	log=$art/last.log
	mkdir -p "$corpus" "$art"
	if [ ! -x "$bin" ]; then
		echo "fuzz $name: FAILED: $bin is not an executable"
		failed=$((failed + 1))
		continue
	fi

	# Seeds (rewritten each run; libFuzzer adds its finds beside them).
	set --
	for f in "$root"/tests/data/*.bconf; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	case $name in
	*parse* | *compile*)
		if [ -n "$samples" ]; then
			for f in "$samples"/*.bconf; do
				[ -f "$f" ] && set -- "$@" "$f"
			done
		fi
		for f in "$@"; do
			b=${f##*/}
			b=seed-${b%.bconf}
			{ printf '\000' && cat "$f"; } >"$corpus/$b-m0"
			{ printf '\003' && cat "$f"; } >"$corpus/$b-m3"
		done
		;;
	*ask*)
		# the boots' command lines, and the words compile writes
		for f in "$root"/tests/data/traces/*/cmdline; do
			d=${f%/cmdline}
			[ -f "$f" ] && cp "$f" "$corpus/seed-${d##*/}"
		done
		printf 'root=/dev/vda1 boottrace.ask=who-creates:bond0 -- x\n' >"$corpus/seed-creates"
		printf 'boottrace.ask=who-calls:register_netdevice,bond_create\n' >"$corpus/seed-calls"
		;;
	*elf*)
		# ELF seeds made here by gcc, as a module would be built.
		printf 'extern int g(int);\nint f(int x) { return g(x) + 1; }\n' >"$art/seed.c"
		gcc -O2 -pg -mfentry -mrecord-mcount -c -o "$corpus/seed-fentry.o" "$art/seed.c" &&
			gcc -O2 -fpatchable-function-entry=2 -c -o "$corpus/seed-patchable.o" "$art/seed.c" ||
			echo "fuzz: warning: no ELF seeds (gcc failed)" >&2
		;;
	*kimg*)
		# a small raw kernel after its own symbol text (fuzz_kimg's
		# mode 0x09): two call sites, one event, a relocated copy (0x19:
		# 32-bit pointers read the same bytes differently)
		python3 - "$corpus/seed-lists" <<'PY'
import struct, sys
B = 0xffffffff81000000
syms = ''.join('%016x %s %s\n' % (B + a, t, n) for a, t, n in [
    (0, 'T', '_text'), (0, 'T', '_stext'), (0x100, 'T', 'f'), (0x200, 't', 'g'),
    (0x400, 'T', '_etext'), (0x500, 'T', '_sinittext'), (0x600, 'T', '_einittext'),
    (0x1000, 'D', '__start_mcount_loc'), (0x1010, 'D', '__stop_mcount_loc'),
    (0x2000, 'D', '__start_ftrace_events'), (0x2008, 'D', '__stop_ftrace_events')])
img = bytearray(0x3000)
def ptr(at, v): img[at:at + 8] = struct.pack('<Q', v)
ptr(0x1000, B + 0x104); ptr(0x1008, B + 0x504)
ptr(0x2000, B + 0x2100); ptr(0x2110, B + 0x2200); ptr(0x2118, B + 0x2300)
ptr(0x2200, B + 0x2400); img[0x2400:0x2406] = b'sched\0'; img[0x2300:0x230d] = b'sched_switch\0'
for mode in (9, 0x19):
    open(sys.argv[1] + '-%x' % mode, 'wb').write(bytes([mode]) + syms.encode() + b'\0' + bytes(img))
PY
		;;
	*pstore*)
		# a pstore record as it is (tests/data/traces/*.dmesg-ramoops-*)
		for f in "$root"/tests/data/traces/*.dmesg-ramoops-*; do
			case $f in *.gz) continue ;; esac
			b=${f##*/}
			cp "$f" "$corpus/seed-$b"
			{ printf '====1764130000.123456-D\n' && cat "$f"; } >"$corpus/seed-raw-$b"
		done
		;;
	*trace* | *console* | *dump*)
		# report targets read a leading byte (split point / boot number)
		# (refused/: traces report refuses, e.g. tracer osnoise; seeds/:
		# small messy console logs made from a real capture)
		for f in "$root"/tests/data/traces/*.trace "$root"/tests/data/traces/*.log \
			"$root"/tests/data/traces/refused/*.trace "$root"/tests/fuzz/seeds/*.log; do
			[ -f "$f" ] || continue
			b=${f##*/}
			{ printf '\200' && cat "$f"; } >"$corpus/seed-$b"
		done
		;;
	*)
		for f in "$@"; do
			b=${f##*/}
			cp "$f" "$corpus/seed-${b%.bconf}"
		done
		;;
	esac

	rm -f "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-* \
		"$art"/slow-unit-*
	rc=0
	"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -detect_leaks=1 \
		-max_len=33000 -timeout=30 -print_final_stats=1 \
		-artifact_prefix="$art/" "$corpus" >"$log" 2>&1 || rc=$?

	runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	[ -n "$runs" ] || runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
	files=$(ls "$corpus" | wc -l)
	crash=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | head -n 1)
	if [ $rc -eq 0 ] && [ -z "$crash" ] &&
		! grep -q 'ERROR: \(Address\|Leak\|Undefined\)Sanitizer\|runtime error:\|==ERROR' "$log"; then
		echo "fuzz $name: ok (${runs:-?} runs, $files corpus files)"
		passed=$((passed + 1))
	else
		echo "fuzz $name: FAILED (exit $rc): ${crash:-no crash file} (log: $log)"
		grep -m 8 'ERROR:\|runtime error:\|invariant failed\|SUMMARY:\|deadly signal\|Timeout\|out-of-memory' "$log" |
			sed 's/^/    /'
		failed=$((failed + 1))
	fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
