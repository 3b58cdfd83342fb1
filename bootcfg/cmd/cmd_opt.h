/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One declarative option table per verb (as git's parse-options): each
 * option once, with its long name, short letter, argument and help line,
 * in groups; shared blocks (cmd_usage.c) for what several verbs take. The
 * parser (cmd_getopt), the verb's --help, boottrace --help's verb lines
 * and the machine-readable listing (boottrace --list-options, which the
 * completion and tests/cli/options.bats read) all come from it, so an
 * option cannot be accepted without being documented.
 */
#ifndef BT_CMD_OPT_H
#define BT_CMD_OPT_H

#include <stddef.h>
#include <stdio.h>

enum cmd_opt_flags {
	CMD_OPT_KEY = 1,	/* also in the verb's usage line and boottrace --help */
	CMD_OPT_NEEDED = 2,	/* in the usage line without [ ] */
	CMD_OPT_INLINE = 4,	/* the usage line spells the values: -f text|json */
	CMD_OPT_HIDDEN = 8,	/* accepted, in no help (listed as hidden) */
};

/*
 * The values an argument takes (targets, formats, loaders): the @i-th
 * one's name, its help line in *@help (may be NULL), NULL past the last.
 */
typedef const char *cmd_opt_value_fn(size_t i, const char **help);

struct cmd_opt {
	int id;			/* what cmd_getopt returns: the short letter, or >= 256 */
	char shrt;		/* the short option's letter, 0: none */
	const char *name;	/* the long name, NULL: short only */
	const char *arg;	/* the argument's name in the help (FILE), NULL: a flag */
	const char *help;	/* one paragraph; the printer wraps it */
	unsigned flags;		/* enum cmd_opt_flags */
	cmd_opt_value_fn *values;	/* NULL: any value */
};

/* Table rows: a flag, an option with an argument. */
#define CMD_FLAG(s, l, id, help)	{ (id), (s), (l), NULL, (help), 0, NULL }
#define CMD_ARG(s, l, a, id, help)	{ (id), (s), (l), (a), (help), 0, NULL }
#define CMD_OPT_END			{ 0, 0, NULL, NULL, NULL, 0, NULL }

/* Ids of the shared blocks' long-only options; a verb's own start at CMD_O_VERB. */
enum {
	CMD_O_KERNEL = 256, CMD_O_KCONFIG, CMD_O_DROP, CMD_O_VMLINUX, CMD_O_SYSMAP,
	CMD_O_MODULES, CMD_O_ROOT,
	CMD_O_VERB = 300,
};

/* A heading (NULL: none) over options; a verb's list ends with { NULL, NULL }. */
struct cmd_optgroup {
	const char *title;
	const struct cmd_opt *opts;
};

/* A verb: its row of main.c's table and everything its --help says. */
struct cmd_verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;	/* boottrace --help's line: what it does */
	const char *operands;	/* after the options in the usage line: "CONFIG" */
	const char *const *forms;	/* other usage lines after "boottrace VERB ", NULL-ended */
	const char *about;	/* the paragraphs after the usage, \n-wrapped */
	const struct cmd_optgroup *groups;
	const char *verbose;	/* what -v adds here, NULL: nothing */
	void (*epilog)(FILE *f);	/* the text after the options: exit status, see also */
	/* a usage of its own (bootconfig speaks as the kernel's tool), NULL: the generic one */
	void (*usage)(FILE *f);
};

/* Every verb's -q, -v, -h (cmd_opt.c, which consumes -q and -v itself). */
extern const struct cmd_opt cmd_opts_common[];
/* The shared blocks (cmd_usage.c): */
extern const struct cmd_opt cmd_opts_target[];	/* -b, -k, --allow-drop: compile, arm-boot */
extern const struct cmd_opt cmd_opts_image[];	/* --kernel, --kernel-config: compile, check, arm-boot */
extern const struct cmd_opt cmd_opts_kfiles[];
/* --loader's values (arm-boot, ask): arm/arm.c's table of loaders. */
cmd_opt_value_fn cmd_loader_value;	/* --vmlinux, --system-map, --modules, --root: check, compile */

/* The verb's --help (its own usage, or the generic one from its table). */
void cmd_usage(const struct cmd_verb *v, FILE *f);
/* boottrace VERB's line of boottrace --help: "VERB [-k KVER] CONFIG". */
void cmd_usage_line(const struct cmd_verb *v, FILE *f);
/* Options in the help's layout: "  -t, --target TARGET  text", wrapped. */
void cmd_opt_print(const struct cmd_opt *o, FILE *f);
/*
 * boottrace --list-options [VERB]: one line per option @v accepts,
 * "VERB\t--long\t-s\tARG\tFLAGS\tVALUES", "-" for none, VALUES a comma list,
 * FLAGS "hidden" or "-".
 */
void cmd_opt_list(const struct cmd_verb *v, FILE *f);

/* The option of @v's table (with the common ones) whose id is @id, NULL: none. */
const struct cmd_opt *cmd_opt_find(const struct cmd_verb *v, int id);
/* The option @word spells exactly ("-o", "--quiet"), NULL: none. */
const struct cmd_opt *cmd_opt_match(const struct cmd_verb *v, const char *word);
/* Is @s one of @o's values? 1 yes (also for an option without a list), 0 no. */
int cmd_opt_value_ok(const struct cmd_opt *o, const char *s);

#endif
