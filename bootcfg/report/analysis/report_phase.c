// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Boot phases: which part of the boot ran a caller path (a built-in
 * initcall, a module's init, a system call, a kernel thread, an interrupt),
 * told by the entry functions in its frames and, failing those, by its
 * task's name. The outputs label each path with it.
 *
 * And the boot's phases on the time axis (rp_tl_phases), drawn after the
 * pass from the counted initcall levels (report_timeline.c), the hook's
 * snapshot time (meta uptime_start) and pid 1's execs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/analysis.h"

const char *rp_phase_name(enum rp_phase ph)
{
	static const char *const name[RP_PH_N] = {
		"unknown", "initcall", "module-load", "syscall", "kthread",
		"irq",
	};

	return ph < RP_PH_N ? name[ph] : "unknown";
}

static int name_is(const struct report *r, uint32_t id, const char *s)
{
	return !strcmp(rp_str(&r->names, id), s);
}

static int comm_is(const char *task, const char *prefix)
{
	return !strncmp(task, prefix, strlen(prefix));
}

enum rp_phase rp_phase_of(const struct report *r, const uint32_t *frame,
			  uint32_t n, const char *task)
{
	int initcall = 0;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (frame[i] == RP_NONE)
			continue;
		if (name_is(r, frame[i], "do_init_module") ||
		    name_is(r, frame[i], "load_module") ||
		    name_is(r, frame[i], "__do_sys_finit_module") ||
		    name_is(r, frame[i], "__do_sys_init_module"))
			return RP_PH_MODULE;
		if (name_is(r, frame[i], "kernel_init_freeable") ||
		    name_is(r, frame[i], "do_initcalls") ||
		    name_is(r, frame[i], "do_basic_setup"))
			return RP_PH_INITCALL;
		if (name_is(r, frame[i], "do_one_initcall"))
			initcall = 1;
	}
	if (initcall)	/* no deeper frame: who ran it decides */
		return task && comm_is(task, "swapper") ? RP_PH_INITCALL :
							   RP_PH_MODULE;
	for (i = 0; i < n; i++) {
		const char *f;

		if (frame[i] == RP_NONE)
			continue;
		f = rp_str(&r->names, frame[i]);
		if (!strncmp(f, "do_syscall", 10) ||
		    !strncmp(f, "entry_SYSCALL", 13) || !strcmp(f, "syscall_common") ||
		    !strncmp(f, "el0_svc", 7) || !strcmp(f, "handle_sys"))
			return RP_PH_SYSCALL;
		if (!strcmp(f, "worker_thread") || !strcmp(f, "kthread"))
			return RP_PH_KTHREAD;
		if (!strncmp(f, "asm_common_interrupt", 20) ||
		    !strcmp(f, "irq_exit_rcu") || !strcmp(f, "__do_softirq"))
			return RP_PH_IRQ;
	}
	if (task && comm_is(task, "swapper"))
		return RP_PH_INITCALL;
	if (task && (comm_is(task, "kworker") || comm_is(task, "ksoftirqd")))
		return RP_PH_KTHREAD;
	return RP_PH_UNKNOWN;
}

/* ---- the boot's phases on the time axis --------------------------------- */

/* "uptime_start=12.34" of the hook's meta, in ns; 0 when it is not there. */
static uint64_t meta_uptime(const struct rp_snap *s, const char *key)
{
	const char *p = s ? s->meta : NULL;
	size_t klen = strlen(key);
	char *end;
	double v;

	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (strncmp(p, key, klen) || p[klen] != '=')
			continue;
		v = strtod(p + klen + 1, &end);
		if (end == p + klen + 1 || v <= 0)
			return 0;
		return (uint64_t)(v * 1e9);
	}
	return 0;
}

/* pid 1's execs: the first (/init of the initramfs) and the second (the root's). */
static void pid1_execs(const struct report *r, uint64_t *first, uint64_t *second)
{
	const struct rp_lineage *l = &r->lin;
	uint32_t life, x;

	*first = *second = 0;
	if (l->npid < 2 || !l->by_pid[1])
		return;
	for (life = l->by_pid[1] - 1; l->life[life].prev != RP_NONE;)
		life = l->life[life].prev;
	x = l->life[life].exec;
	if (x == RP_NONE)
		return;
	*first = l->ex[x].ts;
	if (l->ex[x].next != RP_NONE)
		*second = l->ex[l->ex[x].next].ts;
}

