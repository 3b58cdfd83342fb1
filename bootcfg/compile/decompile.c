/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Legacy command line -> config text (decompile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "compile/decompile.h"

enum dk_kind { DK_LIST, DK_SINGLE };

struct dk_map {
	const char *param;
	const char *key;
	enum dk_kind kind;
};

/* The inverse of route_cmdline.c's parameters. */
static const struct dk_map dk_maps[] = {
	{ "ftrace", "ftrace.tracer", DK_SINGLE },
	{ "ftrace_filter", "ftrace.ftrace.filters", DK_LIST },
	{ "ftrace_notrace", "ftrace.ftrace.notraces", DK_LIST },
	{ "trace_options", "ftrace.options", DK_LIST },
	{ "trace_event", "ftrace.events", DK_LIST },
	{ "trace_clock", "ftrace.trace_clock", DK_SINGLE },
	{ "trace_buf_size", "ftrace.buffer_size", DK_SINGLE },
	{ "alloc_snapshot", "ftrace.alloc_snapshot", DK_SINGLE },
	{ "ftrace_graph_filter", "ftrace.fgraph.filters", DK_LIST },
	{ "ftrace_graph_notrace", "ftrace.fgraph.notraces", DK_LIST },
	{ "ftrace_graph_max_depth", "ftrace.fgraph.max_depth", DK_SINGLE },
	{ "tp_printk", "ftrace.tp_printk", DK_SINGLE },
	{ "tp_printk_stop_on_boot", "ftrace.tp_printk_stop_on_boot", DK_SINGLE },
	{ "traceoff_on_warning", "ftrace.traceoff_on_warning", DK_SINGLE },
	{ "ftrace_dump_on_oops", "ftrace.dump_on_oops", DK_SINGLE },
	{ "ftrace_boot_snapshot", "ftrace.boot_snapshot", DK_SINGLE },
	{ "boottrace.arm", "boottrace.arm", DK_LIST },
};

/* One config key and its values, in order of first appearance. */
struct dk_entry {
	char *key;
	const struct dk_map *map;	/* NULL: a passed-through word */
	char **vals;
	size_t nvals;
	int bare;			/* a word without '=' */
};

struct dk_state {
	struct dk_entry *ent;
	size_t n;
};

static int dk_parameq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '-' ? '_' : *a) != (*b == '-' ? '_' : *b))
			return 0;
	return *a == *b;
}

static struct dk_entry *dk_entry(struct dk_state *s, const char *key,
				 const struct dk_map *map)
{
	struct dk_entry *ne;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->ent[i].key, key))
			return &s->ent[i];
	ne = realloc(s->ent, (s->n + 1) * sizeof(*ne));
	if (!ne)
		return NULL;
	s->ent = ne;
	ne = &ne[s->n];
	memset(ne, 0, sizeof(*ne));
	ne->key = strdup(key);
	ne->map = map;
	if (!ne->key)
		return NULL;
	s->n++;
	return ne;
}

static int dk_add_val(struct dk_entry *en, const char *v, size_t n)
{
	char **nv = realloc(en->vals, (en->nvals + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	en->vals = nv;
	nv[en->nvals] = malloc(n + 1);
	if (!nv[en->nvals])
		return -1;
	memcpy(nv[en->nvals], v, n);
	nv[en->nvals][n] = '\0';
	en->nvals++;
	return 0;
}

static void dk_clear_vals(struct dk_entry *en)
{
	size_t i;

	for (i = 0; i < en->nvals; i++)
		free(en->vals[i]);
	en->nvals = 0;
}

/* A tracing parameter: the kernel keeps only its last occurrence. */
static int dk_tracing(struct dk_entry *en, const struct bconf_arg *a)
{
	const char *v = a->val ? a->val : "", *c;

	if (en->nvals || en->bare)
		fprintf(stderr, "boottrace: note: %s= appears again; the kernel "
			"keeps only the last one, so the earlier is left out\n",
			a->param);
	dk_clear_vals(en);
	en->bare = !a->val;
	if (en->map->kind == DK_SINGLE)
		return a->val && *v ? dk_add_val(en, v, strlen(v)) : 0;
	for (;;) {
		c = strchr(v, ',');
		if ((c ? c > v : *v != '\0') &&
		    dk_add_val(en, v, c ? (size_t)(c - v) : strlen(v)))
			return -1;
		if (!c)
			return 0;
		v = c + 1;
	}
}

static int dk_word(struct dk_state *s, const struct bconf_arg *a, int init,
		   struct bt_error *e)
{
	char key[BCONF_KEYLEN_MAX + 16];
	const struct dk_map *map = NULL;
	struct dk_entry *en;
	const char *p;
	size_t i;

	for (p = a->param; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return bt_error_set(e, BT_EXIT_INPUT, NULL, "parameter "
					    "'%s' has a character bootconfig keys "
					    "cannot hold ('%c'); keep it on the "
					    "bootloader's line", a->param, *p);
	if (!init)
		for (i = 0; i < sizeof(dk_maps) / sizeof(dk_maps[0]); i++)
			if (dk_parameq(a->param, dk_maps[i].param))
				map = &dk_maps[i];
	if (map)
		snprintf(key, sizeof(key), "%s", map->key);
	else if (!init && !strncmp(a->param, "boottrace.", 10))
		snprintf(key, sizeof(key), "%s", a->param);
	else
		snprintf(key, sizeof(key), "%s.%s", init ? "init" : "kernel", a->param);
	en = dk_entry(s, key, map);
	if (!en)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (map)
		return dk_tracing(en, a) ?
		       bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory") : 0;
	if (!a->val) {
		en->bare = 1;
		return 0;
	}
	return dk_add_val(en, a->val, strlen(a->val)) ?
	       bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory") : 0;
}

static int dk_write(const struct dk_state *s, struct textbuf *out,
		    struct bt_error *e)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		const struct dk_entry *en = &s->ent[i];

		if (en->bare && en->nvals)
			return bt_error_set(e, BT_EXIT_INPUT, NULL, "'%s' appears "
					    "both with and without a value; "
					    "bootconfig cannot say that", en->key);
		textbuf_printf(out, "%s", en->key);
		for (j = 0; j < en->nvals; j++) {
			const char *v = en->vals[j];
			char q = strchr(v, '"') ? '\'' : '"';

			if (q == '\'' && strchr(v, '\''))
				return bt_error_set(e, BT_EXIT_INPUT, NULL, "the value "
						    "of '%s' has both quote kinds",
						    en->key);
			textbuf_printf(out, "%s%c%s%c", j ? ", " : " = ", q, v, q);
		}
		textbuf_printf(out, "\n");
	}
	return 0;
}

int decompile_line(const char *line, struct textbuf *out, struct bt_error *e)
{
	struct dk_state s = { 0 };
	struct bconf_arg a;
	char *copy = strdup(line), *next;
	int init = 0, ret = 0;
	size_t i;

	if (!copy)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	for (next = copy; !ret && (next = bconf_cmdline_next(next, &a)); ) {
		if (!init && !a.val && !strcmp(a.param, "--")) {
			init = 1;
			continue;
		}
		ret = dk_word(&s, &a, init, e);
	}
	if (!ret)
		ret = dk_write(&s, out, e);
	for (i = 0; i < s.n; i++) {
		dk_clear_vals(&s.ent[i]);
		free(s.ent[i].vals);
		free(s.ent[i].key);
	}
	free(s.ent);
	free(copy);
	if (!ret && out->failed)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return ret;
}
