#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# boottrace-snapshot.sh — copy the boot's trace buffer and its context into
# /run/boottrace/<boot-id>/ (or print it on the console, or write it to a
# block device) at the earliest point of userspace. POSIX sh; busybox
# applets or coreutils are enough. It never fails the boot: every problem
# goes to /dev/kmsg and to the snapshot's `meta`, and the exit status is 0.
#
# It acts only when the boot asks for it (initramfs-hook/README.md, "Opt-in"):
# the word `boottrace` or a `boottrace.KEY=VALUE` word on the kernel's command
# line (before `--`), or a `boottrace.` key in /proc/bootconfig, and no
# `boottrace.enable=0`. Otherwise every mode below exits 0 at once, having
# read only those two files with shell builtins.
#
#   boottrace-snapshot.sh [all]             arm, then snapshot now
#   boottrace-snapshot.sh arm               write boottrace.arm filters only
#   boottrace-snapshot.sh snapshot [POINT]  snapshot now, recorded as POINT
#   boottrace-snapshot.sh hook POINT "P1 P2 ..."
#       called by an adapter at each point it has (P1 = earliest, last =
#       latest): arms at P1 and snapshots at the point boottrace.at names,
#       by default P1, or the latest point when boottrace.arm is set
#   boottrace-snapshot.sh wait-modules      wait (bounded) until the armed
#       modules are live, or until module loading has settled
#   boottrace-snapshot.sh asked             exit 0 when the boot asked for
#       the hook, 1 when not (for adapters that prepare work)
#   boottrace-snapshot.sh settings          print the settings the hook
#       would use and the errors found in them; does nothing else
#   boottrace-snapshot.sh tools [need|may]  print the programs it runs, one
#       a line (for the generators' install scripts); does nothing else
#
# Settings: boottrace.KEY=VALUE words of /proc/cmdline, boottrace.KEY in
# /proc/bootconfig, or in the settings file /etc/boottrace.conf that
# `boottrace compile --hook-settings` writes and the adapters put in the
# initramfs (same lines as /proc/bootconfig; the command line wins over
# /proc/bootconfig, which wins over the file): enable=1|0, snapshot=run|
# console|/dev/NAME|LABEL=L|UUID=U, stop=1|0, raw=0|1, max_kb=N, at=POINT,
# arm=F:mod:M,..., timeout=SECONDS, follow=0|1|keep. They are data: checked against what each
# key accepts, never evaluated; a bad value is an error in meta and the value
# before it stays. See initramfs-hook/README.md.

