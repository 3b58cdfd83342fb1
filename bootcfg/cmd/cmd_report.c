// SPDX-License-Identifier: GPL-2.0-or-later
/* boottrace report: a boot snapshot -> who called what, when, with evidence. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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

static int report_usage(FILE *f)
{
	fputs("usage: boottrace report INPUT [-f text|json|folded|html|svg|perfetto]\n"
	      "                        [--function F] [--system-map F | --kallsyms F | --kernel F]\n"
	      "                        [--proc-modules F] [--modules DIR] [--boot N]\n"
	      "       boottrace report --diff A B [-f text|json|html] [--function F] [--boot N]\n\n"
	      "INPUT is a snapshot directory (/run/boottrace/<boot-id>), a bare\n"
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
	      "is named.\n\n"
	      "  -f, --format F     text (default), json (docs/report-schema.md),\n"
	      "                     folded (FlameGraph: a;b;c N), html (one\n"
	      "                     self-contained page: answer, time axis,\n"
	      "                     callers, evidence; no network), svg (a flame\n"
	      "                     graph of the folded stacks), perfetto (Chrome\n"
	      "                     trace-event JSON for ui.perfetto.dev)\n"
	      "      --diff A B     two boots side by side: culprits that appeared\n"
	      "                     or vanished, first hits that moved, tasks that\n"
	      "                     changed (-f text, json or html)\n"
	      "      --function F   only function (or event) F\n"
	      "      --system-map F, --kallsyms F   name raw frame addresses\n"
	      "      --kernel F        the same from the kernel image's own kallsyms tables\n"
	      "                        (vmlinuz, bzImage, Image, vmlinux; docs/kernel-image.md)\n"
	      "      --proc-modules F  /proc/modules of that boot (module ranges)\n"
	      "      --modules DIR  the modules tree of the kernel that booted\n"
	      "                     (/lib/modules/VERSION, or an unpacked package's):\n"
	      "                     a module's freed init code, shown as\n"
	      "                     [init of M], is named from M's .ko\n"
	      "                     (bonding_init [init of bonding]); a file here\n"
	      "                     is the old spelling of --proc-modules (warning)\n"
	      "      --boot N       which snapshot of a console log\n", f);
	cmd_common_usage(f);
	fputs("\nExit status: 0 the report was written, 1 the input is not a trace\n"
	      "or is refused (another tracer), 2 usage, 3 environment (I/O, memory).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

static int format_ok(const struct report_opts *o)
{
	static const char *const all[] = {
		"text", "json", "html", "folded", "svg", "perfetto",
	};
	size_t i;

	for (i = 0; i < (o->diff ? 3 : sizeof(all) / sizeof(all[0])); i++)
		if (!strcmp(o->format, all[i]))
			return 1;
	return 0;
}

static enum cmd_parse parse_opts(int argc, char **argv, struct report_opts *o)
{
	static const struct option longs[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "function", required_argument, NULL, 'F' },
		{ "system-map", required_argument, NULL, 'm' },
		{ "kallsyms", required_argument, NULL, 'k' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "proc-modules", required_argument, NULL, 'M' },
		/* a modules tree, as in check and compile; a file: --proc-modules */
		{ "modules", required_argument, NULL, 'O' },
		{ "boot", required_argument, NULL, 'b' },
		{ "diff", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	struct stat st;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->format = "text";
	optind = 1;
	while ((c = cmd_getopt(argc, argv, "f:", longs)) != -1) {
		switch (c) {
		case 'f': o->format = optarg; break;
		case 'F': o->only = optarg; break;
		case 'm': o->map = optarg; break;
		case 'k': o->kallsyms = optarg; break;
		case 'K': o->kernel = optarg; break;
		case 'O':
			/* a directory, or nothing there: the walk says what is wrong */
			if (stat(optarg, &st) || S_ISDIR(st.st_mode)) {
				o->ko_dir = optarg;
				break;
			}
			bt_say(NULL, BT_SAY_WARN, "--modules %s: a file, not a directory, so taken as the old spelling of --proc-modules (a module list); --modules DIR names a modules tree (/lib/modules/VERSION), as in check and compile; the old spelling goes away in a later release", optarg);
			/* fall through */
		case 'M': o->modules = optarg; break;
		case 'D': o->diff = optarg; break;
		case 'b':
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
	if (optind != argc - 1 || (!!o->map + !!o->kallsyms + !!o->kernel > 1) || !format_ok(o)) {
		bt_say(NULL, BT_SAY_ERROR, "%s", optind != argc - 1 ? (o->diff ? "--diff takes two inputs: --diff A B" : "one INPUT is needed") : !!o->map + !!o->kallsyms + !!o->kernel > 1 ? (o->kernel ? "--kernel, --system-map and --kallsyms exclude each other" : "--system-map and --kallsyms exclude each other") : o->diff ? "--diff A B writes -f text, json or html" : "-f takes text, json, folded, html, svg or perfetto");
		return CMD_BAD;
	}
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

static int print(const char *format, const struct rp_out *out, FILE *f)
{
	static const struct {
		const char *name;
		int (*print)(const struct rp_out *, FILE *);
	} fmt[] = {
		{ "json", rp_print_json }, { "folded", rp_print_folded },
		{ "html", rp_print_html }, { "svg", rp_print_svg },
		{ "perfetto", rp_print_perfetto },
	};
	size_t i;

	for (i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++)
		if (!strcmp(format, fmt[i].name))
			return fmt[i].print(out, f);
	return rp_print_text(out, f);
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
		    print(o->format, &oa, f);
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

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct bt_error e;
	int ret = parse_opts(argc, argv, &o);

	if (ret)
		return cmd_parse_exit(ret, report_usage);
	bt_error_clear(&e);
	return run(&o, &e);
}
