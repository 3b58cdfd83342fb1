/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The config for a who-calls question (whocalls.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/textbuf.h"
#include "compile/whocalls.h"
#include "kernel/ask.h"
#include "kernel/fetcharg.h"
#include "plan/plan.h"

/* A function name, optionally FUNC:mod:MODULE; nothing the kernel would split. */
static int whocalls_valid(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.' &&
		    s[i] != ':' && s[i] != '*' && s[i] != '-')
			return 0;
	return 1;
}

/* Append each item of "a,b" as a quoted array element to @core or @mods. */
static int whocalls_split(const char *list, struct textbuf *core,
			  struct textbuf *mods, const char *opt,
			  struct bt_error *e)
{
	const char *s = list, *c;
	size_t n;

	for (;;) {
		c = strchr(s, ',');
		n = c ? (size_t)(c - s) : strlen(s);
		if (!whocalls_valid(s, n))
			return bt_error_set(e, BT_EXIT_USAGE, NULL, "%s: '%.*s' is not a function name (FUNC or FUNC:mod:MODULE)", opt, (int)n, s);
		{
			struct textbuf *t = memmem(s, n, ":mod:", 5) ? mods : core;

			textbuf_printf(t, "%s\"%.*s\"", t->len ? ", " : "", (int)n, s);
		}
		if (!c)
			return 0;
		s = c + 1;
	}
}

/*
 * Parent-chain mode with no callers to trace (no --callers, and no
 * --vmlinux/--modules to find them): only @funcs is traced, so the boot
 * shows its direct callers and nothing above them. Say so, with the cost.
 */
static void whocalls_no_callers(const char *funcs, const struct board *b)
{
	bt_say(NULL, BT_SAY_WARN, "--who-calls: board %s has no ftrace stacks (parent-chain mode), and without --callers, --vmlinux or --modules no callers of %s could be found: only %s itself is traced, so this boot shows its direct callers only and each further level of callers costs one more reboot (add the callers it shows with --callers and boot again); give --vmlinux VMLINUX (the build tree's, or /usr/lib/debug/boot/vmlinux-VER of the linux-image-VER-dbg package) and/or --modules /lib/modules/VER to find the whole chain for one boot, or --callers F,G:mod:M",
	       b->name, funcs, funcs);
}

/*
 * Does the half of board @b's line that is not kept for callers hold the
 * core words (ftrace=, its filter, options, clock, enable) and @cost
 * bytes more? Always in a bootconfig (@bootconfig).
 */
static int whocalls_room(const struct board *b, int bootconfig, size_t cost)
{
	const size_t core = 160;
	size_t half = (b->cmdline_max - b->cmdline_loader) / 2;

	return bootconfig || half >= core + cost;
}

int whocalls_lineage_fits(const struct board *b, int bootconfig)
{
	if (whocalls_room(b, bootconfig, plan_lineage_cost()))
		return 1;
	bt_say(NULL, BT_SAY_WARN, "--who-calls: board %s's command line holds %u bytes, and half of it is kept for callers: the lineage events (%zu bytes) and sym-offset are left out, so the report will not name the program behind each call nor check the names of module init code; -t bootconfig carries them in the initrd",
	       b->name, b->cmdline_max - b->cmdline_loader - 1, plan_lineage_cost());
	return 0;
}

int whocalls_ask_fits(const struct board *b, int bootconfig, int creates,
		      const char *object)
{
	/* " boottrace.ask=KIND:OBJECT boottrace.follow=1" */
	size_t cost = strlen(" " BT_ASK_PARAM "=:") + strlen(object) +
		      strlen(bt_ask_kind_name(creates ? BT_ASK_CREATES : BT_ASK_CALLS)) +
		      strlen(" boottrace.follow=1");

	if (whocalls_room(b, bootconfig, cost))
		return 1;
	bt_say(NULL, BT_SAY_WARN, "--who-calls: board %s's command line holds %u bytes, and half of it is kept for callers: the question's words %s and boottrace.follow (%zu bytes) are left out, so the trace ends at the initramfs snapshot and the report will not say first which question it answers nor whether its window holds the answer; -t bootconfig carries them (the kernel adds them to /proc/cmdline)",
	       b->name, b->cmdline_max - b->cmdline_loader - 1, BT_ASK_PARAM, cost);
	return 0;
}

/*
 * The kprobe of @probe on @func, checked: one function of the kernel's own
 * (a boot kprobe cannot wait for a module), each argument as the kernel
 * parses it on the board's arch (kernel/fetcharg.h), nothing the config's
 * quoted value or kprobe_event= would split.
 */
static int whocalls_probe_check(const char *func, const struct whocalls_probe *probe,
				const struct board *b, const struct kcaps *k,
				struct bt_error *e)
{
	size_t i;