BT_VERSION=0.1.0
# The programs this script runs besides sh's builtins: the one list of them
# (`boottrace-snapshot.sh tools`), which the initramfs-tools hook and the
# dracut module put into the image and tests/cli/hook-tools.bats holds the
# script to. NEED: the default snapshot to /run loses something without
# one; MAY: only a setting or a kernel feature needs it (console, raw,
# device destinations, a bounded copy), and the snapshot goes on without.
# modprobe is not here: both generators put kmod's in every image.
BT_TOOLS_NEED="cat cp dd df dmesg grep mkdir mount rm wc"
BT_TOOLS_MAY="awk base64 find findfs md5sum readlink rmdir sed sleep sort stat tail timeout umount xargs"
# No pathname expansion anywhere: a setting such as `*` stays `*`. The few
# globs of our own (tracefs directories) turn it on for their loop only.
set -f
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
# Tools of our own beside the script come first: an initramfs-tools image
# without busybox has klibc's dd, cat, mount... in /usr/bin, and klibc's dd
# has no iflag=fullblock (the build hook puts the host's tools in bin/)
case $0 in */*) [ -d "${0%/*}/bin" ] && PATH=${0%/*}/bin:$PATH ;; esac
export PATH

BT_SNAPSHOT=run
BT_STOP=1
BT_RAW=0
BT_MAX_KB=65536
BT_AT=
BT_ARM=
BT_RAMOOPS=
BT_TIMEOUT=10
BT_FOLLOW=0
BT_RESUMED=0
BT_ERRORS=
BT_NERR=0
BT_NWARN=0
BT_NOTES=
BT_T=
BT_ARMED_HERE=
BT_FROM=
BT_RUN=${BOOTTRACE_RUN:-/run/boottrace}
# tests run the snapshot against a tracefs, a pstore and a kernel log of their own
BT_PSTORE=${BOOTTRACE_PSTORE:-/sys/fs/pstore}
BT_MODPROBE=${BOOTTRACE_MODPROBE:-modprobe}
# where tracefs is looked for, in the order of bootcfg/kernel/tracefs.c
# (tests/unit/test_tracefs.c holds the two lists to each other)
BT_TRACEFS_DIRS=${BOOTTRACE_TRACEFS:-/sys/kernel/tracing /sys/kernel/debug/tracing}
BT_KMSG=${BOOTTRACE_KMSG:-/dev/kmsg}
# where the boot's words are read (tests give files of their own)
BT_CMDLINE=${BOOTTRACE_CMDLINE:-/proc/cmdline}
BT_BOOTCONFIG=${BOOTTRACE_BOOTCONFIG:-/proc/bootconfig}
BT_NL='
'
# bounds of the numbers (README, "Settings")
BT_MAX_KB_MAX=4194304
BT_TIMEOUT_MAX=3600

# The kernel's parameters of a command line, as the kernel splits them:
# blanks end a word except inside double quotes, and the
# quotes are not part of it. The first bare `--` ends the kernel's part:
# the words after it are init's arguments (docs/kernel-facts.md 23).
# Builtins only: this runs on every boot, asked or not.
bt_split_cmdline() { # LINE -> BT_WORDS (one word a line)
	BT_WORDS=
	bt_cur=
	bt_has=
	bt_inq=1
	bt_ifs=$IFS
	IFS='"'
	# shellcheck disable=SC2086 # split at quotes on purpose (set -f is on)
	set -- $1
	IFS=$bt_ifs
	for bt_seg; do
		# fields alternate: outside quotes, inside quotes, outside...
		if [ "$bt_inq" = 1 ]; then
			bt_inq=0
			bt_seg_out "$bt_seg" || return 0
		else
			bt_inq=1
			bt_cur=$bt_cur$bt_seg
			bt_has=1
		fi
	done
	bt_word_end
	return 0
}

bt_word_end() { # status 1 at the `--` that ends the kernel's words
	[ -n "$bt_has" ] || return 0
	[ "$bt_cur" = -- ] && return 1
	BT_WORDS=$BT_WORDS$bt_cur$BT_NL
	bt_cur=
	bt_has=
}

bt_seg_out() { # TEXT outside quotes
	case $1 in
	' '* | '	'*) bt_word_end || return 1 ;;
	esac
	bt_tail=0
	case $1 in *' ' | *'	') bt_tail=1 ;; esac
	# shellcheck disable=SC2086 # split at blanks on purpose (set -f is on)
	set -- $1
	while [ $# -gt 0 ]; do
		bt_cur=$bt_cur$1
		bt_has=1
		shift
		if [ $# -gt 0 ] || [ "$bt_tail" = 1 ]; then
			bt_word_end || return 1
		fi
	done
	return 0
}

# One value of a /proc/bootconfig line (docs/kernel-facts.md 24: it prints
# `KEY = "V"`, `KEY = 'V'` when V holds a double quote, arrays as
# `"A", "B"`); the settings file may also hold a bare V. Elements are
# joined with ",". Status 2: a quote is not closed on this line (the value
# holds a newline).
bt_bconf_value() { # TEXT -> BT_V
	bt_r=$1
	BT_V=
	bt_sep=
	while :; do
		bt_r=${bt_r#"${bt_r%%[! 	]*}"}
		case $bt_r in
		\"*)
			bt_r=${bt_r#?}
			case $bt_r in *\"*) ;; *) BT_Q=\"; return 2 ;; esac
			bt_e=${bt_r%%\"*}
			bt_r=${bt_r#*\"}
			;;
		\'*)
			bt_r=${bt_r#?}
			case $bt_r in *\'*) ;; *) BT_Q=\'; return 2 ;; esac
			bt_e=${bt_r%%\'*}
			bt_r=${bt_r#*\'}
			;;
		*)
			BT_V=$BT_V$bt_sep${bt_r%"${bt_r##*[! 	]}"}
			return 0
			;;
		esac
		BT_V=$BT_V$bt_sep$bt_e
		bt_sep=,
		bt_r=${bt_r#"${bt_r%%[! 	]*}"}
		case $bt_r in
		,*) bt_r=${bt_r#,} ;;
		*) return 0 ;;
		esac
	done
}

# Each boottrace.KEY line of a bootconfig text FILE: FUNC KEY STATUS, with
# BT_V the value when STATUS is 0 (2: the value holds a line break; the
# lines it runs over are skipped, whatever key they seem to start).
bt_bconf_scan() { # FILE FUNC
	[ -r "$1" ] || return 0
	bt_skip=
	while IFS= read -r bt_l || [ -n "$bt_l" ]; do
		if [ -n "$bt_skip" ]; then
			case $bt_l in *"$bt_skip"*) bt_skip= ;; esac
			continue
		fi
		case $bt_l in *=*) ;; *) continue ;; esac
		bt_bconf_value "${bt_l#*=}"
		bt_st=$?
		[ "$bt_st" = 2 ] && bt_skip=$BT_Q
		case $bt_l in
		boottrace.*=*)
			bt_k=${bt_l%%=*}
			"$2" "${bt_k%"${bt_k##*[! 	]}"}" "$bt_st"
			;;
		esac
	done <"$1"
}

# shellcheck disable=SC2317 # called by bt_bconf_scan
bt_asked_key() { # boottrace.KEY STATUS
	BT_ASKED=1
	[ "$1" = boottrace.enable ] && [ -z "$bt_en_cl" ] && [ "$2" = 0 ] && bt_en=$BT_V
}

bt_falsy() { # VALUE: one of the words for "off"
	case $1 in 0 | n | no | off | false) return 0 ;; esac
	return 1
}

# Did the boot ask for the hook? Builtins only, before anything else: a
# boot that did not ask pays two reads. The settings file does not count
# (it is in every image the hook is in).
bt_asked() {
	BT_ASKED=0
	bt_en=
	bt_en_cl=
	bt_cl=
	[ -r "$BT_CMDLINE" ] && read -r bt_cl <"$BT_CMDLINE"
	bt_split_cmdline "$bt_cl"
	bt_ifs=$IFS
	IFS=$BT_NL
	for bt_w in $BT_WORDS; do
		case $bt_w in
		boottrace) BT_ASKED=1 ;;
		boottrace.enable=*) BT_ASKED=1 bt_en_cl=1 bt_en=${bt_w#*=} ;;
		boottrace.?*=*) BT_ASKED=1 ;;
		esac
	done
	IFS=$bt_ifs
	bt_bconf_scan "$BT_BOOTCONFIG" bt_asked_key
	[ "$BT_ASKED" = 1 ] || return 1
	bt_falsy "$bt_en" && BT_ASKED=0 && return 1
	return 0
}

bt_usage() {
	echo "usage: $0 [all|arm|snapshot [POINT]|hook POINT POINTS|wants POINT POINTS|wait-modules|asked|settings|tools [need|may]]" >&2
	exit 2
}

# The gate, before the rest of the script is even parsed.
case ${1:-all} in
tools)
	case ${2:-} in
	need) bt_l=$BT_TOOLS_NEED ;;
	may) bt_l=$BT_TOOLS_MAY ;;
	'') bt_l="$BT_TOOLS_NEED $BT_TOOLS_MAY" ;;
	*) bt_usage ;;
	esac
	# shellcheck disable=SC2086 # one name a line (set -f is on)
	printf '%s\n' $bt_l
	exit 0
	;;
asked)
	bt_asked
	exit
	;;
settings) bt_asked ;;
all | arm | snapshot | hook | wait-modules) bt_asked || exit 0 ;;
wants) bt_asked || exit 1 ;;
*) bt_usage ;;
esac

bt_kmsg() { # LEVEL TEXT
	printf '<%s>boottrace: %s\n' "$1" "$2" >>"$BT_KMSG" 2>/dev/null
}

bt_err() {
	BT_ERRORS="${BT_ERRORS}error=$*
"
	BT_NERR=$((BT_NERR + 1))
	bt_kmsg 3 "$*"
}

# Not a failure, but the snapshot may not hold what was asked for.
bt_warn() {
	BT_ERRORS="${BT_ERRORS}warning=$*
"
	BT_NWARN=$((BT_NWARN + 1))
	bt_kmsg 4 "$*"
}

bt_note() {
	BT_NOTES="${BT_NOTES}$*
"
}

bt_bool() { # VALUE -> BT_B (1 or 0); status 1 when VALUE is neither
	case $1 in
	1 | y | yes | on | true) BT_B=1 ;;
	0 | n | no | off | false) BT_B=0 ;;
	*) return 1 ;;
	esac
}

# A whole decimal number, whatever its leading zeros ($((010)) would be
# octal and $((08)) an error in dash and ash: no arithmetic before the
# value is known to be short digits), from MIN to MAX.
bt_num() { # VALUE MIN MAX -> BT_NUM
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	bt_n=${1#"${1%%[!0]*}"}
	bt_n=${bt_n:-0}
	case $bt_n in ??????????*) return 1 ;; esac
	[ "$bt_n" -ge "$2" ] && [ "$bt_n" -le "$3" ] || return 1
	BT_NUM=$bt_n
}

# FUNC:mod:MODULE entries, comma-separated; the bad ones are dropped.
bt_set_arm() { # VALUE
	BT_ARM=
	bt_ifs=$IFS
	IFS=,
	for bt_a in $1; do
		IFS=$bt_ifs
		case $bt_a in
		*[!A-Za-z0-9_.*?:-]* | :* | *:mod: | *:mod:*:* | *::*) ;;
		?*:mod:?*)
			BT_ARM=$BT_ARM${BT_ARM:+,}$bt_a
			continue
			;;
		esac
		bt_err "boottrace.arm: '$bt_a' $BT_FROM is not FUNC:mod:MODULE; not armed"
	done
	IFS=$bt_ifs
}

bt_set() { # KEY VALUE (BT_FROM: where it was read)
	case $1 in
	enable)
		if ! bt_bool "$2"; then
			bt_err "boottrace.enable=$2 $BT_FROM is neither 1 nor 0; the hook runs (it was asked for)"
		elif [ "$BT_FROM" = "in $bt_conf" ]; then
			bt_warn "boottrace.enable $BT_FROM is ignored: only the command line or /proc/bootconfig turn the hook on or off"
		fi
		;;
	snapshot)
		case $2 in
		run | console | /dev/?* | LABEL=?* | UUID=?*) BT_SNAPSHOT=$2 ;;
		*) bt_err "boottrace.snapshot=$2 $BT_FROM is not run, console, /dev/NAME, LABEL=L or UUID=U; using $BT_SNAPSHOT" ;;
		esac
		;;
	stop)
		if bt_bool "$2"; then BT_STOP=$BT_B; else
			bt_err "boottrace.stop=$2 $BT_FROM is neither 1 nor 0; using $BT_STOP"
		fi
		;;
	raw)
		if bt_bool "$2"; then BT_RAW=$BT_B; else
			bt_err "boottrace.raw=$2 $BT_FROM is neither 1 nor 0; using $BT_RAW"
		fi
		;;
	max_kb)
		if bt_num "$2" 1 "$BT_MAX_KB_MAX"; then BT_MAX_KB=$BT_NUM; else
			bt_err "boottrace.max_kb=$2 $BT_FROM is not a whole number of KB from 1 to $BT_MAX_KB_MAX; using $BT_MAX_KB"
		fi
		;;
	timeout)
		if bt_num "$2" 0 "$BT_TIMEOUT_MAX"; then BT_TIMEOUT=$BT_NUM; else
			bt_err "boottrace.timeout=$2 $BT_FROM is not a whole number of seconds from 0 to $BT_TIMEOUT_MAX; using $BT_TIMEOUT"
		fi
		;;
	at)
		case $2 in
		'' | *[!A-Za-z0-9_-]*) bt_err "boottrace.at=$2 $BT_FROM is not a point name; using ${BT_AT:-the default point}" ;;
		*) BT_AT=$2 ;;
		esac
		;;
	follow)
		# 1: trace on into the real root, `boottrace collect` stops it;
		# keep: the same, and collect leaves it on
		if [ "$2" = keep ]; then BT_FOLLOW=keep
		elif bt_bool "$2"; then BT_FOLLOW=$BT_B; else
			bt_err "boottrace.follow=$2 $BT_FROM is not 0, 1 or keep; using $BT_FOLLOW"
		fi
		;;
	arm) bt_set_arm "$2" ;;
	init) ;; # boottrace-init's
	ask) ;;  # the boot's question: report reads it from the saved cmdline
	*) bt_warn "unknown setting boottrace.$1 $BT_FROM ignored" ;;
	esac
}

bt_key() { # boottrace.KEY -> BT_K: KEY with "-" as "_"
	BT_K=${1#boottrace.}
	while :; do
		case $BT_K in
		*-*) BT_K=${BT_K%%-*}_${BT_K#*-} ;;
		*) return 0 ;;
		esac
	done
}

# /proc/bootconfig and settings-file lines look like: boottrace.arm = "a", "b"
bt_read_bconf_lines() { # FILE
	bt_bconf_scan "$1" bt_bconf_key
}

# shellcheck disable=SC2317 # called by bt_bconf_scan
bt_bconf_key() { # boottrace.KEY STATUS
	bt_key "$1"
	if [ "$2" = 0 ]; then
		bt_set "$BT_K" "$BT_V"
	else
		bt_err "boottrace.$BT_K $BT_FROM has a value with a line break; ignored"
	fi
}

# The settings file: long lists (boottrace.arm of a whole caller tree) that
# the board's command line cannot hold (docs/kernel-facts.md 14).
bt_read_settings_file() {
	bt_conf=${BOOTTRACE_CONF:-/etc/boottrace.conf}
	[ -r "$bt_conf" ] || return 0
	bt_note "settings_file=$bt_conf"
	BT_FROM="in $bt_conf"
	bt_read_bconf_lines "$bt_conf"
}

# The words bt_asked split (BT_WORDS), later ones winning.
bt_read_cmdline() {
	BT_FROM="on the command line"
	bt_ifs=$IFS
	IFS=$BT_NL
	for bt_w in $BT_WORDS; do
		IFS=$bt_ifs
		case $bt_w in
		boottrace.?*=*)
			bt_key "${bt_w%%=*}"
			bt_set "$BT_K" "${bt_w#*=}"
			;;
		# for bt_pstore_load; the kernel's parameter names, so no quoting
		ramoops.?*=*) BT_RAMOOPS="$BT_RAMOOPS ${bt_w#ramoops.}" ;;
		esac
	done
	IFS=$bt_ifs
}

bt_uptime() { # -> BT_UP (centiseconds since boot)
	BT_UP=0
	read -r bt_u _ </proc/uptime 2>/dev/null || return 0
	bt_f=${bt_u#*.}
	bt_f=${bt_f#0}
	BT_UP=$((${bt_u%%.*} * 100 + ${bt_f:-0}))
}

bt_cs() { # CENTISECONDS -> BT_CS ("S.CC"), without a subshell
	BT_CS=$(($1 / 100)).$(($1 % 100 / 10))$(($1 % 10))
}

bt_sleep() { # short pause between polls
	sleep 0.2 2>/dev/null || sleep 1
}

# Find tracefs, mounting it (or debugfs before 4.1) when nobody did.
bt_find_tracefs() {
	# shellcheck disable=SC2086 # a list of directories (set -f is on)
	for bt_d in $BT_TRACEFS_DIRS; do
		if [ -e "$bt_d/trace" ]; then
			BT_T=$bt_d
			bt_note "tracefs=$bt_d (already mounted)"
			return 0
		fi
	done
	if [ -d /sys/kernel/tracing ] &&
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		[ -e /sys/kernel/tracing/trace ]; then
		BT_T=/sys/kernel/tracing
		bt_note "tracefs=$BT_T (mounted by the hook)"
		return 0
	fi
	if [ -d /sys/kernel/debug ] &&
		{ [ -e /sys/kernel/debug/tracing ] ||
			mount -t debugfs nodev /sys/kernel/debug 2>/dev/null; } &&
		[ -e /sys/kernel/debug/tracing/trace ]; then
		BT_T=/sys/kernel/debug/tracing
		bt_note "tracefs=$BT_T (debugfs mounted by the hook)"
		return 0
	fi
	if [ ! -d /sys/kernel ]; then
		bt_err "no tracefs: /sys is not mounted (mount sysfs before the hook runs)"
	else
		bt_err "no tracefs: neither /sys/kernel/tracing nor /sys/kernel/debug/tracing can be mounted (kernel without CONFIG_TRACING?)"
	fi
	return 1
}

# The module names of the boottrace.arm filters (FUNC:mod:MODULE).
bt_arm_modules() {
	bt_ms=
	bt_old=$IFS
	IFS=,
	for bt_a in $BT_ARM; do
		case $bt_a in
		*:mod:*) bt_ms="$bt_ms ${bt_a##*:mod:}" ;;
		esac
	done
	IFS=$bt_old
	echo "$bt_ms"
}

# Write the boottrace.arm filters before the modules load: the kernel keeps
# FUNC:mod:MODULE pending and applies it when MODULE loads.
bt_arm() {
	bt_pstore_load
	[ -n "$BT_ARM" ] || return 0
	[ -n "$BT_T" ] || bt_find_tracefs || return 0
	bt_old=$IFS
	IFS=,
	for bt_a in $BT_ARM; do
		IFS=$bt_old
		case $bt_a in
		*[!A-Za-z0-9_.*?:-]* | '')
			bt_err "boottrace.arm: '$bt_a' is not FUNC:mod:MODULE; not armed"
			continue
			;;
		esac
		if bt_m=$(printf '%s\n' "$bt_a" 2>&1 >>"$BT_T/set_ftrace_filter"); then
			bt_kmsg 6 "armed $bt_a"
		else
			bt_err "boottrace.arm: writing '$bt_a' to set_ftrace_filter failed: ${bt_m:-write error}"
		fi
	done
	IFS=$bt_old
	BT_ARMED_HERE=1
	# a snapshot taken by a later process reports these errors too
	mkdir -p "$BT_RUN" 2>/dev/null &&
		printf '%s' "$BT_ERRORS" >"$BT_RUN/.arm-errors" 2>/dev/null
	return 0
}

bt_wait_modules() {
	bt_need=$(bt_arm_modules)
	bt_left=$((BT_TIMEOUT * 5))
	bt_prev=
	bt_same=0
	while [ "$bt_left" -gt 0 ]; do
		bt_cur=$(cat /proc/modules 2>/dev/null)
		bt_ok=1
		for bt_m in $bt_need; do
			grep -q "^$bt_m .* Live " /proc/modules 2>/dev/null || bt_ok=0
		done
		if [ "$bt_ok" = 1 ] && [ -n "$bt_need" ]; then
			return 0
		fi
		if [ "$bt_ok" = 1 ] && [ "$bt_cur" = "$bt_prev" ]; then
			bt_same=$((bt_same + 1))
			[ "$bt_same" -ge 5 ] && return 0
		else
			bt_same=0
		fi
		bt_prev=$bt_cur
		bt_sleep
		bt_left=$((bt_left - 1))
	done
	bt_kmsg 4 "modules${bt_need:+ $bt_need} not live/settled after ${BT_TIMEOUT}s; snapshot anyway"
	return 1
}

# What the filesystem of DIR says (df -P, in KB); empty when it cannot.
bt_df() { # DIR -> BT_DF_TOTAL BT_DF_AVAIL
	BT_DF_TOTAL=
	BT_DF_AVAIL=
	bt_o=$(df -Pk "$1" 2>/dev/null) || return 0
	bt_o=${bt_o#*"$BT_NL"}
	# shellcheck disable=SC2086 # split into fields on purpose (set -f is on)
	set -- $bt_o
	case $2$4 in '' | *[!0-9]*) return 0 ;; esac
	BT_DF_TOTAL=$2
	BT_DF_AVAIL=$4
}

# The type of the filesystem DIR is on: the longest mount point of
# /proc/mounts that holds it (builtins).
bt_fstype() { # DIR -> BT_FSTYPE
	BT_FSTYPE=
	bt_best=-1
	[ -r /proc/mounts ] || return 0
	while read -r _ bt_mp bt_ty _; do
		bt_p=${bt_mp%/}
		case $1/ in
		"$bt_p"/*)
			[ "${#bt_p}" -gt "$bt_best" ] && bt_best=${#bt_p} && BT_FSTYPE=$bt_ty
			;;
		esac
	done </proc/mounts
}

# MemAvailable (kernel 3.14 on), else MemFree, in KB (builtins).
bt_memavail() { # -> BT_MEM BT_MEM_WHAT
	BT_MEM=
	BT_MEM_WHAT=
	[ -r /proc/meminfo ] || return 0
	while read -r bt_k bt_v _; do
		case $bt_k in
		MemAvailable:) BT_MEM=$bt_v BT_MEM_WHAT=MemAvailable && return 0 ;;
		MemFree:) BT_MEM=$bt_v BT_MEM_WHAT=MemFree ;;
		esac
	done </proc/meminfo
}

# How many KB the trace may take in DIR -> BT_CAP, BT_CAP_WHY
# (initramfs-hook/README.md, "Space"; docs/kernel-facts.md 22): max_kb; on a filesystem with a size,
# its free space less 512 KB for the snapshot's other files and 10 % of its
# size for the rest of the boot; in memory (tmpfs, ramfs, rootfs: ramfs and
# a ramfs rootfs have no size, df says 0), MemAvailable less 512 KB and
# max(16 MB, 10 % of MemAvailable) for the rest of the boot.
bt_room() { # DIR
	BT_CAP=$BT_MAX_KB
	BT_CAP_WHY="boottrace.max_kb=$BT_MAX_KB"
	bt_df "$1"
	bt_fstype "$1"
	bt_inmem=
	case $BT_FSTYPE in tmpfs | ramfs | rootfs | '') bt_inmem=1 ;; esac
	if [ -n "$BT_DF_TOTAL" ] && [ "$BT_DF_TOTAL" -gt 0 ]; then
		bt_keep=$((BT_DF_TOTAL / 10))
		if [ $((BT_DF_AVAIL - 512 - bt_keep)) -lt "$BT_CAP" ]; then
			BT_CAP=$((BT_DF_AVAIL - 512 - bt_keep))
			BT_CAP_WHY="only $BT_DF_AVAIL KB free on $BT_BASE, 512 KB kept for the other files and $bt_keep KB (10 % of its $BT_DF_TOTAL KB) for the rest of the boot"
		fi
	else
		bt_inmem=1
	fi
	[ -n "$bt_inmem" ] || return 0
	bt_memavail
	if [ -z "$BT_MEM" ]; then
		if [ -z "$BT_DF_TOTAL" ] || [ "$BT_DF_TOTAL" = 0 ]; then
			[ "$BT_CAP" -gt 4096 ] && BT_CAP=4096 &&
				BT_CAP_WHY="neither df nor /proc/meminfo says how much room ${BT_FSTYPE:-the filesystem of} $BT_BASE has: 4096 KB at most"
		fi
		return 0
	fi
	bt_keep=$((BT_MEM / 10))
	[ "$bt_keep" -lt 16384 ] && bt_keep=16384
	if [ $((BT_MEM - 512 - bt_keep)) -lt "$BT_CAP" ]; then
		BT_CAP=$((BT_MEM - 512 - bt_keep))
		BT_CAP_WHY="only $BT_MEM KB of memory available ($BT_MEM_WHAT) for ${BT_FSTYPE:-the filesystem of} $BT_BASE, 512 KB kept for the other files and $bt_keep KB for the rest of the boot"
		case $BT_DF_TOTAL in '' | 0) BT_CAP_WHY="$BT_CAP_WHY; df gives it no size" ;; esac
	fi
}

bt_size() { # FILE -> bytes, without reading it when stat(1) is there
	# the redirection fails before 2>/dev/null would apply: braces
	stat -c %s "$1" 2>/dev/null || { wc -c <"$1"; } 2>/dev/null || echo 0
}

# Short files (current_tracer, osrelease, per-CPU stats) with builtins:
# under QEMU's emulation every fork+exec costs ~20 ms, and the hook's
# budget is 1.25x a bare cat of the trace. read(1) takes a byte at a time,
# so not for long files.
bt_copy_lines() { # SRC DST
	if { while IFS= read -r bt_l || [ -n "$bt_l" ]; do
		printf '%s\n' "$bt_l"
	done <"$1" >"$2"; } 2>/dev/null; then
		return 0
	fi
	bt_err "copy $1: cannot read it or write $2"
	return 1
}

# Copy SRC to DST; a failure becomes an error line with its reason.
bt_copy() {
	if bt_m=$(cat "$1" 2>&1 >"$2"); then return 0; fi
	bt_err "copy $1: ${bt_m:-failed}"
	return 1
}

bt_timeout() { # run "$@" under timeout(1) when there is one
	if command -v timeout >/dev/null 2>&1; then
		timeout "$BT_COPY_TIMEOUT" "$@"
	else
		"$@"
	fi
}

# The trace text, at most CAP KB; truncation is recorded, never silent.
bt_copy_trace() { # SRC DST CAP_KB NAME
	if [ "$3" -le 0 ]; then
		bt_err "$4 not copied: no room left ($BT_CAP_WHY)"
		return 1
	fi
	bt_lim=$(($3 * 1024))
	# 64 KB reads (seq_file fills each) are faster than cat's; one block
	# more than the cap tells a cut trace from one that fits
	bt_m=$(bt_timeout dd if="$1" of="$2" bs=65536 iflag=fullblock \
		count=$(($3 / 64 + 1)) 2>&1)
	case $? in
	0)
		# GNU dd's last line, "N bytes (...) copied", saves a stat(1);
		# busybox's dd has no such line (a newline inside ${...} is a
		# syntax error for klibc's sh: hence BT_NL)
		bt_sz=${bt_m##*"$BT_NL"}
		bt_sz=${bt_sz%% bytes*}
		case $bt_sz in '' | *[!0-9]*) bt_sz=$(bt_size "$2") ;; esac
		;;
	# GNU timeout exits 124; busybox's kills dd itself (SIGTERM: 143)
	124 | 143)
		bt_err "$4: copy timed out after ${BT_COPY_TIMEOUT}s"
		bt_sz=$(bt_size "$2")
		;;
	*)
		bt_err "$4: copy failed: ${bt_m:-no message}"
		bt_sz=$(bt_size "$2")
		;;
	esac
	if [ "$bt_sz" -gt "$bt_lim" ]; then
		dd if=/dev/null of="$2" bs=1024 seek="$3" 2>/dev/null
		bt_sz=$bt_lim
		bt_err "$4 truncated at $3 KB ($BT_CAP_WHY); the newest events are missing"
	fi
	BT_TRACE_BYTES=$((BT_TRACE_BYTES + bt_sz))
}

# Small tracefs files that exist on this kernel, copied with one cp.
bt_copy_state() { # TRACEFS DIR
	bt_src=$1
	bt_dst=$2
	set --
	for bt_f in set_ftrace_filter set_ftrace_notrace trace_options set_event \
		kprobe_events buffer_size_kb buffer_total_size_kb tracing_on \
		trace_clock set_graph_function set_graph_notrace tracing_cpumask; do
		[ -e "$bt_src/$bt_f" ] && set -- "$@" "$bt_src/$bt_f"
	done
	[ $# -eq 0 ] || bt_m=$(cp "$@" "$bt_dst/" 2>&1) ||
		bt_err "copy of tracefs settings: $bt_m"
	[ -e "$bt_src/current_tracer" ] && bt_copy_lines "$bt_src/current_tracer" "$bt_dst/tracer"
	bt_mkdirs "$bt_src" "$bt_dst"
	if [ -d "$bt_src/options" ] && [ -d "$bt_dst/options" ]; then
		set +f
		set -- "$bt_src"/options/*
		set -f
		bt_m=$(cp "$@" "$bt_dst/options/" 2>&1) ||
			bt_err "copy of options/: $bt_m"
	fi
	set +f
	for bt_c in "$bt_src"/per_cpu/cpu*; do
		set -f
		[ -e "$bt_c/stats" ] && [ -d "$bt_dst/per_cpu/${bt_c##*/}" ] &&
			bt_copy_lines "$bt_c/stats" "$bt_dst/per_cpu/${bt_c##*/}/stats"
	done
}

