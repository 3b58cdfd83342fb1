#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end scenario of issue 16 on a real system: "who creates bond0, a
# script or the driver?" when the answer is userspace after the initramfs.
# The `make demo DEMO=script` script (scripts/demo-script.sh -q) runs it:
# tests/e2e/systemd-boot.sh builds and boots it once (a real Debian 12 root
# with systemd, the Debian 6.1 cloud kernel, bonding max_bonds=0, and
# make-bond.service whose #!/bin/sh script runs `ip link add bond0 type
# bond`; see there) and the demo answers. This test checks what the guest
# left: multi-user reached, bond0 made by the service, the boot record that
# boottrace-collect.service wrote, `boottrace report` naming
# register_netdevice called from the syscall path of the task `ip`, and the
# demo's answer.
# The last line is "systemd-root: N passed, N failed"; timings and cache
# hits are printed as "#" lines, the report as "#   report:" lines. Exit 77
# (with a SKIP line) only when no boot is possible: a tool missing, not
# root, no kernel or root to be had.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
W=$top/build/e2e-sysroot
SUITE=systemd-root
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
T0=$(date +%s%N)

if command -v shellcheck >/dev/null 2>&1; then
	t "shellcheck -s sh: this test, systemd-boot.sh, debian-root.sh, demo-script.sh" \
		shellcheck -x -s sh tests/e2e/systemd-root.sh tests/e2e/systemd-boot.sh \
		tests/e2e/debian-root.sh tests/e2e/tap.sh scripts/demo-script.sh
else
	nok "shellcheck is not installed (make deps)"
fi
for tool in qemu-system-x86_64 mkinitramfs unshare mke2fs mmdebstrap tar jq; do
	command -v $tool >/dev/null 2>&1 ||
		skip "$tool is not installed (make deps: scripts/debian-packages.txt)"
done
[ "$(id -u)" = 0 ] || skip "not root: mkinitramfs runs in a private mount namespace, the root's files belong to root"
[ -x "$bt" ] || { nok "$bt missing (make all)"; finish; }

rm -rf "$W"
mkdir -p "$W"
sh scripts/demo-script.sh -q -o "$W" >"$W.demo" 2>"$W.err"
rc=$?
grep '^# ' "$W.demo"
cat "$W.err"
[ "$rc" = 3 ] && skip "$(sed -n 's/^SKIP: systemd-boot.sh: //p' "$W.err" | head -n 1)"
t "the root, the initramfs and the disk are built, QEMU ran (tests/e2e/systemd-boot.sh)" [ -f "$W/env" ]
[ -f "$W/env" ] || finish
envv() { sed -n "s/^$1=//p" "$W/env"; }
t "compile --who-calls register_netdevice (+ boottrace.follow = 1, the lineage events) is on the line" sh -c "
	grep -q '^cmdline=.* ftrace_filter=register_netdevice' '$W/env' &&
	grep -q '^cmdline=.* trace_event=sched:sched_process_fork,' '$W/env' &&
	grep -q '^cmdline=.* boottrace.follow=1' '$W/env' && ! grep -q '^cmdline=.* boottrace.stop=' '$W/env'"
t "boot: QEMU powered off by itself (no timeout)" [ "$(envv qemu_rc)" = 0 ]
O=$W/out/run/e2e
t "boot: e2e-finish.service ran (tar on the second disk)" [ -f "$O/boot_id" ]
t "boot: multi-user.target reached" grep -qx active "$O/multi-user"
t "boot: the initramfs took its snapshot, stopped for the copy, and turned tracing back on (follow=1)" sh -c "
	grep -qx errors=0 '$W'/out/run/boottrace/*/meta && grep -qx follow=1 '$W'/out/run/boottrace/*/meta &&
	grep -qx stopped=1 '$W'/out/run/boottrace/*/meta && grep -qx resumed=1 '$W'/out/run/boottrace/*/meta"
t "boot: collect stopped tracing afterwards (tracing_on 0)" grep -qx 0 "$O/tracing_on"
t "scenario: make-bond.service succeeded" sh -c "
	grep -qx ActiveState=active '$O/make-bond.show' && grep -qx ExecMainStatus=0 '$O/make-bond.show'"
t "scenario: bond0 exists, made by make-bond.sh (the module made none: max_bonds=0)" sh -c "
	grep -q '^[0-9]*: bond0:' '$O/bond0' && grep -q 'bond mode' '$O/bond0' &&
	grep -q 'make-bond: pid' '$O/journal' && grep -q '^bonding ' '$O/modules'"

# The boot record that boottrace-collect.service wrote, read off the root's
# ext4 image after the guest powered off (debugfs rdump, no mount): what a
# later boot would find on the disk
rm -rf "$W/disk-var"
mkdir -p "$W/disk-var"
debugfs -R "rdump /var/lib/boottrace $W/disk-var" "$W/root.img" >"$W/debugfs.log" 2>&1
rec=
for d in "$W"/disk-var/boottrace/*/; do [ -f "$d/record.json" ] && rec=${d%/}; done
boot_id=$(cat "$O/boot_id" 2>/dev/null)
t "record: boottrace-collect.service succeeded" sh -c "
	grep -qx ActiveState=active '$O/collect.show' && grep -qx ExecMainStatus=0 '$O/collect.show'"
# shellcheck disable=SC2016 # expanded by that sh
t "record: /var/lib/boottrace/<boot-id>/record.json on the root disk" \
	sh -c '[ -n "$1" ] && [ "${1##*/}" = "$2" ]' sh "$rec" "$boot_id"
