#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build hardening (issue 15, class 9): the installed binary is built as a
# distribution builds it (PIE, full RELRO, stack protector, _FORTIFY_SOURCE),
# the Makefile honours CPPFLAGS/CFLAGS/LDFLAGS from the environment, and
# -Werror is for developer builds only. Checked with readelf on the binary
# and Debian's hardening-check (devscripts).
# Usage: tests/cli/hardening.sh [BINARY]   (default build/boottrace)
# Last line: "hardening: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 3
BIN=${1:-build/boottrace}
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
nok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; }
check() { # name command...
	name=$1; shift
	if "$@"; then ok "$name"; else nok "$name"; fi
}
TMP=$(mktemp -d) || exit 3
trap 'rm -rf "$TMP"' EXIT

command -v readelf >/dev/null || { nok "readelf is not installed (binutils)"; echo "hardening: $PASS passed, $FAIL failed"; exit 1; }
[ -x "$BIN" ] || { nok "$BIN: not built (make all)"; echo "hardening: $PASS passed, $FAIL failed"; exit 1; }

# ---- the binary ----------------------------------------------------------
readelf -hW "$BIN" >"$TMP/h"
readelf -dW "$BIN" >"$TMP/d"
readelf -lW "$BIN" >"$TMP/l"
readelf --dyn-syms -W "$BIN" >"$TMP/s"
check "PIE: an ELF of type DYN with FLAGS_1 PIE" \
	sh -c 'grep -q "Type: *DYN" "$1" && grep -q "FLAGS_1.*PIE" "$2"' sh "$TMP/h" "$TMP/d"
check "full RELRO: a GNU_RELRO segment" grep -q GNU_RELRO "$TMP/l"
check "full RELRO: BIND_NOW (-z now)" grep -Eq 'BIND_NOW|FLAGS_1.*NOW' "$TMP/d"
check "stack protector: __stack_chk_fail is called" grep -q '__stack_chk_fail' "$TMP/s"
check "_FORTIFY_SOURCE: checked libc functions (__*_chk) are called" \
	sh -c 'grep -v __stack_chk_fail "$1" | grep -Eq " __[a-z0-9_]+_chk(@|$)"' sh "$TMP/s"
check "non-executable stack: GNU_STACK is RW" grep -Eq 'GNU_STACK.* RW ' "$TMP/l"
# devscripts is in scripts/debian-packages.txt: a missing hardening-check fails.
# Control-flow integrity needs the IBT/SHSTK property in every object linked,
# and Debian 12's own crt1.o has none (readelf -n), so no program linked there
# gets it: our objects carry it (-fcf-protection, checked below), the
# whole binary cannot.
check "hardening-check $BIN (devscripts; CFI aside)" hardening-check --nocfprotection "$BIN"
case $(${CC:-cc} -dumpmachine) in
x86_64*) check "our objects carry the x86 IBT/SHSTK property (-fcf-protection)" \
	sh -c 'readelf -n build/obj/bootcfg/util/grow.o | grep -q "IBT, SHSTK"' ;;
esac

# ---- the Makefile --------------------------------------------------------
# what make would run for one object and the link (make -n: nothing built)
cmds() { make -s -n -B "$@" build/obj/bootcfg/util/grow.o build/boottrace 2>&1; }
cmds CPPFLAGS=-DBT_ENV_CPP CFLAGS='-O1 -g3' LDFLAGS=-Wl,--build-id=sha1 >"$TMP/env"
check "CPPFLAGS, CFLAGS and LDFLAGS from the command line are used" \
	sh -c 'grep -q "BT_ENV_CPP.*-O1 -g3 -c -o build/obj/bootcfg/util/grow.o" "$1" && grep -q "O1 -g3.*--build-id=sha1 -o build/boottrace" "$1"' sh "$TMP/env"
