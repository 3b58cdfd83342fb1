// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What report says of an ftrace dump (report_dump.c), in text and in JSON
 * (docs/report-schema.md, "dump"): the panic and the oops, the initcall
 * that never finished, the task and the last events on each CPU, and
 * what the capture is missing. Short: the full report follows it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/json.h"
#include "report/input/input.h"

static void ts(uint64_t t, FILE *f)
{
	char b[RP_TS_LEN];

	fprintf(f, "%s s", rp_ts_text(t, 0, b));
}

static unsigned cpus_seen(const struct rp_dump *d)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < d->ncpu; i++)
		n += d->cpu[i].seen || d->cpu[i].lost || d->cpu[i].lost_uncounted;
	return n;
}

/* What the capture lacks, one line each: never a guess in its place. */
static void missing(const struct rp_dump *d, FILE *f)
{
	size_t i;

	if (d->start_cut)
		fputs("  MISSING: the dump's start: the log kept begins inside it (the kernel's log buffer, log_buf_len, is smaller than the dump and its oldest lines were overwritten before pstore kept them); the oldest events, the \"Dumping ftrace buffer:\" line and what came before it (the panic or oops message, its call trace) are lost\n", f);
	if (d->truncated)
		fprintf(f, "  MISSING: the dump is truncated: the log ends after %" PRIu64 " of its lines, before its closing dashes; the newest events (printed last) are lost\n",
			d->lines);
	if (d->empty)
		fputs("  MISSING: the kernel's trace buffer was empty when it dumped it (was tracing on?)\n", f);
	for (i = 0; i < d->ncpu; i++)
		if (d->cpu[i].lost || d->cpu[i].lost_uncounted)
			fprintf(f, "  MISSING: CPU %zu lost %" PRIu64 "%s events (the ring buffer overran): the dump has a gap there\n",
				i, d->cpu[i].lost, d->cpu[i].lost_uncounted ? " or more (some not counted)" : "");
	if (d->corrupted)
		fputs("  MISSING: the kernel says function tracing was corrupted: function events may be missing\n", f);
	if (d->interleaved)
		fprintf(f, "  note: %" PRIu64 " other console line%s came inside the dump and %s kept out of the trace (the first: \"%s\")\n",
			d->interleaved, d->interleaved == 1 ? "" : "s",
			d->interleaved == 1 ? "was" : "were", d->first_interleaved);
	if (d->ndumps > 1)
		fprintf(f, "  note: the log holds %d dumps; this is the first%s\n",
			d->ndumps, d->later_empty == d->ndumps - 1 ?
			" (the others are empty: a dump empties the buffer, and an oops then a panic dump twice)" : "");
}

static void unfinished(const struct rp_dump *d, FILE *f)
{
	const struct rp_dump_open *o = &d->open[0];

	if (!d->initcall_events) {
		fputs("  initcalls: no initcall events in the dump (trace_event=initcall:* names the initcall that never finished)\n", f);
		return;
	}
	if (!d->nopen) {
		if (d->start_cut)
			fputs("  initcalls: none started and unfinished in what was kept; the dump's start is lost, so one that started before it may never have finished\n", f);
		if (d->truncated)
			fputs("  initcalls: none started and unfinished in what came; the dump is cut, so one may be in the part lost\n", f);
		return;
	}
	fprintf(f, "  the initcall that never finished: %s", o->func);
	if (o->module[0])
		fprintf(f, " (module %s)", o->module);
	fputs(", started at ", f);
	ts(o->ts, f);
	fprintf(f, " by %s on CPU %d", o->task, o->cpu);
	if (d->truncated)
		fputs(" (the dump is truncated: its finish may be in the part lost)", f);
	fputc('\n', f);
	if (d->nopen_all > 1)
		fprintf(f, "  also started and not finished in the dump: %" PRIu64 " more (asynchronous ones may still have been running)\n",
			d->nopen_all - 1);
}

