#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# arm-boot / disarm-boot (issue 21 part 4): the compiled line for the next
# boot only, through the loaders' real tools (grub-editenv from grub-common,
# fw_printenv/fw_setenv from libubootenv-tool, mkenvimage from u-boot-tools),
# and every byte put back by disarm-boot.

bats_require_minimum_version 1.5.0

setup() {
	B="${BT_BUILD:-$BATS_TEST_DIRNAME/../../build}"
	BT="$B/boottrace"
	T="$BATS_TEST_TMPDIR"
	D="$BATS_TEST_DIRNAME/../data/arm-boot"
	export BOOTTRACE_BOARD_DIR="$BATS_TEST_DIRNAME/../../board"
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice, bond_create\n' >"$T/trace.bconf"
	WORDS='ftrace=function ftrace_filter=register_netdevice,bond_create trace_clock=global boottrace.enable=1'
	# a GRUB tree: grub.cfg, an environment block with a saved_entry
	R="$T/root"
	mkdir -p "$R/boot/grub"
	cp "$D/grub.cfg" "$R/boot/grub/grub.cfg"
	grub-editenv "$R/boot/grub/grubenv" create
	grub-editenv "$R/boot/grub/grubenv" set saved_entry=gnulinux-simple-abcd
	cp -a "$R" "$T/root.orig"
	# a U-Boot environment image and the fw_env.config naming it
	printf 'baudrate=115200\nbootargs=console=ttyAMA0 root=/dev/vda1 ftrace=nop rootwait\nbootcmd=run distro_bootcmd\n' >"$T/env.txt"
	mkenvimage -s 0x4000 -o "$T/env.img" "$T/env.txt"
	cp "$T/env.img" "$T/env.orig"
	printf '# device offset size\n%s 0x0 0x4000\n' "$T/env.img" >"$T/fw_env.config"
	U=(--loader uboot-env --fw-config "$T/fw_env.config" --state "$T/ustate")
}

same_tree() { # the GRUB tree is as before arm-boot (the state's parents aside)
	diff -r "$T/root.orig/boot" "$R/boot"
	[ ! -e "$R/var/lib/boottrace/arm-boot" ]
}

@test "grub: arm sets next_entry (grub-editenv list) and a custom.cfg entry from the first entry; disarm puts back every byte" {
	run --separate-stderr "$BT" arm-boot --loader grub --root "$R" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"armed for the next boot: root=UUID=abcd ro quiet $WORDS"* ]]
	run grub-editenv "$R/boot/grub/grubenv" list
	[ "$output" = "$(printf 'saved_entry=gnulinux-simple-abcd\nnext_entry=boottrace-oneshot')" ]
	grep -qx "menuentry 'boottrace one-shot' --id boottrace-oneshot {" "$R/boot/grub/custom.cfg"
	grep -qxF "	linux	/boot/vmlinuz-6.1.0-13-amd64 root=UUID=abcd ro quiet $WORDS" "$R/boot/grub/custom.cfg"
	grep -qxF "	initrd	/boot/initrd.img-6.1.0-13-amd64" "$R/boot/grub/custom.cfg"
	cmp "$T/root.orig/boot/grub/grub.cfg" "$R/boot/grub/grub.cfg"
	[ -e "$R/var/lib/boottrace/arm-boot/armed" ]
	run "$BT" disarm-boot --root "$R"
	[ "$status" -eq 0 ]
	cmp "$T/root.orig/boot/grub/grubenv" "$R/boot/grub/grubenv"
	[ ! -e "$R/boot/grub/custom.cfg" ]
	same_tree
}

@test "grub: after GRUB took the one-shot (save_env of an empty next_entry) disarm restores, saying so" {
	"$BT" arm-boot -q --loader grub --root "$R" "$T/trace.bconf"
	grub-editenv "$R/boot/grub/grubenv" set next_entry=
	run "$BT" disarm-boot --root "$R"
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: the bootloader took the one-shot (next_entry cleared)"* ]]
	same_tree
}

