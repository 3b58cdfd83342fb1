/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace compile: config -> plan -> route -> target form. Also builds
 * the config itself for a question (--who-calls).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "cmd/cmd_kernel.h"
#include "cmd/cmd_question.h"
#include "cmd/commands.h"
#include "compile/compile.h"
#include "compile/whocalls.h"
#include "kimage/kimg.h"
#include "util/grow.h"
#include "util/readfile.h"

struct compile_args {
	struct cmd_target t;	/* -b, -k, --kernel, --kernel-config, --allow-drop */
	const char *target, *out, *base, *base_file;
	const char *apply, *config;
	const char *vmlinux, *sysmap, *modules, *root;	/* --check */
	const char *hook_settings, *label;
	struct cmd_question q;	/* --who-calls, --who-creates, --callers, --arg, --crash */
	int keep_bootargs, verbose, print_config, check;
};

static const char *compile_target_value(size_t i, const char **help)
{
	size_t n;

	for (n = 0; n < i && emit_targets[n].name; n++)
		;
	if (!emit_targets[n].name)
		return NULL;
	*help = emit_targets[n].summary;
	return emit_targets[n].name;
}

static const char *compile_crash_value(size_t i, const char **help)
{
	static const char *const names[] = { "console", "persistent" };
	static const char *const helps[] = {
		"dump on the serial console",
		"kept across a warm reboot, 6.12+",
	};

	if (i >= 2)
		return NULL;
	*help = helps[i];
	return names[i];
}

enum { O_BASE = CMD_O_VERB, O_BASE_FILE, O_KEEP, O_APPLY, O_WHO, O_CALLERS, O_PRINT,
       O_CRASH, O_CHECK, O_HOOKSET, O_LABEL, O_ARG, O_CREATES };

static const struct cmd_opt compile_out_opts[] = {
	{ 't', 't', "target", "TARGET", "output form (default cmdline):", CMD_OPT_KEY,
	  compile_target_value },
	CMD_ARG('o', "output", "OUT", 'o', "write to OUT (atomically) instead of stdout"),
	CMD_ARG(0, "base", "LINE", O_BASE,
		"existing line to merge into: the command line (cmdline, kernel-install, uki, "
		"rpi, uboot-*: bootargs), the bootcmd (bootoctlinux), /etc/default/grub's text "
		"(grub), the whole file (extlinux, u-boot-menu, bls); the bootloader targets "
		"default to board.cmdline.base"),
	CMD_ARG(0, "base-file", "FILE", O_BASE_FILE, "the same, read from FILE (- for stdin)"),
	CMD_FLAG(0, "keep-bootargs", O_KEEP, "uboot-script, uboot-scr: append to ${bootargs} "
		 "when the script runs, instead of a base"),
	CMD_ARG(0, "label", "NAME", O_LABEL, "extlinux: merge into the APPEND of LABEL NAME "
		"(default: the DEFAULT label, else MENU DEFAULT, else the first)"),
	CMD_ARG(0, "apply", "INITRD", O_APPLY, "bootconfig target: apply to INITRD (as "
		"bootconfig -a)"),
	CMD_ARG(0, "hook-settings", "FILE", O_HOOKSET, "write the hook's boottrace.* settings "
		"to FILE (for the initramfs's /etc/boottrace.conf) instead of onto the command "
		"line"),
	CMD_OPT_END,
};

static const struct cmd_opt compile_who_opts[] = {
	CMD_ARG(0, "who-calls", "FUNC,...", O_WHO, "compile the recommended config to find who "
		"calls each FUNC"),
	CMD_ARG(0, "arg", "NAME=FETCH", O_ARG, "with --who-calls FUNC: a boot kprobe on FUNC "
		"records NAME=FETCH[:TYPE] at each call (the arch's registers, e.g. "
		"name=+0(%di):string on x86_64; $argN on 6.1+ x86_64, arm64, riscv); report "
		"shows each value with its culprit"),
	CMD_ARG(0, "who-creates", "DEV", O_CREATES, "--who-calls register_netdevice with --arg "
		"name=+0(REG):string, REG the board's (-b) first-argument register: who created "
		"the network device DEV (and every other one)"),
	CMD_ARG(0, "callers", "LIST", O_CALLERS, "callers to trace in parent-chain mode (FUNC "
		"or FUNC:mod:MODULE)"),
	CMD_FLAG(0, "print-config", O_PRINT, "with --who-calls: print the config instead"),
	{ O_CRASH, 0, "crash", "MODE", "with --who-calls: catch a boot that panics or hangs "
	  "before the hook (docs/crash.md):", 0, compile_crash_value },
	CMD_OPT_END,
};

