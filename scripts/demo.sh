#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make demo`: what boottrace does today, on the bundled example and a real
# initramfs built here. The kernel's own tools/bootconfig (built from
# Debian's linux-source-6.1) reads back what we wrote.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
BT=$root/build/boottrace
conf=$root/tests/data/example.bconf
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM HUP

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
run() { printf '$ %s\n' "$*"; "$@"; }

step "The example config (bootconfig syntax), as the kernel parses it"
run "$BT" bootconfig "$conf"
step "The same, one line per key (bootconfig -l)"
run "$BT" bootconfig -l "$conf"

step "A real initramfs: a newc cpio archive with an /init, gzip-compressed"
mkdir -p "$work/root/bin" "$work/root/proc" "$work/root/sys"
printf '#!/bin/sh\necho hello from init\n' >"$work/root/init"
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet | gzip -9n) >"$work/initrd.img"
cp "$work/initrd.img" "$work/initrd.orig"
ls -l "$work/initrd.img" | awk '{print $5 " bytes"}'

step "Embed the config (atomically: temp file, fsync, rename)"
(cd "$work" && cp "$conf" trace.bconf && run "$BT" bootconfig -a trace.bconf initrd.img)
printf 'footer: '
tail -c 20 "$work/initrd.img" | od -An -c | tr -s ' ' | head -2

if kt=$(sh "$root/tests/diff/kernel-tool.sh" 2>/dev/null); then
	step "The kernel's own tools/bootconfig reads it back"
	run "$kt" -l "$work/initrd.img"
fi

step "Delete it again: the original bytes come back exactly"
run "$BT" bootconfig -d "$work/initrd.img"
cmp "$work/initrd.img" "$work/initrd.orig" && echo "identical to the original initrd"

step "Mistakes are caught before the reboot, with file, line and column"
printf 'ftrace {\n\ttracer = function\n\ttracer = function_graph\n}\n' >"$work/redefined.bconf"
run "$BT" bootconfig -a "$work/redefined.bconf" "$work/initrd.img" || true
printf 'ftrace.options = "sym-addr\n' >"$work/unclosed.bconf"
run "$BT" bootconfig "$work/unclosed.bconf" || true
run "$BT" bootconfig -a "$conf" "$root/README.md" || true
cmp "$work/initrd.img" "$work/initrd.orig" && echo "(the initrd was not touched)"

step "Not built yet"
echo "compile (config -> cmdline / bootconfig / U-Boot forms), check (symbols),"
echo "the initramfs hook and report are later stages; see README.md."
