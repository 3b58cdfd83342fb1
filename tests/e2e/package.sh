#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Issue 20: the Debian packages as a user gets them. In the release tarball
# (make dist, extracted: the checkout is never written), `dpkg-buildpackage -us -uc
# -b` exactly as README.md ("Install") tells users, tests included: its
# dh_auto_test runs `make test` under dpkg-buildflags' exported flags (issue
# 32: that failed while the build with DEB_BUILD_OPTIONS=nocheck passed).
# Nothing of this script's caller reaches it: DEB_BUILD_OPTIONS and
# DEB_BUILD_PROFILES (nocheck), the build flags and a parent make's
# MAKEFLAGS are cleared (tests/lib/testenv.sh). Then lintian on the
# .changes (no error), then into a clean Debian 12
# chroot with initramfs-tools and Debian's 6.1 cloud kernel: install
# boottrace and boottrace-initramfs-tools, `update-initramfs -u`, the hook
# inside the image (lsinitramfs), `boottrace boards` there, then purge and
# no file of the packages left. The chroot is a tarball made once with
# mmdebstrap and cached like tests/e2e/debian-root.sh's, under
# CACHE/boottrace/sysroot/debian12-itools-KEY.tar, KEY the SHA-256 of the
# suite, the package list and this script; CACHE is XDG_CACHE_HOME, else
# $HOME/.cache, else (no HOME) the password database's home or a directory
# of this user's own in TMPDIR (tests/lib/testenv.sh: bt_cache_dir).
# Needs root (chroot, mount); exits 77 with "SKIP:" otherwise.
# Last line: "package: N passed, N failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/testenv.sh"
bt_clear_buildenv
unset DEB_BUILD_OPTIONS DEB_BUILD_PROFILES
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $1"; }
not_ok() { fail=$((fail + 1)); echo "not ok - $1"; }
summary() {
	echo "package: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
say() { echo "package.sh: $*" >&2; }

[ "$(id -u)" = 0 ] || { echo "SKIP: package.sh needs root (chroot, mount /proc)"; exit 77; }
for t in dpkg-buildpackage dh lintian mmdebstrap; do
	command -v "$t" >/dev/null 2>&1 || { echo "SKIP: $t is not installed (make deps: scripts/debian-packages.txt)"; exit 77; }
done

# the chroot's cache (step 3): never /.cache when HOME is not set
XDG_CACHE_HOME=$(bt_cache_dir) || { echo "package.sh: no cache directory: set HOME or XDG_CACHE_HOME" >&2; exit 1; }

work=$(mktemp -d)
mounted=
cleanup() {
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
	[ -z "$mounted" ] || ! mountpoint -q "$mounted" && rm -rf "$work"
}
trap cleanup EXIT INT TERM HUP
t0=$(date +%s)

# 1. the packages, built from the release tarball (make dist: the files git
# tracks), make test included: this is also the one check that the tarball
# builds and passes make test (tests/e2e/dist.sh checks its bytes), one
# make test fewer for CI's time budget
before=$(cd "$root" && git status --porcelain | sha256sum)
v=$(cat "$root/VERSION")
if ! make -s -C "$root" dist DISTDIR="$work" >"$work/dist.log" 2>&1 ||
	! tar -xzf "$work/boottrace-$v.tar.gz" -C "$work" || ! mv "$work/boottrace-$v" "$work/src"; then
	cat "$work/dist.log"
	not_ok "make dist, extracted"
	summary
fi
t1=$(date +%s)
if (cd "$work/src" && dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1); then
	ok "dpkg-buildpackage -us -uc -b, make test included ($(($(date +%s) - t1)) s: $(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$work/build.log" | tail -n 1))"
else
	# make test's summary (its failed suites), then the end of the build
	grep -E '^failed suites:|^[0-9]+ passed, [0-9]+ failed$|^    ' "$work/build.log" | tail -n 40
	tail -n 20 "$work/build.log"
	not_ok "dpkg-buildpackage -us -uc -b, make test included"
	summary
fi
grep -q '^[0-9]* passed, 0 failed$' "$work/build.log" &&
	ok "the package build ran make test (dh_auto_test) and it passed" ||
	not_ok "the package build ran make test (dh_auto_test) and it passed"
[ "$(cd "$root" && git status --porcelain | sha256sum)" = "$before" ] &&
	ok "the checkout is untouched" || not_ok "the checkout is untouched"
for p in "boottrace_${v}_amd64" "boottrace-initramfs-tools_${v}_all" "boottrace-dracut_${v}_all"; do
	if [ -f "$work/$p.deb" ]; then
		ok "$p.deb built ($(du -k "$work/$p.deb" | cut -f1) KB)"
	else
		not_ok "$p.deb built"
	fi
done

# 2. lintian: no error (each warning is explained in debian/README.source)
lintian --tag-display-limit 0 "$work/boottrace_${v}_amd64.changes" >"$work/lintian.log" 2>&1
grep -v 'running with root privileges' "$work/lintian.log"
if grep -q '^E: ' "$work/lintian.log"; then
	not_ok "lintian: no error"
