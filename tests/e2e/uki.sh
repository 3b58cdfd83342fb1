#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# -t uki (and -t kernel-install, the same file) through the real tool that
# reads it: Debian 12's kernel-install (systemd 252) and its plugins
# (/usr/lib/kernel/install.d: 50-depmod, 85-initrd, 90-loaderentry), run in
# a private mount namespace with a scratch tmpfs on /boot (the
# boot root: BOOT_ROOT=/boot, layout=bls in install.conf) and one on
# /etc/kernel holding the /etc/kernel/cmdline `compile -t uki` wrote; the
# host's /boot and /etc/kernel are not touched (checked). `kernel-install
# add VERSION KERNEL` with a dummy kernel file writes a Boot Loader
# Specification entry; its options line must be our line byte for byte
# (entry token "boottrace"), or our line and the " systemd.machine_id=ID"
# kernel-install appends when entries are named after the machine ID (the
# 52 bytes -t uki counts in the kernel's limit: a line of exactly the limit
# is written, one byte more refused). systemd-boot's bootctl lists the entry
# with our options. Why -t uki refuses what it refuses, shown with lines
# written by hand: dash's echo in 90-loaderentry ends the options at "\c",
# and it squeezes spaces inside quotes. No ukify in Debian 12:
# the addon route is not built, so not tested.
# Needs root (unshare -m). Last line: "uki: N passed, N failed". Exit 77
# (loud SKIP) when a tool is missing (make deps installs them).
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
# shellcheck disable=SC2034 # read by tap.sh
SUITE=uki
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
BT=${BT:-$top/build/boottrace}
export BOOTTRACE_BOARD_DIR="$top/board"

for tool in kernel-install bootctl unshare jq; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is not installed (make deps: scripts/debian-packages.txt)"
done
[ "$(id -u)" = 0 ] || skip "not root: kernel-install runs in a private mount namespace"
[ -x "$BT" ] || { nok "$BT missing (make all)"; finish; }
[ -d /etc/kernel ] || { nok "no /etc/kernel to mount the scratch one over (systemd)"; finish; }

