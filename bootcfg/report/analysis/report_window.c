// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot's question (boottrace.ask on its command line, kernel/ask.h)
 * and whether the trace's window can hold its answer: what the report
 * says before any culprit, so that a device or a call that is missing
 * because tracing ended too early is never read as "nobody did it".
 */
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fetcharg.h"
#include "report/analysis/analysis.h"

static void said(struct rp_question *q, const char *code, int warn,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void said(struct rp_question *q, const char *code, int warn,
		 const char *fmt, ...)
{
	struct rp_finding *f;
	va_list ap;

	if (q->nsaid >= (int)(sizeof(q->said) / sizeof(q->said[0])))
		return;
	f = &q->said[q->nsaid++];
	f->code = code;
	f->warn = warn;
	va_start(ap, fmt);
	vsnprintf(f->text, sizeof(f->text), fmt, ap);
	va_end(ap);
}

/*
 * The window from the meta: a record (collect's lines) has the live
 * window's count; a snapshot alone has the hook's follow= only.
 */
static void window_of(const struct rp_snap *s, struct rp_question *q)
{
	char v[64];

	q->follow = -1;
	if (!s || !s->meta) {
		q->window = RP_WIN_UNKNOWN;
		return;
	}
	if (rp_snap_meta_value(s, "collect_follow", v, sizeof(v)) ||
	    rp_snap_meta_value(s, "follow", v, sizeof(v)))
		q->follow = strcmp(v, "0") != 0;
	q->collected = rp_snap_meta_value(s, "collect_version", v, sizeof(v));
	if (q->collected && rp_snap_meta_value(s, "join_live_events", v, sizeof(v)))
		q->live_events = strtoull(v, NULL, 10);
	q->joined = q->collected && rp_snap_meta_value(s, "join", v, sizeof(v)) &&
		    !strcmp(v, "yes");
	q->window = q->live_events ? RP_WIN_LIVE : RP_WIN_SNAPSHOT;
}

static void window_words(const struct report *r, struct rp_question *q)
{
	char b[RP_TS_LEN];
	uint64_t t0, t1;

	rp_trace_span(r, &t0, &t1);
	snprintf(q->end, sizeof(q->end), "%s%s", t1 ? rp_ts_text(t1, r->ts_raw, b) : "?",
		 t1 && !r->ts_raw ? " s" : "");
	if (q->window == RP_WIN_UNKNOWN)
		snprintf(q->where, sizeof(q->where), "this trace (no hook meta: where tracing started and stopped is not known)");
	else if (q->window == RP_WIN_LIVE)
		snprintf(q->where, sizeof(q->where), "the initramfs snapshot and the live window after it (%llu live events, to %s)",
			 (unsigned long long)q->live_events, q->end);
	else if (q->follow <= 0)
		snprintf(q->where, sizeof(q->where), "the initramfs snapshot only: tracing stopped there (boottrace.follow was %s)",
			 q->follow ? "not on" : "off");
	else if (!q->collected)
		snprintf(q->where, sizeof(q->where), "the initramfs snapshot only: tracing went on after it (boottrace.follow was on), but this is the snapshot, not the boot record `boottrace collect` writes");
	else
		snprintf(q->where, sizeof(q->where), "the initramfs snapshot only: the live window after it is empty though boottrace.follow was on (%s)",
			 q->joined ? "0 events after the snapshot" : "the live trace was not joined; see the record's errors");
}

/* Calls of a function that creates what is asked, and whether one named it. */
static void seen_created(const struct report *r, struct rp_question *q)
{
	uint32_t i;
	int named, any_probe = 0;

	for (i = 0; i < r->nfn; i++) {
		const char *name = rp_str(&r->names, r->fn[i].name);

		if (!fetcharg_creates(name))
			continue;
		q->calls += r->fn[i].hits;
		any_probe |= rp_probe_first(r, r->fn[i].name) != UINT64_MAX;
		named = rp_probe_names(r, r->fn[i].name, q->ask.object);
		if (named > q->seen)
			q->seen = named;
	}
	q->unnamed = q->calls && !any_probe;
}

/* Each function of the asked list (FUNC or FUNC:mod:M, globs) that was never called. */
static void seen_called(const struct report *r, struct rp_question *q)
{
	char item[BT_ASK_OBJECT_MAX + 1], *s, *c, *m;
	size_t at = 0;
	uint32_t i;
	uint64_t hits;

	snprintf(item, sizeof(item), "%s", q->ask.object);
	q->seen = 2;
	for (s = item; s; s = c) {
		if ((c = strchr(s, ',')))
			*c++ = 0;
		if ((m = strstr(s, ":mod:")))
			*m = 0;
		hits = 0;
		for (i = 0; i < r->nfn; i++)
			if (!fnmatch(s, rp_str(&r->names, r->fn[i].name), 0))
				hits += r->fn[i].hits;
		q->calls += hits;
		if (!hits) {
			q->seen = 0;
			if (at < sizeof(q->missing))
				at += (size_t)snprintf(q->missing + at, sizeof(q->missing) - at, "%s%s", at ? ", " : "", s);
		}
	}
}

/*
 * Why the window does not hold it, and what to change: the words after
 * "bond0 was not seen: " in @buf.
 */
static void window_why(const struct rp_question *q, char *buf, size_t cap)
{
	const char *k = bt_ask_kind_name(q->ask.kind), *o = q->ask.object;

	if (q->window == RP_WIN_UNKNOWN)
		snprintf(buf, cap, "this input has no hook meta, so where tracing started and stopped is not known; report the boot record (/var/lib/boottrace/<boot-id>/) or the snapshot directory");
	else if (q->window == RP_WIN_LIVE)
		snprintf(buf, cap, "not in the initramfs snapshot nor in the live window after it (%llu live events, to %s); if it happens after `boottrace collect` ran (boottrace-collect.service, after multi-user.target), order the unit after it",
			 (unsigned long long)q->live_events, q->end);
	else if (q->follow <= 0)
		snprintf(buf, cap, "the trace ended at the initramfs snapshot (boottrace.follow was %s); ask again with boottrace.follow = 1, or `boottrace ask %s %s`, which sets it",
			 q->follow ? "not on" : "off", k, o);
	else if (!q->collected)
		snprintf(buf, cap, "this is the initramfs snapshot, and tracing went on after it (boottrace.follow was on); report this boot's record, which `boottrace collect` writes (/var/lib/boottrace/<boot-id>/)");
	else
		snprintf(buf, cap, "the live window after the initramfs is empty though boottrace.follow was on (%s); check that tracing stayed on after the initramfs (tracing_on, a traceoff trigger) and boottrace-collect.service's log",
			 q->joined ? "0 events after the snapshot" : "the live trace was not joined; see the record's errors");
}

static void say_seen(struct rp_question *q)
{
	const char *obj = q->ask.object;
	char why[400];

	window_why(q, why, sizeof(why));
	if (q->ask.kind == BT_ASK_CREATES && q->seen == 1)
		said(q, "asked-pattern", 1, "%s may be a device registered under a name pattern (the kprobe saw the pattern at the call's entry; the kernel puts in the number inside it): no call recorded the name %s itself", obj, obj);
	else if (q->ask.kind == BT_ASK_CREATES && !q->seen && q->unnamed)
		said(q, "asked-not-seen", 1, "%s was not seen by name: the %llu device registration%s in this window recorded no name (no kprobe on the registering function, or every call before its first hit: compile --who-creates %s adds it); %s",
		     obj, (unsigned long long)q->calls, q->calls == 1 ? "" : "s", obj, why);
	else if (q->ask.kind == BT_ASK_CREATES && !q->seen)
		said(q, "asked-not-seen", 1, "%s was not seen: %s", obj, why);
	else if (q->ask.kind == BT_ASK_CALLS && !q->seen)
		said(q, "asked-not-seen", 1, "%s %s never called: %s", q->missing,
		     strchr(q->missing, ',') ? "were" : "was", why);
}

int rp_question(const struct report *r, const struct rp_snap *snap,
		struct rp_question *q)
{
	const char *why = NULL;
	int got;

	memset(q, 0, sizeof(*q));
	got = bt_ask_from_cmdline(snap ? snap->cmdline : NULL, &q->ask, &why);
	if (!got)
		return 0;
	if (got < 0) {
		q->malformed = 1;
		said(q, "asked-malformed", 1, "the boot's %s=%s %s: no question is answered first", BT_ASK_PARAM, q->ask.object, why);
		return 1;
	}
	window_of(snap, q);
	window_words(r, q);
	said(q, "asked", 0, "asked: %s %s (%s on the boot's command line)",
	     bt_ask_kind_words(q->ask.kind), q->ask.object, BT_ASK_PARAM);
	said(q, "window", q->window == RP_WIN_SNAPSHOT && q->follow > 0 && q->collected,
	     "window: %s", q->where);
	if (q->ask.kind == BT_ASK_CREATES)
		seen_created(r, q);
	else
		seen_called(r, q);
	say_seen(q);
	return 1;
}
