// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottrace try: a config's tracing settings applied to the running kernel
 * in a temporary tracefs instance, each refusal reported at its config
 * position, everything removed again (bootcfg/try/, docs/try.md).
 */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"
#include "plan/plan.h"
#include "try/try.h"
#include "util/source.h"

enum { O_TRACEFS = CMD_O_VERB, O_HOLD, O_STALE };

static const struct cmd_opt try_opts[] = {
	CMD_ARG(0, "tracefs", "DIR", O_TRACEFS,
		"the tracefs mount (default /sys/kernel/tracing, else /sys/kernel/debug/tracing)"),
	{ O_HOLD, 0, "hold", NULL, "keep the applied state until Ctrl-C (SIGINT, SIGTERM, "
	  "SIGHUP), then undo it: watch the trace meanwhile", CMD_OPT_KEY, NULL },
	CMD_FLAG(0, "remove-stale", O_STALE,
		 "remove boottrace-try-* instances of runs that are gone (default: say so and "
		 "leave them)"),
	CMD_OPT_END,
};

static const struct cmd_optgroup try_groups[] = {
	{ NULL, try_opts },
	{ NULL, NULL },
};

static void try_epilog(FILE *f)
{
	fputs("Exit status: 0 all accepted, 1 some refused or bad input, 2 usage,\n"
	      "3 environment (no tracefs, not root, interrupted, an undo failed).\n"
	      "See docs/try.md and boottrace(1).\n", f);
}

static int cmd_try(int argc, char **argv);

const struct cmd_verb cmd_try_verb = {
	.name = "try", .run = cmd_try, .operands = "CONFIG",
	.summary = "apply it to the running kernel's tracefs, report refusals, undo",
	.about = "Apply every tracing setting of CONFIG that boot-time tracing would make to the\n"
		 "running kernel, in a temporary instance (instances/boottrace-try-PID; the top\n"
		 "level's fgraph filters and a tracer only it can run are saved and restored):\n"
		 "filters, events, event filters and actions, kprobe and synthetic events,\n"
		 "options, tracer. Each write the kernel refuses is reported with the kernel's\n"
		 "error and the new error_log lines, at the setting's FILE:LINE:COL. Then\n"
		 "everything added is removed, also on Ctrl-C, SIGTERM or SIGHUP.\n",
	.groups = try_groups, .epilog = try_epilog,
};

static int cmd_try(int argc, char **argv)
{
	struct try_opts o = { .out = stdout };
	struct source src = { 0 };
	struct plan p;
	struct bt_error e;
	int c, ret;

	bt_error_clear(&e);
	optind = 1;
	while ((c = cmd_getopt(argc, argv, &cmd_try_verb)) != -1) {
		switch (c) {
		case O_TRACEFS: o.tracefs = optarg; break;
		case O_HOLD: o.hold = 1; break;
		case O_STALE: o.remove_stale = 1; break;
		case CMD_OPT_HELP: return cmd_parse_exit(CMD_HELP, &cmd_try_verb);
		default: return cmd_parse_exit(CMD_BAD, &cmd_try_verb);
		}
	}
	if (optind + 1 != argc) {
		bt_say(NULL, BT_SAY_ERROR, "give one CONFIG");
		return cmd_parse_exit(CMD_BAD, &cmd_try_verb);
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