static const struct cmd_opt compile_check_opts[] = {
	CMD_FLAG(0, "check", O_CHECK, "first run boottrace check on the config (findings on "
		 "stderr; errors stop the compile), with the kernel's files below; any of them "
		 "(--modules alone aside) or --kernel IMAGE implies it"),
	CMD_OPT_END,
};

static const struct cmd_optgroup compile_groups[] = {
	{ "Output", compile_out_opts },
	{ "The target kernel and board", cmd_opts_target },
	{ NULL, cmd_opts_image },
	{ "Who calls a function", compile_who_opts },
	{ "Check first", compile_check_opts },
	{ NULL, cmd_opts_kfiles },
	{ NULL, NULL },
};

static const char *const compile_forms[] = {
	"--who-calls FUNC[,FUNC...] [--callers LIST] [--print-config] [OPTIONS]",
	"--who-calls FUNC --arg NAME=FETCH [--arg ...] [OPTIONS]",
	"--who-creates NETDEV [-b BOARD] [OPTIONS]",
	NULL,
};

static void compile_epilog(FILE *f)
{
	fputs("Exit status: 0 compiled (or written with --apply/-o), 1 the config is\n"
	      "refused (or --check found errors), 2 usage, 3 environment (I/O, memory).\n"
	      "See boottrace(1) and boottrace.bconf(5).\n", f);
}

static int cmd_compile(int argc, char **argv);

const struct cmd_verb cmd_compile_verb = {
	.name = "compile", .run = cmd_compile, .operands = "CONFIG",
	.summary = "config -> cmdline, bootconfig, bootloader form",
	.forms = compile_forms,
	.about = "Turn a boot-trace config (bootconfig syntax: ftrace.*, kernel.*, init.*,\n"
		 "boottrace.*) into what the target kernel and bootloader really need, or refuse\n"
		 "what would silently do nothing at boot. With --kernel IMAGE every word is\n"
		 "checked against the image's own table of boot parameters, and a bzImage's\n"
		 "command-line size replaces the board's.\n",
	.groups = compile_groups, .verbose = "where each setting goes and why",
	.epilog = compile_epilog,
};

/* The option @c getopt returned, into @a: 0, or -1 having said why. */
static int compile_take(struct compile_args *a, int c, const char *arg)
{
	if (cmd_target_take(&a->t, c, arg))
		return 0;
	switch (c) {
	case 't': a->target = arg; break;
	case 'o': a->out = arg; break;
	case CMD_O_VMLINUX: a->vmlinux = arg; break;
	case CMD_O_SYSMAP: a->sysmap = arg; break;
	case CMD_O_MODULES: a->modules = arg; break;
	case CMD_O_ROOT: a->root = arg; break;
	case O_BASE: a->base = arg; break;
	case O_BASE_FILE: a->base_file = arg; break;
	case O_KEEP: a->keep_bootargs = 1; break;
	case O_APPLY: a->apply = arg; break;
	case O_WHO: a->q.func = arg; break;
	case O_CALLERS: a->q.callers = arg; break;
	case O_PRINT: a->print_config = 1; break;
	case O_CRASH: a->q.crash = arg; break;
	case O_CHECK: a->check = 1; break;
	case O_HOOKSET: a->hook_settings = arg; break;
	case O_LABEL: a->label = arg; break;
	case O_CREATES: a->q.creates = arg; break;
	case O_ARG: return cmd_question_arg(&a->q, arg);
	default: return -1;
	}
	return 0;
}

/* What goes with what, once every option is in: CMD_RUN or CMD_BAD, said. */
static enum cmd_parse compile_args_check(struct compile_args *a, int extra)
{
	/* --modules alone may only feed --who-calls' caller search. */
	if (a->vmlinux || a->sysmap || a->root || a->t.image)
		a->check = 1;
	if (cmd_question_settle(&a->q))
		return CMD_BAD;
	if (a->q.nargs && !a->q.func) {
		bt_say(NULL, BT_SAY_ERROR, "--arg %s goes with --who-calls FUNC (the function whose calls it records)", a->q.args[0]);
		return CMD_BAD;
	}
	if (extra || (!a->config == !a->q.func) ||
	    (a->base && a->base_file) || ((a->q.callers || a->print_config || a->q.crash) &&
					   !a->q.func)) {
		bt_say(NULL, BT_SAY_ERROR, "give one CONFIG, --who-calls or --who-creates (--callers, --arg, --print-config and --crash go with --who-calls; --base or --base-file, not both)");
		return CMD_BAD;
	}
	if (a->q.crash && !cmd_opt_value_ok(cmd_opt_find(&cmd_compile_verb, O_CRASH), a->q.crash)) {
		bt_say(NULL, BT_SAY_ERROR, "--crash %s: give console (the dump on the serial console) or persistent (kept across a warm reboot, 6.12+)", a->q.crash);
		return CMD_BAD;
	}
	return CMD_RUN;
}

