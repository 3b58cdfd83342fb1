#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo DEMO=script` (scripts/demo.sh -s): the second question, on a
# real system — "who creates bond0, a script or the driver?" when a systemd
# service's shell script runs `ip link add bond0 type bond` on a Debian 12
# root (bonding's max_bonds=0, so the module makes none itself). One QEMU
# boot by tests/e2e/systemd-boot.sh (the root, built by mmdebstrap, and the
# initramfs are cached by content after the first run; about 2 minutes of
# TCG for the boot), answered by `boottrace report`. Needs root (the root
# file system's owners, mkinitramfs in a private mount namespace).
#
#   scripts/demo-script.sh [-o DIR] [-q]
#   -o DIR  keep everything in DIR (default build/demo-script; emptied first)
#   -q      no text report, only the answer
# Exit 3 when no boot is possible (tool, root, kernel or network missing:
# the "SKIP: " line of systemd-boot.sh on stderr), 1 when building fails or
# the boot gives no answer. tests/e2e/systemd-root.sh runs it (-q) and
# checks what it left.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
BT=$root/build/boottrace
out=$root/build/demo-script
quiet=0
while getopts o:q opt; do
	case $opt in
	o) out=$OPTARG ;;
	q) quiet=1 ;;
	*) exit 2 ;;
	esac
done
n=0
step() {
	n=$((n + 1))
	printf '\n\033[1m[%d/4] %s\033[0m\n' "$n" "$*"
}
die() {
	echo "demo: $*" >&2
	exit "${2:-1}"
}
[ -x "$BT" ] || die "$BT is missing: run make all (make demo does)" 3
command -v jq >/dev/null || die "jq is missing: run make deps" 3
command -v debugfs >/dev/null || die "debugfs is missing: run make deps (e2fsprogs)" 3

step "Building a Debian 12 root with systemd, its initramfs, and booting it once in QEMU"
echo "  (tests/e2e/systemd-boot.sh; root and initramfs cached in ~/.cache/boottrace/sysroot after the first time)"
rc=0
sh "$root/tests/e2e/systemd-boot.sh" "$out" || rc=$?
[ "$rc" = 77 ] && die "no boot is possible here: see the SKIP line above" 3
[ "$rc" = 0 ] || die "building the boot failed (exit $rc): see the lines above"
O=$out/out/run/e2e
[ -f "$O/boot_id" ] || die "the guest left nothing: $out/serial.log"

step "The question, compiled: who calls register_netdevice, tracing left on into the root"
sed 's/^/  /' "$out/who.bconf"
echo "  -> $(sed -n 's/^cmdline=//p' "$out/env")"

step "What the guest ran: make-bond.service"
echo "  /usr/local/sbin/make-bond.sh (ExecStart of make-bond.service, WantedBy=multi-user.target):"
grep 'make-bond' "$O/journal" | sed 's/^/    /' | head -n 5
echo "  bond0: $(head -n 1 "$O/bond0")"

step "Answering with boottrace report"
# the boot record on the powered-off root disk (debugfs, no mount)
rm -rf "$out/disk-var"
mkdir -p "$out/disk-var"
debugfs -R "rdump /var/lib/boottrace $out/disk-var" "$out/root.img" >"$out/debugfs.log" 2>&1 || :
rec=
for d in "$out"/disk-var/boottrace/*/; do [ -f "$d/record.json" ] && rec=${d%/}; done
[ -n "$rec" ] || die "no boot record on the root disk (boottrace-collect.service: see $O/journal)"
input=$rec
echo "  the record boottrace-collect.service wrote: /var/lib/boottrace/${rec##*/} (read off the disk: $rec)"
"$BT" report -f json "$input" >"$out/report.json"
"$BT" report "$input" >"$out/report.txt"
[ "$quiet" = 1 ] || sed 's/^/  /' "$out/report.txt"
answer=$(jq -r '.functions[] | select(.name == "register_netdevice") | .culprits[] |
	select(.phase == "syscall" and (.chain | index("bond_newlink"))) |
	"\(.who.answer // "a system call of the task \(.task)"), \(.first) s after boot, through \(.chain | join(" → "))"' \
	"$out/report.json" | head -n 1)
[ -n "$answer" ] || die "the report names no system call that registered bond0 (bond_newlink): see $out/report.txt"
printf '\n\033[1mAnswer:\033[0m bond0 is created from userspace, not by the driver: %s.\n' "$answer"
loaded=$(jq -r '.module_loads[]? | select(.module == "bonding") | .answer' "$out/report.json" | head -n 1)
[ -z "$loaded" ] || printf '  and the module: %s\n' "$loaded"
cat <<EOF2

  config:        $out/who.bconf
  serial log:    $out/serial.log
  what it saw:   $O/  (journal, bond0, modules, ...)
  report:        $out/report.txt, $out/report.json
EOF2
