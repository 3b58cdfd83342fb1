/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace compile: config -> plan -> route -> target form. Also builds
 * the config itself for a question (--who-calls).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "cmd/commands.h"
#include "compile/compile.h"
#include "compile/whocalls.h"
#include "kimage/kimg.h"
#include "kernel/tracers.h"
#include "util/grow.h"
#include "util/readfile.h"

struct compile_args {
	const char *target, *board, *kver, *kconfig, *out, *base, *base_file;
	const char *apply, *config, *who_calls, *callers, *crash;
	const char *vmlinux, *sysmap, *modules, *root;	/* --check */
	const char *image;	/* --kernel IMAGE (a file; --kernel VER is -k) */
	const char *hook_settings, *label;
	const char *creates;		/* --who-creates NETDEV */
	const char **args;		/* --arg NAME=FETCH, in order */
	size_t nargs, capargs;
	int keep_bootargs, allow_drop, verbose, print_config, check;
};

static int compile_usage(FILE *f)
{
	const struct emit_target *t;

	fputs("usage: boottrace compile [-t TARGET] [-b BOARD] [-k KVER] [--kernel-config FILE]\n"
	      "                         [-o OUT] [--base LINE | --base-file FILE] [--keep-bootargs]\n"
	      "                         [--apply INITRD] [--allow-drop] [-q] [-v] CONFIG\n"
	      "       boottrace compile --who-calls FUNC[,FUNC...] [--callers LIST] [--print-config] ...\n"
	      "       boottrace compile --who-calls FUNC --arg NAME=FETCH [--arg ...] ...\n"
	      "       boottrace compile --who-creates NETDEV [-b BOARD] ...\n\n"
	      "Turn a boot-trace config (bootconfig syntax: ftrace.*, kernel.*, init.*, boottrace.*)\ninto what the target kernel and bootloader really need, or refuse what would\nsilently do nothing at boot.\n\n"
	      "  -t TARGET         output form (default cmdline):\n", f);
	for (t = emit_targets; t->name; t++)
		fprintf(f, "                      %-15s %s\n", t->name, t->summary);
	fputs("  -b BOARD          board profile name or file (boottrace boards)\n"
	      "  -k KVER           target kernel version, e.g. 4.9, 5.10, 6.1\n"
	      "  --kernel-config F the target kernel's .config (version from its header if no -k;\n"
	      "                    wins over --kernel IMAGE's own)\n"
	      "  -o OUT            write to OUT (atomically) instead of stdout\n"
	      "  --base LINE       existing line to merge into: the command line (cmdline,\n"
	      "                    kernel-install, uki, rpi, uboot-*: bootargs), the bootcmd\n"
	      "                    (bootoctlinux), /etc/default/grub's text (grub), the\n"
	      "                    whole file (extlinux, u-boot-menu, bls); the\n"
	      "                    bootloader targets default to board.cmdline.base\n"
	      "  --base-file FILE  the same, read from FILE (- for stdin)\n"
	      "  --keep-bootargs   uboot-script, uboot-scr: append to ${bootargs} when the\n"
	      "                    script runs, instead of a base\n"
	      "  --label NAME      extlinux: merge into the APPEND of LABEL NAME (default: the\n"
	      "                    DEFAULT label, else MENU DEFAULT, else the first)\n"
	      "  --apply INITRD    bootconfig target: apply to INITRD (as bootconfig -a)\n"
	      "  --allow-drop      drop, with a warning each, what the target cannot carry\n"

	      "  --who-calls F,... compile the recommended config to find who calls F\n"
	      "  --arg NAME=FETCH  with --who-calls FUNC: a boot kprobe on FUNC records\n"
	      "                    NAME=FETCH[:TYPE] at each call (the arch's registers, e.g.\n"
	      "                    name=+0(%di):string on x86_64; $argN on 6.1+ x86_64, arm64,\n"
	      "                    riscv); report shows each value with its culprit\n"
	      "  --who-creates DEV --who-calls register_netdevice with --arg name=+0(REG):string,\n"
	      "                    REG the board's (-b) first-argument register: who created\n"
	      "                    the network device DEV (and every other one)\n"
	      "  --callers LIST    callers to trace in parent-chain mode (FUNC or FUNC:mod:MODULE)\n"
	      "  --print-config    with --who-calls: print the config instead\n"
	      "  --crash MODE      with --who-calls: catch a boot that panics or hangs before\n"
	      "                    the hook (console: dump on the serial console; persistent:\n"
	      "                    kept across a warm reboot, 6.12+); see docs/crash.md\n"
	      "  --check           first run boottrace check on the config (findings on\n"
	      "                    stderr; errors stop the compile), with:\n"
	      "  --vmlinux F, --system-map F, --modules DIR, --root DIR  as for check\n"
	      "  --kernel IMAGE    as for check: the image's own symbols (kallsyms), and\n"
	      "                    its own table of boot parameters: a word it lacks is\n"
	      "                    refused; a bzImage's command-line size replaces the\n"
	      "                    board's; its own .config (IKCONFIG), else config-VER\n"
	      "                    beside it, when no --kernel-config; a --kernel that is\n"
	      "                    a version (6.1) is -k\n"
	      "  --hook-settings F write the hook's boottrace.* settings to F (for the initramfs's\n"
	      "                    /etc/boottrace.conf) instead of onto the command line\n", f);
	cmd_common_usage(f);
	fputs("  (-v here: where each setting goes and why)\n\n"
	      "Exit status: 0 compiled (or written with --apply/-o), 1 the config is\n"
	      "refused (or --check found errors), 2 usage, 3 environment (I/O, memory).\n"
	      "See boottrace(1) and boottrace.bconf(5).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

/* "6.1", "6.12": a kernel version; anything else given to --kernel is an image file. */
static int compile_is_version(const char *s)
{
	if (*s < '0' || *s > '9')
		return 0;
	return strspn(s, "0123456789.") == strlen(s);
}

enum { O_KCONFIG = 256, O_BASE, O_BASE_FILE, O_KEEP, O_APPLY, O_DROP,
       O_WHO, O_CALLERS, O_PRINT, O_CRASH, O_CHECK, O_VMLINUX, O_SYSMAP, O_KERNEL, O_MODULES,
       O_ROOT, O_HOOKSET, O_LABEL, O_ARG, O_CREATES };

static enum cmd_parse compile_parse_args(int argc, char **argv, struct compile_args *a)
{
	static const struct option opts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "board", required_argument, NULL, 'b' },
		{ "kernel", required_argument, NULL, O_KERNEL },
		{ "output", required_argument, NULL, 'o' },
		{ "kernel-config", required_argument, NULL, O_KCONFIG },
		{ "base", required_argument, NULL, O_BASE },
		{ "base-file", required_argument, NULL, O_BASE_FILE },
		{ "keep-bootargs", no_argument, NULL, O_KEEP },
		{ "apply", required_argument, NULL, O_APPLY },
		{ "allow-drop", no_argument, NULL, O_DROP },
		{ "who-calls", required_argument, NULL, O_WHO },
		{ "callers", required_argument, NULL, O_CALLERS },
		{ "print-config", no_argument, NULL, O_PRINT },
		{ "crash", required_argument, NULL, O_CRASH },
		{ "check", no_argument, NULL, O_CHECK },
		{ "vmlinux", required_argument, NULL, O_VMLINUX },
		{ "system-map", required_argument, NULL, O_SYSMAP },
		{ "modules", required_argument, NULL, O_MODULES },
		{ "root", required_argument, NULL, O_ROOT },
		{ "hook-settings", required_argument, NULL, O_HOOKSET },
		{ "label", required_argument, NULL, O_LABEL },
		{ "arg", required_argument, NULL, O_ARG },
		{ "who-creates", required_argument, NULL, O_CREATES },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, "t:b:k:o:", opts)) != -1) {
		switch (c) {
		case 't': a->target = optarg; break;
		case 'b': a->board = optarg; break;
		case 'k': a->kver = optarg; break;
		case O_KERNEL:
			/* a version as -k (as it always was), else an image file */
			if (compile_is_version(optarg))
				a->kver = optarg;
			else
				a->image = optarg;
			break;
		case 'o': a->out = optarg; break;
		case CMD_OPT_HELP: return CMD_HELP;
		case O_KCONFIG: a->kconfig = optarg; break;
		case O_BASE: a->base = optarg; break;
		case O_BASE_FILE: a->base_file = optarg; break;
		case O_KEEP: a->keep_bootargs = 1; break;
		case O_APPLY: a->apply = optarg; break;
		case O_DROP: a->allow_drop = 1; break;
		case O_WHO: a->who_calls = optarg; break;
		case O_CALLERS: a->callers = optarg; break;
		case O_PRINT: a->print_config = 1; break;
		case O_CRASH: a->crash = optarg; break;
		case O_CHECK: a->check = 1; break;
		case O_VMLINUX: a->vmlinux = optarg; break;
		case O_SYSMAP: a->sysmap = optarg; break;
		case O_MODULES: a->modules = optarg; break;
		case O_ROOT: a->root = optarg; break;
		case O_HOOKSET: a->hook_settings = optarg; break;
		case O_LABEL: a->label = optarg; break;
		case O_CREATES: a->creates = optarg; break;
		case O_ARG:
			/* one slot more for --who-creates' own */
			if (BT_GROW(a->args, a->nargs + 2, a->capargs) < 0) {
				bt_say(NULL, BT_SAY_ERROR, "out of memory");
				return CMD_BAD;
			}
			a->args[a->nargs++] = optarg;
			break;
		default: return CMD_BAD;
		}
	}
	if (optind < argc)
		a->config = argv[optind++];
	a->verbose = bt_verbose();
	/* --modules alone may only feed --who-calls' caller search. */
	if (a->vmlinux || a->sysmap || a->root || a->image)
		a->check = 1;
	if (a->creates && a->who_calls) {
		bt_say(NULL, BT_SAY_ERROR, "--who-creates %s is --who-calls %s with its own --arg: give one of them", a->creates, WHOCALLS_CREATES_FUNC);
		return CMD_BAD;
	}
	if (a->creates)
		a->who_calls = WHOCALLS_CREATES_FUNC;
	if (a->nargs && !a->who_calls) {
		bt_say(NULL, BT_SAY_ERROR, "--arg %s goes with --who-calls FUNC (the function whose calls it records)", a->args[0]);
		return CMD_BAD;
	}
	if (optind < argc || (!a->config == !a->who_calls) ||
	    (a->base && a->base_file) || ((a->callers || a->print_config || a->crash) &&
					   !a->who_calls)) {
		bt_say(NULL, BT_SAY_ERROR, "give one CONFIG, --who-calls or --who-creates (--callers, --arg, --print-config and --crash go with --who-calls; --base or --base-file, not both)");
		return CMD_BAD;
	}
	if (a->crash && strcmp(a->crash, "console") && strcmp(a->crash, "persistent")) {
		bt_say(NULL, BT_SAY_ERROR, "--crash %s: give console (the dump on the serial console) or persistent (kept across a warm reboot, 6.12+)", a->crash);
		return CMD_BAD;
	}
	return CMD_RUN;
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

