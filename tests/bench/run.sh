#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark: instructions executed (valgrind --tool=callgrind) by our
# `bootconfig` and by the kernel's tools/bootconfig (the baseline, built
# -O2 -g from linux-source-6.1 by tests/diff/kernel-tool.sh).
#
#   tests/bench/run.sh [BOOTTRACE_BIN]      (`make bench`)
#
# BOOTTRACE_BIN (argument or environment; default build/bootconfig) runs as
# the kernel tool does when named `bootconfig`, else as `BIN bootconfig`.
#
# Inputs: a ~30 KB boot-time tracing config from gen30k.sh, and every
# good-*.bconf sample of the kernel. Per input and tool:
#   show   whole process, `bootconfig FILE >/dev/null`
#   parse  only the parser, inclusive: xbc_init() for the kernel,
#          bconf_parse() for ours (--toggle-collect)
# Then `boottrace compile -t bootconfig` of a ~30 KB config from
# gen-compile30k.sh, against the kernel tool showing the compiled text, in
# instructions and mean wall time. The last two lines say whether the 30 KB
# parse ratio (ours/kernel) is within 0.5 and the compile under 10 ms. Exit 0 either way (it is a report); non-zero only when a
# measurement failed (3 when valgrind or the kernel tool is missing).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=0.5

bin=${1:-${BOOTTRACE_BIN:-$root/build/bootconfig}}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
if [ ! -x "$bin" ]; then
	echo "bench: $bin is not an executable (run \`make\` first)" >&2
	exit 2
fi
case ${bin##*/} in
bootconfig*) sub= ;;
*) sub=bootconfig ;;
esac
if ! command -v valgrind >/dev/null 2>&1; then
	echo "bench: valgrind is not installed: run \`make deps\`" >&2
	exit 3
fi
kbin=$(sh "$root/tests/diff/kernel-tool.sh") || exit $?
samples=${kbin%/*}/samples

w=$(mktemp -d "${TMPDIR:-/tmp}/bt-bench.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP

fail() {
	echo "bench: measurement failed: $*" >&2
	exit 1
}

sh "$here/gen30k.sh" >"$w/trace-30k.bconf" || fail "gen30k.sh"
size=$(wc -c <"$w/trace-30k.bconf")
[ "$size" -ge 28000 ] && [ "$size" -le 32767 ] ||
	fail "gen30k.sh wrote $size bytes, not 28-32 KB"
"$kbin" "$w/trace-30k.bconf" >/dev/null 2>"$w/err" && [ ! -s "$w/err" ] ||
	fail "the kernel tool rejects the 30 KB config: $(cat "$w/err")"

# count OUT FN TOOL [SUB] FILE: instructions of one run (all of it when FN
# is -, else inclusive in FN); prints the count.
count() {
	o=$1
	fn=$2
	shift 2
	if [ "$fn" = - ]; then
		set -- valgrind --tool=callgrind --callgrind-out-file="$o" "$@"
	else
		set -- valgrind --tool=callgrind --callgrind-out-file="$o" \
			--collect-atstart=no --toggle-collect="$fn" "$@"
	fi
	"$@" >/dev/null 2>"$o.log" || fail "$* (see below)
$(tail -n 5 "$o.log")"
	n=$(sed -n 's/^totals: *\([0-9][0-9]*\).*/\1/p' "$o" | head -n 1)
	[ -n "$n" ] && [ "$n" -gt 0 ] ||
		fail "no instructions counted for $fn in: $*"
	echo "$n"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "bench: baseline: linux-source-6.1 tools/bootconfig built -O2 ($kbin)"
echo "bench: ours: $bin${sub:+ $sub}; unit: instructions (callgrind Ir)"
echo "bench: show = whole process \`bootconfig FILE\`;" \
	"parse = xbc_init (kernel) vs bconf_parse (ours), inclusive"
printf '%-34s %11s %11s %6s  %11s %11s %6s\n' input "show:kernel" ours ratio \
	"parse:kernel" ours ratio
set -- "$w/trace-30k.bconf"
for f in "$samples"/good-*.bconf; do
	[ -f "$f" ] && set -- "$@" "$f"
done
i=0
for f in "$@"; do
	i=$((i + 1))
	name=${f##*/}
	[ $i -ne 1 ] || name="$name ($size B)"
	ks=$(count "$w/k$i.s" - "$kbin" "$f")
	os=$(count "$w/o$i.s" - "$bin" $sub "$f")
	kp=$(count "$w/k$i.p" xbc_init "$kbin" "$f")
	op=$(count "$w/o$i.p" bconf_parse "$bin" $sub "$f")
	rs=$(ratio "$os" "$ks")
	rp=$(ratio "$op" "$kp")
	[ $i -ne 1 ] || r30=$rp
	printf '%-34s %11s %11s %6s  %11s %11s %6s\n' "$name" "$ks" "$os" "$rs" \
		"$kp" "$op" "$rp"
done

# Compile: `boottrace compile -t bootconfig` of a ~30 KB config, against
# the kernel tool reading the compiled result (baseline), in instructions
# and in wall time (mean of $runs runs each, same machine, same run).
bt=${bin%/*}/boottrace
runs=${BENCH_RUNS:-100}
sh "$here/gen-compile30k.sh" >"$w/compile-30k.bconf" || fail "gen-compile30k.sh"
csize=$(wc -c <"$w/compile-30k.bconf")
set -- compile -t bootconfig -k 6.1 -o "$w/c.out" "$w/compile-30k.bconf"
"$bt" "$@" >/dev/null 2>"$w/c.err" || fail "compile: $(cat "$w/c.err")"
ci=$(count "$w/c.i" - "$bt" "$@")
ki=$(count "$w/kc.i" - "$kbin" "$w/c.out")
wall() { # N CMD...: mean milliseconds per run
	n=$1
	shift
	t0=$(date +%s%N)
	j=0
	while [ $j -lt "$n" ]; do
		"$@" >/dev/null 2>&1
		j=$((j + 1))
	done
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v n="$n" 'BEGIN { printf "%.2f", (b - a) / n / 1e6 }'
}
cms=$(wall "$runs" "$bt" "$@")
kms=$(wall "$runs" "$kbin" "$w/c.out")
printf '%-34s %11s %11s %6s  %11s %11s %6s\n' input "Ir:kernel" ours ratio \
	"ms:kernel" ours ratio
printf '%-34s %11s %11s %6s  %11s %11s %6s\n' "compile-30k.bconf ($csize B)" \
	"$ki" "$ci" "$(ratio "$ci" "$ki")" "$kms" "$cms" "$(ratio "$cms" "$kms")"
echo "bench: compile = whole process \`boottrace compile -t bootconfig -k 6.1\`;" \
	"baseline = the kernel's tool showing the compiled text; ms = mean of $runs runs"

if awk -v r="$r30" -v t="$target" 'BEGIN { exit !(r <= t) }'; then
	echo "bench: 30 KB parse-only ratio $r30 <= $target: target met"
else
	echo "bench: 30 KB parse-only ratio $r30 > $target: target NOT met"
fi
if awk -v m="$cms" 'BEGIN { exit !(m < 10) }'; then
	echo "bench: 30 KB compile $cms ms < 10 ms: target met"
else
	echo "bench: 30 KB compile $cms ms >= 10 ms: target NOT met"
fi

# boottrace report on a generated 200 MB trace (tests/bench/report.sh)
sh "$here/report.sh" "${bin%/*}/boottrace"

# boottrace check: 1000 names against a full vmlinux vs one nm pass.
sh "$here/check.sh" "$bt"
