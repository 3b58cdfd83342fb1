#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Rebuild the snapshot directories printed on a serial console by
# boottrace-snapshot.sh (boottrace.snapshot=console) — the framing of
# initramfs-hook/README.md, "Console framing" — and check each file's size
# and md5 against its header. Used by tests/e2e/hook.sh until
# `boottrace report serial.log` exists.
#
#   console-rebuild.sh SERIAL_LOG OUTDIR    -> OUTDIR/<boot-id>/...
# Prints one line per rebuilt file; exit 1 on any mismatch or bad frame.
set -eu
log=$1
out=$2
mkdir -p "$out"
LC_ALL=C awk -v out="$out" '
function fail(m) { print "console-rebuild: " m > "/dev/stderr"; bad = 1 }
function flush(   i, f, cmd) {
	f = dir "/" path
	system("mkdir -p \"$(dirname \"" f "\")\"")
	if (enc == "base64") {
		cmd = "base64 -d > \"" f "\""
		for (i = 1; i <= n; i++) print line[i] | cmd
		close(cmd)
	} else {
		printf "" > f
		for (i = 1; i <= n; i++)
			printf "%s%s", line[i], (i < n || eol == 1) ? "\n" : "" > f
		close(f)
	}
	print id "/" path, size, md5 > (out "/.manifest")
}
{ sub(/\r$/, "") }
/^=== boottrace snapshot begin [^ ]+ ===$/ {
	id = $5; dir = out "/" id; infile = 0; nfiles = 0
	system("mkdir -p \"" dir "\""); next
}
/^=== boottrace snapshot end [^ ]+( files=[0-9]+)? ===$/ {
	if (infile) fail("snapshot ends inside " path)
	if ($5 != id) fail("end marker of " $5 " inside " id)
	done[id] = 1; id = ""; next
}
id == "" { next }
/^--- boottrace file [^ ]+ size=[0-9]+ (lines=[0-9]+ )?eol=[01] enc=(text|base64) md5=[-0-9a-f]+ ---$/ {
	if ($6 ~ /^lines=/) { $6 = ""; $0 = $0 }	# lines= (newer hooks): not needed here
	if (infile) fail("file " $4 " starts inside " path)
	path = $4
	if (path ~ /(^|\/)\.\.(\/|$)/ || path ~ /^\//) { fail("unsafe path " path); next }
	size = substr($5, 6); eol = substr($6, 5); enc = substr($7, 5); md5 = substr($8, 5)
	n = 0; infile = 1; next
}
/^--- boottrace end [^ ]+ ---$/ {
	if (!infile || $4 != path) fail("unmatched end of " $4)
	else flush()
	infile = 0; next
}
infile && /^\|/ { line[++n] = substr($0, 2); next }
END {
	if (id != "") fail("no end marker for snapshot " id)
	exit bad
}' "$log"
cd "$out"
rc=0
[ -f .manifest ] || { echo "console-rebuild: no snapshot in $log" >&2; exit 1; }
while read -r f size md5; do
	got=$(wc -c <"$f")
	sum=$(md5sum <"$f")
	if [ "$got" != "$size" ] || { [ "$md5" != - ] && [ "${sum%% *}" != "$md5" ]; }; then
		echo "console-rebuild: $f: $got bytes md5 ${sum%% *}, header says $size $md5" >&2
		rc=1
	fi
done <.manifest
exit $rc