# cmdline, modules, bootconfig (one cp: they keep their names), release.
bt_copy_proc() { # DIR
	bt_d=$1
	set -- /proc/cmdline
	# no /proc/modules without CONFIG_MODULES: nothing to copy, no error
	[ -r /proc/modules ] && set -- "$@" /proc/modules
	[ -r /proc/bootconfig ] && set -- "$@" /proc/bootconfig
	bt_m=$(cp "$@" "$bt_d/" 2>&1) || bt_err "copy of $*: $bt_m"
	bt_copy_lines /proc/sys/kernel/osrelease "$bt_d/release"
	bt_copy_pstore "$bt_d"
}

# pstore's ramoops (boottrace.crash = pstore, docs/crash.md) built as a
# module, as Debian builds it, keeps nothing until it is loaded, and
# busybox's modprobe does not take its parameters from /proc/cmdline: the
# hook loads it first thing, with the line's ramoops.* words, so that a
# crash later in this boot is kept.
bt_pstore_load() {
	[ -n "$BT_RAMOOPS" ] || return 0
	[ -d /sys/module/ramoops ] && return 0
	# shellcheck disable=SC2086 # one module parameter a word
	if bt_m=$($BT_MODPROBE ramoops $BT_RAMOOPS 2>&1); then
		bt_note "pstore=ramoops loaded:$BT_RAMOOPS"
	else
		bt_warn "pstore: modprobe ramoops$BT_RAMOOPS failed (${bt_m:-no message}): a crash of this boot is not kept"
	fi
}