W=$(mktemp -d "${TMPDIR:-/tmp}/bt-uki.XXXXXX")
# shellcheck disable=SC2317
cleanup() { rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# eq NAME WANT GOT (an empty line is never a pass)
eq() {
	if [ -n "$3" ] && [ "$2" = "$3" ]; then ok "$1"; else
		nok "$1"
		printf '#   want: %s\n#   got:  %s\n' "$2" "$3"
	fi
}

# shellcheck disable=SC2012 # a fingerprint of the listing, names not parsed
host_state() { ls -la --time-style=full-iso /boot /etc/kernel 2>&1 | md5sum; }
HOST=$(host_state)

KV=6.1.0-99-amd64
MID=0123456789abcdef0123456789abcdef
printf 'not a kernel\n' >"$W/vmlinuz-$KV"

# ki NAME CMDLINE-FILE [TOKEN]: the real kernel-install add with CMDLINE-FILE
# as /etc/kernel/cmdline and entry token TOKEN (none: the machine ID $MID,
# kernel-install's default), the entry it wrote into $W/NAME.entry, bootctl's
# options of it into $W/NAME.bootctl; its log in $W/NAME.log.
ki() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	MACHINE_ID=$MID unshare -m sh -c '
		set -e
		mount -t tmpfs tmpfs /boot
		mount -t tmpfs tmpfs /etc/kernel
		cp "$2" /etc/kernel/cmdline
		printf "layout=bls\nBOOT_ROOT=/boot\n" >/etc/kernel/install.conf
		[ -z "$3" ] || echo "$3" >/etc/kernel/entry-token
		kernel-install add "$4" "$1/vmlinuz-$4"
		n=$(ls /boot/loader/entries | wc -l)
		[ "$n" = 1 ] || { echo "$n entries"; exit 1; }
		cp /boot/loader/entries/*.conf "$1/$5.entry"
		SYSTEMD_RELAX_ESP_CHECKS=1 bootctl --esp-path=/boot --no-pager --json=short list >"$1/$5.json"
	' sh "$W" "$2" "${3:-}" "$KV" "$1" >"$W/$1.log" 2>&1 || nok "$1: kernel-install: $(tail -3 "$W/$1.log")"
	jq -r 'if type == "array" then .[0].options else .options end' "$W/$1.json" >"$W/$1.bootctl" 2>/dev/null
}
# the entry's options value, as a file (the key and its padding cut)
options_of() { sed -n 's/^options  *//p' "$W/$1.entry" >"$W/$1.options" 2>/dev/null; }
size() { if [ -f "$1" ]; then wc -c <"$1"; else echo -1; fi; } # FILE: bytes

printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, bond_create\nftrace.options = func_stack_trace\n' >"$W/a.bconf"
printf 'ftrace.tracer = function_graph\n' >"$W/b.bconf"
A="ftrace=function ftrace_filter=register_netdevice,bond_create trace_options=func_stack_trace trace_clock=global boottrace.enable=1"

# ---- compile -t uki -> kernel-install -> the entry's options -----------------
printf 'root=UUID=abcd ro quiet ftrace=nop foo="a b" -- single\n' >"$W/cmdline"
if "$BT" compile -t uki --base-file "$W/cmdline" -o "$W/cmdline.a" "$W/a.bconf" 2>"$W/err"; then
	ok "compile -t uki"
else nok "compile -t uki: $(cat "$W/err")"; fi
eq "compile -t uki: the words merged, the base's kept in order, new ones before --" \
	"root=UUID=abcd ro quiet ftrace=function foo=\"a b\" ${A#ftrace=function } -- single" "$(cat "$W/cmdline.a")"
t "the file is one line" [ "$(wc -l <"$W/cmdline.a")" = 1 ]
ki tok "$W/cmdline.a" boottrace
options_of tok
t "kernel-install's entry options are our line byte for byte (entry token boottrace)" cmp "$W/cmdline.a" "$W/tok.options"
eq "bootctl lists the entry with our options" "$(cat "$W/cmdline.a")" "$(cat "$W/tok.bootctl")"
t "the entry's other lines are kernel-install's (version, linux)" \
	sh -c "grep -qx 'version    $KV' '$W/tok.entry' && grep -qx 'linux      /boottrace/$KV/linux' '$W/tok.entry'"

ki mid "$W/cmdline.a"
options_of mid
eq "entries named after the machine ID: our line and kernel-install's systemd.machine_id= word" \
	"$(cat "$W/cmdline.a") systemd.machine_id=$MID" "$(cat "$W/mid.options")"
t "that word is the 52 bytes -t uki counts" \
	[ "$(($(size "$W/mid.options") - $(size "$W/cmdline.a")))" = 52 ]

# ---- merging again -----------------------------------------------------------
"$BT" compile -t uki --base-file "$W/cmdline.a" -o "$W/cmdline.a2" "$W/a.bconf" 2>"$W/err" ||
	nok "compile -t uki on its own output: $(cat "$W/err")"
t "the same config again changes not a byte" cmp "$W/cmdline.a" "$W/cmdline.a2"
"$BT" compile -t uki --base-file "$W/cmdline.a" -o "$W/cmdline.b" "$W/b.bconf" 2>"$W/err" ||
	nok "compile -t uki (config b): $(cat "$W/err")"
eq "config b's words replace a's in place, the rest kept" \
	"root=UUID=abcd ro quiet ftrace=function_graph foo=\"a b\" trace_clock=global boottrace.enable=1 -- single" "$(cat "$W/cmdline.b")"
ki b "$W/cmdline.b" boottrace
options_of b
t "kernel-install takes config b's line byte for byte" cmp "$W/cmdline.b" "$W/b.options"

# ---- the kernel's limit, with kernel-install's machine-id word --------------
# qemu-x86_64: COMMAND_LINE_SIZE 2048, so 2047 bytes of line with the 52
pad() { printf 'p=%s' "$(head -c "$(($1 - 2))" /dev/zero | tr '\0' x)"; }
printf 'root=/dev/vda1 %s\n' "$(pad $((2047 - 52 - 15 - ${#A} - 1)))" >"$W/long"
if "$BT" compile -t uki -b qemu-x86_64 --base-file "$W/long" -o "$W/cmdline.long" "$W/a.bconf" 2>"$W/err"; then
	ok "compile -t uki: a line of 1995 bytes, 2047 with the machine-id word, is written"
else nok "compile -t uki at the limit: $(cat "$W/err")"; fi
ki long "$W/cmdline.long"
options_of long
t "kernel-install's options of it are 2047 bytes, the most the kernel keeps" [ "$(size "$W/long.options")" = 2048 ]
printf 'root=/dev/vda1 %s\n' "$(pad $((2047 - 52 - 15 - ${#A})))" >"$W/long1"
"$BT" compile -t uki -b qemu-x86_64 --base-file "$W/long1" "$W/a.bconf" >"$W/out" 2>"$W/err"
t "one byte more is refused (exit 1)" [ $? = 1 ]
t "and the error names the line, its 2048 bytes and systemd.machine_id" \
	grep -q 'the /etc/kernel/cmdline line with the 52 bytes of " systemd.machine_id=ID".* is 2048 bytes, but the .*kernel keeps at most 2047' "$W/err"
t "nothing on standard output" [ ! -s "$W/out" ]

# ---- what -t uki refuses, and why -----------------------------------------------
printf 'root=/dev/vda1 ro a=b\\cdef quiet\n' >"$W/bs"
ki bs "$W/bs" boottrace
eq "by hand, a backslash in /etc/kernel/cmdline: dash's echo in 90-loaderentry ends the options at backslash-c" \
	"options    root=/dev/vda1 ro a=blinux      /boottrace/$KV/linux" "$(grep '^options' "$W/bs.entry")"
printf 'kernel.a = "b\\\\cdef"\n' >"$W/bs.bconf"
"$BT" compile -t uki --base-file "$W/cmdline" "$W/bs.bconf" >"$W/out" 2>"$W/err"
t "compile -t uki refuses a word with '\\' (exit 1)" [ $? = 1 ]
t "at the setting's place, saying why" \
	grep -q "bs.bconf:1:.*-t uki cannot carry the word .*/bin/sh's echo, which takes '\\\\' as an escape" "$W/err"

# systemd-boot's own parser (EFI, line_get_key_value) drops a '"' at both
# ends of a value, as for -t bls; bootctl's does not, so it is not shown here
printf '"x=1 y" root=/dev/vda1 -- "z"\n' >"$W/q"
"$BT" compile -t uki --base-file "$W/q" "$W/a.bconf" >"$W/out" 2>"$W/err"
t "compile -t uki refuses a line that would begin and end with '\"' (exit 1)" [ $? = 1 ]
t "saying why" grep -q 'systemd-boot removes those two as quotes' "$W/err"

printf 'root=/dev/vda1 x="a  b"\n' >"$W/ws"
ki ws "$W/ws" boottrace
eq "kernel-install makes one space of two, inside quotes too (what -t uki refuses in a word)" \
	'root=/dev/vda1 x="a b"' "$(cat "$W/ws.bootctl")"

eq "the host's /boot and /etc/kernel are untouched" "$HOST" "$(host_state)"
finish