@test "grub: a custom.cfg of the user's is kept whole, also without a last newline" {
	printf 'menuentry mine {\n\techo mine\n}' >"$R/boot/grub/custom.cfg"
	cp "$R/boot/grub/custom.cfg" "$T/root.orig/boot/grub/custom.cfg"
	"$BT" arm-boot -q --loader grub --root "$R" --line 'root=/dev/sda1 ftrace=function'
	[ "$(head -3 "$R/boot/grub/custom.cfg")" = "$(printf 'menuentry mine {\n\techo mine\n}')" ]
	grep -qxF "	linux	/boot/vmlinuz-6.1.0-13-amd64 root=/dev/sda1 ftrace=function" "$R/boot/grub/custom.cfg"
	"$BT" disarm-boot --root "$R"
	same_tree
}

@test "grub: without grub-editenv, the block boottrace writes is grub-editenv's, byte for byte" {
	cp -a "$R" "$T/r2"
	"$BT" arm-boot -q --loader grub --root "$R" "$T/trace.bconf"
	run env PATH=/nonexistent "$BT" arm-boot --loader grub --root "$T/r2" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"grub-editenv is not installed"* ]]
	cmp "$R/boot/grub/grubenv" "$T/r2/boot/grub/grubenv"
	cmp "$R/boot/grub/custom.cfg" "$T/r2/boot/grub/custom.cfg"
	# and with no block at all: grub-editenv create's block, then the variable
	rm -rf "$T/r2" "$T/r3"
	cp -a "$T/root.orig" "$T/r2"
	rm "$T/r2/boot/grub/grubenv"
	cp -a "$T/r2" "$T/r3"
	"$BT" arm-boot -q --loader grub --root "$T/r2" "$T/trace.bconf"
	env PATH=/nonexistent "$BT" arm-boot -q --loader grub --root "$T/r3" "$T/trace.bconf"
	cmp "$T/r2/boot/grub/grubenv" "$T/r3/boot/grub/grubenv"
	"$BT" disarm-boot -q --root "$T/r3"
	[ ! -e "$T/r3/boot/grub/grubenv" ]
}

@test "grub: a grub.cfg that ignores next_entry or custom.cfg is refused before anything is written" {
	grep -v 'save_env next_entry' "$D/grub.cfg" >"$R/boot/grub/grub.cfg"
	run "$BT" arm-boot --loader grub --root "$R" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"grub.cfg: error: does not take next_entry from the environment block"*"update-grub"* ]]
	grep -v 'custom.cfg' "$D/grub.cfg" >"$R/boot/grub/grub.cfg"
	run "$BT" arm-boot --loader grub --root "$R" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"does not read custom.cfg"*"41_custom"* ]]
	[ ! -e "$R/boot/grub/custom.cfg" ]
	[ ! -e "$R/var" ]
	cmp "$T/root.orig/boot/grub/grubenv" "$R/boot/grub/grubenv"
}

@test "uboot-env: fw_setenv arms the one-shot (fw_printenv shows it); disarm makes the image identical" {
	run --separate-stderr "$BT" arm-boot "${U[@]}" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	run fw_printenv -c "$T/fw_env.config"
	[ "$status" -eq 0 ]
	grep -qxF "boottrace_oneshot=console=ttyAMA0 root=/dev/vda1 ftrace=function rootwait ftrace_filter=register_netdevice,bond_create trace_clock=global boottrace.enable=1" <<<"$output"
	grep -qxF "boottrace_bootcmd=run distro_bootcmd" <<<"$output"
	grep -qxF 'bootcmd=if test -n "${boottrace_oneshot}"; then boottrace_line="${boottrace_oneshot}"; setenv boottrace_oneshot; if saveenv; then setenv bootargs "${boottrace_line}"; fi; fi; run boottrace_bootcmd' <<<"$output"
	grep -qxF "bootargs=console=ttyAMA0 root=/dev/vda1 ftrace=nop rootwait" <<<"$output"
	run "$BT" disarm-boot --state "$T/ustate"
	[ "$status" -eq 0 ]
	cmp "$T/env.orig" "$T/env.img"
	[ ! -e "$T/ustate" ]
}

