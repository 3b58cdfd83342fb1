// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer in words (analysis.h): was a call a built-in driver's
 * initcall, a module's init run by a loader, or a program's request, and
 * which program, run by which, started by which. Every output (text,
 * JSON, folded) says it from here.
 */
#include <stdio.h>
#include <string.h>

#include "report/analysis/analysis.h"

static int path_has(const struct report *r, const uint32_t *path,
		    uint32_t len, const char *part)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		if (path[i] != RP_NONE && strstr(rp_str(&r->names, path[i]), part))
			return 1;
	return 0;
}

/* How a program's request reached the kernel, from its frames. */
static const char *who_via(const struct report *r, const uint32_t *path,
			   uint32_t len)
{
	if (path_has(r, path, len, "netlink"))
		return "netlink";
	if (path_has(r, path, len, "ioctl"))
		return "ioctl";
	if (path_has(r, path, len, "kernfs_fop_write") ||
	    path_has(r, path, len, "sysfs"))
		return "a sysfs write";
	return "a system call";
}

static void who_ts(const struct report *r, uint64_t ts, char *out, size_t cap)
{
	char b[RP_TS_LEN];

	snprintf(out, cap, "%s%s", rp_ts_text(ts, r->ts_raw, b),
		 r->ts_raw ? "" : " s");
}

/* The program a no-exec fork runs: its nearest ancestor's in @st. */
static const char *who_inherited(const struct rp_lin_step *st, uint32_t n,
				 uint32_t i)
{
	for (i++; i < n; i++)
		if (st[i].prog || !st[i].forked || st[i].kernel)
			return st[i].prog;
	return NULL;
}

void rp_who_step(const struct report *r, const struct rp_lin_step *st,
		 uint32_t n, uint32_t i, char *out, size_t cap)
{
	const struct rp_lin_step *s = &st[i];
	const char *prog = who_inherited(st, n, i);
	char t[40];
	int nl = s->name_len;

	if (s->pid == 0) {
		snprintf(out, cap, "the kernel (pid 0)");
	} else if (s->pid == 1 && !s->prog) {
		snprintf(out, cap, "the kernel's init thread (pid 1, before it execs init)");
	} else if (s->prog && s->renamed_len) {
		snprintf(out, cap, "%s (pid %u, named %.*s)", s->prog, s->pid,
			 s->renamed_len, s->renamed);
	} else if (s->prog) {
		snprintf(out, cap, "%s (pid %u)", s->prog, s->pid);
	} else if (s->kernel) {
		snprintf(out, cap, "%s %.*s (pid %u)",
			 !strncmp(s->name, "kworker", 7) ? "the kernel worker" :
			 "kernel thread", nl, s->name, s->pid);
	} else if (s->life == RP_NONE) {
		snprintf(out, cap, "pid %u (the trace has no fork or exec of it)",
			 s->pid);
	} else if (s->forked && prog) {
		who_ts(r, s->fork_ts, t, sizeof(t));
		snprintf(out, cap, "%.*s (pid %u: forked at %s and never exec'd, so it runs %s, as a daemon's worker, a busybox applet or a shell builtin does)",
			 nl ? nl : 1, nl ? s->name : "?", s->pid, t, prog);
	} else {
		snprintf(out, cap, "%.*s (pid %u, no exec in the trace)",
			 nl ? nl : 1, nl ? s->name : "?", s->pid);
	}
}

/* "A, run by B, run by C" of a lineage into @out at @at. */
static size_t who_chain(const struct report *r, const struct rp_lin_step *st,
			uint32_t n, char *out, size_t cap, size_t at)
{
	char one[300];
	uint32_t i;
	int k;

	for (i = 0; i < n && at < cap; i++) {
		rp_who_step(r, st, n, i, one, sizeof(one));
		k = snprintf(out + at, cap - at, "%s%s", i ? ", run by " : "", one);
		if (k < 0)
			break;
		at += (size_t)k;
	}
	return at < cap ? at : cap - 1;
}

/* The loader was started by a kernel worker: the request it served. */
static void who_request(const struct report *r, struct rp_who *w)
{
	const struct rp_lin_step *top = &w->step[w->n - 1];
	uint32_t rpid;

	if (w->n < 2 || !top->kernel || !w->step[w->n - 2].forked)
		return;
	if (!rp_lineage_request(r, w->step[w->n - 2].fork_ts, &w->req_task,
				&w->req_module, &w->req_ts))
		return;
	rpid = rp_task_pid(w->req_task);
	if (rpid != RP_NONE)
		w->req_n = rp_lineage_of(r, rpid, w->req_ts, w->req_step,
					 RP_LIN_MAX);
}

