// SPDX-License-Identifier: GPL-2.0-or-later
/* boottrace report: a boot snapshot -> who called what, when, with evidence. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "util/readfile.h"
#include "util/utf8out.h"
#include "kimage/kimg.h"
#include "report/out/report.h"

#define SYMS_MAX (512u << 20)

struct report_opts {
	const char *input, *format, *only, *map, *kallsyms, *modules, *kernel;
	const char *ko_dir;	/* --modules DIR: a modules tree */
	const char *diff;	/* --diff A B: A (input is B) */
	int boot;
};

/*
 * The output formats, their one home: the parser takes these names, the
 * help and the completion list them, run() calls the printer.
 */
static const struct report_format {
	const char *name, *help;
	int diff;	/* --diff A B writes it too */
	int (*print)(const struct rp_out *out, FILE *f);
} report_formats[] = {
	{ "text", "(default)", 1, rp_print_text },
	{ "json", "docs/report-schema.md", 1, rp_print_json },
	{ "folded", "FlameGraph: a;b;c N", 0, rp_print_folded },
	{ "html", "one self-contained page: answer, time axis, callers, evidence; "
	  "no network", 1, rp_print_html },
	{ "svg", "a flame graph of the folded stacks", 0, rp_print_svg },
	{ "perfetto", "Chrome trace-event JSON for ui.perfetto.dev", 0, rp_print_perfetto },
};
#define REPORT_NFORMATS (sizeof(report_formats) / sizeof(report_formats[0]))

static const char *report_format_value(size_t i, const char **help)
{
	if (i >= REPORT_NFORMATS)
		return NULL;
	*help = report_formats[i].help;
	return report_formats[i].name;
}

/* The format named @name, NULL: none (or one --diff does not write). */
static const struct report_format *report_format_find(const char *name, int diff)
{
	size_t i;

	for (i = 0; i < REPORT_NFORMATS; i++)
		if (!strcmp(name, report_formats[i].name) && (!diff || report_formats[i].diff))
			return &report_formats[i];
	return NULL;
}

/* "text, json, folded, html, svg or perfetto": the names -f takes (with --diff). */
static void report_format_names(int diff, char *buf, size_t cap)
{
	size_t i, n = 0, k = 0, all = 0;

	for (i = 0; i < REPORT_NFORMATS; i++)
		all += !diff || report_formats[i].diff;
	buf[0] = '\0';
	for (i = 0; i < REPORT_NFORMATS && n < cap; i++) {
		if (diff && !report_formats[i].diff)
			continue;
		k++;
		n += snprintf(buf + n, cap - n, "%s%s", k == 1 ? "" : k == all ? " or " : ", ",
			      report_formats[i].name);
	}
}

enum { O_FUNCTION = CMD_O_VERB, O_SYSMAP, O_KALLSYMS, O_KERNEL, O_PROCMODS, O_MODULES,
       O_BOOT, O_DIFF };

static const struct cmd_opt report_opts[] = {
	{ 'f', 'f', "format", "FORMAT", "the output:", CMD_OPT_KEY | CMD_OPT_INLINE,
	  report_format_value },
	CMD_ARG(0, "diff", "A", O_DIFF, "two boots side by side, A and INPUT: culprits that "
		"appeared or vanished, first hits that moved, tasks that changed (-f text, json "
		"or html)"),
	{ O_FUNCTION, 0, "function", "FUNC", "only function (or event) FUNC", CMD_OPT_KEY, NULL },
	CMD_ARG(0, "boot", "N", O_BOOT, "which snapshot of a console log (1 = the first; "
		"default the last)"),
	CMD_OPT_END,
};