void rp_dump_text(const struct rp_dump *d, FILE *f)
{
	const struct rp_dump_cpu *c;
	unsigned i, k;
	size_t n;

	fprintf(f, "crash: ftrace dump at line %llu of the log: %" PRIu64 " trace lines, %u CPU%s (times: since the trace buffer started, the dump's latency layout)\n",
		d->log_line, d->lines, cpus_seen(d), cpus_seen(d) == 1 ? "" : "s");
	if (d->panic[0])
		fprintf(f, "  panic: %s\n", d->panic);
	if (d->oops[0])
		fprintf(f, "  oops: %s\n", d->oops);
	if (!d->panic[0] && !d->oops[0] && d->start_cut)
		fputs("  panic: its message came before the dump and was lost with the dump's start (below)\n", f);
	else if (!d->panic[0] && !d->oops[0])
		fputs("  panic: no \"Kernel panic\", \"BUG:\" or \"Oops:\" line outside the dump\n", f);
	if (d->rip[0] || d->who[0])
		fprintf(f, "  at: %s%s%s\n", d->rip[0] ? d->rip : "",
			d->rip[0] && d->who[0] ? " on " : "", d->who);
	if (d->ncalls) {
		fputs("  call trace (innermost first):", f);
		for (i = 0; i < d->ncalls; i++)
			fprintf(f, "%s%s", i ? " <- " : " ", d->calls[i]);
		fputc('\n', f);
	}
	unfinished(d, f);
	for (n = 0; n < d->ncpu; n++) {
		c = &d->cpu[n];
		if (!c->seen)
			continue;
		if (d->truncated)
			fprintf(f, "  CPU %zu: %s in the last of its events that came (the dump is cut: maybe not the task at the crash), at ",
				n, c->task);
		else
			fprintf(f, "  CPU %zu at the dump: %s, its last event at ", n,
				c->task);
		ts(c->last_ts, f);
		fprintf(f, "; the last %u:\n", c->nlast);
		for (k = 0; k < c->nlast; k++)
			fprintf(f, "    %s\n",
				c->last[(c->head + RP_DUMP_LAST - c->nlast + k) % RP_DUMP_LAST]);
	}
	missing(d, f);
}

static void jstr(const char *s, FILE *f)
{
	if (s && *s)
		json_fputs(f, s);
	else
		fputs("null", f);
}

void rp_dump_json(const struct rp_dump *d, FILE *f)
{
	const struct rp_dump_cpu *c;
	unsigned i, k, first = 1;
	size_t n;

	if (!d)
		return;
	fprintf(f, "  \"dump\": {\"log_line\": %llu, \"dumps\": %d, \"later_empty\": %d, \"lines\": %" PRIu64 ", \"start_cut\": %s, \"truncated\": %s, \"empty\": %s, \"corrupted\": %s, \"interleaved\": %" PRIu64 ", \"first_interleaved\": ",
		d->log_line, d->ndumps, d->later_empty, d->lines,
		d->start_cut ? "true" : "false", d->truncated ? "true" : "false",
		d->empty ? "true" : "false", d->corrupted ? "true" : "false",
		d->interleaved);
	jstr(d->first_interleaved, f);
	fprintf(f, ", \"lost_events\": %" PRIu64 ", \"lost_uncounted\": %s,\n    \"panic\": ",
		d->lost, d->lost_uncounted ? "true" : "false");
	jstr(d->panic, f);
	fputs(", \"oops\": ", f);
	jstr(d->oops, f);
	fputs(", \"rip\": ", f);
	jstr(d->rip, f);
	fputs(", \"task\": ", f);
	jstr(d->who, f);
	fputs(",\n    \"call_trace\": [", f);
	for (i = 0; i < d->ncalls; i++) {
		fputs(i ? ", " : "", f);
		json_fputs(f, d->calls[i]);
	}
	fprintf(f, "], \"initcall_events\": %" PRIu64 ", \"unfinished_initcalls_total\": %" PRIu64 ", \"unfinished_initcalls\": [",
		d->initcall_events, d->nopen_all);
	for (i = 0; i < d->nopen; i++) {
		fputs(i ? ", {\"func\": " : "{\"func\": ", f);
		json_fputs(f, d->open[i].func);
		fputs(", \"module\": ", f);
		jstr(d->open[i].module, f);
		fputs(", \"task\": ", f);
		json_fputs(f, d->open[i].task);
		fprintf(f, ", \"cpu\": %d, \"ts\": %" PRIu64 ".%09" PRIu64 "}",
			d->open[i].cpu, d->open[i].ts / 1000000000u,
			d->open[i].ts % 1000000000u);
	}
	fputs("],\n    \"cpus\": [", f);
	for (n = 0; n < d->ncpu; n++) {
		c = &d->cpu[n];
		if (!c->seen && !c->lost && !c->lost_uncounted)
			continue;
		fprintf(f, "%s{\"cpu\": %zu, \"events\": %" PRIu64 ", \"lost\": %" PRIu64 ", \"lost_uncounted\": %s, \"last_ts\": %" PRIu64 ".%09" PRIu64 ", \"task\": ",
			first ? "" : ", ", n, c->events, c->lost,
			c->lost_uncounted ? "true" : "false", c->last_ts / 1000000000u,
			c->last_ts % 1000000000u);
		first = 0;
		jstr(c->seen ? c->task : NULL, f);
		fputs(", \"last\": [", f);
		for (k = 0; k < c->nlast; k++) {
			fputs(k ? ", " : "", f);
			json_fputs(f, c->last[(c->head + RP_DUMP_LAST - c->nlast + k) % RP_DUMP_LAST]);
		}
		fputs("]}", f);
	}
	fputs("]},\n", f);
}
