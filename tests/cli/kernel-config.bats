#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --kernel IMAGE without --kernel-config (docs/kernel-image.md): the .config
# the image keeps itself (CONFIG_IKCONFIG), else its configs.ko's
# (CONFIG_IKCONFIG=m), else config-RELEASE beside it,
# else a note; and the command-line size of a bzImage's setup header. On
# small bzImages made by tests/unit/test_kimg.c: tests/data/kimg/bzImage-ikconfig
# (700 symbols, the banner of 6.1.0-99-test, a .config with CONFIG_BOOT_CONFIG=y
# and CONFIG_KPROBE_EVENTS unset embedded) and bzImage-lz4 (no banner, no
# .config); both have cmdline_size 2047. Debian's real image is
# tests/e2e/kallsyms.sh.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	D="$BATS_TEST_DIRNAME/../data/kimg"
	IKC="$D/bzImage-ikconfig"
	T="$BATS_TEST_TMPDIR"
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = net_func_0007_init\n' >"$T/good.bconf"
	printf 'ftrace.event.kprobes.p.probes = net_func_0007_init\nftrace.event.kprobes.p.enable\n' >"$T/kp.bconf"
}

# cmdline_size (4 bytes, little-endian, at byte 0x238) of a copy of IMAGE set to N
patch_cmdline_size() { # IMAGE N OUT
	cp "$1" "$3"
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($2 & 255)) $(($2 >> 8 & 255)) $(($2 >> 16 & 255)) $(($2 >> 24 & 255)))" |
		dd of="$3" bs=1 seek=$((0x238)) conv=notrunc status=none
}

@test "kernel-config: compile --kernel IMAGE takes the image's own .config (IKCONFIG), -v says so" {
	run "$BT" compile -v -t cmdline --kernel "$IKC" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"kernel config: embedded in $IKC (IKCONFIG, "*" bytes from byte "*" of the unpacked kernel), of 6.1.0"* ]]
	[[ "$output" == *"ftrace=function ftrace_filter=net_func_0007_init"* ]]
	# the version is the embedded .config's header's: no "version checks are skipped"
	[[ "$output" != *"kernel version checks are skipped"* ]]
	# what the embedded .config leaves unset is refused, naming it
	run "$BT" compile -t cmdline --kernel "$IKC" "$T/kp.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a kprobe event needs CONFIG_KPROBE_EVENTS, which the .config embedded in $IKC does not set"* ]]
	# the same config without the image compiles: nothing else refused it
	run "$BT" compile -t cmdline -k 6.1 "$T/kp.bconf"
	[ "$status" -eq 0 ]
}

@test "kernel-config: check --kernel IMAGE takes the image's own .config too" {
	run "$BT" check -v --kernel "$IKC" "$T/kp.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"kernel config: embedded in $IKC (IKCONFIG"* ]]
	[[ "$output" == *"a kprobe event needs CONFIG_KPROBE_EVENTS, which the .config embedded in $IKC does not set"* ]]
}

@test "kernel-config: an explicit --kernel-config wins; another release than the embedded one is said" {
	printf '# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_KPROBES=y\nCONFIG_KPROBE_EVENTS=y\n' >"$T/same.config"
	run "$BT" compile -v -t cmdline --kernel "$IKC" --kernel-config "$T/same.config" "$T/kp.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"kernel config: --kernel-config $T/same.config (the image's embedded one is of the same release)"* ]]
	printf '# Linux/x86 6.6.0 Kernel Configuration\nCONFIG_KPROBES=y\nCONFIG_KPROBE_EVENTS=y\n' >"$T/other.config"
	run "$BT" compile -t cmdline --kernel "$IKC" --kernel-config "$T/other.config" "$T/kp.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$IKC: note: --kernel-config $T/other.config is the .config of 6.6.0, the one embedded in the image (IKCONFIG) of 6.1.0: --kernel-config is used"* ]]
}

@test "kernel-config: without IKCONFIG, config-RELEASE beside the image (release from the banner or the file name)" {
	mkdir "$T/boot"
	# no banner in bzImage-lz4: the release is its file name's
	cp "$D/bzImage-lz4" "$T/boot/vmlinuz-6.1.0-77-test"
	printf '# Linux/x86 6.1.0 Kernel Configuration\n# CONFIG_BOOT_CONFIG is not set\nCONFIG_FTRACE=y\nCONFIG_HAVE_FUNCTION_TRACER=y\nCONFIG_FUNCTION_TRACER=y\nCONFIG_DYNAMIC_FTRACE=y\n' >"$T/boot/config-6.1.0-77-test"
	run "$BT" compile -t bootconfig --kernel "$T/boot/vmlinuz-6.1.0-77-test" "$T/good.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"note: kernel config: $T/boot/config-6.1.0-77-test beside the image (release 6.1.0-77-test, from its file name; the image keeps no .config of its own)"* ]]
	[[ "$output" == *"CONFIG_BOOT_CONFIG is not set in $T/boot/config-6.1.0-77-test"* ]]
	# no such file beside it: said, with what is skipped
	rm "$T/boot/config-6.1.0-77-test"
	run "$BT" compile -t cmdline --kernel "$T/boot/vmlinuz-6.1.0-77-test" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: no kernel config found: the image keeps none (no IKCONFIG) and there is no $T/boot/config-6.1.0-77-test beside it: the checks against its CONFIG_ options (bootconfig support, tracers, kprobe events) are skipped; give --kernel-config FILE"* ]]
	run "$BT" check --kernel "$D/bzImage-lz4" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"no kernel config found: the image keeps none (no IKCONFIG) and names no release"*"the checks of what the settings need of the .config (CONFIG_ options) are skipped"* ]]
}

