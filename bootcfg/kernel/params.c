/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The legacy tracing parameters (params.h), as read in linux-source-6.1
 * (docs/kernel-facts.md 6, 7 and 13): ftrace=, trace_options= and
 * trace_clock= are copied into 100-byte buffers, the filter lists,
 * trace_event=, kprobe_event= and stacktrace_filter= into ones of
 * COMMAND_LINE_SIZE; the flags and numbers are parsed at once. Every copy
 * takes the whole value, so a repeat replaces. Of the later ones,
 * trace_trigger= (6.2) is copied the same way, while trace_instance= (6.3)
 * appends each occurrence: one instance per word.
 */
#include <string.h>

#include "kernel/params.h"
#include "kernel/words.h"

#define MAX_TRACER_SIZE 100	/* the kernel's name for it */

static const struct kparam_info kparams[KP_N] = {
	[KP_FTRACE] = { "ftrace", KF_BASE, KPV_WORD, MAX_TRACER_SIZE,
			KPR_REPLACE, "ftrace.tracer", KP_FTRACE, KO_NOPT, 0, KPU_TRACING },
	[KP_FTRACE_FILTER] = { "ftrace_filter", KF_BASE, KPV_LIST, KP_BUF_CMDLINE,
			       KPR_REPLACE, "ftrace.ftrace.filters", KP_FTRACE_FILTER, KO_NOPT, 0, KPU_TRACING },
	[KP_FTRACE_NOTRACE] = { "ftrace_notrace", KF_BASE, KPV_LIST, KP_BUF_CMDLINE,
				KPR_REPLACE, "ftrace.ftrace.notraces", KP_FTRACE_NOTRACE, KO_NOPT, 0, KPU_TRACING },
	[KP_TRACE_OPTIONS] = { "trace_options", KF_TRACE_OPTIONS, KPV_LIST, MAX_TRACER_SIZE,
			       KPR_REPLACE, "ftrace.options", KP_TRACE_OPTIONS, KO_NOPT, 0, KPU_TRACING },
	[KP_TRACE_EVENT] = { "trace_event", KF_TRACE_EVENT, KPV_LIST, KP_BUF_CMDLINE,
			     KPR_REPLACE, "ftrace.events", KP_TRACE_EVENT, KO_NOPT, 0, KPU_TRACING },
	[KP_TRACE_CLOCK] = { "trace_clock", KF_BASE, KPV_WORD, MAX_TRACER_SIZE,
			     KPR_REPLACE, "ftrace.trace_clock", KP_TRACE_CLOCK, KO_NOPT, 0, KPU_TRACING },
	[KP_TRACE_BUF_SIZE] = { "trace_buf_size", KF_BASE, KPV_NUMBER, 0,
				KPR_REPLACE, "ftrace.buffer_size", KP_TRACE_BUF_SIZE, KO_NOPT, 0, KPU_TRACING },
	[KP_ALLOC_SNAPSHOT] = { "alloc_snapshot", KF_BASE, KPV_FLAG, 0,
				KPR_REPLACE, "ftrace.alloc_snapshot", KP_ALLOC_SNAPSHOT, KO_NOPT, 0, KPU_TRACING },
	[KP_FTRACE_GRAPH_FILTER] = { "ftrace_graph_filter", KF_BASE, KPV_LIST,
				     KP_BUF_CMDLINE, KPR_REPLACE,
				     "ftrace.fgraph.filters", KP_FTRACE_GRAPH_FILTER, KO_NOPT, 0, KPU_TRACING },
	[KP_FTRACE_GRAPH_NOTRACE] = { "ftrace_graph_notrace", KF_BASE, KPV_LIST,
				      KP_BUF_CMDLINE, KPR_REPLACE,
				      "ftrace.fgraph.notraces", KP_FTRACE_GRAPH_NOTRACE, KO_NOPT, 0, KPU_TRACING },
	[KP_FTRACE_GRAPH_MAX_DEPTH] = { "ftrace_graph_max_depth", KF_FGRAPH_MAX_DEPTH,
					KPV_NUMBER, 0, KPR_REPLACE,
					"ftrace.fgraph.max_depth",
					KP_FTRACE_GRAPH_MAX_DEPTH, KO_NOPT, 0, KPU_TRACING },
	[KP_TP_PRINTK] = { "tp_printk", KF_TP_PRINTK, KPV_FLAG, 0, KPR_REPLACE,
			   "ftrace.tp_printk", KP_TP_PRINTK, KO_NOPT, 0, KPU_TRACING },
	[KP_TP_PRINTK_STOP_ON_BOOT] = { "tp_printk_stop_on_boot", KF_TP_PRINTK_STOP,
					KPV_FLAG, 0, KPR_REPLACE,
					"ftrace.tp_printk_stop_on_boot",
					KP_TP_PRINTK_STOP_ON_BOOT, KO_NOPT, 0, KPU_TRACING },
	[KP_TRACEOFF_ON_WARNING] = { "traceoff_on_warning", KF_BASE, KPV_FLAG, 0,
				     KPR_REPLACE, "ftrace.traceoff_on_warning",
				     KP_TRACEOFF_ON_WARNING, KO_NOPT, 0, KPU_TRACING },
	/* A flag, or =orig_cpu (=2 too in 6.1): dump only the CPU that oopsed. */
	[KP_FTRACE_DUMP_ON_OOPS] = { "ftrace_dump_on_oops", KF_BASE, KPV_FLAG, 0,
				     KPR_REPLACE, "ftrace.dump_on_oops",
				     KP_FTRACE_DUMP_ON_OOPS, KO_NOPT, 0, KPU_TRACING },
	[KP_FTRACE_BOOT_SNAPSHOT] = { "ftrace_boot_snapshot", KF_BOOT_SNAPSHOT,
				      KPV_FLAG, 0, KPR_REPLACE,
				      "ftrace.boot_snapshot", KP_FTRACE_BOOT_SNAPSHOT, KO_NOPT, 0, KPU_TRACING },
	[KP_KPROBE_EVENT] = { "kprobe_event", KF_KPROBE_EVENT, KPV_PROBES,
			      KP_BUF_CMDLINE, KPR_REPLACE, NULL, KP_KPROBE_EVENT, KO_NOPT, 0, KPU_TRACING },
	[KP_TRACE_TRIGGER] = { "trace_trigger", KF_TRACE_TRIGGER, KPV_LIST,
			       KP_BUF_CMDLINE, KPR_REPLACE, NULL, KP_TRACE_TRIGGER, KO_NOPT, 0, KPU_TRACING },
	[KP_TRACE_INSTANCE] = { "trace_instance", KF_TRACE_INSTANCE, KPV_LIST,
				KP_BUF_CMDLINE, KPR_APPEND, NULL, KP_TRACE_INSTANCE, KO_FTRACE, 0, KPU_TRACING },
	[KP_STACKTRACE] = { "stacktrace", KF_BASE, KPV_FLAG, 0, KPR_REPLACE, NULL,
			    KP_STACKTRACE, KO_NOPT, 0, KPU_TRACING },
	/* strncpy of COMMAND_LINE_SIZE bytes into COMMAND_LINE_SIZE + 1. */
	[KP_STACKTRACE_FILTER] = { "stacktrace_filter", KF_BASE, KPV_LIST,
				   KP_BUF_CMDLINE, KPR_REPLACE, NULL,
				   KP_STACKTRACE_FILTER, KO_NOPT, 0, KPU_TRACING },
	/* Not a tracer's: it makes the kernel apply the initrd's bootconfig. */
	[KP_BOOTCONFIG] = { "bootconfig", KF_BOOTCONFIG, KPV_FLAG, 0, KPR_REPLACE,
			    NULL, KP_BOOTCONFIG, KO_NOPT, 0, KPU_TRACING },
	[KP_DEAD_DUMP_ON_OOPS] = { "dump_on_oops", KF_BASE, KPV_DEAD, 0,
				   KPR_REPLACE, NULL, KP_FTRACE_DUMP_ON_OOPS, KO_NOPT, 0, KPU_TRACING },
	[KP_DEAD_FGRAPH_MAX_DEPTH] = { "fgraph_max_depth", KF_BASE, KPV_DEAD, 0,
				       KPR_REPLACE, NULL, KP_FTRACE_GRAPH_MAX_DEPTH, KO_NOPT, 0, KPU_TRACING },
	[KP_DEAD_FGRAPH_FILTERS] = { "fgraph_filters", KF_BASE, KPV_DEAD, 0,
				     KPR_REPLACE, NULL, KP_FTRACE_GRAPH_FILTER, KO_NOPT, 0, KPU_TRACING },
	[KP_DEAD_FGRAPH_NOTRACES] = { "fgraph_notraces", KF_BASE, KPV_DEAD, 0,
				      KPR_REPLACE, NULL, KP_FTRACE_GRAPH_NOTRACE, KO_NOPT, 0, KPU_TRACING },
	/*
	 * The words of boottrace.crash and boottrace.hang (docs/kernel-facts.md
	 * 37 onwards). A console, a reserve_mem= and a memmap= each add one.
	 */
	[KP_CONSOLE] = { "console", KF_BASE, KPV_WORD, 0, KPR_APPEND, NULL,
			 KP_CONSOLE, KO_NOPT, 0, KPU_CRASH },
	[KP_PANIC] = { "panic", KF_BASE, KPV_NUMBER, 0, KPR_REPLACE, NULL,
		       KP_PANIC, KO_NOPT, 0, KPU_CRASH },
	/* an early_param (kernel/panic.c) */
	[KP_OOPS] = { "oops", KF_BASE, KPV_WORD, 0, KPR_REPLACE, NULL,
		      KP_OOPS, KO_NOPT, 1, KPU_CRASH },
	[KP_SOFTLOCKUP_PANIC] = { "softlockup_panic", KF_BASE, KPV_NUMBER, 0,
				  KPR_REPLACE, NULL, KP_SOFTLOCKUP_PANIC,
				  KO_SOFTLOCKUP_DETECTOR, 0, KPU_CRASH },
	/* an alias of the sysctl, set after the initcalls */
	[KP_HUNG_TASK_PANIC] = { "hung_task_panic", KF_BASE, KPV_NUMBER, 0,
				 KPR_REPLACE, NULL, KP_HUNG_TASK_PANIC,
				 KO_DETECT_HUNG_TASK, 0, KPU_CRASH },
	[KP_SYSCTL_PANIC_ON_RCU_STALL] = { "sysctl.kernel.panic_on_rcu_stall",
					   KF_SYSCTL_CMDLINE, KPV_NUMBER, 0,
					   KPR_REPLACE, NULL,
					   KP_SYSCTL_PANIC_ON_RCU_STALL,
					   KO_RCU_STALL_COMMON, 0, KPU_CRASH },
	[KP_WATCHDOG_THRESH] = { "watchdog_thresh", KF_BASE, KPV_NUMBER, 0,
				 KPR_REPLACE, NULL, KP_WATCHDOG_THRESH,
				 KO_SOFTLOCKUP_DETECTOR, 0, KPU_CRASH },
	[KP_SYSCTL_HUNG_TASK_TIMEOUT] = { "sysctl.kernel.hung_task_timeout_secs",
					  KF_SYSCTL_CMDLINE, KPV_NUMBER, 0,
					  KPR_REPLACE, NULL,
					  KP_SYSCTL_HUNG_TASK_TIMEOUT,
					  KO_DETECT_HUNG_TASK, 0, KPU_CRASH },
	[KP_RCU_CPU_STALL_TIMEOUT] = { "rcupdate.rcu_cpu_stall_timeout", KF_BASE,
				       KPV_NUMBER, 0, KPR_REPLACE, NULL,
				       KP_RCU_CPU_STALL_TIMEOUT,
				       KO_RCU_STALL_COMMON, 0, KPU_CRASH },
	/* an early_param: SIZE:ALIGN:LABEL */
	[KP_RESERVE_MEM] = { "reserve_mem", KF_RESERVE_MEM, KPV_WORD, 0,
			     KPR_APPEND, NULL, KP_RESERVE_MEM, KO_NOPT, 1,
			     KPU_CRASH },
	/* an early_param, read by x86 kernels only: SIZE$ADDR */
	[KP_MEMMAP] = { "memmap", KF_BASE, KPV_WORD, 0, KPR_APPEND, NULL,
			KP_MEMMAP, KO_NOPT, 1, KPU_CRASH },
	[KP_RAMOOPS_MEM_ADDRESS] = { "ramoops.mem_address", KF_BASE, KPV_NUMBER, 0,
				     KPR_REPLACE, NULL, KP_RAMOOPS_MEM_ADDRESS,
				     KO_PSTORE_RAM, 0, KPU_CRASH },
	[KP_RAMOOPS_MEM_SIZE] = { "ramoops.mem_size", KF_BASE, KPV_NUMBER, 0,
				  KPR_REPLACE, NULL, KP_RAMOOPS_MEM_SIZE,
				  KO_PSTORE_RAM, 0, KPU_CRASH },
	[KP_RAMOOPS_RECORD_SIZE] = { "ramoops.record_size", KF_BASE, KPV_NUMBER, 0,
				     KPR_REPLACE, NULL, KP_RAMOOPS_RECORD_SIZE,
				     KO_PSTORE_RAM, 0, KPU_CRASH },
	[KP_RAMOOPS_CONSOLE_SIZE] = { "ramoops.console_size", KF_BASE, KPV_NUMBER,
				      0, KPR_REPLACE, NULL,
				      KP_RAMOOPS_CONSOLE_SIZE, KO_PSTORE_CONSOLE,
				      0, KPU_CRASH },
};

