# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the scripts that fetch Debian packages for the tests
# (apt-set.sh, the one that chooses kernel packages, kernel-612.sh,
# qemu-bpo.sh): the one place that asks apt with a PRIVATE sources list and
# lists (the system's apt configuration is neither read for sources nor
# changed), asks apt's resolver what an install would need (apt_simulate),
# and downloads a .deb into the one cache of packages, checked against the
# SHA256 of the Packages index apt verified (apt_fetch;
# docs/test-archive.md).
#
# apt_private DIR [ARCH]: the private apt state under DIR (the caller writes
# DIR/sources.list); aget and acache are apt-get and apt-cache with it.
# With $apt empty (never set), they are the system's apt-get and apt-cache.
# ARCH (tests/e2e/cross-sysroot.sh) makes apt resolve and download as on a
# machine of that architecture alone, whatever dpkg's foreign architectures
# here are (they are neither read nor changed).
apt_private() {
	apt=$1
	apt_arch=${2:-}
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
}
apt_with() { # TOOL ARGS...: TOOL with the private state, when there is one
	if [ -n "${apt:-}" ]; then
		apt_t=$1
		shift
		[ -z "${apt_arch:-}" ] ||
			set -- -o "APT::Architecture=$apt_arch" -o "APT::Architectures=$apt_arch" "$@"
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

# apt_words LOG: what apt said was wrong, on one line: the unmet
# dependencies, else its first error (the generic "Unable to correct
# problems" only when it said nothing else)
apt_words() {
	{ grep -E '^ ' "$1" || grep -E '^E:' "$1" | grep -v 'Unable to correct problems' | head -n 1 ||
		grep -E '^(E|Err):' "$1" | head -n 1; } | tr -s ' \t\n' ' ' |
		sed 's/^ //; s/ $//; s/ Hashes of expected file.*//' | cut -c1-400
}

# apt_simulate STATUS LOG ARGS...: what `apt-get install ARGS` would install
# with the dpkg status file STATUS (an empty file: as on an empty machine;
# /var/lib/dpkg/status: this one), "PKG VERSION ARCH" a line, in apt's
# order; apt's output in LOG. Fails when apt cannot (apt_words LOG says why).
apt_simulate() {
	as_status=$1
	as_log=$2
	shift 2
	aget -s -q -o "Dir::State::status=$as_status" -o APT::Get::Show-User-Simulation-Note=false \
		--no-install-recommends install "$@" </dev/null >"$as_log" 2>&1 || return 1
	sed -n 's/^Inst \([^ ]*\) \(\[[^]]*\] \)\{0,1\}(\([^ ]*\) .*\[\([^]]*\)\]).*$/\1 \3 \4/p' "$as_log" |
		sed 's/:[a-z0-9]* / /'
}

# The one cache of downloaded packages, by package, version and architecture
apt_debs=${XDG_CACHE_HOME:-$HOME/.cache}/boottrace/apt-set/debs
apt_deb_of() { echo "$apt_debs/${1}_$(echo "$2" | tr ':' '%')_$3.deb"; } # PKG VERSION ARCH
# apt_fetch PKG VERSION ARCH: the .deb into the cache (a no-op when it is
# there), checked against apt's SHA256; on failure, why on stdout
apt_fetch() { echo "$1 $2 $3" | apt_fetch_set; }
# apt_fetch_set: apt_fetch of each "PKG VERSION ARCH" line on standard
# input, those not cached in one apt-get download and their SHA256s from one
# apt-cache show (each apt call reads the lists anew, seconds each: a
# sysroot's 35 packages one by one took minutes)
apt_fetch_set() {
	mkdir -p "$apt_debs"
	af_w=$(mktemp -d "$apt_debs/.fetch.XXXXXX")
	chmod 755 "$af_w"
	while read -r af_p af_v af_a; do
		[ -f "$(apt_deb_of "$af_p" "$af_v" "$af_a")" ] || echo "$af_p:$af_a=$af_v"
	done >"$af_w/want"
	if [ ! -s "$af_w/want" ]; then
		rm -rf "$af_w"
		return 0
	fi
	# shellcheck disable=SC2046 # one word a package
	if ! (cd "$af_w" && progress_run -k -o "$af_w/log" -s "$af_w" "downloading $(wc -l <"$af_w/want") packages" \
		aget download $(cat "$af_w/want") </dev/null); then
		echo "apt-get download $(sed 's/:[^=]*=/=/' "$af_w/want" | tr '\n' ' ')failed: $(apt_words "$af_w/log")"
		rm -rf "$af_w"
		return 1
	fi
	# "PKG VERSION ARCH SHA256" of each package asked, as apt's index says
	# shellcheck disable=SC2046
	acache show $(cat "$af_w/want") </dev/null 2>/dev/null | awk '
		/^Package: / { p = $2 } /^Version: / { v = $2 } /^Architecture: / { a = $2 }
		/^SHA256: / { print p, v, a, $2 }' >"$af_w/sums"
	for af_d in "$af_w"/*.deb; do
		[ -f "$af_d" ] || continue
		af_id=$(dpkg-deb -f "$af_d" Package Version Architecture | cut -d' ' -f2 | tr '\n' ' ')
		af_want=$(awk -v id="$af_id" '$1 " " $2 " " $3 " " == id { print $4; exit }' "$af_w/sums")
		af_got=$(sha256sum "$af_d" | cut -d' ' -f1)
		if [ -z "$af_want" ] || [ "$af_want" != "$af_got" ]; then
			echo "$af_d: sha256 $af_got, apt's index says ${af_want:-nothing}"
			rm -rf "$af_w"
			return 1
		fi
		# shellcheck disable=SC2086 # three words
		mv "$af_d" "$(apt_deb_of $af_id)"
	done
	# each asked for is there now ("PKG:ARCH=VERSION" lines)
	sed 's/^\(.*\):\([^=]*\)=\(.*\)$/\1 \3 \2/' "$af_w/want" >"$af_w/asked"
	while read -r af_p af_v af_a; do
		[ -f "$(apt_deb_of "$af_p" "$af_v" "$af_a")" ] || {
			echo "apt-get download brought no $af_p $af_v $af_a"
			rm -rf "$af_w"
			return 1
		}
	done <"$af_w/asked"
	rm -rf "$af_w"
}