@test "kernel-config: CONFIG_IKCONFIG=m: the .config kept in configs.ko of the modules tree next to /boot" {
	# a module as kernel/configs.c builds it: the gzip'd .config between
	# IKCFG_ST and IKCFG_ED in its data (objcopy makes the ELF object)
	mkdir -p "$T/boot" "$T/lib/modules/6.1.0-77-test/kernel/kernel" "$T/m"
	cp "$D/bzImage-lz4" "$T/boot/vmlinuz-6.1.0-77-test"
	printf '# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_KPROBES=y\n# CONFIG_KPROBE_EVENTS is not set\n' | gzip -9n >"$T/m/cfg.gz"
	{ printf 'IKCFG_ST'; cat "$T/m/cfg.gz"; printf 'IKCFG_ED'; } >"$T/m/data"
	(cd "$T/m" && objcopy -I binary -O elf64-x86-64 data configs.ko)
	xz -c "$T/m/configs.ko" >"$T/lib/modules/6.1.0-77-test/kernel/kernel/configs.ko.xz"
	# a config-RELEASE beside the image too: the module's is the kernel's own, it wins
	printf '# Linux/x86 6.1.0 Kernel Configuration\nCONFIG_KPROBES=y\nCONFIG_KPROBE_EVENTS=y\n' >"$T/boot/config-6.1.0-77-test"
	run "$BT" check --kernel "$T/boot/vmlinuz-6.1.0-77-test" "$T/kp.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"note: kernel config: kept in the module $T/boot/../lib/modules/6.1.0-77-test/kernel/kernel/configs.ko.xz (CONFIG_IKCONFIG=m; the image keeps none itself), of 6.1.0"* ]]
	[[ "$output" == *"a kprobe event needs CONFIG_KPROBE_EVENTS, which the .config kept in $T/boot/../lib/modules/6.1.0-77-test/kernel/kernel/configs.ko.xz does not set"* ]]
	# a configs.ko that keeps none: the file beside the image
	xz -c "$T/m/cfg.gz" >"$T/lib/modules/6.1.0-77-test/kernel/kernel/configs.ko.xz"
	run "$BT" check --kernel "$T/boot/vmlinuz-6.1.0-77-test" "$T/kp.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"kernel config: $T/boot/config-6.1.0-77-test beside the image"* ]]
}

@test "kernel-config: a damaged embedded .config is an error naming the byte" {
	# the gzip stream's first deflate bytes after the marker, spoiled
	gzip -dc <(tail -c +2340 "$IKC") >"$T/kernel" 2>/dev/null || true
	at=$(grep -abo IKCFG_ST "$T/kernel" | cut -d: -f1)
	[ -n "$at" ]
	printf '\377\377\377\377\377\377' | dd of="$T/kernel" bs=1 seek=$((at + 18)) conv=notrunc status=none
	run "$BT" compile -t cmdline --kernel "$T/kernel" "$T/good.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/kernel: error: byte "*" of the unpacked kernel: the embedded .config (IKCONFIG) is a gzip stream that is corrupt: the image is damaged; give the kernel's .config as --kernel-config"* ]]
}

@test "kernel-config: the command-line size of the image's setup header replaces the board's, -v says from where" {
	run "$BT" compile -v -t cmdline -b qemu-x86_64 --kernel "$IKC" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"route: command-line size 2048 from the image's setup header (cmdline_size 2047 at byte 568 of $IKC)"* ]]
	[[ "$output" != *"board qemu-x86_64 says COMMAND_LINE_SIZE"* ]]
	# a board of another figure: a note, and the image's is used
	run "$BT" compile -t cmdline -b rpi4 --kernel "$IKC" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$IKC: note: the kernel takes 2047 bytes of command line (its setup header's cmdline_size, the NUL not counted), board rpi4 says COMMAND_LINE_SIZE 1024: the image's 2048 is used"* ]]
	# an image taking 60 bytes: a longer line is refused, naming the header
	patch_cmdline_size "$IKC" 60 "$T/small"
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = net_func_0007_init, net_func_0014_init, local_helper_4*\n' >"$T/long.bconf"
	run "$BT" compile -t cmdline --kernel "$T/small" "$T/long.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"but the kernel keeps at most 60 (COMMAND_LINE_SIZE 61, from the setup header of $T/small)"* ]]
	# the same line with the board's 2048 passes
	run "$BT" compile -t cmdline --kernel "$IKC" "$T/long.bconf"
	[ "$status" -eq 0 ]
}

@test "kernel-config: an image without a setup header keeps the board's command-line size, -v says so" {
	gzip -dc <(tail -c +2340 "$IKC") >"$T/kernel" 2>/dev/null || true
	run "$BT" compile -v -t cmdline -b qemu-x86_64 --kernel "$T/kernel" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"route: command-line size 2048 from board qemu-x86_64 ($T/kernel: no x86 setup header with cmdline_size in it)"* ]]
}
