/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's boot parameters boottrace writes, once: each one's name,
 * the kernel feature (and so version) that brought it, the .config option
 * it needs, whether it is an early_param, what its value looks like, the
 * buffer the kernel copies it into and what a repeat does. Two kinds: the
 * legacy tracing parameters, which a config names and a compiled line
 * owns, and the others that boottrace.crash and boottrace.hang add
 * (compile/route_crash.c). The planner, the routes, the emitters and
 * decompile all read this table and name a parameter by its id, never by
 * a string of their own.
 */
#ifndef BT_PARAMS_H
#define BT_PARAMS_H

#include <stddef.h>

#include "kernel/kcaps.h"

enum kparam {
	KP_FTRACE,
	KP_FTRACE_FILTER,
	KP_FTRACE_NOTRACE,
	KP_TRACE_OPTIONS,
	KP_TRACE_EVENT,
	KP_TRACE_CLOCK,
	KP_TRACE_BUF_SIZE,
	KP_ALLOC_SNAPSHOT,
	KP_FTRACE_GRAPH_FILTER,
	KP_FTRACE_GRAPH_NOTRACE,
	KP_FTRACE_GRAPH_MAX_DEPTH,
	KP_TP_PRINTK,
	KP_TP_PRINTK_STOP_ON_BOOT,
	KP_TRACEOFF_ON_WARNING,
	KP_FTRACE_DUMP_ON_OOPS,
	KP_FTRACE_BOOT_SNAPSHOT,
	KP_KPROBE_EVENT,
	KP_TRACE_TRIGGER,
	KP_TRACE_INSTANCE,
	KP_STACKTRACE,
	KP_STACKTRACE_FILTER,
	KP_BOOTCONFIG,
	/* Names boottime-trace.rst gives that no kernel has a handler for. */
	KP_DEAD_DUMP_ON_OOPS,
	KP_DEAD_FGRAPH_MAX_DEPTH,
	KP_DEAD_FGRAPH_FILTERS,
	KP_DEAD_FGRAPH_NOTRACES,
	/* The crash and hang words (KPU_CRASH): not tracing's, not a config's. */
	KP_CONSOLE,
	KP_PANIC,
	KP_OOPS,
	KP_SOFTLOCKUP_PANIC,
	KP_HUNG_TASK_PANIC,
	KP_SYSCTL_PANIC_ON_RCU_STALL,
	KP_WATCHDOG_THRESH,
	KP_SYSCTL_HUNG_TASK_TIMEOUT,
	KP_RCU_CPU_STALL_TIMEOUT,
	KP_RESERVE_MEM,
	KP_MEMMAP,
	KP_RAMOOPS_MEM_ADDRESS,
	KP_RAMOOPS_MEM_SIZE,
	KP_RAMOOPS_RECORD_SIZE,
	KP_RAMOOPS_CONSOLE_SIZE,
	KP_N
};

/* What the value of a parameter looks like to its kernel handler. */
enum kparam_value {
	KPV_FLAG,	/* bare word; "=0"/"=off" or a mode word may follow */
	KPV_NUMBER,	/* one number (trace_buf_size takes K, M or G) */
	KPV_WORD,	/* one name: a tracer, a clock */
	KPV_LIST,	/* items split at ',' */
	KPV_PROBES,	/* kprobe_event: definitions split at ';', ',' for space */
	KPV_DEAD,	/* no handler: the kernel ignores it */
};

/* What the kernel does with a second occurrence of the parameter. */
enum kparam_repeat {
	KPR_REPLACE,	/* the last one wins (strlcpy, or a plain store) */
	KPR_APPEND,	/* each one adds (trace_instance=: one instance each) */
};

/* Whose words a parameter's are. */
enum kparam_use {
	/*
	 * A tracing parameter: a config may name it (kernel.KEY), a compiled
	 * line owns it, decompile reads it back.
	 */
	KPU_TRACING,
	/* Only written for boottrace.crash or boottrace.hang, as the user's own words. */
	KPU_CRASH,
};

/* The buffer is the kernel's COMMAND_LINE_SIZE (the board's cmdline_max). */
#define KP_BUF_CMDLINE ((size_t)-1)

struct kparam_info {
	const char *name;
	enum kfeat since;		/* the version, in kcaps; KF_BASE: always there */
	enum kparam_value value;
	size_t buf;			/* bytes; 0 = parsed at once, not copied */
	enum kparam_repeat repeat;
	/* The ftrace.* bootconfig key that says the same, or NULL. */
	const char *bconf_key;
	/* KPV_DEAD: the parameter meant; else the id itself. */
	enum kparam real;
	/*
	 * The .config option without which the kernel ignores the word, where
	 * a route checks it (route_crash.c); KO_NOPT: none checked.
	 */
	enum kopt needs;
	/*
	 * An early_param, read before a bootconfig's kernel.* words exist: it
	 * has to stay on the bootloader's line.
	 */
	int early;
	enum kparam_use use;
};

const struct kparam_info *kparam_get(enum kparam id);
const char *kparam_name(enum kparam id);
/*
 * The tracing parameter (KPU_TRACING) whose name is @name ('-' and '_'
 * alike, as the kernel's parameq), or KP_N.
 */
enum kparam kparam_find(const char *name);
/* Same, for the @len bytes at @name (a parameter inside a written word). */
enum kparam kparam_findn(const char *name, size_t len);
/* Any row's id whose name is the @len bytes at @name, whatever its use, or KP_N. */
enum kparam kparam_find_any(const char *name, size_t len);
/*
 * Is @word (as written on a line) a parameter that a compiled line owns:
 * one of this table (ftrace=, ftrace_filter=, …, bootconfig) that a
 * kernel handles, or any boottrace.* word?
 */
int kparam_is_trace_word(const char *word);
/* The buffer of @id in bytes on a kernel whose COMMAND_LINE_SIZE is @cmdline_size. */
size_t kparam_buf(enum kparam id, size_t cmdline_size);

#endif /* BT_PARAMS_H */
