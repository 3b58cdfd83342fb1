// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lineage: who forked, exec'd and loaded what (count.h). The
 * counters feed the process table in trace order; the outputs ask for a
 * task's lineage at a time. The TASK column's name is filled in when the
 * trace is read, from the last name the kernel saw for that pid, so it can
 * be stale; the fork and exec events are the authority
 * (docs/kernel-facts.md 30).
 */
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/lex/count.h"

#define PID_LIMIT 4194304u	/* the kernel's PID_MAX_LIMIT */

void rp_lineage_free(struct rp_lineage *l)
{
	free(l->life);
	free(l->ex);
	free(l->mod);
	free(l->by_pid);
	memset(l, 0, sizeof(*l));
}

/* A new life of @pid, the latest one; RP_NONE: no memory or no pid. */
static uint32_t life_new(struct rp_lineage *l, uint32_t pid)
{
	struct rp_life *x;

	if (pid >= PID_LIMIT)
		return RP_NONE;
	if (pid >= l->npid) {
		size_t had = l->npid;

		if (BT_GROW(l->by_pid, (size_t)pid + 1, l->npid))
			return RP_NONE;
		memset(l->by_pid + had, 0, (l->npid - had) * sizeof(*l->by_pid));
	}
	if (BT_GROW(l->life, (size_t)l->nlife + 1, l->caplife))
		return RP_NONE;
	x = &l->life[l->nlife];
	memset(x, 0, sizeof(*x));
	x->pid = pid;
	x->ppid = RP_NONE;
	x->parent = x->comm = x->exit_comm = x->exec = x->task = RP_NONE;
	x->prev = l->by_pid[pid] ? l->by_pid[pid] - 1 : RP_NONE;
	l->by_pid[pid] = l->nlife + 1;
	return l->nlife++;
}

/* The latest life of @pid, made when the trace has none (it began before). */
static uint32_t life_now(struct rp_lineage *l, uint32_t pid)
{
	if (pid < l->npid && l->by_pid[pid])
		return l->by_pid[pid] - 1;
	return life_new(l, pid);
}

static int lin_fork(struct rp_lineage *l, const struct rp_ev *ev)
{
	uint32_t parent = life_now(l, ev->pid), child;

	if (parent == RP_NONE || ev->other == RP_NONE)
		return ev->pid >= PID_LIMIT ? 0 : -1;
	l->life[parent].task = ev->task;
	child = life_new(l, ev->other);
	if (child == RP_NONE)
		return ev->other >= PID_LIMIT ? 0 : -1;
	l->life[child].ppid = ev->pid;
	l->life[child].parent = parent;
	l->life[child].comm = ev->fn;
	l->life[child].fork_ts = ev->ts;
	l->life[child].forked = 1;
	return 0;
}

static int lin_exec(struct rp_lineage *l, const struct rp_ev *ev)
{
	uint32_t x = life_now(l, ev->pid), *at;
	struct rp_exec *e;

	if (x == RP_NONE)
		return ev->pid >= PID_LIMIT ? 0 : -1;
	if (BT_GROW(l->ex, (size_t)l->nex + 1, l->capex))
		return -1;
	e = &l->ex[l->nex];
	e->prog = ev->fn;
	e->ts = ev->ts;
	e->next = RP_NONE;
	for (at = &l->life[x].exec; *at != RP_NONE; at = &l->ex[*at].next)
		;
	*at = l->nex++;
	return 0;
}

static int lin_exit(struct rp_lineage *l, const struct rp_ev *ev)
{
	uint32_t x = life_now(l, ev->pid);

	if (x == RP_NONE)
		return ev->pid >= PID_LIMIT ? 0 : -1;
	l->life[x].task = ev->task;
	l->life[x].exited = 1;
	l->life[x].exit_ts = ev->ts;
	l->life[x].exit_comm = ev->fn;
	return 0;
}

static int lin_module(struct rp_lineage *l, const struct rp_ev *ev)
{
	struct rp_modev *m;

	if (BT_GROW(l->mod, (size_t)l->nmod + 1, l->capmod))
		return -1;
	m = &l->mod[l->nmod++];
	m->kind = ev->aux;
	m->pid = ev->pid;
	m->task = ev->task;
	m->name = ev->fn;
	m->ts = ev->ts;
	return 0;
}

int rp_lineage_add(struct rp_lineage *l, const struct rp_ev *ev)
{
	if (ev->aux < sizeof(l->n) / sizeof(l->n[0]))
		l->n[ev->aux]++;
	switch ((enum rp_proc_kind)ev->aux) {
	case RP_PROC_FORK:
		return lin_fork(l, ev);
	case RP_PROC_EXEC:
		return lin_exec(l, ev);
	case RP_PROC_EXIT:
		return lin_exit(l, ev);
	case RP_PROC_MODLOAD:
	case RP_PROC_MODREQ:
		return lin_module(l, ev);
	}
	return 0;
}

/* ---- what the outputs ask ---------------------------------------------- */

int rp_lineage_any(const struct report *r)
{
	return r->lin.n[RP_PROC_FORK] || r->lin.n[RP_PROC_EXEC];
}

uint32_t rp_task_pid(const char *task)
{
	const char *d = strrchr(task, '-');
	unsigned long v = 0;

	if (!d || !d[1])
		return RP_NONE;
	for (d++; *d; d++) {
		if (*d < '0' || *d > '9' || v >= PID_LIMIT)
			return RP_NONE;
		v = v * 10 + (unsigned long)(*d - '0');
	}
	return v < PID_LIMIT ? (uint32_t)v : RP_NONE;
}

