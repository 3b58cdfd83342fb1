// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottrace.crash and boottrace.hang (plan.h): the kernel's words that get
 * the trace out of a boot that dies before the hook runs. One table says
 * which setting makes which word, from which kernel and .config option,
 * and what it does; every word is checked like the user's own words.
 * Users read the same in docs/crash.md; the facts behind it are
 * docs/kernel-facts.md 37 onwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/route.h"
#include "kernel/params.h"

/* The persistent instance and its reserve_mem= label (the hook looks for it). */
#define CRASH_INSTANCE "boottrace"
/* Per-CPU buffer of a console dump: printed at serial speed (docs/crash.md). */
#define CRASH_CONSOLE_BUF "128K"
#define CRASH_REBOOT "10"
#define CRASH_PERSISTENT_SIZE "2M"

enum crash_set {
	CS_DUMP,	/* crash = console or pstore */
	CS_REBOOT,	/* crash = console, persistent or pstore */
	CS_OOPS,	/* hang = panic, or crash = persistent or pstore */
	CS_HANG,	/* hang = panic */
	CS_HANG_SECONDS,	/* hang_seconds = N */
	CS_PERSISTENT,	/* crash = persistent */
	CS_PSTORE,	/* crash = pstore */
	CS_PSTORE_MEMMAP,	/* crash = pstore, board.pstore.reserve = memmap */
};

/*
 * Which setting makes which word; the word's own facts (its name, the
 * version and .config option it needs, whether it is an early_param) are
 * its row of kernel/params.c.
 */
static const struct crash_row {
	enum crash_set set;
	enum kparam param;
	/* 1: without it the mode does nothing, so it is refused; 0: left out, said */
	int must;
	const char *does;	/* for -v and the warning when left out */
} crash_rows[] = {
	{ CS_DUMP, KP_TRACE_BUF_SIZE, 0,
	  "a small buffer per CPU, so that the dump ends before a watchdog or the reboot cuts it" },
	{ CS_REBOOT, KP_PANIC, 0,
	  "the board reboots this many seconds after a panic" },
	{ CS_OOPS, KP_OOPS, 0,
	  "an oops panics: one in a kernel thread otherwise leaves the boot hung (docs/kernel-facts.md 55), and a trace kept for the next boot needs the reboot" },
	{ CS_HANG, KP_SOFTLOCKUP_PANIC, 0,
	  "a CPU stuck in the kernel (an initcall that spins) panics" },
	{ CS_HANG, KP_HUNG_TASK_PANIC, 0,
	  "a task blocked that long (a module's init waiting forever) panics, once the built-in initcalls are done" },
	{ CS_HANG, KP_SYSCTL_PANIC_ON_RCU_STALL, 0,
	  "an RCU stall panics, once the built-in initcalls are done" },
	{ CS_HANG_SECONDS, KP_WATCHDOG_THRESH, 0,
	  "a soft lockup is reported after twice this many seconds" },
	{ CS_HANG_SECONDS, KP_SYSCTL_HUNG_TASK_TIMEOUT, 0,
	  "how long a task may block" },
	{ CS_HANG_SECONDS, KP_RCU_CPU_STALL_TIMEOUT, 0,
	  "how long before an RCU stall is reported" },
	{ CS_PERSISTENT, KP_RESERVE_MEM, 1,
	  "memory kept out of the kernel's hands, at the same place on a warm reboot" },
	/* NAME@LABEL needs 6.12, which crash_persistent_check asks before any row */
	{ CS_PERSISTENT, KP_TRACE_INSTANCE, 1,
	  "a trace instance in that memory, with the config's events, that the next boot can read" },
	{ CS_PSTORE_MEMMAP, KP_MEMMAP, 1,
	  "the board's pstore RAM kept out of the kernel's hands" },
	{ CS_PSTORE, KP_RAMOOPS_MEM_ADDRESS, 1,
	  "where ramoops keeps the kernel's log of a panic" },
	{ CS_PSTORE, KP_RAMOOPS_MEM_SIZE, 1,
	  "how much of it" },
	{ CS_PSTORE, KP_RAMOOPS_RECORD_SIZE, 1,
	  "the log's tail kept per panic, the trace the dump printed into it included (two records)" },
	{ CS_PSTORE, KP_RAMOOPS_CONSOLE_SIZE, 0,
	  "the console's output kept as well (console-ramoops)" },
};
#define NROWS (sizeof(crash_rows) / sizeof(crash_rows[0]))

