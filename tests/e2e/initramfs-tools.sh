#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end test of the initramfs-tools adapter of the initramfs hook
# (initramfs-hook/initramfs-tools/): Debian's real mkinitramfs
# (initramfs-tools-core) builds an image with the adapter installed in a
# scratch config dir, for the Debian linux-image-6.1.0-*-cloud-amd64 of
# tests/e2e/kernel.sh, and QEMU (TCG) boots it into a small ext4 root whose
# /sbin/init writes /run/boottrace (moved there by initramfs-tools) as a tar
# to a raw virtio disk, which is read back here. Kernel command lines come
# from `boottrace compile`. The last line is "initramfs-tools: N passed, N
# failed". Exit 77 (with a SKIP line) only when no boot is possible: a tool
# is missing, no kernel to fetch, or not root (mkinitramfs must see the
# kernel's modules in /lib/modules, which needs a private mount namespace).
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
W=$top/build/e2e-itools
SUITE=initramfs-tools
TMP=
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
# shellcheck disable=SC2317
lacks() { [ -f "$1" ] && ! grep -qF -- "$2" "$1"; } # FILE TEXT
# shellcheck disable=SC2317
meta() { grep -qxF -- "$2" "$1/meta"; } # SNAPDIR LINE
# shellcheck disable=SC2317
cleanup() { [ -z "$TMP" ] || rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

if command -v shellcheck >/dev/null 2>&1; then
	t "shellcheck -s sh: initramfs-tools adapter and this test" shellcheck -x -s sh \
		initramfs-hook/initramfs-tools/hooks/boottrace \
		initramfs-hook/initramfs-tools/scripts/boottrace tests/e2e/initramfs-tools.sh tests/e2e/mkinitramfs-ns.sh \
		tests/e2e/tap.sh
else
	nok "shellcheck is not installed (make deps)"
fi
# BUSYBOX=n images run the scripts with klibc's sh, stricter than ash (a
# newline inside ${...} is a syntax error there)
if [ -x /usr/lib/klibc/bin/sh ]; then
	t "klibc's sh parses the core script and the adapter" sh -c "
		/usr/lib/klibc/bin/sh -n initramfs-hook/boottrace-snapshot.sh &&
		/usr/lib/klibc/bin/sh -n initramfs-hook/initramfs-tools/scripts/boottrace"
else
	nok "klibc's sh (/usr/lib/klibc/bin/sh, klibc-utils) is missing (make deps)"
fi

for tool in qemu-system-x86_64 mkinitramfs lsinitramfs unmkinitramfs unshare mke2fs; do
	command -v $tool >/dev/null 2>&1 ||
		skip "$tool is not installed (make deps: qemu-system-x86, initramfs-tools-core, util-linux, e2fsprogs)"
done
[ "$(id -u)" = 0 ] || skip "not root: mkinitramfs runs in a private mount namespace (unshare -m)"
[ -x "$bt" ] || { nok "$bt missing (make all)"; finish; }
command -v jq >/dev/null 2>&1 || nok "jq is not installed (make deps); report checks will fail"
KD=$(sh tests/e2e/kernel.sh) || skip "no Debian 6.1 cloud kernel could be fetched"
KV=$(cat "$KD/kver")
vmlinuz=$KD/root/boot/vmlinuz-$KV
echo "# kernel: $KD ($KV)"
echo "# mkinitramfs: initramfs-tools-core $(dpkg-query -W -f '${Version}' initramfs-tools-core 2>/dev/null)"

rm -rf "$W"
mkdir -p "$W"
TMP=$(mktemp -d) || { nok "mktemp -d"; finish; }

# The adapter goes into a scratch CONFDIR the way `make install-hook` lays it
# out, so the build hook's BT_CORE is the line install rewrites.
# (bt_make: no build flag, DESTDIR or MAKEFLAGS of the caller's, tests/lib/testenv.sh)
# shellcheck source=tests/lib/testenv.sh
. "$top/tests/lib/testenv.sh"
bt_make -s install-hook DESTDIR="$TMP/inst" INITRAMFS_TOOLS_DIR=/itools \
	HOOKDIR="$top/initramfs-hook" >"$W/install.log" 2>&1
conf=$W/conf
mkdir -p "$conf/conf.d"
cp -r "$TMP/inst/itools/hooks" "$TMP/inst/itools/scripts" "$conf/" 2>/dev/null
t "make install-hook: hook's BT_CORE points at the core script" \
	grep -qx "BT_CORE=$top/initramfs-hook/boottrace-snapshot.sh" "$conf/hooks/boottrace"
# Debian's defaults (MODULES=most pulls in virtio_blk, a module in this
# kernel); bonding (and tls, its dependency) loads in load_modules, between
# init-top and init-premount
cat >"$conf/initramfs.conf" <<'EOF'
MODULES=most
BUSYBOX=auto
KEYMAP=n
COMPRESS=zstd
DEVICE=
NFSROOT=auto
RUNSIZE=10%
FSTYPE=auto
EOF
echo bonding >"$conf/modules"

# mkinitramfs reads modules only from /lib/modules/KVER and the kernel's
# config (which compressions it can unpack) only from /boot/config-KVER of
# the host. In a private mount namespace the kernel package's lib/modules
# and boot are bound (read-only) over them; a host without /lib/modules gets
# a throw-away overlay on /lib to make the mount point, so the host's tree
# never changes. TMPDIR keeps mkinitramfs's work dir out of /var/tmp.
# With SETTINGS (a file of `compile --hook-settings`), the namespace also
# sees it as the host's /etc/boottrace.conf, through an overlay on /etc.
# With -n, mkinitramfs sees the host as a root without busybox.
mkimg() { # [-n] CONFDIR OUT [SETTINGS]: rc = mkinitramfs's status, log in OUT.log
	rc=1
	nb=
	[ "$1" = -n ] && nb=-n && shift
	o=$(mktemp -d "$TMP/mk.XXXXXX") || return 1
	t0=$(date +%s%N)
	sh "$top/tests/e2e/mkinitramfs-ns.sh" $nb "$KD/root" "$o" "$1" "$2" "$KV" "${3:-}" >"$2.log" 2>&1
	rc=$?
	t1=$(date +%s%N)
	echo "# mkinitramfs ${nb:+(no busybox) }-d ${1#"$top"/}: $(((t1 - t0) / 1000000)) ms, rc $rc, $(wc -c <"$2" 2>/dev/null) bytes (log: $2.log)"
	MKTMP=$o/tmp
}

hostmods=$(ls -la /lib/modules/ /boot/ 2>&1)
mkimg "$conf" "$W/initrd.img"
t "mkinitramfs builds the image with the adapter" [ "$rc" = 0 ]
[ -s "$W/initrd.img" ] || finish
t "mkinitramfs: no warning from the boottrace hook" lacks "$W/initrd.img.log" "W: boottrace"
t "host unchanged: /lib/modules and /boot as before" [ "$hostmods" = "$(ls -la /lib/modules/ /boot/ 2>&1)" ]
t "mkinitramfs left nothing in its TMPDIR" [ -z "$(ls -A "$MKTMP")" ]

lsinitramfs "$W/initrd.img" >"$W/list" 2>&1
rm -rf "$TMP/img"
unmkinitramfs "$W/initrd.img" "$TMP/img" >/dev/null 2>&1
I=$TMP/img
[ -d "$I/main" ] && I=$I/main
t "image lists lib/boottrace/boottrace-snapshot.sh" \
	grep -qE '^(usr/)?lib/boottrace/boottrace-snapshot.sh$' "$W/list"
t "image lists scripts/init-top/boottrace" grep -qx scripts/init-top/boottrace "$W/list"
t "image: the core script is the repo's, executable" sh -c "
	[ -x '$I/lib/boottrace/boottrace-snapshot.sh' ] &&
	cmp '$I/lib/boottrace/boottrace-snapshot.sh' initramfs-hook/boottrace-snapshot.sh"
t "image: the boot script in init-top, init-premount, init-bottom, in each ORDER" sh -c "
	for p in init-top init-premount init-bottom; do
		cmp '$I'/scripts/\$p/boottrace initramfs-hook/initramfs-tools/scripts/boottrace &&
		[ -x '$I'/scripts/\$p/boottrace ] &&
		grep -q \"^/scripts/\$p/boottrace \" '$I'/scripts/\$p/ORDER || exit 1
	done"
t "image: busybox, bonding.ko, tls.ko, virtio_blk.ko, conf/modules has bonding" sh -c "
	grep -qE '^(usr/)?bin/busybox$' '$W/list' && grep -q '/bonding/bonding.ko' '$W/list' &&
	grep -q '/tls/tls.ko' '$W/list' && grep -q '/virtio_blk.ko' '$W/list' &&
	grep -q '^bonding *$' '$I/conf/modules'"
# busybox has an applet for every program the core script runs: the build
# hook copies none of its own
t "image: busybox has every program the core script runs, none copied" sh -c "
	! grep -q 'lib/boottrace/bin/' '$W/list' &&
	for p in \$(sh initramfs-hook/boottrace-snapshot.sh tools); do
		busybox --list | grep -qx \"\$p\" || { echo \"busybox lacks \$p\"; exit 1; }
	done"
# initramfs-tools orders scripts without prereqs by name: "earliest, before
# modules load" holds only while boottrace sorts before udev, whose init-top
# starts udevd (which loads drivers)
order=$(grep -o '^/scripts/init-top/[^ ]*' "$I/scripts/init-top/ORDER" 2>/dev/null | tr '\n' ' ')
echo "# init-top ORDER: $order"
t "image: init-top runs boottrace before udev" sh -c "
	case '$order' in *init-top/boottrace*init-top/udev*) ;; *) exit 1 ;; esac"

