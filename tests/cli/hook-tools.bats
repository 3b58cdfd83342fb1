#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
# The hook's core script runs only the programs of its own list
# (`boottrace-snapshot.sh tools`, which the initramfs-tools hook and the
# dracut module install): a snapshot in a chroot whose only programs are
# klibc's sh (the shell of an initramfs-tools image without busybox; a
# busybox sh would run its own applets whatever PATH says) and a
# busybox-static applet for each listed name finds every one it runs.
# The QEMU boots of images without busybox are tests/e2e/initramfs-tools.sh's.

setup() {
	ROOT="$BATS_TEST_DIRNAME/../.."
	CORE="$ROOT/initramfs-hook/boottrace-snapshot.sh"
	T="$BATS_TEST_TMPDIR"
	R="$T/root"
	BB=$(command -v busybox) || skip "busybox-static is not installed (make deps)"
	KSH=/usr/lib/klibc/bin/sh
	[ -x "$KSH" ] || skip "klibc's sh is not installed (klibc-utils, with initramfs-tools-core: make deps)"
	[ "$(id -u)" = 0 ] || skip "not root: the snapshot runs in a chroot of a private mount namespace"
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
}

# R: klibc's sh as /bin/sh (with its library, the program interpreter it
# names), the core script in lib/boottrace with a link to busybox for each
# NAME in lib/boottrace/bin (nothing else runs there), a fixture tracefs,
# /proc and /dev/null (bound in the namespace only)
mkroot() { # NAME...
	mkdir -p "$R/bin" "$R/lib/boottrace/bin" "$R/proc" "$R/dev" "$R/run" \
		"$R/tfs/per_cpu/cpu0" "$R/tfs/options"
	cp "$KSH" "$R/bin/sh"
	cp /lib/klibc-*.so "$R/lib/"
	cp "$BB" "$R/lib/boottrace/busybox"
	cp "$CORE" "$R/lib/boottrace/boottrace-snapshot.sh"
	for p in "$@"; do
		"$BB" --list | grep -qx "$p" || { echo "busybox-static has no $p"; return 1; }
		ln -s ../busybox "$R/lib/boottrace/bin/$p"
	done
	printf '# tracer: function\n#\n  insmod-93 [000] ..... 2.500000: register_netdevice <-bond_create\n' >"$R/tfs/trace"
	echo function >"$R/tfs/current_tracer"
	echo 1 >"$R/tfs/tracing_on"
	echo 1 >"$R/tfs/options/func_stack_trace"
	printf 'entries: 1\noverrun: 0\n' >"$R/tfs/per_cpu/cpu0/stats"
	echo "boottrace $1" >"$R/cmdline"
	: >"$R/kmsg"
}

snap() { # CMDLINE: the snapshot in the chroot; output = its stderr
	echo "boottrace $1" >"$R/cmdline"
	# shellcheck disable=SC2016 # expanded by the inner sh
	run env -i BOOTTRACE_TRACEFS=/tfs BOOTTRACE_KMSG=/kmsg BOOTTRACE_RUN=/run/boottrace \
		BOOTTRACE_CMDLINE=/cmdline BOOTTRACE_BOOTCONFIG=/none BOOTTRACE_CONF=/none \
		unshare -m --propagation private sh -c '
		mount -t proc proc "$1/proc" && : >"$1/dev/null" &&
		mount --bind /dev/null "$1/dev/null" &&
		exec chroot "$1" /bin/sh /lib/boottrace/boottrace-snapshot.sh snapshot test' sh "$R"
}

@test "tools: the list, need and may, one name a line, nothing else" {
	run sh "$CORE" tools
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	[ "$(sh "$CORE" tools need; sh "$CORE" tools may)" = "$output" ]
	# plain names, no path, each once
	[ -z "$(printf '%s\n' "$output" | grep -v '^[a-z0-9]*$')" ]
	[ -z "$(printf '%s\n' "$output" | sort | uniq -d)" ]
	printf '%s\n' "$output" | grep -qx dd
	printf '%s\n' "$output" | grep -qx cp
	run sh "$CORE" tools other
	[ "$status" -eq 2 ]
}

@test "the snapshot runs with only the listed programs: none missing, the trace whole" {
	# shellcheck disable=SC2046 # one name a line
	mkroot $(sh "$CORE" tools)
	snap ""
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" != *"not found"* ]] || { echo "$output"; false; }
	S=$(echo "$R"/run/boottrace/*/)
	[ -f "$S/COMPLETE" ] || { echo "$output"; ls -R "$R/run"; false; }
	cat "$S/meta"
	run grep -e 'not found' -e 'bad operand' "$S/meta"
	[ "$status" -eq 1 ] || { echo "$output"; false; }
	grep -qx 'errors=0' "$S/meta"
	cmp "$R/tfs/trace" "$S/trace"
	grep -qx function "$S/tracer"
	[ -s "$S/per_cpu/cpu0/stats" ]
	[ "$(cat "$R/tfs/tracing_on")" = 0 ]
}

@test "the chroot tells: without cp the snapshot's meta says 'cp: not found'" {
	# the check above can fail: a listed program missing is seen (not dd:
	# busybox's timeout, which runs it, would find its own applet)
	# shellcheck disable=SC2046
	mkroot $(sh "$CORE" tools | grep -vx cp)
	snap ""
	S=$(echo "$R"/run/boottrace/*/)
	grep -q '^error=copy of .*cp: not found' "$S/meta" || { cat "$S/meta"; false; }
}
