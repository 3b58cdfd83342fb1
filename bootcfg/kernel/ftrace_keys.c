/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boot-time tracing keys (ftrace_keys.h). */
#include <string.h>

#include "kernel/ftrace_keys.h"

#define G FK_GLOBAL
#define I FK_INST
#define R FK_REBUILT

static const struct {
	const char *name;
	unsigned flags;
} fkeys[FKEY_N] = {
	[FKEY_OPTIONS] = { "options", G | I | R },
	[FKEY_TRACING_ON] = { "tracing_on", G | I },
	[FKEY_TRACE_CLOCK] = { "trace_clock", G | I | R },
	[FKEY_BUFFER_SIZE] = { "buffer_size", G | I | R },
	[FKEY_ALLOC_SNAPSHOT] = { "alloc_snapshot", G | I | R },
	[FKEY_CPUMASK] = { "cpumask", G | I },
	[FKEY_EVENTS] = { "events", G | I | R },
	[FKEY_TRACER] = { "tracer", G | I | R },
	[FKEY_FTRACE] = { "ftrace", G | I | R },
	[FKEY_EVENT] = { "event", G | I },
	[FKEY_INSTANCE] = { "instance", G },
	[FKEY_FGRAPH] = { "fgraph", G | R },
	[FKEY_TP_PRINTK] = { "tp_printk", G | R },
	[FKEY_TP_PRINTK_STOP_ON_BOOT] = { "tp_printk_stop_on_boot", G | R },
	[FKEY_DUMP_ON_OOPS] = { "dump_on_oops", G | R },
	[FKEY_TRACEOFF_ON_WARNING] = { "traceoff_on_warning", G | R },
	[FKEY_BOOT_SNAPSHOT] = { "boot_snapshot", G | R },
};

enum fkey fkey_find(const char *name)
{
	size_t i;

	for (i = 0; i < FKEY_N; i++)
		if (!strcmp(fkeys[i].name, name))
			return (enum fkey)i;
	return FKEY_N;
}

const char *fkey_name(enum fkey id)
{
	return fkeys[id].name;
}

unsigned fkey_flags(const char *name)
{
	enum fkey id = fkey_find(name);

	return id == FKEY_N ? 0 : fkeys[id].flags;
}

void fkey_names(unsigned need, const char **out, size_t cap)
{
	size_t i, n = 0;

	for (i = 0; i < FKEY_N && n + 1 < cap; i++)
		if ((fkeys[i].flags & need) == need)
			out[n++] = fkeys[i].name;
	if (cap)
		out[n] = NULL;
}

size_t fkey_count(void)
{
	return FKEY_N;
}

/* Each parent's subkeys in id order, as "did you mean" offers them. */
static const char *const fsub_ftrace[] = { "filters", "notraces", NULL };
static const char *const fsub_fgraph[] = { "filters", "notraces", "max_depth", NULL };
static const char *const fsub_event[] = {
	"enable", "filter", "actions", "hist", "probes", "fields", NULL,
};

const char *const *fsub_names(enum fkey parent)
{
	switch (parent) {
	case FKEY_FTRACE:
		return fsub_ftrace;
	case FKEY_FGRAPH:
		return fsub_fgraph;
	case FKEY_EVENT:
		return fsub_event;
	default:
		return NULL;
	}
}

enum fsub fsub_find(enum fkey parent, const char *name)
{
	const char *const *n = fsub_names(parent);
	/* where each list's first name sits among the ids */
	enum fsub first = parent == FKEY_EVENT ? FSUB_ENABLE : FSUB_FILTERS;
	size_t i;

	for (i = 0; n && n[i]; i++)
		if (!strcmp(n[i], name))
			return (enum fsub)(first + i);
	return FSUB_N;
}
