#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the capture initramfs (tests/data/traces/README.md).
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sysfs /sys
/bin/busybox mount -t devtmpfs dev /dev 2>/dev/null
/bin/busybox mount -t tracefs nodev /sys/kernel/tracing
T=/sys/kernel/tracing
K=$(uname -r)
for w in $(/bin/busybox cat /proc/cmdline); do
	case $w in bt_arm=*) for f in $(echo ${w#bt_arm=} | /bin/busybox tr , ' '); do echo "$f" >> $T/set_ftrace_filter; done ;; esac
done
/bin/busybox insmod /lib/modules/$K/kernel/net/tls/tls.ko
/bin/busybox insmod /lib/modules/$K/kernel/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
for f in current_tracer set_ftrace_filter trace_options buffer_size_kb per_cpu/cpu0/stats per_cpu/cpu1/stats trace; do
	echo "=== file $f ==="
	/bin/busybox cat $T/$f
done
echo "=== file kallsyms-grep ==="
/bin/busybox grep -E 'ftrace_trampoline|\[bonding\]' /proc/kallsyms | /bin/busybox grep -E ' (t|T) (ftrace_trampoline|bonding_init|bond_create)'
echo "=== file modules ==="
/bin/busybox cat /proc/modules
echo "=== file cmdline ==="
/bin/busybox cat /proc/cmdline
echo "=== done ==="
echo o > /proc/sysrq-trigger
/bin/busybox poweroff -f