# The previous boots' pstore records (a panic's log with the trace the
# kernel dumped into it; docs/crash.md), copied to pstore/ as they are.
# The kernel keeps them until someone removes them (systemd-pstore does):
# until then each boot copies them again, and report gives each record's
# own time.
bt_copy_pstore() { # DIR
	[ -d "$BT_PSTORE" ] || return 0
	if [ "$BT_PSTORE" = /sys/fs/pstore ] &&
		! grep -q '^[^ ]* /sys/fs/pstore pstore ' /proc/mounts 2>/dev/null; then
		mount -t pstore pstore /sys/fs/pstore 2>/dev/null || return 0
	fi
	set +f
	for bt_f in "$BT_PSTORE"/*; do
		set -f
		[ -f "$bt_f" ] || continue
		mkdir -p "$1/pstore" && bt_copy "$bt_f" "$1/pstore/${bt_f##*/}" &&
			bt_note "pstore_record=${bt_f##*/}"
	done
	set -f
}

# The directories a tracefs instance's copy needs, with one mkdir.
bt_mkdirs() { # TRACEFS DIR
	bt_s=$1
	bt_d=$2
	set --
	[ -d "$bt_s/options" ] && [ ! -d "$bt_d/options" ] && set -- "$bt_d/options"
	set +f
	for bt_c in "$bt_s"/per_cpu/cpu*; do
		set -f
		[ -e "$bt_c/stats" ] && [ ! -d "$bt_d/per_cpu/${bt_c##*/}" ] &&
			set -- "$@" "$bt_d/per_cpu/${bt_c##*/}"
	done
	[ $# -eq 0 ] || mkdir -p "$@" 2>/dev/null
}

# trace-cmd restore input: per-CPU raw pages, formats, kallsyms.
bt_copy_raw() { # DIR
	set +f
	for bt_c in "$BT_T"/per_cpu/cpu*; do
		set -f
		[ -e "$bt_c/trace_pipe_raw" ] || continue
		mkdir -p "$1/per_cpu/${bt_c##*/}" || continue
		# trace_pipe_raw blocks once empty: read each CPU for a bounded time
		(BT_COPY_TIMEOUT=2 bt_timeout cat "$bt_c/trace_pipe_raw" \
			>"$1/per_cpu/${bt_c##*/}/trace_pipe_raw" 2>/dev/null) &
	done
	if ! mkdir -p "$1/events" ||
		! cp "$BT_T/events/header_page" "$BT_T/events/header_event" "$1/events/" 2>/dev/null; then
		bt_err "raw: events/header_page, header_event not copied"
	fi
	bt_raw=$1
	bt_here=$PWD
	if cd "$BT_T"; then
		# every events/SYSTEM/EVENT/format in one awk process, not one cp each
		set +f
		set -- events/*/*/format
		set -f
		for bt_f; do echo "$bt_raw/${bt_f%/format}"; done | xargs mkdir -p 2>/dev/null
		awk -v d="$bt_raw" 'FNR == 1 { if (o != "") close(o); o = d "/" FILENAME }
			{ print > o }' "$@" 2>/dev/null ||
			bt_err "raw: event formats not all copied"
		cd "$bt_here" || :
	fi
	for bt_f in printk_formats saved_cmdlines saved_tgids; do
		[ -e "$BT_T/$bt_f" ] && bt_copy "$BT_T/$bt_f" "$bt_raw/$bt_f"
	done
	bt_copy /proc/kallsyms "$bt_raw/kallsyms"
	wait
}

# The block device of SPEC, waiting up to BT_TIMEOUT for it to appear: a
# /dev/NAME, or what findfs says for LABEL=/UUID=, followed through every
# symlink to the final node, which must be a block device.
bt_resolve_dev() { # SPEC -> BT_DEV, or status 1 and BT_WHY
	BT_DEV=
	bt_left=$((BT_TIMEOUT * 5))
	while :; do
		case $1 in
		LABEL=* | UUID=*) bt_dev=$(findfs "$1" 2>/dev/null) ;;
		*) bt_dev=$1 ;;
		esac
		bt_real=$bt_dev
		if [ -n "$bt_dev" ] && [ -L "$bt_dev" ]; then
			if ! bt_real=$(readlink -f "$bt_dev" 2>/dev/null) || [ -z "$bt_real" ]; then
				BT_WHY="refused: $bt_dev is a symlink and readlink -f cannot follow it"
				return 1
			fi
		fi
		if [ -n "$bt_real" ] && [ -e "$bt_real" ]; then
			[ -b "$bt_real" ] && [ ! -L "$bt_real" ] && BT_DEV=$bt_real && return 0
			bt_what="not a block device"
			if [ -f "$bt_real" ]; then bt_what="a regular file, not a block device"
			elif [ -c "$bt_real" ]; then bt_what="a character device, not a block device"
			elif [ -d "$bt_real" ]; then bt_what="a directory, not a block device"
			fi
			if [ "$bt_real" = "$bt_dev" ]; then
				BT_WHY="refused: $bt_dev is $bt_what"
			else
				BT_WHY="refused: $bt_dev leads to $bt_real, $bt_what"
			fi
			return 1
		fi
		if [ "$bt_left" -le 0 ]; then
			BT_WHY="not found after ${BT_TIMEOUT}s"
			return 1
		fi
		bt_sleep
		bt_left=$((bt_left - 1))
	done
}

