#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build a small busybox-static initramfs (gzip'd newc cpio) with the
# boottrace hook: /sbin/boottrace-init (use rdinit=/sbin/boottrace-init),
# /lib/boottrace/boottrace-snapshot.sh and a minimal /init that mounts the
# API filesystems, loads the listed modules in order and starts a shell
# (or powers off with bt.poweroff on the command line).  `make initramfs`.
#
#   mkinitramfs.sh -o OUT [-M KROOT -V KVER -m "MOD ..."] [-f SRC:DST]...
#                  [-c SETTINGS] [-n]
#   -M/-V/-m  copy kernel modules MOD (with their dependencies, found with
#             modinfo) from KROOT/lib/modules/KVER; their order is written to
#             /etc/boottrace-modules (dependencies first)
#   -f        add file SRC as DST (e.g. a test's own /init), mode kept
#   -c        the hook's settings file (boottrace compile --hook-settings),
#             installed as /etc/boottrace.conf
#   -n        leave the hook out (to measure what the hook adds)
#   BUSYBOX   the static busybox to use (default: busybox in PATH)
set -eu

out=
kroot=
kver=
mods=
hook=1
extra=
here=$(cd "$(dirname "$0")" && pwd)
while getopts o:M:V:m:f:c:n opt; do
	case $opt in
	o) out=$OPTARG ;;
	M) kroot=$OPTARG ;;
	V) kver=$OPTARG ;;
	m) mods=$OPTARG ;;
	f) extra="$extra
$OPTARG" ;;
	c) extra="$extra
$OPTARG:/etc/boottrace.conf" ;;
	n) hook=0 ;;
	*) exit 2 ;;
	esac
done
if [ -z "$out" ]; then
	echo "mkinitramfs.sh: give -o OUT" >&2
	exit 2
fi
bb=${BUSYBOX:-$(command -v busybox || true)}
if [ -z "$bb" ] || ! "$bb" --list >/dev/null 2>&1; then
	echo "mkinitramfs.sh: no busybox found: install busybox-static (make deps)" >&2
	exit 3
fi
if command -v ldd >/dev/null && ldd "$bb" 2>/dev/null | grep -q '=>'; then
	echo "mkinitramfs.sh: $bb is dynamically linked: install busybox-static" >&2
	exit 3
fi
for t in cpio gzip; do
	command -v $t >/dev/null || { echo "mkinitramfs.sh: $t is missing (make deps)" >&2; exit 3; }
done

w=$(mktemp -d "${TMPDIR:-/tmp}/bt-initramfs.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
r=$w/root
mkdir -p "$r/bin" "$r/sbin" "$r/usr/bin" "$r/usr/sbin" "$r/proc" "$r/sys" \
	"$r/dev" "$r/run" "$r/tmp" "$r/etc" "$r/lib/boottrace" "$r/mnt"
cp "$bb" "$r/bin/busybox"
"$bb" --list-full | while read -r a; do
	[ -e "$r/$a" ] || ln -s /bin/busybox "$r/$a"
done
# the kernel opens /dev/console for init before anything is mounted
if [ "$(id -u)" = 0 ]; then
	mknod -m 600 "$r/dev/console" c 5 1
	mknod -m 666 "$r/dev/null" c 1 3
fi

if [ "$hook" = 1 ]; then
	install -m 0755 "$here/boottrace-snapshot.sh" "$r/lib/boottrace/boottrace-snapshot.sh"
	install -m 0755 "$here/boottrace-init" "$r/sbin/boottrace-init"
fi

cat >"$r/init" <<'EOF'
#!/bin/sh
# minimal init of boottrace's demo initramfs (initramfs-hook/mkinitramfs.sh)
[ -e /proc/self ] || mount -t proc proc /proc
[ -d /sys/kernel ] || mount -t sysfs sysfs /sys
[ -c /dev/null ] || mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
[ -r /etc/boottrace-modules ] && while read -r m; do insmod "/lib/modules/$m"; done </etc/boottrace-modules
echo "boottrace demo: snapshots are in /run/boottrace/ (see meta, trace)"
grep -q 'bt.poweroff' /proc/cmdline && { sync; poweroff -f; }
exec sh
EOF
chmod 0755 "$r/init"

# Modules and their dependencies (depth first), from modinfo.
if [ -n "$mods" ]; then
	md=$kroot/lib/modules/$kver
	[ -d "$md" ] || { echo "mkinitramfs.sh: no $md" >&2; exit 3; }
	: >"$w/order"
	add_mod() {
		p=$(find "$md/kernel" -name "$1.ko*" | head -n 1)
		[ -n "$p" ] || { echo "mkinitramfs.sh: module $1 not in $md" >&2; exit 1; }
		grep -qx "${p#"$md"/}" "$w/order" && return 0
		for d in $(modinfo -F depends "$p" | tr , ' '); do
			add_mod "$d"
		done
		# the recursion reused $p
		p=$(find "$md/kernel" -name "$1.ko*" | head -n 1)
		echo "${p#"$md"/}" >>"$w/order"
	}
	for m in $mods; do add_mod "$m"; done
	while read -r p; do
		mkdir -p "$r/lib/modules/$(dirname "$p")"
		cp "$md/$p" "$r/lib/modules/$p"
	done <"$w/order"
	cp "$w/order" "$r/etc/boottrace-modules"
fi

printf '%s\n' "$extra" | while IFS=: read -r src dst; do
	[ -n "$src" ] || continue
	mkdir -p "$r/$(dirname "$dst")"
	cp -p "$src" "$r/$dst"
done

mkdir -p "$(dirname "$out")"
(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -9n >"$out.tmp"
mv "$out.tmp" "$out"
