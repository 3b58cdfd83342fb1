#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every example of the kernel's own bootconfig documentation through
# `compile` (issue 14, class 2): Documentation/admin-guide/bootconfig.rst and
# Documentation/trace/boottime-trace.rst, extracted at test time from
# ${KERNEL_SRC_TAR:-/usr/src/linux-source-6.1.tar.xz} into a temp dir. Each
# literal block ("::" then indented lines) is compiled for kernel 6.1 to
# -t cmdline and to -t bootconfig, and must either compile or be refused
# with the true reason, as the table below says. The documented command
# lines are the oracle for the configs they render.
#
# A block the table does not know (the docs changed) fails: classify it.
# Last line: "kernel-docs: N passed, N failed".
set -u

root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${BT_BUILD:-$root/build}/boottrace
tarball=${KERNEL_SRC_TAR:-/usr/src/linux-source-6.1.tar.xz}
top=linux-source-6.1
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; }
summary() {
	echo "kernel-docs: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
if [ ! -r "$tarball" ] || ! tar -xf "$tarball" -C "$work" \
	"$top/Documentation/admin-guide/bootconfig.rst" \
	"$top/Documentation/trace/boottime-trace.rst"; then
	not_ok "cannot extract the documentation from $tarball"
	summary
fi

# The literal blocks of one .rst file as $work/NAME-N.txt (N from 1).
extract() { # FILE NAME
	awk -v out="$work/$2" '
	/::[[:space:]]*$/ { if (f) close(f); f = sprintf("%s-%d.txt", out, ++n); inb = 1; next }
	inb && /^[^ \t]/ { inb = 0; close(f); f = "" }
	inb { print > f }' "$1"
}
extract "$work/$top/Documentation/admin-guide/bootconfig.rst" bc
extract "$work/$top/Documentation/trace/boottime-trace.rst" bt

# Words of a command line without quotes, one a line, sorted.
words() { tr -d '"' | tr ' \t' '\n\n' | sed '/^$/d' | sort; }

# The table: BLOCK | its first line (guards against changed docs) | what
# -t cmdline must do | what -t bootconfig must do. "ok" compiles; other
# text is a part of the one-line error it must give (the true reason).
# Blocks that are no config at all (grammar, shell, C, command lines) are
# refused as such by the config parser.
NOTOP="unknown top-level key"
table() {
	cat <<EOF
bc-1|KEY[.WORD[...]] = VALUE[, VALUE2[...]][;]|Invalid keyword|Invalid keyword
bc-2|foo.bar.baz = value1|$NOTOP 'foo'|$NOTOP 'foo'
bc-3|foo.bar {|$NOTOP 'foo'|$NOTOP 'foo'
bc-4|foo.bar { baz = value1; qux.quux = value2 }|$NOTOP 'foo'|$NOTOP 'foo'
bc-5|foo = bar, baz|Value is redefined|Value is redefined
bc-6|foo = bar, baz|$NOTOP 'foo'|$NOTOP 'foo'
bc-7|foo = bar, baz|$NOTOP 'foo'|$NOTOP 'foo'
bc-8|foo = value1|$NOTOP 'foo'|$NOTOP 'foo'
bc-9|foo {|$NOTOP 'foo'|$NOTOP 'foo'
bc-10|foo.bar = value1|$NOTOP 'foo'|$NOTOP 'foo'
bc-11|foo = value2|$NOTOP 'foo'|$NOTOP 'foo'
bc-12|# comment line|$NOTOP 'foo'|$NOTOP 'foo'
bc-13|foo = value|$NOTOP 'foo'|$NOTOP 'foo'
bc-14|key = 1 # comment|Invalid keyword|Invalid keyword
bc-15|KEY[.WORDS...] = "[VALUE]"[,"VALUE2"...]|Invalid keyword|Invalid keyword
bc-16|# make -C tools/bootconfig|Empty config|Empty config
bc-17|# tools/bootconfig/bootconfig -a your-config /boot/initrd.img-X.Y.Z|Empty config|Empty config
bc-18|# tools/bootconfig/bootconfig -d /boot/initrd.img-X.Y.Z|Empty config|Empty config
bc-19|CONFIG_BOOT_CONFIG_EMBED=y|$NOTOP 'CONFIG_BOOT_CONFIG_EMBED'|$NOTOP 'CONFIG_BOOT_CONFIG_EMBED'
bc-20|[bootconfig params][cmdline params] -- [bootconfig init params][cmdline init params]|Invalid keyword|Invalid keyword
bc-21|kernel {|ok|ok
bc-22|root="01234567-89ab-cdef-0123-456789abcd" -- splash|No value delimiter|No value delimiter
bc-23|ro bootconfig -- quiet|Invalid keyword|Invalid keyword
bc-24|root="01234567-89ab-cdef-0123-456789abcd" ro bootconfig -- splash quiet|No value delimiter|No value delimiter
bc-25|vnode = NULL;|Invalid keyword|Invalid keyword
bc-26|root = xbc_find_node("key.prefix");|Invalid keyword|Invalid keyword
bt-1|ftrace.event {|an event filter (task:task_newtask) has no command-line parameter|ok
bt-2|ftrace.instance {|a trace instance on the command line (trace_instance=) needs kernel 6.3 or later|ok
bt-3|ftrace {|ftrace.tracing_on has no command-line parameter|ok
bt-4|trace_options=sym-addr trace_event=initcall:* tp_printk trace_buf_size=1M ftrace=function ftrace_filter="vfs*"|$NOTOP 'trace_options'|$NOTOP 'trace_options'
bt-5|kernel {|ok|ok
EOF
}

# Every extracted block must be in the table.
for f in "$work"/bc-*.txt "$work"/bt-*.txt; do
	b=$(basename "$f" .txt)
	if table | grep -q "^$b|"; then :; else
		not_ok "$b: an example the table does not know (first line: $(grep -m1 -v '^[[:space:]]*$' "$f"))"
	fi
done

# run BLOCK TARGET WANT
run() {
	f=$work/$1.txt
	out=$("$bin" compile -k 6.1 -t "$2" "$f" 2>"$work/err")
	rc=$?
	err=$(grep -v 'warning: no --kernel-config\|^boottrace compile: add to the kernel command line' "$work/err")
	if [ "$3" = ok ]; then
		if [ $rc -eq 0 ] && [ -z "$err" ]; then ok "$1 -t $2 compiles"; else
			not_ok "$1 -t $2 should compile: rc $rc: $err"; fi
	elif [ $rc -ne 0 ] && printf '%s\n' "$err" | grep -qF "$3" &&
		printf '%s\n' "$err" | grep -q "^$f:[0-9][0-9]*:[0-9][0-9]*: error: "; then
		ok "$1 -t $2 refused at its place: $3"
	else
		not_ok "$1 -t $2 should be refused with '$3' at FILE:LINE:COL: rc $rc: $err"
	fi
	printf '%s\n' "$out" >"$work/$1.$2"
}

table >"$work/table"
while IFS='|' read -r b first c bc; do
	f=$work/$b.txt
	if [ ! -f "$f" ]; then
		not_ok "$b: no such example in the docs (expected '$first')"
		continue
	fi
	got=$(grep -m1 -v '^[[:space:]]*$' "$f" | sed 's/^[[:space:]]*//')
	if [ "$got" != "$first" ]; then
		not_ok "$b: the docs changed: first line '$got', the table has '$first'"
		continue
	fi
	run "$b" cmdline "$c"
	run "$b" bootconfig "$bc"
done <"$work/table"

# The documented renderings are the oracle, plus the word every compiled
# line has to ask the boottrace hook into the boot (boottrace.enable=1).
# bootconfig.rst: the kernel { root } init { splash } block becomes
# root=... -- splash.
if [ "$(words <"$work/bc-21.cmdline" | grep -vx 'boottrace.enable=1')" = "$(words <"$work/bc-22.txt")" ] &&
	grep -q '^boottrace.enable=1 ' "$work/bc-21.cmdline"; then
	ok "bc-21 -t cmdline gives the documented line (bc-22)"
else
	not_ok "bc-21 -t cmdline: '$(cat "$work/bc-21.cmdline")', documented: '$(cat "$work/bc-22.txt")'"
fi
# Its bootconfig keeps the same two settings as kernel.* and init.* keys.
if grep -qx 'kernel.root = "01234567-89ab-cdef-0123-456789abcd"' "$work/bc-21.bootconfig" &&
	grep -qx 'init.splash' "$work/bc-21.bootconfig" &&
	grep -qx 'kernel.boottrace.enable = "1"' "$work/bc-21.bootconfig" &&
	[ "$(grep -c '^[a-z]' "$work/bc-21.bootconfig")" -eq 3 ]; then
	ok "bc-21 -t bootconfig has exactly kernel.root, init.splash and the hook's opt-in"
else
	not_ok "bc-21 -t bootconfig: $(cat "$work/bc-21.bootconfig")"
fi
# boottime-trace.rst: the kernel { ... } block is the documented command
# line (bt-4), plus the trace_clock=global the compiler adds (-v says why)
# and the hook's opt-in.
if [ "$(grep -v '^trace_clock=global$\|^boottrace.enable=1$' <<EOF | sort
$(words <"$work/bt-5.cmdline")
EOF
)" = "$(words <"$work/bt-4.txt")" ]; then
	ok "bt-5 -t cmdline gives the documented line (bt-4)"
else
	not_ok "bt-5 -t cmdline: '$(cat "$work/bt-5.cmdline")', documented: '$(cat "$work/bt-4.txt")'"
fi
# Its bootconfig has each of those settings once: as many keys as the
# documented words, plus the clock and the hook's opt-in.
n=$(grep -c '^[a-z]' "$work/bt-5.bootconfig")
want=$(($(words <"$work/bt-4.txt" | wc -l) + 2))
if [ "$n" -eq "$want" ]; then ok "bt-5 -t bootconfig: $n settings, each once"; else
	not_ok "bt-5 -t bootconfig: $n keys for $want settings: $(cat "$work/bt-5.bootconfig")"; fi
# The docs wrote kernel.* keys: they start early in boot and must stay so
# (an ftrace.* key starts only at core_initcall_sync).
if grep -q '^ftrace\.' "$work/bt-5.bootconfig"; then
	not_ok "bt-5 -t bootconfig moved kernel.* settings to ftrace.* keys: $(grep '^ftrace\.' "$work/bt-5.bootconfig" | tr '\n' ' ')"
else
	ok "bt-5 -t bootconfig keeps the kernel.* keys as written"
fi
# Nothing written twice in any bootconfig that compiled.
for o in "$work"/*.bootconfig; do
	[ -s "$o" ] || continue
	b=$(basename "$o" .bootconfig)
	dup=$(sed -n 's/^\([^#][^ ]*\).*/\1/p' "$o" | sort | uniq -d)
	if [ -z "$dup" ]; then ok "$b -t bootconfig: each key once"; else
		not_ok "$b -t bootconfig: keys twice: $dup"; fi
done
summary
