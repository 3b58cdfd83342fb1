/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The boot-time tracing keys (ftrace.* and ftrace.instance.NAME.* of a
 * bootconfig, Documentation/trace/boottime-trace.rst), once: which the
 * global instance and an instance may have, and which ones compile writes
 * from the plan rather than copying from the config. The planner reads
 * this table to know a key, the bootconfig route to know what it copies.
 */
#ifndef BT_FTRACE_KEYS_H
#define BT_FTRACE_KEYS_H

#include <stddef.h>

enum fkey_flag {
	FK_GLOBAL = 1,		/* ftrace.KEY */
	FK_INST = 2,		/* ftrace.instance.NAME.KEY */
	FK_REBUILT = 4,		/* written from the plan (global instance) */
};

/* The first-level keys, by id: a reader of the tree names a key by its id. */
enum fkey {
	FKEY_OPTIONS,
	FKEY_TRACING_ON,
	FKEY_TRACE_CLOCK,
	FKEY_BUFFER_SIZE,
	FKEY_ALLOC_SNAPSHOT,
	FKEY_CPUMASK,
	FKEY_EVENTS,
	FKEY_TRACER,
	FKEY_FTRACE,
	FKEY_EVENT,
	FKEY_INSTANCE,
	FKEY_FGRAPH,
	FKEY_TP_PRINTK,
	FKEY_TP_PRINTK_STOP_ON_BOOT,
	FKEY_DUMP_ON_OOPS,
	FKEY_TRACEOFF_ON_WARNING,
	FKEY_BOOT_SNAPSHOT,
	FKEY_N
};

/* The id of first-level key @name, or FKEY_N. */
enum fkey fkey_find(const char *name);
const char *fkey_name(enum fkey id);
/* The flags of first-level key @name, or 0 when there is no such key. */
unsigned fkey_flags(const char *name);
/*
 * The names having every flag of @need, into @out (NULL-terminated, at
 * most @cap entries with the NULL): candidates for "did you mean".
 */
void fkey_names(unsigned need, const char **out, size_t cap);
/* How many keys the table has (for sizing @out). */
size_t fkey_count(void);

/*
 * The keys under a first-level one: ftrace.ftrace.*, ftrace.fgraph.* and
 * those of one event, ftrace.event.GROUP.EVENT.* (FKEY_EVENT).
 */
enum fsub {
	FSUB_FILTERS,
	FSUB_NOTRACES,
	FSUB_MAX_DEPTH,
	FSUB_ENABLE,
	FSUB_FILTER,
	FSUB_ACTIONS,
	FSUB_HIST,
	FSUB_PROBES,		/* of an event of group kprobes */
	FSUB_FIELDS,		/* of an event of group synthetic */
	FSUB_N
};

/* The id of @name under @parent, or FSUB_N. */
enum fsub fsub_find(enum fkey parent, const char *name);
/* @parent's subkeys, NULL-terminated (for "did you mean"); NULL: it has none. */
const char *const *fsub_names(enum fkey parent);

#endif /* BT_FTRACE_KEYS_H */
