// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Boot phases: which part of the boot ran a caller path (a built-in
 * initcall, a module's init, a system call, a kernel thread, an interrupt),
 * told by the entry functions in its frames and, failing those, by its
 * task's name. The outputs label each path with it.
 */
#include <string.h>

#include "report/report_int.h"

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
