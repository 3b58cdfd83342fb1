#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# /init of the format-capture initramfs (tests/data/traces/README.md)
PATH=/bin:/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs dev /dev 2>/dev/null
mount -t tracefs nodev /sys/kernel/tracing
mount -t tmpfs tmp /tmp
T=/sys/kernel/tracing
dump() { echo "=== file $1 ==="; cat $T/trace; echo "=== end $1 ==="; echo 0 > $T/tracing_on; echo nop > $T/current_tracer; echo > $T/trace; echo > $T/set_ftrace_filter; echo > $T/set_graph_function; echo 1 > $T/tracing_on; }
echo 0 > $T/tracing_on; echo > $T/trace
# 1. function_graph below register_netdevice, depth 3
echo register_netdevice > $T/set_graph_function
echo 3 > $T/max_graph_depth
echo function_graph > $T/current_tracer
echo 1 > $T/tracing_on
insmod /lib/modules/kernel/net/tls/tls.ko 2>/dev/null; insmod /lib/modules/kernel/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
dump function_graph
echo 0 > $T/max_graph_depth
rmmod bonding
# 2. syscall events of insmod
echo 0 > $T/tracing_on
echo 1 > $T/events/syscalls/sys_enter_finit_module/enable
echo 1 > $T/events/syscalls/sys_exit_finit_module/enable
echo 1 > $T/events/syscalls/sys_enter_openat/enable
echo 1 > $T/events/syscalls/sys_exit_openat/enable
echo 1 > $T/tracing_on
insmod /lib/modules/kernel/net/tls/tls.ko 2>/dev/null; insmod /lib/modules/kernel/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
echo 0 > $T/events/enable
dump syscalls
rmmod bonding
# 3. kprobe event with a stacktrace trigger (and one with a filtered trigger)
echo 'p:bt/rnd register_netdevice' > $T/kprobe_events
echo stacktrace > $T/events/bt/rnd/trigger
echo 1 > $T/events/bt/rnd/enable
echo 1 > $T/tracing_on
insmod /lib/modules/kernel/net/tls/tls.ko 2>/dev/null; insmod /lib/modules/kernel/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
echo 0 > $T/events/enable
dump trigger-stack
echo '!stacktrace' > $T/events/bt/rnd/trigger
rmmod bonding
echo 'stacktrace if common_pid > 0' > $T/events/bt/rnd/trigger
echo 1 > $T/events/bt/rnd/enable
echo 1 > $T/tracing_on
insmod /lib/modules/kernel/net/tls/tls.ko 2>/dev/null; insmod /lib/modules/kernel/drivers/net/bonding/bonding.ko
echo 0 > $T/tracing_on
echo 0 > $T/events/enable
dump trigger-stack-filtered
echo '!stacktrace if common_pid > 0' > $T/events/bt/rnd/trigger
rmmod bonding
echo > $T/kprobe_events
# 4. trace-cmd
if [ -x /usr/bin/trace-cmd ]; then
	cd /tmp
	trace-cmd record -q -p function -l register_netdevice -e syscalls:sys_enter_finit_module -o /tmp/t.dat insmod /lib/modules/kernel/drivers/net/bonding/bonding.ko >/dev/null 2>&1
	echo "=== file trace-cmd ==="; trace-cmd report -i /tmp/t.dat 2>&1; echo "=== end trace-cmd ==="
	rmmod bonding
	trace-cmd record -q -p function_graph -g register_netdevice -O funcgraph-proc -o /tmp/g.dat insmod /lib/modules/kernel/drivers/net/bonding/bonding.ko >/dev/null 2>&1
	echo "=== file trace-cmd-graph ==="; trace-cmd report -i /tmp/g.dat 2>&1 | head -80; echo "=== end trace-cmd-graph ==="
fi
echo "=== done ==="
echo o > /proc/sysrq-trigger
poweroff -f
