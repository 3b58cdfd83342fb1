#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile input files for every verb (issue 15, class 7): FIFOs, devices,
# directories, directory loops, huge files. Each is refused or bounded with
# an error naming the file; nothing hangs (every run is under `timeout`),
# nothing reads without bound. util/readfile.c is the one opener.

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	BC="$B/bootconfig"
	D="$BATS_TEST_DIRNAME/../data"
	T="$BATS_TEST_TMPDIR"
	C="$D/example.bconf"
	printf 'ffffffff817b45f0 T register_netdevice\nffffffff82000000 T _sinittext\nffffffff82100000 T _einittext\n' >"$T/System.map"
	mkdir -p "$T/root" && echo '#!/bin/sh' >"$T/root/init"
	(cd "$T/root" && find . | cpio -o -H newc --quiet | gzip -9n) >"$T/initrd.img"
}

# run with a time bound: 124 (timeout's status) fails the caller's checks
trun() {
	run timeout 30 "$@"
}

@test "a FIFO nobody writes: every verb gives up after the documented wait, naming the FIFO" {
	mkfifo "$T/f"
	cp "$T/initrd.img" "$T/orig.img"
	# all at once: each waits RF_FIFO_WAIT (10 s) for a writer
	timeout 30 "$BT" compile "$T/f" >"$T/o1" 2>&1 </dev/null & p1=$!
	timeout 30 "$BT" check --system-map "$T/System.map" "$T/f" >"$T/o2" 2>&1 </dev/null & p2=$!
	timeout 30 "$BT" report "$T/f" >"$T/o3" 2>&1 </dev/null & p3=$!
	timeout 30 "$BT" check --system-map "$T/f" "$C" >"$T/o4" 2>&1 </dev/null & p4=$!
	timeout 30 "$BC" -a "$T/f" "$T/initrd.img" >"$T/o5" 2>&1 </dev/null & p5=$!
	s1=0 s2=0 s3=0 s4=0 s5=0
	wait $p1 || s1=$?; wait $p2 || s2=$?; wait $p3 || s3=$?; wait $p4 || s4=$?; wait $p5 || s5=$?
	for i in 1 2 3 4 5; do cat "$T/o$i"; done
	[ "$s1" -eq 1 ] && [ "$s2" -eq 1 ] && [ "$s3" -eq 1 ] && [ "$s4" -eq 1 ] && [ "$s5" -eq 1 ]
	for i in 1 2 3 4 5; do
		grep -q "^$T/f: error: is a FIFO that nothing wrote to in 10 s" "$T/o$i"
	done
	cmp "$T/initrd.img" "$T/orig.img"
}

@test "a FIFO where no stream belongs (vmlinux, kernel .config, initrd) is refused at once" {
	mkfifo "$T/f"
	trun "$BT" check --vmlinux "$T/f" "$C"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/f: error: is a FIFO, not a vmlinux or a kernel module: give a regular file" ]
	trun "$BT" check --system-map "$T/System.map" --kernel-config "$T/f" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/f: error: is a FIFO, not a kernel .config: give a regular file"* ]]
	trun "$BC" -l "$T/f"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/f: error: is a FIFO"* ]]
}

@test "a FIFO or pipe with a writer is still read (compile, report)" {
	trun "$BT" compile <(cat "$C")
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace=function"* ]]
	mkfifo "$T/f"
	(sleep 2; cat "$C" >"$T/f") &
	trun "$BT" compile "$T/f"
	[ "$status" -eq 0 ]
	[[ "$output" == *"ftrace=function"* ]]
}

