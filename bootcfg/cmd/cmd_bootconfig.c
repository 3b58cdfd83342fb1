// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `boottrace bootconfig` and the `bootconfig` symlink: the kernel's
 * tools/bootconfig, same flags, same standard output, same success and
 * failure. Where the kernel's tool can hurt the user we do better: -a and -d
 * replace the initrd atomically, one run at a time, refuse a read-only one
 * without --force, -a refuses files that are not initrds, and
 * every error is one line naming the file and the place.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "bconf.h"
#include "cmd/commands.h"
#include "initrd/initrd_bconf.h"
#include "util/readfile.h"

struct bc_args {
	const char *apply;	/* -a CONF */
	const char *path;
	int del, list, force;
};

enum { O_FORCE = CMD_O_VERB };

/* The kernel tool's -a, -d, -l (and their long names), and ours. */
static const struct cmd_opt bc_opts[] = {
	{ 'a', 'a', "apply", "CONF", "Apply boot config to initrd", CMD_OPT_KEY, NULL },
	{ 'd', 'd', "delete", NULL, "Delete boot config file from initrd", CMD_OPT_KEY, NULL },
	{ 'l', 'l', "list", NULL, "list boot config in initrd or file", CMD_OPT_KEY, NULL },
	CMD_FLAG(0, "force", O_FORCE, "treat INITRD as an initrd even if it does not\n"
		 "start like one (cpio, compressed, ramdisk fs),\n"
		 "and rewrite it even if it is read-only"),
	CMD_OPT_END,
};

static const struct cmd_optgroup bc_groups[] = {
	{ NULL, bc_opts },
	{ NULL, NULL },
};

/* An option in the kernel tool's layout: "\t\t-a, --apply CONF: text". */
static void bc_usage_opt(const struct cmd_opt *o, const char *help, FILE *f)
{
	fputs("\t\t", f);
	if (o->shrt)
		fprintf(f, "-%c%s", o->shrt, o->name ? ", " : "");
	if (o->name)
		fprintf(f, "--%s", o->name);
	fprintf(f, " %s: ", o->arg ? o->arg : "");
	/* the kernel tool's continuation lines */
	for (; *help; help++)
		if (*help == '\n')
			fputs("\n\t\t          ", f);
		else
			fputc(*help, f);
	fputc('\n', f);
}

/*
 * The kernel tool's usage text, our options added in its layout; the
 * common ones say what they do here (-v: nothing more to explain).
 */
static void bc_usage(FILE *f)
{
	const struct cmd_opt *o;

	fputs("Usage: bootconfig [OPTIONS] <INITRD>\n"
	      "Or     bootconfig <CONFIG>\n"
	      " Apply, delete or show boot config to initrd.\n"
	      " Options:\n", f);
	for (o = bc_opts; o->id; o++)
		bc_usage_opt(o, o->help, f);
	for (o = cmd_opts_common; o->id; o++)
		bc_usage_opt(o, o->id == 'v' ? "accepted; nothing more to explain" : o->help, f);
	fputs("\n If no option is given, show the bootconfig in the given file.\n"
	      " -a and -d replace the file atomically; it is never left half-written.\n"
	      " Exit status: 0 done, 1 a bad config or initrd (as the kernel's tool;\n"
	      " also a read-only initrd without --force), 2 usage, 3 environment\n"
	      " (I/O, an initrd another run keeps locked).\n"
	      " See boottrace(1).\n", f);
}

static int cmd_bootconfig(int argc, char **argv);

const struct cmd_verb cmd_bootconfig_verb = {
	.name = "bootconfig", .run = cmd_bootconfig, .operands = "FILE",
	.summary = "show, apply or delete an initrd's bootconfig",
	.groups = bc_groups, .usage = bc_usage,
};

static enum cmd_parse parse_args(int argc, char **argv, struct bc_args *a)
{
	int opt;

	optind = 1;
	while ((opt = cmd_getopt(argc, argv, &cmd_bootconfig_verb)) != -1) {
		switch (opt) {
		case 'a':
			a->apply = optarg;
			break;
		case 'd':
			a->del = 1;
			break;
		case 'l':
			a->list = 1;
			break;
		case O_FORCE:
			a->force = 1;
			break;
		case CMD_OPT_HELP:
			return CMD_HELP;
		default:
			return CMD_BAD;
		}
	}
	if ((a->apply != NULL) + a->del + a->list > 1) {
		bt_say(NULL, BT_SAY_ERROR, "give only one of -a, -d or -l");
		return CMD_BAD;
	}
	if (optind >= argc) {
		bt_say(NULL, BT_SAY_ERROR, "no initrd is specified");
		return CMD_BAD;
	}
	if (optind + 1 < argc) {
		bt_say(NULL, BT_SAY_ERROR, "unexpected argument '%s'", argv[optind + 1]);
		return CMD_BAD;
	}
	a->path = argv[optind];
	return CMD_RUN;
}

static int fail(const struct bt_error *e)
{
	return cmd_fail(e, BT_EXIT_INPUT);
}

static int write_stdout(void *ctx, const char *s, size_t n)
{
	return fwrite(s, 1, n, (FILE *)ctx) == n ? 0 : -1;
}

static int show(const struct bc_args *a)
{
	struct bconf *bc = NULL;
	struct bt_error e;
	int ret, status = BT_EXIT_OK;

	bt_error_clear(&e);
	if (initrd_bconf_load(a->path, a->force, &bc, &e) < 0)
		return fail(&e);
	if (bc) {
		ret = a->list ? bconf_print_list(bc, write_stdout, stdout)
			      : bconf_print_tree(bc, write_stdout, stdout);
		if (ret == 1)
			bt_say(a->path, BT_SAY_WARN, "listing stopped at a key of %d or more words (the kernel's tool and /proc/bootconfig stop there too)", BCONF_DEPTH_MAX);
		if (fflush(stdout) || ret < 0) {
			bt_error_errno(&e, errno, NULL, "cannot write output");
			status = fail(&e);
		}
	}
	bconf_free(bc);
	return status;
}

static int delete(const struct bc_args *a)
{
	struct bt_error e;

	bt_error_clear(&e);
	return initrd_bconf_delete(a->path, a->force, &e) ? fail(&e) : BT_EXIT_OK;
}

/*
 * A config file for -a: text up to its first NUL, as the kernel's tool
 * sees it. One byte past the kernel's limit is enough for the parser to
 * say "Config data is too big".
 */
static char *read_config(const char *path, size_t *len, struct bt_error *e)
{
	char *buf = readfile(path, BCONF_DATA_MAX, 1, "a bootconfig", len, e);

	if (buf)
		*len = strlen(buf) + 1;
	return buf;
}

static int apply(const struct bc_args *a)
{
	struct bt_error e;
	size_t len;
	char *conf;
	int ret;

	bt_error_clear(&e);
	conf = read_config(a->apply, &len, &e);
	if (!conf)
		return fail(&e);
	ret = initrd_bconf_apply(a->apply, conf, len, a->path, a->force, stdout, &e);
	free(conf);
	return ret ? fail(&e) : BT_EXIT_OK;
}

static int cmd_bootconfig(int argc, char **argv)
{
	struct bc_args a = { 0 };
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return cmd_parse_exit(ret, &cmd_bootconfig_verb);
	if (a.apply)
		return apply(&a);
	if (a.del)
		return delete(&a);
	return show(&a);
}
