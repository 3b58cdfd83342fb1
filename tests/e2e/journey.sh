#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The user's whole journey, from the packages, through real loaders:
#
# 1. The .debs, built here from `make dist` (dpkg-buildpackage -b -us -uc,
#    DEB_BUILD_OPTIONS=nocheck: make check runs the tests itself and
#    package.sh builds them with make test). Not package.sh's: it builds in
#    a temporary directory it removes, and runs after this suite. Cached in
#    CACHE/boottrace/debs/KEY/, KEY the SHA-256 of the release tarball (the
#    tree's files: any change builds anew, about a minute on 2 cores; only
#    the newest is kept).
# 2. A Debian 12 root by mmdebstrap, cached by content
#    (tests/e2e/debian-root.sh journey: systemd, apt, initramfs-tools, the
#    cloud kernel, systemd-boot and grub-efi-amd64 as packages), unpacked
#    once per system. Inside it, as root in a chroot in a private mount
#    namespace (/proc and /sys mounted there, gone with it): `apt-get
#    install ./boottrace_*.deb ./boottrace-initramfs-tools_*.deb`, so the
#    maintainer scripts and initramfs-tools' trigger run there and rebuild
#    the initramfs; nothing of boottrace is copied in by the test.
# 3. The loaders as a Debian user installs them.
#    (a) systemd-boot: `bootctl install --esp-path=/boot/efi
#        --no-variables` and `kernel-install add` before the packages (the
#        ESP is a directory in the chroot, not a mounted FAT:
#        SYSTEMD_RELAX_ESP_CHECKS=1, systemd's switch for image builds), so
#        the initramfs trigger's post-update hook puts the rebuilt image on
#        the ESP as it would on a real machine. No boot is spent on setup.
#    (b) GRUB: grub-install and grub-mkconfig need grub-probe, which needs
#        the real block devices, so they run in the guest on a first
#        "setup" boot (QEMU direct kernel boot of the root's own kernel and
#        initramfs, SeaBIOS, journey.setup=1 on the line): `grub-install
#        --target=x86_64-efi --efi-directory=/boot/efi --removable
#        --no-nvram` and `update-grub` (41_custom reads custom.cfg,
#        00_header honours next_entry). That costs one boot, in parallel
#        with system (a)'s first.
# 4. The disk image, no loop device and no mount: a GPT made by sfdisk on a
#    file, the ESP a FAT image (mkfs.vfat, filled with mtools from the
#    root's /boot/efi), the root an ext4 image (mkfs.ext4 -d), put at the
#    partitions' offsets with dd. The root is found by its UUID.
# 5. One QEMU process per system, OVMF with a writable copy of its VARS (the
#    EFI variables persist across the guest's reboots), TCG (under this
#    machine's KVM OVMF stops at its first x87 instruction, see
#    sdboot-oneshot.sh), the two systems in parallel. journey.service
#    (tests/e2e/journey/) runs the user's commands, one step a boot:
#    boot 1 `boottrace ask who-creates bond0` and reboot; boot 2 (the
#    one-shot: the tracing words on /proc/cmdline) after
#    boottrace-collect.service (pulled in by the packages' generator, and
#    putting the loader's files back), `boottrace report` and `boottrace
#    report -f json`, reboot; boot 3 the normal line again, no collect,
#    nothing armed, the ESP's loader/ (systemd-boot's random-seed aside) or
#    grubenv and custom.cfg as before boot 1; power off. What it saw is
#    read back from the root image with debugfs and from the ESP with
#    mtools; the answers are on the console and in the "#" lines.
#
# The two systems, the answer from systemd itself:
#    (a) systemd-boot; bond0 made by systemd-networkd from
#        /etc/systemd/network/bond0.netdev (netlink): the answer names
#        systemd-networkd and its lineage up to pid 1.
#    (b) GRUB; systemd-modules-load loads bonding (/etc/modules-load.d)
#        with `options bonding max_bonds=1` (/etc/modprobe.d/zz-bonding.conf,
#        read after the max_bonds=0 of systemd's systemd.conf): the answer
#        names bonding's init and systemd-modules-load.
# Needs root, mmdebstrap, dpkg-buildpackage, qemu-system-x86_64, ovmf,
# sfdisk (fdisk), dosfstools, mtools, e2fsprogs, jq. Last line "journey: N
# passed, N failed"; exit 77 (a loud SKIP) only when no boot is possible.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
# shellcheck disable=SC2034 # read by tap.sh
SUITE=journey
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
# shellcheck source=tests/lib/testenv.sh
. "$top/tests/lib/testenv.sh"
CODE=/usr/share/OVMF/OVMF_CODE_4M.fd
VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
T0=$(date +%s)
el() { echo "$(($(date +%s) - $1)) s"; }