CPPFLAGS=-DBT_ENV_CPP CFLAGS='-O1 -g3' LDFLAGS=-Wl,--build-id=sha1 make -s -n -B build/obj/bootcfg/util/grow.o build/boottrace >"$TMP/env2" 2>&1
check "CPPFLAGS, CFLAGS and LDFLAGS from the environment are used" cmp -s "$TMP/env" "$TMP/env2"
check "hardening is added to the caller's flags" \
	sh -c 'grep -q -- "-D_FORTIFY_SOURCE=2.*-fstack-protector-strong -fstack-clash-protection.* -fPIE" "$1" && grep -q -- "-pie -Wl,-z,relro,-z,now" "$1"' sh "$TMP/env"
CPPFLAGS='-D_FORTIFY_SOURCE=3' cmds >"$TMP/f3"
check "a _FORTIFY_SOURCE the caller set is kept, not redefined" \
	sh -c '! grep -q -- "-D_FORTIFY_SOURCE=2" "$1" && grep -q -- "-D_FORTIFY_SOURCE=3" "$1"' sh "$TMP/f3"
cmds CFLAGS='-O0 -g' >"$TMP/o0"
check "no _FORTIFY_SOURCE at -O0 (glibc warns without the optimizer)" sh -c '! grep -q FORTIFY "$1"' sh "$TMP/o0"
make -s -n -B build/asan/bootcfg/util/grow.o build/tsan/bootcfg/util/grow.o >"$TMP/san" 2>&1
check "no _FORTIFY_SOURCE in the ASan and TSan builds" \
	sh -c 'grep -q fsanitize=address "$1" && ! grep -q FORTIFY "$1"' sh "$TMP/san"
# this tree is a git checkout, or the dist tarball extracted (tests/e2e/dist.sh)
if [ -e .git ]; then
	check "a git checkout builds with -Werror" grep -q -- '-Werror' "$TMP/env"
else
	check "this tree, a release tarball, builds without -Werror" sh -c '! grep -q -- -Werror "$1"' sh "$TMP/env"
fi
cmds WERROR=0 >"$TMP/w0"
check "WERROR=0 builds without -Werror" sh -c '! grep -q -- -Werror "$1"' sh "$TMP/w0"
# a release tarball: no .git beside the Makefile
mkdir -p "$TMP/rel/bootcfg/util" "$TMP/rel/bootcfg/cmd"
: >"$TMP/rel/bootcfg/util/grow.c"
(cd "$TMP/rel" && make -s -n -B -f "$OLDPWD/Makefile" build/obj/bootcfg/util/grow.o) >"$TMP/rel.out" 2>&1
check "a release tarball builds without -Werror" \
	sh -c 'grep -q -- "-Wall -Wextra" "$1" && ! grep -q -- -Werror "$1"' sh "$TMP/rel.out"
(cd "$TMP/rel" && make -s -n -B -f "$OLDPWD/Makefile" DEVELOPER=1 build/obj/bootcfg/util/grow.o) >"$TMP/dev.out" 2>&1
check "DEVELOPER=1 builds with -Werror anywhere" grep -q -- -Werror "$TMP/dev.out"
make -s -n -B check 2>/dev/null | grep -- '-c -o' | head -1 >"$TMP/chk"
check "make check builds with -Werror" sh -c '[ ! -s "$1" ] || grep -q -- -Werror "$1"' sh "$TMP/chk"

# ---- a real build with Debian's flags (dpkg-buildflags, hardening=+all) ----
if CPPFLAGS='-Wdate-time -D_FORTIFY_SOURCE=2' \
	CFLAGS='-g -O2 -ffile-prefix-map=/build=. -fstack-protector-strong -Wformat -Werror=format-security' \
	LDFLAGS='-Wl,-z,relro -Wl,-z,now' WERROR=1 \
	make -s -j2 B="$TMP/deb" "$TMP/deb/boottrace" >"$TMP/deb.log" 2>&1; then
	ok "builds with Debian's flags and -Werror, no warning"
	check "that build runs" "$TMP/deb/boottrace" --version
else
	nok "builds with Debian's flags and -Werror (log below)"
	tail -20 "$TMP/deb.log"
fi

echo "hardening: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