static const struct cmd_opt report_sym_opts[] = {
	CMD_ARG(0, "system-map", "F", O_SYSMAP, "System.map: names raw frame addresses"),
	CMD_ARG(0, "kallsyms", "F", O_KALLSYMS, "/proc/kallsyms of that boot: the same"),
	CMD_ARG(0, "kernel", "IMAGE", O_KERNEL, "the same from the kernel image's own kallsyms "
		"tables (vmlinuz, bzImage, Image, vmlinux; docs/kernel-image.md)"),
	CMD_ARG(0, "proc-modules", "F", O_PROCMODS, "/proc/modules of that boot (module ranges)"),
	CMD_ARG(0, "modules", "DIR", O_MODULES, "the modules tree of the kernel that booted "
		"(/lib/modules/VERSION, or an unpacked package's): a module's freed init code, "
		"shown as [init of M], is named from M's .ko (bonding_init [init of bonding]); "
		"a file here is the old spelling of --proc-modules (warning)"),
	CMD_OPT_END,
};

static const struct cmd_optgroup report_groups[] = {
	{ NULL, report_opts },
	{ "Symbols", report_sym_opts },
	{ NULL, NULL },
};

static void report_epilog(FILE *f)
{
	fputs("Exit status: 0 the report was written, 1 the input is not a trace\n"
	      "or is refused (another tracer), 2 usage, 3 environment (I/O, memory).\n", f);
}

static const char *const report_forms[] = {
	"--diff A B [-f text|json|html] [--function FUNC] [--boot N]",
	NULL,
};

static int cmd_report(int argc, char **argv);

const struct cmd_verb cmd_report_verb = {
	.name = "report", .run = cmd_report, .operands = "INPUT",
	.summary = "snapshot -> who called what",
	.forms = report_forms,
	.about = "INPUT is a snapshot directory (/run/boottrace/<boot-id>), a bare\n"
		 "tracefs 'trace' file, or a serial-console log holding console-mode\n"
		 "snapshots (--boot N picks one, 1 = the first; default the last)\n"
		 "or the ftrace_dump_on_oops dump of a boot that panicked, oopsed\n"
		 "or hung: its records, plus the panic and oops, the initcall that\n"
		 "never finished, the task and last events on each CPU, and what a\n"
		 "truncated or interleaved dump is missing. A pstore record\n"
		 "(SNAP/pstore/dmesg-ramoops-0: a previous boot's log tail that\n"
		 "ramoops kept at a panic) is read the same way, with its reason and\n"
		 "part and what of the dump's start is lost; a snapshot directory\n"
		 "holding pstore/ records lists them and answers from the newest\n"
		 "dump first, as the previous boot's crash.\n"
		 "A trace or console log may come on a pipe, or on standard input\n"
		 "as \"-\" (ssh board cat /sys/kernel/tracing/trace | boottrace\n"
		 "report -).\n\n"
		 "For each traced function: hits, first/last time, tasks, the caller\n"
		 "tree from stack traces (outermost frame first) or, where stacks are\n"
		 "missing or all zero, chains stitched from the <-parent column; the\n"
		 "boot phase; and what in the trace cannot be trusted (trampolines,\n"
		 "zero or stale frames, lost events, skipped lines).\n\n"
		 "Read: function (with or without stacks), nop (events, kprobes,\n"
		 "syscall events, stacktrace triggers), function_graph (calls,\n"
		 "callers from the nesting, durations), the latency tracers, and\n"
		 "trace-cmd report text. Other tracers (osnoise, timerlat, hwlat,\n"
		 "blk, ...) are refused with their name (exit 1). A console log may\n"
		 "be messy (escape codes, CR/LF, capture timestamps, kernel messages);\n"
		 "each part is checked against its size, lines and md5, and damage\n"
		 "is named.\n",
	.groups = report_groups, .epilog = report_epilog,
};

/* What is wrong with the operands or the options' mix, said once. */
static enum cmd_parse report_usage_error(const struct report_opts *o, int operands)
{
	char names[120];
	int syms = !!o->map + !!o->kallsyms + !!o->kernel;

	report_format_names(o->diff != NULL, names, sizeof(names));
	if (operands != 1)
		bt_say(NULL, BT_SAY_ERROR, "%s", o->diff ? "--diff takes two inputs: --diff A B" : "one INPUT is needed");
	else if (syms > 1)
		bt_say(NULL, BT_SAY_ERROR, "%s", o->kernel ? "--kernel, --system-map and --kallsyms exclude each other" : "--system-map and --kallsyms exclude each other");
	else if (o->diff)
		bt_say(NULL, BT_SAY_ERROR, "--diff A B writes -f %s", names);
	else
		bt_say(NULL, BT_SAY_ERROR, "-f takes %s", names);
	return CMD_BAD;
}

