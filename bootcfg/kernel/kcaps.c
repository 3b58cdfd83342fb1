/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel capabilities by version and .config (kcaps.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kcaps.h"
#include "util/readfile.h"

struct kfeat_info {
	int since;
	const char *text;
};

/* Versions from the kernel's history (docs/kernel-facts.md 13). */
static const struct kfeat_info kfeats[KF_NFEAT] = {
	[KF_BASE] = { 0, "any" },
	[KF_BOOTCONFIG] = { KVER(5, 6), "5.6" },
	[KF_BOOTTIME_TRACING] = { KVER(5, 6), "5.6" },
	[KF_BCONF_OVERRIDE] = { KVER(5, 9), "5.9" },
	[KF_BCONF_HIST] = { KVER(5, 15), "5.15" },
	[KF_BCONF_MIXED] = { KVER(5, 14), "5.14" },
	[KF_BCONF_EMBED] = { KVER(5, 19), "5.19" },
	[KF_BCONF_FORCE] = { KVER(6, 3), "6.3" },
	[KF_KPROBE_EVENT] = { KVER(5, 3), "5.3" },
	[KF_BOOT_SNAPSHOT] = { KVER(5, 18), "5.18" },
	[KF_TP_PRINTK_STOP] = { KVER(5, 16), "5.16" },
	[KF_TRACE_TRIGGER] = { KVER(6, 2), "6.2" },
	[KF_TRACE_INSTANCE] = { KVER(6, 3), "6.3" },
	[KF_INIT_TRACING] = { KVER(4, 13), "4.13" },
	[KF_TRACE_OPTIONS] = { KVER(3, 8), "3.8" },
	[KF_TRACE_EVENT] = { KVER(3, 19), "3.19" },
	[KF_TP_PRINTK] = { KVER(3, 19), "3.19" },
	[KF_FGRAPH_MAX_DEPTH] = { KVER(4, 11), "4.11" },
	[KF_SYSCTL_CMDLINE] = { KVER(5, 8), "5.8" },
	[KF_RESERVE_MEM] = { KVER(6, 11), "6.11" },
	[KF_PERSISTENT_RB] = { KVER(6, 12), "6.12" },
};

static const char *const kopt_names[KO_NOPT] = {
	[KO_BOOT_CONFIG] = "CONFIG_BOOT_CONFIG",
	[KO_BOOTTIME_TRACING] = "CONFIG_BOOTTIME_TRACING",
	[KO_BOOT_CONFIG_FORCE] = "CONFIG_BOOT_CONFIG_FORCE",
	[KO_FUNCTION_TRACER] = "CONFIG_FUNCTION_TRACER",
	[KO_FUNCTION_GRAPH_TRACER] = "CONFIG_FUNCTION_GRAPH_TRACER",
	[KO_DYNAMIC_FTRACE] = "CONFIG_DYNAMIC_FTRACE",
	[KO_KPROBE_EVENTS] = "CONFIG_KPROBE_EVENTS",
	[KO_SYNTH_EVENTS] = "CONFIG_SYNTH_EVENTS",
	[KO_HIST_TRIGGERS] = "CONFIG_HIST_TRIGGERS",
	[KO_TRACER_SNAPSHOT] = "CONFIG_TRACER_SNAPSHOT",
	[KO_STACK_TRACER] = "CONFIG_STACK_TRACER",
	[KO_MODULES] = "CONFIG_MODULES",
	[KO_FTRACE] = "CONFIG_FTRACE",
	[KO_HAVE_FUNCTION_TRACER] = "CONFIG_HAVE_FUNCTION_TRACER",
	[KO_STACKTRACE] = "CONFIG_STACKTRACE",
	[KO_KPROBES] = "CONFIG_KPROBES",
	[KO_UNWINDER_ORC] = "CONFIG_UNWINDER_ORC",
	[KO_UNWINDER_FRAME_POINTER] = "CONFIG_UNWINDER_FRAME_POINTER",
	[KO_UNWINDER_GUESS] = "CONFIG_UNWINDER_GUESS",
	[KO_FRAME_POINTER] = "CONFIG_FRAME_POINTER",
	[KO_MIPS] = "CONFIG_MIPS",
	[KO_HAVE_UNSTABLE_SCHED_CLOCK] = "CONFIG_HAVE_UNSTABLE_SCHED_CLOCK",
	[KO_SOFTLOCKUP_DETECTOR] = "CONFIG_SOFTLOCKUP_DETECTOR",
	[KO_DETECT_HUNG_TASK] = "CONFIG_DETECT_HUNG_TASK",
	[KO_RCU_STALL_COMMON] = "CONFIG_RCU_STALL_COMMON",
	[KO_PSTORE_RAM] = "CONFIG_PSTORE_RAM",
	[KO_PSTORE_CONSOLE] = "CONFIG_PSTORE_CONSOLE",
	[KO_PSTORE_FTRACE] = "CONFIG_PSTORE_FTRACE",
	[KO_IRQSOFF_TRACER] = "CONFIG_IRQSOFF_TRACER",
	[KO_PREEMPT_TRACER] = "CONFIG_PREEMPT_TRACER",
	[KO_SCHED_TRACER] = "CONFIG_SCHED_TRACER",
	[KO_HWLAT_TRACER] = "CONFIG_HWLAT_TRACER",
	[KO_OSNOISE_TRACER] = "CONFIG_OSNOISE_TRACER",
	[KO_TIMERLAT_TRACER] = "CONFIG_TIMERLAT_TRACER",
	[KO_MMIOTRACE] = "CONFIG_MMIOTRACE",
	[KO_BLK_DEV_IO_TRACE] = "CONFIG_BLK_DEV_IO_TRACE",
	[KO_BRANCH_TRACER] = "CONFIG_BRANCH_TRACER",
};

/* "v6.1.0-18-amd64" -> KVER(6, 1); 0 if it does not start with N.N. */
static int kcaps_parse_version(const char *s)
{
	char *end;
	long major, minor;

	if (*s == 'v' || *s == 'V')
		s++;
	if (!isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	major = strtol(s, &end, 10);
	if (*end != '.' || !isdigit((unsigned char)end[1]) || errno)
		return 0;
	minor = strtol(end + 1, &end, 10);
	if (*end && *end != '.' && *end != '-' && *end != '+' && *end != '~')
		return 0;
	if (major < 2 || major > 99 || minor > 255)
		return 0;
	return KVER((int)major, (int)minor);
}

int kcaps_set_version(struct kcaps *k, const char *text, struct bt_error *e)
{
	int v = kcaps_parse_version(text);

	if (!v)
		return bt_error_set(e, BT_EXIT_USAGE, NULL,
				    "kernel version '%s' is not MAJOR.MINOR (e.g. -k 6.1 or -k 5.10.0-28-amd64)", text);
	k->version = v;
	snprintf(k->version_text, sizeof(k->version_text), "%d.%d", v / 256,
		 v % 256);
	return 0;
}

/* "# Linux/x86 6.1.0 Kernel Configuration": the release, and the version when none was set */
static void kcaps_config_header(struct kcaps *k, const char *line)
{
	const char *sp;
	size_t n;

	if (k->config_release[0] || strncmp(line, "# Linux/", 8))
		return;
	sp = strchr(line + 8, ' ');
	if (!sp)
		return;
	n = strcspn(sp + 1, " ");
	if (n >= sizeof(k->config_release))
		n = sizeof(k->config_release) - 1;
	memcpy(k->config_release, sp + 1, n);
	k->config_release[n] = '\0';
	if (!k->version)
		kcaps_set_version(k, sp + 1, NULL);
}

static void kcaps_config_line(struct kcaps *k, const char *line)
{
	size_t i, n;

	for (i = 0; i < KO_NOPT; i++) {
		n = strlen(kopt_names[i]);
		if (!strncmp(line, kopt_names[i], n) && line[n] == '=') {
			k->opt[i] = (line[n + 1] == 'y' || line[n + 1] == 'm') ?
				    KO_YES : KO_NO;
			k->module[i] = line[n + 1] == 'm';
		}
		else if (!strncmp(line, "# ", 2) &&
			 !strncmp(line + 2, kopt_names[i], n) &&
			 !strcmp(line + 2 + n, " is not set"))
			k->opt[i] = KO_NO;
	}
}

/* The lines of a .config; @name: its name, which config_path keeps. */
static int kcaps_parse_config(struct kcaps *k, const char *text, size_t len,
			      const char *name, struct bt_error *e)
{
	char line[512];
	size_t i = 0, n;
	int lineno = 0, seen = 0;

	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) : len;

		/* a longer line is no option of kopt_names: its start is enough */
		n = end - i < sizeof(line) ? end - i : sizeof(line) - 1;
		memcpy(line, text + i, n);
		line[n] = '\0';
		if (memchr(line, '\0', n))
			return bt_error_set(e, BT_EXIT_INPUT, name, "line %d: a NUL byte: not a kernel .config (give the build's .config or /boot/config-VERSION)", lineno + 1);
		i = end + 1;
		lineno++;
		kcaps_config_header(k, line);
		if (!strncmp(line, "CONFIG_", 7) || !strncmp(line, "# CONFIG_", 9))
			seen = 1;
		kcaps_config_line(k, line);
	}
	if (!seen)
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "no CONFIG_ line in %d line(s): not a kernel .config (give the build's .config or /boot/config-VERSION)", lineno);
	/* A .config lists every option it knows; absent ones are off. */
	for (n = 0; n < KO_NOPT; n++)
		if (k->opt[n] == KO_UNKNOWN)
			k->opt[n] = KO_NO;
	k->config_path = name;
	return 0;
}