/* The node of the setting that makes rows of @set, or -1 if it is not on. */
static int crash_set_node(const struct route *r, enum crash_set set)
{
	const struct plan *p = r->plan;
	const struct plan_crash *c = &p->crash;
	int console = plan_crash_mode(p, "console");
	int persistent = plan_crash_mode(p, "persistent");
	int pstore = plan_crash_mode(p, "pstore");
	int hang = c->hang.text && !strcmp(c->hang.text, "panic");

	switch (set) {
	case CS_DUMP:
		return console >= 0 ? console : pstore;
	case CS_REBOOT:
		if (c->reboot.text)
			return c->reboot.node;
		return console >= 0 ? console : persistent >= 0 ? persistent : pstore;
	case CS_OOPS:
		return hang ? c->hang.node : persistent >= 0 ? persistent : pstore;
	case CS_HANG:
		return hang ? c->hang.node : -1;
	case CS_HANG_SECONDS:
		return hang && c->hang_seconds.text ? c->hang_seconds.node : -1;
	case CS_PERSISTENT:
		return persistent;
	case CS_PSTORE:
		return pstore;
	case CS_PSTORE_MEMMAP:
		return r->board && !strcmp(r->board->pstore_reserve, "memmap") ? pstore : -1;
	}
	return -1;
}

/* Did the user write @param on the line themselves (kernel.* or verbatim)? */
static int crash_user_has(const struct plan *p, const char *param)
{
	size_t i, n = strlen(param);

	for (i = 0; i < p->nkernel; i++)
		if (!strcmp(p->kernel[i].key, param))
			return 1;
	for (i = 0; i < p->verbatim_kernel.n; i++) {
		const char *w = p->verbatim_kernel.v[i].text;

		if (!strncmp(w, param, n) && (w[n] == '=' || !w[n]))
			return 1;
	}
	return 0;
}

/* reserve_mem= and trace_instance= values; NULL when out of memory. */
static char *crash_persistent_value(const struct route *r, enum kparam param)
{
	const struct plan *p = r->plan;
	const char *size = p->crash.persistent_size.text ?
			   p->crash.persistent_size.text : CRASH_PERSISTENT_SIZE;
	struct words ev;
	size_t i, len;
	char *v;
	int initcall = 0;

	if (param == KP_RESERVE_MEM) {
		len = strlen(size) + sizeof(":4096:" CRASH_INSTANCE);
		v = malloc(len);
		if (v)
			snprintf(v, len, "%s:4096:%s", size, CRASH_INSTANCE);
		return v;
	}
	words_init(&ev);
	if (route_event_names(&p->inst[0], &ev)) {
		words_free(&ev);
		return NULL;
	}
	len = sizeof(CRASH_INSTANCE "@" CRASH_INSTANCE ",initcall:*");
	for (i = 0; i < ev.n; i++) {
		len += strlen(ev.v[i]) + 1;
		initcall |= !strcmp(ev.v[i], "initcall:*");
	}
	v = malloc(len);
	if (v) {
		char *at = v + sprintf(v, "%s@%s", CRASH_INSTANCE, CRASH_INSTANCE);

		/* the initcalls first: report names the one that never finished */
		if (!initcall)
			at += sprintf(at, ",initcall:*");
		for (i = 0; i < ev.n; i++)
			at += sprintf(at, ",%s", ev.v[i]);
	}
	words_free(&ev);
	return v;
}

