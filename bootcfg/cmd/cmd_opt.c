/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The option tables at work (cmd_opt.h): getopt_long's arrays built from
 * a verb's table, the verb's --help and its line of boottrace --help
 * printed from it, and the listing the completion and the tests read.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd_opt.h"
#include "cmd/commands.h"

#define OPT_WIDTH 79	/* the help's right margin */
#define OPT_COL 24	/* where an option's help starts */
#define VALUE_COL 26	/* where a value's name starts, under its option */
#define LONGS_MAX 64

/* Every verb's; cmd_getopt consumes -q and -v itself. */
const struct cmd_opt cmd_opts_common[] = {
	CMD_FLAG('q', "quiet", 'q', "errors only on stderr (no warnings, no notes)"),
	CMD_FLAG('v', "verbose", 'v', "also explain: what each verb adds is in its --help"),
	CMD_FLAG('h', "help", 'h', "this help"),
	CMD_OPT_END,
};

/* Each of @v's options, its groups' then the common ones; NULL at the end. */
struct opt_iter {
	const struct cmd_verb *v;
	const struct cmd_optgroup *g;	/* NULL: in the common block */
	const struct cmd_opt *o;
};

static void opt_iter_start(struct opt_iter *it, const struct cmd_verb *v)
{
	it->v = v;
	it->g = v->groups && v->groups[0].opts ? v->groups : NULL;
	it->o = it->g ? it->g->opts : cmd_opts_common;
}

static const struct cmd_opt *opt_iter_next(struct opt_iter *it)
{
	while (!it->o->id) {
		if (!it->g)
			return NULL;
		it->g++;
		if (!it->g->opts)
			it->g = NULL;
		it->o = it->g ? it->g->opts : cmd_opts_common;
	}
	return it->o++;
}

const struct cmd_opt *cmd_opt_find(const struct cmd_verb *v, int id)
{
	const struct cmd_opt *o;
	struct opt_iter it;

	opt_iter_start(&it, v);
	while ((o = opt_iter_next(&it)))
		if (o->id == id)
			return o;
	return NULL;
}

const struct cmd_opt *cmd_opt_match(const struct cmd_verb *v, const char *word)
{
	const struct cmd_opt *o;
	struct opt_iter it;

	if (word[0] != '-')
		return NULL;
	opt_iter_start(&it, v);
	while ((o = opt_iter_next(&it))) {
		if (o->shrt && word[1] == o->shrt && !word[2])
			return o;
		if (o->name && word[1] == '-' && !strcmp(word + 2, o->name))
			return o;
	}
	return NULL;
}

int cmd_opt_value_ok(const struct cmd_opt *o, const char *s)
{
	const char *name, *help;
	size_t i;

	if (!o->values)
		return 1;
	for (i = 0; (name = o->values(i, &help)); i++)
		if (!strcmp(name, s))
			return 1;
	return 0;
}

/* The option argv[optind - 1] getopt stopped at, as the user wrote it. */
static void opt_say_bad(int c, char **argv, const char *shorts)
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

/* getopt_long's two arrays for @v, built once per verb (one verb a run). */
static void opt_build(const struct cmd_verb *v, char *shorts, size_t cap,
		      struct option *longs)
{
	const struct cmd_opt *o;
	struct opt_iter it;
	size_t n = 0, s = 0;

	/* ':' first: a missing argument is told apart from an unknown option */
	shorts[s++] = ':';
	opt_iter_start(&it, v);
	while ((o = opt_iter_next(&it))) {
		if (o->shrt && s + 3 < cap) {
			shorts[s++] = o->shrt;
			if (o->arg)
				shorts[s++] = ':';
		}
		if (o->name && n < LONGS_MAX)
			longs[n++] = (struct option){ o->name, o->arg ? required_argument : no_argument,
						      NULL, o->id };
	}
	shorts[s] = '\0';
	memset(&longs[n], 0, sizeof(longs[n]));
}