int kcaps_load_config_text(struct kcaps *k, const char *text, size_t len,
			   const char *name, struct bt_error *e)
{
	snprintf(k->config_name, sizeof(k->config_name), "%s", name);
	return kcaps_parse_config(k, text, len, k->config_name, e);
}

int kcaps_load_config(struct kcaps *k, const char *path, struct bt_error *e)
{
	size_t len;
	/* a regular file only: never a FIFO, a device or standard input */
	char *text = readfile(path, RF_KCONFIG_MAX, RF_REGULAR, "a kernel .config", &len, e);
	int r;

	if (!text)
		return -1;
	r = kcaps_parse_config(k, text, len, path, e);
	free(text);
	return r;
}

void kcaps_copy_config(struct kcaps *to, const struct kcaps *from)
{
	memcpy(to->opt, from->opt, sizeof(to->opt));
	memcpy(to->module, from->module, sizeof(to->module));
	memcpy(to->config_release, from->config_release, sizeof(to->config_release));
	snprintf(to->config_name, sizeof(to->config_name), "%s",
		 from->config_path ? from->config_path : "");
	to->config_path = from->config_path ? to->config_name : NULL;
	if (to->config_release[0])
		kcaps_set_version(to, to->config_release, NULL);
}

int kcaps_has(const struct kcaps *k, enum kfeat f)
{
	if (!k->version)
		return -1;
	return k->version >= kfeats[f].since;
}