/* The largest power of two at most @n (ramoops rounds its sizes down so). */
static unsigned long crash_pow2(unsigned long n)
{
	unsigned long p = 1;

	while (p <= n / 2)
		p *= 2;
	return n ? p : 0;
}

/*
 * The board's pstore region split for ramoops: a quarter for the console
 * where the kernel keeps it, the rest as two records of the log's tail
 * (the last panic and the one before).
 */
static char *crash_pstore_value(const struct route *r, enum kparam param)
{
	const struct board *b = r->board;
	unsigned long size = b->pstore_size, console = 0;
	char buf[64];

	if (kcaps_opt(r->kcaps, KO_PSTORE_CONSOLE) != KO_NO)
		console = crash_pow2(size / 4);
	if (param == KP_MEMMAP)
		snprintf(buf, sizeof(buf), "0x%lx$%s", size, b->pstore_address);
	else if (param == KP_RAMOOPS_MEM_ADDRESS)
		snprintf(buf, sizeof(buf), "%s", b->pstore_address);
	else if (param == KP_RAMOOPS_MEM_SIZE)
		snprintf(buf, sizeof(buf), "0x%lx", size);
	else if (param == KP_RAMOOPS_CONSOLE_SIZE)
		snprintf(buf, sizeof(buf), "0x%lx", console);
	else
		snprintf(buf, sizeof(buf), "0x%lx", crash_pow2((size - console) / 2));
	return strdup(buf);
}

/* The value of @row's word; malloc'd, NULL when out of memory. */
static char *crash_value(const struct route *r, const struct crash_row *row)
{
	const struct plan_crash *c = &r->plan->crash;
	char buf[32];

	switch (row->set) {
	case CS_DUMP:
		return strdup(CRASH_CONSOLE_BUF);
	case CS_REBOOT:
		return strdup(c->reboot.text ? c->reboot.text : CRASH_REBOOT);
	case CS_OOPS:
		return strdup("panic");
	case CS_HANG:
		return strdup("1");
	case CS_HANG_SECONDS: {
		unsigned long s = strtoul(c->hang_seconds.text, NULL, 10);

		/* the soft-lockup watchdog reports after twice its threshold */
		if (row->param == KP_WATCHDOG_THRESH)
			s = (s + 1) / 2;
		/*
		 * A spinning CPU is both a soft lockup and an RCU stall: the
		 * stall comes half as late again, so that the soft lockup,
		 * which names the task, panics first (docs/kernel-facts.md 40).
		 */
		if (row->param == KP_RCU_CPU_STALL_TIMEOUT)
			s = s + s / 2 > 300 ? 300 : s + s / 2;
		snprintf(buf, sizeof(buf), "%lu", s);
		return strdup(buf);
	}
	case CS_PERSISTENT:
		return crash_persistent_value(r, row->param);
	case CS_PSTORE:
	case CS_PSTORE_MEMMAP:
		return crash_pstore_value(r, row->param);
	}
	return NULL;
}

/* The word of @row at @node, on the bootloader's line when it is early. */
static int crash_word(struct route *r, const struct crash_row *row, int node,
		      struct bt_error *e)
{
	const struct kparam_info *k = kparam_get(row->param);
	struct words *out = r->out;
	int to_bconf = r->to_bconf, ret;
	char *v = crash_value(r, row);

	if (!v)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (k->early && to_bconf) {
		route_note(r, "%s= is read before the bootconfig's kernel.* words exist: it stays on the bootloader's line", k->name);
		r->out = &r->words;
		r->to_bconf = 0;
	}
	route_note(r, "%s=%s: %s", k->name, v, row->does);
	ret = route_word(r, k->name, v, node, e);
	r->out = out;
	r->to_bconf = to_bconf;
	free(v);
	return ret;
}

/* The crash mode a row serves, for messages. */
static const char *crash_mode_of(const struct crash_row *row)
{
	return row->set == CS_PERSISTENT ? "persistent" :
	       row->set == CS_PSTORE || row->set == CS_PSTORE_MEMMAP ? "pstore" : "console";
}