int cmd_getopt(int argc, char **argv, const struct cmd_verb *v)
{
	static const struct cmd_verb *built;
	static struct option longs[LONGS_MAX + 1];
	static char shorts[128];
	int c;

	if (built != v) {
		opt_build(v, shorts, sizeof(shorts), longs);
		built = v;
	}
	opterr = 0;
	for (;;) {
		optopt = 0;
		c = getopt_long(argc, argv, shorts, longs, NULL);
		switch (c) {
		case 'q': bt_voice_level(BT_QUIET); break;
		case 'v': bt_voice_level(BT_VERBOSE); break;
		case 'h': return CMD_OPT_HELP;
		case '?':
		case ':':
			opt_say_bad(c, argv, shorts);
			return CMD_OPT_BAD;
		default: return c;
		}
	}
}

/* "-t, --target TARGET", "    --base LINE", "-o OUT": how the help names @o. */
static int opt_spec(const struct cmd_opt *o, char *buf, size_t cap)
{
	int n = 0;

	if (o->shrt)
		n = snprintf(buf, cap, "-%c%s", o->shrt, o->name ? ", " : "");
	else
		n = snprintf(buf, cap, "    ");
	if (o->name && n >= 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - n, "--%s", o->name);
	if (o->arg && n >= 0 && (size_t)n < cap)
		n += snprintf(buf + n, cap - n, " %s", o->arg);
	return n;
}

/*
 * @text from column @at (the cursor is there) to OPT_WIDTH, words moved
 * to the next line at column @col when they do not fit; a '\n' in @text
 * breaks the line there.
 */