const struct kparam_info *kparam_get(enum kparam id)
{
	return &kparams[id];
}

const char *kparam_name(enum kparam id)
{
	return kparams[id].name;
}

enum kparam kparam_find_any(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < KP_N; i++)
		if (strlen(kparams[i].name) == len &&
		    words_parameq(name, kparams[i].name, len))
			return (enum kparam)i;
	return KP_N;
}

/*
 * The crash words are the user's own to everything else: a config's
 * kernel.panic stays a word of its own, a base line's panic= is not
 * replaced by a compiled line, decompile leaves it as it is.
 */
enum kparam kparam_findn(const char *name, size_t len)
{
	enum kparam id = kparam_find_any(name, len);

	return id != KP_N && kparams[id].use == KPU_TRACING ? id : KP_N;
}

enum kparam kparam_find(const char *name)
{
	return kparam_findn(name, strlen(name));
}

size_t kparam_buf(enum kparam id, size_t cmdline_size)
{
	return kparams[id].buf == KP_BUF_CMDLINE ? cmdline_size : kparams[id].buf;
}

int kparam_is_trace_word(const char *word)
{
	const char *s = word + (word[0] == '"');
	enum kparam id;

	if (!strncmp(s, "boottrace.", 10))
		return 1;
	id = kparam_findn(s, words_param_len(word));
	return id != KP_N && kparam_get(id)->value != KPV_DEAD;
}
