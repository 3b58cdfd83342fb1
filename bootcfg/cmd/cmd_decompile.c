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
	fputs("usage: boottrace decompile [-o OUT] CMDLINE... | FILE | -\n\n"
	      "Turn a legacy kernel command line (e.g. /proc/cmdline) into a boottrace config:\ntracing parameters become ftrace.* keys, boottrace.* words boottrace.* keys,\nother words kernel.* keys, words after \"--\" init.* keys. `boottrace compile`\nof the result gives the same tracing words back. A word a config cannot\nhold is named in a warning and kept verbatim in a comment (compile does not\nwrite it back); such a tracing parameter is an error.\n\n"
	      "An argument that names an existing file is read as the command line;\n"
	      "- reads standard input; several arguments are joined by spaces.\n", f);
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
 * [-o OUT] then the line's words. Not getopt: a command line's own words
 * ("--", "-") must reach the line untouched.
 */
static enum cmd_parse decompile_parse(int argc, char **argv, const char **out,
				      int *first)
{
	*first = 1;
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return CMD_HELP;
	if (argc > 2 && !strcmp(argv[1], "-o")) {
		*out = argv[2];
		*first = 3;
	}
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
	if (ret) {
		bt_error_print(&e, stderr);
		return e.code ? (int)e.code : BT_EXIT_INPUT;
	}
	return BT_EXIT_OK;
}
