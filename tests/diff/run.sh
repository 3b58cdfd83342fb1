#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Differential test: boottrace's `bootconfig` against the kernel's own
# tools/bootconfig (built from linux-source-6.1 by kernel-tool.sh).
#
#   tests/diff/run.sh [BOOTTRACE_BIN]
#
# BOOTTRACE_BIN (argument or environment; default build/bootconfig) is run
# as the kernel tool is when its name is `bootconfig`, and as
# `BIN bootconfig ARGS` otherwise (build/boottrace).
#
# Inputs: every tools/bootconfig/samples/*.bconf of the kernel, and
# DIFF_CASES (default 3000) files from gen.c with seed DIFF_SEED (default
# fixed, printed; DIFF_SEED=random picks one). For each input, both tools
# run in show mode and in -l mode; compared are the verdict (accept or
# reject), stdout byte for byte and, for rejects, the error: the kernel's
# "Parse Error: TEXT at L:C" must be ours "FILE:L:C: error: TEXT" and its
# "Error: TEXT." ours "FILE: error: TEXT" (exactly that one line). Then, for
# a sample of inputs, -a into a small fake initrd (the cpio magic and a
# line; compared: stdout, stderr and the resulting file byte for byte),
# show of that initrd, and in a second copy -a, -a again over it and
# -d twice (the file must come back as it was).
#
# The kernel tool's exit status is not its verdict: in show mode it exits
# with the file size (mod 256) after a parse error and 0 for an empty file,
# so a kernel run rejects when its status is non-zero or it printed one of
# the two error lines. Ours must exit non-zero exactly when it rejects.
# Where boottrace differs on purpose (docs/bootconfig.md), the expected
# result is ours: see big_plain() and empty_file().
#
# DIFF_KEEP=1 keeps the work directory (all outputs) for a closer look.
# Failing inputs are saved to ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/
# diff-failures/; the first 20 are shown with a diff. The last line is
# "diff: N passed, N failed" (one input passes when all its comparisons
# are equal); the exit status is non-zero on any failure, 3 when the kernel
# tool cannot be had (`make deps`), 2 on a usage error.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace
faildir=$cache/diff-failures
cases=${DIFF_CASES:-3000}
seed=${DIFF_SEED:-20240617}
apply_every=${DIFF_APPLY_EVERY:-20}	# -a for 1 accepted input in N
show_max=20
save_max=200

bin=${1:-${BOOTTRACE_BIN:-$root/build/bootconfig}}
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
if [ ! -x "$bin" ]; then
	echo "diff: $bin is not an executable (run \`make\` first)" >&2
	exit 2
fi
case ${bin##*/} in
bootconfig*) sub= ;;
*) sub=bootconfig ;;
esac
case $cases in '' | *[!0-9]*) echo "diff: DIFF_CASES must be a number" >&2; exit 2 ;; esac
if [ "$seed" = random ]; then
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
fi
case $seed in '' | *[!0-9]*) echo "diff: DIFF_SEED must be a number" >&2; exit 2 ;; esac

kbin=$(sh "$here/kernel-tool.sh") || exit $?
samples=${kbin%/*}/samples

start=$(date +%s)
w=$(mktemp -d "${TMPDIR:-/tmp}/bt-diff.XXXXXX")
if [ -n "${DIFF_KEEP:-}" ]; then
	echo "diff: keeping the work directory $w (DIFF_KEEP)"
else
	trap 'rm -rf "$w"' EXIT INT TERM HUP
fi
cd "$w"
mkdir c k o k/s k/l o/s o/l k/a o/a k/d o/d

${CC:-gcc} -std=c11 -O2 -Wall -Wextra -Werror -o gen "$here/gen.c" ||
	{ echo "diff: cannot build gen.c" >&2; exit 1; }
./gen "$seed" "$cases" c
mv c/MANIFEST manifest
nsamples=0
for f in "$samples"/*.bconf; do
	[ -f "$f" ] || continue
	b=${f##*/}
	cp "$f" "c/sample-$b"
	echo "sample-${b%.bconf} sample" >>manifest
	nsamples=$((nsamples + 1))
done
echo "diff: seed $seed ($cases generated + $nsamples kernel samples)," \
	"kernel: $kbin, ours: $bin${sub:+ $sub}"

nw=$(nproc 2>/dev/null || echo 2)
[ "$nw" -ge 1 ] 2>/dev/null || nw=2

# kver RC KERR FILE: the kernel's verdict kv (0 accept, 1 reject) and exp,
# the error line ours must print (empty when it has no known form).
kver() {
	kv=0
	exp=
	[ "$1" -eq 0 ] || kv=1
	[ -s "$2" ] || return 0
	line=
	IFS= read -r line <"$2" || :
	case $line in
	"Parse Error: "*" at "*)
		kv=1
		r=${line#Parse Error: }
		exp="$3:${r##* at }: error: ${r% at *}"
		;;
	"Error: "*.)
		kv=1
		r=${line#Error: }
		exp="$3: error: ${r%.}"
		;;
	esac
}

