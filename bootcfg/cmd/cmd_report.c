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
#include "record/record.h"
#include "report/out/report.h"

#define SYMS_MAX (512u << 20)

struct report_opts {
	const char *input, *format, *only, *map, *kallsyms, *modules, *kernel;
	const char *ko_dir;	/* --modules DIR: a modules tree */
	const char *diff;	/* --diff A B: A (input is B) */
	int boot;		/* a console log's snapshot, 1 = the first */
	const char *pick;	/* --boot with no INPUT: which record */
	const char *state, *run;	/* no INPUT: where records and snapshots are */
	int list;
	char **inputs;		/* none: the newest record, or this boot's snapshot */
	int ninputs;
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
       O_BOOT, O_DIFF, O_LIST, O_STATE, O_RUN };

static const struct cmd_opt report_opts[] = {
	{ 'f', 'f', "format", "FORMAT", "the output:", CMD_OPT_KEY | CMD_OPT_INLINE,
	  report_format_value },
	CMD_ARG(0, "diff", "A", O_DIFF, "two boots side by side, A and INPUT: culprits that "
		"appeared or vanished, first hits that moved, tasks that changed (-f text, json "
		"or html)"),
	{ O_FUNCTION, 0, "function", "FUNC", "only function (or event) FUNC", CMD_OPT_KEY, NULL },
	CMD_ARG(0, "boot", "N", O_BOOT, "which boot: with no INPUT, which record (as "
		"journalctl -b: 0 the newest, -1 the one before, 1 the oldest; or the start "
		"of a boot id); with a console log, which of its snapshots (1 = the first; "
		"default the last)"),
	CMD_OPT_END,
};

static const struct cmd_opt report_rec_opts[] = {
	CMD_FLAG(0, "list", O_LIST, "list the records, oldest first: the --boot number, "
		 "boot id, when collected, the question the boot asked (boottrace.ask=), "
		 "complete or not, and this boot"),
	CMD_ARG(0, "state", "DIR", O_STATE, "where the records are (default "
		RECORD_STATE_DEFAULT ", as collect's --state)"),
	CMD_ARG(0, "run", "DIR", O_RUN, "where this boot's snapshot is when it has no "
		"record yet (default " RECORD_RUN_DEFAULT ", as collect's --run)"),
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
	{ "Boot records (no INPUT)", report_rec_opts },
	{ "Symbols", report_sym_opts },
	{ NULL, NULL },
};

static void report_epilog(FILE *f)
{
	fputs("Exit status: 0 the report was written, 1 the input is not a trace\n"
	      "or is refused (another tracer), or there is no record and no snapshot\n"
	      "of this boot, 2 usage, 3 environment (I/O, memory).\n", f);
}

static const char *const report_forms[] = {
	"--diff A B [-f text|json|html] [--function FUNC] [--boot N]",
	"--list [--state DIR]",
	NULL,
};

static int cmd_report(int argc, char **argv);

const struct cmd_verb cmd_report_verb = {
	.name = "report", .run = cmd_report, .operands = "[INPUT...]",
	.summary = "snapshot -> who called what",
	.forms = report_forms,
	.about = "With no INPUT: the newest boot record in the state directory\n"
		 "(/var/lib/boottrace/<boot-id>, by the time collect wrote in it;\n"
		 "--boot N another, --list lists them), else this boot's snapshot\n"
		 "(/run/boottrace/<boot-id>), said first with which boot it is and\n"
		 "whether arm-boot armed the next boot. Several INPUTs are reported\n"
		 "one after another (-f text); arm-boot's state directory among them\n"
		 "is named and left out.\n\n"
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
		 "is named.\n",
	.groups = report_groups, .epilog = report_epilog,
};

/* What is wrong with the operands or the options' mix, said once. */
static enum cmd_parse report_usage_error(const struct report_opts *o, int operands)
{
	char names[120];
	int syms = !!o->map + !!o->kallsyms + !!o->kernel;

	report_format_names(o->diff != NULL, names, sizeof(names));
	if (o->diff && operands != 1)
		bt_say(NULL, BT_SAY_ERROR, "--diff takes two inputs: --diff A B");
	else if (o->list && (operands || o->pick || o->diff))
		bt_say(NULL, BT_SAY_ERROR, "--list lists the records of the state directory: no INPUT, --boot or --diff with it");
	else if (operands && (o->state || o->run))
		bt_say(NULL, BT_SAY_ERROR, "--state and --run say where to look when no INPUT is given; with an INPUT they mean nothing");
	else if (operands > 1 && strcmp(o->format, "text"))
		bt_say(NULL, BT_SAY_ERROR, "several INPUTs are reported one after another as text: -f %s takes one INPUT", o->format);
	else if (syms > 1)
		bt_say(NULL, BT_SAY_ERROR, "%s", o->kernel ? "--kernel, --system-map and --kallsyms exclude each other" : "--system-map and --kallsyms exclude each other");
	else if (o->diff)
		bt_say(NULL, BT_SAY_ERROR, "--diff A B writes -f %s", names);
	else
		bt_say(NULL, BT_SAY_ERROR, "-f takes %s", names);
	return CMD_BAD;
}

