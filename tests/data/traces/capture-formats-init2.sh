#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the second format-capture initramfs (tests/data/traces/README.md)
PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing
T=/sys/kernel/tracing
M=/lib/modules/kernel
dump() { echo "=== file $1 ==="; cat $T/trace; echo "=== end $1 ==="; echo 0 > $T/tracing_on; echo nop > $T/current_tracer; echo > $T/trace; echo > $T/set_graph_function; }
echo 0 > $T/tracing_on; echo > $T/trace
# 1. function_graph with funcgraph-abstime and funcgraph-proc
echo register_netdevice > $T/set_graph_function
echo 2 > $T/max_graph_depth
echo function_graph > $T/current_tracer
echo funcgraph-abstime > $T/trace_options
echo funcgraph-proc > $T/trace_options
echo 1 > $T/tracing_on
insmod $M/net/tls/tls.ko 2>/dev/null; insmod $M/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
dump function_graph-abstime-proc
echo nofuncgraph-abstime > $T/trace_options
echo nofuncgraph-proc > $T/trace_options
echo 0 > $T/max_graph_depth
rmmod bonding
# 2. a tracepoint with a stacktrace trigger (module_load), unfiltered
echo stacktrace > $T/events/module/module_load/trigger
echo 1 > $T/events/module/module_load/enable
echo 1 > $T/tracing_on
insmod $M/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
echo 0 > $T/events/enable
dump tracepoint-trigger-stack
echo '!stacktrace' > $T/events/module/module_load/trigger
rmmod bonding
echo "=== done ==="
echo o > /proc/sysrq-trigger
poweroff -f
