#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# gen30k.sh [BYTES]: print a realistic boot-time tracing bootconfig of about
# BYTES (default 30000, kept within 28-32 KB) to stdout: kernel.* command
# line keys, ftrace.* global settings with filter arrays, per-event
# filters, actions and synthetic events, and many ftrace.instance.N trees
# mixing dotted keys and nested braces. Deterministic (fixed LCG), valid
# for the kernel's tools/bootconfig.
set -eu
bytes=${1:-30000}
case $bytes in '' | *[!0-9]*) echo "gen30k: BYTES must be a number" >&2; exit 2 ;; esac

awk -v target="$bytes" '
function rnd(n) {	# deterministic LCG, [0, n)
	seed = (seed * 1103515245 + 12345) % 2147483648
	return int(seed / 65536) % n
}
function pick(arr, n) { return arr[rnd(n) + 1] }
function out(s) { printf "%s\n", s; size += length(s) + 1 }
function q(s) { return index(s, "\"") ? "\047" s "\047" : "\"" s "\"" }
function ind(d,   s) { s = ""; while (d-- > 0) s = s "\t"; return s }

function event_block(d, grp, ev,   t, k) {
	t = ind(d)
	out(t grp "." ev " {")
	k = rnd(4)
	if (k == 0)
		out(t "\tfilter = " q(pick(filters, nfilters)))
	else if (k == 1)
		out(t "\tfilter = " q(pick(filters, nfilters) " && " pick(filters, nfilters)))
	if (rnd(3) == 0)
		out(t "\tactions = \"" pick(actions, nactions) "\"")
	if (rnd(4) == 0)
		out(t "\tactions += \"" pick(actions, nactions) "\"  # and a second one")
	out(t "\tenable")
	out(t "}")
}

function pick_event(   g) {	# an event not used yet in this instance
	do g = rnd(nevents) + 1; while (g in used)
	used[g] = 1
	return g
}

function instance(i,   j, n, name, grp) {
	split("", used)
	name = pick(inames, ninames) i
	out("")
	out("# per-CPU buffer for " name)
	if (rnd(3) == 0) {	# dotted keys only
		out("ftrace.instance." name ".tracer = " pick(tracers, ntracers))
		out("ftrace.instance." name ".buffer_size = " (rnd(16) + 1) * 64 "KB")
		out("ftrace.instance." name ".cpumask = " rnd(255) + 1)
		n = rnd(4) + 1
		for (j = 0; j < n; j++) {
			grp = pick_event()
			out("ftrace.instance." name ".event." egroup[grp] "." ename[grp] \
			    ".filter = " q(pick(filters, nfilters)))
			out("ftrace.instance." name ".event." egroup[grp] "." ename[grp] ".enable")
		}
		return
	}
	out("ftrace.instance." name " {")
	out("\ttracer = " pick(tracers, ntracers))
	out("\tbuffer_size = " (rnd(16) + 1) * 64 "KB")
	if (rnd(2))
		out("\ttrace_clock = " pick(clocks, nclocks))
	if (rnd(2))
		out("\toptions = " pick(opts, nopts) ", " pick(opts, nopts))
	if (rnd(2)) {
		out("\tftrace.filters = \"" pick(funcs, nfuncs) "\",")
		out("\t\t\"" pick(funcs, nfuncs) "\",  # hot paths")
		out("\t\t\"" pick(funcs, nfuncs) "\"")
		out("\tftrace.notraces = \"" pick(funcs, nfuncs) "\"")
	}
	out("\tevent {")
	n = rnd(5) + 2
	for (j = 0; j < n; j++) {
		grp = pick_event()
		event_block(2, egroup[grp], ename[grp])
	}
	out("\t}")
	out("}")
}