static void opt_wrap(const char *text, int at, int col, FILE *f)
{
	const char *p = text;
	int x = at;

	while (*p) {
		size_t w = strcspn(p, " \n");

		if (x > col && x + 1 + (int)w > OPT_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			x = col;
		} else if (x > col) {
			fputc(' ', f);
			x++;
		}
		fwrite(p, 1, w, f);
		x += (int)w;
		p += w;
		if (*p == '\n') {
			fprintf(f, "\n%*s", col, "");
			x = col;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', f);
}

/* @o's values under it, their help lines aligned past the longest name. */
static void opt_print_values(const struct cmd_opt *o, FILE *f)
{
	const char *name, *help;
	int w = 0, n;
	size_t i;

	for (i = 0; o->values && (name = o->values(i, &help)); i++)
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
	for (i = 0; o->values && (name = o->values(i, &help)); i++) {
		n = fprintf(f, "%*s%-*s  ", VALUE_COL, "", w, name);
		opt_wrap(help ? help : "", n, VALUE_COL + w + 2, f);
	}
}

void cmd_opt_print(const struct cmd_opt *o, FILE *f)
{
	char spec[80];
	int n;

	if (o->flags & CMD_OPT_HIDDEN)
		return;
	opt_spec(o, spec, sizeof(spec));
	n = fprintf(f, "  %s", spec);
	if (n + 2 > OPT_COL) {
		fputc('\n', f);
		n = 0;
	}
	fprintf(f, "%*s", OPT_COL - n, "");
	opt_wrap(o->help, OPT_COL, OPT_COL, f);
	opt_print_values(o, f);
}

/* "[-t TARGET]", "--loader grub|uboot-env", "[-f text|json]": @o in a usage line. */
static int opt_synopsis(const struct cmd_opt *o, char *buf, size_t cap)
{
	const char *name, *help;
	int need = !!(o->flags & CMD_OPT_NEEDED);
	size_t n = 0, i;

	n += snprintf(buf, cap, "%s", need ? "" : "[");
	if (o->shrt)
		n += snprintf(buf + n, cap - n, "-%c", o->shrt);
	else
		n += snprintf(buf + n, cap - n, "--%s", o->name);
	if (o->arg && (o->flags & CMD_OPT_INLINE) && o->values) {
		for (i = 0; n < cap && (name = o->values(i, &help)); i++)
			n += snprintf(buf + n, cap - n, "%c%s", i ? '|' : ' ', name);
	} else if (o->arg && n < cap) {
		n += snprintf(buf + n, cap - n, " %s", o->arg);
	}
	if (!need && n < cap)
		n += snprintf(buf + n, cap - n, "]");
	return n < cap ? (int)n : -1;
}

/* The key options of @v then @tail, wrapped under column @col. */
static void opt_usage_words(const struct cmd_verb *v, int x, int col,
			    const char *tail, FILE *f)
{
	const struct cmd_opt *o;
	struct opt_iter it;
	char word[200];
	int n;

	opt_iter_start(&it, v);
	while ((o = opt_iter_next(&it))) {
		if (!(o->flags & CMD_OPT_KEY) || (n = opt_synopsis(o, word, sizeof(word))) < 0)
			continue;
		if (x + 1 + n > OPT_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			x = col;
		}
		x += fprintf(f, " %s", word);
	}
	if (tail && *tail) {
		if (x + 1 + (int)strlen(tail) > OPT_WIDTH)
			fprintf(f, "\n%*s", col, "");
		fprintf(f, " %s", tail);
	}
	fputc('\n', f);
}

void cmd_usage_line(const struct cmd_verb *v, FILE *f)
{
	const struct cmd_opt *o;
	struct opt_iter it;
	char line[400], word[200];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "%s", v->name);
	opt_iter_start(&it, v);
	while ((o = opt_iter_next(&it)))
		if ((o->flags & CMD_OPT_KEY) && opt_synopsis(o, word, sizeof(word)) > 0 &&
		    n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s", word);
	if (v->operands && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s", v->operands);
	fprintf(f, "  %s\n%*s%s\n", line, 6, "", v->summary);
}

/* A verb's options not in a group: more than the key ones and the common. */
static int opt_has_more(const struct cmd_verb *v)
{
	const struct cmd_optgroup *g;
	const struct cmd_opt *o;

	for (g = v->groups; g && g->opts; g++)
		for (o = g->opts; o->id; o++)
			if (!(o->flags & (CMD_OPT_KEY | CMD_OPT_HIDDEN)))
				return 1;
	return 0;
}

static void opt_usage_head(const struct cmd_verb *v, FILE *f)
{
	char tail[200];
	size_t i;
	int x;

	snprintf(tail, sizeof(tail), "%s%s%s", opt_has_more(v) ? "[OPTIONS]" : "",
		 opt_has_more(v) && v->operands ? " " : "", v->operands ? v->operands : "");
	x = fprintf(f, "usage: boottrace %s", v->name);
	opt_usage_words(v, x, x, tail, f);
	for (i = 0; v->forms && v->forms[i]; i++)
		fprintf(f, "       boottrace %s %s\n", v->name, v->forms[i]);
}

static void opt_group_print(const char *title, const struct cmd_opt *opts, FILE *f)
{
	const struct cmd_opt *o;

	if (title)
		fprintf(f, "\n%s:\n", title);
	for (o = opts; o->id; o++)
		cmd_opt_print(o, f);
}

void cmd_usage(const struct cmd_verb *v, FILE *f)
{
	const struct cmd_optgroup *g;

	if (v->usage) {
		v->usage(f);
		return;
	}
	opt_usage_head(v, f);
	if (v->about)
		fprintf(f, "\n%s", v->about);
	if (v->groups && v->groups[0].opts && !v->groups[0].title)
		fputc('\n', f);	/* the options right after the text */
	for (g = v->groups; g && g->opts; g++)
		opt_group_print(g->title, g->opts, f);
	opt_group_print("Every verb's options", cmd_opts_common, f);
	if (v->verbose)
		fprintf(f, "  (-v here: %s)\n", v->verbose);
	if (v->epilog) {
		fputc('\n', f);
		v->epilog(f);
	}
}

static void opt_list_values(const struct cmd_opt *o, FILE *f)
{
	const char *name, *help;
	size_t i;

	if (!o->values) {
		fputs("-", f);
		return;
	}
	for (i = 0; (name = o->values(i, &help)); i++)
		fprintf(f, "%s%s", i ? "," : "", name);
}

void cmd_opt_list(const struct cmd_verb *v, FILE *f)
{
	const struct cmd_opt *o;
	struct opt_iter it;

	opt_iter_start(&it, v);
	while ((o = opt_iter_next(&it))) {
		fprintf(f, "%s\t%s%s\t", v->name, o->name ? "--" : "-", o->name ? o->name : "");
		if (o->shrt)
			fprintf(f, "-%c\t", o->shrt);
		else
			fputs("-\t", f);
		fprintf(f, "%s\t%s\t", o->arg ? o->arg : "-",
			(o->flags & CMD_OPT_HIDDEN) ? "hidden" : "-");
		opt_list_values(o, f);
		fputc('\n', f);
	}
}

