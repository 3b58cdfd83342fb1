// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The lineage events' text (lex.h, docs/kernel-facts.md 30):
 *
 *   sched_process_fork: comm=init pid=1 child_comm=init child_pid=85
 *   sched_process_exec: filename=/bin/load-bonding.sh pid=91 old_pid=91
 *   sched_process_exit: comm=insmod pid=95 prio=120
 *   module_load: bonding
 *   module_request: rtnl-link-dummy wait=1 call_site=__rtnl_newlink
 *
 * A comm or a path may hold blanks and even "pid=", so each field is
 * found from the end of the body, where the numbers are.
 */
#include <string.h>

#include "report/lex/count.h"

/* The last "@key" in [b, e) that starts the body or follows a blank. */
static const char *proc_last(const char *b, const char *e, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = e - n; p >= b; p--)
		if (!memcmp(p, key, n) && (p == b || p[-1] == ' '))
			return p;
	return NULL;
}

/* A decimal pid at [p, e) up to a blank or the end; -1 if none. */
static int proc_pid(const char *p, const char *e)
{
	long v = 0;
	const char *s = p;

	while (p < e && *p >= '0' && *p <= '9' && v <= 4194304)
		v = v * 10 + (*p++ - '0');
	if (p == s || v > 4194304 || (p < e && *p != ' '))
		return -1;
	return (int)v;
}

/* "KEY=VALUE" before @end_at (the blank before the next field). */
static int proc_text(const char *b, const char *end_at, const char *key,
		     struct rp_proc_ev *out)
{
	const char *k = proc_last(b, end_at, key);

	if (!k)
		return 0;
	out->s = k + strlen(key);
	out->s_len = (size_t)(end_at - out->s);
	return 1;
}

static int proc_fork(const char *b, const char *e, struct rp_proc_ev *out)
{
	const char *cp = proc_last(b, e, "child_pid="), *cc, *pp;

	if (!cp || (out->child = proc_pid(cp + 10, e)) < 0)
		return 0;
	cc = proc_last(b, cp, "child_comm=");
	if (!cc || cc == b)
		return 0;
	pp = proc_last(b, cc - 1, "pid=");
	if (!pp || (out->pid = proc_pid(pp + 4, cc - 1)) < 0)
		return 0;
	out->kind = RP_PROC_FORK;
	out->s = cc + 11;
	out->s_len = (size_t)(cp - 1 - out->s);
	return cp > out->s;
}

static int proc_exec(const char *b, const char *e, struct rp_proc_ev *out)
{
	const char *op = proc_last(b, e, "old_pid="), *pp;

	if (!op || op == b)
		return 0;
	pp = proc_last(b, op - 1, "pid=");
	if (!pp || pp == b || (out->pid = proc_pid(pp + 4, op - 1)) < 0)
		return 0;
	out->kind = RP_PROC_EXEC;
	return proc_text(b, pp - 1, "filename=", out) && out->s_len;
}

static int proc_exit(const char *b, const char *e, struct rp_proc_ev *out)
{
	const char *pr = proc_last(b, e, "prio="), *pp;

	/* 6.1: "comm=C pid=P prio=N"; later kernels may add fields after */
	if (!pr || pr == b)
		return 0;
	pp = proc_last(b, pr - 1, "pid=");
	if (!pp || pp == b || (out->pid = proc_pid(pp + 4, pr - 1)) < 0)
		return 0;
	out->kind = RP_PROC_EXIT;
	return proc_text(b, pp - 1, "comm=", out);
}

/* "NAME" or "NAME (taints)" / "NAME wait=1 call_site=F": the first word. */
static int proc_module(const struct rp_line *l, enum rp_proc_kind kind,
		       struct rp_proc_ev *out)
{
	const char *b = l->b, *e = l->b + l->b_len, *sp;

	sp = memchr(b, ' ', l->b_len);
	out->kind = kind;
	out->pid = l->pid;
	out->s = b;
	out->s_len = (size_t)((sp ? sp : e) - b);
	return out->s_len > 0 && l->pid >= 0;
}

int rp_proc_parse(const struct rp_line *l, struct rp_proc_ev *out)
{
	const char *b = l->b, *e = l->b + l->b_len;

	if (l->kind != RP_EVENT || !l->b_len)
		return 0;
	memset(out, 0, sizeof(*out));
	out->child = -1;
	if (l->a_len == 18 && !memcmp(l->a, "sched_process_fork", 18))
		return proc_fork(b, e, out);
	if (l->a_len == 18 && !memcmp(l->a, "sched_process_exec", 18))
		return proc_exec(b, e, out);
	if (l->a_len == 18 && !memcmp(l->a, "sched_process_exit", 18))
		return proc_exit(b, e, out);
	if (l->a_len == 11 && !memcmp(l->a, "module_load", 11))
		return proc_module(l, RP_PROC_MODLOAD, out);
	if (l->a_len == 14 && !memcmp(l->a, "module_request", 14))
		return proc_module(l, RP_PROC_MODREQ, out);
	return 0;
}
