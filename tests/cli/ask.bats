#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# boottrace ask (docs/ask.md): what it learns of a machine, on fixture roots
# (--root DIR: proc/sys/kernel/arch and osrelease, boot/, EFI variables,
# GRUB's files, fw_env.config), one per loader and one with none; what it
# arms, with the loaders' real tools (grub-editenv, fw_printenv) and
# lsinitramfs (initramfs-tools-core) listing a real cpio archive. The whole
# journey on a booted Debian system is tests/e2e/journey.sh.

bats_require_minimum_version 1.5.0

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	T="$BATS_TEST_TMPDIR"
	D="$BATS_TEST_DIRNAME/../data"
	REL=6.1.0-99-amd64
	GUID=4a67b082-0a4c-41cf-b6c7-440b29bb8c4f
	# a machine: the kernel facts, the image (a small bzImage with 700
	# symbols, tests/unit/test_kimg.c), its .config, an initramfs with the hook
	R="$T/root"
	mkdir -p "$R/proc/sys/kernel" "$R/boot" "$R/run/systemd/system" \
		"$R/usr/lib/systemd/system-generators" "$R/usr/share/initramfs-tools/hooks"
	echo x86_64 >"$R/proc/sys/kernel/arch"
	echo "$REL" >"$R/proc/sys/kernel/osrelease"
	cp "$D/kimg/bzImage-lz4" "$R/boot/vmlinuz-$REL"
	{ cat "$D/kconfig/6.1-debian.config"
	  printf 'CONFIG_%s=y\n' HAVE_FUNCTION_TRACER STACKTRACE KPROBES; } >"$R/boot/config-$REL"
	initrd "$R/boot/initrd.img-$REL" with-hook
	: >"$R/usr/lib/systemd/system-generators/boottrace-generator"
	: >"$R/usr/share/initramfs-tools/hooks/boottrace"
	# net_func_0007_init is one of the image's functions
	Q=(who-calls net_func_0007_init)
}

# An initramfs (gzip'd newc cpio, as mkinitramfs writes one) at $1, with
# the hook's file in it when $2 is with-hook.
initrd() {
	local d="$T/initrd.d"
	rm -rf "$d"
	mkdir -p "$d/usr/lib/boottrace" "$d/scripts"
	echo '#!/bin/sh' >"$d/init"
	[ "$2" = with-hook ] && echo '# the core script' >"$d/usr/lib/boottrace/boottrace-snapshot.sh"
	(cd "$d" && find . | sort | cpio -o -H newc --quiet) | gzip -n >"$1"
}

# An EFI variable of systemd's as efivarfs shows it: attributes, UTF-16LE, NUL.
efivar() {
	mkdir -p "$R/sys/firmware/efi/efivars"
	{ printf '\007\000\000\000'; printf '%s\000' "$2" | iconv -f ASCII -t UTF-16LE; } \
		>"$R/sys/firmware/efi/efivars/$1-$GUID"
}

# systemd-boot: its ESP with two entries, and the variables it sets at boot
sdboot() {
	mkdir -p "$R/boot/efi/loader/entries"
	printf 'default rescue.conf\ntimeout 3\n' >"$R/boot/efi/loader/loader.conf"
	printf 'title Debian\nlinux /vmlinuz\noptions root=UUID=abcd ro quiet\n' >"$R/boot/efi/loader/entries/debian.conf"
	printf 'title Rescue\nlinux /vmlinuz\noptions root=UUID=abcd single\n' >"$R/boot/efi/loader/entries/rescue.conf"
	efivar LoaderInfo "systemd-boot 252.39-1~deb12u1"
	efivar LoaderEntrySelected debian.conf
}

grub() {
	mkdir -p "$R/boot/grub"
	cp "$D/arm-boot/grub.cfg" "$R/boot/grub/grub.cfg"
	grub-editenv "$R/boot/grub/grubenv" create
}