# Destination directory: /run, or a mounted device (falls back to /run).
bt_dest() {
	BT_MNT=
	BT_BASE=$BT_RUN
	case $BT_SNAPSHOT in
	run | console | '') return 0 ;;
	esac
	if ! bt_resolve_dev "$BT_SNAPSHOT"; then
		bt_err "destination $BT_SNAPSHOT $BT_WHY; snapshot kept in $BT_RUN"
		return 0
	fi
	BT_MNT=$BT_RUN-mnt.$$
	if ! bt_m=$(mkdir -p "$BT_MNT" 2>&1); then
		bt_err "destination $BT_SNAPSHOT ($BT_DEV): no mount point $BT_MNT: $bt_m; snapshot kept in $BT_RUN"
		BT_MNT=
		return 0
	fi
	# the snapshot is data: nothing on the device runs or opens a device
	if bt_m=$(mount -o nosuid,nodev,noexec "$BT_DEV" "$BT_MNT" 2>&1); then
		BT_BASE=$BT_MNT/boottrace
		bt_note "device=$BT_DEV"
		bt_mo=
		while read -r _ bt_mp _ bt_o _; do
			[ "$bt_mp" = "$BT_MNT" ] && bt_mo=$bt_o
		done </proc/mounts
		bt_note "device_mount=${bt_mo:-unknown}"
	else
		bt_err "destination $BT_SNAPSHOT ($BT_DEV) cannot be mounted: $bt_m; snapshot kept in $BT_RUN"
		rmdir "$BT_MNT" 2>/dev/null
		BT_MNT=
	fi
}

