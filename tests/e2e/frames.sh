#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end test of issue 22's names (docs/report.md, "Names the report
# checks"): Debian's 6.1 cloud kernel (tests/e2e/kernel.sh) boots in QEMU
# (TCG) with the line `boottrace compile --who-creates bond0` makes
# (func_stack_trace, sym-offset, the lineage and module_load events, a
# kprobe recording each device's name).
# Its /init (tests/e2e/frames/init) loads bonding, whose init creates bond0,
# then more modules, and only then takes the hook's snapshot: a late read,
# after a later module was loaded into the init code bonding freed (the
# kernel names stack addresses when the trace is read). report must show
# bonding's init frame as [init of bonding], never the later module's
# function (bonding_init with --modules), leave ftrace's own frames out of
# the callers, and start each answer with the device. Last line
# "frames: N passed, N failed"; exit 77 when nothing can boot.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
W=$top/build/e2e-frames
# shellcheck disable=SC2034 # read by tap.sh
SUITE=frames
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"

qemu_kernel kernel.sh "Debian 6.1 kernel or busybox-static"
mkdir -p "$W/out"
# after bonding, modules whose code may land where bonding's init was
MODS="virtio_pci virtio_blk bonding dummy ifb nlmon veth vrf"
if ! BUSYBOX=$KD/busybox sh initramfs-hook/mkinitramfs.sh -o "$W/i.cpio.gz" \
	-M "$KD/root" -V "$KV" -m "$MODS" -f tests/e2e/frames/init:/init; then
	nok "mkinitramfs.sh builds the test initramfs"
	finish
fi
if ! CL=$("$bt" compile --who-creates bond0 -b qemu-x86_64 -k 6.1); then
	nok "compile --who-creates bond0"
	finish
fi
ok "compile --who-creates bond0: $CL"
case " $CL " in *" kprobe_event=p:kprobes/bt_register_netdevice,register_netdevice,name=+0(%di):string "*)
	ok "the line has the kprobe recording the device's name" ;;
*) nok "the line has the kprobe recording the device's name: $CL" ;; esac
case " $CL " in *" trace_options=func_stack_trace,sym-offset "*) ok "the line turns on sym-offset" ;;
*) nok "the line turns on sym-offset: $CL" ;; esac
truncate -s 64M "$W/disk.img"
progress_run -o "$W/qemu.log" -t "$W/serial.log" "booting $W" \
	timeout 600 qemu-system-x86_64 -M pc -m 512 -smp 2 -display none \
	-monitor none -serial "file:$W/serial.log" -no-reboot \
	-kernel "$KD/root/boot/vmlinuz-$KV" -initrd "$W/i.cpio.gz" \
	-drive "file=$W/disk.img,format=raw,if=virtio" \
	-append "console=ttyS0 panic=-1 $CL"
t "the boot reached the end of its /init" grep -aq 'bttest: reached the end' "$W/serial.log"
t "bonding's init created bond0" grep -aq 'bttest: bond0 exists' "$W/serial.log"
t "ip made bond1" grep -aq 'bttest: bond1 made' "$W/serial.log"
tar -xf "$W/disk.img" -C "$W/out" 2>/dev/null
S=
for s in "$W"/out/boottrace/*/; do [ -d "$s" ] && S=${s%/} && break; done
[ -n "$S" ] || { nok "the hook's snapshot is on the disk"; finish; }
ok "the hook's snapshot is on the disk"

# What happened, from the raw trace: the frame right above do_one_initcall
# in insmod's bonding stack, as the kernel named it when the hook read it.
# sym-offset gives its [module]: another module than bonding means that
# module was loaded into bonding's freed init code.
# (the stacks with bond_create: dummy's own init is [dummy] by right)
awk '!/^ *=> / { if (bond && over != "") print over; bond = 0; over = ""; prev = ""; next }
	/=> bond_create/ { bond = 1 }
	/=> do_one_initcall/ { over = prev }
	{ prev = $0 }
	END { if (bond && over != "") print over }' "$S/trace" |
	sed 's/^ *=> //' | sort -u >"$W/init-frames"
sed 's/^/# frame over do_one_initcall: /' "$W/init-frames"
later=$(grep -v '\[bonding\]' "$W/init-frames" | grep '\[' | head -n 1)
[ -n "$later" ] || nok "a later module was loaded into bonding's freed init code (none seen: the frames above do_one_initcall are $(tr '\n' ' ' <"$W/init-frames"))"
[ -n "$later" ] && ok "a later module was loaded into bonding's freed init code: its frame reads $later"
laterfn=${later%%+*}

"$bt" report "$S" >"$W/report.txt" 2>"$W/report.err"
echo "# report exit $?"
grep -E '^(register_netdevice|  culprit|evidence|  [-!] )' "$W/report.txt" | sed 's/^/#   /'
t "report: bonding's init frame shown as [init of bonding]" \
	grep -q 'culprit: \[init of bonding\] -> bond_create \[bonding\] -> register_netdevice' "$W/report.txt"
if [ -n "$laterfn" ]; then
	# (the later module's own init may be a culprit of its own, by right)
	t "report: the later module's $laterfn is not bonding's caller of bond_create" \
		sh -c "! grep 'culprit:' '$W/report.txt' | grep -qE -- '$laterfn( \[[a-z_0-9]+\])? -> bond_create'"
	t "report: the freed-init evidence names what the trace had ($laterfn)" \
		grep -qE "of module init code (was|were) named after a module loaded later.*$laterfn" "$W/report.txt"
fi
t "report: the kprobe's stacks carry ftrace's own frames, named in the trampoline line" \
	grep -qE 'ftrace trampoline frame.*(arch_ftrace_ops_list_func|ftrace_regs_call)' "$W/report.txt"
# the answer starts with the object: a name the kprobe read at entry, or the
# pattern bonding's init registers (docs/report.md, "kprobe values")
t "report: the name ip gave bond1 is among the kprobe's values, joined to its call" \
	grep -q '^  kprobe values: .*name="bond1" (1) .*joined to the calls they were made in' "$W/report.txt"
t "report: bonding's init device is said to be the pattern bond%d" \
	grep -q '^  bond%d (a name pattern.*network device created by insmod-[0-9]*, via bond_create \[bonding\] -> register_netdevice' "$W/report.txt"
t "report: no ftrace machinery frame in a culprit" \
	sh -c "! grep 'culprit:' '$W/report.txt' | grep -qE 'ftrace_regs_call|arch_ftrace_ops_list_func|ftrace_call|0xffffffff'"
# with the kernel's modules tree, the init entry is named from bonding.ko
"$bt" report --modules "$KD/root/lib/modules/$KV" "$S" >"$W/report-ko.txt" 2>"$W/report-ko.err"
t "report --modules: bonding's init frame named from bonding.ko (bonding_init)" \
	grep -q 'culprit: bonding_init \[init of bonding\] -> bond_create \[bonding\] -> register_netdevice' "$W/report-ko.txt"
"$bt" report -f folded "$S" >"$W/folded.txt" 2>/dev/null
t "report -f folded: bonding's init frame as [init_of_bonding]" grep -q ';\[init_of_bonding\];bond_create_\[bonding\];register_netdevice ' "$W/folded.txt"
[ -n "$laterfn" ] && t "report -f folded: the later module's $laterfn is not over bond_create" \
	sh -c "! grep -qE -- ';$laterfn(_\[[a-z_0-9]+\])?;bond_create' '$W/folded.txt'"
finish