@test "uboot-env: after the boot took the one-shot (cleared, saveenv of the running env) disarm restores" {
	"$BT" arm-boot -q "${U[@]}" "$T/trace.bconf"
	# what the bootcmd's saveenv leaves: the one-shot gone, U-Boot's own variables added
	printf 'boottrace_oneshot=\nfdtcontroladdr=4ff3a000\n' >"$T/script"
	fw_setenv -c "$T/fw_env.config" -s "$T/script"
	run "$BT" disarm-boot --state "$T/ustate"
	[ "$status" -eq 0 ]
	[[ "$output" == *"took the one-shot (boottrace_oneshot cleared by saveenv)"* ]]
	cmp "$T/env.orig" "$T/env.img"
}

@test "arm twice is refused and changes nothing; disarm without arm is refused" {
	"$BT" arm-boot -q --loader grub --root "$R" "$T/trace.bconf"
	cp -a "$R" "$T/armed"
	run "$BT" arm-boot --loader grub --root "$R" --line 'root=/dev/sdb1'
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: already armed ("*"/var/lib/boottrace/arm-boot/armed exists): run boottrace disarm-boot first"* ]]
	diff -r "$T/armed" "$R"
	"$BT" arm-boot -q "${U[@]}" "$T/trace.bconf"
	cp "$T/env.img" "$T/env.armed"
	run "$BT" arm-boot "${U[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"already armed"* ]]
	cmp "$T/env.armed" "$T/env.img"
	"$BT" disarm-boot -q --root "$R"
	"$BT" disarm-boot -q --state "$T/ustate"
	run "$BT" disarm-boot --root "$R"
	[ "$status" -eq 1 ]
	[[ "$output" == "boottrace disarm-boot: error: nothing is armed: $R/var/lib/boottrace/arm-boot/armed does not exist"* ]]
	run "$BT" disarm-boot --state "$T/ustate"
	[ "$status" -eq 1 ]
	[[ "$output" == *"nothing is armed"* ]]
	same_tree
	cmp "$T/env.orig" "$T/env.img"
}

@test "disarm refuses files changed since by someone else; --force restores them" {
	"$BT" arm-boot -q --loader grub --root "$R" "$T/trace.bconf"
	echo '# edited' >>"$R/boot/grub/custom.cfg"
	cp "$R/boot/grub/custom.cfg" "$T/edited"
	run "$BT" disarm-boot --root "$R"
	[ "$status" -eq 1 ]
	[[ "$output" == *"custom.cfg changed since arm-boot"*"disarm-boot --force"* ]]
	cmp "$T/edited" "$R/boot/grub/custom.cfg"
	run "$BT" disarm-boot --root "$R" --force
	[ "$status" -eq 0 ]
	[[ "$output" == *"custom.cfg: warning: changed since arm-boot"* ]]
	same_tree
	# U-Boot: the one-shot still set but bootcmd changed
	"$BT" arm-boot -q "${U[@]}" "$T/trace.bconf"
	fw_setenv -c "$T/fw_env.config" bootcmd 'run mine'
	run "$BT" disarm-boot --state "$T/ustate"
	[ "$status" -eq 1 ]
	[[ "$output" == *"env.img changed since arm-boot"* ]]
	"$BT" disarm-boot -q --state "$T/ustate" --force
	cmp "$T/env.orig" "$T/env.img"
}

@test "uboot-env: an environment a saveenv erased and did not write (fw_printenv cannot read it) is refused; --force restores it" {
	"$BT" arm-boot -q "${U[@]}" "$T/trace.bconf"
	# U-Boot erases the sectors before it writes them (flash: all 0xff)
	head -c 16384 /dev/zero | tr '\0' '\377' >"$T/env.img"
	cp "$T/env.img" "$T/env.erased"
	run fw_printenv -c "$T/fw_env.config"
	[ "$status" -ne 0 ]
	run "$BT" disarm-boot --state "$T/ustate"
	[ "$status" -ne 0 ]
	[[ "$output" == *"env.img changed since arm-boot and cannot be read (fw_printenv -c failed"*"disarm-boot --force"* ]]
	cmp "$T/env.erased" "$T/env.img"
	[ -e "$T/ustate/armed" ]
	run "$BT" disarm-boot --state "$T/ustate" --force
	[ "$status" -eq 0 ]
	[[ "$output" == *"env.img: warning: changed since arm-boot"* ]]
	cmp "$T/env.orig" "$T/env.img"
	[ ! -e "$T/ustate" ]
}

