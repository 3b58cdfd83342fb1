// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A snapshot's other files (the tracer, its options, the buffer's stats,
 * dmesg, kallsyms...): which of them the report keeps and what it reads in
 * them, whether they come from a snapshot directory (report_input.c) or
 * from a console log (report_console.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/input/input.h"

void rp_snap_free(struct rp_snap *s)
{
	free(s->tracer);
	free(s->filter);
	free(s->options);
	free(s->cmdline);
	free(s->tracing_on);
	free(s->release);
	free(s->buffer_kb);
	free(s->kallsyms);
	free(s->modules);
	free(s->meta);
	free(s->trace);
	free(s->dir);
	free(s->head);
	if (s->prev) {
		rp_prev_free(s->prev);
		free(s->prev);
	}
	rp_dump_free(s->dump);
	rp_pstore_free(s->pstore);
	if (s->stream && s->stream_fd > 0)
		close(s->stream_fd);
	memset(s, 0, sizeof(*s));
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* "overrun: 3" and "dropped events: 0" lines of per_cpu/cpuN/stats. */
static void add_stats(struct rp_snap *s, const char *text)
{
	const char *p;
	unsigned long long v;

	s->have_stats = 1;
	if ((p = strstr(text, "\noverrun: ")) && sscanf(p + 10, "%llu", &v) == 1)
		s->overrun += v;
	else if (!strncmp(text, "overrun: ", 9) && sscanf(text + 9, "%llu", &v) == 1)
		s->overrun += v;
	if ((p = strstr(text, "dropped events: ")) &&
	    sscanf(p + 16, "%llu", &v) == 1)
		s->dropped += v;
}

/*
 * late_trace_init() printed that it switched the clock, which resets the
 * buffer (kernel/trace/trace.c): keep the printk time of that line.
 */
static void find_clock_reset(struct rp_snap *s, const char *dmesg)
{
	static const char msg[] = "Unstable clock detected, switching default tracing clock";
	const char *p = strstr(dmesg, msg), *line, *open, *close;

	if (!p)
		return;
	for (line = p; line > dmesg && line[-1] != '\n'; line--)
		;
	open = memchr(line, '[', (size_t)(p - line));
	close = open ? memchr(open, ']', (size_t)(p - open)) : NULL;
	if (!close) {
		snprintf(s->clock_reset, sizeof(s->clock_reset), "?");
		return;
	}
	for (open++; *open == ' '; open++)
		;
	snprintf(s->clock_reset, sizeof(s->clock_reset), "%.*s",
		 (int)(close - open), open);
}

void rp_snap_keep(struct rp_snap *s, const char *rel, char *text)
{
	char **slot = NULL;
	int small = 1;

	if (!strcmp(rel, "tracer"))
		slot = &s->tracer;
	else if (!strcmp(rel, "set_ftrace_filter"))
		slot = &s->filter;
	else if (!strcmp(rel, "trace_options"))
		slot = &s->options;
	else if (!strcmp(rel, "cmdline"))
		slot = &s->cmdline;
	else if (!strcmp(rel, "tracing_on"))
		slot = &s->tracing_on;
	else if (!strcmp(rel, "release"))
		slot = &s->release;
	else if (!strcmp(rel, "buffer_size_kb"))
		slot = &s->buffer_kb;
	else if (!strcmp(rel, "modules"))
		slot = &s->modules, small = 0;
	else if (!strcmp(rel, "meta"))
		slot = &s->meta, small = 0;
	else if (!strcmp(rel, "kallsyms") || !strcmp(rel, "raw/kallsyms") ||
		 !strcmp(rel, "kallsyms-head"))
		slot = &s->kallsyms, small = 0;
	else if (!strcmp(rel, "COMPLETE"))
		s->complete = 1;
	else if (!strncmp(rel, "per_cpu/cpu", 11) && strstr(rel, "/stats"))
		add_stats(s, text);
	else if (!strcmp(rel, "dmesg"))
		find_clock_reset(s, text);
	if (slot && !*slot) {
		if (small)
			trim(text);
		*slot = text;
		return;
	}
	free(text);
}

int rp_snap_meta_next(const struct rp_snap *s, const char **at,
		      const char **text, int *len)
{
	const char *p = *at ? *at : s ? s->meta : NULL, *end;
	int kind;
	size_t wl;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		if (!strncmp(p, "error=", 6))
			kind = RP_META_ERROR, wl = 6;
		else if (!strncmp(p, "warning=", 8))
			kind = RP_META_WARNING, wl = 8;
		else
			continue;
		*text = p + wl;
		*len = (int)(end - p - (int)wl);
		*at = *end ? end + 1 : end;
		return kind;
	}
	return 0;
}

int rp_snap_meta_value(const struct rp_snap *s, const char *key, char *out,
		       size_t cap)
{
	const char *p = s ? s->meta : NULL, *end, *found = NULL;
	size_t klen = strlen(key), n = 0;

	for (; p && *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, "\n");
		if (!strncmp(p, key, klen) && p[klen] == '=') {
			found = p + klen + 1;
			n = (size_t)(end - found);
		}
	}
	if (!found || !cap)
		return 0;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, found, n);
	out[n] = 0;
	return 1;
}
