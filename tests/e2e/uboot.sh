#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The U-Boot targets in real U-Boot: Debian's u-boot-qemu (qemu_arm64) in
# qemu-system-aarch64 boots a FAT disk whose /boot.scr (written here with
# mkimage: the harness) loads and sources the images `boottrace compile
# -t uboot-scr` made, imports the environment images of -t uboot-envimage
# and of fw_setenv --script fed with -t uboot-env, and prints bootargs
# after each. Every printed value must equal `compile -t cmdline` of the
# same config merged into the same base line byte for byte (root= and
# console= of the base kept, its stale tracing word replaced), and
# --keep-bootargs must keep an old bootargs full of hush syntax as it
# was. One boot, a few seconds.
# Last line: "uboot: N passed, N failed". Exit 77 (loud SKIP) only when
# QEMU or U-Boot is not installed (make deps installs them).
set -u
cd "$(dirname "$0")/../.." || exit 3
BT=${BT:-$PWD/build/boottrace}
UBOOT=/usr/lib/u-boot/qemu_arm64/u-boot.bin
BOARD=qemu-arm64-uboot
ENVSIZE=0x40000		# board/qemu-arm64-uboot.bconf uboot.env.size
PASS=0
FAIL=0

for tool in qemu-system-aarch64 mkimage mkenvimage mkfs.vfat mcopy fw_setenv fw_printenv; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: $tool is not installed (make deps) — the U-Boot test did NOT run"
		echo "uboot: 0 passed, 0 failed"
		exit 77
	fi
done
if [ ! -r "$UBOOT" ]; then
	echo "SKIP: $UBOOT missing (Debian package u-boot-qemu) — the U-Boot test did NOT run"
	echo "uboot: 0 passed, 0 failed"
	exit 77
fi
[ -x "$BT" ] || { echo "uboot: $BT not built"; echo "uboot: 0 passed, 1 failed"; exit 1; }

T=$(mktemp -d /tmp/bt-uboot-e2e.XXXXXX) || exit 3
# shellcheck source=tests/e2e/uboot-run.sh
. "$PWD/tests/e2e/uboot-run.sh"
QPID=
cleanup() { [ -n "$QPID" ] && kill "$QPID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

ok() { PASS=$((PASS + 1)); echo "ok   $1"; }
bad() { FAIL=$((FAIL + 1)); echo "FAIL $1"; shift; for l in "$@"; do printf '     %s\n' "$l"; done; }

# ---- configs -------------------------------------------------------------
cat >"$T/plain.bconf" <<'EOF'
kernel {
	ftrace = function
	ftrace_filter = "register_netdevice"
	trace_options = func_stack_trace
}
EOF
# A quoted value with spaces, and every byte hush treats specially.
cat >"$T/quoted.bconf" <<'EOF'
kernel {
	ftrace = function
	ftrace_filter = "register_netdevice"
	kprobe_event = "p:bt/rnd,register_netdevice"
	trace_event = "bt:rnd"
	foo = "a b $x ${y} ;c #d"
	bar = "it's"
	baz = 'say="hi"'
	back = "a\b\\c"
}
EOF
# The bond0 question for this board, as `make demo` asks it (S5 of
# tests/e2e/scenarios.sh), with the hook's settings.
"$BT" compile --who-calls register_netdevice -b "$BOARD" -k 6.1 --print-config >"$T/question.bconf"
printf 'boottrace.snapshot = console\nboottrace.at = modules\n' >>"$T/question.bconf"
# The board's line that every form merges into (--base), with a stale
# tracing word of an earlier run.
BASE='console=ttyAMA0 root=/dev/vda2 ftrace=nop rootwait'
# The old bootargs for --keep-bootargs as the harness sets it in hush
# ('\'' and \\ inside '...'), and as U-Boot then holds it: a variable,
# a ';' and quotes that must stay text.
q="'"
KEEP_SET="console=ttyAMA0 root=/dev/vda2 old=\"x y\" v=\${x} s=a;echo INJECTED it$q\\$q${q}s b\\\\s"
KEEP_OLD='console=ttyAMA0 root=/dev/vda2 old="x y" v=${x} s=a;echo INJECTED it'"'"'s b\s'

compile() { # name target config [args...]
	name=$1 target=$2 conf=$3
	shift 3
	"$BT" compile -t "$target" -b "$BOARD" "$@" "$conf" 2>"$T/$name.err"
}

for c in plain quoted question; do
	if ! compile "$c.cmdline" cmdline "$T/$c.bconf" --base "$BASE" >"$T/$c.cmdline"; then
		bad "compile -t cmdline $c" "$(cat "$T/$c.cmdline.err")"
		continue
	fi
	compile "$c.words" cmdline "$T/$c.bconf" >"$T/$c.words" ||
		bad "compile -t cmdline $c (no base)" "$(cat "$T/$c.words.err")"
	compile "$c.scr" uboot-scr "$T/$c.bconf" --base "$BASE" -o "$T/$c.scr" ||
		bad "compile -t uboot-scr $c" "$(cat "$T/$c.scr.err")"
	compile "$c.env" uboot-envimage "$T/$c.bconf" --base "bootargs=$BASE" -o "$T/$c.env" ||
		bad "compile -t uboot-envimage $c" "$(cat "$T/$c.env.err")"
	# -t uboot-env through the real fw_setenv into an empty env image.
	if ! { mkenvimage -s $ENVSIZE -o "$T/$c.fw" /dev/null &&
		echo "$T/$c.fw 0x0 $ENVSIZE" >"$T/$c.fwcfg" &&
		printf '%s\n' "$BASE" >"$T/base.txt" &&
		compile "$c.fwscript" uboot-env "$T/$c.bconf" --base-file "$T/base.txt" -o "$T/$c.fwscript" &&
		fw_setenv -c "$T/$c.fwcfg" --script "$T/$c.fwscript"; }; then
		bad "compile -t uboot-env + fw_setenv --script $c" "$(cat "$T/$c.fwscript.err" 2>/dev/null)"
	fi
done
# The merged line keeps the board's words and drops the stale one.
for c in plain quoted question; do
	case " $(cat "$T/$c.cmdline") " in
	" console=ttyAMA0 root=/dev/vda2 "*" rootwait "*) case " $(cat "$T/$c.cmdline") " in
		*" ftrace=nop "*) bad "the merged $c line drops the stale ftrace=nop" "$(cat "$T/$c.cmdline")" ;;
		*) ok "the merged $c line keeps console=, root=, rootwait and drops ftrace=nop" ;;
		esac ;;
	*) bad "the merged $c line keeps console=, root=, rootwait" "$(cat "$T/$c.cmdline")" ;;
	esac