/* What --kernel IMAGE gave besides the kcaps: its command-line size. */
struct compile_image {
	unsigned cmdline_size;	/* the setup header's cmdline_size, 0: none */
	struct kimg img;	/* the unpacked image, for --check to read once */
};

/* The tracers whose code the image's symbols hold (kernel/tracers.c). */
static void compile_image_tracers(const char *image, const char *text,
				  size_t len, struct kcaps *k)
{
	const char *const *w = ktracer_witnesses();
	uint64_t addr[32];
	int n = 0;

	while (w[n])
		n++;
	ktracer_set_symbols(k, kimg_syms(text, len, w, addr, n), image);
}

/*
 * --kernel IMAGE: the boot parameters the image's own table holds, for the
 * routes to check every word against (kimage/kimg_params.c), its .config
 * when no --kernel-config is given (check/check_kconfig.c), and its
 * command-line size (kimg.h).
 */
static int compile_image_read(const struct compile_args *a, struct kcaps *k,
			      struct kimg_params *p, struct compile_image *ci,
			      struct bt_error *e)
{
	struct kimg *img = &ci->img;
	struct bt_error why;
	char *text = NULL, how[400];
	size_t len, nsyms;
	int ret;

	if (kimg_load(a->image, img, e))
		return -1;
	ci->cmdline_size = img->cmdline_size;
	ret = check_image_kconfig(img, a->image, "the checks against its CONFIG_ options (bootconfig support, tracers, kprobe events)", k, e);
	if (!ret)
		ret = kimg_kallsyms(img, a->image, &text, &len, &nsyms, how, sizeof(how), e);
	if (!ret)
		compile_image_tracers(a->image, text, len, k);
	if (!ret && kimg_params(img, text, len, a->image, p, &why)) {
		/* no table found: the version table still decides, and we say so */
		if (why.code != BT_EXIT_INPUT)
			*e = why, ret = -1;
		else
			bt_say(NULL, BT_SAY_WARN, "%s: %s; the words are checked against the version table only",
			       a->image, why.msg);
	}
	free(text);
	if (ret || !p->n)
		return ret;
	k->image_path = a->image;
	k->image_params = p->name;
	k->nimage_params = p->n;
	if (a->verbose)
		bt_say("route", BT_SAY_PLAIN, "boot parameters: the %zu of %s's own __setup/early_param table (%zu early), at byte %zu of the unpacked kernel; a word it lacks is refused",
		       p->n, a->image, p->early, p->at);
	return 0;
}

