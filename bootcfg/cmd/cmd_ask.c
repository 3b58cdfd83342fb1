// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * boottrace ask: a question about the next boot of this machine, made
 * ready in one command (docs/ask.md). It learns the machine (host/host.h)
 * instead of asking for a board, compiles the question's config for the
 * loader that booted it, checks it against the running kernel's image,
 * makes sure the hook and the collect unit will be there, and arms the
 * one-shot (arm/arm.h). It says in plain words what the reboot will do
 * and what to run after it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arm/arm.h"
#include "cmd/cmd_kernel.h"
#include "cmd/cmd_question.h"
#include "cmd/commands.h"
#include "host/host.h"

struct ask_args {
	struct cmd_target t;	/* --kernel, --kernel-config */
	struct cmd_question q;	/* who-creates DEV, who-calls FUNC, --arg */
	const char *config;	/* ask CONFIG */
	const char *root, *loader;
	int dry_run;
};

enum { O_DRY = CMD_O_VERB, O_ROOT, O_LOADER, O_ARG };

static const struct cmd_opt ask_opts[] = {
	{ O_DRY, 0, "dry-run", NULL, "learn the machine, compile and check, and say what "
	  "would happen; change nothing", CMD_OPT_KEY, NULL },
	CMD_ARG(0, "root", "DIR", O_ROOT, "the machine's files are under DIR (its "
		"proc/sys/kernel/arch and osrelease, boot/, EFI variables, GRUB's files, the "
		"state); default /, this machine"),
	{ O_LOADER, 0, "loader", "LOADER", "the bootloader, when ask cannot tell it:",
	  0, cmd_loader_value },
	CMD_ARG(0, "arg", "NAME=FETCH", O_ARG, "who-calls: record this argument of each "
		"call (as compile --arg)"),
	CMD_OPT_END,
};

static const struct cmd_optgroup ask_groups[] = {
	{ NULL, ask_opts },
	{ "The kernel, when not the running one's", cmd_opts_image },
	{ NULL, NULL },
};

static void ask_epilog(FILE *f)
{
	fputs("Exit status: 0 armed (or, with --dry-run, it would be), 1 refused (the\n"
	      "machine could not be told, the config or the check, already armed), 2\n"
	      "usage, 3 environment (a tool missing or failing, I/O). See boottrace(1)\n"
	      "and docs/ask.md.\n", f);
}

static int cmd_ask(int argc, char **argv);

static const char *const ask_forms[] = {
	"[OPTIONS] who-calls FUNC [--arg NAME=FETCH]...",
	"[OPTIONS] CONFIG",
	NULL,
};

const struct cmd_verb cmd_ask_verb = {
	.name = "ask", .run = cmd_ask, .operands = "who-creates DEV",
	.forms = ask_forms,
	.summary = "ask a question of the next boot of this machine",
	.about = "On the machine to be traced (as root): learn its architecture, running\n"
		 "kernel, image, .config and bootloader; compile the question's config for\n"
		 "that loader and check it against the image; make sure the hook is in the\n"
		 "initramfs and that the collect unit runs on that boot; arm the one-shot\n"
		 "for the next boot only. Then reboot, and run boottrace report.\n",
	.groups = ask_groups, .epilog = ask_epilog,
};

static int ask_take(struct ask_args *a, int c, const char *arg)
{
	if (cmd_target_take(&a->t, c, arg))
		return 0;
	switch (c) {
	case O_DRY: a->dry_run = 1; break;
	case O_ROOT: a->root = arg; break;
	case O_LOADER: a->loader = arg; break;
	case O_ARG: return cmd_question_arg(&a->q, arg);
	default: return -1;
	}
	return 0;
}