/* --boot N with an INPUT: a console log's snapshot, from 1. */
static enum cmd_parse console_boot(struct report_opts *o)
{
	char *end;

	o->boot = (int)strtol(o->pick, &end, 10);
	if (*end || o->boot < 1) {
		bt_say(NULL, BT_SAY_ERROR, "--boot with an INPUT picks a snapshot of a console log: a number from 1, not '%s' (records are picked with no INPUT)", o->pick);
		return CMD_BAD;
	}
	o->pick = NULL;
	return CMD_RUN;
}

static enum cmd_parse parse_opts(int argc, char **argv, struct report_opts *o)
{
	struct stat st;
	int c, n;

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
		case O_BOOT: o->pick = optarg; break;
		case O_LIST: o->list = 1; break;
		case O_STATE: o->state = optarg; break;
		case O_RUN: o->run = optarg; break;
		case CMD_OPT_HELP: return CMD_HELP;
		default: return CMD_BAD;
		}
	}
	n = argc - optind;
	if ((o->diff && n != 1) || (o->list && (n || o->pick || o->diff)) ||
	    (n && (o->state || o->run)) || (n > 1 && strcmp(o->format, "text")) ||
	    !!o->map + !!o->kallsyms + !!o->kernel > 1 ||
	    !report_format_find(o->format, o->diff != NULL))
		return report_usage_error(o, n);
	o->inputs = argv + optind;
	o->ninputs = n;
	o->input = n ? argv[optind] : NULL;
	if (o->pick && n && console_boot(o))
		return CMD_BAD;
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

/*
 * @input reported; @head: the block saying which boot (the verb chose
 * it), @gap: a blank line first (one of several inputs). The exit status.
 */
