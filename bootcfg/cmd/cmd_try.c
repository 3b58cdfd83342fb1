// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottrace try: a config's tracing settings applied to the running kernel
 * in a temporary tracefs instance, each refusal reported at its config
 * position, everything removed again (bootcfg/try/, docs/try.md).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "plan/plan.h"
#include "try/try.h"
#include "util/source.h"

static int try_usage(FILE *f)
{
	fputs("usage: boottrace try [--tracefs DIR] [--hold] [--remove-stale] CONFIG\n\n"
	      "Apply every tracing setting of CONFIG that boot-time tracing would make to the\n"
	      "running kernel, in a temporary instance (instances/boottrace-try-PID; the top\n"
	      "level's fgraph filters and a tracer only it can run are saved and restored):\n"
	      "filters, events, event filters and actions, kprobe and synthetic events,\n"
	      "options, tracer. Each write the kernel refuses is reported with the kernel's\n"
	      "error and the new error_log lines, at the setting's FILE:LINE:COL. Then\n"
	      "everything added is removed, also on Ctrl-C, SIGTERM or SIGHUP.\n\n"
	      "  --tracefs DIR    the tracefs mount (default /sys/kernel/tracing, else\n"
	      "                   /sys/kernel/debug/tracing)\n"
	      "  --hold           keep the applied state until Ctrl-C (SIGINT, SIGTERM,\n"
	      "                   SIGHUP), then undo it: watch the trace meanwhile\n"
	      "  --remove-stale   remove boottrace-try-* instances of runs that are gone\n"
	      "                   (default: say so and leave them)\n", f);
	cmd_common_usage(f);
	fputs("\nExit status: 0 all accepted, 1 some refused or bad input, 2 usage,\n"
	      "3 environment (no tracefs, not root, interrupted, an undo failed).\n"
	      "See docs/try.md and boottrace(1).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

enum { O_TRACEFS = 256, O_HOLD, O_STALE };

int cmd_try(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tracefs", required_argument, NULL, O_TRACEFS },
		{ "hold", no_argument, NULL, O_HOLD },
		{ "remove-stale", no_argument, NULL, O_STALE },
		{ NULL, 0, NULL, 0 },
	};
	struct try_opts o = { .out = stdout };
	struct source src = { 0 };
	struct plan p;
	struct bt_error e;
	int c, ret;

	bt_error_clear(&e);
	optind = 1;
	while ((c = cmd_getopt(argc, argv, "", opts)) != -1) {
		switch (c) {
		case O_TRACEFS: o.tracefs = optarg; break;
		case O_HOLD: o.hold = 1; break;
		case O_STALE: o.remove_stale = 1; break;
		case CMD_OPT_HELP: return cmd_parse_exit(CMD_HELP, try_usage);
		default: return cmd_parse_exit(CMD_BAD, try_usage);
		}
	}
	if (optind + 1 != argc) {
		bt_say(NULL, BT_SAY_ERROR, "give one CONFIG");
		return cmd_parse_exit(CMD_BAD, try_usage);
	}
	if (source_load(argv[optind], &src, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	memset(&p, 0, sizeof(p));
	if (plan_build(&p, &src, &e)) {
		source_free(&src);
		return cmd_fail(&e, BT_EXIT_INPUT);
	}
	ret = try_run(&p, &o, &e);
	plan_free(&p);
	source_free(&src);
	if (ret < 0)
		return cmd_fail(&e, BT_EXIT_ENV);
	return ret ? BT_EXIT_INPUT : BT_EXIT_OK;
}
