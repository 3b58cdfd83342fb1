#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel's own tools/bootconfig/test-bootconfig.sh, run against our
# bootconfig instead of the kernel's. Its "initrd" is random bytes, which
# our -a refuses without --force, so the binary it calls is a wrapper that
# adds --force; everything else is exactly the kernel's test.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
BT=${1:-$root/build/boottrace}
tool=$(sh "$root/tests/diff/kernel-tool.sh")
script=$(dirname "$tool")/src/linux-source-6.1/tools/bootconfig/test-bootconfig.sh
[ -r "$script" ] || { echo "kernel-suite: $script missing" >&2; exit 3; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM HUP
cp "$script" "$work/test-bootconfig.sh"
# The script applies every samples/*.bconf relative to its directory.
ln -s "$(dirname "$tool")/src/linux-source-6.1/tools/bootconfig/samples" "$work/samples"
printf '#!/bin/sh\nexec "%s" bootconfig --force "$@"\n' "$BT" >"$work/bootconfig"
chmod +x "$work/bootconfig"

rc=0
(cd "$work" && sh ./test-bootconfig.sh "$work") >"$work/out" 2>&1 || rc=$?
grep -B1 'NG\]' "$work/out" || true
p=$(sed -n 's/^# of Passed: *\([0-9]*\).*/\1/p' "$work/out")
f=$(sed -n 's/^# of Failed: *\([0-9]*\).*/\1/p' "$work/out")
[ -n "$p" ] || { tail -20 "$work/out"; echo "kernel-suite: no summary"; exit 1; }
echo "kernel-suite: ${p} passed, ${f:-0} failed"
[ "$rc" -eq 0 ] && [ "${f:-0}" -eq 0 ]