/* The question: who-creates DEV, who-calls FUNC, or a CONFIG file. */
static enum cmd_parse ask_operands(struct ask_args *a, int n, char **v)
{
	if (n == 2 && !strcmp(v[0], "who-creates"))
		a->q.creates = v[1];
	else if (n == 2 && !strcmp(v[0], "who-calls"))
		a->q.func = v[1];
	else if (n == 1 && strcmp(v[0], "who-creates") && strcmp(v[0], "who-calls"))
		a->config = v[0];
	else {
		bt_say(NULL, BT_SAY_ERROR, "ask who-creates DEV, who-calls FUNC, or CONFIG (a config file of your own)");
		return CMD_BAD;
	}
	if (a->q.nargs && !a->q.func) {
		bt_say(NULL, BT_SAY_ERROR, "--arg %s goes with who-calls FUNC", a->q.args[0]);
		return CMD_BAD;
	}
	if (a->loader && !arm_loader_find(a->loader)) {
		bt_say(NULL, BT_SAY_ERROR, "--loader %s: unknown; ask knows %s", a->loader, arm_loader_names());
		return CMD_BAD;
	}
	return cmd_question_settle(&a->q) ? CMD_BAD : CMD_RUN;
}

static enum cmd_parse ask_parse(int argc, char **argv, struct ask_args *a)
{
	int c;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, &cmd_ask_verb)) != -1) {
		if (c == CMD_OPT_HELP)
			return CMD_HELP;
		if (ask_take(a, c, optarg))
			return CMD_BAD;
	}
	return ask_operands(a, argc - optind, argv + optind);
}

/* One job of ask, from the machine to the armed line. */
struct ask_job {
	struct ask_args a;
	struct host h;
	struct arm_opts ao;
	struct cmd_kernel kern;
	struct board b;
	struct source src;
	char *conf, *line, *fw_config;
	char collect[512];
	int hook;		/* the hook is in the initramfs: 1, 0, -1 unknown */
};

/*
 * The machine: arch, release, image, .config, initramfs and loader. What
 * cannot be told is gathered in @missing, every part of it said at once.
 */
static int ask_learn(struct ask_job *j, char *missing, size_t cap,
		     struct bt_error *e)
{
	struct ask_args *a = &j->a;
	char first[512];
	size_t n = 0;
	int r;

	if (host_kernel(a->root, &j->h, e))
		return -1;
	if (a->loader) {
		snprintf(j->h.loader, sizeof(j->h.loader), "%s", a->loader);
		snprintf(j->h.loader_why, sizeof(j->h.loader_why), "given with --loader");
	} else if ((r = host_loader(&j->h, e)) < 0)
		return -1;
	else if (!r)
		n += (size_t)snprintf(missing + n, cap - n, "the bootloader (%s: give --loader LOADER, one of %s)",
				      j->h.loader_why, arm_loader_names());
	if (!a->t.image && !j->h.image && n < cap) {
		snprintf(first, sizeof(first), host_image_paths[0], j->h.release);
		snprintf(missing + n, cap - n, "%sthe running kernel's image (no %s under %s, nor the other places docs/ask.md lists: give --kernel IMAGE)",
			 n ? "; " : "", first, a->root ? a->root : "/");
	}
	j->ao.loader = j->h.loader;
	j->ao.root = j->h.root;
	j->ao.entry = j->h.entry;	/* systemd-boot: the entry that booted, the running line */
	if (j->h.root && !(j->ao.fw_config = j->fw_config = arm_path(j->h.root, ARM_FW_CONFIG)))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return 0;
}

/* The kernel facts compile --kernel reads, and a board made of the machine. */
static int ask_kernel(struct ask_job *j, struct bt_error *e)
{
	const struct ask_args *a = &j->a;

	j->kern.image = a->t.image ? a->t.image : j->h.image;
	j->kern.kconfig = a->t.kconfig ? a->t.kconfig : j->h.config;
	j->kern.verbose = bt_verbose();
	if (cmd_kernel_load(&j->kern, e))
		return -1;
	board_generic(&j->b);
	snprintf(j->b.name, sizeof(j->b.name), "this-machine");
	snprintf(j->b.title, sizeof(j->b.title), "this machine (%s)", j->h.arch);
	snprintf(j->b.arch, sizeof(j->b.arch), "%s", j->h.arch);
	return cmd_kernel_cmdline_size(&j->kern, &j->b, e);
}

