#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boottrace check against a real Debian kernel (tests/e2e/debian-kernel.sh:
# linux-image-6.1.0-*-cloud-amd64 and its -dbg vmlinux, cached). Covers:
# existing, missing, near miss, notrace, module (plain, .xz, .zst), __init
# function with its initcall level, wildcard, .config, --callers, and the
# unpacked-package form (--root). Last line: "check: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bt=${BT:-$root/build/boottrace}
k=$(sh "$root/tests/e2e/debian-kernel.sh") || { echo "SKIP: no Debian kernel (network?)"; exit 77; }
w=$(mktemp -d "${TMPDIR:-/tmp}/bt-check-e2e.XXXXXX")
trap 'rm -rf "$w"' EXIT INT TERM HUP
pass=0
fail=0

# ok NAME CMD...: the command's output (stdout+stderr) in $w/out, status in $rc
expect() { # NAME WANT_STATUS PATTERN...
	name=$1 want=$2
	shift 2
	if [ "$rc" != "$want" ]; then
		echo "FAIL $name: exit $rc, not $want"; sed 's/^/    /' "$w/out" | head -n 20
		fail=$((fail + 1)); return
	fi
	for pat in "$@"; do
		if ! grep -qF -- "$pat" "$w/out"; then
			echo "FAIL $name: no '$pat' in:"; sed 's/^/    /' "$w/out" | head -n 20
			fail=$((fail + 1)); return
		fi
	done
	echo "ok   $name"
	pass=$((pass + 1))
}
run() { "$bt" "$@" >"$w/out" 2>&1; rc=$?; }

bond=$k/modules/drivers/net/bonding
cat >"$w/bond0.bconf" <<'CONF'
ftrace {
	tracer = function
	ftrace.filters = register_netdevice
	options = func_stack_trace
}
boottrace.arm = "bond_create:mod:bonding", "bonding_init:mod:bonding"
CONF

run check --vmlinux "$k/vmlinux" --modules "$bond" --kernel-config "$k/config" "$w/bond0.bconf"
expect "bond0: core traceable, module functions with the module message" 0 \
	"note: register_netdevice found in vmlinux, traceable (it has an mcount/fentry site)" \
	"note: bond_create found in module bonding (bonding.ko): the hook writes 'bond_create:mod:bonding'" \
	"note: bonding_init found in module bonding (bonding.ko)" \
	"note: the function tracer is in this kernel: $k/vmlinux's symbols have function_trace_init, its code" \
	"it is the module's init code" "check: 0 error(s), 0 warning(s)"

sed 's/register_netdevice$/register_netdev1ce/' "$w/bond0.bconf" >"$w/typo.bconf"
run check --vmlinux "$k/vmlinux" --modules "$bond" "$w/typo.bconf"
expect "typo: did you mean register_netdevice" 1 \
	"typo.bconf:3:9: error: ftrace filter 'register_netdev1ce' is not a function of this kernel or its modules; did you mean register_netdevice"

printf 'ftrace.ftrace.filters = native_safe_halt, netdev_run_todo, net_dev_init, migration_init, "tcp_*", "*", bond_create\n' >"$w/mix.bconf"
run check --vmlinux "$k/vmlinux" --modules "$bond" "$w/mix.bconf"
expect "notrace, clone, init level, wildcards, module function as plain filter" 1 \
	"error: native_safe_halt is in vmlinux but has no mcount/fentry site" \
	"net_dev_init is registered with subsys_initcall (level 4)" \
	"warning: migration_init is registered with early_initcall (level early)" \
	"'tcp_*' matches " "warning: '*' matches " \
	"error: bond_create is in module bonding, not in vmlinux"

# compile --check: the same checks before compiling; findings on stderr,
# the compiled line on stdout, an error stops the compile.
"$bt" compile -k 6.1 --check --vmlinux "$k/vmlinux" --modules "$bond" "$w/bond0.bconf" \
	>"$w/line" 2>"$w/out"
rc=$?
expect "compile --check: checked, then compiled" 0 \
	"register_netdevice found in vmlinux, traceable" "check: 0 error(s)"
if [ "$(cat "$w/line")" != "ftrace=function ftrace_filter=register_netdevice trace_options=func_stack_trace trace_clock=global boottrace.arm=bond_create:mod:bonding,bonding_init:mod:bonding" ]; then
	echo "FAIL compile --check: stdout is '$(cat "$w/line")'"; fail=$((fail + 1))
