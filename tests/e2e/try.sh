#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# End-to-end test of `boottrace try` (issue 21 part 2, docs/try.md) on the
# real Debian 6.1 amd64 cloud kernel (tests/e2e/kernel.sh) in ONE QEMU boot
# (TCG) of a busybox initramfs carrying build/boottrace and the shared
# libraries ldd lists. The guest (tests/e2e/try/init) runs
#  (a) tests/e2e/try/good.bconf: every write accepted, exit 0;
#  (b) tests/e2e/try/bad.bconf: a wrong function name, a wrong event filter
#      and a kprobe on a missing function, each refused with the kernel's
#      words (errno, the filter's parse_error, error_log) at FILE:LINE:COL;
#  (c) good.bconf with --hold, SIGINT once the state is held;
#  (d) the image's own events and traceable functions (check --kernel
#      --print-events/--print-functions) against available_events and
#      available_filter_functions of the same kernel booted, and compile's
#      tracer decisions from its .config against its available_tracers;
# and lists every readable tracefs control file before and after each; the
# listings must be identical (the first run: but for the one-way expansion
# of the buffers at the first use of tracing, docs/kernel-facts.md 92). Last line "try: N passed, N failed"; exit 77
# when nothing can boot.
set -u
cd "$(dirname "$0")/../.." || exit 3
top=$PWD
bt=$top/build/boottrace
td=$top/tests/e2e/try
W=$top/build/e2e-try
# shellcheck disable=SC2034 # read by tap.sh
SUITE=try
# shellcheck source=tests/e2e/tap.sh
. "$top/tests/e2e/tap.sh"
# shellcheck source=tests/e2e/imgcmp.sh
. "$top/tests/e2e/imgcmp.sh"

qemu_kernel kernel.sh "Debian 6.1 cloud kernel"
mkdir -p "$W/out"

# boottrace and its libraries, each at the path ldd names
libs=$(ldd "$bt" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }')
set -- -f "$bt:/bin/boottrace" -f "$td/init:/init" -f "$td/good.bconf:/etc/try/good.bconf" \
	-f "$td/bad.bconf:/etc/try/bad.bconf"
for l in $libs; do
	set -- "$@" -f "$l:$l"
done
if ! BUSYBOX=$KD/busybox sh initramfs-hook/mkinitramfs.sh -o "$W/i.cpio.gz" -M "$KD/root" -V "$KV" \
	-m "virtio_pci virtio_blk" -n "$@"; then
	nok "mkinitramfs.sh builds the test initramfs"
	finish
fi
truncate -s 64M "$W/disk.img"
t0=$(date +%s)
progress_run -o "$W/qemu.log" -t "$W/serial.log" "booting try" \
	timeout 600 qemu-system-x86_64 -M pc -m 1024 -smp 2 -display none \
	-monitor none -serial "file:$W/serial.log" -no-reboot \
	-kernel "$KD/root/boot/vmlinuz-$KV" -initrd "$W/i.cpio.gz" \
	-drive "file=$W/disk.img,format=raw,if=virtio" \
	-append "console=ttyS0 panic=-1 rdinit=/init"
echo "# boot: $(($(date +%s) - t0)) s"
tar -xf "$W/disk.img" -C "$W" 2>/dev/null
O=$W/out
t "the guest ran every case" grep -q "bttest: reached the end" "$W/serial.log"
show() { echo "# --- $1"; sed 's/^/#   /' "$O/$1" 2>/dev/null; }
show a.out
show a.err
show b.out
show b.err
show c.out
show c.err
show c.held

# (a) all accepted
t "(a) good: exit 0" grep -qx 0 "$O/a.rc"
t "(a) good: no refusal" sh -c "! grep -q ': refused: ' '$O/a.out'"
t "(a) good: the summary says all accepted and removed" \
	grep -qE '^try: [1-9][0-9]* accepted, 0 refused, 0 not tried; everything added was removed$' "$O/a.out"
t "(a) good: the kprobe event was accepted at good.bconf:10" \
	grep -q "^good.bconf:10:[0-9]*: accepted: kprobe event 'p:kprobes/trymyprobe vfs_read file=\$arg1'" "$O/a.out"
t "(a) good: the fgraph filter on the top level was accepted" \
	grep -q "^good.bconf:20:[0-9]*: accepted: fgraph filter 'schedule' (/sys/kernel/tracing/set_graph_function)" "$O/a.out"