	if (strchr(func, ',') || strstr(func, ":mod:"))
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--arg: '%s': a boot kprobe goes on one function of the kernel's own (FUNC, not a list or FUNC:mod:MODULE): give --who-calls FUNC with its --arg, and the others in a second boot", func);
	for (i = 0; i < probe->nargs; i++) {
		const char *a = probe->args[i], *q = strpbrk(a, "\"'#{}");

		if (q) {
			bt_error_set(e, BT_EXIT_USAGE, a, "--arg: '%c' cannot go into the config's quoted probe: fetch without it", *q);
			e->off = q - a;
			return -1;
		}
		if (fetcharg_check(a, b->arch, k, e)) {
			char msg[sizeof(e->msg)];

			memcpy(msg, e->msg, sizeof(msg));
			snprintf(e->msg, sizeof(e->msg), "--arg: %.*s",
				 (int)sizeof(msg) - 8, msg);
			return -1;
		}
		if (!fetcharg_family(b->arch) && strchr(a, '%'))
			bt_say(NULL, BT_SAY_WARN, "--arg %s: board %s's arch (%s) is not one whose register names boottrace knows: the register is not checked, and a wrong one fails the whole kprobe_event= at boot", a, b->name, b->arch);
	}
	return 0;
}

/* The event's name: bt_FUNC, with '_' for what an event name cannot hold. */
static void whocalls_probe_event(const char *func, char *ev, size_t cap)
{
	size_t i;

	snprintf(ev, cap, "bt_%s", func);
	for (i = 3; ev[i]; i++)
		if (!isalnum((unsigned char)ev[i]))
			ev[i] = '_';
}

static void whocalls_probe_config(struct textbuf *out, const char *func,
				  const struct whocalls_probe *probe)
{
	char ev[64];
	size_t i;

	whocalls_probe_event(func, ev, sizeof(ev));
	textbuf_printf(out, "# %s: a kprobe on %s records, at each call's entry,\n"
		       "# what the call is about; report shows it with the culprit. Boot kprobes\n"
		       "# start later than the function tracer: calls before the kprobe's first hit\n"
		       "# are traced but not probed (docs/kernel-facts.md 82).\n",
		       probe->object ? "The object" : "Arguments", func);
	textbuf_printf(out, "ftrace.event.kprobes.%s.probes = \"%s", ev, func);
	for (i = 0; i < probe->nargs; i++)
		textbuf_printf(out, " %s", probe->args[i]);
	textbuf_printf(out, "\"\nftrace.event.kprobes.%s.enable\n", ev);
}

int whocalls_creates(const char *netdev, const struct board *b, char *arg,
		     size_t cap, struct bt_error *e)
{
	const char *reg = fetcharg_arg_reg(b->arch, 1);
	size_t n = strlen(netdev);

	/* dev_valid_name(): IFNAMSIZ-1 bytes, no '/', ':' or blank */
	if (!n || n > 15 || strpbrk(netdev, "/: \t\n") || !strcmp(netdev, ".") ||
	    !strcmp(netdev, ".."))
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--who-creates '%s': a network device's name is 1 to 15 bytes with no '/', ':' or blank (e.g. bond0, eth0)", netdev);
	if (!reg)
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--who-creates: board %s's arch (%s) is not one whose first-argument register boottrace knows (x86_64, arm64, riscv, arm, mips, s390): %sgive --who-calls register_netdevice --arg name=+0(%%REG):string with the register your arch passes a function's first argument in",
				    b->name, b->arch, !strcmp(b->name, "generic") ? "give -b BOARD, or " : "");
	snprintf(arg, cap, "name=+0(%%%s):string", reg);
	return 0;
}

/*
 * The question and where tracing ends: boottrace.ask names it, so that
 * report can say first whether its window holds the answer, and
 * boottrace.follow = 1 keeps tracing past the initramfs snapshot. Both
 * questions need that: a device is often created after the switch to the
 * real root (systemd-networkd from a .netdev, udev, a service's script),
 * and a function is called there as well; the filter keeps the live part
 * to the asked calls (and their callers in parent-chain mode), and the
 * initramfs snapshot is made as before, so a boot without `boottrace
 * collect` loses nothing it had. A user's own config keeps its own choice.
 */
static int whocalls_ask(struct textbuf *out, const struct whocalls_probe *probe,
			const char *funcs, int ask, struct bt_error *e)
{
	enum bt_ask_kind kind = probe && probe->object ? BT_ASK_CREATES : BT_ASK_CALLS;
	const char *object = kind == BT_ASK_CREATES ? probe->object : funcs;
	char v[BT_ASK_OBJECT_MAX + 32];
	const char *why;
	struct bt_ask a;
	size_t off;

	snprintf(v, sizeof(v), "%s:%s", bt_ask_kind_name(kind), object);
	if (strlen(object) > BT_ASK_OBJECT_MAX || bt_ask_parse(v, &a, &why, &off))
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--%s '%s': the question goes on the kernel's line as %s=%s:OBJECT, and this one %s",
				    bt_ask_kind_name(kind), object, BT_ASK_PARAM, bt_ask_kind_name(kind),
				    strlen(object) > BT_ASK_OBJECT_MAX ? "is longer than 127 bytes: ask about fewer functions at once" : why);
	if (!ask)	/* the board's line has no room for them (whocalls_ask_fits) */
		return 0;
	textbuf_printf(out, "# The question travels with the boot: report reads it from the boot's command\n"
		       "# line and says first whether the trace's window can hold the answer.\n"
		       "%s = \"%s\"\n", BT_ASK_PARAM, v);
	textbuf_printf(out, "# %s:\n"
		       "# tracing goes on past the initramfs snapshot, and `boottrace collect` joins\n"
		       "# the rest of the boot into the record.\n"
		       "boottrace.follow = 1\n",
		       kind == BT_ASK_CREATES ?
		       "A device is often created after the switch to the real root\n# (systemd-networkd, udev, a service)" :
		       "The function may be called after the switch to the real root\n# too (a service, udev, systemd-networkd)");
	return 0;
}

