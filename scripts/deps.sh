#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages listed in scripts/debian-packages.txt that are
# missing. Quiet when everything is there, so `make check` stays fast.
set -eu
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
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
