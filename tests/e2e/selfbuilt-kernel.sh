#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build an x86_64 kernel with bootconfig and boot-time tracing from Debian's
# linux-source-6.1 (Debian's own kernels have CONFIG_BOOT_CONFIG unset and
# bonding as a module: S2/S3 need both built in) and print two lines: the
# bzImage path and the .config path.
#   make tinyconfig + the fragment below + olddefconfig + make bzImage
# Cached under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernels/HASH/ where
# HASH covers the linux-source-6.1 package version, this script (which holds
# the fragment) and the compiler's version; only bzImage, .config and
# System.map are kept, moved into place in one rename. A cached kernel costs
# nothing; a cold build is 4-7 min on 2 cores. On a terminal each stage
# (unpack, configure, build) is a line redrawn with its elapsed time and the
# build log's last line, kept as "STAGE: N s" when done (scripts/progress.sh);
# in a log only the first and last lines below.
# Exit 3 when the source package or a build tool is missing.
set -eu

src=/usr/src/linux-source-6.1.tar.xz
me=$0
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/../../scripts/progress.sh"
die() {
	echo "selfbuilt-kernel.sh: $*" >&2
	exit 3
}
# Why each group is here:
# - console, initramfs, busybox: boot a gzip'd cpio with a static busybox
#   and talk on ttyS0; TMPFS (with SHMEM) makes rootfs a tmpfs, so the
#   hook's df of /run sees real free space (ramfs reports 0 KB free)
# - BOOT_CONFIG, BOOTTIME_TRACING: the bootconfig path (S3)
# - the tracers; KALLSYMS names the functions in the trace
# - BONDING=y: bond0 is created by bonding_init at initcall time (S2/S3)
# - UNWINDER_ORC: clean stacks (the "guess" unwinder adds stale frames)
# - MAGIC_SYSRQ, PRINTK_TIME: as on a distribution kernel
fragment() {
	cat <<'EOF'
CONFIG_64BIT=y
CONFIG_PRINTK=y
CONFIG_PRINTK_TIME=y
CONFIG_TTY=y
CONFIG_SERIAL_8250=y
CONFIG_SERIAL_8250_CONSOLE=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_RD_GZIP=y
CONFIG_BINFMT_ELF=y
CONFIG_BINFMT_SCRIPT=y
CONFIG_DEVTMPFS=y
CONFIG_PROC_FS=y
CONFIG_SYSFS=y
CONFIG_SHMEM=y
CONFIG_TMPFS=y
CONFIG_MULTIUSER=y
CONFIG_FUTEX=y
CONFIG_KALLSYMS=y
CONFIG_BOOT_CONFIG=y
CONFIG_BOOTTIME_TRACING=y
CONFIG_FTRACE=y
CONFIG_FUNCTION_TRACER=y
CONFIG_FUNCTION_GRAPH_TRACER=y
CONFIG_DYNAMIC_FTRACE=y
CONFIG_STACK_TRACER=y
CONFIG_KPROBES=y
CONFIG_KPROBE_EVENTS=y
CONFIG_NET=y
CONFIG_INET=y
CONFIG_NETDEVICES=y
CONFIG_NET_CORE=y
CONFIG_BONDING=y
CONFIG_UNIX=y
CONFIG_MODULES=y
CONFIG_UNWINDER_ORC=y
CONFIG_MAGIC_SYSRQ=y
EOF
}

[ -r "$src" ] || die "$src is missing: apt-get install linux-source-6.1 (make deps)"
ver=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null) ||
	die "linux-source-6.1 is not installed (make deps)"
for t in make gcc flex bison bc xz perl; do
	command -v $t >/dev/null 2>&1 || die "$t is missing (make deps)"
done
cc_ver=$(gcc --version | head -n 1)
hash=$({
	echo "linux-source-6.1 $ver"
	echo "$cc_ver"
	cat "$me"
} | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/kernels
d=$cache/$hash
if [ -s "$d/bzImage" ] && [ -s "$d/.config" ] && [ -s "$d/System.map" ]; then
	echo "$d/bzImage"
	echo "$d/.config"
	exit 0
fi

mkdir -p "$cache"
w=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
t0=$(date +%s)
echo "selfbuilt-kernel.sh: building linux-source-6.1 $ver into $d (4-7 min on 2 cores)" >&2
progress_run -k -s "$w" "selfbuilt-kernel.sh: unpacking $src" tar -xJf "$src" -C "$w"
k=$w/linux-source-6.1
[ -f "$k/Makefile" ] || die "$src did not unpack to linux-source-6.1/"
fragment >"$w/fragment.config"
log=$w/build.log
configure() {
	make -C "$k" ARCH=x86_64 tinyconfig &&
		"$k/scripts/kconfig/merge_config.sh" -m -O "$k" "$k/.config" "$w/fragment.config" &&
		make -C "$k" ARCH=x86_64 olddefconfig
}
progress_run -k -o "$log" -t "$log" "selfbuilt-kernel.sh: configuring (tinyconfig + fragment)" configure || {
	tail -n 20 "$log" >&2
	die "configuring the kernel failed (log above)"
}
# merge_config/olddefconfig drop what a dependency forbids: say which
fragment | while IFS= read -r l; do
	grep -qx "$l" "$k/.config" || { echo "selfbuilt-kernel.sh: $l did not stick" >&2; echo x; }
done | grep -q x && die "the fragment does not apply to this source (see above)"
progress_run -k -a "$log" -t "$log" "selfbuilt-kernel.sh: make bzImage" \
	make -C "$k" ARCH=x86_64 -j"$(nproc)" bzImage || {
	tail -n 30 "$log" >&2
	die "make bzImage failed (log above)"
}
mkdir "$w/out"
cp "$k/arch/x86/boot/bzImage" "$k/.config" "$k/System.map" "$w/out/"
echo "linux-source-6.1 $ver" >"$w/out/source"
rm -rf "$d"
mv "$w/out" "$d"
echo "selfbuilt-kernel.sh: built in $(($(date +%s) - t0)) s" >&2
echo "$d/bzImage"
echo "$d/.config"
