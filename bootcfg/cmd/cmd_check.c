/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace check: a config against the kernel that will boot, offline
 * (symbols, traceability, modules, initcall levels, .config), and
 * --callers: who calls a function, from the same inputs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "kimage/kcallers.h"
#include "kimage/kimg.h"
#include "cmd/commands.h"
#include "util/source.h"

struct check_args {
	struct check_inputs in;
	const char *config, *format, *callers;
	int depth, threshold;
	int print_map;		/* --print-map: the --kernel image's symbols as System.map */
	/* --print-functions, --print-events: lists of the loaded kernel */
	int print_functions, print_events;
};

enum { O_CALLERS = CMD_O_VERB, O_DEPTH, O_THRESH, O_PRINTMAP, O_PRINTFUNCS, O_PRINTEVENTS };

static const char *check_format_value(size_t i, const char **help)
{
	static const char *const names[] = { "text", "json" };
	static const char *const helps[] = { "(default)", "docs/check.md" };

	if (i >= 2)
		return NULL;
	*help = helps[i];
	return names[i];
}

static const struct cmd_opt check_opts[] = {
	{ 'f', 'f', "format", "FORMAT", "the findings as:", CMD_OPT_KEY | CMD_OPT_INLINE,
	  check_format_value },
	CMD_ARG(0, "threshold", "N", O_THRESH,
		"warn when a wildcard matches more than N functions (1000)"),
	CMD_ARG(0, "callers", "FUNC", O_CALLERS, "print who calls FUNC, as a tree with modules"),
	CMD_ARG(0, "depth", "N", O_DEPTH, "levels of callers (default 3)"),
	CMD_FLAG(0, "print-map", O_PRINTMAP,
		 "print the --kernel image's own symbols as System.map text"),
	CMD_FLAG(0, "print-functions", O_PRINTFUNCS,
		 "print the functions the function tracer can trace, as "
		 "available_filter_functions would list them at boot (--vmlinux or --kernel)"),
	CMD_FLAG(0, "print-events", O_PRINTEVENTS,
		 "print the trace events built into --kernel IMAGE, as available_events "
		 "would list them at boot"),
	CMD_OPT_END,
};

static const struct cmd_optgroup check_groups[] = {
	{ "The kernel", cmd_opts_image },
	{ NULL, cmd_opts_kfiles },
	{ "What to do", check_opts },
	{ NULL, NULL },
};

static const char *const check_forms[] = {
	"--callers FUNC [--depth N] --vmlinux FILE [--modules DIR]",
	"--kernel IMAGE --print-map",
	"--kernel IMAGE [--modules DIR] --print-functions|--print-events",
	NULL,
};

static void check_epilog(FILE *f)
{
	fputs("Exit status: 0 no error, 1 errors found or bad input, 2 usage, 3 environment.\n"
	      "See docs/check.md and boottrace(1).\n", f);
}

static int cmd_check(int argc, char **argv);

const struct cmd_verb cmd_check_verb = {
	.name = "check", .run = cmd_check, .operands = "CONFIG",
	.summary = "check a config against the kernel that will boot",
	.forms = check_forms,
	.about = "Check a boot-trace config against the kernel that will boot, before the reboot:\n"
		 "every function name exists (or which module has it), is traceable (has an\n"
		 "mcount/fentry site), when an init function runs, and what the settings need\n"
		 "of the .config.\n",
	.groups = check_groups, .epilog = check_epilog,
};

static int check_number(const char *s, int *v)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (!*s || *end || n < 0 || n > 1000000)
		return -1;
	*v = (int)n;
	return 0;
}

static enum cmd_parse check_parse_args(int argc, char **argv, struct check_args *a)
{
	int c, bad = 0;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, &cmd_check_verb)) != -1) {
		switch (c) {
		case CMD_O_VMLINUX: a->in.vmlinux = optarg; break;
		case CMD_O_SYSMAP: a->in.sysmap = optarg; break;
		case CMD_O_KERNEL: a->in.kernel = optarg; break;
		case CMD_O_MODULES: a->in.modules = optarg; break;
		case CMD_O_KCONFIG: a->in.kconfig = optarg; break;
		case CMD_O_ROOT: a->in.root = optarg; break;
		case O_CALLERS: a->callers = optarg; break;
		case O_DEPTH: bad |= check_number(optarg, &a->depth); break;
		case O_THRESH: bad |= check_number(optarg, &a->threshold); break;
		case O_PRINTMAP: a->print_map = 1; break;
		case O_PRINTFUNCS: a->print_functions = 1; break;
		case O_PRINTEVENTS: a->print_events = 1; break;
		case 'f': a->format = optarg; break;
		case CMD_OPT_HELP: return CMD_HELP;
		default: return CMD_BAD;
		}
	}
	if (optind < argc)
		a->config = argv[optind++];
	if (a->print_map) {
		if (!a->in.kernel || a->config || a->callers || optind < argc) {
			bt_say(NULL, BT_SAY_ERROR, "--print-map prints the symbols of --kernel IMAGE: give --kernel IMAGE and no CONFIG or --callers");
			return CMD_BAD;
		}
		return CMD_RUN;
	}
	if (a->print_functions || a->print_events) {
		if (a->print_functions + a->print_events > 1 || a->config ||
		    a->callers || optind < argc ||
		    (a->print_events && !a->in.kernel && !a->in.root)) {
			bt_say(NULL, BT_SAY_ERROR, "--print-functions and --print-events print what the kernel offers: give one of them, the kernel (--kernel IMAGE, --vmlinux or --root; --print-events needs the image) and no CONFIG or --callers");
			return CMD_BAD;
		}
		return CMD_RUN;
	}
	if (bad || optind < argc || (!a->config == !a->callers) ||
	    (a->in.vmlinux && a->in.sysmap) ||
	    !cmd_opt_value_ok(cmd_opt_find(&cmd_check_verb, 'f'), a->format)) {
		bt_say(NULL, BT_SAY_ERROR, "give one CONFIG or --callers FUNC, at most one of --vmlinux and --system-map, -f text or json, numbers for --depth and --threshold");
		return CMD_BAD;
	}
	return CMD_RUN;
}