char *whocalls_config(const char *funcs, const char *callers,
		      const struct board *b, const struct kcaps *k,
		      int lineage, int ask, const char *crash,
		      const struct whocalls_probe *probe, struct bt_error *e)
{
	struct textbuf core = { 0 }, mods = { 0 }, out = { 0 };
	int chain = b->ftrace_stack_zero;

	if (probe && !probe->nargs)
		probe = NULL;
	if (whocalls_split(funcs, &core, &mods, "--who-calls", e) ||
	    (chain && callers && whocalls_split(callers, &core, &mods,
						"--callers", e)) ||
	    (probe && whocalls_probe_check(funcs, probe, b, k, e)))
		goto fail;
	if (chain && !callers)
		whocalls_no_callers(funcs, b);
	if (probe && probe->object)
		textbuf_printf(&out, "# Who creates %s? Written by boottrace compile --who-creates for board %s, kernel %s:\n# the calls of %s, each with the device it registers.\n",
			       probe->object, b->name, kcaps_name(k), funcs);
	else
		textbuf_printf(&out, "# Who calls %s? Written by boottrace compile --who-calls for board %s, kernel %s.\n", funcs, b->name,
			       kcaps_name(k));
	if (chain) {
		textbuf_printf(&out, "# Parent-chain mode: ftrace stack traces are all zero on this board, so every\n# traced function's <-parent column gives one edge of the call chain.\n");
		if (!callers)
			textbuf_printf(&out, "# No --callers given: only the direct callers will show; add them with --callers\n# to follow the chain further.\n");
	} else {
		textbuf_printf(&out, "# func_stack_trace records the whole call stack at each hit.\n");
	}
	textbuf_printf(&out, "ftrace.tracer = function\n");
	if (core.len)
		textbuf_printf(&out, "ftrace.ftrace.filters = %s\n", core.s);
	if (mods.len)
		textbuf_printf(&out, "# Module functions: the command line cannot filter them; the hook arms them\n"
			       "# before the module loads.\n"
			       "boottrace.arm = %s\n", mods.s);
	/*
	 * sym-offset: every frame and <-parent is printed NAME+0xOFF/0xSIZE
	 * [MODULE], which report needs, with the module_load events of the
	 * lineage, to check a name read after modules reused freed init code
	 * (docs/report.md, "Names the report checks"); where the line has no
	 * room for the lineage it has none for this either.
	 */
	if (lineage)
		textbuf_printf(&out, "# sym-offset prints each name with its offset, size and [module], so that report\n"
			       "# can tell a frame of freed module init code from the module loaded there later.\n");
	if (!chain || lineage)
		textbuf_printf(&out, "ftrace.options = %s%s%s\n",
			       chain ? "" : "func_stack_trace",
			       !chain && lineage ? ", " : "",
			       lineage ? "sym-offset" : "");
	if (probe)
		whocalls_probe_config(&out, funcs, probe);
	if (whocalls_ask(&out, probe, funcs, ask, e))
		goto fail;
	if (lineage)
		textbuf_printf(&out, "# Lineage: the program behind each call and its parents, and which task loaded\n"
		       "# which module (fork, exec, exit and module_load events: about 150 bytes of\n"
		       "# buffer per process; docs/kernel-facts.md 30).\n"
		       "boottrace.lineage = on\n");
	if (crash)
		textbuf_printf(&out, "# Bring-up: a boot that panics, or hangs (which then panics), before the hook\n"
			       "# still gives its trace: %s (docs/crash.md).\n"
			       "boottrace.crash = %s\n"
			       "boottrace.hang = panic\n", !strcmp(crash, "console") ?
			       "the kernel prints it on the console, for report to read from the\n# captured log" :
			       "it survives the warm reboot in reserved memory, and the next boot's hook\n# saves it",
			       crash);
	if (core.failed || mods.failed || out.failed) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto fail;
	}
	textbuf_free(&core);
	textbuf_free(&mods);
	return out.s;
fail:
	textbuf_free(&core);
	textbuf_free(&mods);
	textbuf_free(&out);
	return NULL;
}