bt_undest() { # unmount the device destination, if any
	[ -n "$BT_MNT" ] || return 0
	bt_m=$(umount "$BT_MNT" 2>&1) || bt_kmsg 3 "umount $BT_MNT: $bt_m"
	rmdir "$BT_MNT" 2>/dev/null
	BT_MNT=
}

# Console framing (initramfs-hook/README.md): a parser rebuilds each file
# byte for byte from the "|" lines, the eol flag and the size.
bt_console() { # DIR ID
	bt_pk=
	[ -w /proc/sys/kernel/printk ] && read -r bt_pk _ </proc/sys/kernel/printk &&
		echo 1 >/proc/sys/kernel/printk
	# how many parts the end marker promises: a part whose marker is lost
	# is then missed, not silently absent
	bt_nf=$( (cd "$1" && find . -type f) | wc -l)
	{
		# a line of its own: firmware or a getty may have left the
		# cursor mid-line (QEMU -nographic with SeaBIOS does)
		echo
		echo "=== boottrace snapshot begin $2 ==="
		(cd "$1" && find . -type f | sort) | while IFS= read -r bt_f; do
			bt_f=${bt_f#./}
			[ "$bt_f" = COMPLETE ] && continue
			bt_print_file "$1" "$bt_f"
		done
		bt_print_file "$1" COMPLETE
		echo "=== boottrace snapshot end $2 files=$((bt_nf + 0)) ==="
	} >/dev/console 2>/dev/null
	[ -n "$bt_pk" ] && echo "$bt_pk" >/proc/sys/kernel/printk
}

# One part: its size, line count and md5 (md5sum: busybox and coreutils
# both have it; busybox has no cksum) on the marker, so that `report` can
# prove it came through the console whole.
bt_print_file() { # DIR REL
	bt_p=$1/$2
	bt_sz=$(bt_size "$bt_p")
	bt_sum=-
	command -v md5sum >/dev/null 2>&1 && bt_sum=$(md5sum <"$bt_p") && bt_sum=${bt_sum%% *}
	case $2 in
	*/trace_pipe_raw)
		if command -v base64 >/dev/null 2>&1; then
			echo "--- boottrace file $2 size=$bt_sz eol=1 enc=base64 md5=$bt_sum ---"
			base64 <"$bt_p" | sed 's/^/|/'
			echo "--- boottrace end $2 ---"
		else
			echo "--- boottrace skipped $2 (no base64 to print a binary file) ---"
		fi
		return 0
		;;
	esac
	bt_eol=1
	[ -n "$(tail -c 1 "$bt_p")" ] && bt_eol=0
	bt_nl=$(sed -n '$=' "$bt_p")
	echo "--- boottrace file $2 size=$bt_sz lines=${bt_nl:-0} eol=$bt_eol enc=text md5=$bt_sum ---"
	sed 's/^/|/' "$bt_p"
	[ "$bt_eol" = 0 ] && echo
	echo "--- boottrace end $2 ---"
}

