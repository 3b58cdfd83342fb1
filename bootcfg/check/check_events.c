/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every trace event a plan names against the events built into the image
 * (check.h; kimage/kimg_events.c): boot-time tracing enables only those
 * (kernel-facts 114), so a misspelt event, or one that is not built in,
 * would be enabled by nothing and the trace would silently lack it.
 * Matching is the kernel's (trace_events.c __ftrace_set_clr_event):
 * "SYSTEM:EVENT", either part empty or "*" for all; a word without ':'
 * is an event name or a system name. The plan's own kprobe and synthetic
 * events are made at boot and are not in the image.
 */
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

#define EV_WHY "boot-time tracing enables only built-in events (a module's events are made when it loads, after the boot settings were applied), so this setting would trace nothing"

/* Does the part @s (@n bytes) match @what: equal, or empty or "*" for all? */
static int ev_part(const char *s, size_t n, const char *what, size_t wn)
{
	return !n || (n == 1 && *s == '*') || (n == wn && !memcmp(s, what, n));
}

/* Does the built-in "system:event" @ent match the plan's @sys:@ev (@bare: one word)? */
static int ev_match(const char *ent, const char *sys, size_t sn,
		    const char *ev, size_t en, int bare)
{
	size_t s = strcspn(ent, ":");
	const char *e = ent + s + 1;

	if (bare)
		return ev_part(ev, en, e, strlen(e)) || ev_part(ev, en, ent, s);
	return ev_part(sys, sn, ent, s) && ev_part(ev, en, e, strlen(e));
}

static int ev_is(const char *s, size_t n, const char *name)
{
	return n == strlen(name) && !memcmp(s, name, n);
}

/*
 * Is the word the plan's own kprobe or synthetic event (@sys:@name, or
 * the one word @name when @bare)?
 */
static int ev_own(const struct plan *p, const char *sys, size_t sn,
		  const char *name, int bare)
{
	size_t i, nn = strlen(name);

	if (!bare)
		return ev_is(sys, sn, "kprobes") || ev_is(sys, sn, "synthetic");
	if (ev_is(name, nn, "kprobes") || ev_is(name, nn, "synthetic"))
		return 1;
	for (i = 0; i < p->nkprobes; i++)
		if (ev_is(name, nn, p->kprobes[i].event))
			return 1;
	for (i = 0; i < p->nsynths; i++)
		if (ev_is(name, nn, p->synths[i].event))
			return 1;
	return 0;
}

/*
 * The built-in name nearest to @word into @out ("" if none): a system
 * (@systems), or an event of @sys (@sn bytes; of any system when NULL).
 */
static void ev_nearest(const struct kimg_events *ev, const char *sys,
		       size_t sn, const char *word, int systems, char *out,
		       size_t cap)
{
	char **own = calloc(ev->n + 1, sizeof(*own));
	const char **cands = calloc(ev->n + 1, sizeof(*cands));
	const char *near = NULL;
	size_t i, n = 0, s;

	*out = '\0';
	for (i = 0; own && cands && i < ev->n; i++) {
		s = strcspn(ev->name[i], ":");
		if (systems) {
			/* sorted: a new system starts where the part differs */
			if (n && !strncmp(cands[n - 1], ev->name[i], s) && !cands[n - 1][s])
				continue;
			if (!(own[n] = strndup(ev->name[i], s)))
				break;
			cands[n] = own[n];
			n++;
		} else if (!sys || (s == sn && !strncmp(ev->name[i], sys, sn))) {
			cands[n++] = ev->name[i] + s + 1;
		}
	}
	if (own && cands && i == ev->n) {
		near = plan_nearest(word, cands);
		if (near)
			snprintf(out, cap, "%s", near);
	}
	for (i = 0; own && own[i]; i++)
		free(own[i]);
	free(own);
	free(cands);
}

/* One event word, "SYSTEM:EVENT" or "NAME", at @node. */
static void ev_check(struct check_report *r, const struct plan *p,
		     const struct ksyms *t, const char *word, int node)
{
	const struct kimg_events *ev = &t->events;
	const char *w = word + (*word == '!'), *colon = strchr(w, ':');
	const char *name = colon ? colon + 1 : w;
	size_t sn = colon ? (size_t)(colon - w) : 0, i;
	char sys[128], near[160];

	if (ev_own(p, w, sn, name, !colon))
		return;
	for (i = 0; i < ev->n; i++)
		if (ev_match(ev->name[i], w, sn, name, strlen(name), !colon))
			return;
	snprintf(sys, sizeof(sys), "%.*s", (int)sn, w);
	if (colon && sn && strcmp(sys, "*") && !kimg_events_has(ev, sys, NULL)) {
		ev_nearest(ev, NULL, 0, sys, 1, near, sizeof(near));
		check_report_add(r, p, node, CK_ERROR, word,
				 "event system '%s' is not built into %s (%zu events in %zu systems): %s%s%s",
				 sys, t->core_path, ev->n, ev->nsystems, EV_WHY,
				 *near ? "; did you mean " : "", near);
		return;
	}
	ev_nearest(ev, colon ? sys : NULL, sn, name, 0, near, sizeof(near));
	check_report_add(r, p, node, CK_ERROR, word,
			 "no event '%s' is built into %s (%zu events in %zu systems): %s%s%s",
			 w, t->core_path, ev->n, ev->nsystems, EV_WHY,
			 *near ? "; did you mean " : "", near);
}
/* An ftrace.event.GROUP[.EVENT] setting. */
static void ev_setting(struct check_report *r, const struct plan *p,
		       const struct ksyms *t, const struct plan_event *e)
{
	char word[512];

	if (!*e->group)
		return;		/* event.enable: all of them */
	snprintf(word, sizeof(word), "%s:%s", e->group, *e->event ? e->event : "*");
	ev_check(r, p, t, word, e->node);
}

void check_plan_events(struct check_report *r, const struct plan *p,
		       const struct ksyms *t)
{
	size_t i, j;

	if (!t->events_known)
		return;
	for (i = 0; i < p->ninst; i++) {
		const struct plan_inst *in = &p->inst[i];

		for (j = 0; j < in->events.n; j++)
			ev_check(r, p, t, in->events.v[j].text, in->events.v[j].node);
		for (j = 0; j < in->nev; j++)
			ev_setting(r, p, t, &in->ev[j]);
	}
}
