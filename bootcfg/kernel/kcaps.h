/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a target kernel can do, from its version (-k) and/or its .config
 * (--kernel-config). Every fact names the version that brought it, so that
 * a refusal can say "needs 5.18 or later".
 */
#ifndef BT_KCAPS_H
#define BT_KCAPS_H

#include "util/bt_error.h"

#define KVER(a, b) ((a) * 256 + (b))

/* A kernel's features; the version each one needs is in kcaps.c. */
enum kfeat {
	KF_BASE,		/* older than every kernel boottrace targets */
	KF_BOOTCONFIG,		/* bootconfig in the initrd (5.6) */
	KF_BOOTTIME_TRACING,	/* ftrace.* keys applied (5.6) */
	KF_BCONF_OVERRIDE,	/* ':=' (5.9) */
	KF_BCONF_HIST,		/* ftrace.*.hist (5.15) */
	KF_BCONF_MIXED,		/* a key with a value and subkeys (5.14) */
	KF_BCONF_EMBED,		/* CONFIG_BOOT_CONFIG_EMBED (5.19) */
	KF_BCONF_FORCE,		/* CONFIG_BOOT_CONFIG_FORCE: no "bootconfig" word (6.3) */
	KF_KPROBE_EVENT,	/* kprobe_event= (5.3) */
	KF_BOOT_SNAPSHOT,	/* ftrace_boot_snapshot (5.18) */
	KF_TP_PRINTK_STOP,	/* tp_printk_stop_on_boot (5.16) */
	KF_TRACE_TRIGGER,	/* trace_trigger= (6.2) */
	KF_TRACE_INSTANCE,	/* trace_instance= (6.3) */
	KF_INIT_TRACING,	/* __init functions of the core traceable (4.13) */
	KF_TRACE_OPTIONS,	/* trace_options= (3.8) */
	KF_TRACE_EVENT,		/* trace_event= (3.19) */
	KF_TP_PRINTK,		/* tp_printk (3.19) */
	KF_FGRAPH_MAX_DEPTH,	/* ftrace_graph_max_depth= (4.11) */
	KF_SYSCTL_CMDLINE,	/* sysctl.KEY=VALUE words (5.8) */
	KF_RESERVE_MEM,		/* reserve_mem=SIZE:ALIGN:LABEL (6.11) */
	KF_PERSISTENT_RB,	/* trace_instance=NAME@LABEL survives a warm reboot (6.12) */
	KF_NFEAT
};

/* Kernel options that tracing settings need (CONFIG_...). */
enum kopt {
	KO_BOOT_CONFIG,
	KO_BOOTTIME_TRACING,
	KO_BOOT_CONFIG_FORCE,
	KO_FUNCTION_TRACER,
	KO_FUNCTION_GRAPH_TRACER,
	KO_DYNAMIC_FTRACE,
	KO_KPROBE_EVENTS,
	KO_SYNTH_EVENTS,
	KO_HIST_TRIGGERS,
	KO_TRACER_SNAPSHOT,
	KO_STACK_TRACER,
	KO_MODULES,
	/* For boottrace check (check_config.c): */
	KO_FTRACE,
	KO_HAVE_FUNCTION_TRACER,
	KO_STACKTRACE,
	KO_KPROBES,
	KO_UNWINDER_ORC,
	KO_UNWINDER_FRAME_POINTER,
	KO_UNWINDER_GUESS,
	KO_FRAME_POINTER,
	KO_MIPS,
	/* The trace clock may switch at boot (route_clock.c): */
	KO_HAVE_UNSTABLE_SCHED_CLOCK,
	/* A hang that becomes a panic (compile/route_crash.c): */
	KO_SOFTLOCKUP_DETECTOR,
	KO_DETECT_HUNG_TASK,
	KO_RCU_STALL_COMMON,
	/* The kernel's log in RAM that survives a warm reboot (pstore): */
	KO_PSTORE_RAM,
	KO_PSTORE_CONSOLE,
	KO_PSTORE_FTRACE,
	/* The other tracers (kernel/tracers.c): */
	KO_IRQSOFF_TRACER,
	KO_PREEMPT_TRACER,
	KO_SCHED_TRACER,
	KO_HWLAT_TRACER,
	KO_OSNOISE_TRACER,
	KO_TIMERLAT_TRACER,
	KO_MMIOTRACE,
	KO_BLK_DEV_IO_TRACE,
	KO_BRANCH_TRACER,
	KO_NOPT
};

enum kopt_state { KO_UNKNOWN = 0, KO_NO, KO_YES };

struct kcaps {
	int version;		/* KVER(major, minor), 0 = unknown */
	char version_text[32];	/* as given, for messages */
	const char *config_path;	/* NULL = no .config; else the caller's name of it */
	char config_release[64];	/* its header's release ("6.1.0"), "" if none */
	char config_name[4160];	/* config_path of kcaps_load_config_text */
	enum kopt_state opt[KO_NOPT];
	/* KO_YES as a module (=m): there only once something loads it. */
	unsigned char module[KO_NOPT];
	/*
	 * --kernel IMAGE: the boot parameters its own table holds ("ftrace=",
	 * "tp_printk"; kimage/kimg_params.c), the caller's; NULL: not known.
	 */
	const char *image_path;
	char *const *image_params;
	size_t nimage_params;
	/*
	 * The tracers whose code the kernel's symbols hold: bit i for entry i
	 * of kernel/tracers.c's table (ktracer_witness); tracers_from names
	 * the symbols (the image, a vmlinux, a System.map), NULL: not known.
	 */
	unsigned long image_tracers;
	const char *tracers_from;
};

/* Parse "6.1", "5.10.0-28-amd64", "v4.9" into @k. */
int kcaps_set_version(struct kcaps *k, const char *text, struct bt_error *e);
/*
 * Read a kernel .config; takes the version from its header
 * ("# Linux/x86 6.1.0 Kernel Configuration") when none was set.
 */
int kcaps_load_config(struct kcaps *k, const char *path, struct bt_error *e);
/*
 * The same from @text (@len bytes; the .config kept in a kernel image),
 * @name for messages and config_path (copied to config_name).
 */
int kcaps_load_config_text(struct kcaps *k, const char *text, size_t len,
			   const char *name, struct bt_error *e);

/*
 * What @from knows of its .config into @to (empty): the options, the
 * release and the file's name, and the version from the release only (as
 * a .config read by itself gives it, whatever -k @from had).
 */
void kcaps_copy_config(struct kcaps *to, const struct kcaps *from);

/* 1 has, 0 has not, -1 unknown (no version given). */
int kcaps_has(const struct kcaps *k, enum kfeat f);
/*
 * Does the image's table hold the boot parameter @name ("ftrace": its
 * "ftrace=" or "ftrace"; '-' and '_' alike, as the kernel's parameq)?
 * 1, 0, or -1 when no image's table is known.
 */
int kcaps_image_param(const struct kcaps *k, const char *name);
/* The version that brought @f, "5.6" style. */
const char *kcaps_since(enum kfeat f);
enum kopt_state kcaps_opt(const struct kcaps *k, enum kopt o);
const char *kcaps_opt_name(enum kopt o);
/* The node limit of the kernel's bootconfig parser. */
int kcaps_node_max(const struct kcaps *k);
/* "6.1" or "an unknown kernel" for messages. */
const char *kcaps_name(const struct kcaps *k);

#endif /* BT_KCAPS_H */
