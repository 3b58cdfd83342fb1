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
} fkeys[] = {
	{ "options", G | I | R },
	{ "tracing_on", G | I },
	{ "trace_clock", G | I | R },
	{ "buffer_size", G | I | R },
	{ "alloc_snapshot", G | I | R },
	{ "cpumask", G | I },
	{ "events", G | I | R },
	{ "tracer", G | I | R },
	{ "ftrace", G | I | R },
	{ "event", G | I },
	{ "instance", G },
	{ "fgraph", G | R },
	{ "tp_printk", G | R },
	{ "tp_printk_stop_on_boot", G | R },
	{ "dump_on_oops", G | R },
	{ "traceoff_on_warning", G | R },
	{ "boot_snapshot", G | R },
};

unsigned fkey_flags(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(fkeys) / sizeof(fkeys[0]); i++)
		if (!strcmp(fkeys[i].name, name))
			return fkeys[i].flags;
	return 0;
}

void fkey_names(unsigned need, const char **out, size_t cap)
{
	size_t i, n = 0;

	for (i = 0; i < sizeof(fkeys) / sizeof(fkeys[0]) && n + 1 < cap; i++)
		if ((fkeys[i].flags & need) == need)
			out[n++] = fkeys[i].name;
	if (cap)
		out[n] = NULL;
}

size_t fkey_count(void)
{
	return sizeof(fkeys) / sizeof(fkeys[0]);
}