done
# Without a base the U-Boot forms refuse (usage, exit 2): they would
# write a bootargs without root= and console=.
for target in uboot-script uboot-env; do
	if compile nobase.$target $target "$T/plain.bconf" >/dev/null; then
		bad "-t $target without a base is refused" "it was accepted"
	elif [ $? = 2 ] && grep -q 'give --base' "$T/nobase.$target.err"; then
		ok "-t $target without a base is refused, saying what to give"
	else bad "-t $target without a base is refused" "$(cat "$T/nobase.$target.err")"; fi
done
if compile keep.scr uboot-scr "$T/quoted.bconf" --keep-bootargs -o "$T/keep.scr" &&
	grep -q 'warning: --keep-bootargs' "$T/keep.scr.err"; then
	ok "uboot-scr --keep-bootargs warns that the old bootargs adds to the limits"
else
	bad "uboot-scr --keep-bootargs" "$(cat "$T/keep.scr.err")"
fi

# Host-side: what fw_printenv reads back from fw_setenv's image (U-Boot
# unescapes a doubled backslash when it imports the environment).
for c in plain quoted; do
	want="bootargs=$(sed 's/\\/\\\\/g' "$T/$c.cmdline")"
	got=$(fw_printenv -c "$T/$c.fwcfg" bootargs 2>&1)
	if [ "$got" = "$want" ]; then ok "fw_printenv after fw_setenv --script ($c)"
	else bad "fw_printenv after fw_setenv --script ($c)" "want: $want" "got:  $got"; fi
done

# Refusals, with the numbers: a line over CONFIG_SYS_CBSIZE (512).
long=$(i=0; while [ $i -lt 60 ]; do printf 'func_%03d,' $i; i=$((i + 1)); done)
printf 'kernel.ftrace = function\nkernel.ftrace_filter = "%s"\n' "${long%,}" >"$T/long.bconf"
if compile long uboot-script "$T/long.bconf" --base "$BASE" >/dev/null; then
	bad "a 600-byte line is refused for CONFIG_SYS_CBSIZE 512" "it was accepted"
elif [ $? = 1 ] && grep -q 'CONFIG_SYS_CBSIZE 512' "$T/long.err"; then
	ok "a 600-byte line is refused for CONFIG_SYS_CBSIZE 512"
