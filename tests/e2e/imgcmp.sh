# SPDX-License-Identifier: GPL-2.0-or-later
#
# What boottrace reads from a kernel image itself (check --kernel
# --print-events/--print-functions, compile --kernel's tracers;
# docs/kernel-image.md) against what the same kernel lists once booted:
# try.sh for Debian's amd64 image, archboot.sh for mips64el and arm64.
# Sourced after tap.sh, with $bt set.
# shellcheck shell=sh
# shellcheck disable=SC2154 # $bt is the suite's

# Every tracer of Linux 6.1 (kernel/tracers.c, docs/kernel-facts.md 115).
IMGCMP_TRACERS="nop function function_graph irqsoff preemptoff preemptirqsoff wakeup
wakeup_rt wakeup_dl hwlat osnoise timerlat mmiotrace blk branch"

# The image's events against available_events (at least 1000 of them):
# the same list.
imgcmp_events() { # LABEL IMAGE KERN_EVENTS DIR
	"$bt" check --kernel "$2" --print-events 2>"$4/pe.err" | LC_ALL=C sort >"$4/img.events"
	LC_ALL=C sort "$3" >"$4/kern.events"
	echo "# $1 events: image $(wc -l <"$4/img.events"), booted kernel $(wc -l <"$4/kern.events")"
	LC_ALL=C comm -3 "$4/img.events" "$4/kern.events" | head -n 5 | sed 's/^/#   differ: /'
	t "$1 --print-events: the image's events are the booted kernel's available_events" sh -c "
		[ \$(wc -l <'$4/kern.events') -gt 1000 ] && cmp '$4/img.events' '$4/kern.events'"
}

# The image's traceable functions against available_filter_functions
# (modules' and the addresses ftrace could not name left out): every
# booted one in the image's list (at least 20000), and the image's other
# names init functions (freed before the listing) or aliases at the
# address of a listed one, but at most 5.
imgcmp_functions() { # LABEL IMAGE KERN_FUNCTIONS DIR
	"$bt" check --kernel "$2" --print-functions 2>"$4/pf.err" | LC_ALL=C sort -u >"$4/img.funcs"
	"$bt" check --kernel "$2" --print-map 2>/dev/null >"$4/img.map"
	grep -v -e '\[' -e '^__ftrace_invalid_address__' "$3" | LC_ALL=C sort -u >"$4/kern.funcs"
	LC_ALL=C comm -13 "$4/img.funcs" "$4/kern.funcs" >"$4/missing"
	LC_ALL=C comm -23 "$4/img.funcs" "$4/kern.funcs" >"$4/extra"
	awk 'FILENAME == ARGV[1] { if ($3 == "_sinittext") si = $1; if ($3 == "_einittext") ei = $1
			if ($2 ~ /^[tTwW]$/) { at[$3] = at[$3] " " $1; names[$1] = names[$1] " " $3 }; next }
		FILENAME == ARGV[2] { listed[$1] = 1; next }
		{ n = split(at[$1], a, " "); ok = 0
		  for (i = 1; i <= n; i++) {
			if (a[i] >= si && a[i] < ei) ok = 1
			m = split(names[a[i]], b, " "); for (j = 1; j <= m; j++) if (listed[b[j]]) ok = 1
		  }
		  if (!ok) print }' "$4/img.map" "$4/kern.funcs" "$4/extra" >"$4/unexplained"
	echo "# $1 functions: image $(wc -l <"$4/img.funcs"), booted kernel $(wc -l <"$4/kern.funcs") (modules and unnamed left out); missing $(wc -l <"$4/missing"), extra $(wc -l <"$4/extra"), of them neither init nor alias $(wc -l <"$4/unexplained")"
	sed 's/^/#   missing: /' "$4/missing" | head -n 5
	sed 's/^/#   unexplained: /' "$4/unexplained" | head -n 5
	t "$1 --print-functions: every function the booted kernel can trace is in the image's list" sh -c "
		[ \$(wc -l <'$4/kern.funcs') -gt 20000 ] && [ ! -s '$4/missing' ]"
	t "$1 --print-functions: its other names are init functions or aliases (at most 5 not)" \
		[ "$(wc -l <"$4/unexplained")" -le 5 ]
}

# compile's tracer decisions with FROM (--kernel IMAGE: its symbols;
# --kernel-config CONFIG) against available_tracers: every tracer taken
# exactly when the booted kernel offers it.
imgcmp_tracers() { # LABEL FROM SRC KERN_TRACERS DIR [COMPILE-OPTION...]
	l=$1 from=$2 src=$3 kt=$4 d=$5
	shift 5
	bad=''
	for tr in $IMGCMP_TRACERS; do
		printf 'ftrace.tracer = %s\n' "$tr" >"$d/tr.bconf"
		took=0
		"$bt" compile -q -t cmdline "$@" "$from" "$src" "$d/tr.bconf" >/dev/null 2>&1 && took=1
		offered=0
		tr ' ' '\n' <"$kt" | grep -qx "$tr" && offered=1
		[ "$took" = "$offered" ] || bad="$bad $tr(compile $took, kernel $offered)"
	done
	echo "# $l available_tracers: $(cat "$kt")"
	[ -z "$bad" ] || echo "# differ:$bad"
	t "$l compile $from takes a tracer exactly when the booted kernel offers it" [ -z "$bad" ]
}