static void phase_add(struct rp_tl_phases *o, const char *name, uint64_t from,
		uint64_t to, const char *how)
{
	struct rp_tl_phase *p;

	if (o->n >= RP_TL_PHASES || to < from)
		return;
	p = &o->v[o->n++];
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->from = from;
	p->to = to;
	snprintf(p->how, sizeof(p->how), "%s", how);
}

static void phase_missing(struct rp_tl_phases *o, const char *text)
{
	if (o->nmissing < 4)
		snprintf(o->missing[o->nmissing++], sizeof(o->missing[0]), "%s", text);
}

void rp_trace_span(const struct report *r, uint64_t *t0, uint64_t *t1)
{
	uint32_t i;

	*t0 = UINT64_MAX;
	*t1 = 0;
	for (i = 0; i < r->nfn; i++) {
		if (r->fn[i].first < *t0)
			*t0 = r->fn[i].first;
		if (r->fn[i].last > *t1)
			*t1 = r->fn[i].last;
	}
}

void rp_tl_phases(const struct report *r, const struct rp_snap *snap,
		  struct rp_tl_phases *o)
{
	const struct rp_timeline *t = &r->tl;
	uint64_t init_end = 0, snap_at = 0, x1, x2, from, t0, t1;
	char name[40], how[200];
	uint32_t i, j;

	memset(o, 0, sizeof(*o));
	rp_trace_span(r, &t0, &t1);
	if (!t->nlevel) {
		phase_missing(o, "no initcall_level event in the trace: the initcall levels are not drawn (trace_event=initcall:initcall_level on the kernel command line records them)");
	} else {
		const char *first = rp_str(&r->progs, t->level[0].name);

		if (t->level[0].ts > t0)
			phase_add(o, "early kernel", t0, t->level[0].ts,
			    "from the trace's first event to the first initcall_level event");
		if (strcmp(first, "early")) {
			snprintf(how, sizeof(how), "the first initcall_level in the trace is \"%s\": the levels before it ran before the trace's events were on", first);
			phase_missing(o, how);
		}
		for (i = 0; i < t->nlevel; i++) {
			uint64_t to = i + 1 < t->nlevel ? t->level[i + 1].ts : t->level[i].ts;

			if (i + 1 == t->nlevel)	/* the last: to its last initcall's end */
				for (j = 0; j < t->nicall; j++)
					if (t->icall[j].level == (int32_t)i &&
					    t->icall[j].done && t->icall[j].end > to)
						to = t->icall[j].end;
			snprintf(name, sizeof(name), "level %s", rp_str(&r->progs, t->level[i].name));
			phase_add(o, name, t->level[i].ts, to, i + 1 < t->nlevel ?
			    "from its initcall_level event to the next level's" :
			    "from its initcall_level event to the end of its last initcall (initcall_finish)");
			init_end = to;
		}
	}
	pid1_execs(r, &x1, &x2);
	/* the hook's uptime is seconds since boot, as the trace clock: not a raw counter */
	snap_at = r->ts_raw ? 0 : meta_uptime(snap, "uptime_start");
	from = x1 ? x1 : init_end;
	if (x2 && from && x2 > from) {
		phase_add(o, "initramfs", from, x2, x1 ?
		    "from pid 1's first exec (/init) to its second (the root's init)" :
		    "from the last initcall level's end to pid 1's second exec (the root's init)");
		phase_add(o, "root / userspace", x2, t1 > x2 ? t1 : x2,
		    "from pid 1's exec of the root's init to the trace's last event");
	} else if (snap_at && from && snap_at > from) {
		phase_add(o, "initramfs", from, snap_at, x1 ?
		    "from pid 1's first exec (/init) to the hook's snapshot (meta uptime_start)" :
		    "from the last initcall level's end to the hook's snapshot (meta uptime_start)");
		if (t1 > snap_at)
			phase_add(o, "after the snapshot", snap_at, t1,
			    "the trace goes on past the hook's snapshot (follow: collect joined the live trace); no exec of pid 1 marks the switch to the root");
	} else if (from && t1 > from) {
		phase_add(o, "after the initcalls", from, t1, x1 ?
		    "from pid 1's first exec to the trace's last event" :
		    "from the last initcall level's end to the trace's last event");
	}
	if (!snap_at && !x2)
		phase_missing(o, "no hook snapshot time (meta uptime_start) and no second exec of pid 1 (boottrace.lineage) in the input: where the initramfs ends is not known");
}