else
	bad "a 600-byte line is refused for CONFIG_SYS_CBSIZE 512" "$(cat "$T/long.err")"
fi
if compile keepenv uboot-env "$T/plain.bconf" --keep-bootargs >/dev/null; then
	bad "uboot-env refuses --keep-bootargs" "it was accepted"
else ok "uboot-env refuses --keep-bootargs"; fi

# ---- the U-Boot run --------------------------------------------------------
cat >"$T/boot.cmd" <<EOF
echo BT-BEGIN
setenv bootargs
load virtio 0:1 \${scriptaddr} plain.scr && source \${scriptaddr}
echo BT-CASE scr-plain; printenv bootargs
setenv bootargs
load virtio 0:1 \${scriptaddr} quoted.scr && source \${scriptaddr}
echo BT-CASE scr-quoted; printenv bootargs
setenv bootargs
load virtio 0:1 \${scriptaddr} question.scr && source \${scriptaddr}
echo BT-CASE scr-question; printenv bootargs
setenv bootargs '$KEEP_SET'
load virtio 0:1 \${scriptaddr} keep.scr && source \${scriptaddr}
echo BT-CASE scr-keep; printenv bootargs
setenv bootargs
load virtio 0:1 \${scriptaddr} keep.scr && source \${scriptaddr}
echo BT-CASE scr-keep-unset; printenv bootargs
setenv bootargs
load virtio 0:1 \${loadaddr} plain.env && env import -c \${loadaddr} \${filesize}
echo BT-CASE envimage-plain; printenv bootargs
setenv bootargs
load virtio 0:1 \${loadaddr} quoted.env && env import -c \${loadaddr} \${filesize}
echo BT-CASE envimage-quoted; printenv bootargs
setenv bootargs
load virtio 0:1 \${loadaddr} quoted.fw && env import -c \${loadaddr} \${filesize}
echo BT-CASE fwsetenv-quoted; printenv bootargs
echo BT-END
poweroff
EOF
mkimage -A arm64 -O linux -T script -C none -d "$T/boot.cmd" "$T/boot.scr" >/dev/null ||
	bad "mkimage of the harness script"

files=
for f in boot.scr plain.scr quoted.scr question.scr keep.scr plain.env quoted.env quoted.fw; do
	[ -f "$T/$f" ] && files="$files $T/$f"
done
# shellcheck disable=SC2086 # $T has no spaces (mktemp)
sh tests/e2e/uboot-disk.sh "$T/disk.img" 9 $files || bad "the FAT disk for U-Boot"

uboot_run "$UBOOT" "$T/disk.img" "$T/serial.txt"
if grep -q '^BT-END' "$T/serial.txt"; then ok "U-Boot ran the script to the end"
else bad "U-Boot ran the script to the end" "$(tail -5 "$T/serial.txt")"; fi

# The line printenv printed right after "BT-CASE NAME".
printed() { sed -n "/^BT-CASE $1\$/{n;p;q}" "$T/serial.txt"; }
check() { # case expected-value
	got=$(printed "$1")
	if [ "$got" = "bootargs=$2" ]; then ok "U-Boot $1"
	else bad "U-Boot $1" "want: bootargs=$2" "got:  $got"; fi
}
check scr-plain "$(cat "$T/plain.cmdline")"
check scr-quoted "$(cat "$T/quoted.cmdline")"
check scr-question "$(cat "$T/question.cmdline")"
check scr-keep "$KEEP_OLD $(cat "$T/quoted.words")"
check scr-keep-unset "$(cat "$T/quoted.words")"
if grep -q '^INJECTED' "$T/serial.txt"; then
	bad "the old bootargs stays text under --keep-bootargs" "$(grep '^INJECTED' "$T/serial.txt" | head -1)"
else ok "the old bootargs stays text under --keep-bootargs (no command run from it)"; fi
check envimage-plain "$(cat "$T/plain.cmdline")"
check envimage-quoted "$(cat "$T/quoted.cmdline")"
check fwsetenv-quoted "$(cat "$T/quoted.cmdline")"
if grep -qi 'syntax error\|## Error\|Bad data CRC' "$T/serial.txt"; then
	bad "no U-Boot error" "$(grep -i 'syntax error\|## Error\|Bad data CRC' "$T/serial.txt" | head -3)"
else ok "no U-Boot error"; fi

echo "uboot: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