static int report_one(const struct report_opts *o, const char *input,
		      const struct rp_head *head, int gap, struct bt_error *e)
{
	struct loaded a, b;
	struct rp_out oa, ob;
	int ret = -1, two = o->diff != NULL;
	FILE *f;

	memset(&b, 0, sizeof(b));
	if (load(o, two ? o->diff : input, &a, e) ||
	    (two && load(o, input, &b, e)))
		goto out;
	oa = (struct rp_out){ a.r, &a.q, &a.snap, two ? o->diff : input,
			      a.kind, o->only };
	ob = (struct rp_out){ b.r, &b.q, &b.snap, input, b.kind, o->only };
	/* names are copied from the trace: the output is made valid UTF-8 */
	if (!(f = bt_utf8_guard(stdout))) {
		ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if (gap)
		fputc('\n', f);
	/* the other formats' output stays theirs alone: the block goes to stderr */
	if (head && !strcmp(o->format, "text"))
		rp_print_head(head, f);
	else if (head && !bt_quiet())
		rp_print_head(head, stderr);
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

/* arm-boot's state in @dir: its fate and loader; 0 when @dir holds none. */
static int arm_state_at(const char *dir, enum arm_fate *fate, char loader[16])
{
	struct bt_error e;

	bt_error_clear(&e);
	if (arm_fate(dir, fate, loader, &e) < 0) {
		*fate = ARM_CHANGED;	/* there, but unreadable: disarm-boot says why */
		if (!*loader)
			snprintf(loader, 16, "?");
	}
	return *fate != ARM_NONE;
}

/* The INPUTs in turn; arm-boot's state among them is said and left out. */
static int report_inputs(const struct report_opts *o, struct bt_error *e)
{
	enum arm_fate fate;
	char loader[16];
	int i, ret = 0, r, shown = 0;
	struct stat st;

	for (i = 0; i < o->ninputs; i++) {
		const char *in = o->inputs[i];

		if (!stat(in, &st) && S_ISDIR(st.st_mode) && arm_state_at(in, &fate, loader)) {
			if (o->ninputs == 1) {
				bt_error_set(e, BT_EXIT_INPUT, in, "arm-boot's state (%s: %s), not a boot record: give a record (STATE/<boot-id>), or no INPUT for the newest record", loader, arm_fate_name(fate));
				return cmd_fail(e, BT_EXIT_INPUT);
			}
			bt_say(in, BT_SAY_NOTE, "arm-boot's state (%s: %s), not a boot record: left out", loader, arm_fate_name(fate));
			continue;
		}
		bt_error_clear(e);
		r = report_one(o, in, NULL, shown++ > 0, e);
		if (r && !ret)
			ret = r;
	}
	return ret;
}

/* arm-boot's state beside the records of @state into @h. */
static void head_armed(const char *state, struct rp_head *h, char loader[16])
{
	char dir[4096];

	loader[0] = '\0';
	h->loader = loader;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", state, ARM_STATE_NAME) < sizeof(dir))
		arm_state_at(dir, &h->armed, loader);
}

/* The record @v[@at] of @state as the head; its path into @path. */
static void head_record(const char *state, const struct record_entry *v, long at,
			const char *id, struct rp_head *h, char *path, size_t cap,
			char *utc, size_t ucap)
{
	snprintf(path, cap, "%s/%s", state, v[at].name);
	record_utc(v[at].when, utc, ucap);
	h->boot_id = v[at].name;
	h->this_boot = id && !strcmp(v[at].name, id);
	h->offset = -at;
	h->path = path;
	h->utc = utc;
}

/* The state directory as no INPUT and --list see it. */
struct records {
	struct record_entry *v;
	size_t n;
	const char *id;		/* this boot's, NULL: unknown */
	char idbuf[128], loader[16];
	struct rp_head h;	/* its armed and loader filled */
};

/* The records of @state, newest first, this boot's id, arm-boot's state. */
static int records_read(const char *state, struct records *r, struct bt_error *e)
{
	struct bt_error e2;

	memset(r, 0, sizeof(*r));
	if (record_list(state, &r->v, &r->n, e))
		return -1;
	bt_error_clear(&e2);
	if (!record_boot_id(NULL, r->idbuf, sizeof(r->idbuf), &e2))
		r->id = r->idbuf;
	head_armed(state, &r->h, r->loader);
	return 0;
}

/*
 * No INPUT: the record --boot names, else the newest, else this boot's
 * live snapshot; else one line of what to do.
 */
static int report_chosen(const struct report_opts *o, struct bt_error *e)
{
	const char *state = o->state ? o->state : RECORD_STATE_DEFAULT;
	const char *run = o->run ? o->run : RECORD_RUN_DEFAULT;
	char path[4096], utc[40];
	struct records rs;
	struct rp_head *h = &rs.h;
	struct stat st;
	long at = 0;
	int ret;

	if (records_read(state, &rs, e))
		return cmd_fail(e, BT_EXIT_ENV);
	if (rs.n || o->pick) {
		if (o->pick && (at = record_pick(rs.v, rs.n, o->pick, state, e)) < 0) {
			record_list_free(rs.v, rs.n);
			return cmd_fail(e, BT_EXIT_INPUT);
		}
		head_record(state, rs.v, at, rs.id, h, path, sizeof(path), utc, sizeof(utc));
	} else if (rs.id && (size_t)snprintf(path, sizeof(path), "%s/%s", run, rs.id) < sizeof(path) &&
		   !stat(path, &st)) {
		/* there: the hook's (a later one of this boot), or an error saying why not */
		if (record_snapshot(run, rs.id, path, sizeof(path), e))
			return cmd_fail(e, BT_EXIT_INPUT);
		h->boot_id = rs.id;
		h->this_boot = 1;
		h->path = path;
	} else {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "no record in %s and no snapshot of this boot in %s: this boot asked for no tracing; to trace the next boot, run boottrace ask QUESTION (boottrace ask who-creates bond0), reboot, then boottrace report", state, run);
		return cmd_fail(e, BT_EXIT_INPUT);
	}
	ret = report_one(o, path, h, 0, e);
	record_list_free(rs.v, rs.n);
	return ret;
}

/* One --list line: @r numbered @k as --boot takes it. */
static void list_line(const char *state, const struct record_entry *r, long k,
		      const char *id)
{
	struct record_about a;
	char q[600];

	record_about(state, r, &a);
	if (a.asked > 0)
		snprintf(q, sizeof(q), "%s %s", bt_ask_kind_name(a.ask.kind), a.ask.object);
	else
		snprintf(q, sizeof(q), "%s", a.asked < 0 ? "(a boottrace.ask= word that is not KIND:OBJECT)" : "(asked nothing)");
	printf("%4ld  %s  %s  %s  ", k, r->name, a.utc, q);
	if (!a.complete)
		printf("incomplete");
	else if (a.errors)
		printf("complete, %d error%s", a.errors, a.errors == 1 ? "" : "s");
	else
		printf("complete");
	printf("%s\n", id && !strcmp(r->name, id) ? "  (this boot)" : "");
}

/* --list: a line per record, oldest first, numbered as --boot takes them. */
static int report_list(const struct report_opts *o, struct bt_error *e)
{
	const char *state = o->state ? o->state : RECORD_STATE_DEFAULT;
	struct records rs;
	size_t i;

	if (records_read(state, &rs, e))
		return cmd_fail(e, BT_EXIT_ENV);
	if (!bt_quiet())
		rp_print_armed(rs.h.armed, rs.loader, stderr);
	if (!rs.n)
		bt_say(NULL, BT_SAY_NOTE, "no record in %s", state);
	for (i = rs.n; i-- > 0;)
		list_line(state, &rs.v[i], -(long)i, rs.id);
	record_list_free(rs.v, rs.n);
	if (fflush(stdout)) {
		bt_error_errno(e, errno, NULL, "cannot write the list");
		return cmd_fail(e, BT_EXIT_ENV);
	}
	return BT_EXIT_OK;
}

static int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct bt_error e;
	int ret = parse_opts(argc, argv, &o);

	if (ret)
		return cmd_parse_exit(ret, &cmd_report_verb);
	bt_error_clear(&e);
	if (o.list)
		return report_list(&o, &e);
	return o.ninputs ? report_inputs(&o, &e) : report_chosen(&o, &e);
}
