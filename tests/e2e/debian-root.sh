#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# debian-root.sh [SET]: print the path of a tarball of a small Debian 12
# (bookworm, amd64) root file system with systemd as PID 1. SET names the
# package set: "systemd" (the default, for tests/e2e/systemd-root.sh) or
# "journey" (for tests/e2e/journey.sh: a system as a user installs it). Built
# once with mmdebstrap from deb.debian.org (bookworm, bookworm-updates and
# bookworm-security, the mirrors of the host's apt sources; the host's apt
# configuration is not touched) and cached under
# ${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/sysroot/KEY.tar, KEY being the
# SHA-256 of the set's package list, the suite and this script: a changed list or
# script builds a new root, an unchanged one is a cache hit. The tar keeps
# owners and modes; extract it as root (tar --numeric-owner -xpf).
#
# Packages: systemd, systemd-sysv (/sbin/init), udev, kmod (modprobe, which
# the kernel's request_module runs), iproute2 (ip), and the shared libraries
# build/boottrace links to (libelf1, libcapstone4, libmd0; zlib, xz and zstd
# come with systemd), so `make install DESTDIR=ROOT` gives a boottrace that
# runs in it. "journey" adds what a user's machine has and the .debs need,
# so that `apt-get install ./boottrace_*.deb` inside it needs no network:
# apt, initramfs-tools with busybox (its Recommends, which apt installs
# on a user's machine and --variant=essential does not; without it the
# image has klibc's dd), the Debian cloud kernel (bonding a module,
# virtio, efivarfs; its initramfs made by the kernel's postinst), both
# loaders as packages (systemd-boot, grub-efi-amd64: installed onto an
# ESP later by the test, with bootctl and grub-install), the shared
# libraries of the boottrace package (liblz4-1 too), and e2fsprogs for the
# root's fsck. Documentation, man pages and locales are left out.
# Prints "cache hit" or "built in N s" on stderr. Exit 3 when no root can be
# had (no mmdebstrap, no network), 2 on bad arguments.
set -eu

say() { echo "debian-root.sh: $*" >&2; }
[ $# -le 1 ] || { say "usage: debian-root.sh [systemd|journey]"; exit 2; }
set_=${1:-systemd}
suite=bookworm
pkgs="systemd systemd-sysv udev kmod iproute2 libelf1 libcapstone4 libmd0"
case $set_ in
systemd) name=debian12-systemd ;;
journey)
	name=debian12-journey
	pkgs="$pkgs apt initramfs-tools busybox linux-image-cloud-amd64 systemd-boot grub-efi-amd64 liblz4-1 e2fsprogs"
	;;
*) say "usage: debian-root.sh [systemd|journey] (unknown set '$set_')"; exit 2 ;;
esac
cache=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/sysroot
key=$( { echo "$suite"; echo "$pkgs" | tr ' ' '\n' | sort; cat "$0"; } | sha256sum | cut -c1-16)
out=$cache/$name-$key.tar
if [ -s "$out" ]; then
	say "cache hit: $out"
	echo "$out"
	exit 0
fi
command -v mmdebstrap >/dev/null 2>&1 ||
	{ say "mmdebstrap is not installed (make deps: scripts/debian-packages.txt)"; exit 3; }
mkdir -p "$cache"
tmp=$(mktemp "$cache/.build.XXXXXX")
trap 'rm -f "$tmp" "$tmp.log"' EXIT INT TERM HUP
t0=$(date +%s)
# --variant=essential: only Essential:yes packages and what the list
# depends on (no apt, no Recommends), the smallest root that boots
if ! mmdebstrap --variant=essential --format=tar \
	--include="$(echo "$pkgs" | tr ' ' ',')" \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--dpkgopt='path-include=/usr/share/locale/locale.alias' \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-include=/usr/share/doc/*/copyright' \
	"$suite" "$tmp" >"$tmp.log" 2>&1; then
	tail -20 "$tmp.log" >&2
	say "mmdebstrap $suite failed (network? the mirror deb.debian.org?)"
	exit 3
fi
mv "$tmp" "$out"
say "built in $(($(date +%s) - t0)) s: $out ($(du -k "$out" | cut -f1) KB)"
echo "$out"
