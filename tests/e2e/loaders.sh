#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The loader-file targets through the real tools that read them:
#  - u-boot-menu: `compile -t u-boot-menu` of an /etc/default/u-boot, then
#    Debian's own u-boot-update (u-boot-menu) run in a private mount
#    namespace (a scratch tmpfs on /boot, the file bind-mounted on
#    /etc/default/u-boot, a scratch /etc/fstab; the host's files are not
#    touched) writes extlinux.conf: its append lines carry our words;
#  - extlinux: `compile -t extlinux` on that very extlinux.conf with
#    another config changes only the default label's append line, and with
#    the first config changes nothing;
#  - U-Boot: Debian's qemu_arm64 U-Boot (u-boot-qemu) runs `sysboot` on
#    both files on a FAT disk and prints the bootargs it made of each
#    label ("append: ..."): they must equal our lines byte for byte (a dummy
#    kernel, so the boot stops there; one U-Boot run, no Linux); a third
#    file shows what U-Boot does to ', \ and ${VAR} in an append line, and
#    that a label's last append counts (docs/kernel-facts.md 72);
#  - bls: `compile -t bls` of an entry with two options lines, read back by
#    systemd-boot's bootctl (systemd-boot) from a scratch ESP
#    (SYSTEMD_RELAX_ESP_CHECKS=1, a bind mount makes it a mount point):
#    bootctl joins the base's options as we do, and lists ours as written.
# Needs root (unshare -m). Last line: "loaders: N passed, N failed". Exit
# 77 (loud SKIP) when a tool is missing (make deps installs them).
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
# shellcheck disable=SC2034 # read by tap.sh
SUITE=loaders
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
BT=${BT:-$top/build/boottrace}
UBOOT=/usr/lib/u-boot/qemu_arm64/u-boot.bin
export BOOTTRACE_BOARD_DIR="$top/board"

for tool in u-boot-update bootctl unshare qemu-system-aarch64 mkimage mkfs.vfat mcopy jq; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is not installed (make deps: scripts/debian-packages.txt)"
done
[ -r "$UBOOT" ] || skip "$UBOOT is missing (u-boot-qemu)"
[ "$(id -u)" = 0 ] || skip "not root: the real tools run in a private mount namespace"
[ -x "$BT" ] || { nok "$BT missing (make all)"; finish; }