@test "ask --dry-run: a machine booted by systemd-boot: arch, kernel, image, .config, limit, loader and the entry it booted; the line merges into that entry's; nothing changes" {
	sdboot
	cp -a "$R" "$T/orig"
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"architecture  x86_64 (proc/sys/kernel/arch and osrelease under the root)"* ]]
	[[ "$output" == *"kernel        $REL, image $R/boot/vmlinuz-$REL"* ]]
	[[ "$output" == *".config       $R/boot/config-$REL"* ]]
	[[ "$output" == *"command line  2048 bytes at most (the setup header of $R/boot/vmlinuz-$REL)"* ]]
	[[ "$output" == *"bootloader    systemd-boot: the EFI variable LoaderInfo says 'systemd-boot 252.39-1~deb12u1'"* ]]
	[[ "$output" == *"it booted the entry debian.conf"* ]]
	[[ "$output" == *"initramfs     $R/boot/initrd.img-$REL: the hook is in it"* ]]
	[[ "$output" == *"collect       boottrace-collect.service runs on the traced boot only"* ]]
	[[ "$output" == *"The question: who calls net_func_0007_init?"* ]]
	# the booted entry's line (not loader.conf's default, rescue), the words after it
	[[ "$output" == *$'\n  root=UUID=abcd ro quiet ftrace=function ftrace_filter=net_func_0007_init '* ]]
	[[ "$output" == *"Dry run: nothing was changed."* ]]
	diff -r "$T/orig" "$R"
}

@test "ask --dry-run: GRUB from its grub.cfg when no loader says it booted; U-Boot from fw_env.config and fw_printenv" {
	grub
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bootloader    grub: /boot/grub/grub.cfg is there and no other loader said it booted"* ]]
	[[ "$output" == *"through grub's one-shot"* ]]
	# a LoaderInfo of another loader does not make it systemd-boot
	efivar LoaderInfo "rEFInd 0.14"
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bootloader    grub: "* ]]
	rm -rf "$R/boot/grub" "$R/sys"
	printf 'bootargs=console=ttyAMA0 root=/dev/vda1\nbootcmd=run distro_bootcmd\n' >"$T/env.txt"
	mkenvimage -s 0x4000 -o "$T/env.img" "$T/env.txt"
	mkdir -p "$R/etc"
	printf '%s 0x0 0x4000\n' "$T/env.img" >"$R/etc/fw_env.config"
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bootloader    uboot-env: /etc/fw_env.config is there and fw_printenv reads it"* ]]
	[[ "$output" == *$'\n  console=ttyAMA0 root=/dev/vda1 ftrace=function '* ]]
}

@test "ask: a machine with no known loader and no image is refused, naming each thing it could not tell and what to give" {
	rm -f "$R/boot/vmlinuz-$REL"
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"architecture  x86_64"* ]]
	[[ "$output" == *"kernel        $REL, image not found"* ]]
	[[ "$output" == *"error: cannot tell the bootloader (no EFI variable LoaderInfo"*"no /boot/grub/grub.cfg (GRUB); no /etc/fw_env.config (U-Boot's environment): give --loader LOADER, one of grub, uboot-env, systemd-boot)"* ]]
	[[ "$output" == *"the running kernel's image (no /boot/vmlinuz-$REL under $R"*"give --kernel IMAGE)"* ]]
	# --loader and --kernel are what it asked for
	grub
	run "$BT" ask --dry-run --root "$R" --loader grub --kernel "$D/kimg/bzImage-lz4" "${Q[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bootloader    grub: given with --loader"* ]]
	# fw_env.config without fw_printenv is not U-Boot's
	rm -rf "$R/boot/grub"
	mkdir -p "$R/etc" "$T/bin"
	: >"$R/etc/fw_env.config"
	ln -s "$(command -v iconv)" "$T/bin/iconv"
	run env PATH="$T/bin" "$BT" ask --dry-run --root "$R" --kernel "$D/kimg/bzImage-lz4" "${Q[@]}"
	[ "$status" -eq 1 ]
	[[ "$output" == *"/etc/fw_env.config is there but fw_printenv is not installed (libubootenv-tool)"* ]]
}

