#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Differential test: bconf_cmdline_next() against the kernel's next_arg().
#
# The kernel's lib/cmdline.c is taken from the Debian linux-source tarball
# at test time and built for userspace with a small shim; nothing from it is
# kept in this repository. The extracted file is cached, keyed by the
# tarball's sha256, under ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/.
#
# Environment: KERNEL_TARBALL (default /usr/src/linux-source-6.1.tar.xz),
# CMDLINE_DIFF_SEED (default 1), CMDLINE_DIFF_COUNT (default 5000), CC.
#
# The last line printed is always "cmdline-diff: N passed, N failed"; the
# exit status is 0 only when nothing failed (77 when the tarball is
# missing, so a harness can report a skip rather than a pass).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tarball=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
seed=${CMDLINE_DIFF_SEED:-1}
count=${CMDLINE_DIFF_COUNT:-5000}
cc=${CC:-cc}
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/cmdline-oracle

give_up() {
	echo "cmdline-oracle: $1" >&2
	echo "cmdline-diff: 0 passed, ${3:-1} failed"
	exit "$2"
}

[ -r "$tarball" ] ||
	give_up "$tarball not found (apt-get install linux-source-6.1)" 77 0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# ---- the kernel's lib/cmdline.c, cached per tarball -----------------------
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
cache=$cache_root/$sum
if [ ! -s "$cache/cmdline.c" ]; then
	mkdir -p "$cache"
	top=$(basename "$tarball" .tar.xz)
	echo "cmdline-oracle: extracting $top/lib/cmdline.c (once per tarball)" >&2
	tar -xJf "$tarball" -O "$top/lib/cmdline.c" >"$cache/cmdline.c.part" ||
		give_up "cannot extract $top/lib/cmdline.c from $tarball" 1
	mv "$cache/cmdline.c.part" "$cache/cmdline.c"
fi
grep -q '^char \*next_arg(' "$cache/cmdline.c" ||
	give_up "$cache/cmdline.c has no next_arg(); delete it and retry" 1

# ---- userspace shim for the kernel headers cmdline.c includes -------------
mkdir -p "$tmp/shim/linux"
cat >"$tmp/shim/kshim.h" <<'EOF'
/* Just enough of the kernel API for lib/cmdline.c in userspace. */
#ifndef KSHIM_H
#define KSHIM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_SYMBOL(sym)
#define fallthrough __attribute__((__fallthrough__))
#define simple_strtol strtol
#define simple_strtoull strtoull

/*
 * ASCII whitespace, as libbconf defines it. The kernel's ctype table also
 * has 0xa0 as a space; the generated lines never contain it.
 */
static inline int kshim_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}
#define isspace(c) kshim_isspace((unsigned char)(c))
#define isdigit(c) ((unsigned char)(c) - '0' < 10u)

char *skip_spaces(const char *str);
#endif
EOF
for h in export kernel string ctype; do
	echo '#include <kshim.h>' >"$tmp/shim/linux/$h.h"
done
cat >"$tmp/shim/kshim.c" <<'EOF'
#include <kshim.h>

char *skip_spaces(const char *str)
{
	while (isspace(*str))
		++str;
	return (char *)str;
}
EOF

# ---- build: the whole file if it compiles, else next_arg() alone ----------
kflags="-std=gnu11 -O1 -g -w -I$tmp/shim"
if ! $cc $kflags -c "$cache/cmdline.c" -o "$tmp/cmdline.o" 2>"$tmp/cc.log"; then
	echo "cmdline-oracle: lib/cmdline.c does not build standalone," \
		"using next_arg() alone" >&2
	awk '/^char \*next_arg\(/, /^}/' "$cache/cmdline.c" >"$tmp/next_arg.c"
	[ -s "$tmp/next_arg.c" ] ||
		give_up "next_arg() not found in $cache/cmdline.c" 1
	$cc $kflags -include kshim.h -c "$tmp/next_arg.c" -o "$tmp/cmdline.o" ||
		give_up "next_arg() does not build either (see above)" 1
fi
$cc $kflags -c "$tmp/shim/kshim.c" -o "$tmp/kshim.o" ||
	give_up "shim does not build" 1

$cc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	-I"$root/parser" -o "$tmp/cmdline_diff" \
	"$here/cmdline_diff.c" "$root/parser/bconf_cmdline.c" \
	"$tmp/cmdline.o" "$tmp/kshim.o" ||
	give_up "cannot build the driver" 1

# The driver prints the final line itself, unless it crashed.
rc=0
"$tmp/cmdline_diff" "$seed" "$count" || rc=$?
[ "$rc" -le 1 ] || give_up "the driver crashed (exit $rc)" 1
exit "$rc"
