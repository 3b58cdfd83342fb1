#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 20: the install layout (make install / uninstall in a staging
# DESTDIR), the board search path, and the one version (VERSION) that every
# place carrying a version agrees with.

setup() {
	R=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	BT=${BT_BUILD:-$R/build}/boottrace
	T="$BATS_TEST_TMPDIR"
	V=$(cat "$R/VERSION")
	unset BOOTTRACE_BOARDS BOOTTRACE_BOARD_DIR
	# bt_make: make with the variables given and none inherited (a package
	# build's CFLAGS, a parent make's MAKEFLAGS, the Makefile's ?= ones)
	. "$R/tests/lib/testenv.sh"
}

stage() { # PREFIX [make variables...]: make install into $T/dest
	p=$1; shift
	bt_make -s -C "$R" install DESTDIR="$T/dest" PREFIX="$p" "$@" >"$T/install.log" 2>&1
}

@test "install PREFIX=/usr/local writes nothing for dracut, initramfs-tools or systemd" {
	stage /usr/local
	[ -x "$T/dest/usr/local/bin/boottrace" ]
	[ -f "$T/dest/usr/local/share/boottrace/boards/qemu-x86_64.bconf" ]
	[ -f "$T/dest/usr/local/lib/boottrace/boottrace-snapshot.sh" ]
	[ ! -e "$T/dest/usr/lib/dracut" ]
	[ ! -e "$T/dest/usr/share/initramfs-tools" ]
	[ ! -e "$T/dest/lib/systemd" ]
	[ ! -e "$T/dest/etc" ]
}

@test "install PREFIX=/usr/local INSTALL_HOOK=1 adds the adapters, the dracut one linked to the core" {
	stage /usr/local INSTALL_HOOK=1
	[ -x "$T/dest/usr/share/initramfs-tools/hooks/boottrace" ]
	grep -q '^BT_CORE=/usr/local/lib/boottrace/boottrace-snapshot.sh' "$T/dest/usr/share/initramfs-tools/hooks/boottrace"
	[ "$(readlink "$T/dest/usr/lib/dracut/modules.d/90boottrace/boottrace-snapshot.sh")" = /usr/local/lib/boottrace/boottrace-snapshot.sh ]
}

@test "install then uninstall in a DESTDIR leaves nothing behind, PREFIX=/usr with everything" {
	stage /usr
	[ -x "$T/dest/usr/share/initramfs-tools/hooks/boottrace" ]
	[ -f "$T/dest/usr/lib/dracut/modules.d/90boottrace/module-setup.sh" ]
	[ -n "$(find "$T/dest" -name boottrace-collect.service)" ]
	bt_make -s -C "$R" uninstall DESTDIR="$T/dest" PREFIX=/usr
	run find "$T/dest" -mindepth 1
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "install then uninstall in a DESTDIR leaves nothing behind, PREFIX=/usr/local" {
	stage /usr/local
	bt_make -s -C "$R" uninstall DESTDIR="$T/dest" PREFIX=/usr/local
	run find "$T/dest" -mindepth 1
	[ -z "$output" ]
}

@test "install means its own variables: a package build's flags and a parent make's MAKEFLAGS do not reach it" {
	# as dpkg-buildpackage and `make INSTALL_HOOK=1 INSTALL_COLLECT=1 test` would pass them down
	export CFLAGS='-g -O2 -Werror=format-security' CPPFLAGS='-Wdate-time -D_FORTIFY_SOURCE=2' \
		LDFLAGS='-Wl,-z,relro -Wl,-z,now' MAKEFLAGS=' -- INSTALL_HOOK=1 INSTALL_COLLECT=1' \
		MAKELEVEL=1 INITD_DIR="$T/initd" sysconfdir="$T/etc"
	stage /usr/local
	[ -x "$T/dest/usr/local/bin/boottrace" ]
	[ ! -e "$T/dest/usr/share/initramfs-tools" ]
	[ ! -e "$T/dest/usr/lib/dracut" ]
	[ ! -e "$T/dest$T" ]
	[ ! -e "$T/dest/etc" ]
}

@test "the installed boottrace boards lists the boards from the prefix beside it" {
	stage /usr/local
	run "$T/dest/usr/local/bin/boottrace" boards -v
	[ "$status" -eq 0 ]
	for b in qemu-x86_64 qemu-arm64-uboot octeon-uboot edgerouter-lite rpi4 x86_64-grub mips-malta; do
		[[ "$output" == *"$b "* ]]
	done
	[[ "$output" == *"from $T/dest/usr/local/share/boottrace/boards/rpi4.bconf"* ]]
	run "$T/dest/usr/local/bin/boottrace" compile -b rpi4 "$R/tests/data/bond0.bconf"
	[ "$status" -eq 0 ]
}

@test "BOOTTRACE_BOARDS comes first: a name in two directories is the first one's, the union is listed" {
	mkdir -p "$T/a" "$T/b"
	sed 's/^\tname = .*/\tname = "mine"/' "$R/board/rpi4.bconf" >"$T/a/rpi4.bconf"
	grep -q '"mine"' "$T/a/rpi4.bconf"
	cp "$R/board/rpi4.bconf" "$T/b/myboard.bconf"
	BOOTTRACE_BOARDS="$T/a:$T/b" run "$BT" boards -v
	[ "$status" -eq 0 ]
	[[ "$output" == *"mine"* ]]
	[[ "$output" == *"from $T/a/rpi4.bconf"* ]]
	[[ "$output" == *"myboard "* ]]
	[[ "$output" == *"qemu-x86_64 "* ]]
	[ "$(grep -c '^rpi4 ' <<<"$output")" = 1 ]
}

@test "BOOTTRACE_BOARD_DIR, the older name, still works; a missing BOOTTRACE_BOARDS dir is an error" {
	mkdir -p "$T/a"
	cp "$R/board/rpi4.bconf" "$T/a/only.bconf"
	BOOTTRACE_BOARD_DIR="$T/a" run "$BT" boards -v
	[[ "$output" == *"from $T/a/only.bconf"* ]]
	BOOTTRACE_BOARDS="$T/nope" run "$BT" boards
	[ "$status" -ne 0 ]
	[[ "$output" == *"cannot list board profiles in $T/nope"* ]]
}

@test "a name no directory has: the error names the whole search path" {
	BOOTTRACE_BOARDS="$T" run "$BT" compile -b nosuch "$R/tests/data/bond0.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no board profile 'nosuch' in $T:"*"/board: \`boottrace boards\` lists them"* ]]
}

@test "one version: --version, the man pages' .TH, debian/changelog agree with VERSION" {
	run "$BT" --version
	[ "$output" = "boottrace $V" ]
	for m in "$R"/docs/man/*.[0-9]; do
		grep -q "^\.TH .* \"boottrace $V\"" "$m" || { echo "$m: .TH is not boottrace $V"; false; }
	done
	[ "$(sed -n '1s/^boottrace (\([^)]*\)).*/\1/p' "$R/debian/changelog")" = "$V" ]
}

@test "one version: the installed hook's meta carries VERSION" {
	stage /usr/local
	grep -qx "BT_VERSION=$V" "$T/dest/usr/local/lib/boottrace/boottrace-snapshot.sh"
	grep -q 'echo "version=$BT_VERSION"' "$T/dest/usr/local/lib/boottrace/boottrace-snapshot.sh"
}
