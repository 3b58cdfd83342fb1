/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boottrace decompile: a legacy command line -> config text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/commands.h"
#include "compile/decompile.h"
#include "util/outfile.h"
#include "util/readfile.h"

#define DK_MAX (1 << 16)

static const struct cmd_opt decompile_opts[] = {
	{ 'o', 'o', NULL, "OUT", "write to OUT (atomically) instead of stdout", CMD_OPT_KEY, NULL },
	CMD_OPT_END,
};

static const struct cmd_optgroup decompile_groups[] = {
	{ NULL, decompile_opts },
	{ NULL, NULL },
};

static void decompile_epilog(FILE *f)
{
	fputs("Exit status: 0 done (warnings said), 1 a word no config can hold or a bad\n"
	      "input file, 2 usage, 3 environment (I/O, memory).\n", f);
}

static int cmd_decompile(int argc, char **argv);

const struct cmd_verb cmd_decompile_verb = {
	.name = "decompile", .run = cmd_decompile, .operands = "CMDLINE... | FILE | -",
	.summary = "legacy command line -> config text",
	.about = "Turn a legacy kernel command line (e.g. /proc/cmdline) into a boottrace config:\n"
		 "tracing parameters become ftrace.* keys, boottrace.* words boottrace.* keys,\n"
		 "other words kernel.* keys, words after \"--\" init.* keys. `boottrace compile`\n"
		 "of the result gives the same tracing words back. A word a config cannot\n"
		 "hold is named in a warning and kept verbatim in a comment (compile does not\n"
		 "write it back); such a tracing parameter is an error.\n\n"
		 "An argument that names an existing file is read as the command line;\n"
		 "- reads standard input; several arguments are joined by spaces.\n"
		 "Options are taken before the first word only.\n",
	.groups = decompile_groups, .epilog = decompile_epilog,
};

static char *decompile_read(const char *path, struct bt_error *e)
{
	size_t len;

	return readfile(path, DK_MAX, 0, "a command line", &len, e);
}

static char *decompile_join(int argc, char **argv)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	*s = '\0';
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

/*
 * Options, then the line's words. Not getopt: a command line's own words
 * ("--", "-", "-x") must reach the line untouched, so only the options
 * before the first word are taken, each spelled exactly as the table has
 * it (no abbreviation, no -qv).
 */
static enum cmd_parse decompile_parse(int argc, char **argv, const char **out,
				      int *first)
{
	const struct cmd_opt *o;
	int i;

	for (i = 1; i < argc; i++) {
		o = cmd_opt_match(&cmd_decompile_verb, argv[i]);
		if (!o || (o->arg && i + 1 >= argc))
			break;
		if (o->id == 'h')
			return CMD_HELP;
		if (o->id == 'q')
			bt_voice_level(BT_QUIET);
		else if (o->id == 'v')
			bt_voice_level(BT_VERBOSE);
		else if (o->id == 'o')
			*out = argv[++i];
	}
	*first = i;
	return *first < argc ? CMD_RUN : CMD_BAD;
}

static int cmd_decompile(int argc, char **argv)
{
	struct textbuf t = { 0 };
	struct outfile o;
	struct bt_error e;
	const char *out = NULL;
	struct stat st;
	char *line;
	int i = 1, ret;

	bt_error_clear(&e);
	ret = decompile_parse(argc, argv, &out, &i);
	if (ret)
		return cmd_parse_exit(ret, &cmd_decompile_verb);
	if (argc - i == 1 && (!strcmp(argv[i], "-") ||
			      (!stat(argv[i], &st) && S_ISREG(st.st_mode))))
		line = decompile_read(argv[i], &e);
	else if (!(line = decompile_join(argc - i, argv + i)))
		bt_error_set(&e, BT_EXIT_ENV, NULL, "out of memory");
	ret = line ? decompile_line(line, &t, &e) : -1;
	if (!ret && !(ret = outfile_open(&o, out, &e))) {
		if (t.len)
			fwrite(t.s, 1, t.len, o.f);
		ret = outfile_commit(&o, &e);
	}
	free(line);
	textbuf_free(&t);
	return ret ? cmd_fail(&e, BT_EXIT_INPUT) : BT_EXIT_OK;
}
