#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages listed in scripts/debian-packages.txt that are
# missing. Quiet when everything is there, so `make check` stays fast. On a
# terminal apt shows its own progress (downloads, unpacking); in a pipe or a
# log it runs with -q, whose output has no progress bars (scripts/progress.sh).
set -eu
# shellcheck source=scripts/progress.sh
. "$(dirname "$0")/progress.sh"
list="$(dirname "$0")/debian-packages.txt"
missing=""
for p in $(grep -v '^#' "$list"); do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing:$missing"
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
		echo "deps: need root to install:$missing (run: apt-get install$missing)" >&2
		exit 3
	fi
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
if progress_on && [ -t 1 ]; then
	q=
else
	q=-q
fi
# shellcheck disable=SC2086 # $q and $missing are lists of words
$SUDO apt-get $q update
# shellcheck disable=SC2086
$SUDO apt-get $q install -y --no-install-recommends $missing