bt_snapshot() { # POINT REASON
	bt_uptime
	bt_t0=$BT_UP
	[ -n "$BT_T" ] || bt_find_tracefs
	[ -r /proc/sys/kernel/random/boot_id ] &&
		read -r BT_ID </proc/sys/kernel/random/boot_id
	BT_ID=${BT_ID:-unknown-$bt_t0}
	bt_dest
	if ! bt_mkdir_snap; then
		bt_ok=
		if [ -n "$BT_MNT" ]; then
			bt_err "destination $BT_SNAPSHOT ($BT_DEV): cannot create $bt_dir: $bt_m; snapshot kept in $BT_RUN"
			bt_undest
			BT_BASE=$BT_RUN
			bt_mkdir_snap && bt_ok=1
		fi
		if [ -z "$bt_ok" ]; then
			bt_kmsg 3 "cannot create $bt_dir: $bt_m; no snapshot"
			return 0
		fi
	fi
	# options/ and per_cpu/cpuN/ in one more mkdir, not one a CPU
	[ -n "$BT_T" ] && bt_mkdirs "$BT_T" "$bt_dir"
	if [ -z "$BT_ARMED_HERE" ] && [ -s "$BT_RUN/.arm-errors" ]; then
		while IFS= read -r bt_l; do
			BT_ERRORS="$BT_ERRORS$bt_l
"
			BT_NERR=$((BT_NERR + 1))
		done <"$BT_RUN/.arm-errors"
	fi
	BT_TRACE_BYTES=0
	bt_on=
	if [ -n "$BT_T" ]; then
		[ -r "$BT_T/tracing_on" ] && read -r bt_on <"$BT_T/tracing_on"
		if [ "$BT_STOP" = 1 ]; then
			echo 0 >"$BT_T/tracing_on" 2>/dev/null ||
				bt_err "cannot stop tracing (tracing_on not writable)"
			set +f
			for bt_i in "$BT_T"/instances/*; do
				set -f
				[ -e "$bt_i/tracing_on" ] && echo 0 >"$bt_i/tracing_on"
			done
		fi
		[ "$bt_on" = 0 ] &&
			bt_warn "tracing_on was already 0 before the hook: tracing was stopped earlier, the trace may end early"
		bt_tr=
		[ -r "$BT_T/current_tracer" ] && read -r bt_tr <"$BT_T/current_tracer"
		[ "$bt_tr" = nop ] &&
			bt_warn "tracer is nop: no function tracer was set (no ftrace= on the command line?); only events, if any, are recorded"
		bt_room "$bt_dir"
		[ "$BT_CAP" = "$BT_MAX_KB" ] || bt_note "room=$BT_CAP KB for the trace: $BT_CAP_WHY"
		BT_COPY_TIMEOUT=$((BT_TIMEOUT > 60 ? BT_TIMEOUT : 60))
		bt_copy_trace "$BT_T/trace" "$bt_dir/trace" "$BT_CAP" trace
		bt_copy_state "$BT_T" "$bt_dir"
		set +f
		for bt_i in "$BT_T"/instances/*; do
			set -f
			[ -e "$bt_i/trace" ] || continue
			# a persistent instance: bt_persist below
			[ -e "$bt_i/last_boot_info" ] && continue
			bt_id=$bt_dir/instances/${bt_i##*/}
			mkdir -p "$bt_id" || continue
			bt_copy_trace "$bt_i/trace" "$bt_id/trace" $((BT_CAP - BT_TRACE_BYTES / 1024)) "instances/${bt_i##*/}/trace"
			bt_copy_state "$bt_i" "$bt_id"
		done
		bt_persist "$bt_dir"
		if [ "$BT_RAW" = 1 ]; then
			# the raw pages are about buffer_total_size_kb: they must fit
			# in what the text trace left of the room
			bt_need=
			[ -r "$BT_T/buffer_total_size_kb" ] && read -r bt_need _ <"$BT_T/buffer_total_size_kb"
			case $bt_need in '' | *[!0-9]*) bt_need=0 ;; esac
			bt_room "$bt_dir"
			if [ "$bt_need" -gt "$BT_CAP" ]; then
				bt_err "raw buffers not copied: they take up to $bt_need KB and $BT_CAP KB are left ($BT_CAP_WHY)"
			else
				bt_copy_raw "$bt_dir"
			fi
		fi
		[ "$BT_FOLLOW" = 0 ] || bt_resume
		if [ "$BT_TRACE_BYTES" -gt 0 ] && [ "$bt_tr" != nop ] &&
			! grep -q '^[^#]' "$bt_dir/trace" 2>/dev/null; then
			bt_warn "the trace holds no events although tracer $bt_tr was set"
		fi
	fi
	bt_copy_proc "$bt_dir"
	bt_m=$(dmesg 2>&1 >"$bt_dir/dmesg") || bt_err "dmesg: $bt_m"
	bt_uptime
	BT_T0=$bt_t0
	BT_POINT=$1
	BT_REASON=$2
	BT_DIR=$bt_dir
	if ! bt_write_meta; then
		# the trace gives way to meta: cut 256 KB off it and try again
		bt_sz=$(bt_size "$bt_dir/trace")
		bt_kb=$((bt_sz / 1024 - 256))
		[ "$bt_kb" -lt 0 ] && bt_kb=0
		dd if=/dev/null of="$bt_dir/trace" bs=1024 seek="$bt_kb" 2>/dev/null
		bt_err "no room for meta: trace cut to $bt_kb KB"
		bt_write_meta || bt_kmsg 3 "cannot write $bt_dir/meta"
	fi
	if ! echo "errors=$BT_NERR warnings=$BT_NWARN" >"$bt_dir/COMPLETE" 2>/dev/null; then
		rm -f "$bt_dir/COMPLETE"
		bt_kmsg 3 "cannot write $bt_dir/COMPLETE"
	fi
	# a device is synced by its umount below; /run is memory
	bt_kmsg 6 "snapshot at $1 in $bt_dir ($BT_TRACE_BYTES trace bytes, $BT_NERR errors, $BT_NWARN warnings, $(((BT_UP - bt_t0) * 10)) ms)"
	[ "$BT_SNAPSHOT" = console ] && bt_console "$bt_dir" "$BT_ID"
	bt_undest
	return 0
}

# Linux 6.12's persistent ring buffer (reserve_mem= and
# trace_instance=NAME@LABEL; docs/kernel-facts.md 50-55): an instance on
# memory kept over a warm reboot has a last_boot_info file. When the kernel
# said its per-CPU buffers are "from previous boot", the instance holds the
# previous boot's last events (a boot that died before any hook ran), then
# this boot's appended: copied whole to previous/NAME/ with last_boot_info
# and this boot's _text (report tells the two boots apart and moves the
# previous boot's pointers by the text delta). Otherwise it holds this
# boot's events only: instances/NAME/ as any instance. Then the instance is
# emptied and turned on: what it holds at the next boot is what this boot
# did after the hook (nothing of it when this boot ends cleanly soon).
bt_persist() { # DIR
	# the kernel's lines only: ours quote them, and an earlier run's would
	# be read as the kernel's again
	bt_klog=$(dmesg 2>/dev/null | grep -e 'Ring buffer' -e 'boot instance' | grep -v ' boottrace: ')
	case $bt_klog in
	*"Failed to map boot instance"*)
		bt_err "persistent ring buffer: the kernel could not map a boot instance (dmesg: $(printf '%s\n' "$bt_klog" | grep -m 1 'Failed to map')): it records as an ordinary instance and keeps nothing over a reboot; check reserve_mem= (its size, and that nothing else uses the region)"
		;;
	esac
	set +f
	for bt_i in "$BT_T"/instances/*; do
		set -f
		[ -e "$bt_i/last_boot_info" ] || continue
		bt_pn=${bt_i##*/}
		bt_np=$(printf '%s\n' "$bt_klog" | grep -c 'is from previous boot')
		# every way rb_meta_valid() refuses a buffer says "Ring buffer boot meta"
		bt_nb=$(printf '%s\n' "$bt_klog" | grep -c -e 'Ring buffer boot meta' -e 'invalid commit')
		if [ "$bt_np" -eq 0 ] && [ "$bt_nb" -eq 0 ]; then
			# the log says nothing of the buffers (wrapped before the
			# hook, or dmesg unreadable): report tells the boots apart
			# by the step back in time, so the copy goes where it looks
			bt_warn "persistent instance $bt_pn: the kernel's log has no 'Ring buffer meta' line (it wrapped before the hook, or dmesg is not readable), so whether the instance holds a previous boot's events is not known: copied to previous/$bt_pn/, where report tells the boots apart by their times"
			bt_np=unknown
		fi
		if [ "$bt_np" != 0 ]; then
			bt_pd=$1/previous/$bt_pn
			mkdir -p "$bt_pd" || { bt_err "persistent instance $bt_pn: cannot create $bt_pd"; continue; }
			bt_copy_trace "$bt_i/trace" "$bt_pd/trace" $((BT_CAP - BT_TRACE_BYTES / 1024)) "previous/$bt_pn/trace"
			bt_copy_lines "$bt_i/last_boot_info" "$bt_pd/last_boot_info"
			bt_copy_state "$bt_i" "$bt_pd"
			# this boot's _text: the previous boot's pointers plus the
			# text delta are this boot's addresses
			bt_tx=$(grep -m 1 ' _text$' /proc/kallsyms 2>/dev/null)
			[ -n "$bt_tx" ] && echo "$bt_tx" >"$bt_pd/text"
			bt_note "previous_boot=$bt_pn"
			bt_note "previous_boot_cpus=$bt_np"
			[ "$bt_nb" -gt 0 ] &&
				bt_warn "persistent instance $bt_pn: $bt_nb CPU buffers of the previous boot were invalid (dmesg: $(printf '%s\n' "$bt_klog" | grep -m 1 -e 'Ring buffer boot meta' -e 'invalid commit' | sed 's/^\[[^]]*\] //')): their events are lost; the reserved region was overwritten before the kernel ran (try a smaller reserve_mem size) or moved"
		else
			bt_id=$1/instances/$bt_pn
			mkdir -p "$bt_id" || continue
			bt_copy_trace "$bt_i/trace" "$bt_id/trace" $((BT_CAP - BT_TRACE_BYTES / 1024)) "instances/$bt_pn/trace"
			bt_copy_state "$bt_i" "$bt_id"
			cp "$bt_i/last_boot_info" "$bt_id/" 2>/dev/null
			bt_note "previous_boot_none=$bt_pn: the kernel found no previous boot's data ($bt_nb CPU buffers without it: a cold boot, or the reserved region was overwritten or moved)"
		fi
		if ! : >"$bt_i/trace" 2>/dev/null; then
			bt_err "persistent instance $bt_pn: cannot empty it (trace not writable): the next boot will find this boot's events too"
		fi
		echo 1 >"$bt_i/tracing_on" 2>/dev/null ||
			bt_err "persistent instance $bt_pn: cannot turn it on (tracing_on not writable): the rest of this boot is not recorded"
		bt_note "persistent=$bt_pn emptied and on"
	done
}

