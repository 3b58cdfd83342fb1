#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# --kernel IMAGE (docs/kernel-image.md): the symbols of a kernel image's own
# kallsyms tables for check, compile --check and report, on a small bzImage
# made by tests/unit/test_kimg.c (tests/data/kimg/bzImage-lz4: an LZ4
# payload holding 700 symbols in the 6.1 layout). The real Debian images
# are tests/e2e/kallsyms.sh.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	IMG="$BATS_TEST_DIRNAME/../data/kimg/bzImage-lz4"
	T="$BATS_TEST_TMPDIR"
	printf 'ftrace.ftrace = function\nftrace.ftrace.filters = net_func_0007_init, local_helper_4, no_such_func\n' >"$T/c.bconf"
	printf 'ffffffffffffffff B The real System.map is in the linux-image-6.1.0-56-cloud-amd64-dbg package\n' >"$T/System.map"
}

@test "kernel-image: check --kernel reads the image's symbols, -v says from where" {
	run "$BT" check -v --kernel "$IMG" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bzImage-lz4: note: symbols from the image itself: x86 bzImage (boot protocol 2.15), lz4 payload at byte 2339; kallsyms: 700 symbols, 64-bit little-endian"* ]]
	[[ "$output" == *"note: net_func_0007_init found in vmlinux"* ]]
	[[ "$output" == *"did you mean local_helper_4.isra.0 (a compiler clone"* ]]
	[[ "$output" == *"error: ftrace filter 'no_such_func' is not a function of this kernel"* ]]
	[[ "$output" == *"check: 2 error(s)"* ]]
}

@test "kernel-image: Debian's placeholder System.map gives way to --kernel" {
	run "$BT" check --system-map "$T/System.map" --kernel "$IMG" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"System.map: note: Debian's placeholder System.map: the symbols come from --kernel"* ]]
	[[ "$output" == *"no_such_func' is not a function of this kernel"* ]]
	# without --kernel the placeholder is still the error it was
	run "$BT" check --system-map "$T/System.map" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a placeholder, not a symbol table"* ]]
}

@test "kernel-image: --root takes boot/vmlinuz-VER when it has no real symbols" {
	mkdir -p "$T/root/boot"
	cp "$IMG" "$T/root/boot/vmlinuz-6.1.0-test"
	cp "$T/System.map" "$T/root/boot/System.map-6.1.0-test"
	run "$BT" check -v --root "$T/root" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"vmlinuz-6.1.0-test: note: symbols from the image itself"* ]]
	[[ "$output" == *"no_such_func' is not a function of this kernel"* ]]
}

@test "kernel-image: compile --kernel IMAGE checks; --kernel VERSION is still -k" {
	run "$BT" compile -t cmdline -k 6.1 --kernel "$IMG" "$T/c.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no_such_func' is not a function of this kernel"* ]]
	printf 'ftrace.ftrace = function\nftrace.ftrace.filters = net_func_0007_init\n' >"$T/good.bconf"
	run "$BT" compile -t cmdline --kernel "$IMG" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace_filter=net_func_0007_init"* ]]
	# this small image has no table of boot parameters: said, not fatal
	[[ "$output" == *"boot parameters are not known; the words are checked against the version table only"* ]]
	run "$BT" compile -t cmdline --kernel 6.1 "$T/good.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace_filter=net_func_0007_init"* ]]
}

@test "kernel-image: --print-map writes the image's symbols as System.map text" {
	run "$BT" check --kernel "$IMG" --print-map
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 700 ]
	[ "${lines[0]}" = "0000000000000000 D pcpu_var_0" ]
	[ "${lines[4]}" = "ffffffff81000080 t local_helper_4.isra.0" ]
	[ "${lines[699]}" = "ffffffff81105760 W __weak_hook_699" ]
	run "$BT" check --print-map "$T/c.bconf"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--print-map prints the symbols of --kernel IMAGE"* ]]
}