static enum cmd_parse compile_parse_args(int argc, char **argv, struct compile_args *a)
{
	int c;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, &cmd_compile_verb)) != -1) {
		if (c == CMD_OPT_HELP)
			return CMD_HELP;
		if (compile_take(a, c, optarg))
			return CMD_BAD;
	}
	if (optind < argc)
		a->config = argv[optind++];
	a->verbose = bt_verbose();
	return compile_args_check(a, optind < argc);
}

/* --base-file: one line (newlines count as spaces, as for the kernel). */
static char *compile_read_base(const char *path, struct bt_error *e)
{
	size_t len;

	return readfile(path, 65536, 0, "a command line", &len, e);
}

/*
 * The line to merge into: --base, --base-file, else for a bootloader
 * target the profile's board.cmdline.base (not under --keep-bootargs,
 * which takes the board's line when the script runs).
 */
static const char *compile_base(const struct compile_args *a,
				const struct emit_target *t,
				const struct board *b, const char *file_base)
{
	if (file_base || a->base)
		return file_base ? file_base : a->base;
	if (a->keep_bootargs || !b->cmdline_base[0] ||
	    !strcmp(t->name, "cmdline") || t->route == EMIT_FROM_BOOTCONFIG ||
	    t->base_is_file)
		return NULL;
	if (a->verbose)
		bt_say(NULL, BT_SAY_PLAIN, "merging into board.cmdline.base of %s: %s", b->path, b->cmdline_base);
	return b->cmdline_base;
}

/* --check: the checks of `boottrace check` on the config about to be compiled. */
static int compile_check(const struct compile_args *a, const struct source *src,
			 struct cmd_kernel *kern, struct bt_error *e)
{
	struct check_inputs in = { .vmlinux = a->vmlinux, .sysmap = a->sysmap,
				   .modules = a->modules, .kconfig = a->t.kconfig,
				   .root = a->root, .kernel = a->t.image };

	return cmd_kernel_check(kern, &in, src, "boottrace compile", e);
}

/*
 * Bytes the caller list of --who-calls may take: half the board's line, the
 * rest is the board's own; in a settings file (--hook-settings) the line
 * carries none of it, and the hook reads the file whole.
 */
static size_t compile_caller_budget(const struct compile_args *a,
				    const struct board *b)
{
	return a->hook_settings ? 65536 : (b->cmdline_max - b->cmdline_loader) / 2;
}

/* -t and what goes with it: 0, or -1 having said what is wrong. */
static int compile_target_ok(const struct compile_args *a,
			     const struct emit_target *t)
{
	if (!t) {
		bt_say(NULL, BT_SAY_ERROR, "unknown target '%s' (see boottrace compile --help)", a->target);
		return -1;
	}
	if (a->label && strcmp(t->name, "extlinux")) {
		bt_say("boottrace compile", BT_SAY_ERROR, "--label goes with -t extlinux");
		return -1;
	}
	if (a->apply && t->route != EMIT_FROM_BOOTCONFIG) {
		bt_say(NULL, BT_SAY_ERROR, "--apply goes with -t bootconfig");
		return -1;
	}
	return 0;
}

/* One compile's state, from the options to the emitter; compile_done frees it. */
struct compile_job {
	struct compile_args a;
	const struct emit_target *t;
	struct board b;
	struct cmd_kernel kern;	/* -k, --kernel-config, --kernel IMAGE */
	struct source src;
	char *base, *conf, *found;	/* --base-file's line, --who-calls' config, its callers */
};

