#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the third format-capture initramfs (tests/data/traces/README.md):
# stacktrace triggers on events that are not enabled (soft-disabled)
PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing
T=/sys/kernel/tracing
M=/lib/modules/kernel
echo 0 > $T/tracing_on; echo > $T/trace
echo 'p:bt/rnd register_netdevice' > $T/kprobe_events
echo stacktrace > $T/events/bt/rnd/trigger
echo stacktrace > $T/events/module/module_load/trigger
echo 1 > $T/tracing_on
insmod $M/net/tls/tls.ko 2>/dev/null; insmod $M/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
echo "=== file soft-disabled-trigger ==="; cat $T/trace; echo "=== end soft-disabled-trigger ==="
echo "=== done ==="
echo o > /proc/sysrq-trigger
poweroff -f