/* ", for the module request 'M' of TASK at T: CHAIN" at @at of w->text. */
static void who_request_text(const struct report *r, struct rp_who *w,
			     size_t at)
{
	size_t cap = sizeof(w->text);
	char t[40];
	int k;

	who_ts(r, w->req_ts, t, sizeof(t));
	k = snprintf(w->text + at, cap - at, ", for the module request '%s' of %s at %s: ",
		     w->req_module, w->req_task, t);
	if (k > 0 && (size_t)k < cap - at)
		who_chain(r, w->req_step, w->req_n, w->text, cap, at + (size_t)k);
}

static void who_text(const struct report *r, const uint32_t *path,
		     uint32_t len, struct rp_who *w)
{
	char *o = w->text;
	size_t cap = sizeof(w->text), at = 0;
	uint32_t c = rp_culprit_start(r, path, len);
	const char *first = c < len ? rp_name(r, path[c]) : "?";
	int k = 0;

	switch (w->kind) {
	case RP_WHO_INITCALL:
		k = snprintf(o, cap, "a kernel initcall (built-in driver code, %s), run by ", first);
		break;
	case RP_WHO_MODULE:
		k = w->module ? snprintf(o, cap, "the init of module %s, loaded by ", w->module) :
				snprintf(o, cap, "a module's init (%s; no module_load event names it), loaded by ", first);
		break;
	case RP_WHO_REQUEST:
		k = snprintf(o, cap, "a userspace request (%s) from ", w->via);
		break;
	case RP_WHO_KTHREAD:
		k = snprintf(o, cap, "work of a kernel thread (a worker: what queued it is not in the trace), in ");
		break;
	case RP_WHO_OTHER:
		k = snprintf(o, cap, "a call by ");
		break;
	}
	at = k > 0 ? (size_t)k : 0;
	at = who_chain(r, w->step, w->n, o, cap, at);
	if (w->req_task && at < cap)
		who_request_text(r, w, at);
}

int rp_who_load(const struct report *r, uint32_t i, struct rp_who *w)
{
	const struct rp_modev *m = &r->lin.mod[i];
	char t[40];
	size_t at;
	int k;

	memset(w, 0, sizeof(*w));
	if (i >= r->lin.nmod || m->kind != RP_PROC_MODLOAD)
		return -1;
	w->kind = RP_WHO_MODULE;
	w->kind_name = "module";
	w->module = rp_str(&r->progs, m->name);
	w->n = rp_lineage_of(r, m->pid, m->ts, w->step, RP_LIN_MAX);
	who_request(r, w);
	who_ts(r, m->ts, t, sizeof(t));
	k = snprintf(w->text, sizeof(w->text), "%s at %s, loaded by ", w->module, t);
	at = k > 0 ? (size_t)k : 0;
	at = who_chain(r, w->step, w->n, w->text, sizeof(w->text), at);
	if (w->req_task && at < sizeof(w->text))
		who_request_text(r, w, at);
	return 0;
}

int rp_who(const struct report *r, const uint32_t *path, uint32_t len,
	   const char *task, uint64_t ts, struct rp_who *w)
{
	static const char *const names[] = {
		"initcall", "module", "request", "kernel-thread", "other",
	};
	uint32_t pid = rp_task_pid(task);

	memset(w, 0, sizeof(*w));
	if (!rp_lineage_any(r) || pid == RP_NONE)
		return -1;
	switch (rp_phase_of(r, path, len, task)) {
	case RP_PH_INITCALL:
		w->kind = RP_WHO_INITCALL;
		break;
	case RP_PH_MODULE:
		w->kind = RP_WHO_MODULE;
		w->module = rp_lineage_module(r, pid, ts);
		break;
	case RP_PH_SYSCALL:
		w->kind = RP_WHO_REQUEST;
		w->via = who_via(r, path, len);
		break;
	case RP_PH_KTHREAD:
		w->kind = RP_WHO_KTHREAD;
		break;
	default:
		w->kind = RP_WHO_OTHER;
		break;
	}
	w->kind_name = names[w->kind];
	w->n = rp_lineage_of(r, pid, ts, w->step, RP_LIN_MAX);
	if (w->kind == RP_WHO_MODULE)
		who_request(r, w);
	who_text(r, path, len, w);
	return 0;
}