fi
"$bt" compile -k 6.1 --vmlinux "$k/vmlinux" "$w/typo.bconf" >"$w/line" 2>"$w/out"
rc=$?
expect "compile --vmlinux: a typo stops the compile" 1 \
	"did you mean register_netdevice"
[ ! -s "$w/line" ] || { echo "FAIL compile --check: compiled despite the error"; fail=$((fail + 1)); }
"$bt" compile --who-calls register_netdevice -b mips-malta -k 6.1 \
	--callers bond_create:mod:bonding,bonding_initt:mod:bonding \
	--vmlinux "$k/vmlinux" --modules "$bond" >"$w/line" 2>"$w/out"
rc=$?
expect "compile --who-calls --check: a misspelt caller is caught" 1 \
	"bonding_initt"

# --who-calls in parent-chain mode without --callers: the callers come
# from the caller analysis, module callers armed by the hook. Malta's
# 255-byte line holds one level of them, and compile says what it cut;
# the whole tree goes to the hook's settings file (--hook-settings).
"$bt" compile --who-calls register_netdevice -b mips-malta -k 6.1 --modules "$bond" \
	>"$w/out" 2>&1
rc=$?
expect "compile --who-calls on Malta's short line: one level, and says what did not fit" 0 \
	"ftrace=function ftrace_filter=register_netdevice boottrace.arm=" \
	"bond_create:mod:bonding" "do not fit the board's command line; traced up to level 1"
"$bt" compile --who-calls register_netdevice -b mips-malta -k 6.1 --modules "$bond" \
	--hook-settings "$w/hook.conf" >"$w/out" 2>&1 && cat "$w/hook.conf" >>"$w/out"
rc=$?
expect "compile --who-calls finds the module callers itself, the tree in the settings file" 0 \
	"ftrace=function ftrace_filter=register_netdevice" \
	"boottrace.arm = \"" "bond_create:mod:bonding" "bonding_init:mod:bonding"
if grep -q '\.cold' "$w/out"; then
	echo "FAIL compile --who-calls: a .cold part named as a caller"; fail=$((fail + 1))
fi
"$bt" compile --who-calls register_netdevice -b edgerouter-lite -k 6.1 \
	--vmlinux "$k/vmlinux" --modules "$bond" >"$w/line" 2>"$w/out"
rc=$?
expect "compile --who-calls: core callers too, checked against vmlinux" 0 \
	"check: 0 error(s)"
grep -q 'ftrace_filter=register_netdevice,register_netdev' "$w/line" ||
	{ echo "FAIL compile --who-calls: no core callers in '$(cat "$w/line")'"; fail=$((fail + 1)); }

# System.map + kallsyms-style text: existence without traceability.
run check --system-map "$k/System.map" "$w/bond0.bconf"
expect "System.map: found, traceability not checked" 0 \
	"register_netdevice found in vmlinux; traceability not checked" \
	"bond_create:mod:bonding not checked: no --modules given"
grep -E ' T register_netdevice$' "$k/System.map" >"$w/kallsyms"
nm --defined-only "$bond/bonding.ko" |
	awk '$2 ~ /^[tT]$/ { print "ffffffffc0400000", $2, $3 "\t[bonding]" }' >>"$w/kallsyms"
run check --system-map "$w/kallsyms" "$w/bond0.bconf"
expect "kallsyms text with [module]" 0 "register_netdevice found in vmlinux" \
	"bond_create found in module bonding" "bonding_init found in module bonding"

# Compressed modules, as MODULE_COMPRESS_XZ / _ZSTD write them.
mkdir -p "$w/mods"
xz --check=crc32 --lzma2=dict=1MiB -c "$bond/bonding.ko" >"$w/mods/bonding.ko.xz"
run check --vmlinux "$k/vmlinux" --modules "$w/mods" "$w/bond0.bconf"
expect "bonding.ko.xz" 0 "bond_create found in bonding, traceable"
rm "$w/mods/bonding.ko.xz"
zstd -q -c "$bond/bonding.ko" >"$w/mods/bonding.ko.zst"
run check --vmlinux "$k/vmlinux" --modules "$w/mods" "$w/bond0.bconf"
expect "bonding.ko.zst" 0 "bonding_init found in bonding, traceable"