BEGIN {
	seed = 20240617
	size = 0
	nevents = split("sched.sched_switch sched.sched_wakeup sched.sched_process_exec " \
		"sched.sched_process_fork irq.irq_handler_entry irq.irq_handler_exit " \
		"irq.softirq_entry block.block_rq_issue block.block_rq_complete " \
		"syscalls.sys_enter_openat syscalls.sys_exit_openat kmem.kmalloc kmem.kfree " \
		"kmem.mm_page_alloc timer.hrtimer_start timer.hrtimer_expire_entry " \
		"workqueue.workqueue_execute_start workqueue.workqueue_execute_end " \
		"signal.signal_deliver net.netif_receive_skb net.net_dev_xmit " \
		"writeback.writeback_start ext4.ext4_da_write_begin power.cpu_idle " \
		"power.cpu_frequency task.task_newtask task.task_rename " \
		"module.module_load initcall.initcall_start initcall.initcall_finish " \
		"rcu.rcu_utilization printk.console", ev, " ")
	for (i = 1; i <= nevents; i++) {
		split(ev[i], pr, ".")
		egroup[i] = pr[1]
		ename[i] = pr[2]
	}
	nfilters = split("pid < 128|common_pid != 0|prev_pid == 1|next_comm ~ \"systemd*\"|" \
		"bytes_req > 4096|irq == 16|cpu == 0|comm == \"kworker/0:1\"|" \
		"dfd == -100 && flags & 1|ret < 0|sig == 9|len >= 1500|" \
		"order > 2|call_site.function == \"kmalloc_trace\"", filters, "|")
	nactions = split("hist:keys=common_pid.execname:vals=hitcount|" \
		"hist:keys=func.sym:vals=hitcount:sort=hitcount.descending|" \
		"snapshot()|traceon|traceoff|stacktrace|" \
		"hist:keys=next_pid:ts0=common_timestamp.usecs|" \
		"hist:keys=prev_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_wakeup).trace(wakeup_lat,$lat)", \
		actions, "|")
	ntracers = split("function function_graph nop wakeup wakeup_rt irqsoff", tracers, " ")
	nclocks = split("local global mono mono_raw boot x86-tsc", clocks, " ")
	nopts = split("sym-addr nosym-offset stacktrace noirq-info latency-format " \
		"funcgraph-proc funcgraph-abstime print-parent", opts, " ")
	nfuncs = split("vfs_* do_sys_open* __x64_sys_* kmem_cache_* tcp_* ip_rcv* " \
		"ext4_* blk_mq_* schedule* try_to_wake_up* *_init initcall_* " \
		"kthread* rcu_* printk* mutex_lock*", funcs, " ")
	ninames = split("boot cpu irq io mem net sched init wq blk", inames, " ")

	out("# Boot-time tracing configuration: generated by tests/bench/gen30k.sh")
	out("")
	out("kernel {")
	out("\ttrace_options = sym-addr, stacktrace")
	out("\ttrace_event = \"initcall:*\", \"sched:sched_process_exec\"")
	out("\ttrace_buf_size = 1M")
	out("\tftrace = function_graph")
	out("\tftrace_filter = \"vfs*\", \"ext4_*\"")
	out("\tftrace_notrace = \"rcu_*\"")
	out("\ttp_printk")
	out("\tconsole = ttyS0,115200")
	out("\tloglevel = 7")
	out("}")
	out("kernel.init.systemd.log_level = debug")
	out("kernel.root = \"/dev/vda1\"")
	out("")
	out("ftrace {")
	out("\ttracer = function")
	out("\toptions = sym-addr, funcgraph-proc")
	out("\tbuffer_size = 4MB")
	out("\tcpumask = 0xff")
	out("\tfilters = \"vfs_read\", \"vfs_write\",")
	out("\t\t# file systems")
	out("\t\t\"ext4_file_*\", \"btrfs_*\"")
	out("\tnotraces = \"*spin_lock*\", \"*rcu*\"")
	out("\tevent {")
	out("\t\tsynthetic.initcall_latency {")
	out("\t\t\tfields = \"unsigned long func\", \"u64 lat\"")
	out("\t\t\tactions = \"hist:keys=func.sym,lat:vals=lat:sort=lat\"")
	out("\t\t}")
	out("\t\tinitcall.initcall_start.actions = \"hist:keys=func:ts0=common_timestamp.usecs\"")
	out("\t\tinitcall.initcall_finish.actions = \"hist:keys=func:lat=common_timestamp.usecs-$ts0:onmatch(initcall.initcall_start).initcall_latency(func,$lat)\"")
	out("\t\tkprobes.vfs_read.probes = \"vfs_read $arg1 $arg2\", \"vfs_read%return $retval\"")
	out("\t\tkprobes.vfs_read.filter = \"common_pid < 200\"")
	out("\t\tkprobes.vfs_read.enable")
	out("\t}")
	out("}")
	for (i = 0; size < target - 700; i++)
		instance(i)
	out("")
	out("# switch everything on at the end of boot")
	out("ftrace.alloc_snapshot")
	out("ftrace.tracing_on = 1")
	while (size < target - 20)
		out("# padding to the benchmark size .................................")
}'
