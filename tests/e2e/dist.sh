#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 20: `make dist` twice gives the same bytes (into two temp dirs, the
# checkout untouched, README.md's mtime changed in between: only the last
# commit's time counts), the tarball holds what git tracks under
# boottrace-VERSION/. That the extracted tarball builds and passes `make
# test` (no .git there: a release build, warnings not errors) is checked by
# tests/e2e/package.sh, which builds the Debian packages from it with their
# tests (one make test, not two, in CI's time). Its makes run as
# a user's plain `make` would: the build flags a caller exports
# (dpkg-buildflags) or a parent make passes down (MAKEFLAGS: make
# package-check WERROR=1) are cleared first (tests/lib/testenv.sh).
# Last line: "dist: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/testenv.sh"
bt_clear_buildenv
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM HUP
v=$(cat "$root/VERSION")
t=boottrace-$v.tar.gz
mkdir "$work/a" "$work/b"
make -s -C "$root" dist DISTDIR="$work/a" >/dev/null && ok "make dist" || not_ok "make dist"
touch "$root/README.md"
make -s -C "$root" dist DISTDIR="$work/b" >/dev/null
if cmp -s "$work/a/$t" "$work/b/$t"; then
	ok "make dist twice: byte-identical ($(du -k "$work/a/$t" | cut -f1) KB)"
else
	not_ok "make dist twice: byte-identical"
fi
if [ "$(tar -tzf "$work/a/$t" | sort)" = "$(cd "$root" && git ls-files | LC_ALL=C sort | sed "s|^|boottrace-$v/|" | sort)" ]; then
	ok "the tarball holds the files git tracks, under boottrace-$v/"
else
	not_ok "the tarball holds the files git tracks, under boottrace-$v/"
fi
echo "dist: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
