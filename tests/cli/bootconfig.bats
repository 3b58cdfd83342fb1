#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The bootconfig verb and the `bootconfig` symlink, from the outside.

setup() {
	# BT_BUILD: another build of the same binary (make check also runs
	# these tests on the ASan+UBSan one).
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	BC="$B/bootconfig"
	T="$BATS_TEST_TMPDIR"
	printf 'kernel.ftrace = function\nftrace.tracer = function\nftrace {\n\toptions = sym-addr, "a b"\n}\n' > "$T/good.bconf"
	# A real initrd: a newc cpio archive, gzip-compressed.
	mkdir -p "$T/root/bin" && echo '#!/bin/sh' > "$T/root/init"
	(cd "$T/root" && find . | cpio -o -H newc --quiet | gzip -9n) > "$T/initrd.img"
	cp "$T/initrd.img" "$T/orig.img"
}

@test "--version and --help" {
	run "$BT" --version
	[ "$status" -eq 0 ]
	[[ "$output" == "boottrace "* ]]
	run "$BT" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"bootconfig"* ]]
	run "$BT" bootconfig --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"Usage: bootconfig"* ]]
}

@test "usage errors exit 2" {
	run "$BT" bootconfig
	[ "$status" -eq 2 ]
	[[ "$output" == *"no initrd is specified"* ]]
	run "$BT" bootconfig -a x -d y
	[ "$status" -eq 2 ]
	run "$BT" nosuchverb
	[ "$status" -eq 2 ]
}

@test "show a config file as a compact tree and as a list" {
	run "$BC" "$T/good.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'kernel.ftrace = "function";\nftrace {\n\ttracer = "function";\n\toptions = "sym-addr", "a b";\n}')" ]
	run "$BC" -l "$T/good.bconf"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'kernel.ftrace = "function"\nftrace.tracer = "function"\nftrace.options = "sym-addr", "a b"')" ]
}

@test "the symlink and the verb behave the same" {
	a=$("$BC" -l "$T/good.bconf")
	b=$("$BT" bootconfig -l "$T/good.bconf")
	[ "$a" = "$b" ]
}

@test "a parse error is one line FILE:LINE:COL: error: TEXT, exit 1" {
	printf 'a = 1\nb = "open\n' > "$T/bad.bconf"
	run "$BC" "$T/bad.bconf"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/bad.bconf:3:1: error: No closing quotes" ]
	printf '# nothing\n' > "$T/empty.bconf"
	run "$BC" "$T/empty.bconf"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/empty.bconf:1:1: error: Empty config" ]
}

@test "a missing file is one clear error line" {
	run "$BC" "$T/nope"
	[ "$status" -ge 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "$T/nope: error: "*"No such file or directory"* ]]
}

@test "apply, show, re-apply, delete: the initrd comes back byte for byte" {
	run "$BC" -a "$T/good.bconf" "$T/initrd.img"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "Apply $T/good.bconf to $T/initrd.img" ]
	[ "${lines[1]}" = "$(printf '\tNumber of nodes: 9')" ]
	size=$(stat -c %s "$T/initrd.img")
	[ $((size % 4)) -eq 0 ]
	tail -c 12 "$T/initrd.img" | grep -q '#BOOTCONFIG'
	run "$BC" -l "$T/initrd.img"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'kernel.ftrace = "function"' ]
	# re-applying replaces the old config instead of stacking a second one
	run "$BC" -a "$T/good.bconf" "$T/initrd.img"
	[ "$(stat -c %s "$T/initrd.img")" -eq "$size" ]
	run "$BC" -d "$T/initrd.img"
	[ "$status" -eq 0 ]
	cmp "$T/initrd.img" "$T/orig.img"
	# deleting when there is nothing is fine and changes nothing
	run "$BC" -d "$T/initrd.img"
	[ "$status" -eq 0 ]
	cmp "$T/initrd.img" "$T/orig.img"
}