int rp_task_named(const char *task, const char *name, int len)
{
	const char *d = strrchr(task, '-');

	return d && d - task == len && !memcmp(task, name, (size_t)len);
}

/* The life of @pid at @ts: the latest one forked at or before it. */
static uint32_t life_at(const struct rp_lineage *l, uint32_t pid, uint64_t ts)
{
	uint32_t x;

	if (pid >= l->npid || !l->by_pid[pid])
		return RP_NONE;
	for (x = l->by_pid[pid] - 1; x != RP_NONE; x = l->life[x].prev)
		if (!l->life[x].forked || l->life[x].fork_ts <= ts)
			return x;
	return RP_NONE;
}

/* Its last exec at or before @ts, or RP_NONE. */
static uint32_t exec_at(const struct rp_lineage *l, uint32_t x, uint64_t ts)
{
	uint32_t e, found = RP_NONE;

	for (e = l->life[x].exec; e != RP_NONE && l->ex[e].ts <= ts;
	     e = l->ex[e].next)
		found = e;
	return found;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* One step: @pid at @ts; returns its parent's life at the fork. */
static uint32_t lin_step(const struct report *r, uint32_t pid, uint64_t ts,
			 struct rp_lin_step *s)
{
	const struct rp_lineage *l = &r->lin;
	uint32_t x = life_at(l, pid, ts), e;
	const struct rp_life *lf;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->life = x;
	s->name = "";
	s->name_len = 0;
	s->ppid = RP_NONE;
	s->kernel = pid == 0 || pid == 2;
	if (x == RP_NONE)
		return RP_NONE;
	lf = &l->life[x];
	e = exec_at(l, x, ts);
	s->renamed = "";
	if (e != RP_NONE) {
		s->prog = rp_str(&r->progs, l->ex[e].prog);
		s->exec_ts = l->ex[e].ts;
		s->name = base_name(s->prog);
		if (l->ex[e].next == RP_NONE && lf->task != RP_NONE) {
			const char *t = rp_str(&r->tasks, lf->task);

			if (!rp_task_named(t, s->name, (int)strlen(s->name)) &&
			    strrchr(t, '-') && strrchr(t, '-') != t) {
				s->renamed = t;
				s->renamed_len = (int)(strrchr(t, '-') - t);
			}
		}
	} else if (s->kernel || lf->ppid == 2) {
		/* kthreadd names its children later, with no event: the TASK
		 * column of their own lines has the name */
		s->name = lf->task != RP_NONE ? rp_str(&r->tasks, lf->task) :
			  lf->comm != RP_NONE ? rp_str(&r->progs, lf->comm) : "";
	} else if (lf->exec == RP_NONE && lf->exit_comm != RP_NONE) {
		/* never exec'd: the last name it had (a renamed applet) */
		s->name = rp_str(&r->progs, lf->exit_comm);
	} else if (lf->comm != RP_NONE) {
		s->name = rp_str(&r->progs, lf->comm);
	} else if (lf->exit_comm != RP_NONE) {
		s->name = rp_str(&r->progs, lf->exit_comm);
	}
	s->name_len = (int)strlen(s->name);
	if (s->name_len && lf->task != RP_NONE && s->name == rp_str(&r->tasks, lf->task) &&
	    strrchr(s->name, '-'))	/* "comm-pid" */
		s->name_len = (int)(strrchr(s->name, '-') - s->name);
	s->forked = lf->forked;
	s->fork_ts = lf->fork_ts;
	s->ppid = lf->ppid;
	/* pid 1 is a kernel thread until it execs init; kthreadd's children stay */
	if ((pid == 1 && e == RP_NONE) || (lf->ppid == 2 && e == RP_NONE))
		s->kernel = 1;
	return lf->parent;
}

uint32_t rp_lineage_of(const struct report *r, uint32_t pid, uint64_t ts,
		       struct rp_lin_step *out, uint32_t cap)
{
	uint32_t n = 0, parent;

	while (n < cap && n < RP_LIN_MAX) {
		struct rp_lin_step *s = &out[n++];

		parent = lin_step(r, pid, ts, s);
		/* the top: init, a kernel thread, or the trace's start */
		if (pid == 1 || s->kernel || parent == RP_NONE || !s->forked)
			break;
		pid = s->ppid;
		ts = s->fork_ts;	/* what the parent ran when it forked */
	}
	return n;
}

const char *rp_lineage_module(const struct report *r, uint32_t pid,
			      uint64_t ts)
{
	const struct rp_lineage *l = &r->lin;
	const char *found = NULL;
	uint32_t i;

	for (i = 0; i < l->nmod && l->mod[i].ts <= ts; i++)
		if (l->mod[i].kind == RP_PROC_MODLOAD && l->mod[i].pid == pid)
			found = rp_str(&r->progs, l->mod[i].name);
	return found;
}

int rp_lineage_request(const struct report *r, uint64_t ts,
		       const char **task, const char **module, uint64_t *at)
{
	const struct rp_lineage *l = &r->lin;
	uint32_t i, found = RP_NONE;

	for (i = 0; i < l->nmod && l->mod[i].ts <= ts; i++)
		if (l->mod[i].kind == RP_PROC_MODREQ)
			found = i;
	if (found == RP_NONE)
		return 0;
	*task = rp_str(&r->tasks, l->mod[found].task);
	*module = rp_str(&r->progs, l->mod[found].name);
	*at = l->mod[found].ts;
	return 1;
}
