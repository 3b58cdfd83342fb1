#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark of boottrace check (called by tests/bench/run.sh, `make bench`):
# checking 1000 filter names against the full symbol table of a real
# vmlinux (Debian 6.1 cloud-amd64 -dbg, tests/e2e/debian-kernel.sh) against
# one `nm` pass over the same file (the baseline), in mean wall time of
# $BENCH_CHECK_RUNS runs each (default 10). The target: ratio <= 2.
# Exit 0 either way (it is a report); 1 when a measurement failed, 3 when
# the kernel cannot be fetched.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bt=${1:-$root/build/boottrace}
runs=${BENCH_CHECK_RUNS:-10}
k=$(sh "$root/tests/e2e/debian-kernel.sh") || exit 3
w=$(mktemp -d "${TMPDIR:-/tmp}/bt-bench-check.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP

# 1000 distinct function names of this kernel, spread over the table.
awk '$2 ~ /^[tT]$/ && $3 !~ /\./ { print $3 }' "$k/System.map" | sort -u |
	awk 'NR % 37 == 0' | head -n 1000 >"$w/names"
n=$(wc -l <"$w/names")
[ "$n" -eq 1000 ] || { echo "bench check: only $n names"; exit 1; }
{ printf 'ftrace.ftrace.filters = '; paste -sd, "$w/names"; } >"$w/c.bconf"
"$bt" check --vmlinux "$k/vmlinux" "$w/c.bconf" >"$w/out" 2>&1 || true
found=$(grep -cE ': (note|error): [^ ]+ (found in|is in) vmlinux' "$w/out" || true)
[ "$found" -eq 1000 ] || { echo "bench check: $found of 1000 names found"; tail -n 3 "$w/out"; exit 1; }

wall() { # CMD...: mean milliseconds per run
	t0=$(date +%s%N)
	j=0
	while [ $j -lt "$runs" ]; do
		"$@" >/dev/null 2>&1 || true
		j=$((j + 1))
	done
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v n="$runs" 'BEGIN { printf "%.1f", (b - a) / n / 1e6 }'
}
nm "$k/vmlinux" >/dev/null	# warm the page cache for both
nms=$(wall nm "$k/vmlinux")
cms=$(wall "$bt" check --vmlinux "$k/vmlinux" "$w/c.bconf")
ratio=$(awk -v a="$cms" -v b="$nms" 'BEGIN { printf "%.2f", a / b }')
size=$(du -m "$k/vmlinux" | cut -f1)
echo "bench check: 1000 filter names vs vmlinux ${size} MB ($(basename "$k")): check $cms ms, nm $nms ms, ratio $ratio (mean of $runs)"
if awk -v r="$ratio" 'BEGIN { exit !(r <= 2) }'; then
	echo "bench check: ratio $ratio <= 2: target met"
else
	echo "bench check: ratio $ratio > 2: target NOT met"
fi