# The real root: static busybox, a /sbin/init that lists /run/boottrace on
# the console and tars it (with what it saw) to /dev/vdb.
r=$W/rootfs
mkdir -p "$r/bin" "$r/sbin" "$r/dev" "$r/proc" "$r/sys" "$r/run" "$r/tmp"
cp "$KD/busybox" "$r/bin/busybox"
for a in sh cat find sort sed tar sync poweroff mkdir lsmod; do ln -s busybox "$r/bin/$a"; done
cat >"$r/sbin/init" <<'EOF'
#!/bin/sh
exec </dev/console >/dev/console 2>&1
echo "itools: real root init"
mkdir -p /run/itools
cat /proc/mounts >/run/itools/mounts
lsmod >/run/itools/lsmod 2>&1
cat /sys/kernel/tracing/tracing_on >/run/itools/tracing_on 2>&1
if [ -d /run/boottrace ]; then
	find /run/boottrace | sort | sed 's/^/itools: file /'
	for m in /run/boottrace/*/meta; do
		[ -f "$m" ] && sed "s|^|itools: $m: |" "$m"
	done
	tar -cf /dev/vdb -C /run boottrace itools
else
	echo "itools: /run/boottrace did not survive"
	tar -cf /dev/vdb -C /run itools
fi
sync
echo "itools: reached the end"
poweroff -f
EOF
chmod 0755 "$r/sbin/init"
rm -f "$W/root.img"
mke2fs -q -t ext4 -L itroot -d "$r" "$W/root.img" 16M >"$W/mke2fs.log" 2>&1 ||
	{ nok "mke2fs -d builds the root disk"; finish; }

conf() { # NAME: a config from stdin
	cat >"$W/$1.bconf"
}
cl() { # CONFIG: the compiled command line
	"$bt" compile -k 6.1 -b qemu-x86_64 "$1" 2>"$1.err" || echo "COMPILE-FAILED:$1"
}

# boot NAME CMDLINE [INITRD]: S = the snapshot read back from the tar disk,
# O = the rest of what the root's init saved
boot() {
	b=$1
	c="console=ttyS0 panic=-1 root=/dev/vda rootfstype=ext4 $2"
	img=${3:-$W/initrd.img}
	d=$W/$b
	mkdir -p "$d/out"
	cp "$W/root.img" "$d/root.img"
	rm -f "$d/disk.img"
	truncate -s 64M "$d/disk.img"
	t0=$(date +%s%N)
	progress_run -o "$d/qemu.log" -t "$d/serial.log" "booting $b" \
		timeout 300 qemu-system-x86_64 -M pc -m 1024 -smp 2 -display none \
		-monitor none -serial "file:$d/serial.log" -no-reboot \
		-kernel "$vmlinuz" -initrd "$img" \
		-drive "file=$d/root.img,format=raw,if=virtio" \
		-drive "file=$d/disk.img,format=raw,if=virtio" \
		-append "$c"
	t1=$(date +%s%N)
	echo "# boot $b: $(((t1 - t0) / 1000000)) ms; cmdline: $c"
	tar -xf "$d/disk.img" -C "$d/out" 2>/dev/null
	O=$d/out/itools
	S=
	N=0
	for s in "$d"/out/boottrace/*/; do
		[ -d "$s" ] || continue
		[ -n "$S" ] || S=${s%/}
		N=$((N + 1))
	done
	S=${S:-$d/none}
	t "$b: boots through initramfs-tools into the real root" has "$d/serial.log" "itools: reached the end"
	t "$b: /dev/vda is / (ext4), /run moved along, snapshot there" sh -c "
		grep -q '^/dev/vda / ext4' '$O/mounts' && grep -q '^tmpfs /run tmpfs' '$O/mounts' &&
		[ -f '$S/COMPLETE' ]"
	t "$b: one snapshot for the three points" [ "$N" = 1 ]
	[ -f "$S/meta" ] && sed -n 's/^\(point.*\|errors.*\|warnings.*\|error=.*\|warning=.*\)/#   meta: \1/p' "$S/meta"
}