# .config: Debian's has everything the plan needs, minus bootconfig.
sed 's/^CONFIG_KPROBE_EVENTS=y/# CONFIG_KPROBE_EVENTS is not set/' "$k/config" >"$w/config"
printf 'ftrace.event.kprobes.rn.probes = "register_netdevice dev=%%di"\n' >"$w/kp.bconf"
run check --vmlinux "$k/vmlinux" --kernel-config "$w/config" "$w/kp.bconf"
expect ".config without KPROBE_EVENTS" 1 "a kprobe event needs CONFIG_KPROBE_EVENTS" \
	"kprobe point register_netdevice found in vmlinux"

# An unpacked package (dpkg -x layout) found by --root.
mkdir -p "$w/root/boot" "$w/root/usr/lib/debug/boot" "$w/root/lib/modules/v/kernel"
ln -s "$k/config" "$w/root/boot/config-v"
ln -s "$k/vmlinux" "$w/root/usr/lib/debug/boot/vmlinux-v"
printf 'ffffffffffffffff B The real System.map is in the -dbg package\n' >"$w/root/boot/System.map-v"
# the module files linked, not their directory: the modules walk follows no
# directory link (lib/modules/*/build and source point into kernel sources)
mkdir -p "$w/root/lib/modules/v/kernel/bonding"
ln -s "$bond"/* "$w/root/lib/modules/v/kernel/bonding/"
run check --root "$w/root" "$w/bond0.bconf"
expect "--root on a dpkg -x tree" 0 "bonding_init found in module bonding" \
	"register_netdevice found in vmlinux, traceable"

# Debian's placeholder map (kernel-facts 16), given directly and as the only
# symbols of a --root tree: it says where the real ones are.
printf 'ffffffffffffffff B The real System.map is in the linux-image-6.1.0-56-cloud-amd64-dbg package\n' >"$w/placeholder"
run check --system-map "$w/placeholder" "$w/bond0.bconf"
expect "the placeholder System.map names the -dbg package" 1 \
	"error: a placeholder, not a symbol table" \
	"in the linux-image-6.1.0-56-cloud-amd64-dbg package" "/proc/kallsyms"
# Modules alone: register_netdevice is core; not checkable, never "missing".
printf 'ftrace.tracer = function\nftrace.ftrace.filters = register_netdevice\nboottrace.arm = "bond_create:mod:bonding"\n' >"$w/core.bconf"
run check --modules "$bond" "$w/core.bconf"
expect "--modules alone: core names not checked, says what to pass" 0 \
	"'register_netdevice' is in none of the modules given; core-kernel names cannot be checked" \
	"give --vmlinux" "bond_create found in module bonding"
if grep -q 'did you mean\|not a function of this kernel' "$w/out"; then
	echo "FAIL --modules alone: a core name called missing"; fail=$((fail + 1))
fi

run check --callers register_netdevice --depth 3 --vmlinux "$k/vmlinux" --modules "$bond"
expect "--callers: bond_create <- bonding_init" 0 "  <- bond_create [bonding]" \
	"    <- bonding_init [bonding]" "  <- register_netdev"

run check --vmlinux "$k/System.map" "$w/bond0.bconf"
expect "a text file as --vmlinux" 1 "System.map: error: not an ELF file: expected a vmlinux"

# mips64el (the seed's board): callers from the relocations of Debian's
# 5kc-malta bonding.ko, and --who-calls built from them.
if md=$(sh "$root/tests/e2e/kernel-pkg.sh" mips64el 5kc-malta); then
	mb=$(find "$md/root/lib/modules" -name 'bonding.ko*' | head -n 1)
	run check --callers register_netdevice --depth 3 --modules "${mb%/*}"
	expect "mips64el bonding.ko: register_netdevice <- bond_create <- bonding_init" 0 \
		"<- bond_create [bonding]" "    <- bonding_init [bonding]"
	run compile --who-calls register_netdevice -b mips-malta -k 6.1 --modules "${mb%/*}" \
		--hook-settings "$w/hook-mips.conf"
	cat "$w/hook-mips.conf" >>"$w/out"
	expect "mips64el: --who-calls arms the module callers it found (settings file)" 0 \
		"ftrace=function ftrace_filter=register_netdevice" \
		"boottrace.arm = \"bond_create:mod:bonding" "bonding_init:mod:bonding"
else
	echo "FAIL mips64el kernel: tests/e2e/kernel-pkg.sh could not fetch it"
	fail=$((fail + 1))
fi

echo "check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
