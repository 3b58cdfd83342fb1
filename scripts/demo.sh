#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo`: the whole loop on a real kernel, in one boot — "who creates
# bond0?" asked as a config, compiled into kernel parameters, booted in
# QEMU (Debian's linux-image-6.1.0-*-cloud-amd64, a busybox initramfs with
# the boottrace hook that loads bonding.ko), snapshot read off the serial
# console, answered by `boottrace report`.
#
#   scripts/demo.sh [-o DIR] [-q] [-s]
#   -o DIR  keep everything in DIR (default build/demo)
#   -q      no text report, only the answer (tests/e2e/scenarios.sh)
#   -s      the second question instead (`make demo DEMO=script`): a
#           systemd service's script makes bond0 on a real Debian 12 root
#           (scripts/demo-script.sh)
# Make runs `make deps` and `make all` first. Exit 3 when the kernel cannot
# be fetched or QEMU is missing, 1 when the boot gives no answer.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/progress.sh
. "$root/scripts/progress.sh"
BT=$root/build/boottrace
out=$root/build/demo
quiet=0
script=0
out_opt=
while getopts o:qs opt; do
	case $opt in
	o) out=$OPTARG out_opt=$OPTARG ;;
	q) quiet=1 ;;
	s) script=1 ;;
	*) exit 2 ;;
	esac
done
if [ "$script" = 1 ]; then
	set --
	[ -z "$out_opt" ] || set -- -o "$out_opt"
	[ "$quiet" = 0 ] || set -- "$@" -q
	exec sh "$root/scripts/demo-script.sh" "$@"
fi
n=0
step() {
	n=$((n + 1))
	printf '\n\033[1m[%d/6] %s\033[0m\n' "$n" "$*"
}
die() {
	echo "demo: $*" >&2
	exit "${2:-1}"
}
secs() { # START_NS -> "S.S s"
	awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f s", (b - a) / 1e9 }'
}
[ -x "$BT" ] || die "$BT is missing: run make all (make demo does)" 3
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: run make deps" 3
command -v jq >/dev/null || die "jq is missing: run make deps" 3
rm -rf "$out"
mkdir -p "$out"

step "Fetching Debian's 6.1 cloud kernel (cached in ~/.cache/boottrace/kernel after the first time)"
t0=$(date +%s%N)
KD=$(sh "$root/tests/e2e/kernel.sh") || die "no Debian 6.1 cloud kernel (apt-get update? network?)" 3
KV=$(cat "$KD/kver")
vmlinuz=$KD/root/boot/vmlinuz-$KV
echo "kernel $KV ($(secs "$t0")); bonding is a module there: $(find "$KD/root/lib/modules/$KV" -name 'bonding.ko*' | sed "s|$KD/root||")"

step "Writing the question as a config: who calls register_netdevice (who creates bond0)?"
"$BT" compile --who-calls register_netdevice -b qemu-x86_64 -k 6.1 --print-config >"$out/bond0.bconf"
cat >>"$out/bond0.bconf" <<'EOF'

# The initramfs hook: snapshot once bonding.ko is live, printed on the
# serial console (the demo reads it from there).
boottrace {
	at = modules
	snapshot = console
}
EOF
sed 's/^/  /' "$out/bond0.bconf"

step "Compiling it for this kernel and board into kernel parameters"
echo "\$ boottrace compile -b qemu-x86_64 -k 6.1 -o cmdline.txt bond0.bconf"
"$BT" compile -b qemu-x86_64 -k 6.1 -o "$out/cmdline.txt" "$out/bond0.bconf"
cl="console=ttyS0 panic=-1 rdinit=/sbin/boottrace-init $(cat "$out/cmdline.txt")"
echo "  $(cat "$out/cmdline.txt")"

step "Building a busybox initramfs with the boottrace hook and bonding.ko"
t0=$(date +%s%N)
# tests/e2e/hook/stage2 is the real init: loads the modules, waits for the
# hook's background snapshot, powers off
sh "$root/initramfs-hook/mkinitramfs.sh" -o "$out/initramfs.cpio.gz" -M "$KD/root" -V "$KV" \
	-m bonding -f "$root/tests/e2e/hook/stage2:/init"
echo "initramfs.cpio.gz: $(wc -c <"$out/initramfs.cpio.gz") bytes ($(secs "$t0"))"

step "Booting it in QEMU (TCG, no KVM needed)"
echo "  -append \"$cl\""
t0=$(date +%s%N)
progress_run -o "$out/qemu.log" -t "$out/serial.log" "  booting" \
	timeout 240 qemu-system-x86_64 -M pc -m 512 -smp 2 -display none -monitor none \
	-serial "file:$out/serial.log" -no-reboot -kernel "$vmlinuz" \
	-initrd "$out/initramfs.cpio.gz" -append "$cl" ||
	die "QEMU failed or timed out: $out/qemu.log, $out/serial.log"
boot_time=$(secs "$t0")
echo "booted, snapshot printed, powered off: $boot_time (serial log: $out/serial.log)"
echo "$boot_time" >"$out/boot-time"

step "Reading the snapshot off the serial log and answering"
sh "$root/tests/e2e/hook/console-rebuild.sh" "$out/serial.log" "$out/snapshot" >/dev/null ||
	die "no complete snapshot in $out/serial.log"
snap=$(find "$out/snapshot" -mindepth 1 -maxdepth 1 -type d | head -n 1)
"$BT" report -f json "$out/serial.log" >"$out/report.json"
"$BT" report "$out/serial.log" >"$out/report.txt"
# the same answer as one page for a browser (no network), next to the text
"$BT" report -f html "$out/serial.log" >"$out/report.html"
[ "$quiet" = 1 ] || sed 's/^/  /' "$out/report.txt"

answer=$(jq -r '.functions[] | select(.name == "register_netdevice") | .culprits[] |
	select(.chain | index("bond_create")) |
	"\(.chain | join(" → ")), run by the task \(.task) (phase \(.phase)), \(.first)"' \
	"$out/report.json" | head -n 1)
[ -n "$answer" ] || die "the report names no caller of register_netdevice via bond_create: see $out/report.txt"
printf '\n\033[1mAnswer:\033[0m bond0 is created by %s s after boot — in this one boot.\n' "$answer"
cat <<EOF

  config:        $out/bond0.bconf
  command line:  $out/cmdline.txt
  snapshot:      $snap/  (trace, meta, cmdline, modules, dmesg, ...)
  report:        $out/report.txt, $out/report.json
  picture:       $out/report.html  (open it in a browser: answer, time axis, callers)
  again:         build/boottrace report $out/serial.log
EOF