else
	ok "lintian: no error ($(grep -c '^W: ' "$work/lintian.log") warnings)"
fi

# 3. a clean Debian 12 root with initramfs-tools and a kernel, cached
suite=bookworm
pkgs="initramfs-tools linux-image-cloud-amd64 libelf1 libcapstone4 libmd0 zstd"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/sysroot
key=$( { echo "$suite"; echo "$pkgs" | tr ' ' '\n' | sort; sed -n '/^# 3\./,/^# 4\./p' "$0"; } | sha256sum | cut -c1-16)
tarball=$cache/debian12-itools-$key.tar
if [ -s "$tarball" ]; then
	say "cache hit: $tarball"
else
	mkdir -p "$cache"
	tmp=$(mktemp "$cache/.build.XXXXXX")
	if ! mmdebstrap --variant=essential --format=tar --include="$(echo "$pkgs" | tr ' ' ',')" \
		--dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
		"$suite" "$tmp" >"$work/mmdebstrap.log" 2>&1; then
		rm -f "$tmp"
		tail -20 "$work/mmdebstrap.log"
		not_ok "a Debian 12 root with initramfs-tools and a kernel (mmdebstrap: network? mirror?)"
		summary
	fi
	mv "$tmp" "$tarball"
	say "built $tarball ($(du -k "$tarball" | cut -f1) KB)"
fi
# 4. install, update-initramfs, lsinitramfs, purge
r=$work/root
mkdir "$r"
tar --numeric-owner -xpf "$tarball" -C "$r"
find "$r" -xdev \( -type f -o -type l \) | sed "s|^$r||" | sort >"$work/files.before"
mount -t proc proc "$r/proc" && mounted=$r/proc
in_root() { chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
cp "$work/boottrace_${v}_amd64.deb" "$work/boottrace-initramfs-tools_${v}_all.deb" "$r/tmp/"
if in_root dpkg -i "/tmp/boottrace_${v}_amd64.deb" "/tmp/boottrace-initramfs-tools_${v}_all.deb" >"$work/install.log" 2>&1; then
	ok "dpkg -i boottrace boottrace-initramfs-tools in a clean Debian 12 root"
else
	tail -20 "$work/install.log"
	not_ok "dpkg -i boottrace boottrace-initramfs-tools in a clean Debian 12 root"
fi
rm -f "$r/tmp/"*.deb
out=$(in_root boottrace boards 2>&1)
case $out in
*qemu-x86_64*rpi4*) ok "boottrace boards in the root lists the installed profiles" ;;
*) echo "$out"; not_ok "boottrace boards in the root lists the installed profiles" ;;
esac
[ "$(in_root boottrace --version)" = "boottrace $v" ] && ok "boottrace --version is $v" ||
	not_ok "boottrace --version is $v"
if in_root update-initramfs -u >"$work/uinit.log" 2>&1; then
	ok "update-initramfs -u"
else
	tail -20 "$work/uinit.log"
	not_ok "update-initramfs -u"
fi
img=$(ls "$r"/boot/initrd.img-* 2>/dev/null | head -n 1)
list=$(in_root lsinitramfs "${img#"$r"}" 2>/dev/null)
for f in usr/lib/boottrace/boottrace-snapshot.sh scripts/init-top/boottrace scripts/init-bottom/boottrace; do
	# usr/lib or lib: the image has both names on a merged-/usr root
	if echo "$list" | grep -qx "$f" || echo "$list" | grep -qx "${f#usr/}"; then
		ok "lsinitramfs: $f is in the image"
	else
		not_ok "lsinitramfs: $f is in the image"
	fi
done
if in_root dpkg --purge boottrace-initramfs-tools boottrace >"$work/purge.log" 2>&1; then
	ok "dpkg --purge"
else
	tail -20 "$work/purge.log"
	not_ok "dpkg --purge"
fi
# what the packages left: files not there before, dpkg's own bookkeeping and
# the initramfs rebuilt by the trigger aside
find "$r" -xdev \( -type f -o -type l \) | sed "s|^$r||" | sort >"$work/files.after"
left=$(comm -13 "$work/files.before" "$work/files.after" |
	grep -v '^/var/lib/dpkg/\|^/var/log/\|^/var/cache/\|^/boot/initrd\.img-\|^/var/lib/initramfs-tools/\|^/tmp/\|^/etc/ld\.so\.cache$')
if [ -z "$left" ]; then
	ok "after purge nothing of the packages is left"
else
	echo "$left" | head -20
	not_ok "after purge nothing of the packages is left"
fi
if ls "$r/var/lib/dpkg/info/" | grep -q '^boottrace'; then
	not_ok "dpkg knows no boottrace package after purge"
else
	ok "dpkg knows no boottrace package after purge"
fi
echo "package: the whole test took $(($(date +%s) - t0)) s"
summary