@test "devices: /dev/zero and /dev/urandom are refused by name, not read" {
	for dev in /dev/zero /dev/urandom; do
		trun "$BT" compile "$dev"
		[ "$status" -eq 1 ]
		[ "$output" = "$dev: error: is a character device, not a config: give a regular file (or pipe the data to '-', standard input)" ]
		trun "$BT" check --system-map "$T/System.map" "$dev"
		[ "$status" -eq 1 ]
		[[ "$output" == *"$dev: error: is a character device, not a config"* ]]
		trun "$BT" report "$dev"
		[ "$status" -eq 1 ]
		[[ "$output" == *"$dev: error: is a character device, not a trace or a console log"* ]]
		trun "$BT" check --system-map "$T/System.map" --kernel-config "$dev" "$C"
		[ "$status" -eq 1 ]
		[[ "$output" == *"$dev: error: is a character device, not a kernel .config"* ]]
		trun "$BT" check --system-map "$dev" "$C"
		[ "$status" -eq 1 ]
		[[ "$output" == *"$dev: error: is a character device, not a System.map"* ]]
		trun "$BT" check --vmlinux "$dev" "$C"
		[ "$status" -eq 1 ]
		[[ "$output" == *"$dev: error: is a character device, not a vmlinux"* ]]
		trun "$BC" -a "$dev" "$T/initrd.img"
		[ "$status" -eq 1 ]
		[[ "$output" == *"$dev: error: is a character device, not a bootconfig"* ]]
	done
}

@test "standard input is a stream asked for: read up to the limit, then refused" {
	run timeout 30 sh -c '"$1" compile - </dev/zero' sh "$BT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the config is 32768 bytes or more"* ]]
	run timeout 30 sh -c '"$1" decompile - </dev/zero' sh "$BT"
	[ "$status" -eq 1 ]
	[[ "$output" == *"more than 65536 bytes"* ]]
}

@test "directories are refused as what they are, not as an I/O error" {
	mkdir -p "$T/dir"
	trun "$BT" compile "$T/dir"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/dir: error: is a directory, not a config: give a regular file (or pipe the data to '-', standard input)" ]
	trun "$BT" check --system-map "$T/System.map" --kernel-config "$T/dir" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/dir: error: is a directory, not a kernel .config: give a regular file"* ]]
	trun "$BT" check --vmlinux "$T/dir" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/dir: error: is a directory, not a vmlinux or a kernel module"* ]]
}

@test "huge files: refused by their size before they are read" {
	truncate -s 5G "$T/vmlinux"
	trun "$BT" check --vmlinux "$T/vmlinux" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/vmlinux: error: is 5368709120 bytes, more than a vmlinux or a kernel module may be (4294967296 bytes)"* ]]
	truncate -s 100M "$T/config"
	trun "$BT" check --system-map "$T/System.map" --kernel-config "$T/config" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/config: error: is 104857600 bytes, more than a kernel .config may be (16777216 bytes)"* ]]
	truncate -s 100M "$T/map"
	trun "$BT" check --system-map "$T/map" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/map: error: is 104857600 bytes, more than a System.map or kallsyms file may be (67108864 bytes)"* ]]
	# a config: the kernel's own limit, read no further than one byte past it
	truncate -s 2G "$T/big.bconf"
	trun "$BT" compile "$T/big.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the config is 32768 bytes or more"* ]]
}

@test "check --modules: directory loops are not followed; the walk ends" {
	mkdir -p "$T/mods/kernel/net"
	for i in 1 2 3 4 5 6; do ln -s .. "$T/mods/kernel/net/up$i"; done
	trun "$BT" check --system-map "$T/System.map" --modules "$T/mods" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/mods: error: no *.ko, *.ko.xz, *.ko.zst or *.ko.gz under this directory"* ]]
	# a module reached through the loop is read once, under its real path
	printf 'not elf' >"$T/mods/kernel/net/x.ko"
	trun "$BT" check --system-map "$T/System.map" --modules "$T/mods" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"$T/mods/kernel/net/x.ko: error: not an ELF file"* ]]
}

@test "check --modules: a tree deeper than a modules tree is refused" {
	p="$T/deep"
	for i in $(seq 1 20); do p="$p/d"; done
	mkdir -p "$p"
	trun "$BT" check --system-map "$T/System.map" --modules "$T/deep" "$C"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: more than 16 directories deep under $T/deep: not a modules tree"* ]]
}
