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

static int decompile_usage(FILE *f)
{
	fputs("usage: boottrace decompile [-q] [-v] [-o OUT] CMDLINE... | FILE | -\n\n"
	      "Turn a legacy kernel command line (e.g. /proc/cmdline) into a boottrace config:\ntracing parameters become ftrace.* keys, boottrace.* words boottrace.* keys,\nother words kernel.* keys, words after \"--\" init.* keys. `boottrace compile`\nof the result gives the same tracing words back. A word a config cannot\nhold is named in a warning and kept verbatim in a comment (compile does not\nwrite it back); such a tracing parameter is an error.\n\n"
	      "An argument that names an existing file is read as the command line;\n"
	      "- reads standard input; several arguments are joined by spaces.\n"
	      "Options are taken before the first word only.\n\n"
	      "  -o OUT             write to OUT (atomically) instead of stdout\n", f);
	cmd_common_usage(f);
	fputs("\nExit status: 0 done (warnings said), 1 a word no config can hold or a bad\n"
	      "input file, 2 usage, 3 environment (I/O, memory).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

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
 * [-q] [-v] [-o OUT] then the line's words. Not getopt: a command line's
 * own words ("--", "-", "-x") must reach the line untouched, so only the
 * options before the first word are taken, the common ones spelled as
 * cmd_common_usage lists them.
 */
static enum cmd_parse decompile_parse(int argc, char **argv, const char **out,
				      int *first)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return CMD_HELP;
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet"))
			bt_voice_level(BT_QUIET);
		else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
			bt_voice_level(BT_VERBOSE);
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			*out = argv[++i];
		else
			break;
	}
	*first = i;
	return *first < argc ? CMD_RUN : CMD_BAD;
}

int cmd_decompile(int argc, char **argv)
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
		return cmd_parse_exit(ret, decompile_usage);
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