@test "kernel-image: --print-functions and --print-events say when the image does not tell" {
	# this small image has no __start_mcount_loc or __start_ftrace_events
	# (a kernel without CONFIG_KALLSYMS_ALL); tests/unit/test_kimg_lists.c
	# reads both, tests/e2e/try.sh compares them with a booted kernel's
	run "$BT" check --kernel "$IMG" --print-functions
	[ "$status" -eq 1 ]
	[[ "$output" == *"bzImage-lz4: error: its call sites are not known (no __start_mcount_loc symbol, and no run of text addresses long enough to be their array), so neither are its traceable functions: give --vmlinux"* ]]
	run "$BT" check --kernel "$IMG" --print-events
	[ "$status" -eq 1 ]
	[[ "$output" == *"bzImage-lz4: error: its trace events are not known"*"CONFIG_KALLSYMS_ALL"* ]]
	run "$BT" check --kernel "$IMG" --print-events --print-functions
	[ "$status" -eq 2 ]
	[[ "$output" == *"give one of them"* ]]
	run "$BT" check --kernel "$IMG" --print-events "$T/c.bconf"
	[ "$status" -eq 2 ]
	run "$BT" check --system-map "$T/System.map" --print-events
	[ "$status" -eq 2 ]
	[[ "$output" == *"--print-events needs the image"* ]]
}

@test "kernel-image: what is no kernel image is refused with the file and what to do" {
	run "$BT" check --kernel /dev/zero --print-map
	[ "$status" -eq 1 ]
	[[ "$output" == *"/dev/zero: error: is a character device, not a kernel image"* ]]
	printf 'just text\n' >"$T/text"
	run "$BT" check --kernel "$T/text" --print-map
	[ "$status" -eq 1 ]
	[[ "$output" == *"text: error: no kallsyms table in the 10 unpacked bytes"*"give the System.map or vmlinux instead"* ]]
	# a bzImage whose payload is bzip2: named, with its byte offset
	head -c 2339 "$IMG" >"$T/bz2"
	printf 'BZh91AY&SY0123456789abcdef' >>"$T/bz2"
	printf '\x1a\x00\x00\x00' | dd of="$T/bz2" bs=1 seek=588 conv=notrunc 2>/dev/null
	run "$BT" check --kernel "$T/bz2" --print-map
	[ "$status" -eq 1 ]
	[[ "$output" == *"byte 2339: the kernel is compressed with bzip2, which is not read here"* ]]
	# a payload cut short
	head -c 6000 "$IMG" >"$T/short"
	run "$BT" check --kernel "$T/short" --print-map
	[ "$status" -eq 1 ]
	[[ "$output" == *"short: error: byte 584: the setup header's payload"*"cut short or damaged"* ]]
}

@test "kernel-image: report --kernel excludes --system-map and --kallsyms" {
	printf 'x\n' >"$T/in"
	run "$BT" report --kernel "$IMG" --system-map "$T/System.map" "$T/in"
	[ "$status" -eq 2 ]
	[[ "$output" == *"--kernel, --system-map and --kallsyms exclude each other"* ]]
}

@test "kernel-image: report --kernel names raw frame addresses from the image" {
	printf '# tracer: function\n#\n         busybox-92      [000] .....     2.406358: register_netdevice <-bond_create\n         busybox-92      [000] .....     2.406534: <stack trace>\n => 0xffffffff810000a8\n => register_netdevice\n => bond_create\n' >"$T/r.trace"
	run "$BT" report -v --kernel "$IMG" "$T/r.trace"
	[ "$status" -eq 0 ]
	[[ "$output" == *"bzImage-lz4: note: symbols from the image itself: x86 bzImage"* ]]
	[[ "$output" == *"1 raw frame addresses were resolved with the symbol table"* ]]
	run "$BT" report "$T/r.trace"
	[[ "$output" != *"raw frame addresses were resolved"* ]]
}
