/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compile.h: plan, then the route the target is fed by, then its emitter. */
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "compile/compile.h"
#include "util/outfile.h"

/* One written word boottrace.KEY=VALUE as the line KEY = "VALUE". */
static int compile_hook_line(FILE *f, const char *word, struct bt_error *e)
{
	struct bconf_arg arg;
	char *copy = strdup(word);
	int ret = 0;

	if (!copy)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	bconf_cmdline_next(copy, &arg);
	/* the hook reads the value between the outer double quotes */
	if (!arg.val || strpbrk(arg.val, "\"\n"))
		ret = bt_error_set(e, BT_EXIT_INPUT, NULL, "%s cannot be written to a settings file (a double quote or a line break in its value)", word);
	else
		fprintf(f, "%s = \"%s\"\n", arg.param, arg.val);
	free(copy);
	return ret;
}

/* --hook-settings: the hook's words, written whole or not at all. */
static int compile_hook_settings(const char *path, const struct words *w,
				 struct bt_error *e)
{
	struct outfile o;
	size_t i;

	if (outfile_open(&o, path, e))
		return -1;
	fputs("# boottrace hook settings (boottrace compile --hook-settings): install as /etc/boottrace.conf in the initramfs\n", o.f);
	for (i = 0; i < w->n; i++)
		if (compile_hook_line(o.f, w->v[i], e)) {
			outfile_abort(&o);
			return -1;
		}
	return outfile_commit(&o, e);
}

int compile_source(const struct source *src, const struct kcaps *k,
		   const struct board *b, const struct emit_target *t,
		   const struct compile_opts *o, struct bt_error *e)
{
	struct route_opts ro;
	struct emit_in in;
	struct route r;
	struct plan p;
	int ret;

	if (o->hook_settings && t->route != EMIT_FROM_CMDLINE)
		return bt_error_set(e, BT_EXIT_USAGE, NULL, "--hook-settings goes with the command-line targets: -t %s puts the hook's settings in the bootconfig, which /proc/bootconfig gives the hook whole", t->name);
	if (plan_build(&p, src, e))
		return -1;
	if (plan_add_lineage(&p, k, e) < 0) {
		plan_free(&p);
		return -1;
	}
	ro = o->route;
	ro.hook_apart = o->hook_settings != NULL;
	ro.word_bad = t->word_bad;
	ro.form = t->name;
	route_init(&r, &p, k, b, &ro);
	ret = t->route == EMIT_FROM_BOOTCONFIG ? route_bootconfig(&r, e) : route_cmdline(&r, e);
	if (!ret && o->hook_settings)
		ret = compile_hook_settings(o->hook_settings, &r.hook_words, e);
	if (!ret) {
		memset(&in, 0, sizeof(in));
		in.kernel = &r.words;
		in.bconf = r.bconf;
		in.bconf_len = r.bconf_len;
		in.board = b;
		in.base = o->base;
		in.keep_bootargs = o->keep_bootargs;
		in.apply = o->apply;
		in.out = o->out;
		in.label = o->label;
		in.base_name = o->base_name ? o->base_name : "--base";
		in.verbose = o->route.verbose;
		ret = t->run(&in, e);
	}
	route_free(&r);
	plan_free(&p);
	return ret;
}

int compile_line(const struct source *src, const struct kcaps *k,
		 const struct board *b, const struct emit_target *t,
		 const struct route_opts *o, const char *base, char **line,
		 struct bt_error *e)
{
	struct words bw, merged;
	struct route_opts ro;
	struct route r;
	struct plan p;
	int ret;

	*line = NULL;
	if (plan_build(&p, src, e))
		return -1;
	if (plan_add_lineage(&p, k, e) < 0) {
		plan_free(&p);
		return -1;
	}
	ro = *o;
	ro.word_bad = t->word_bad;
	ro.form = t->name;
	route_init(&r, &p, k, b, &ro);
	words_init(&bw);
	words_init(&merged);
	ret = route_cmdline(&r, e);
	if (!ret && base)
		ret = words_split(&bw, base) ? bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory") :
		      emit_merge(&bw, &r.words, &merged, ro.verbose, e);
	if (!ret) {
		*line = words_join(base ? &merged : &r.words);
		if (!*line)
			ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		else if (emit_check_kernel_len(b, strlen(*line), "the command line", e)) {
			free(*line);
			*line = NULL;
			ret = -1;
		}
	}
	words_free(&bw);
	words_free(&merged);
	route_free(&r);
	plan_free(&p);
	return ret;
}