const char *kcaps_since(enum kfeat f)
{
	return kfeats[f].text;
}

enum kopt_state kcaps_opt(const struct kcaps *k, enum kopt o)
{
	return k->opt[o];
}

const char *kcaps_opt_name(enum kopt o)
{
	return kopt_names[o];
}

/*
 * XBC_NODE_MAX was 1024 and became 8192 in 6.3 (backported to 6.1.y, as
 * in Debian's 6.1). For an unknown version the safe bound is 1024.
 */
int kcaps_node_max(const struct kcaps *k)
{
	if (k->version >= KVER(6, 1))
		return 8192;
	return 1024;
}

const char *kcaps_name(const struct kcaps *k)
{
	return k->version ? k->version_text : "an unknown kernel";
}

/* '-' and '_' alike, as the kernel's parameq. */
static int param_eq(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((a[i] == '-' ? '_' : a[i]) != (b[i] == '-' ? '_' : b[i]))
			return 0;
	return 1;
}

int kcaps_image_param(const struct kcaps *k, const char *name)
{
	size_t i, n = strlen(name);

	if (!k->image_params)
		return -1;
	for (i = 0; i < k->nimage_params; i++) {
		const char *p = k->image_params[i];
		size_t m = strlen(p);

		if (m && p[m - 1] == '=')
			m--;
		if (m == n && param_eq(p, name, n))
			return 1;
	}
	return 0;
}
