#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build hardening (issue 15, class 9): the installed binary is built as a
# distribution builds it (PIE, full RELRO, stack protector, _FORTIFY_SOURCE),
# the Makefile honours CPPFLAGS/CFLAGS/LDFLAGS from the environment, and
# -Werror is for developer builds only. Checked with readelf on the binary
# and Debian's hardening-check (devscripts).
# The Makefile's checks run make -n with the flags each one means, whatever
# the caller's environment holds (tests/lib/testenv.sh clears it: a
# package build exports dpkg-buildflags' CFLAGS/CPPFLAGS/LDFLAGS, a parent
# make passes its command-line variables in MAKEFLAGS); one check runs them
# again under such an environment (issue 32).
# Usage: tests/cli/hardening.sh [BINARY]   (default build/boottrace)
#        tests/cli/hardening.sh --makefile (the Makefile's checks only)
# Last line: "hardening: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 3
. tests/lib/testenv.sh
bt_clear_buildenv
MAKEFILE_ONLY=0
[ "${1:-}" = --makefile ] && { MAKEFILE_ONLY=1; shift; }
BIN=${1:-build/boottrace}
PASS=0
FAIL=0
ok() { PASS=$((PASS + 1)); echo "ok - $1"; }
nok() { FAIL=$((FAIL + 1)); echo "not ok - $1"; }
check() { # name command...
	name=$1; shift
	if "$@"; then ok "$name"; else nok "$name"; fi
}
# the flag itself: -Werror=format-security (Debian's CFLAGS) is not it
werror() { grep -Eq -- '(^|[[:space:]])-Werror([[:space:]]|$)' "$1"; }
no_werror() { ! werror "$1"; }
TMP=$(mktemp -d) || exit 3
trap 'rm -rf "$TMP"' EXIT

if [ "$MAKEFILE_ONLY" = 0 ]; then
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
fi

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
	check "a git checkout builds with -Werror" werror "$TMP/env"
else
	check "this tree, a release tarball, builds without -Werror" no_werror "$TMP/env"
fi
cmds WERROR=0 >"$TMP/w0"
check "WERROR=0 builds without -Werror" no_werror "$TMP/w0"
# Debian's CFLAGS carry -Werror=format-security: kept, and no -Werror added
cmds WERROR=0 CFLAGS='-O2 -Werror=format-security' >"$TMP/w0fs"
werror_fs_only() { grep -q -- '-Werror=format-security -c -o' "$1" && no_werror "$1"; }
check "WERROR=0 keeps the caller's -Werror=format-security and adds no -Werror" werror_fs_only "$TMP/w0fs"
# a release tarball: no .git beside the Makefile
mkdir -p "$TMP/rel/bootcfg/util" "$TMP/rel/bootcfg/cmd"
: >"$TMP/rel/bootcfg/util/grow.c"
(cd "$TMP/rel" && make -s -n -B -f "$OLDPWD/Makefile" build/obj/bootcfg/util/grow.o) >"$TMP/rel.out" 2>&1
release_warnings() { grep -q -- "-Wall -Wextra" "$1" && no_werror "$1"; }
check "a release tarball builds without -Werror" release_warnings "$TMP/rel.out"
(cd "$TMP/rel" && make -s -n -B -f "$OLDPWD/Makefile" DEVELOPER=1 build/obj/bootcfg/util/grow.o) >"$TMP/dev.out" 2>&1
check "DEVELOPER=1 builds with -Werror anywhere" werror "$TMP/dev.out"
make -s -n -B check 2>/dev/null | grep -- '-c -o' | head -1 >"$TMP/chk"
none_or_werror() { [ ! -s "$1" ] || werror "$1"; }
check "make check builds with -Werror" none_or_werror "$TMP/chk"
# The class (issue 32): every `VAR ?=` of the Makefile, which the
# environment sets, is one tests/lib/testenv.sh clears; CC and CLANG (the
# compiler), FUZZ_SECONDS and DEMO (no build or install) aside.
unlisted=
for v in $(sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)[[:space:]]*?=.*/\1/p' Makefile); do
	case " CC CLANG FUZZ_SECONDS DEMO " in *" $v "*) continue ;; esac
	(eval "$v=set; export $v"; bt_clear_buildenv; eval "[ -z \"\${$v+x}\" ]") || unlisted="$unlisted $v"
done
check "bt_clear_buildenv clears every VAR ?= of the Makefile${unlisted:+ (not:$unlisted)}" [ -z "$unlisted" ]
if [ "$MAKEFILE_ONLY" = 1 ]; then
	echo "hardening: $PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
	exit
fi

# Issue 32: the checks above again, under a Debian package build's
# environment (dpkg-buildflags --export, as dpkg-buildpackage gives
# `make test`) and a parent make's command-line variables and options
# (make WERROR=0 -e test): each check means its own flags, whatever is
# inherited. They failed when the environment reached them.
if command -v dpkg-buildflags >/dev/null; then
	(
		eval "$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)"
		export MAKEFLAGS='e -- WERROR=0' MFLAGS=-e MAKELEVEL=1 DEVELOPER=1 HARDEN_CFLAGS=
		sh tests/cli/hardening.sh --makefile
	) >"$TMP/inherited" 2>&1
	if tail -n 1 "$TMP/inherited" | grep -q ' 0 failed$'; then
		ok "the Makefile's checks pass under dpkg-buildflags' exported flags and a parent make's MAKEFLAGS ($(tail -n 1 "$TMP/inherited"))"
	else
		nok "the Makefile's checks pass under dpkg-buildflags' exported flags and a parent make's MAKEFLAGS"
		grep '^not ok\|^hardening:' "$TMP/inherited" | sed 's/^/# inherited: /'
	fi
else
	nok "dpkg-buildflags is not installed (dpkg-dev, scripts/debian-packages.txt: build-essential)"
fi

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