# rebuilds NAME: boot NAME's serial log (snapshot=console) rebuilds into
# the same files as its snapshot S in the real root's /run
rebuilds() {
	rm -rf "$W/$1/rebuilt"
	t "$1: serial log rebuilds, sizes and md5 match the headers" \
		sh tests/e2e/hook/console-rebuild.sh "$W/$1/serial.log" "$W/$1/rebuilt"
	t "$1: rebuilt files == the /run snapshot in the real root" \
		diff -r "$W/$1/rebuilt/${S##*/}" "$S"
}

# 1. Default: snapshot at init-top, printed on the console too.
conf default <<'EOF'
# Who registers net devices? Snapshot at the earliest point, on the console.
ftrace {
	tracer = function
	ftrace.filters = register_netdevice
	options = func_stack_trace
}
boottrace {
	snapshot = console
}
EOF
boot default "$(cl "$W/default.bconf")"
t "default: COMPLETE, no errors" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
t "default: meta point=init-top, the default (earliest)" sh -c "
	grep -qx point=init-top '$S/meta' && grep -qx 'point_reason=default: earliest point' '$S/meta'"
t "default: snapshot before load_modules (no bonding in modules)" lacks "$S/modules" bonding
t "default: bonding loaded later, by initramfs-tools" grep -q '^bonding ' "$O/lsmod"
t "default: register_netdevice traced with stacks (loopback)" sh -c "
	grep -q 'register_netdevice <-' '$S/trace' && grep -q '<stack trace>' '$S/trace'"