# big_plain KV KOUT FILE: where boottrace differs on purpose
# (docs/bootconfig.md): a file over 32767 bytes without footer is an initrd
# to both tools, and the kernel's shows nothing; ours first checks that it
# is one, and the generated configs are not. Sets kv and exp for that case.
big_plain() {
	[ "$1" -eq 0 ] && [ ! -s "$2" ] || return 0
	[ "$(wc -c <"$3")" -gt 32767 ] || return 0
	kv=1
	exp="$3: error: not an initrd (no cpio, compressor or ramdisk filesystem signature at its start); check the argument order (-a CONFIG INITRD) or use --force"
}

# empty_file FILE: the other one: for an empty file the kernel's tool
# prints "Error: Config data is empty." and succeeds (its test suite wants
# success); ours prints a note and succeeds.
empty_file() {
	[ -s "$1" ] && return 0
	kv=0
	exp="$1: note: empty file, no bootconfig in it"
}

# ours RC: our verdict ov.
ours() {
	ov=0
	[ "$1" -eq 0 ] || ov=1
}

# Phase 1: show and -l of every input, worker $1 of $nw (cwd $w).
phase1() {
	i=0
	for f in c/*.bconf; do
		i=$((i + 1))
		[ $((i % nw)) -eq "$1" ] || continue
		n=${f#c/}
		n=${n%.bconf}
		for m in s l; do
			if [ $m = s ]; then opt=; else opt=-l; fi
			rc=0
			"$kbin" $opt "$f" >k/$m/$n.out 2>k/$m/$n.kerr || rc=$?
			kver $rc k/$m/$n.kerr "$f"
			big_plain $kv k/$m/$n.out "$f"
			empty_file "$f"
			if [ -n "$exp" ]; then
				printf '%s\n' "$exp" >k/$m/$n.err
				e=err
			else
				e=xerr
			fi
			rc=0
			"$bin" $sub $opt "$f" >o/$m/$n.out 2>o/$m/$n.$e || rc=$?
			ours $rc
			echo "$n $m $kv $ov" >>rc.$1
		done
	done
}

# Phase 2: -a, show of the initrd; in a second copy -a, -a again, -d
# twice; for the inputs listed in apply.list. Each tool runs with cwd k/ or
# o/, so that both print the same relative paths. p2tool TOOL SUB DIR N PAD
# ERR: verdicts r1 r2 r4, aexp (kernel only) the error line expected from -a.
p2tool() {
	t=$1
	s=$2
	cd "$3"
	n=$4
	conf=../c/$n.bconf
	img=a/$n.img
	printf '070701 fake initrd %s%s\n' "$n" "$5" >$img
	rc=0
	"$t" $s -a "$conf" $img >a/$n.aout 2>a/$n.$6 </dev/null || rc=$?
	if [ "$3" = k ]; then kver $rc a/$n.$6 "$conf"; r1=$kv; aexp=$exp; else ours $rc; r1=$ov; fi
	rc=0
	"$t" $s $img >a/$n.show 2>a/$n.xerr2 </dev/null || rc=$?
	if [ "$3" = k ]; then kver $rc a/$n.xerr2 $img; r2=$kv; else ours $rc; r2=$ov; fi
	img=d/$n.img
	printf '070701 fake initrd %s%s\n' "$n" "$5" >$img
	rc=0
	{ "$t" $s -a "$conf" $img >d/$n.out 2>d/$n.xerr &&
		"$t" $s -a "$conf" $img >>d/$n.out 2>>d/$n.xerr &&
		"$t" $s -d $img >>d/$n.out 2>>d/$n.xerr &&
		"$t" $s -d $img >>d/$n.out 2>>d/$n.xerr; } </dev/null || rc=$?
	r4=0
	[ $rc -eq 0 ] || r4=1
	cd ..
}

phase2() {
	i=0
	while read -r n; do
		i=$((i + 1))
		[ $((i % nw)) -eq "$1" ] || continue
		case $((i % 4)) in 0) pad= ;; 1) pad=. ;; 2) pad=.. ;; *) pad=... ;; esac
		# The kernel first: its -a verdict decides whether stderr is compared.
		p2tool "$kbin" "" k "$n" "$pad" kerr
		k1=$r1 k2=$r2 k4=$r4
		if [ -n "$aexp" ]; then
			printf '%s\n' "$aexp" >k/a/$n.err
			e=err
		else
			e=xerr
		fi
		p2tool "$bin" "$sub" o "$n" "$pad" $e
		echo "$n a $k1 $r1" >>rc.$1
		echo "$n ai $k2 $r2" >>rc.$1
		echo "$n ad $k4 $r4" >>rc.$1
	done <apply.list
}

# run_workers PHASE: $nw workers in parallel; all must finish cleanly.
run_workers() {
	pids=
	j=0
	while [ $j -lt "$nw" ]; do
		$1 $j &
		pids="$pids $!"
		j=$((j + 1))
	done
	bad=0
	for p in $pids; do
		wait "$p" || bad=1
	done
	if [ $bad -ne 0 ]; then
		echo "diff: a $1 worker failed" >&2
		echo "diff: 0 passed, 1 failed"
		exit 1
	fi
}

run_workers phase1

t1=$(date +%s)

# The -a sample: every kernel sample, every accepted input near 32 KB,
# 1 in $apply_every other accepted inputs and 1 in 60 rejected ones.
cat rc.* | awk -v every="$apply_every" '
	FNR == NR { kind[$1] = $2; next }
	$2 == "s" {
		k = kind[$1]
		if ($3 == 0) {
			if (k == "sample" || k == "big" || ++acc % every == 0)
				print $1
		} else if (++rej % 60 == 0 || k == "sample") print $1
	}' manifest - | sort >apply.list
run_workers phase2

t2=$(date +%s)

# Compare: verdicts, then every output file present on both sides.
cat rc.* | awk '$3 != $4 { print $1 }' >fail.rc
diff -rq -x '*.kerr' -x '*.xerr*' k o >diff.out 2>&1 || :
sed -n 's|^Files [ko]/[a-z]*/\([^ /]*\)\.[a-z]* and .*|\1|p; s|^Only in [ko]/[a-z]*: \([^ ]*\)\.[a-z]*$|\1|p' \
	diff.out >fail.files
if grep -v '^Files \|^Only in ' diff.out >&2; then
	echo "diff: comparing the outputs failed" >&2
	exit 1
fi
sort -u fail.rc fail.files >fail.list
total=$(wc -l <manifest)
# Every input must have its verdicts: 2 modes each, 3 more with -a.
want=$((2 * total + 3 * $(wc -l <apply.list)))
got=$(cat rc.* | wc -l)
if [ "$got" -ne "$want" ]; then
	echo "diff: $got verdicts recorded, $want expected" >&2
	echo "diff: 0 passed, $total failed"
	exit 1
fi
failed=$(wc -l <fail.list)
passed=$((total - failed))

if [ "$failed" -gt 0 ]; then
	mkdir -p "$faildir"
	shown=0
	saved=0
	while read -r n; do
		if [ $saved -lt $save_max ]; then
			case $n in
			sample-*) keep=$faildir/$n.bconf ;;
			*) keep=$faildir/seed$seed-$n.bconf ;;
			esac
			cp "c/$n.bconf" "$keep"
			saved=$((saved + 1))
		fi
		[ $shown -lt $show_max ] || continue
		shown=$((shown + 1))
		kind=$(awk -v n="$n" '$1 == n { print $2 }' manifest)
		echo "=== FAIL $n ($kind), saved as $keep"
		awk -v n="$n" 'BEGIN {
			name["s"] = "show"; name["l"] = "-l"; name["a"] = "-a"
			name["ai"] = "show of the initrd"
			name["ad"] = "-a, -a, -d, -d"
		}
		$1 == n && $3 != $4 {
			printf "%s: kernel %s, ours %s\n", name[$2],
			    ($3 ? "rejects" : "accepts"), ($4 ? "rejects" : "accepts")
		}' rc.* || :
		for m in s l; do
			if ! cmp -s k/$m/$n.out o/$m/$n.out; then
				diff -u --label "kernel $m/$n.out" --label "ours $m/$n.out" \
					k/$m/$n.out o/$m/$n.out 2>&1 | head -n 30 | cat -v
			fi
			if [ -f k/$m/$n.err ] && ! cmp -s k/$m/$n.err o/$m/$n.err; then
				echo "$m: expected stderr: $(cat -v k/$m/$n.err)"
				echo "$m: ours stderr:     $(head -n 3 o/$m/$n.err | cat -v)"
			elif awk -v n="$n" -v m=$m '$1 == n && $2 == m && $3 != $4 { f = 1 }
				END { exit !f }' rc.*; then
				echo "$m: kernel stderr: $(head -n 3 k/$m/$n.kerr | cat -v)"
				echo "$m: ours stderr:   $(cat o/$m/$n.err o/$m/$n.xerr 2>/dev/null | head -n 3 | cat -v)"
			fi
		done
		for x in a/$n.aout a/$n.err a/$n.img a/$n.show d/$n.out d/$n.img; do
			[ -f k/$x ] || [ -f o/$x ] || continue
			cmp -s k/$x o/$x 2>/dev/null && continue
			case $x in
			*.img)
				echo "$x: kernel $(wc -c <k/$x) bytes, ours $(wc -c <o/$x) bytes;" \
					"$(cmp k/$x o/$x 2>&1 | head -n 1)"
				;;
			*)
				diff -u --label "kernel $x" --label "ours $x" k/$x o/$x 2>&1 |
					head -n 30 | cat -v
				;;
			esac
		done
	done <fail.list
	[ "$failed" -le $show_max ] || echo "diff: ($((failed - show_max)) more failures not shown)"
	echo "diff: failing inputs saved under $faildir; replay: DIFF_SEED=$seed DIFF_CASES=$cases $0"
fi
end=$(date +%s)
echo "diff: seed $seed, $(wc -l <apply.list) inputs also through -a/-d;" \
	"$((end - start)) s (show/-l $((t1 - start)) s, -a/-d $((t2 - t1)) s)"
echo "diff: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