/* May @row's word go out? 0 to leave it out (said why), -1 refused. */
static int crash_row_ok(struct route *r, const struct crash_row *row, int node,
			struct bt_error *e)
{
	const struct plan *p = r->plan;
	const struct kparam_info *k = kparam_get(row->param);

	if (crash_user_has(p, k->name)) {
		route_note(r, "%s: you set it yourself, your value is kept", k->name);
		return 0;
	}
	if (row->set == CS_DUMP && p->inst[0].buffer_size.text)
		return 0;	/* the user's buffer size goes out as written */
	if (k->needs != KO_NOPT && kcaps_opt(r->kcaps, k->needs) == KO_NO) {
		if (row->must)
			return route_refuse(r, node, e, "boottrace.crash = %s needs %s, which is not set in %s", crash_mode_of(row), kcaps_opt_name(k->needs), r->kcaps->config_path) ? -1 : 0;
		route_warn(r, node, "%s is not set in %s: %s= is left out, so this does not happen: %s",
			   kcaps_opt_name(k->needs), r->kcaps->config_path, k->name, row->does);
		return 0;
	}
	if (kcaps_has(r->kcaps, k->since) == 0) {
		if (row->must)
			return route_need(r, k->since, node, k->name, e) < 0 ? -1 : 0;
		route_warn(r, node, "%s= needs kernel %s or later (the target is %s): left out, so this does not happen: %s",
			   k->name, kcaps_since(k->since), kcaps_name(r->kcaps), row->does);
		return 0;
	}
	return 1;
}

/*
 * Can the target keep a persistent instance? 1 yes, 0 dropped
 * (--allow-drop), -1 refused; what it cannot carry is said.
 */
static int crash_persistent_check(struct route *r, int node, struct bt_error *e)
{
	const struct plan *p = r->plan;
	size_t i;
	int have = route_need(r, KF_PERSISTENT_RB, node, "boottrace.crash = persistent (a trace instance that survives a warm reboot)", e);

	if (have <= 0)
		return have;

	for (i = 1; i < p->ninst; i++)
		if (!strcmp(p->inst[i].name, CRASH_INSTANCE))
			return plan_error(p, p->inst[i].node, e, "the instance '%s' is the one boottrace.crash = persistent makes: name yours differently", CRASH_INSTANCE);
	if (p->inst[0].tracer.text)
		route_warn(r, node, "boottrace.crash = persistent: the instance records events only (the command line cannot give an instance a tracer), so the %s tracer's calls are in the global buffer, which a console dump or the hook reads",
			   p->inst[0].tracer.text);
	if (p->crash.reboot.text && !strcmp(p->crash.reboot.text, "0"))
		route_warn(r, p->crash.reboot.node, "boottrace.crash_reboot = 0: a panicked board waits forever, and only a warm reset (a watchdog, a hand) keeps the persistent trace for the next boot");
	return 1;
}

/*
 * Can the board keep a pstore log? 1 yes, 0 dropped (--allow-drop), -1
 * refused; a ramoops built as a module is said to miss early crashes.
 */
static int crash_pstore_check(struct route *r, int node, struct bt_error *e)
{
	const struct board *b = r->board;

	if (!b || !b->pstore_address[0])
		return route_refuse(r, node, e, "boottrace.crash = pstore needs the board's RAM that survives a warm reboot: give -b BOARD whose profile has board.pstore.address, size and reserve (boottrace.bconf(5))") ? -1 : 0;
	if (!strcmp(b->pstore_reserve, "memmap") && strcmp(b->arch, "x86_64") && strcmp(b->arch, "x86"))
		return route_refuse(r, node, e, "boottrace.crash = pstore: board %s reserves its pstore RAM with memmap=SIZE$ADDR, which only x86 kernels read; reserve it in the device tree (a ramoops reserved-memory node) and set board.pstore.reserve = firmware", b->name) ? -1 : 0;
	if (kcaps_opt(r->kcaps, KO_PSTORE_RAM) == KO_YES && r->kcaps->module[KO_PSTORE_RAM])
		route_warn(r, node, "CONFIG_PSTORE_RAM=m in %s: ramoops keeps nothing until it is loaded; the hook loads it first thing in the initramfs (it finds ramoops.mem_address on the line), so a crash before the initramfs is not kept: build it in (=y) for those",
			   r->kcaps->config_path);
	return 1;
}