static enum cmd_parse parse_opts(int argc, char **argv, struct report_opts *o)
{
	struct stat st;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->format = "text";
	optind = 1;
	while ((c = cmd_getopt(argc, argv, &cmd_report_verb)) != -1) {
		switch (c) {
		case 'f': o->format = optarg; break;
		case O_FUNCTION: o->only = optarg; break;
		case O_SYSMAP: o->map = optarg; break;
		case O_KALLSYMS: o->kallsyms = optarg; break;
		case O_KERNEL: o->kernel = optarg; break;
		case O_MODULES:
			/* a directory, or nothing there: the walk says what is wrong */
			if (stat(optarg, &st) || S_ISDIR(st.st_mode)) {
				o->ko_dir = optarg;
				break;
			}
			bt_say(NULL, BT_SAY_WARN, "--modules %s: a file, not a directory, so taken as the old spelling of --proc-modules (a module list); --modules DIR names a modules tree (/lib/modules/VERSION), as in check and compile; the old spelling goes away in a later release", optarg);
			/* fall through */
		case O_PROCMODS: o->modules = optarg; break;
		case O_DIFF: o->diff = optarg; break;
		case O_BOOT:
			o->boot = (int)strtol(optarg, &end, 10);
			if (*end || o->boot < 1) {
				bt_say(NULL, BT_SAY_ERROR, "--boot takes a number from 1, not '%s'", optarg);
				return CMD_BAD;
			}
			break;
		case CMD_OPT_HELP: return CMD_HELP;
		default: return CMD_BAD;
		}
	}
	if (optind != argc - 1 || !!o->map + !!o->kallsyms + !!o->kernel > 1 ||
	    !report_format_find(o->format, o->diff != NULL))
		return report_usage_error(o, argc - optind);
	o->input = argv[optind];
	if (o->diff && !strcmp(o->diff, "-") && !strcmp(o->input, "-")) {
		bt_say(NULL, BT_SAY_ERROR, "--diff A B: standard input (\"-\") can be only one of the two");
		return CMD_BAD;
	}
	return CMD_RUN;
}

/* Symbols: the options first, else the snapshot's own kallsyms/modules. */
static int load_syms(const struct report_opts *o, const struct rp_snap *snap,
		     struct rp_syms *syms, int *have, struct bt_error *e)
{
	const char *file = o->map ? o->map : o->kallsyms;
	size_t len;
	char *t;

	*have = 0;
	if (file) {
		if (!(t = readfile(file, SYMS_MAX, 0, "a symbol table", &len, e)))
			return -1;
		if (rp_syms_load(syms, t, file, e)) {
			free(t);
			return -1;
		}
		free(t);
		*have = 1;
	} else if (o->kernel) {
		char how[600];
		size_t n;

		if (kimg_load_kallsyms(o->kernel, &t, &len, &n, how, sizeof(how), e))
			return -1;
		if (rp_syms_load(syms, t, o->kernel, e)) {
			free(t);
			return -1;
		}
		free(t);
		if (bt_verbose())
			bt_say(o->kernel, BT_SAY_NOTE, "symbols from the image itself: %s", how);
		*have = 1;
	} else if (snap->kallsyms && !rp_syms_load(syms, snap->kallsyms,
						     "snapshot kallsyms", e)) {
		*have = 1;
	}
	bt_error_clear(e);
	if (o->modules) {
		if (!(t = readfile(o->modules, SYMS_MAX, 0, "a module list",
				   &len, e)))
			return -1;
		if (rp_syms_load_modules(syms, t, o->modules, e)) {
			free(t);
			return -1;
		}
		free(t);
		*have = 1;
	} else if (snap->modules && !rp_syms_load_modules(syms, snap->modules,
							   "snapshot modules", e)) {
		*have |= syms->n > 0;
	}
	return 0;
}