INPUT=${rec:-$W/none}
echo "# record: $INPUT"
# shellcheck disable=SC2016 # jq's variables
# The hook paused tracing for its copy and resumed it (emptying the buffer,
# docs/kernel-facts.md 36): the live window starts after the snapshot's, with
# nothing overwritten, which collect notes as the pause, not as a gap
t "record.json: this boot's id, host, kernel, command line; the initramfs and live windows joined after the hook's pause, no gap" \
	jqt '.schema == "boottrace-record" and .boot_id == $id and .hostname == "boottrace-e2e" and
		.kernel_release == $kv and (.cmdline | contains("boottrace.follow=1")) and
		.collected.tracing_after == "stopped" and
		([.windows[].name] == ["initramfs", "live"]) and .windows[1].joined == true and
		(.errors | length == 0) and (.join.gaps | length == 0) and .windows[1].events > 0 and
		.join.live_overrun == 0 and .join.paused' "$INPUT/record.json" \
	--arg id "$boot_id" --arg kv "$(envv kver)"
[ -f "$INPUT/record.json" ] && jq -c '{boot_id, hostname, kernel_release, collected, windows, join, errors, warnings}' \
	"$INPUT/record.json" | sed 's/^/#   record.json: /'

"$bt" report -f json --function register_netdevice "$INPUT" >"$W/test-report.json" 2>"$W/test-report.err"
"$bt" report --function register_netdevice "$INPUT" >"$W/test-report.txt" 2>&1
sed 's/^/#   report: /' "$W/test-report.txt"
# the culprit: a task ip (TASK column ip-PID), in a syscall, by netlink
t "report: register_netdevice from the syscall path of a task ip (rtnl_newlink)" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] |
		select((.task | test("^ip-[0-9]+$")) and .phase == "syscall" and
			(.full | index("rtnl_newlink")))] | length > 0' "$W/test-report.json"
t "report: the converse in the same boot: lo is registered by a built-in initcall (the kernel, not a task)" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] |
		select(.phase == "initcall" and (.full | index("loopback_net_init")))] | length > 0' "$W/test-report.json"
# Lineage (boottrace.lineage, which --who-calls compiles): the program, its
# parents, and who requested the module load
script_pid=$(sed -n 's/^ExecMainPID=//p' "$O/make-bond.show")
# shellcheck disable=SC2016 # jq's variables
t "lineage: ip <- /usr/local/sbin/make-bond.sh (make-bond.service's main pid) <- systemd as /sbin/init (pid 1), by netlink" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] |
		select(.task | test("^ip-[0-9]+$")) | .who |
		select(.kind == "request" and .via == "netlink" and
			(.lineage | length) == 3 and (.lineage[0].program | test("/ip$")) and
			.lineage[1].program == "/usr/local/sbin/make-bond.sh" and
			.lineage[1].pid == ($sp | tonumber) and
			.lineage[2].pid == 1 and .lineage[2].program == "/sbin/init")] | length == 1' \
	"$W/test-report.json" --arg sp "${script_pid:-0}"
t "lineage: lo's registration is a built-in initcall (who.kind initcall)" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] |
		select((.full | index("loopback_net_init")) and .who.kind == "initcall")] | length == 1' \
	"$W/test-report.json"
t "module load: bonding by modprobe from a kernel worker, for ip's request rtnl-link-bond, ip run by make-bond.sh" \
	jqt '[.module_loads[] | select(.module == "bonding") |
		select(.lineage[0].program == "/sbin/modprobe" and .lineage[1].kernel == true and
			.requested_by.request == "rtnl-link-bond" and (.requested_by.task | test("^ip-[0-9]+$")) and
			.requested_by.lineage[1].program == "/usr/local/sbin/make-bond.sh" and
			.requested_by.lineage[2].pid == 1)] | length == 1' "$W/test-report.json"
t "report: no registration through bond_create (the module made no bond0)" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] |
		select(.full | index("bond_create"))] | length == 0' "$W/test-report.json"

t "make demo DEMO=script: answers ip <- make-bond.sh <- pid 1, and who requested bonding" sh -c "
	[ $rc = 0 ] && grep -q 'Answer:.* a userspace request (netlink) from /usr/sbin/ip (pid [0-9]*), run by /usr/local/sbin/make-bond.sh (pid [0-9]*), run by /sbin/init (pid 1, named systemd)' '$W.demo' &&
	grep -q 'bonding at .* for the module request .rtnl-link-bond. of ip-' '$W.demo'"
sed -n 's/^.*Answer:[^ ]* /# demo answer: /p; s/^ *and the module: /# demo answer: and the module: /p' "$W.demo"

echo "# total: $(ms "$T0") ms"
finish
