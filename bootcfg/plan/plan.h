/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The trace plan: what the user asked to trace, typed, independent of how
 * it reaches the kernel. Every setting remembers its config node so that
 * a later refusal can point at FILE:LINE:COL.
 *
 * Keys are those of Documentation/trace/boottime-trace.rst (ftrace.*), the
 * legacy tracing parameters written as kernel.* (merged into the same
 * fields: one plan, whichever way it was written), other kernel.* and
 * init.* words, and boottrace.* hook settings.
 */
#ifndef BT_PLAN_H
#define BT_PLAN_H

#include <stddef.h>

#include "util/bt_error.h"
#include "util/source.h"

struct plan_val {
	const char *text;	/* NULL: not set; "" for a value-less key */
	int node;		/* key node, for errors; BCONF_NONE if not set */
};

struct plan_list {
	struct plan_val *v;
	size_t n, cap;
};

struct plan_event {
	const char *group;	/* "" with event.enable (all events) */
	const char *event;	/* "" with event.GROUP.enable */
	int node;
	int enable;
	struct plan_val filter;
	struct plan_list actions;
	int hist;		/* the hist subkey node, BCONF_NONE if none */
};

struct plan_kprobe {
	const char *event;
	int node;
	struct plan_list probes;
};

struct plan_synth {
	const char *event;
	int node;
	struct plan_list fields;
};

struct plan_inst {
	const char *name;	/* NULL for the global instance */
	int node;
	struct plan_val tracer, trace_clock, buffer_size, cpumask, tracing_on;
	struct plan_val alloc_snapshot;
	struct plan_list options, events, filters, notraces;
	struct plan_event *ev;
	size_t nev, capev;
};

/* A word passed through: kernel.KEY, init.KEY or boottrace.KEY. */
struct plan_word {
	const char *key;	/* without the "kernel."/"init."/"boottrace." */
	int node;
	struct plan_list vals;	/* empty for a value-less key */
};

/*
 * boottrace.crash, crash_reboot, hang, hang_seconds, persistent_size: get
 * the trace out of a boot that dies (compile's own keys, never the hook's;
 * compile/route_crash.c makes the kernel's words of them, docs/crash.md).
 */
struct plan_crash {
	struct plan_list modes;		/* console, persistent, pstore; or off */
	struct plan_val reboot;		/* seconds before a panicked board reboots */
	struct plan_val hang;		/* panic: a hang becomes a panic */
	struct plan_val hang_seconds;	/* how long a hang lasts before it does */
	struct plan_val persistent_size;	/* the reserved region, K or M */
};

struct plan {
	const struct source *src;
	struct plan_inst *inst;	/* inst[0] is the global instance */
	size_t ninst, capinst;
	struct plan_kprobe *kprobes;
	size_t nkprobes, capkprobes;
	struct plan_synth *synths;
	size_t nsynths, capsynths;
	struct plan_list graph_filters, graph_notraces;
	struct plan_val graph_max_depth;
	struct plan_val tp_printk, tp_printk_stop, dump_on_oops;
	struct plan_val traceoff_on_warning, boot_snapshot;
	/*
	 * boottrace.lineage: record who forked, exec'd and loaded what
	 * (plan_lineage.c adds the events; the hook never sees the key).
	 */
	struct plan_val lineage;
	struct plan_crash crash;
	/* Function filters in modules (FUNC:mod:MODULE): armed by the hook. */
	struct plan_list arm;
	struct plan_word *kernel, *init, *hook;
	size_t nkernel, ninit, nhook;
	/*
	 * verbatim.kernel / verbatim.init: words of a line the config keys
	 * cannot hold (decompile writes them), passed as written: the
	 * kernel's, and init's after "--".
	 */
	struct plan_list verbatim_kernel, verbatim_init;
	size_t capkernel, capinit, caphook;
	/* Strings the plan made (split lists); freed with the plan. */
	char **owned;
	size_t nowned, capowned;
};

/*
 * Build @p from the parsed config @src (kept by pointer: it must outlive
 * the plan). -1 with @e at the offending key, with the nearest valid key
 * suggested for a misspelt one.
 */
int plan_build(struct plan *p, const struct source *src, struct bt_error *e);
void plan_free(struct plan *p);
/* Fill @e with a message at @node of the plan's config; returns -1. */
int plan_error(const struct plan *p, int node, struct bt_error *e,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Append a value to a list (the plan owns nothing of @text). */
int plan_list_add(struct plan_list *l, const char *text, int node);
/* The candidate nearest to @word (a likely misspelling), or NULL. */
const char *plan_nearest(const char *word, const char *const *cands);
/* 1 for 1/yes/on/y/true, 0 for 0/no/off/n/false, -1 for anything else. */
int plan_flag(const char *v);
/*
 * boottrace.lineage = on: add the events that name programs and their
 * parents (fork, exec, exit, module loads; docs/kernel-facts.md 30) to the
 * global event list, each at the lineage key's place, unless already
 * there or the kernel's .config (@k) lacks what one needs. Returns the
 * number added, -1 with @e when out of memory.
 */
struct kcaps;
int plan_add_lineage(struct plan *p, const struct kcaps *k, struct bt_error *e);
/* Bytes its words take on a command line, at most. */
size_t plan_lineage_cost(void);
/* Is boottrace.lineage on? */
int plan_lineage_on(const struct plan *p);
/* Is mode @mode (console, persistent, pstore) of boottrace.crash on? Its node, or -1. */
int plan_crash_mode(const struct plan *p, const char *mode);
/* N, NK, NM or NG (as the kernel's memparse reads it) in bytes; 0 if not a size. */
unsigned long long plan_size(const char *v);
/* Is @opt a tracer-specific option (exists only while its tracer is set)? */
int plan_tracer_option(const char *opt);

#endif /* BT_PLAN_H */