static int compile_kernel(const struct compile_args *a, struct kcaps *k,
			  struct kimg_params *p, struct compile_image *ci,
			  struct bt_error *e)
{
	memset(k, 0, sizeof(*k));
	if (a->kver && kcaps_set_version(k, a->kver, e))
		return -1;
	if (a->kconfig && kcaps_load_config(k, a->kconfig, e))
		return -1;
	if (a->image && compile_image_read(a, k, p, ci, e))
		return -1;
	if (!k->version && a->verbose)
		bt_say("route", BT_SAY_PLAIN, "no -k or --kernel-config: kernel version checks are skipped");
	return 0;
}

/*
 * The command-line size: a bzImage's setup header says its kernel's
 * (cmdline_size, the NUL not counted: kernel-facts 110) and replaces the
 * board's; other images keep the board's. -v says which.
 */
static int compile_cmdline_size(const struct compile_args *a,
				const struct compile_image *ci, struct board *b,
				struct bt_error *e)
{
	unsigned size;

	if (!a->image)
		return 0;
	if (!ci->cmdline_size || ci->cmdline_size >= 1u << 20) {
		if (a->verbose)
			bt_say("route", BT_SAY_PLAIN, "command-line size %u from board %s (%s: %s)", b->cmdline_max, b->name, a->image,
			       ci->cmdline_size ? "its setup header's cmdline_size is past 1 MiB, not taken" : "no x86 setup header with cmdline_size in it");
		return 0;
	}
	size = ci->cmdline_size + 1;
	if (size != b->cmdline_max)
		bt_say(a->image, BT_SAY_NOTE, "the kernel takes %u bytes of command line (its setup header's cmdline_size, the NUL not counted), board %s says COMMAND_LINE_SIZE %u: the image's %u is used",
		       ci->cmdline_size, b->name, b->cmdline_max, size);
	if (b->cmdline_loader >= size)
		return bt_error_set(e, BT_EXIT_INPUT, a->image, "byte 568: the setup header's cmdline_size %u leaves nothing of the line once board %s's loader takes its %u bytes (board.cmdline.loader): give another -b or --kernel", ci->cmdline_size, b->name, b->cmdline_loader);
	b->cmdline_max = size;
	snprintf(b->cmdline_from, sizeof(b->cmdline_from), "the setup header of %s", a->image);
	if (a->verbose)
		bt_say("route", BT_SAY_PLAIN, "command-line size %u from the image's setup header (cmdline_size %u at byte 568 of %s)", size, ci->cmdline_size, a->image);
	return 0;
}