/* A config file against the loaded kernel: findings on stdout. */
static int check_config_file(const struct check_args *a, const struct ksyms *t,
			     const struct kcaps *k, struct bt_error *e)
{
	struct check_opts o = { a->threshold };
	struct source src = { 0 };
	int ret;

	if (source_load(a->config, &src, e))
		return -1;
	ret = check_source(&src, t, k, &o, !strcmp(a->format, "json"), stdout, e);
	source_free(&src);
	return ret;
}

/* --print-map: the image's kallsyms as System.map text on stdout. */
static int check_print_map(const char *image)
{
	struct bt_error e;
	char how[600], *text;
	size_t len, n;

	bt_error_clear(&e);
	if (kimg_load_kallsyms(image, &text, &len, &n, how, sizeof(how), &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	if (bt_verbose())
		bt_say(image, BT_SAY_NOTE, "%s", how);
	if (fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
		free(text);
		bt_say(NULL, BT_SAY_ERROR, "cannot write the symbols to standard output");
		return BT_EXIT_ENV;
	}
	free(text);
	return BT_EXIT_OK;
}

/* --print-functions: the traceable functions, "NAME" or "NAME [MODULE]". */
static int check_print_functions(const struct ksyms *t, struct bt_error *e)
{
	size_t i;

	if (t->core_trace != KT_KNOWN)
		return bt_error_set(e, BT_EXIT_INPUT, t->core_path, "its call sites are not known (no __start_mcount_loc symbol, and no run of text addresses long enough to be their array), so neither are its traceable functions: give --vmlinux (the -dbg vmlinux); -v says what was read");
	for (i = 1; i < t->n; i++) {
		const struct ksym *s = &t->sym[i];

		if (!(s->flags & KSYM_TRACE) || (s->mod >= 0 && !t->mods_trace))
			continue;
		if (s->mod >= 0)
			printf("%s [%s]\n", s->name, t->mods[s->mod]);
		else
			printf("%s\n", s->name);
	}
	if (fflush(stdout) || ferror(stdout))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "cannot write to standard output");
	return 0;
}

/* --print-events: the built-in events, "system:event". */
static int check_print_events(const struct ksyms *t, struct bt_error *e)
{
	size_t i;

	if (!t->events_known)
		return bt_error_set(e, BT_EXIT_INPUT, t->core_path, "its trace events are not known: they are read from --kernel IMAGE, by the symbols of their array (CONFIG_KALLSYMS_ALL) or by its shape, and neither was found (-v says what was read)");
	for (i = 0; i < t->events.n; i++)
		printf("%s\n", t->events.name[i]);
	if (fflush(stdout) || ferror(stdout))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "cannot write to standard output");
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	struct check_args a = { .format = "text", .depth = 3, .threshold = 1000 };
	struct ksyms t = { 0 };
	struct bt_progress prog;
	struct kcaps k;
	struct bt_error e;
	int ret;

	bt_error_clear(&e);
	memset(&k, 0, sizeof(k));
	ret = check_parse_args(argc, argv, &a);
	if (ret)
		return cmd_parse_exit(ret, &cmd_check_verb);
	ret = -1;
	if (a.print_map)
		return check_print_map(a.in.kernel);
	/* reading a big vmlinux, the modules and the calls: a line on a terminal */
	bt_progress_init(&prog, STDERR_FILENO, bt_quiet(), "boottrace check");
	t.progress = &prog;
	if (a.in.root && check_inputs_from_root(&a.in, &e))
		goto out;
	if (check_inputs_load(&a.in, &t, &k, &e))
		goto out;
	if (a.print_functions) {
		ret = check_print_functions(&t, &e);
	} else if (a.print_events) {
		ret = check_print_events(&t, &e);
	} else if (a.callers) {
		ret = kcallers_print(&t, a.in.vmlinux, a.in.modules, a.callers,
				     a.depth, stdout, &e);
	} else {
		bt_progress_end(&prog);
		ret = check_config_file(&a, &t, &k, &e);
	}
out:
	bt_progress_end(&prog);
	ksyms_free(&t);
	if (ret < 0)
		return cmd_fail(&e, BT_EXIT_INPUT);
	return ret ? BT_EXIT_INPUT : BT_EXIT_OK;
}
