#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The symbols boottrace reads from a kernel image's own kallsyms tables
# (check --kernel IMAGE --print-map, docs/kernel-image.md) against the real
# System.map of the same build (and the number of call sites, the
# traceable functions, against its __start_mcount_loc array), for Debian's
# 6.1 amd64 cloud image (a
# bzImage with an LZ4 payload, KALLSYMS_ALL, ABSOLUTE_PERCPU) and mips64el
# 5kc-malta image (an ELF self-decompressor carrying an xz vmlinux.bin) and
# arm64 cloud-arm64 Image (raw, relocatable: its relocations give the base):
# the images from tests/e2e/kernel-pkg.sh, each asked with its -dbg part so
# that the set is whole, the maps from the -dbg packages
# (tests/e2e/dbg-sysmap.sh: about 280 MB, 660 MB and 250 MB, downloaded once
# into the resolver's cache, tests/e2e/apt-set.sh). Every function symbol (t, T, w, W) the
# kernel keeps in kallsyms -- all of them with CONFIG_KALLSYMS_ALL, else
# those between _stext and _etext or _sinittext and _einittext, as
# scripts/kallsyms.c keeps them -- must be there with its address and type,
# and nothing else. The counts are printed.
# Last line: "kallsyms: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bt=${BT:-$root/build/boottrace}
SUITE=kallsyms
top=$root
. "$root/tests/e2e/tap.sh"
# shellcheck source=tests/e2e/imgcmp.sh
. "$root/tests/e2e/imgcmp.sh"
w=$(mktemp -d "${TMPDIR:-/tmp}/bt-kallsyms.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP

# the function symbols of a System.map that kallsyms keeps: "NAME ADDR TYPE".
# With IGN 1: as scripts/kallsyms.c keeps them: not the arm64 mapping
# symbols ($x, $d), nor the prefixes and suffixes of its is_ignored_symbol,
# and without KALLSYMS_ALL (ALL 0) not what lies outside the text ranges or
# at _etext's or _einittext's address (kernel-facts 105).
functions() { # MAP ALL IGN
	awk -v all="$2" -v ign="$3" '
	NR == FNR {
		if ($3 == "_stext") s = $1; if ($3 == "_etext") e = $1
		if ($3 == "_sinittext") is = $1; if ($3 == "_einittext") ie = $1
		next
	}
	$2 !~ /^[tTwW]$/ { next }
	!ign { print $3, $1, $2; next }
	$3 ~ /^[$]/ || $3 ~ /^(__efistub_|__kvm_nvhe_[$.]|__AArch64ADRPThunk_|__ARMV[57]PILongThunk_|__ThumbV7PILongThunk_|__LA25Thunk_|__microLA25Thunk_|__kcfi_typeid_)/ { next }
	$3 ~ /(_from_arm|_from_thumb|_veneer)$/ || $3 ~ /\.(long|plt)_branch\./ { next }
	all { print $3, $1, $2; next }
	!(($1 >= s && $1 <= e) || ($1 >= is && $1 <= ie)) { next }
	($1 == e && $3 != "_etext") || ($1 == ie && $3 != "_einittext") { next }
	{ print $3, $1, $2 }
	' "$1" "$1" | LC_ALL=C sort -u
}

one() { # ARCH FLAVOUR
	arch=$1
	d=$(sh "$root/tests/e2e/kernel-pkg.sh" "$1" "$2" dbg) || { nok "$arch: no Debian 6.1 $2 kernel (tests/e2e/kernel-pkg.sh)"; return; }
	map=$(sh "$root/tests/e2e/dbg-sysmap.sh" "$d") || { nok "$arch: no System.map from the -dbg package (tests/e2e/dbg-sysmap.sh)"; return; }
	for img in "$d"/root/boot/vmlinuz-*; do break; done
	for cfg in "$d"/root/boot/config-*; do break; done
	all=0
	grep -qx 'CONFIG_KALLSYMS_ALL=y' "$cfg" && all=1
	if ! "$bt" check -v --kernel "$img" --print-map >"$w/$arch.map" 2>"$w/$arch.err"; then
		nok "$arch: check --kernel $img --print-map"
		sed 's/^/#   /' "$w/$arch.err"
		return
	fi
	sed 's/^/# /' "$w/$arch.err"
	functions "$map" "$all" 1 >"$w/$arch.want"
	functions "$w/$arch.map" 1 0 >"$w/$arch.got"
	nw=$(wc -l <"$w/$arch.want")
	ng=$(wc -l <"$w/$arch.got")
	miss=$(LC_ALL=C comm -23 "$w/$arch.want" "$w/$arch.got" | wc -l)
	extra=$(LC_ALL=C comm -13 "$w/$arch.want" "$w/$arch.got" | wc -l)
	echo "# $arch: System.map $(wc -l <"$map") lines, $nw function symbols kallsyms keeps (KALLSYMS_ALL=$all); image $(wc -l <"$w/$arch.map") symbols, $ng functions; missing $miss, extra $extra"
	if [ "$nw" -gt 10000 ] && [ "$miss" = 0 ] && [ "$extra" = 0 ]; then
		ok "$arch: every function symbol of the -dbg System.map, address and type, from the image ($nw)"
	else
		nok "$arch: function symbols differ from the -dbg System.map"
		LC_ALL=C comm -3 "$w/$arch.want" "$w/$arch.got" | head -n 10 | sed 's/^/#   /'
	fi
	# what is not a function is there too, where the map has it
	for s in _stext _sinittext; do
		if grep -q " $s\$" "$w/$arch.map" && [ "$(grep " $s\$" "$w/$arch.map" | cut -d' ' -f1)" = "$(grep " $s\$" "$map" | cut -d' ' -f1)" ]; then
			ok "$arch: $s at the System.map's address"
		else
			nok "$arch: $s not at the System.map's address"
		fi
	done
	# the call sites (traceable functions, kimage/kimg_mcount.c): as many
	# as the -dbg System.map's __start_mcount_loc .. __stop_mcount_loc
	# holds, by the symbols (amd64, KALLSYMS_ALL) or by the array's shape
	want=$(python3 -c '
import sys
a = {f[2]: int(f[0], 16) for f in (l.split() for l in open(sys.argv[1])) if len(f) == 3}
print((a["__stop_mcount_loc"] - a["__start_mcount_loc"]) // 8)' "$map" 2>/dev/null || echo "?")
	"$bt" check -v --kernel "$img" --print-functions >"$w/$arch.funcs" 2>"$w/$arch.pf"
	got=$(sed -n 's/.*traceable functions from its \([0-9]*\) call sites.*/\1/p' "$w/$arch.pf")
	echo "# $arch: $got call sites read from the image; the -dbg System.map's array holds $want"
	t "$arch: the image's call sites are the kernel's ($want), --print-functions lists $(wc -l <"$w/$arch.funcs") functions" \
		[ "$got" = "$want" ] && [ "$(wc -l <"$w/$arch.funcs")" -gt 20000 ]
	# the events' array (kimage/kimg_events.c), by its symbols or shape
	want=$(python3 -c '
import sys
a = {f[2]: int(f[0], 16) for f in (l.split() for l in open(sys.argv[1])) if len(f) == 3}
print((a["__stop_ftrace_events"] - a["__start_ftrace_events"]) // 8)' "$map" 2>/dev/null || echo "?")
	got=$(sed -n 's/.* trace events in [0-9]* systems from the \([0-9]*\) entries of its event array.*/\1/p' "$w/$arch.pf")
	"$bt" check --kernel "$img" --print-events >"$w/$arch.events" 2>/dev/null
	echo "# $arch: an event array of $got entries read, the -dbg System.map's holds $want; --print-events lists $(wc -l <"$w/$arch.events")"
	t "$arch: the image's event array is the kernel's ($want entries)" [ "$got" = "$want" ]
	t "$arch: --print-events lists sched:sched_switch and irq:irq_handler_entry" \
		sh -c "grep -qx sched:sched_switch '$w/$arch.events' && grep -qx irq:irq_handler_entry '$w/$arch.events'"
}

# The boot parameters of an image (compile --kernel IMAGE,
# kimage/kimg_params.c): as many as the -dbg System.map's __setup_start ..
# __setup_end holds entries (24 bytes each on these 64-bit kernels), the
# same line as -k 6.1 for the who-calls config, and a parameter 6.1 lacks
# refused naming the image. arm64's Image keeps its pointers in relocations
# (kernel-facts 106): read through them (kimage/kimg_addr.c).
params() { # ARCH FLAVOUR BOARD
	arch=$1
	d=$(sh "$root/tests/e2e/kernel-pkg.sh" "$1" "$2" dbg) || { nok "$arch: no Debian 6.1 $2 kernel"; return; }
	map=$(sh "$root/tests/e2e/dbg-sysmap.sh" "$d") || { nok "$arch: no -dbg System.map"; return; }
	for img in "$d"/root/boot/vmlinuz-*; do break; done
	want=$(python3 -c '
import sys
a = {f[2]: int(f[0], 16) for f in (l.split() for l in open(sys.argv[1])) if len(f) == 3}
print((a["__setup_end"] - a["__setup_start"]) // 24)' "$map" 2>/dev/null || echo "?")
	"$bt" compile --who-calls register_netdevice -b "$3" -k 6.1 --print-config >"$w/$arch.bconf"
	"$bt" compile -b "$3" -k 6.1 "$w/$arch.bconf" >"$w/$arch.k61" 2>/dev/null
	if "$bt" compile -v -b "$3" --kernel "$img" "$w/$arch.bconf" >"$w/$arch.img" 2>"$w/$arch.imgerr"; then
		got=$(sed -n 's/^route: boot parameters: the \([0-9]*\) of .*/\1/p' "$w/$arch.imgerr")
		echo "# $arch: $got boot parameters in the image's table; the -dbg System.map's __setup table holds $want"
		t "$arch: the image's table of boot parameters is the kernel's ($want entries)" [ "$got" = "$want" ]
		t "$arch: compile --kernel IMAGE gives -k 6.1's line for the who-calls config" cmp -s "$w/$arch.k61" "$w/$arch.img"
	else
		nok "$arch: compile --kernel $img"
		sed 's/^/#   /' "$w/$arch.imgerr"
	fi
	printf 'kernel.trace_instance = foo\n' >"$w/ti.bconf"
	"$bt" compile -b "$3" --kernel "$img" "$w/ti.bconf" >/dev/null 2>"$w/ti.err"
	t "$arch: trace_instance= (6.3) refused: the image's table lacks it" \
		grep -q "trace_instance=: the kernel image $img has no such boot parameter" "$w/ti.err"
}

# The tracers of an image (kernel/tracers.c): compile --kernel IMAGE takes
# one exactly when the image's kallsyms hold its init function; that must
# be exactly when the image's own .config builds it (compile
# --kernel-config), for every tracer of Linux 6.1.
tracers() { # ARCH FLAVOUR BOARD
	arch=$1
	d=$(sh "$root/tests/e2e/kernel-pkg.sh" "$1" "$2" dbg) || { nok "$arch: no Debian 6.1 $2 kernel"; return; }
	for img in "$d"/root/boot/vmlinuz-*; do break; done
	for cfg in "$d"/root/boot/config-*; do break; done
	by_sym='' by_cfg='' bad=''
	for tr in $IMGCMP_TRACERS; do
		printf 'ftrace.tracer = %s\n' "$tr" >"$w/tr.bconf"
		s=0 c=0
		"$bt" compile -q -b "$3" --kernel "$img" "$w/tr.bconf" >/dev/null 2>&1 && s=1 && by_sym="$by_sym $tr"
		"$bt" compile -q -b "$3" --kernel-config "$cfg" "$w/tr.bconf" >/dev/null 2>&1 && c=1 && by_cfg="$by_cfg $tr"
		[ "$s" = "$c" ] || bad="$bad $tr"
	done
	echo "# $arch: tracers by the image's symbols:$by_sym; by its .config:$by_cfg"
	t "$arch: the image's symbols take a tracer exactly when its .config builds it" [ -z "$bad" ]
	t "$arch: the image's symbols take nop and function" sh -c "echo ' $by_sym ' | grep -q ' nop function '"
}

# A copy of the mips64el kernel (its xz vmlinux.bin, unpacked) with one
# parameter's name changed in its table: compile --kernel refuses the word
# on the copy and takes it on the unchanged kernel.
removed() {
	d=$(sh "$root/tests/e2e/kernel-pkg.sh" mips64el 5kc-malta dbg) || { nok "mips64el: no kernel"; return; }
	for img in "$d"/root/boot/vmlinuz-*; do break; done
	# the first place the xz magic starts a stream xz unpacks
	for off in $(grep -abo "$(printf '\3757zXZ')" "$img" | cut -d: -f1); do
		tail -c +"$((off + 1))" "$img" | xz -dc >"$w/vmlinux.bin" 2>/dev/null && break
	done
	python3 - "$w/vmlinux.bin" "$w/vmlinux-no-bufsize.bin" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
n = b.count(b'\0trace_buf_size=\0')
assert n == 1, n
open(sys.argv[2], 'wb').write(b.replace(b'\0trace_buf_size=\0', b'\0trace_buf_sizX=\0'))
PY
	printf 'ftrace.tracer = function\nftrace.buffer_size = 4M\n' >"$w/buf.bconf"
	t "mips64el unpacked: trace_buf_size= accepted by the kernel's own table" \
		"$bt" compile -q -b mips-malta --kernel "$w/vmlinux.bin" "$w/buf.bconf"
	"$bt" compile -b mips-malta --kernel "$w/vmlinux-no-bufsize.bin" "$w/buf.bconf" >/dev/null 2>"$w/buf.err"
	t "mips64el copy without trace_buf_size= in its table: the word refused, naming the copy" \
		grep -q "buf.bconf:2:.*trace_buf_size=: the kernel image $w/vmlinux-no-bufsize.bin has no such boot parameter" "$w/buf.err"
	# the image's table beats the version table: a copy whose table has
	# trace_instance= (6.3) where trace_buf_size= was, as a backport would,
	# takes kernel.trace_instance even with -k 6.1
	python3 - "$w/vmlinux.bin" "$w/vmlinux-ti.bin" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(b.replace(b'\0trace_buf_size=\0', b'\0trace_instance=\0'))
PY
	printf 'kernel.trace_instance = foo\n' >"$w/ti2.bconf"
	t "mips64el copy with trace_instance= in its table: taken with -k 6.1 (the image beats the version table)" \
		"$bt" compile -q -b mips-malta -k 6.1 --kernel "$w/vmlinux-ti.bin" "$w/ti2.bconf"
	"$bt" compile -b mips-malta -k 6.1 --kernel "$w/vmlinux.bin" "$w/ti2.bconf" >/dev/null 2>"$w/ti2.err"
	t "mips64el unchanged, -k 6.1: trace_instance= refused naming the image" \
		grep -q "trace_instance=: the kernel image $w/vmlinux.bin has no such boot parameter" "$w/ti2.err"
}

# What --kernel IMAGE says of the kernel besides its symbols (docs/kernel-image.md):
# a bzImage's command-line size, its setup header's cmdline_size read here with
# od as the oracle (kernel-facts 110), replacing the board's; an ELF vmlinuz keeps
# the board's; Debian's kernels keep no .config (no IKCONFIG), so the one beside
# the image, config-RELEASE with RELEASE from the banner, is taken: Debian's
# cloud-amd64 6.1 leaves CONFIG_BOOT_CONFIG unset, so -t bootconfig is refused
# naming that file, and a copy of it with CONFIG_BOOT_CONFIG=y beside a link
# to the image takes it.
ownfacts() {
	d=$(sh "$root/tests/e2e/kernel-pkg.sh" amd64 cloud-amd64 dbg) || { nok "amd64: no kernel"; return; }
	for img in "$d"/root/boot/vmlinuz-*; do break; done
	rel=${img##*/vmlinuz-}
	printf 'ftrace.tracer = function\nftrace.ftrace.filters = vfs_read\n' >"$w/own.bconf"
	size=$(od -An -tu4 -j 568 -N4 "$img" | tr -d ' ')
	proto=$(od -An -tx2 -j 518 -N2 "$img" | tr -d ' ')
	echo "# amd64: setup header: boot protocol 0x$proto, cmdline_size $size"
	"$bt" compile -v -b qemu-x86_64 --kernel "$img" "$w/own.bconf" >/dev/null 2>"$w/own.err"
	t "amd64: command-line size $((size + 1)) from the image's setup header (cmdline_size $size, od's)" \
		grep -q "^route: command-line size $((size + 1)) from the image's setup header (cmdline_size $size at byte 568 of $img)" "$w/own.err"
	t "amd64: the kernel config is config-$rel beside the image (Debian's kernels keep none)" \
		grep -q "note: kernel config: $d/root/boot/config-$rel beside the image (release $rel, from its banner; the image keeps no .config of its own)" "$w/own.err"
	"$bt" compile -t bootconfig -b qemu-x86_64 --kernel "$img" "$w/own.bconf" >/dev/null 2>"$w/own1.err"
	t "amd64: config-$rel (CONFIG_BOOT_CONFIG unset) beside the image refuses -t bootconfig, naming it" \
		grep -q "CONFIG_BOOT_CONFIG is not set in $d/root/boot/config-$rel" "$w/own1.err"
	mkdir -p "$w/boot"
	ln -s "$img" "$w/boot/vmlinuz-$rel"
	sed 's/^# CONFIG_BOOT_CONFIG is not set$/CONFIG_BOOT_CONFIG=y/' "$d/root/boot/config-$rel" >"$w/boot/config-$rel"
	t "amd64: a copy of config-$rel with CONFIG_BOOT_CONFIG=y beside a link to the image takes -t bootconfig" \
		"$bt" compile -q -t bootconfig -b qemu-x86_64 --kernel "$w/boot/vmlinuz-$rel" "$w/own.bconf"
	d=$(sh "$root/tests/e2e/kernel-pkg.sh" mips64el 5kc-malta dbg) || { nok "mips64el: no kernel"; return; }
	for img in "$d"/root/boot/vmlinuz-*; do break; done
	"$bt" compile -v -b mips-malta --kernel "$img" "$w/own.bconf" >/dev/null 2>"$w/own3.err"
	t "mips64el: an ELF vmlinuz keeps the board's command-line size (256), -v says so" \
		grep -q "^route: command-line size 256 from board mips-malta ($img: no x86 setup header with cmdline_size in it)" "$w/own3.err"
}

ownfacts
one amd64 cloud-amd64
one mips64el 5kc-malta
one arm64 cloud-arm64
params amd64 cloud-amd64 qemu-x86_64
params mips64el 5kc-malta mips-malta
params arm64 cloud-arm64 qemu-arm64-uboot
tracers amd64 cloud-amd64 qemu-x86_64
tracers mips64el 5kc-malta mips-malta
tracers arm64 cloud-arm64 qemu-arm64-uboot
removed
finish