/*
 * The config, checked against the image as compile --check does. A
 * question about register_netdevice is about net/core, always in the
 * image: its check needs no modules tree; any other reads the modules of
 * the release, where a module's function is found.
 */
static int ask_config(struct ask_job *j, struct bt_error *e)
{
	struct ask_args *a = &j->a;
	struct check_inputs in = { .kernel = j->kern.image, .kconfig = j->kern.kconfig };
	char mods[4096];
	struct stat st;
	int ret;

	if (a->config)
		ret = source_load(a->config, &j->src, e);
	else if (!(j->conf = cmd_question_config(&a->q, &j->b, &j->kern.k, 0, e)))
		return -1;
	else
		ret = source_load_text(a->q.creates ? "who-creates" : "who-calls", j->conf,
				       strlen(j->conf), &j->src, e);
	if (ret)
		return -1;
	snprintf(mods, sizeof(mods), "%s/lib/modules/%s", j->h.root ? j->h.root : "", j->h.release);
	if (!a->q.creates && stat(mods, &st) == 0 && S_ISDIR(st.st_mode))
		in.modules = mods;
	return cmd_kernel_check(&j->kern, &in, &j->src, "boottrace ask", e);
}

/*
 * The hook in the initramfs the next boot takes: when it is not there,
 * the initramfs is built again by its generator (not with --dry-run, not
 * under --root: that system's tools are not ours to run).
 */
static int ask_hook(struct ask_job *j, struct bt_error *e)
{
	const char *gen;
	char *argv[5];
	struct bt_error why;

	bt_error_clear(&why);
	j->hook = host_hook_in_initrd(&j->h, &why);
	if (j->hook < 0) {
		bt_say(NULL, BT_SAY_WARN, "cannot tell whether the hook is in the initramfs: %s", why.msg);
		return 0;
	}
	if (j->hook)
		return 0;
	if (!(gen = host_hook_generator(&j->h)))
		return bt_error_set(e, BT_EXIT_INPUT, j->h.initrd, "has no boottrace hook, and none is installed: install boottrace-initramfs-tools (or boottrace-dracut), which rebuilds the initramfs with it");
	if (j->a.dry_run)
		return 0;
	if (j->h.root)
		return bt_error_set(e, BT_EXIT_INPUT, j->h.initrd, "has no boottrace hook: rebuild it inside that system (%s)", gen);
	bt_say(NULL, BT_SAY_NOTE, "%s has no boottrace hook: building it again with %s", j->h.initrd, gen);
	argv[0] = !strcmp(gen, "dracut") ? "dracut" : "update-initramfs";
	argv[1] = !strcmp(gen, "dracut") ? "-f" : "-u";
	argv[2] = !strcmp(gen, "dracut") ? "--kver" : "-k";
	argv[3] = j->h.release;
	argv[4] = NULL;
	if (arm_run(argv, !strcmp(gen, "dracut") ? "dracut" : "initramfs-tools", NULL, NULL, e))
		return -1;
	if ((j->hook = host_hook_in_initrd(&j->h, e)) < 0)
		return -1;
	if (!j->hook)
		return bt_error_set(e, BT_EXIT_ENV, j->h.initrd, "still has no boottrace hook after %s: look at %s's messages above", argv[0], gen);
	return 0;
}