t "default: tracing stays stopped in the real root" grep -qx 0 "$O/tracing_on"
t "default: cmdline, release, dmesg copied" sh -c "
	grep -q boottrace.snapshot=console '$S/cmdline' && grep -qx '$KV' '$S/release' &&
	grep -q 'Linux version' '$S/dmesg'"
rebuilds default
"$bt" report -f json "$W/default/serial.log" >"$W/default/report.json" 2>"$W/default/report.err"
t "default: report reads the serial log (console, same boot id)" \
	jqt ".input.kind == \"console\" and .input.boot_id == \"${S##*/}\" and
		([.functions[] | select(.name == \"register_netdevice\")] | length == 1)" \
	"$W/default/report.json"

# 2. Arm: module functions armed at init-top, snapshot moved to init-bottom,
#    the latest point, once the initramfs has loaded bonding. systemd's
#    /lib/modprobe.d/systemd.conf (copied by mkinitramfs) sets bonding
#    max_bonds=0, which leaves no bond0 to create: the command line wins.
conf arm <<'EOF'
# Who creates bond0, a module loaded by the initramfs itself?
ftrace {
	tracer = function
	ftrace.filters = register_netdevice
}
boottrace {
	arm = "bond_create:mod:bonding", "bonding_init:mod:bonding"
	snapshot = run
}
EOF
boot arm "$(cl "$W/arm.bconf") bonding.max_bonds=1"
t "arm: COMPLETE, no errors" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
t "arm: default point moved to init-bottom, meta says why" sh -c "
	grep -qx point=init-bottom '$S/meta' &&
	grep -qx 'point_reason=default moved to the latest point init-bottom because boottrace.arm is set' '$S/meta' &&
	grep -qx 'armed=bond_create:mod:bonding,bonding_init:mod:bonding' '$S/meta' &&
	grep -qx destination=run '$S/meta'"
t "arm: the root's init listed the snapshot on the console" \
	has "$W/arm/serial.log" "itools: /run/boottrace/${S##*/}/meta: point=init-bottom"
t "arm: set_ftrace_filter holds the armed bond_create" grep -q '^bond_create' "$S/set_ftrace_filter"
t "arm: bonding in the snapshot's modules" grep -q '^bonding ' "$S/modules"
t "arm: bond_create <-bonding_init" has "$S/trace" "bond_create <-bonding_init"
t "arm: register_netdevice <-bond_create" has "$S/trace" "register_netdevice <-bond_create"
"$bt" report -f json "$S" >"$W/arm/report.json" 2>"$W/arm/report.err"
"$bt" report "$S" >"$W/arm/report.txt" 2>&1
t "arm: report: a register_netdevice culprit chain holds bond_create" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] |
		select(.chain | index("bond_create"))] | length > 0' "$W/arm/report.json"
t "arm: report: no hook-error finding" \
	jqt '[.findings[] | select(.code == "hook-error")] | length == 0' "$W/arm/report.json"
grep 'culprit:' "$W/arm/report.txt" | sed 's/^ */#   report: /'

# 3. boottrace.at=init-premount: after load_modules, before the root mounts;
#    the arm still happens at init-top, so bonding's functions are traced.
conf premount <<'EOF'
ftrace {
	tracer = function
	ftrace.filters = register_netdevice
}
boottrace {
	at = init-premount
	arm = "bond_create:mod:bonding", "bonding_init:mod:bonding"
	snapshot = run
}
EOF
boot premount "$(cl "$W/premount.bconf") bonding.max_bonds=1"
t "premount: COMPLETE, no errors" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
t "premount: meta point=init-premount (boottrace.at)" sh -c "
	grep -qx point=init-premount '$S/meta' &&
	grep -qx point_reason=boottrace.at=init-premount '$S/meta'"
t "premount: bonding already loaded (load_modules ran)" grep -q '^bonding ' "$S/modules"
t "premount: register_netdevice <-bond_create" has "$S/trace" "register_netdevice <-bond_create"

# 4. A point initramfs-tools does not have: snapshot at its latest, an error.
conf badpoint <<'EOF'
ftrace {
	tracer = function
	ftrace.filters = register_netdevice
}
boottrace {
	at = pre-pivot
}
EOF
boot badpoint "$(cl "$W/badpoint.bconf")"
t "badpoint: COMPLETE with one error" grep -qx "errors=1 warnings=0" "$S/COMPLETE"
t "badpoint: snapshot at init-bottom, the error names the adapter's points" sh -c "
	grep -qx point=init-bottom '$S/meta' &&
	grep -qxF 'error=boottrace.at=pre-pivot is not a point of this adapter (init-top init-premount init-bottom); snapshot taken at init-bottom' '$S/meta'"

# 5. The settings in the image: `compile --hook-settings` writes the arm
#    list to a file that the build hook copies from the host's
#    /etc/boottrace.conf; the line carries only boottrace.enable=1.
hostetc=$(ls -la /etc/boottrace.conf 2>&1)
"$bt" compile -k 6.1 -b qemu-x86_64 --hook-settings "$W/armfile.conf" "$W/arm.bconf" >"$W/armfile.cmdline" 2>"$W/armfile.err"
t "armfile: the line asks the hook in and holds no hook setting" sh -c "
	grep -qw boottrace.enable=1 '$W/armfile.cmdline' && ! grep -q 'boottrace.arm' '$W/armfile.cmdline'"
mkimg "$conf" "$W/initrd-armfile.img" "$W/armfile.conf"
t "armfile: mkinitramfs builds the image with the settings file" [ "$rc" = 0 ]
t "armfile: etc/boottrace.conf is in the image" sh -c "
	lsinitramfs '$W/initrd-armfile.img' | grep -qx etc/boottrace.conf"
t "armfile: the host's /etc/boottrace.conf is as before" [ "$hostetc" = "$(ls -la /etc/boottrace.conf 2>&1)" ]
boot armfile "$(cat "$W/armfile.cmdline") bonding.max_bonds=1" "$W/initrd-armfile.img"
t "armfile: COMPLETE, no errors" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
t "armfile: armed from the settings file, snapshot at init-bottom" sh -c "
	grep -q '^settings_file=' '$S/meta' &&
	grep -qx 'armed=bond_create:mod:bonding,bonding_init:mod:bonding' '$S/meta' &&
	grep -qx point=init-bottom '$S/meta'"
t "armfile: register_netdevice <-bond_create" has "$S/trace" "register_netdevice <-bond_create"

# 6. No busybox in the image: only klibc's tools (no cp; a dd without
#    iflag=fullblock; cat, mount, sleep... in /usr/bin). The build hook
#    copies the host's programs the core script runs (its `tools` list) into
#    lib/boottrace/bin/, which the core script puts first in its PATH.
#    BUSYBOX=n is checked in the image; BUSYBOX=auto on a root without
#    busybox (installed without Recommends, mkinitramfs-ns.sh -n) is booted.
tools=$(sh initramfs-hook/boottrace-snapshot.sh tools)
echo "# the core script's tools: $(echo "$tools" | tr '\n' ' ')"
# shellcheck disable=SC2317
has_tools() { # IMAGE: no busybox; each of the core script's tools in lib/boottrace/bin
	[ -n "$tools" ] || { echo "boottrace-snapshot.sh tools lists nothing"; return 1; }
	lsinitramfs "$1" >"$1.list" 2>&1 || return 1
	if grep -qE '^(usr/)?bin/busybox$' "$1.list"; then
		echo "$1 has busybox"
		return 1
	fi
	for p in $tools; do
		grep -qE "^(usr/)?lib/boottrace/bin/$p\$" "$1.list" ||
			{ echo "$1 lacks lib/boottrace/bin/$p"; return 1; }
	done
}
cp -r "$conf" "$W/conf-klibc"
sed -i 's/^BUSYBOX=.*/BUSYBOX=n/' "$W/conf-klibc/initramfs.conf"
mkimg "$W/conf-klibc" "$W/initrd-klibc.img"
t "klibc: mkinitramfs builds the image (BUSYBOX=n)" [ "$rc" = 0 ]
t "klibc: no busybox; every tool of the core script in lib/boottrace/bin" has_tools "$W/initrd-klibc.img"

mkimg -n "$conf" "$W/initrd-nobb.img"
t "nobb: mkinitramfs builds the image (BUSYBOX=auto, no busybox on the root)" [ "$rc" = 0 ]
t "nobb: mkinitramfs: no warning from the boottrace hook" lacks "$W/initrd-nobb.img.log" "W: boottrace"
t "nobb: no busybox; every tool of the core script in lib/boottrace/bin" has_tools "$W/initrd-nobb.img"
t "nobb: the same files as the BUSYBOX=n image" \
	cmp "$W/initrd-klibc.img.list" "$W/initrd-nobb.img.list"
boot nobb "$(cl "$W/default.bconf")" "$W/initrd-nobb.img"
t "nobb: COMPLETE, no errors, no warnings" grep -qx "errors=0 warnings=0" "$S/COMPLETE"
t "nobb: meta holds no error of a tool (not found, bad operand)" sh -c "
	! grep -e 'not found' -e 'bad operand' -e '^error=' '$S/meta'"
t "nobb: register_netdevice traced with stacks" sh -c "
	grep -q 'register_netdevice <-' '$S/trace' && grep -q '<stack trace>' '$S/trace'"
t "nobb: state, cmdline, modules, dmesg copied" sh -c "
	grep -qx function '$S/tracer' && [ -s '$S/per_cpu/cpu0/stats' ] &&
	grep -q boottrace.snapshot=console '$S/cmdline' && [ -f '$S/modules' ] &&
	grep -q 'Linux version' '$S/dmesg'"
rebuilds nobb
"$bt" report -f json "$S" >"$W/nobb/report.json" 2>"$W/nobb/report.err"
t "nobb: report answers: register_netdevice with a culprit, no hook error" \
	jqt '([.functions[] | select(.name == "register_netdevice") | .culprits | length > 0] | any) and
		([.findings[] | select(.code == "hook-error")] | length == 0)' "$W/nobb/report.json"

finish