# The one change the kernel cannot take back (docs/kernel-facts.md 92): the
# first use of tracing since boot expands the top level's buffers, which
# then no longer say "N (expanded: M)" but M; try does that first, as any
# first use does, and says so. Nothing else may differ.
t "(a) good: the first use of tracing since boot is said" grep -q 'note: tracing was not used since boot: the top level.s trace buffer was expanded' "$O/a.err"
t "(a) good: before, the buffers were not expanded yet" grep -q '^/sys/kernel/tracing/buffer_size_kb:[0-9]* (expanded: [0-9]*)$' "$O/l0"
# the top level's buffer sizes, left out of the comparison, checked here:
# expanded to at least the M that "(expanded: M)" promised (page-rounded)
notop() { grep -v '^/sys/kernel/tracing/\(per_cpu/cpu[0-9]*/\)\{0,1\}buffer_\(total_\)\{0,1\}size_kb:' "$1"; }
m=$(sed -n 's|^/sys/kernel/tracing/buffer_size_kb:[0-9]* (expanded: \([0-9]*\))$|\1|p' "$O/l0")
n=$(sed -n 's|^/sys/kernel/tracing/buffer_size_kb:\([0-9]*\)$|\1|p' "$O/l1")
t "(a) good: the top level's buffer is expanded ($m KB promised, $n KB after)" [ "${n:-0}" -ge "${m:-1}" ]
notop "$O/l0" >"$W/l0.top"
notop "$O/l1" >"$W/l1.top"
t "(a) good: tracefs listing identical before and after (but for the buffers' expansion)" cmp "$W/l0.top" "$W/l1.top"
t "(a) the listing is a real one (instances, kprobe_events, options, events)" sh -c "
	grep -q '/current_tracer:nop' '$O/l0' && grep -q '/options/func_stack_trace:0' '$O/l0' &&
	grep -q '/events/sched/sched_switch/enable:0' '$O/l0' && grep -q '^/sys/kernel/tracing/instances:' '$O/l0' &&
	grep -q '/set_graph_function:#### all functions enabled ####' '$O/l0' &&
	[ \$(wc -l <'$O/l0') -gt 5000 ]"
t "(a) good: the tracer option is the top level's again" grep -qx '/sys/kernel/tracing/options/func_stack_trace:0' "$O/l1"
# (b) each refusal with the kernel's words and the config position
t "(b) bad: exit 1" grep -qx 1 "$O/b.rc"
t "(b) bad: the wrong function name at bad.bconf:4, EINVAL" \
	grep -q "^bad.bconf:4:[0-9]*: refused: function filter 'no_such_function_bt' (/sys/kernel/tracing/instances/boottrace-try-[0-9]*/set_ftrace_filter): Invalid argument (EINVAL)$" "$O/b.out"
t "(b) bad: the right function name beside it is not refused" sh -c "! grep -q \"refused: function filter 'vfs_read'\" '$O/b.out'"
t "(b) bad: the wrong event filter at bad.bconf:6, EINVAL" \
	grep -q "^bad.bconf:6:[0-9]*: refused: event filter 'prev_pid == ' (/sys/kernel/tracing/instances/boottrace-try-[0-9]*/events/sched/sched_switch/filter): Invalid argument (EINVAL)$" "$O/b.out"
t "(b) bad: the filter's parse_error" grep -q "^    filter: parse_error: " "$O/b.out"
t "(b) bad: the event filter's error_log entry with its command" sh -c "
	grep -q '^    error_log: \[ *[0-9.]*\] event filter parse error: error: ' '$O/b.out' &&
	grep -q '^    error_log:   Command: prev_pid ==' '$O/b.out'"
t "(b) bad: the kprobe on a missing function at bad.bconf:9 with its error_log entry" sh -c "
	grep -q \"^bad.bconf:9:[0-9]*: refused: kprobe event 'p:kprobes/trybad no_such_function_bt' (/sys/kernel/tracing/kprobe_events): \" '$O/b.out' &&
	grep -q '^    error_log: \[ *[0-9.]*\] trace_kprobe: error: ' '$O/b.out'"
t "(b) bad: the summary counts 3 refused" grep -qE '^try: [0-9]+ accepted, 3 refused, 0 not tried; everything added was removed$' "$O/b.out"
t "(b) bad: tracefs listing identical before and after" cmp "$O/l1" "$O/l2"
# (c) --hold, then SIGINT
t "(c) hold: the state was there while held (instance, kprobe, fgraph filter, tracer)" sh -c "
	grep -q '^boottrace-try-[0-9]*\$' '$O/c.held' && grep -q '^boottrace-try-[0-9]*-other\$' '$O/c.held' &&
	grep -q 'p:kprobes/trymyprobe vfs_read file=' '$O/c.held' && grep -qx schedule '$O/c.held' &&
	grep -qx function '$O/c.held'"
t "(c) hold: SIGINT ends the hold, exit 0" grep -qx 0 "$O/c.rc"
t "(c) hold: the summary says everything was removed" grep -q 'everything added was removed$' "$O/c.out"
t "(c) hold: tracefs listing identical after the SIGINT" cmp "$O/l2" "$O/l3"

# (d) what check --kernel reads from the image itself against what the
# same kernel lists once booted (tests/e2e/imgcmp.sh): available_events
# exactly, available_filter_functions, and available_tracers for compile's
# decisions from the .config and from the image's symbols
img=$KD/root/boot/vmlinuz-$KV
imgcmp_events "(d)" "$img" "$O/events" "$W"
imgcmp_functions "(d)" "$img" "$O/functions" "$W"
imgcmp_tracers "(d)" --kernel-config "$KD/root/boot/config-$KV" "$O/tracers" "$W"
imgcmp_tracers "(d)" --kernel "$img" "$O/tracers" "$W"
finish