@test "usage errors" {
	run "$BT" arm-boot --line x
	[ "$status" -eq 2 ]
	[[ "$output" == *"give --loader (grub, uboot-env, systemd-boot)"* ]]
	run "$BT" arm-boot --loader lilo --line x
	[ "$status" -eq 2 ]
	[[ "$output" == *"--loader lilo: unknown"* ]]
	run "$BT" arm-boot --loader grub --root "$R" --line x "$T/trace.bconf"
	[ "$status" -eq 2 ]
	run "$BT" disarm-boot "$T/trace.bconf"
	[ "$status" -eq 2 ]
	run "$BT" arm-boot "${U[@]}" --fw-config "$T/none.config" "$T/trace.bconf"
	[ "$status" -eq 3 ]
	cmp "$T/env.orig" "$T/env.img"
}

# ---- systemd-boot: a scratch ESP and a scratch efivarfs directory ----------

sdb_setup() {
	E="$T/sroot"
	mkdir -p "$E/efi/loader/entries" "$E/ev"
	printf '# loader.conf\ndefault debian-*\ntimeout 3\n' >"$E/efi/loader/loader.conf"
	printf 'title      Debian GNU/Linux 12\nsort-key debian\nversion 6.1.0-13-amd64\nlinux /vmlinuz-6.1.0-13-amd64\ninitrd /initrd.img-6.1.0-13-amd64\noptions root=UUID=abcd ro\noptions quiet ftrace=nop\n' >"$E/efi/loader/entries/debian-6.1.0-13-amd64.conf"
	printf 'title Rescue\nlinux /vmlinuz\noptions root=UUID=abcd single\n' >"$E/efi/loader/entries/rescue.conf"
	cp -a "$E" "$T/sroot.orig"
	V="$E/ev/LoaderEntryOneShot-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
	S=(--loader systemd-boot --root "$E" --efivars /ev)
	# what bootctl set-oneshot boottrace-oneshot.conf writes to efivarfs
	{ printf '\007\000\000\000'; printf 'boottrace-oneshot.conf\000' | iconv -f ASCII -t UTF-16LE; } >"$T/var.want"
}

same_esp() { # the ESP and the variables are as before arm-boot, the state gone
	diff -r "$T/sroot.orig/efi" "$E/efi"
	diff -r "$T/sroot.orig/ev" "$E/ev"
	[ ! -e "$E/var/lib/boottrace/arm-boot" ]
}

@test "systemd-boot: arm writes the entry (the default's, options merged) and LoaderEntryOneShot byte for byte; disarm puts back every byte" {
	sdb_setup
	run --separate-stderr "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"armed for the next boot: root=UUID=abcd ro quiet $WORDS"* ]]
	cmp "$T/var.want" "$V"
	cat >"$T/entry.want" <<EOT
# boottrace arm-boot: the one-shot entry of the next boot, made from debian-6.1.0-13-amd64.conf (boottrace disarm-boot removes it)
title boottrace one-shot: Debian GNU/Linux 12
version 6.1.0-13-amd64
linux /vmlinuz-6.1.0-13-amd64
initrd /initrd.img-6.1.0-13-amd64
options root=UUID=abcd ro quiet $WORDS
EOT
	diff "$T/entry.want" "$E/efi/loader/entries/boottrace-oneshot.conf"
	diff -r "$T/sroot.orig/efi/loader/entries/debian-6.1.0-13-amd64.conf" "$E/efi/loader/entries/debian-6.1.0-13-amd64.conf"
	grep -qx "efivar 1 absent $V" "$E/var/lib/boottrace/arm-boot/armed"
	run "$BT" disarm-boot --root "$E"
	[ "$status" -eq 0 ]
	same_esp
}

@test "systemd-boot: after the loader took the one-shot (the variable deleted) disarm restores, saying so" {
	sdb_setup
	"$BT" arm-boot -q "${S[@]}" "$T/trace.bconf"
	rm "$V"
	run "$BT" disarm-boot --root "$E"
	[ "$status" -eq 0 ]
	[[ "$output" == *"the bootloader took the one-shot (LoaderEntryOneShot deleted)"* ]]
	same_esp
}