# boottrace.follow: tracing on again once the trace is copied, so the rest
# of the boot goes on into the same buffer for `boottrace collect`. Not
# when tracing was already off before the hook: a trigger (traceoff) or the
# command line stopped it on purpose, and the buffer holds that moment.
bt_resume() {
	bt_uptime
	bt_cs "$BT_UP"
	if [ "$bt_on" = 0 ]; then
		bt_warn "boottrace.follow=$BT_FOLLOW: tracing_on was 0 before the hook (a traceoff trigger or the command line stopped it); not resumed"
		return 0
	fi
	if [ "$BT_STOP" = 1 ]; then
		if ! echo 1 >"$BT_T/tracing_on" 2>/dev/null; then
			bt_err "boottrace.follow=$BT_FOLLOW: cannot turn tracing on again (tracing_on not writable)"
			return 0
		fi
		set +f
		for bt_i in "$BT_T"/instances/*; do
			set -f
			[ -e "$bt_i/tracing_on" ] && echo 1 >"$bt_i/tracing_on"
		done
	fi
	BT_RESUMED=1
	bt_note "resumed_uptime=$BT_CS"
}

# A directory of its own for this snapshot under BT_BASE.
bt_mkdir_snap() { # -> bt_dir; status 1 and bt_m when it cannot be made
	bt_dir=$BT_BASE/$BT_ID
	bt_n=1
	while [ -e "$bt_dir" ]; do
		bt_n=$((bt_n + 1))
		bt_dir=$BT_BASE/$BT_ID-$bt_n
	done
	bt_m=$(mkdir -p "$bt_dir" 2>&1)
}

bt_write_meta() {
	{
		echo "format=1"
		echo "version=$BT_VERSION"
		echo "boot_id=$BT_ID"
		echo "point=$BT_POINT"
		echo "point_reason=$BT_REASON"
		echo "destination=$BT_SNAPSHOT"
		echo "dir=$BT_DIR"
		printf '%s' "$BT_NOTES"
		echo "tracing_on_before=${bt_on:-unknown}"
		echo "stopped=$BT_STOP"
		echo "follow=$BT_FOLLOW"
		echo "resumed=$BT_RESUMED"
		echo "raw=$BT_RAW"
		echo "max_kb=$BT_MAX_KB"
		echo "armed=$BT_ARM"
		echo "trace_bytes=$BT_TRACE_BYTES"
		bt_cs "$BT_T0"
		echo "uptime_start=$BT_CS"
		bt_cs "$BT_UP"
		echo "uptime_end=$BT_CS"
		echo "duration_ms=$(((BT_UP - BT_T0) * 10))"
		echo "errors=$BT_NERR"
		echo "warnings=$BT_NWARN"
		printf '%s' "$BT_ERRORS"
	} >"$BT_DIR/meta" 2>/dev/null && bt_meta_whole
}

# Did all of meta reach the disk (its warnings= line, near the end, is
# there)? Builtins: no grep process for twenty lines.
bt_meta_whole() {
	while IFS= read -r bt_l; do
		case $bt_l in warnings=*) return 0 ;; esac
	done <"$BT_DIR/meta"
	return 1
}

# Where the adapter with points P1..Pn takes the snapshot when at POINT.
bt_hook() { # POINT "P1 ... Pn"
	bt_first=${2%% *}
	bt_last=${2##* }
	[ "$1" = "$bt_first" ] && bt_arm
	if [ -n "$BT_AT" ]; then
		[ "$1" = "$BT_AT" ] && bt_snapshot "$1" "boottrace.at=$BT_AT"
		case " $2 " in
		*" $BT_AT "*) ;;
		*)
			if [ "$1" = "$bt_last" ]; then
				bt_err "boottrace.at=$BT_AT is not a point of this adapter ($2); snapshot taken at $bt_last"
				bt_snapshot "$1" "latest point (boottrace.at=$BT_AT unknown here)"
			fi
			;;
		esac
	elif [ -n "$BT_ARM" ]; then
		[ "$1" = "$bt_last" ] &&
			bt_snapshot "$1" "default moved to the latest point $bt_last because boottrace.arm is set"
	else
		[ "$1" = "$bt_first" ] && bt_snapshot "$1" "default: earliest point"
	fi
	return 0
}

# Would bt_hook snapshot at POINT? (for adapters that must prepare a wait)
bt_wants() { # POINT "P1 ... Pn"
	if [ -n "$BT_AT" ]; then
		[ "$1" = "$BT_AT" ]
	elif [ -n "$BT_ARM" ]; then
		[ "$1" = "${2##* }" ]
	else
		[ "$1" = "${2%% *}" ]
	fi
}

bt_read_settings_file
BT_FROM="in $BT_BOOTCONFIG"
bt_read_bconf_lines "$BT_BOOTCONFIG"
bt_read_cmdline
case ${1:-all} in
all)
	bt_arm
	bt_snapshot "${2:-manual}" "called directly"
	;;
arm) bt_arm ;;
snapshot) bt_snapshot "${2:-manual}" "called directly" ;;
hook)
	[ $# -ge 3 ] || { echo "usage: $0 hook POINT \"POINTS...\"" >&2; exit 2; }
	bt_hook "$2" "$3"
	;;
wants)
	[ $# -ge 3 ] || { echo "usage: $0 wants POINT \"POINTS...\"" >&2; exit 2; }
	bt_wants "$2" "$3"
	exit
	;;
wait-modules) bt_wait_modules ;;
settings)
	# what the hook would use, as meta would say it; nothing is done
	printf '%s\n' "asked=$BT_ASKED" "destination=$BT_SNAPSHOT" "stopped=$BT_STOP" \
		"raw=$BT_RAW" "max_kb=$BT_MAX_KB" "at=$BT_AT" "armed=$BT_ARM" \
		"timeout=$BT_TIMEOUT" "follow=$BT_FOLLOW" "errors=$BT_NERR" "warnings=$BT_NWARN"
	printf '%s' "$BT_NOTES" "$BT_ERRORS"
	;;
esac
exit 0