@test "apply keeps the mode and a symlink, and leaves no temp file" {
	chmod 0640 "$T/initrd.img"
	ln -s initrd.img "$T/link.img"
	run "$BC" -a "$T/good.bconf" "$T/link.img"
	[ "$status" -eq 0 ]
	[ -L "$T/link.img" ]
	[ "$(stat -c %a "$T/initrd.img")" = 640 ]
	[ -z "$(ls -A "$T" | grep boottrace)" ]
}

@test "a bad config is refused before the initrd is touched" {
	printf 'a = 1\na = 2\n' > "$T/redef.bconf"
	run "$BC" -a "$T/redef.bconf" "$T/initrd.img"
	[ "$status" -eq 1 ]
	[ "$output" = "$T/redef.bconf:2:5: error: Value is redefined" ]
	cmp "$T/initrd.img" "$T/orig.img"
}

@test "a file that is not an initrd is refused unless --force" {
	head -c 40000 /dev/zero | tr '\0' 'x' > "$T/notinitrd"
	cp "$T/notinitrd" "$T/notinitrd.orig"
	run "$BC" -a "$T/good.bconf" "$T/notinitrd"
	[ "$status" -eq 1 ]
	[[ "$output" == *"not an initrd"* ]]
	cmp "$T/notinitrd" "$T/notinitrd.orig"
	run "$BC" "$T/notinitrd"
	[ "$status" -eq 1 ]
	run "$BC" --force -a "$T/good.bconf" "$T/notinitrd"
	[ "$status" -eq 0 ]
	run "$BC" -d "$T/notinitrd"
	cmp "$T/notinitrd" "$T/notinitrd.orig"
}

@test "an initrd without bootconfig shows nothing and succeeds, as the kernel tool" {
	head -c 50000 /dev/urandom >> "$T/initrd.img"
	run "$BC" "$T/initrd.img"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "a corrupt footer is one error line and nothing changes" {
	"$BC" -a "$T/good.bconf" "$T/initrd.img" >/dev/null
	size=$(stat -c %s "$T/initrd.img")
	# flip one byte of the config text: checksum mismatch
	printf 'X' | dd of="$T/initrd.img" bs=1 seek=$((size - 40)) conv=notrunc 2>/dev/null
	cp "$T/initrd.img" "$T/corrupt.img"
	for args in "" "-l" "-d" "-a $T/good.bconf"; do
		run "$BC" $args "$T/initrd.img"
		[ "$status" -eq 1 ]
		[ "${#lines[@]}" -le 6 ]
		[[ "$output" == *"$T/initrd.img: byte "*"error: "*"checksum"* ]]
		cmp "$T/initrd.img" "$T/corrupt.img"
	done
	# a size field pointing before the file start
	printf '\xff\xff\xff\x7f' | dd of="$T/initrd.img" bs=1 seek=$((size - 20)) conv=notrunc 2>/dev/null
	run "$BC" "$T/initrd.img"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: "* ]]
}

@test "a truncated footer is not taken for a bootconfig" {
	head -c 40000 /dev/urandom >> "$T/initrd.img"
	"$BC" -a "$T/good.bconf" "$T/initrd.img" >/dev/null
	truncate -s -1 "$T/initrd.img"
	run "$BC" -d "$T/initrd.img"
	[ "$status" -eq 0 ]
	run "$BC" -l "$T/initrd.img"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "a small initrd without bootconfig is named as such" {
	run "$BC" "$T/initrd.img"
	[ "$status" -eq 1 ]
	[[ "$output" == "$T/initrd.img: error: a gzip initrd without a bootconfig"* ]]
}

@test "a directory is refused with one line" {
	run "$BC" "$T"
	[ "$status" -ge 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" == "$T: error: "* ]]
}

@test "an empty file has no bootconfig: success, as the kernel tool" {
	: > "$T/empty"
	run "$BC" "$T/empty"
	[ "$status" -eq 0 ]
	[[ "$output" == *"empty file"* ]]
	run "$BC" -d "$T/empty"
	[ "$status" -eq 0 ]
}

@test "every board profile is valid bootconfig" {
	for b in "$BATS_TEST_DIRNAME"/../../board/*.bconf; do
		run "$BC" -l "$b"
		[ "$status" -eq 0 ]
		[[ "$output" == *"board.cmdline.max = "* ]]
	done
}