/*
 * --check: the checks of `boottrace check` on the config about to be
 * compiled. Its findings go to stderr, since stdout carries the compiled
 * form; errors among them stop the compile.
 */
static int compile_check(const struct compile_args *a, const struct source *src,
			 const struct kcaps *kc, struct compile_image *ci,
			 struct bt_error *e)
{
	struct check_inputs in = { .vmlinux = a->vmlinux, .sysmap = a->sysmap,
				   .modules = a->modules, .kconfig = a->kconfig,
				   .root = a->root, .kernel = a->image,
				   .kconfig_ready = !!a->image, .image = &ci->img };
	const struct check_opts o = { 1000 };
	struct ksyms t = { 0 };
	struct bt_progress prog;
	struct kcaps k;
	int ret = -1;

	memset(&k, 0, sizeof(k));
	if (in.kconfig_ready)	/* the .config compile read with the image's (said once) */
		kcaps_copy_config(&k, kc);
	fflush(stdout);
	/* a big vmlinux and a modules tree take a while: a line on a terminal */
	bt_progress_init(&prog, STDERR_FILENO, bt_quiet(), "boottrace compile");
	t.progress = &prog;
	if ((!in.root || !check_inputs_from_root(&in, e)) &&
	    !check_inputs_load(&in, &t, &k, e)) {
		bt_progress_end(&prog);
		ret = check_source(src, &t, &k, &o, 0, stderr, e);
	}
	bt_progress_end(&prog);
	ksyms_free(&t);
	if (ret > 0)	/* the findings said it all */
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s", "");
	return ret;
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

int cmd_compile(int argc, char **argv)
{
	struct compile_args a = { 0 };
	struct compile_opts co = { 0 };
	const struct emit_target *t;
	struct source src = { 0 };
	struct board b;
	struct kcaps k;
	struct kimg_params params = { 0 };
	struct compile_image ci = { 0 };
	struct bt_error e;
	char *base = NULL, *conf = NULL, *found = NULL;
	char creates_arg[64];
	struct whocalls_probe probe = { 0 };
	int ret;

	bt_error_clear(&e);
	ret = compile_parse_args(argc, argv, &a);
	if (ret) {
		free(a.args);
		return cmd_parse_exit(ret, compile_usage);
	}
	t = emit_find(a.target);
	if (compile_target_ok(&a, t)) {
		free(a.args);
		return BT_EXIT_USAGE;
	}
	ret = -1;
	if (compile_kernel(&a, &k, &params, &ci, &e))
		goto out;
	if (a.board ? board_load(a.board, &b, &e) : (board_generic(&b), 0))
		goto out;
	if (compile_cmdline_size(&a, &ci, &b, &e))
		goto out;
	if (a.base_file && !(base = compile_read_base(a.base_file, &e)))
		goto out;
	if (a.who_calls && !a.callers && b.ftrace_stack_zero &&
	    (a.vmlinux || a.modules)) {
		/* Half the line for the chain: the rest is the board's own. */
		struct bt_progress prog;

		bt_progress_init(&prog, STDERR_FILENO, bt_quiet(), "boottrace compile");
		found = whocalls_find_callers(a.who_calls, a.vmlinux, a.modules,
					      compile_caller_budget(&a, &b), 3,
					      &prog, &e);
		bt_progress_end(&prog);
		if (!found)
			goto out;
		if (a.verbose)
			bt_say("route", BT_SAY_PLAIN, "--who-calls: callers from the kernel's code: %s", found);
		a.callers = found;
	}
	if (a.creates) {
		if (whocalls_creates(a.creates, &b, creates_arg,
				     sizeof(creates_arg), &e))
			goto out;
		/* the device's name first, then the user's own --arg */
		if (!a.args && BT_GROW(a.args, 1, a.capargs) < 0) {
			bt_error_set(&e, BT_EXIT_ENV, NULL, "out of memory");
			goto out;
		}
		memmove(a.args + 1, a.args, a.nargs * sizeof(*a.args));
		a.args[0] = creates_arg;
		a.nargs++;
		probe.object = a.creates;
	}
	probe.args = a.args;
	probe.nargs = a.nargs;
	if (a.who_calls) {
		conf = whocalls_config(a.who_calls, a.callers, &b, &k,
				       whocalls_lineage_fits(&b, t->route == EMIT_FROM_BOOTCONFIG),
				       a.crash, &probe, &e);
		if (!conf || source_load_text("--who-calls", conf, strlen(conf),
					      &src, &e))
			goto out;
		if (a.print_config) {
			fputs(conf, stdout);
			ret = fflush(stdout) ? bt_error_errno(&e, errno, NULL,
					"cannot write output") : 0;
			goto out;
		}
	} else if (source_load(a.config, &src, &e)) {
		goto out;
	}
	if (a.check && compile_check(&a, &src, &k, &ci, &e)) {
		ret = -1;
		goto out;
	}
	kimg_free(&ci.img);	/* read: what is left does not need it */
	co.route.allow_drop = a.allow_drop;
	co.route.verbose = a.verbose;
	co.base = compile_base(&a, t, &b, base);
	co.keep_bootargs = a.keep_bootargs;
	co.apply = a.apply;
	co.out = a.out;
	co.label = a.label;
	co.base_name = a.base_file;
	co.hook_settings = a.hook_settings;
	ret = compile_source(&src, &k, &b, t, &co, &e);
out:
	kimg_params_free(&params);
	kimg_free(&ci.img);
	source_free(&src);
	free(conf);
	free(found);
	free(base);
	free(a.args);
	return ret ? cmd_fail(&e, BT_EXIT_INPUT) : BT_EXIT_OK;
}