static void ask_fact(const char *what, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void ask_fact(const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("  %-13s ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* What ask learnt, in the order it learnt it; a part not learnt is left out. */
static void ask_print_machine(const struct ask_job *j)
{
	const struct host *h = &j->h;

	printf("This machine:\n");
	ask_fact("architecture", "%s (%s)", h->arch, h->from);
	if (j->kern.image)
		ask_fact("kernel", "%s, image %s", h->release, j->kern.image);
	else
		ask_fact("kernel", "%s, image not found", h->release);
	if (j->kern.image)
		ask_fact(".config", "%s", j->kern.kconfig ? j->kern.kconfig :
			 "none beside the image: the image's own (IKCONFIG), if it has one");
	if (j->line)
		ask_fact("command line", "%u bytes at most (%s)", j->b.cmdline_max, j->b.cmdline_from[0] ?
			 j->b.cmdline_from : "no x86 setup header says: the kernel's usual 2048");
	if (h->loader[0])
		ask_fact("bootloader", "%s: %s", h->loader, h->loader_why);
	if (h->entry)
		ask_fact("", "it booted the entry %s", h->entry);
	if (!j->line)
		return;
	ask_fact("initramfs", "%s: %s", h->initrd ? h->initrd : "none found",
		 j->hook > 0 ? "the hook is in it" : j->hook == 0 ?
		 (j->a.dry_run ? "the hook is NOT in it: ask would build it again" : "the hook is not in it") :
		 "could not be listed (see the warning)");
	ask_fact("collect", "%s", j->collect);
}

static void ask_print_plan(const struct ask_job *j)
{
	const struct ask_args *a = &j->a;

	printf("\nThe question: %s%s%s\n", a->q.creates ? "who creates " : a->q.func ? "who calls " : "the config ",
	       a->q.creates ? a->q.creates : a->q.func ? a->q.func : a->config, a->config ? "" : "?");
	printf("\nThe next boot only, through %s's one-shot, takes this command line (%zu of %u bytes):\n  %s\n"
	       "(arming writes %s)\n",
	       j->h.loader, strlen(j->line), j->b.cmdline_max, j->line,
	       arm_loader_find(j->h.loader)->help);
	printf("\nWhat happens at that boot: the kernel traces from its first instructions;\n"
	       "the hook in the initramfs keeps what was traced in /run/boottrace; after the\n"
	       "boot, boottrace collect keeps it with the rest of the trace as a boot record\n"
	       "in /var/lib/boottrace/<boot-id>/ and puts the loader's files back. The boot\n"
	       "after it is a normal boot.\n");
	if (a->dry_run) {
		printf("\nDry run: nothing was changed. Without --dry-run ask arms that boot.\n");
		return;
	}
	printf("\nArmed. Reboot; after the boot, run:\n  boottrace report\n"
	       "(If that boot never happens, boottrace disarm-boot puts the loader's files back.)\n");
}

static void ask_done(struct ask_job *j)
{
	cmd_kernel_free(&j->kern);
	source_free(&j->src);
	host_free(&j->h);
	cmd_question_free(&j->a.q);
	free(j->conf);
	free(j->line);
	free(j->fw_config);
}

/* Learnt, compiled, checked, the hook made sure of, and (not a dry run) armed. */
static int ask_run(struct ask_job *j, struct bt_error *e)
{
	char missing[1536] = "";

	if (ask_learn(j, missing, sizeof(missing), e))
		return -1;
	if (missing[0]) {
		ask_print_machine(j);
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "cannot tell %s", missing);
	}
	if (arm_armed(&j->ao, e) || ask_kernel(j, e) || ask_config(j, e) ||
	    cmd_kernel_oneshot(&j->ao, &j->kern, &j->b, &j->src, 0, &j->line, e) ||
	    ask_hook(j, e))
		return -1;
	host_collect_ready(&j->h, j->collect, sizeof(j->collect));
	if (!j->a.dry_run && arm_boot(&j->ao, j->line, e))
		return -1;
	ask_print_machine(j);
	ask_print_plan(j);
	return 0;
}

static int cmd_ask(int argc, char **argv)
{
	struct ask_job j;
	struct bt_error e;
	int ret;

	memset(&j, 0, sizeof(j));
	bt_error_clear(&e);
	ret = ask_parse(argc, argv, &j.a);
	if (ret) {
		cmd_question_free(&j.a.q);
		return cmd_parse_exit(ret, &cmd_ask_verb);
	}
	ret = ask_run(&j, &e);
	ask_done(&j);
	if (ret) {
		fflush(stdout);
		return cmd_fail(&e, BT_EXIT_INPUT);
	}
	return fflush(stdout) ? BT_EXIT_ENV : BT_EXIT_OK;
}
