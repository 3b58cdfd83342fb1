/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every verb shares on its command line (commands.h): the options all
 * of them take, the parser that adds them to a verb's own, its usage
 * errors in the one voice, and the one ending of a parse and of a failure.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

/* Every verb's options, declared once; cmd_getopt adds them. */
static const struct option common_longs[] = {
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
};
#define COMMON_SHORTS "qvh"
#define COMMON_N (sizeof(common_longs) / sizeof(common_longs[0]))
#define LONGS_MAX 64

static const struct { const char *flags, *text; } common_help[] = {
	{ "-q, --quiet", "errors only on stderr (no warnings, no notes)" },
	{ "-v, --verbose", "also explain: what each verb adds is in its --help" },
	{ "-h, --help", "this help" },
	{ NULL, NULL },
};

void cmd_common_usage(FILE *f)
{
	size_t i;

	for (i = 0; common_help[i].flags; i++)
		fprintf(f, "  %-18s %s\n", common_help[i].flags, common_help[i].text);
}

int cmd_parse_exit(enum cmd_parse p, int (*usage)(FILE *f))
{
	if (p == CMD_HELP) {
		usage(stdout);
		return fflush(stdout) ? BT_EXIT_ENV : BT_EXIT_OK;
	}
	usage(stderr);
	return BT_EXIT_USAGE;
}

int cmd_fail(const struct bt_error *e, enum bt_exit fallback)
{
	if (e->msg[0])
		bt_error_print(e, stderr);
	return e->code ? (int)e->code : (int)fallback;
}

/* The option argv[optind - 1] getopt stopped at, as the user wrote it. */
static void say_bad_option(int c, char **argv, const char *shorts)
{
	const char *arg = argv[optind - 1];
	const char *p;

	if (optopt && arg[0] == '-' && arg[1] != '-') {
		p = strchr(shorts, optopt);
		if (c == ':' || (p && p[1] == ':'))
			bt_say(NULL, BT_SAY_ERROR, "option -%c needs an argument; see --help", optopt);
		else
			bt_say(NULL, BT_SAY_ERROR, "unknown option -%c; see --help", optopt);
	} else if (c == ':') {
		bt_say(NULL, BT_SAY_ERROR, "option '%s' needs an argument; see --help", arg);
	} else {
		bt_say(NULL, BT_SAY_ERROR, "unknown or ambiguous option '%s'; see --help", arg);
	}
}

int cmd_getopt(int argc, char **argv, const char *shorts,
	       const struct option *longs)
{
	static struct option all[LONGS_MAX + COMMON_N + 1];
	static char allshort[128];
	size_t n;
	int c;

	/* ':' first: a missing argument is told apart from an unknown option */
	snprintf(allshort, sizeof(allshort), ":%s%s", COMMON_SHORTS, shorts);
	for (n = 0; longs && longs[n].name && n < LONGS_MAX; n++)
		all[n] = longs[n];
	memcpy(all + n, common_longs, sizeof(common_longs));
	memset(all + n + COMMON_N, 0, sizeof(all[0]));
	opterr = 0;
	for (;;) {
		optopt = 0;
		c = getopt_long(argc, argv, allshort, all, NULL);
		switch (c) {
		case 'q': bt_voice_level(BT_QUIET); break;
		case 'v': bt_voice_level(BT_VERBOSE); break;
		case 'h': return CMD_OPT_HELP;
		case '?':
		case ':':
			say_bad_option(c, argv, allshort);
			return CMD_OPT_BAD;
		default: return c;
		}
	}
}
