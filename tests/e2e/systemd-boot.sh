#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# systemd-boot.sh DIR: build and boot issue 16's scenario once, for
# tests/e2e/systemd-root.sh (which checks it) and `make demo DEMO=script`
# (scripts/demo.sh -s, which tells it). A real Debian 12 root with systemd
# (tests/e2e/debian-root.sh, mmdebstrap, cached by content), the Debian 6.1
# cloud kernel of tests/e2e/kernel.sh (bonding is a module) with its modules
# in the root and boottrace installed by `make install DESTDIR=root`, an
# initramfs built by Debian's mkinitramfs with boottrace's initramfs-tools
# adapter (as tests/e2e/initramfs-tools.sh does; cached by content), the
# root on a virtio disk (ext4 made with mke2fs -d, no loop mount). In the
# root: /etc/modprobe.d/bonding.conf sets max_bonds=0 (the module makes no
# bond0 itself) and make-bond.service runs /usr/local/sbin/make-bond.sh, a
# #!/bin/sh script that runs `ip link add bond0 type bond` (the kernel loads
# bonding through request_module). The command line is `boottrace compile
# --who-calls register_netdevice` for 6.1, which sets boottrace.follow = 1 itself, so
# tracing runs on into the root (after the hook's pause for its copy) until
# `boottrace collect` joins it. One QEMU boot (TCG, or KVM when /dev/kvm
# exists and a probe boot under it prints the kernel's banner; -m 1024 -smp 1, hard timeout 900 s). After multi-user.target the
# scenario's own e2e-finish.service (ordered after make-bond.service and
# boottrace-collect.service) writes what the guest saw (run/e2e/: boot_id,
# journal, bond0, modules, make-bond.show, collect.show, tracing_on) and
# the initramfs snapshot (run/boottrace) as a tar to a raw virtio disk,
# unpacked here into DIR/out/, and powers off; the root disk stays in
# DIR/root.img (the boot record in /var/lib/boottrace is read from it with
# debugfs). DIR is removed and made anew. DIR/env holds kver=, cmdline=,
# accel=, qemu_rc=; DIR/serial.log the console.
# Timings and cache hits are printed as "# " lines. Exit 0 when QEMU ran
# (whatever the guest did), 77 with a "SKIP: " line on stderr when no boot
# is possible (a tool missing, not root, no kernel or root to be had), 1
# when building failed (the reason on stderr), 2 on bad arguments.
set -u
{ [ $# = 1 ] && [ -n "$1" ]; } || { echo "usage: systemd-boot.sh DIR" >&2; exit 2; }
case $1 in /*) W=$1 ;; *) W=$PWD/$1 ;; esac
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
# shellcheck source=scripts/progress.sh
. "$top/scripts/progress.sh"
bt=$top/build/boottrace
TMP=
# shellcheck disable=SC2317
cleanup() { [ -z "$TMP" ] || rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 1' INT TERM
ms() { echo $((($(date +%s%N) - $1) / 1000000)); }
die() { echo "systemd-boot.sh: $*" >&2; exit 1; }
cant() { echo "SKIP: systemd-boot.sh: $*" >&2; exit 77; }
case ${W%/} in '' | "$top" | "$HOME") die "DIR $W would be removed: give a directory of its own" ;; esac

for tool in qemu-system-x86_64 mkinitramfs unshare mke2fs mmdebstrap tar; do
	command -v $tool >/dev/null 2>&1 ||
		cant "$tool is not installed (make deps: scripts/debian-packages.txt)"
done
[ "$(id -u)" = 0 ] || cant "not root: mkinitramfs runs in a private mount namespace, the root's files belong to root"
[ -x "$bt" ] || die "$bt missing (make all)"

t1=$(date +%s%N)
KD=$(sh tests/e2e/kernel.sh) || cant "no Debian 6.1 cloud kernel could be fetched"
KV=$(cat "$KD/kver")
echo "# kernel: $KD ($KV), $(ms "$t1") ms"
t1=$(date +%s%N)
TMP=$(mktemp -d) || die "mktemp -d failed"
RT=$(sh tests/e2e/debian-root.sh 2>"$TMP/root.log") || {
	cat "$TMP/root.log" >&2
	cant "no Debian 12 root could be built (tests/e2e/debian-root.sh)"
}
echo "# root: $(cat "$TMP/root.log") ($(ms "$t1") ms)"

rm -rf "$W"
mkdir -p "$W"
R=$W/root
mkdir "$R"
t1=$(date +%s%N)
tar --numeric-owner -xpf "$RT" -C "$R" || die "$RT does not unpack: remove it to build it again"
# the kernel's modules (modules.dep from kernel-pkg.sh's depmod); /lib is
# /usr/lib in Debian 12
mkdir -p "$R/usr/lib/modules"
cp -a "$KD/root/lib/modules/$KV" "$R/usr/lib/modules/"
echo "# root unpacked, modules copied: $(ms "$t1") ms"
# (the root's links are absolute: read them, do not follow them on the host)
{ [ "$(readlink "$R/usr/sbin/init")" = /lib/systemd/systemd ] && [ -x "$R/usr/lib/systemd/systemd" ] &&
	[ -x "$R/usr/bin/ip" ] && [ "$(readlink "$R/usr/sbin/modprobe")" = /bin/kmod ] &&
	[ -x "$R/usr/bin/kmod" ]; } ||
	die "$RT: no systemd as /sbin/init, no ip or no modprobe: remove it to build it again"
[ -f "$R/usr/lib/modules/$KV/kernel/drivers/net/bonding/bonding.ko" ] ||
	die "$KD: no bonding.ko in $KV"

# boottrace as `make install` lays it out: the binary, and (asked for,
# since PREFIX is /usr/local) the hooks and boottrace-collect.service
# bt_make: no build flag, PREFIX or MAKEFLAGS of the caller's (tests/lib/testenv.sh)
# shellcheck source=tests/lib/testenv.sh
. "$top/tests/lib/testenv.sh"
bt_make -s install DESTDIR="$R" INSTALL_HOOK=1 INSTALL_COLLECT=1 >"$W/install.log" 2>&1
[ -x "$R/usr/local/bin/boottrace" ] || die "make install DESTDIR=$R failed: $W/install.log"
# the host-built binary must run in the root (its libraries are in
# debian-root.sh's package list)
chroot "$R" /usr/local/bin/boottrace --version >"$W/chroot-version.log" 2>&1 ||
	die "build/boottrace does not run inside the root (a library missing from debian-root.sh's list?): $W/chroot-version.log"
# boottrace-collect.service, enabled as its [Install] WantedBy= says (what
# `systemctl enable` does, without needing systemd on the host)
cu=$R/usr/lib/systemd/system/boottrace-collect.service
[ -f "$cu" ] ||
	die "make install DESTDIR=$R put no boottrace-collect.service in /lib/systemd/system: $W/install.log"
wb=$(sed -n 's/^WantedBy=//p' "$cu")
[ -n "$wb" ] || die "$cu has no WantedBy= to enable it by"
for tg in $wb; do
	mkdir -p "$R/etc/systemd/system/$tg.wants"
	ln -sf /lib/systemd/system/boottrace-collect.service "$R/etc/systemd/system/$tg.wants/"
done

# The scenario. A fixed machine-id: not a first boot (systemd-firstboot
# would prompt on the console), and the boot id is the kernel's anyway.
echo boottrace-e2e >"$R/etc/hostname"
echo b0077ace5e1f00000000000000000016 >"$R/etc/machine-id"
ln -sf /dev/null "$R/etc/systemd/system/systemd-firstboot.service"
printf '/dev/vda / ext4 rw 0 1\n' >"$R/etc/fstab"
mkdir -p "$R/etc/modprobe.d" "$R/usr/local/sbin" "$R/etc/systemd/system/multi-user.target.wants"
cat >"$R/etc/modprobe.d/bonding.conf" <<'EOF'
# the module makes no bond0 of its own: make-bond.service does
options bonding max_bonds=0
EOF
cat >"$R/usr/local/sbin/make-bond.sh" <<'EOF'
#!/bin/sh
# A vendor's network script: bond0 by netlink; the kernel loads bonding.
set -e
echo "make-bond: pid $$"
ip link add bond0 type bond
ip -d link show bond0
EOF
cat >"$R/etc/systemd/system/make-bond.service" <<'EOF'
[Unit]
Description=Make bond0 with ip link add (boottrace e2e scenario)

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/make-bond.sh

[Install]
WantedBy=multi-user.target
EOF
cat >"$R/usr/local/sbin/e2e-finish.sh" <<'EOF'
#!/bin/sh
# boottrace e2e: what the guest saw, and the boot's records, as a tar on
# /dev/vdb; then power off.
o=/run/e2e
mkdir -p $o
systemctl is-active multi-user.target >$o/multi-user 2>&1
systemctl show -p ActiveState -p Result -p ExecMainStatus -p ExecMainPID make-bond.service >$o/make-bond.show 2>&1
systemctl show -p ActiveState -p Result -p ExecMainStatus boottrace-collect.service >$o/collect.show 2>&1
journalctl -b --no-pager -o short-monotonic >$o/journal 2>&1
ip -d link show bond0 >$o/bond0 2>&1
cat /proc/modules >$o/modules
cat /proc/cmdline >$o/cmdline
cat /proc/sys/kernel/random/boot_id >$o/boot_id
cat /proc/uptime >$o/uptime
systemctl list-units --failed --no-pager >$o/failed 2>&1
cat /sys/kernel/tracing/tracing_on >$o/tracing_on 2>&1
set -- run/e2e
[ -d /run/boottrace ] && set -- "$@" run/boottrace
tar -cf /dev/vdb -C / "$@"
sync
echo "e2e-finish: done"
systemctl poweroff --no-block
EOF
cat >"$R/etc/systemd/system/e2e-finish.service" <<'EOF'
[Unit]
Description=boottrace e2e: save what the boot left, then power off
After=multi-user.target make-bond.service boottrace-collect.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/e2e-finish.sh
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
EOF
chmod 0755 "$R/usr/local/sbin/make-bond.sh" "$R/usr/local/sbin/e2e-finish.sh"
for u in make-bond e2e-finish; do
	ln -sf "/etc/systemd/system/$u.service" "$R/etc/systemd/system/multi-user.target.wants/$u.service"
done

# The initramfs: Debian's mkinitramfs with the adapter in a scratch CONFDIR
# (as tests/e2e/initramfs-tools.sh), the kernel's modules and config bound
# over the host's /lib/modules and /boot in a private mount namespace.
bt_make -s install-hook DESTDIR="$TMP/inst" INITRAMFS_TOOLS_DIR=/itools \
	HOOKDIR="$top/initramfs-hook" >>"$W/install.log" 2>&1
conf=$W/conf
mkdir -p "$conf/conf.d"
cp -r "$TMP/inst/itools/hooks" "$TMP/inst/itools/scripts" "$conf/"
printf '%s\n' MODULES=most BUSYBOX=auto KEYMAP=n COMPRESS=zstd DEVICE= NFSROOT=auto \
	RUNSIZE=10% FSTYPE=auto >"$conf/initramfs.conf"
: >"$conf/modules"
# Cached by content (like the root): the configuration and adapter files,
# the core script, the kernel, and the versions of the host packages whose
# files mkinitramfs copies in; only the newest image is kept.
icache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/sysroot
ikey=$( {
	echo "$KD $KV"
	(cd "$conf" && find . -type f | LC_ALL=C sort | xargs sha256sum)
	sha256sum initramfs-hook/boottrace-snapshot.sh
	dpkg-query -W initramfs-tools-core busybox busybox-static udev klibc-utils kmod zstd 2>/dev/null
} | sha256sum | cut -c1-16)
ic=$icache/initrd-$ikey.img
t1=$(date +%s%N)
if [ -s "$ic" ]; then
	cp "$ic" "$W/initrd.img"
	rc=0
	echo "# mkinitramfs: cache hit $ic"
else
	sh "$top/tests/e2e/mkinitramfs-ns.sh" "$KD/root" "$TMP/mk" "$conf" "$W/initrd.img" "$KV" \
		>"$W/initrd.img.log" 2>&1
	rc=$?
	echo "# mkinitramfs: $(ms "$t1") ms, rc $rc, $(wc -c <"$W/initrd.img" 2>/dev/null) bytes"
	if [ "$rc" = 0 ] && [ -s "$W/initrd.img" ]; then
		mkdir -p "$icache"
		rm -f "$icache"/initrd-*.img
		cp "$W/initrd.img" "$ic.tmp" && mv "$ic.tmp" "$ic"
	fi
fi
{ [ "$rc" = 0 ] && [ -s "$W/initrd.img" ]; } || die "mkinitramfs failed: $W/initrd.img.log"

# The command line: who calls register_netdevice, tracing left running
# into the root until boottrace collect joins it (the config's own
# boottrace.follow = 1)
"$bt" compile -k 6.1 -b qemu-x86_64 --who-calls register_netdevice --print-config \
	>"$W/who.bconf" 2>"$W/compile.err"
# The hook stops tracing while it copies (the default stop = 1) and turns it
# back on, which empties the buffer under the function tracer
# (docs/kernel-facts.md 36): collect must take that pause for what it is,
# not for a wrapped buffer (no gap error, checked in systemd-root.sh).
# The who-calls config traces on into the real root itself (boottrace.follow
# = 1, and the question as boottrace.ask); boottrace-collect.service joins it.
grep -qx 'boottrace.follow = 1' "$W/who.bconf" ||
	die "compile --who-calls --print-config no longer sets boottrace.follow = 1: $W/who.bconf"
line=$("$bt" compile -k 6.1 -b qemu-x86_64 "$W/who.bconf" 2>>"$W/compile.err")
[ -n "$line" ] || die "boottrace compile $W/who.bconf failed: $W/compile.err"
echo "# compiled: $line"

t1=$(date +%s%N)
sz=$(du -sm "$R" | cut -f1)
mke2fs -q -t ext4 -L sysroot -d "$R" "$W/root.img" "$((sz + sz / 4 + 64))M" >"$W/mke2fs.log" 2>&1 ||
	die "mke2fs -d $R failed: $W/mke2fs.log"
rm -rf "$R"
echo "# root disk: ${sz} MB of files, mke2fs -d $(ms "$t1") ms"

# KVM when it runs this kernel, else TCG; BT_QEMU_ACCEL decides instead
# (tests/e2e/accel.sh)
# shellcheck source=tests/e2e/accel.sh
. "$top/tests/e2e/accel.sh"
accel=$(qemu_accel "$KD/root/boot/vmlinuz-$KV" "$W" 2>"$W/accel.log")
cat "$W/accel.log"
c="console=ttyS0 panic=-1 root=/dev/vda rootfstype=ext4 rw $line"
truncate -s 64M "$W/disk.img"
t1=$(date +%s%N)
progress_run -o "$W/qemu.log" -t "$W/serial.log" "booting the Debian 12 root ($accel)" \
	timeout 900 qemu-system-x86_64 -M pc -accel "$accel" -m 1024 -smp 1 -display none \
	-monitor none -serial "file:$W/serial.log" -no-reboot \
	-kernel "$KD/root/boot/vmlinuz-$KV" -initrd "$W/initrd.img" \
	-drive "file=$W/root.img,format=raw,if=virtio" \
	-drive "file=$W/disk.img,format=raw,if=virtio" \
	-append "$c"
qrc=$?
echo "# boot ($accel): $(ms "$t1") ms, qemu exit $qrc; cmdline: $c"
mkdir -p "$W/out"
tar -xf "$W/disk.img" -C "$W/out" 2>/dev/null
{
	echo "kver=$KV"
	echo "cmdline=$c"
	echo "accel=$accel"
	echo "qemu_rc=$qrc"
} >"$W/env"
exit 0