/* The kernel (-k, --kernel-config, --kernel), the board and the line to merge into. */
static int compile_prepare(struct compile_job *j, struct bt_error *e)
{
	const struct compile_args *a = &j->a;

	j->kern.kver = a->t.kver;
	j->kern.kconfig = a->t.kconfig;
	j->kern.image = a->t.image;
	j->kern.verbose = a->verbose;
	if (cmd_kernel_load(&j->kern, e))
		return -1;
	if (a->t.board ? board_load(a->t.board, &j->b, e) : (board_generic(&j->b), 0))
		return -1;
	if (cmd_kernel_cmdline_size(&j->kern, &j->b, e))
		return -1;
	if (a->base_file && !(j->base = compile_read_base(a->base_file, e)))
		return -1;
	return 0;
}

/*
 * --who-calls without --callers on a board whose stacks are all zero: the
 * callers from the kernel's code, half the line for the chain (the rest is
 * the board's own).
 */
static int compile_find_callers(struct compile_job *j, struct bt_error *e)
{
	struct compile_args *a = &j->a;
	struct bt_progress prog;

	if (!a->q.func || a->q.callers || !j->b.ftrace_stack_zero ||
	    !(a->vmlinux || a->modules))
		return 0;
	bt_progress_init(&prog, STDERR_FILENO, bt_quiet(), "boottrace compile");
	j->found = whocalls_find_callers(a->q.func, a->vmlinux, a->modules,
					 compile_caller_budget(a, &j->b), 3, &prog, e);
	bt_progress_end(&prog);
	if (!j->found)
		return -1;
	if (a->verbose)
		bt_say("route", BT_SAY_PLAIN, "--who-calls: callers from the kernel's code: %s", j->found);
	a->q.callers = j->found;
	return 0;
}

/* The config: CONFIG's file, or the one --who-calls writes. */
static int compile_load_config(struct compile_job *j, struct bt_error *e)
{
	const struct compile_args *a = &j->a;

	if (!a->q.func)
		return source_load(a->config, &j->src, e);
	j->conf = cmd_question_config(&j->a.q, &j->b, &j->kern.k,
				      j->t->route == EMIT_FROM_BOOTCONFIG, e);
	if (!j->conf)
		return -1;
	return source_load_text("--who-calls", j->conf, strlen(j->conf), &j->src, e);
}

/* --print-config: the config --who-calls wrote, instead of its compiled form. */
static int compile_print_config(const struct compile_job *j, struct bt_error *e)
{
	fputs(j->conf, stdout);
	return fflush(stdout) ? bt_error_errno(e, errno, NULL, "cannot write output") : 0;
}

/* The checks of --check, then the route and the target's emitter. */
static int compile_emit(struct compile_job *j, struct bt_error *e)
{
	const struct compile_args *a = &j->a;
	struct compile_opts co = { 0 };

	if (a->check && compile_check(a, &j->src, &j->kern, e))
		return -1;
	kimg_free(&j->kern.img);	/* read: what is left does not need it */
	co.route.allow_drop = a->t.allow_drop;
	co.route.verbose = a->verbose;
	co.base = compile_base(a, j->t, &j->b, j->base);
	co.keep_bootargs = a->keep_bootargs;
	co.apply = a->apply;
	co.out = a->out;
	co.label = a->label;
	co.base_name = a->base_file;
	co.hook_settings = a->hook_settings;
	return compile_source(&j->src, &j->kern.k, &j->b, j->t, &co, e);
}

static void compile_done(struct compile_job *j)
{
	cmd_kernel_free(&j->kern);
	source_free(&j->src);
	free(j->conf);
	free(j->found);
	free(j->base);
	cmd_question_free(&j->a.q);
}

static int cmd_compile(int argc, char **argv)
{
	struct compile_job j = { 0 };
	struct bt_error e;
	int ret;

	bt_error_clear(&e);
	ret = compile_parse_args(argc, argv, &j.a);
	if (ret) {
		cmd_question_free(&j.a.q);
		return cmd_parse_exit(ret, &cmd_compile_verb);
	}
	j.t = emit_find(j.a.target);
	if (compile_target_ok(&j.a, j.t)) {
		cmd_question_free(&j.a.q);
		return BT_EXIT_USAGE;
	}
	ret = -1;
	if (!compile_prepare(&j, &e) && !compile_find_callers(&j, &e) &&
	    !compile_load_config(&j, &e))
		ret = j.a.print_config ? compile_print_config(&j, &e) : compile_emit(&j, &e);
	compile_done(&j);
	return ret ? cmd_fail(&e, BT_EXIT_INPUT) : BT_EXIT_OK;
}