W=$(mktemp -d "${TMPDIR:-/tmp}/bt-loaders.XXXXXX")
# shellcheck source=tests/e2e/uboot-run.sh
. "$top/tests/e2e/uboot-run.sh"
QPID=
# shellcheck disable=SC2317
cleanup() { [ -z "$QPID" ] || kill "$QPID" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# eq NAME WANT GOT (an empty line is never a pass)
eq() {
	if [ -n "$3" ] && [ "$2" = "$3" ]; then ok "$1"; else
		nok "$1"
		printf '#   want: %s\n#   got:  %s\n' "$2" "$3"
	fi
}

printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, bond_create\nftrace.options = func_stack_trace\n' >"$W/a.bconf"
printf 'ftrace.tracer = function_graph\n' >"$W/b.bconf"
# the words each config adds to a line (no -b: trace_clock=global added)
A="ftrace=function ftrace_filter=register_netdevice,bond_create trace_options=func_stack_trace trace_clock=global boottrace.enable=1"
KV=6.1.0-99-arm64

# ---- u-boot-menu -> u-boot-update -------------------------------------------
cat >"$W/u-boot" <<'EOF'
## /etc/default/u-boot - configuration file for u-boot-update(8)
U_BOOT_PROMPT="0"
U_BOOT_TIMEOUT="10"
U_BOOT_MENU_LABEL="boottrace test"
U_BOOT_ROOT="root=/dev/vda2"
U_BOOT_PARAMETERS="console=ttyAMA0 ro quiet ftrace=nop foo=\"a b\""
EOF
if "$BT" compile -t u-boot-menu --base-file "$W/u-boot" -o "$W/u-boot.new" "$W/a.bconf" 2>"$W/err"; then
	ok "compile -t u-boot-menu"
else nok "compile -t u-boot-menu: $(cat "$W/err")"; fi
PARAMS="console=ttyAMA0 ro quiet ftrace=function foo=\"a b\" ${A#ftrace=function }"
eq "sh reads U_BOOT_PARAMETERS back as the merged line" "$PARAMS" \
	"$(sh -c '. "$1"; printf %s "$U_BOOT_PARAMETERS"' sh "$W/u-boot.new")"

mkdir -p "$W/boot"
printf 'not a kernel\n' >"$W/vmlinuz-$KV"
printf '/dev/vda2 / ext4 defaults 0 1\n' >"$W/fstab"
mkdir -p "$W/empty"
# shellcheck disable=SC2016 # expanded by the inner sh
unshare -m sh -c '
	set -e
	mount -t tmpfs tmpfs /boot
	cp "$1/vmlinuz-'"$KV"'" /boot/
	[ -e /etc/default/u-boot ] || { echo "no /etc/default/u-boot to bind over"; exit 1; }
	mount --bind "$1/u-boot.new" /etc/default/u-boot
	mount --bind "$1/fstab" /etc/fstab
	for d in /etc/u-boot-menu /usr/share/u-boot-menu; do
		[ ! -d $d ] || mount --bind "$1/empty" $d
	done
	u-boot-update
	cp /boot/extlinux/extlinux.conf "$1/ub.conf"
' sh "$W" >"$W/ub.log" 2>&1
if [ -s "$W/ub.conf" ]; then ok "u-boot-update wrote extlinux.conf from our /etc/default/u-boot"
else nok "u-boot-update wrote extlinux.conf: $(tail -3 "$W/ub.log")"; fi
eq "u-boot-update's default label appends our words" "	append root=/dev/vda2 $PARAMS" \
	"$(grep -m1 '^	append' "$W/ub.conf")"
eq "its rescue label too (u-boot-update drops quiet, adds single)" \
	"	append root=/dev/vda2 $(echo "$PARAMS" | sed 's| quiet||') single" \
	"$(grep '^	append' "$W/ub.conf" | sed -n 2p)"

# ---- extlinux on the real extlinux.conf -------------------------------------
"$BT" compile -t extlinux --base-file "$W/ub.conf" -o "$W/same.conf" "$W/a.bconf" 2>"$W/err" ||
	nok "compile -t extlinux (config a): $(cat "$W/err")"
t "extlinux: the same config again changes not a byte" cmp "$W/ub.conf" "$W/same.conf"
if "$BT" compile -t extlinux --base-file "$W/ub.conf" -o "$W/b.conf" "$W/b.bconf" 2>"$W/err"; then
	ok "compile -t extlinux (config b)"
else nok "compile -t extlinux (config b): $(cat "$W/err")"; fi
B_LINE=$(grep -m1 '^	append' "$W/b.conf")
# config a's words out (stale: not in plan b), b's in place; root=, console= and foo= of the base kept
eq "extlinux: config b's words replace a's in place, the rest kept" \
	"	append root=/dev/vda2 console=ttyAMA0 ro quiet ftrace=function_graph foo=\"a b\" trace_clock=global boottrace.enable=1" "$B_LINE"
t "extlinux: every line but the default label's append byte for byte" \
	sh -c "diff '$W/ub.conf' '$W/b.conf' | grep -c '^[<>]' | grep -qx 2"

# ---- U-Boot reads both files ------------------------------------------------
cat >"$W/boot.cmd" <<'EOF'
echo BT-BEGIN
echo BT-CASE ub
sysboot virtio 0:1 any ${scriptaddr} ub.conf
echo BT-CASE b
sysboot virtio 0:1 any ${scriptaddr} b.conf
echo BT-CASE q
sysboot virtio 0:1 any ${scriptaddr} q.conf
echo BT-END
poweroff
EOF
# why -t extlinux refuses ' \ ${ $( in a word: what U-Boot makes of them;
# and of two append lines, the last counts
cat >"$W/q.conf" <<EOF
label q
	linux /vmlinuz-$KV
	append first=1
	append a='b c' d=\\e f=\${bt_unset}g
EOF
mkimage -A arm64 -O linux -T script -C none -d "$W/boot.cmd" "$W/boot.scr" >/dev/null ||
	nok "mkimage of the harness script"
if sh tests/e2e/uboot-disk.sh "$W/disk.img" 9 "$W/boot.scr" "$W/ub.conf" "$W/b.conf" "$W/q.conf" "$W/vmlinuz-$KV" >/dev/null 2>&1; then :
else nok "the FAT disk for U-Boot"; fi
uboot_run "$UBOOT" "$W/disk.img" "$W/serial.txt"
t "U-Boot ran sysboot on every file to the end" grep -q '^BT-END' "$W/serial.txt"
# the "append: " lines U-Boot printed after "BT-CASE NAME" (default label first)
appended() { sed -n "/^BT-CASE $1\$/,/^BT-\(CASE\|END\)/p" "$W/serial.txt" | sed -n 's/^append: //p' | sed -n "${2}p"; }
eq "U-Boot's bootargs from u-boot-update's file: our line" "root=/dev/vda2 $PARAMS" "$(appended ub 1)"
eq "U-Boot's bootargs from -t extlinux's file: our line" "${B_LINE#	append }" "$(appended b 1)"
eq "U-Boot takes a label's last append, drops ', removes \\ and expands \${VAR} (the words -t extlinux refuses)" \
	"a=b c d=e f=g" "$(appended q 1)"

# ---- bls -> bootctl ----------------------------------------------------------
MID=0123456789abcdef0123456789abcdef
mkdir -p "$W/esp/loader/entries" "$W/esp/$MID/6.1.0-18-amd64"
: >"$W/esp/$MID/6.1.0-18-amd64/linux"
cat >"$W/entry.conf" <<EOF
# Boot Loader Specification type#1 entry
title      Debian GNU/Linux 12
version    6.1.0-18-amd64
machine-id $MID
options    root=UUID=abcd ro
linux      /$MID/6.1.0-18-amd64/linux
options    quiet ftrace=nop
EOF
bootctl_options() { # ENTRY-FILE: the options bootctl reads from it
	cp "$1" "$W/esp/loader/entries/$MID-test.conf"
	# shellcheck disable=SC2016
	unshare -m sh -c 'mount --bind "$1" "$1" && SYSTEMD_RELAX_ESP_CHECKS=1 bootctl --esp-path="$1" --no-pager --json=short list' sh "$W/esp" 2>"$W/bootctl.err" |
		jq -r 'if type == "array" then .[0].options else .options end'
}
eq "bootctl joins the base's two options lines" "root=UUID=abcd ro quiet ftrace=nop" "$(bootctl_options "$W/entry.conf")"
if "$BT" compile -t bls --base-file "$W/entry.conf" -o "$W/entry.new" "$W/a.bconf" 2>"$W/err"; then
	ok "compile -t bls"
else nok "compile -t bls: $(cat "$W/err")"; fi
eq "bootctl reads our options back" "root=UUID=abcd ro quiet $A" "$(bootctl_options "$W/entry.new")"
grep -v '^options' "$W/entry.conf" >"$W/entry.rest"
grep -v '^options' "$W/entry.new" >"$W/entry.new.rest"
t "bls: one options line left" [ "$(grep -c '^options' "$W/entry.new")" = 1 ]
t "bls: every other line kept" cmp "$W/entry.rest" "$W/entry.new.rest"

finish