@test "systemd-boot: an immutable variable file (as efivarfs makes it) is removed by disarm" {
	[ "$(id -u)" = 0 ] || skip "chattr +i needs root"
	sdb_setup
	"$BT" arm-boot -q "${S[@]}" --line 'root=UUID=abcd ro ftrace=function'
	chattr +i "$V"
	run rm -f "$V"
	[ "$status" -ne 0 ]
	run "$BT" disarm-boot --root "$E"
	[ "$status" -eq 0 ]
	same_esp
}

@test "systemd-boot: which entry: --entry, LoaderEntryDefault over loader.conf, the only one; refusals change nothing" {
	sdb_setup
	"$BT" arm-boot -q "${S[@]}" --entry rescue "$T/trace.bconf"
	grep -qx "options root=UUID=abcd single $WORDS" "$E/efi/loader/entries/boottrace-oneshot.conf"
	grep -qx "title boottrace one-shot: Rescue" "$E/efi/loader/entries/boottrace-oneshot.conf"
	"$BT" disarm-boot -q --root "$E"
	same_esp
	# bootctl set-default's variable beats loader.conf
	D="$E/ev/LoaderEntryDefault-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
	{ printf '\007\000\000\000'; printf 'rescue.conf\000' | iconv -f ASCII -t UTF-16LE; } >"$D"
	"$BT" arm-boot -q "${S[@]}" --line 'root=UUID=abcd ro x=1'
	grep -qx "title boottrace one-shot: Rescue" "$E/efi/loader/entries/boottrace-oneshot.conf"
	"$BT" disarm-boot -q --root "$E"
	# ... unless it matches no entry: then loader.conf's, as systemd-boot goes on
	{ printf '\007\000\000\000'; printf 'gone.conf\000' | iconv -f ASCII -t UTF-16LE; } >"$D"
	"$BT" arm-boot -q "${S[@]}" --line 'root=UUID=abcd ro x=1'
	grep -qx "title boottrace one-shot: Debian GNU/Linux 12" "$E/efi/loader/entries/boottrace-oneshot.conf"
	"$BT" disarm-boot -q --root "$E"
	rm "$D"
	same_esp
	# a pattern matching two entries: which one depends on the sort order
	printf 'default *\n' >"$E/efi/loader/loader.conf"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"loader.conf: error: names the default entry *, which matches 2 entries (debian-6.1.0-13-amd64.conf rescue.conf): "*"give --entry ID"* ]] ||
		[[ "$output" == *"matches 2 entries (rescue.conf debian-6.1.0-13-amd64.conf): "* ]]
	# no default and two entries
	rm "$E/efi/loader/loader.conf"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"has 2 entries and no default that matches one"* ]]
	printf 'default nosuch*\n' >"$E/efi/loader/loader.conf"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"has 2 entries and no default that matches one"* ]]
	printf 'default @saved\n' >"$E/efi/loader/loader.conf"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"loader.conf: error: sets the default entry to @saved, which systemd-boot resolves at boot (not done)"* ]]
	rm "$E/efi/loader/loader.conf"
	# the only entry, with a sort-key: ours (without one) sorts after it
	rm "$E/efi/loader/entries/rescue.conf"
	"$BT" arm-boot -q "${S[@]}" "$T/trace.bconf"
	"$BT" disarm-boot -q --root "$E"
	# the only entry, no sort-key, and an ID ours would sort before
	printf 'title A\nlinux /vmlinuz\noptions root=/dev/sda1\n' >"$E/efi/loader/entries/a.conf"
	rm "$E/efi/loader/entries/debian-6.1.0-13-amd64.conf"
	cp -a "$E/efi" "$T/efi.before"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"a.conf: error: is the only entry, has no sort-key and no default is set: boottrace-oneshot.conf would sort before it"* ]]
	diff -r "$T/efi.before" "$E/efi"
	[ ! -e "$V" ]
}

