# SPDX-License-Identifier: GPL-2.0-or-later
#
# Progress of long shell work (docs/architecture.md, "Messages"), sourced
# by scripts/deps.sh, the kernel fetches and builds of tests/e2e/ and the
# QEMU boots of the e2e suites (through tests/e2e/tap.sh). The rules are
# util/progress.h's: a line on stderr, redrawn in place ("\r", erase to the
# end of the line), only when stderr is a terminal, TERM is set and not
# "dumb" and BT_QUIET is unset or 0; anywhere else (make check's logs, a
# pipe, CI) nothing at all, and the command runs exactly as without it.
# shellcheck shell=sh

# 0 when progress is drawn
progress_on() {
	[ -t 2 ] && [ -n "${TERM:-}" ] && [ "$TERM" != dumb ] && [ "${BT_QUIET:-0}" = 0 ]
}

# The line for progress_run, every second until the shell that started it
# is gone (it is killed at the command's end): LABEL ... Ns, the size of
# SIZE (a file or a directory being written) and the last line of TAIL
# (a build log, a serial console), cut to the terminal's width.
progress_ticker() { # LABEL T0 SIZE TAIL
	pt_cols=$(stty size <&2 2>/dev/null | cut -d' ' -f2)
	case $pt_cols in '' | *[!0-9]* | 0 | 1) pt_cols=80 ;; esac
	while kill -0 "$$" 2>/dev/null; do
		pt_line="$1 ... $(($(date +%s) - $2)) s"
		if [ -n "$3" ] && [ -e "$3" ]; then
			pt_kb=$(du -sk "$3" 2>/dev/null | cut -f1)
			if [ "${pt_kb:-0}" -ge 10240 ]; then
				pt_line="$pt_line, $((pt_kb / 1024)) MB"
			else
				pt_line="$pt_line, ${pt_kb:-0} KB"
			fi
		fi
		if [ -n "$4" ] && [ -s "$4" ]; then
			# the file's bytes: control and escape bytes made '?', blanks squeezed
			pt_tail=$(tail -n 1 "$4" 2>/dev/null | tr -d '\r\n' | tr '\t' ' ' |
				tr -s ' ' | LC_ALL=C tr -c ' -~' '?')
			pt_line="$pt_line: ${pt_tail# }"
		fi
		printf '\r%s\033[K' "$(printf '%s' "$pt_line" | cut -c "1-$((pt_cols - 1))")" >&2
		sleep 1
	done
}

# progress_run [-k] [-o FILE | -a FILE] [-s PATH] [-t FILE] LABEL CMD...
# Run CMD in the foreground (its stdin, its signals, its exit status,
# returned). On a terminal a line "LABEL ... Ns" is redrawn every second
# (-s: with PATH's size; -t: with FILE's last line) and erased at the end;
# -k keeps "LABEL: N s" (or "LABEL: failed after N s") as a line of its
# own, for a stage worth remembering. -o/-a send CMD's stdout and stderr
# to FILE (written / appended): a redirection around progress_run would
# take the progress line there too.
progress_run() {
	pr_keep=0 pr_out="" pr_app="" pr_size="" pr_tail=""
	while :; do
		case ${1:-} in
		-k) pr_keep=1 && shift ;;
		-o) pr_out=$2 && shift 2 ;;
		-a) pr_app=$2 && shift 2 ;;
		-s) pr_size=$2 && shift 2 ;;
		-t) pr_tail=$2 && shift 2 ;;
		*) break ;;
		esac
	done
	pr_label=$1
	shift
	pr_pid=
	pr_t0=$(date +%s)
	if progress_on; then
		progress_ticker "$pr_label" "$pr_t0" "$pr_size" "$pr_tail" &
		pr_pid=$!
	fi
	pr_rc=0
	if [ -n "$pr_out" ]; then
		"$@" >"$pr_out" 2>&1 || pr_rc=$?
	elif [ -n "$pr_app" ]; then
		"$@" >>"$pr_app" 2>&1 || pr_rc=$?
	else
		"$@" || pr_rc=$?
	fi
	[ -n "$pr_pid" ] || return "$pr_rc"
	kill "$pr_pid" 2>/dev/null || :
	wait "$pr_pid" 2>/dev/null || :
	printf '\r\033[K' >&2
	if [ "$pr_keep" = 1 ]; then
		if [ "$pr_rc" = 0 ]; then
			printf '%s: %s s\n' "$pr_label" "$(($(date +%s) - pr_t0))" >&2
		else
			printf '%s: failed after %s s (exit %s)\n' "$pr_label" "$(($(date +%s) - pr_t0))" "$pr_rc" >&2
		fi
	fi
	return "$pr_rc"
}
