# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the scripts that fetch Debian packages for the tests
# (apt-set.sh, the one that chooses kernel packages, kernel-612.sh,
# qemu-bpo.sh): the one place that asks apt with a PRIVATE sources list and
# lists (the system's apt configuration is neither read for sources nor
# changed) and checks a downloaded .deb against the SHA256 of the Packages
# index apt verified.
#
# apt_private DIR: the private apt state under DIR (the caller writes
# DIR/sources.list); aget and acache are apt-get and apt-cache with it.
# With $apt empty (never set), they are the system's apt-get and apt-cache.
apt_private() {
	apt=$1
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
}
apt_with() { # TOOL ARGS...: TOOL with the private state, when there is one
	if [ -n "${apt:-}" ]; then
		apt_t=$1
		shift
		"$apt_t" -o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=- \
			-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" "$@"
	else
		"$@"
	fi
}
aget() { apt_with apt-get "$@"; }
acache() { apt_with apt-cache "$@"; }
# deb_sha_ok DEB SHOW...: is DEB's SHA256 the one the command SHOW... (an
# apt-cache show of its package) prints? Else says both on stderr, fails.
deb_sha_ok() {
	deb_=$1
	shift
	want_=$("$@" 2>/dev/null | sed -n 's/^SHA256: //p' | head -n 1)
	got_=$(sha256sum "$deb_" | cut -d' ' -f1)
	[ -n "$want_" ] && [ "$want_" = "$got_" ] && return 0
	echo "${0##*/}: $deb_: sha256 $got_, apt's index says ${want_:-nothing}" >&2
	return 1
}