@test "ask: the question is checked against the running kernel's image; a function it lacks is refused before anything is armed" {
	sdboot
	run "$BT" ask --root "$R" who-creates bond0
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: ftrace filter 'register_netdevice' is not a function of this kernel"* ]]
	[ ! -e "$R/var/lib/boottrace/arm-boot" ]
	[ ! -e "$R/boot/efi/loader/entries/boottrace-oneshot.conf" ]
	run "$BT" ask --root "$R" who-calls
	[ "$status" -eq 2 ]
	[[ "$output" == *"ask who-creates DEV, who-calls FUNC, or CONFIG"* ]]
	# the machine is the board: there is no -b or -k to give
	run "$BT" ask --root "$R" -b qemu-x86_64 "${Q[@]}"
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown option -b; see --help"* ]]
}

@test "ask: the hook missing from the initramfs: --dry-run says it would be built again; without an installed hook it is refused, naming the package" {
	sdboot
	initrd "$R/boot/initrd.img-$REL" no-hook
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the hook is NOT in it: ask would build it again"* ]]
	# under --root the other system's generator is not run
	run "$BT" ask --root "$R" "${Q[@]}"
	[ "$status" -eq 1 ]
	[[ "$output" == *"initrd.img-$REL: error: has no boottrace hook: rebuild it inside that system (initramfs-tools)"* ]]
	rm "$R/usr/share/initramfs-tools/hooks/boottrace"
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	[ "$status" -eq 1 ]
	[[ "$output" == *"has no boottrace hook, and none is installed: install boottrace-initramfs-tools (or boottrace-dracut)"* ]]
	[ ! -e "$R/var/lib/boottrace/arm-boot" ]
}

@test "ask: without systemd or without the generator it says how the record will be collected" {
	sdboot
	rm "$R/usr/lib/systemd/system-generators/boottrace-generator"
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"collect       boottrace's systemd generator (boottrace-generator) is not installed"* ]]
	rm -r "$R/run/systemd"
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	[ "$status" -eq 0 ]
	[[ "$output" == *"collect       systemd does not run this system (no /run/systemd/system): after the reboot, run boottrace collect yourself"* ]]
}

@test "ask arms systemd-boot's one-shot from the booted entry; a second ask refuses, naming disarm-boot; disarm-boot puts every byte back" {
	sdboot
	cp -a "$R" "$T/orig"
	run "$BT" ask --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Armed. Reboot; after the boot, run:"*"boottrace report"* ]]
	grep -qx "title boottrace one-shot: Debian" "$R/boot/efi/loader/entries/boottrace-oneshot.conf"
	grep -q "^options root=UUID=abcd ro quiet ftrace=function ftrace_filter=net_func_0007_init " "$R/boot/efi/loader/entries/boottrace-oneshot.conf"
	[ -s "$R/sys/firmware/efi/efivars/LoaderEntryOneShot-$GUID" ]
	run "$BT" ask --dry-run --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: already armed ($R/var/lib/boottrace/arm-boot/armed exists): run boottrace disarm-boot first"* ]]
	run "$BT" disarm-boot --root "$R"
	[ "$status" -eq 0 ]
	# (the state's parent directories arm-boot made stay: they are not the user's files)
	rm -rf "$R/var"
	diff -r "$T/orig" "$R"
}

@test "ask arms GRUB's next_entry and custom.cfg entry from grub.cfg's line" {
	grub
	run "$BT" ask --root "$R" "${Q[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q "boottrace-oneshot" "$R/boot/grub/custom.cfg"
	[ "$(grub-editenv "$R/boot/grub/grubenv" list | grep next_entry)" = next_entry=boottrace-oneshot ]
}

@test "ask CONFIG: a config of one's own, compiled for the loader; --help names the three forms" {
	grub
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = net_func_0007_init\n' >"$T/mine.bconf"
	run "$BT" ask --dry-run --root "$R" "$T/mine.bconf"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"The question: the config $T/mine.bconf"* ]]
	run "$BT" ask --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"boottrace ask [--dry-run] [OPTIONS] who-creates DEV"* ]]
	[[ "$output" == *"who-calls FUNC [--arg NAME=FETCH]..."* ]]
	[[ "$output" == *"--dry-run"* ]]
}