@test "systemd-boot: refused: no entry, no efivars, a one-shot already set, already armed, an entry edited since (--force restores)" {
	sdb_setup
	run "$BT" arm-boot "${S[@]}" --entry nosuch "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"has no entry nosuch (.conf)"* ]]
	run "$BT" arm-boot --loader systemd-boot --root "$E" --efivars /nonexistent "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"/nonexistent: error: is not a directory: no EFI variables"* ]]
	run "$BT" arm-boot --loader systemd-boot --root "$T/empty" --efivars / "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no loader/entries directory in /efi, /boot or /boot/efi under $T/empty"* ]]
	# bootctl set-oneshot's own one-shot is not replaced
	printf '\007\000\000\000r\000\000\000' >"$V"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"is set (to r): a one-shot entry is armed already"* ]]
	rm "$V"
	same_esp
	# armed twice
	"$BT" arm-boot -q "${S[@]}" "$T/trace.bconf"
	cp -a "$E" "$T/sroot.armed"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"already armed"* ]]
	diff -r "$T/sroot.armed" "$E"
	# the entry edited since
	echo "options extra" >>"$E/efi/loader/entries/boottrace-oneshot.conf"
	run "$BT" disarm-boot --root "$E"
	[ "$status" -eq 1 ]
	[[ "$output" == *"boottrace-oneshot.conf changed since arm-boot"* ]]
	[ -e "$V" ]
	run "$BT" disarm-boot --root "$E" --force
	[ "$status" -eq 0 ]
	same_esp
	# an entry file left by an arm-boot whose state is gone
	printf 'title x\n' >"$E/efi/loader/entries/boottrace-oneshot.conf"
	run "$BT" arm-boot "${S[@]}" "$T/trace.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"boottrace-oneshot.conf: error: exists: the entry of an earlier arm-boot"* ]]
	[ ! -e "$V" ]
}

@test "arm-boot and disarm-boot: --help and the man page list the same options" {
	H="$BATS_TEST_DIRNAME/helpers/help-vs-man.py"
	M="$BATS_TEST_DIRNAME/../../docs/man/boottrace.1"
	for v in arm-boot disarm-boot; do
		"$BT" "$v" --help >"$T/$v.help"
		python3 "$H" "$M" "$v" "$T/$v.help"
	done
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$BATS_TEST_DIRNAME/../../docs/man/boottrace-arm-boot.1" 2>"$T/warn" >"$T/out"
	[ ! -s "$T/warn" ]
	grep -q 'disarm-boot' "$T/out"
}

@test "completion: the verbs, --loader's loaders, the flags of each" {
	C="$BATS_TEST_DIRNAME/../../completion/boottrace"
	BTA="$(cd "$B" && pwd)/boottrace"
	comp() {
		(cd "$T" && bash --norc --noprofile -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _boottrace; printf "%s\n" "${COMPREPLY[@]}" | sort' "$C" "$@")
	}
	run comp "$BTA" ""
	grep -qx arm-boot <<<"$output"
	grep -qx disarm-boot <<<"$output"
	run comp "$BTA" arm-boot --loader ""
	[ "$output" = "$(printf 'grub\nsystemd-boot\nuboot-env')" ]
	run comp "$BTA" arm-boot --fw
	[ "$output" = --fw-config ]
	run comp "$BTA" disarm-boot --f
	[ "$output" = --force ]
}

@test "arm-boot --kernel IMAGE checks the line against the image, as compile does; --kernel VERSION is -k" {
	IMG="$BATS_TEST_DIRNAME/../data/kimg/bzImage-lz4"
	printf 'ftrace.tracer = wakeup\n' >"$T/wakeup.bconf"
	run "$BT" arm-boot --loader grub --root "$R" --kernel "$IMG" "$T/wakeup.bconf"
	[ "$status" -eq 1 ]
	[[ "$output" == *"wakeup.bconf:1:8: error: the wakeup tracer is not in this kernel: "*"bzImage-lz4's symbols have no wakeup_tracer_init"* ]]
	same_tree
	run "$BT" arm-boot --loader grub --root "$R" --kernel 6.1 "$T/trace.bconf"
	[ "$status" -eq 0 ]
	[[ "$output" == *"armed for the next boot: root=UUID=abcd ro quiet $WORDS"* ]]
	run "$BT" arm-boot --loader grub --line 'a b' --kernel "$IMG"
	[ "$status" -eq 2 ]
	[[ "$output" == *"-b, -k, --kernel, --kernel-config and --allow-drop go with CONFIG, not --line"* ]]
}