static int feed(struct report *r, const char *path, const struct rp_snap *snap,
		const char *input, struct bt_error *e)
{
	struct stat st;
	int fd, ret;

	if (snap->trace) {
		if (report_feed(r, snap->trace, snap->trace_len, 1) < 0)
			return bt_error_set(e, BT_EXIT_ENV, input, "out of memory");
		return 0;
	}
	if (snap->stream)
		return report_feed_fd(r, snap->stream_fd, snap->head,
				      snap->head_len, input, e);
	fd = readfile_open(path, RF_TRACE_MAX, RF_STREAM, "a trace", &st, e);
	if (fd < 0)
		return -1;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	ret = report_feed_fd(r, fd, NULL, 0, path, e);
	close(fd);
	return ret;
}

/* One input read and checked: what a printer needs. */
struct loaded {
	struct rp_findings q;
	struct rp_snap snap;
	struct rp_syms syms;
	struct report *r;
	const char *kind;
	char *path;		/* the trace's path, which an error may name */
};

static void unload(struct loaded *l)
{
	rp_syms_free(&l->syms);
	rp_snap_free(&l->snap);
	report_delete(l->r);
	free(l->path);
}

static int load(const struct report_opts *o, const char *input,
		struct loaded *l, struct bt_error *e)
{
	uint64_t lines, first_bad;
	int have = 0;

	memset(l, 0, sizeof(*l));
	l->kind = "trace";
	if (!(l->r = report_new()))
		return bt_error_set(e, BT_EXIT_ENV, input, "out of memory");
	if (rp_input_open(input, o->boot, &l->snap, &l->kind, &l->path, e) ||
	    load_syms(o, &l->snap, &l->syms, &have, e) ||
	    feed(l->r, l->path, &l->snap, input, e))
		return -1;
	if (report_refused(l->r, input, e))
		return -1;
	/* Not a trace at all: nothing parsed, and something was skipped. */
	if (report_not_trace(l->r, &lines, &first_bad) && strcmp(l->kind, "console"))
		return bt_error_set(e, BT_EXIT_INPUT, input,
				    "no trace line in %llu lines (first unreadable at line %llu): not the kernel's trace text",
				    (unsigned long long)lines,
				    (unsigned long long)first_bad);
	l->snap.prev_syms = have ? &l->syms : NULL;
	return rp_check_modules(l->r, have ? &l->syms : NULL, &l->snap,
				o->ko_dir, &l->q, e);
}

static int run(const struct report_opts *o, struct bt_error *e)
{
	struct loaded a, b;
	struct rp_out oa, ob;
	int ret = -1, two = o->diff != NULL;
	FILE *f;

	memset(&b, 0, sizeof(b));
	if (load(o, two ? o->diff : o->input, &a, e) ||
	    (two && load(o, o->input, &b, e)))
		goto out;
	oa = (struct rp_out){ a.r, &a.q, &a.snap, two ? o->diff : o->input,
			      a.kind, o->only };
	ob = (struct rp_out){ b.r, &b.q, &b.snap, o->input, b.kind, o->only };
	/* names are copied from the trace: the output is made valid UTF-8 */
	if (!(f = bt_utf8_guard(stdout))) {
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	ret = two ? rp_print_diff(&oa, &ob, o->format, f) :
		    report_format_find(o->format, 0)->print(&oa, f);
	if (fclose(f))
		ret = -1;
	if (fflush(stdout) || ret)
		ret = bt_error_errno(e, errno ? errno : EIO, NULL,
				     "cannot write the report");
out:
	if (ret)	/* before unload: @e may name a path it frees */
		ret = cmd_fail(e, BT_EXIT_ENV);
	unload(&a);
	unload(&b);
	return ret;
}

static int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct bt_error e;
	int ret = parse_opts(argc, argv, &o);

	if (ret)
		return cmd_parse_exit(ret, &cmd_report_verb);
	bt_error_clear(&e);
	return run(&o, &e);
}