/* The hang words: at least one must be there, or the setting does nothing. */
static int crash_hang_check(struct route *r, int node, size_t made,
			    struct bt_error *e)
{
	const struct plan *p = r->plan;

	if (!made)
		return route_refuse(r, node, e, "boottrace.hang = panic: the target kernel has none of the detectors that turn a hang into a panic (CONFIG_SOFTLOCKUP_DETECTOR, CONFIG_DETECT_HUNG_TASK, CONFIG_RCU_STALL_COMMON)") ? -1 : 0;
	if (!p->crash.modes.n && !p->dump_on_oops.text)
		route_warn(r, node, "boottrace.hang = panic without boottrace.crash: the panic ends the boot and nothing keeps the trace; add boottrace.crash = console (or persistent on 6.12+)");
	return 0;
}

/* With a console dump: the port the dump is printed on. */
static int crash_console(struct route *r, int node, struct bt_error *e)
{
	const struct plan *p = r->plan;
	const struct board *b = r->board;
	const char *name = kparam_name(KP_CONSOLE);
	char word[32];

	/* the board's own console= counts wherever its line has one */
	snprintf(word, sizeof(word), "%s=", name);
	if (crash_user_has(p, name) || (b && strstr(b->cmdline_base, word)))
		return 0;
	if (!b || !b->console[0]) {
		route_warn(r, node, "boottrace.crash = console: the dump goes to the kernel's consoles; give kernel.console = the port you capture (the board profile names none)");
		return 0;
	}
	route_note(r, "console=%s: the board's serial console, where the dump is printed", b->console);
	return route_word(r, name, b->console, node, e);
}

int route_crash(struct route *r, struct bt_error *e)
{
	const struct plan *p = r->plan;
	size_t i, hang = 0;
	int node, ok, persistent = 0, pstore = 0;

	node = crash_set_node(r, CS_DUMP);
	if (node >= 0 && !p->dump_on_oops.text) {
		route_note(r, "ftrace_dump_on_oops: the kernel prints every CPU's trace on the console (and into its log, which pstore keeps) when it oopses or panics");
		if (route_word(r, kparam_name(KP_FTRACE_DUMP_ON_OOPS), NULL, node, e))
			return -1;
	}
	node = plan_crash_mode(p, "console");
	if (node >= 0 && crash_console(r, node, e))
		return -1;
	node = crash_set_node(r, CS_PERSISTENT);
	if (node >= 0 && (persistent = crash_persistent_check(r, node, e)) < 0)
		return -1;
	node = crash_set_node(r, CS_PSTORE);
	if (node >= 0 && (pstore = crash_pstore_check(r, node, e)) < 0)
		return -1;
	for (i = 0; i < NROWS; i++) {
		const struct crash_row *row = &crash_rows[i];

		node = crash_set_node(r, row->set);
		if (node < 0 || (row->set == CS_PERSISTENT && !persistent) ||
		    ((row->set == CS_PSTORE || row->set == CS_PSTORE_MEMMAP) && !pstore))
			continue;
		ok = crash_row_ok(r, row, node, e);
		if (ok < 0)
			return -1;
		if (ok && crash_word(r, row, node, e))
			return -1;
		hang += ok && row->set == CS_HANG && kparam_get(row->param)->needs != KO_NOPT;
	}
	node = crash_set_node(r, CS_HANG);
	return node >= 0 ? crash_hang_check(r, node, hang, e) : 0;
}