if command -v shellcheck >/dev/null 2>&1; then
	t "shellcheck -s sh: this test and its guest script" \
		shellcheck -x -s sh tests/e2e/journey.sh tests/e2e/journey/journey-step tests/e2e/debian-root.sh
else
	nok "shellcheck is not installed (make deps)"
fi
for tool in qemu-system-x86_64 mmdebstrap dpkg-buildpackage sfdisk mkfs.vfat mcopy mmd mkfs.ext4 \
	debugfs jq unshare chroot lsinitramfs; do
	command -v $tool >/dev/null 2>&1 || skip "$tool is not installed (make deps: scripts/debian-packages.txt)"
done
{ [ -r "$CODE" ] && [ -r "$VARS" ]; } || skip "$CODE or $VARS is missing (ovmf)"
[ "$(id -u)" = 0 ] || skip "not root: the root's files belong to root, chroot and mount namespaces need it"
CACHE=$(bt_cache_dir) || exit 3
W=$(mktemp -d "${TMPDIR:-/tmp}/bt-journey.XXXXXX") || exit 3
# shellcheck disable=SC2317
cleanup() { rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
export MTOOLS_SKIP_CHECK=1

# 1. the packages
debs() {
	t1=$(date +%s)
	if ! bt_make -s -C "$top" dist DISTDIR="$W" >"$W/dist.log" 2>&1; then
		sed 's/^/#   /' "$W/dist.log"
		return 1
	fi
	v=$(cat "$top/VERSION")
	key=$(sha256sum "$W/boottrace-$v.tar.gz" | cut -c1-16)
	D=$CACHE/boottrace/debs/$key
	if [ -s "$D/boottrace_${v}_amd64.deb" ]; then
		echo "# debs: cache hit $D"
		return 0
	fi
	tar -xzf "$W/boottrace-$v.tar.gz" -C "$W" || return 1
	if ! (cd "$W/boottrace-$v" && bt_clear_buildenv &&
		DEB_BUILD_OPTIONS="nocheck parallel=2" dpkg-buildpackage -b -us -uc) >"$W/debs.log" 2>&1; then
		tail -n 30 "$W/debs.log" | sed 's/^/#   /'
		return 1
	fi
	# only the newest build is kept
	mkdir -p "$CACHE/boottrace/debs"
	find "$CACHE/boottrace/debs" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
	mkdir "$D.tmp" && cp "$W/boottrace_${v}_amd64.deb" "$W/boottrace-initramfs-tools_${v}_all.deb" "$D.tmp/" &&
		mv "$D.tmp" "$D" || return 1
	echo "# debs: built in $(el "$t1"): $D"
}
if debs; then
	ok "the .debs: dpkg-buildpackage -b -us -uc from make dist"
else
	nok "the .debs: dpkg-buildpackage -b -us -uc from make dist"
	finish
fi
t1=$(date +%s)
RT=$(sh tests/e2e/debian-root.sh journey 2>"$W/root.log") || {
	sed 's/^/#   /' "$W/root.log"
	skip "no Debian 12 root could be built (tests/e2e/debian-root.sh journey)"
}
echo "# root: $(cat "$W/root.log") ($(el "$t1"))"

# in_root R CMD...: CMD in the chroot R, in a private mount namespace
# (its mounts gone when it ends) with /proc and /sys, a clean environment.
# The ESP is a tmpfs at /boot/efi there, kept in R.esp between calls: what
# bootctl wants (the root of a file system; SYSTEMD_RELAX_ESP_CHECKS spares
# the FAT and partition checks) and what kernel-install's entries are
# relative to (stat %m: a mount point of another device).
# shellcheck disable=SC2016 # expanded by that sh
in_root() {
	unshare -m --propagation private sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && mount -t sysfs sysfs "$r/sys" &&
		mount -t tmpfs -o mode=0700 esp "$r/boot/efi" && cp -a "$r.esp/." "$r/boot/efi/" || exit 1
		chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive SYSTEMD_RELAX_ESP_CHECKS=1 "$@"
		rc=$?
		rm -rf "$r.esp" && cp -a "$r/boot/efi" "$r.esp" || exit 1
		exit $rc' sh "$@"
}

# 2.-4. system NAME LOADER: the root in $W/NAME/root, the disk $W/NAME/disk.img
system() {
	S=$W/$1
	L=$2
	R=$S/root
	mkdir -p "$R"
	tar --numeric-owner -xpf "$RT" -C "$R" || return 1
	KV=$(find "$R/boot" -maxdepth 1 -name 'vmlinuz-*' | sed 's|.*/vmlinuz-||' | head -n 1)
	echo "$KV" >"$S/kver"
	# the root's UUID and the ESP's serial chosen here: the line and fstab
	# name them before the file systems are made
	ruuid=$(cat /proc/sys/kernel/random/uuid)
	echo "$ruuid" >"$S/ruuid"
	echo boottrace-journey >"$R/etc/hostname"
	# not a first boot (systemd-firstboot would prompt on the console)
	tr -d - </proc/sys/kernel/random/uuid >"$R/etc/machine-id"
	printf 'UUID=%s / ext4 rw,errors=remount-ro 0 0\nUUID=B007-ACE5 /boot/efi vfat umask=0077 0 0\n' \
		"$ruuid" >"$R/etc/fstab"
	mkdir -p "$R/boot/efi" "$R.esp" "$R/etc/journey" "$R/usr/local/sbin"
	echo "$L" >"$R/etc/journey/loader"
	cp tests/e2e/journey/journey-step "$R/usr/local/sbin/" && chmod 0755 "$R/usr/local/sbin/journey-step"
	cp tests/e2e/journey/journey.service "$R/etc/systemd/system/"
	in_root "$R" systemctl enable journey.service >"$S/enable.log" 2>&1 || return 1
	line="root=UUID=$ruuid ro console=ttyS0 panic=-1"
	echo "$line" >"$S/line"
	case $L in
	systemd-boot)
		echo "$line" >"$R/etc/kernel/cmdline"
		# bond0 from a .netdev: systemd-networkd makes it by netlink
		mkdir -p "$R/etc/systemd/network"
		printf '[NetDev]\nName=bond0\nKind=bond\n' >"$R/etc/systemd/network/bond0.netdev"
		in_root "$R" systemctl enable systemd-networkd.service >>"$S/enable.log" 2>&1 || return 1
		in_root "$R" bootctl install --esp-path=/boot/efi --no-variables >"$S/bootctl.log" 2>&1 ||
			{ echo "# bootctl install failed: $(tail -n 3 "$S/bootctl.log")"; return 1; }
		in_root "$R" kernel-install add "$KV" "/boot/vmlinuz-$KV" "/boot/initrd.img-$KV" >"$S/kernel-install.log" 2>&1 ||
			{ echo "# kernel-install failed: $(tail -n 3 "$S/kernel-install.log")"; return 1; }
		;;
	grub)
		sed -i -e 's/^GRUB_TIMEOUT=.*/GRUB_TIMEOUT=0/' \
			-e 's/^GRUB_CMDLINE_LINUX_DEFAULT=.*/GRUB_CMDLINE_LINUX_DEFAULT="console=ttyS0 panic=-1"/' \
			"$R/etc/default/grub"
		# bonding loaded by systemd-modules-load, max_bonds=1: the module makes bond0
		echo bonding >"$R/etc/modules-load.d/bonding.conf"
		# (modprobe reads /etc and /lib's modprobe.d in the order of the
		# files' names, the last max_bonds= wins: after systemd.conf's 0)
		echo 'options bonding max_bonds=1' >"$R/etc/modprobe.d/zz-bonding.conf"
		;;
	esac
	# the user's download, installed as README.md says
	cp "$D"/*.deb "$R/tmp/"
	in_root "$R" sh -c 'cd /tmp && apt-get install -y ./boottrace_*.deb ./boottrace-initramfs-tools_*.deb' \
		>"$S/apt.log" 2>&1
	echo $? >"$S/apt.rc"
	rm -f "$R"/tmp/*.deb
	# the ESP's files into their FAT image
	mkfs.vfat -C -i B007ACE5 -n ESP "$S/esp.img" $((128 * 1024)) >"$S/mkfs.log" 2>&1 || return 1
	if [ -n "$(ls -A "$R.esp")" ]; then
		(cd "$R.esp" && mcopy -i "$S/esp.img" -s -p -Q ./* ::/) >"$S/mcopy.log" 2>&1 || return 1
	fi
	rm -rf "$R.esp"
	sz=$(du -sm "$R" | cut -f1)
	rsz=$((sz + sz / 3 + 256))
	mkfs.ext4 -q -U "$ruuid" -L root -d "$R" "$S/root.img" "${rsz}M" >"$S/mkfs.log" 2>&1 || return 1
	# the kernel and the initramfs the trigger built, for GRUB's setup boot
	cp "$R/boot/vmlinuz-$KV" "$R/boot/initrd.img-$KV" "$S/"
	rm -rf "$R"
	# GPT: ESP at 1 MiB, the root after it
	esp_s=2048
	root_s=$((esp_s + 128 * 2048))
	printf 'label: gpt\nstart=%s, size=%s, type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B, name=ESP\nstart=%s, size=%s, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4, name=root\n' \
		"$esp_s" $((128 * 2048)) "$root_s" $((rsz * 2048)) >"$S/gpt"
	truncate -s $(((root_s + rsz * 2048 + 2048) * 512)) "$S/disk.img"
	sfdisk -q "$S/disk.img" <"$S/gpt" >"$S/sfdisk.log" 2>&1 || return 1
	dd if="$S/esp.img" of="$S/disk.img" bs=1M seek=1 conv=notrunc,sparse status=none &&
		dd if="$S/root.img" of="$S/disk.img" bs=1M seek=$((root_s / 2048)) conv=notrunc,sparse status=none || return 1
	rm -f "$S/esp.img" "$S/root.img"
	echo $((esp_s * 512)) >"$S/esp.off"
	echo $((root_s * 512)) >"$S/root.off"
}
# shellcheck disable=SC2317 # called below
# the root partition's ext4 and the ESP read in place, in the disk image
rootfs() { echo "$S/disk.img?offset=$(cat "$S/root.off")"; }
esp() { echo "$S/disk.img@@$(cat "$S/esp.off")"; }

# shellcheck disable=SC2317 # called below
# QEMU NAME: OVMF + the disk, every boot of the journey; the guest powers off
journey_qemu() {
	S=$W/$1
	cp "$VARS" "$S/vars.fd"
	t1=$(date +%s)
	progress_run -o "$S/qemu.log" -t "$S/serial.log" "$1: OVMF, three boots (tcg)" \
		timeout 2400 qemu-system-x86_64 -M q35 -accel tcg -m 1024 -smp 1 -display none \
		-monitor none -serial "file:$S/serial.log" -nic none \
		-drive "if=pflash,format=raw,readonly=on,file=$CODE" \
		-drive "if=pflash,format=raw,file=$S/vars.fd" \
		-drive "file=$S/disk.img,format=raw,if=virtio"
	echo $? >"$S/qemu.rc"
	echo "$(($(date +%s) - t1))" >"$S/qemu.s"
}
# shellcheck disable=SC2317 # called below
# the GRUB system's setup boot: the root's kernel and initramfs, direct
setup_qemu() {
	S=$W/$1
	KV=$(cat "$S/kver")
	t1=$(date +%s)
	progress_run -o "$S/setup-qemu.log" -t "$S/setup-serial.log" "$1: setup boot, grub-install (tcg)" \
		timeout 1200 qemu-system-x86_64 -M pc -accel tcg -m 1024 -smp 1 -display none \
		-monitor none -serial "file:$S/setup-serial.log" -nic none -no-reboot \
		-kernel "$S/vmlinuz-$KV" -initrd "$S/initrd.img-$KV" \
		-drive "file=$S/disk.img,format=raw,if=virtio" \
		-append "$(cat "$S/line") journey.setup=1"
	echo $? >"$S/setup.rc"
	echo "$(($(date +%s) - t1))" >"$S/setup.s"
}

# grab NAME: what the guest left in /var/lib/journey, and the ESP's loader/
grab() {
	S=$W/$1
	rm -rf "$S/out"
	mkdir -p "$S/out/esp"
	debugfs -R "rdump /var/lib/journey $S/out" "$(rootfs)" >"$S/debugfs.log" 2>&1
	debugfs -R "rdump /var/lib/boottrace $S/out" "$(rootfs)" >>"$S/debugfs.log" 2>&1
	mcopy -i "$(esp)" -s -n ::/loader ::/EFI "$S/out/esp/" >"$S/mcopy-out.log" 2>&1
}

t1=$(date +%s)
built=
for sys in sdboot:systemd-boot grub:grub; do
	sn=${sys%%:*}
	if system "$sn" "${sys#*:}" >"$W/$sn.build.log" 2>&1; then
		ok "$sn: the root, the packages installed, the loader, the disk image ($(el "$t1"))"
		built="$built $sn"
	else
		sed 's/^/#   /' "$W/$sn.build.log"
		nok "$sn: the root, the packages installed, the loader, the disk image"
	fi
	t "$sn: apt-get install ./boottrace_*.deb ./boottrace-initramfs-tools_*.deb in the root" grep -qx 0 "$W/$sn/apt.rc"
	t "$sn: the initramfs-tools trigger rebuilt the image (apt's log)" \
		grep -q '^update-initramfs: Generating /boot/initrd.img-' "$W/$sn/apt.log"
	t1=$(date +%s)
done
[ -n "$built" ] || finish
S=$W/sdboot
KV=$(cat "$S/kver")
mcopy -i "$(esp)" -s -n ::/loader "$S/" >/dev/null 2>&1
ent=$(ls "$S/loader/entries" 2>/dev/null)
echo "# sdboot: loader entries on the ESP: $ent"
t "sdboot: kernel-install's entry for $KV on the ESP" sh -c "[ \"\$(ls '$S/loader/entries' | grep -c -- '-$KV.conf\$')\" = 1 ]"
mid=${ent%%-"$KV".conf}
mcopy -i "$(esp)" -n "::/$mid/$KV/initrd.img-$KV" "$S/esp-initrd" >/dev/null 2>&1
t "sdboot: the ESP's initramfs is the one the trigger rebuilt: it holds boottrace's hook" \
	sh -c "lsinitramfs '$S/esp-initrd' | grep -qx scripts/init-top/boottrace"
t "grub: /boot/initrd.img-$KV holds boottrace's hook" \
	sh -c "lsinitramfs '$W/grub/initrd.img-$KV' | grep -qx scripts/init-top/boottrace"

# the two systems at once: GRUB's lane is its setup boot, then the journey
t1=$(date +%s)
journey_qemu sdboot &
p1=$!
{ setup_qemu grub && journey_qemu grub; } &
p2=$!
wait "$p1" "$p2"
echo "# QEMU: both systems in $(el "$t1") (sdboot $(cat "$W/sdboot/qemu.s") s; grub setup $(cat "$W/grub/setup.s") s, journey $(cat "$W/grub/qemu.s" 2>/dev/null) s)"
for sn in sdboot grub; do
	S=$W/$sn
	grab "$sn"
	tr -d '\r' <"$S/serial.log" 2>/dev/null | grep -a 'journey-step\[[0-9]*\]: journey: ' |
		sed "s/^.*journey-step\[[0-9]*\]: /# $sn: /"
done

S=$W/grub
O=$S/out/journey
t "grub: setup boot: grub-install --removable --no-nvram exit 0" grep -qx 0 "$O/grub-install.rc"
t "grub: setup boot: update-grub exit 0" grep -qx 0 "$O/update-grub.rc"
t "grub: the ESP has GRUB as the removable loader (EFI/BOOT/BOOTX64.EFI)" [ -s "$S/out/esp/EFI/BOOT/BOOTX64.EFI" ]

# check NAME: the journey's assertions for both systems
check() {
	cn=$1
	S=$W/$cn
	O=$S/out/journey
	[ -s "$O/boots" ] || tail -n 40 "$S/serial.log" 2>/dev/null | tr -d '\r' | sed "s/^/#   $cn serial: /"
	t "$cn: QEMU powered off by the guest (no timeout)" grep -qx 0 "$S/qemu.rc"
	t "$cn: three boots" grep -qx 3 "$O/boots"
	c1=$(cat "$O/cmdline.1" 2>/dev/null)
	c2=$(cat "$O/cmdline.2" 2>/dev/null)
	c3=$(cat "$O/cmdline.3" 2>/dev/null)
	# (printf: systemd-boot's initrd=\ID\... is no escape for echo)
	printf '# %s boot %s: %s\n' "$cn" 1 "$c1" "$cn" 2 "$c2" "$cn" 3 "$c3"
	sed "s/^/#   $cn ask: /" "$O/ask.out" 2>/dev/null
	for f in selected.1 selected.2 selected.3 arm-state.2 bond0.2 collect.show; do
		[ -s "$O/$f" ] && sed "s/^/#   $cn $f: /" "$O/$f"
	done
	t "$cn: boot 1: the normal line, no tracing words" sh -c "[ -n '$c1' ] && ! printf ' %s ' '$c1' | grep -q ' boottrace\.\| ftrace'"
	sed "s/^/#   $cn ask --dry-run: /" "$O/ask-dry.out" 2>/dev/null
	t "$cn: boot 1: ask --dry-run exit 0, nothing armed by it" \
		sh -c "grep -qx 0 '$O/ask-dry.rc' && ! grep -q present '$O/armed-dry.1'"
	t "$cn: boot 1: ask --dry-run: the arch, the running kernel's image, its .config, the line's limit" \
		sh -c "grep -q '^  architecture  x86_64 (uname)' '$O/ask-dry.out' &&
			grep -q '^  kernel        $KV, image /boot/vmlinuz-$KV' '$O/ask-dry.out' &&
			grep -q '^  .config       /boot/config-$KV' '$O/ask-dry.out' &&
			grep -q '^  command line  [0-9]* bytes at most (the setup header of /boot/vmlinuz-$KV)' '$O/ask-dry.out'"
	t "$cn: boot 1: ask --dry-run: the loader that booted it" \
		grep -q "^  bootloader    $([ "$cn" = sdboot ] && echo "systemd-boot: the EFI variable LoaderInfo says 'systemd-boot" || echo "grub: /boot/grub/grub.cfg is there")" "$O/ask-dry.out"
	t "$cn: boot 1: ask --dry-run: the hook in the initramfs, collect on the traced boot" \
		sh -c "grep -q '^  initramfs     /boot/initrd.img-$KV: the hook is in it' '$O/ask-dry.out' &&
			grep -q '^  collect       boottrace-collect.service runs on the traced boot only' '$O/ask-dry.out'"
	t "$cn: boot 1: boottrace ask who-creates bond0 exit 0" grep -qx 0 "$O/ask.rc"
	# (any boottrace.* word asks the hook in: compile adds boottrace.enable=1
	# only to a line without one, bootcfg/compile/route_cmdline.c)
	t "$cn: boot 2: the one-shot line: the function tracer, boottrace.ask=who-creates:bond0, boottrace.follow=1" \
		sh -c "printf ' %s ' '$c2' | grep -q ' ftrace=function ' && printf ' %s ' '$c2' | grep -q ' boottrace\.follow=1 ' &&
			printf ' %s ' '$c2' | grep -q ' boottrace\.ask=who-creates:bond0 '"
	t "$cn: boot 2: boottrace-collect.service ran and succeeded" \
		sh -c "grep -qx ActiveState=active '$O/collect.show' && grep -qx ExecMainStatus=0 '$O/collect.show'"
	t "$cn: boot 2: the packages' generator pulled boottrace-collect.service into multi-user.target" \
		grep -q 'boottrace-collect\.service' "$O/multi-user.deps"
	t "$cn: boot 2: collect put the loader's files back once the one-shot was taken (no arm-boot state)" \
		grep -qx absent "$O/arm-state.2"
	t "$cn: boot 2: bond0 exists" grep -q '^[0-9]*: bond0:' "$O/bond0.2"
	sed "s/^/#   $cn report: /" "$O/report.txt" "$O/report.err" 2>/dev/null
	t "$cn: boot 2: boottrace report exit 0" grep -qx 0 "$O/report.rc"
	t "$cn: boot 2: boottrace report -f json exit 0, and the JSON parses" \
		sh -c "grep -qx 0 '$O/report-json.rc' && jq -e . '$O/report.json'"
	t "$cn: boot 3: the normal line again (as boot 1's), no tracing words" \
		sh -c "[ -n '$c3' ] && [ '$c3' = '$c1' ] && ! printf ' %s ' '$c3' | grep -q ' boottrace\.\| ftrace'"
	t "$cn: boot 3: nothing armed (no /var/lib/boottrace/arm-boot)" grep -qx absent "$O/arm-state.3"
	t "$cn: boot 3: boottrace-collect.service not run on a normal boot" grep -qx ActiveState=inactive "$O/collect.show.3"
	t "$cn: boot 3: the loader's files as before boot 1's ask" cmp "$O/loader-state.1" "$O/loader-state.3"
	diff "$O/loader-state.1" "$O/loader-state.3" 2>/dev/null | sed "s/^/#   $cn loader state: /"
}
for sn in $built; do
	check "$sn"
done
O=$W/sdboot/out/journey
t "sdboot: boot 1 and boot 3 by kernel-install's entry, boot 2 by boottrace-oneshot.conf (LoaderEntrySelected)" \
	sh -c "grep -q -- '-$KV.conf\$' '$O/selected.1' && grep -qx boottrace-oneshot.conf '$O/selected.2' &&
		cmp '$O/selected.1' '$O/selected.3'"
# shellcheck disable=SC2016 # jq's
t "sdboot: the answer: bond0 registered by systemd-networkd by netlink, its lineage up to pid 1" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] | .who |
		select(.kind == "request" and .via == "netlink" and
			(.lineage[0].program | test("/systemd-networkd$")) and .lineage[-1].pid == 1)] | length > 0' \
	"$O/report.json"
t "sdboot: the text answer names systemd-networkd" grep -q 'systemd-networkd' "$O/report.txt"
O=$W/grub/out/journey
t "grub: the answer: bond0 registered by bonding's init, loaded by systemd-modules-load" \
	jqt '[.functions[] | select(.name == "register_netdevice") | .culprits[] | .who |
		select(.kind == "module" and .module == "bonding" and
			(.lineage[0].program | test("/systemd-modules-load$")))] | length > 0' \
	"$O/report.json"
t "grub: the text answer names systemd-modules-load" grep -q 'systemd-modules-load' "$O/report.txt"
echo "# total: $(el "$T0")"
finish
