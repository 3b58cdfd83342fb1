/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Legacy command line -> config text (decompile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "compile/decompile.h"
#include "kernel/params.h"
#include "kernel/words.h"
#include "util/grow.h"

/*
 * A tracing parameter that has an ftrace.* form (kernel/params.h) becomes
 * that key; boottrace.arm is the hook's own and keeps its name. The rest
 * are passed through as kernel.* (or init.*) words.
 */
struct dk_map {
	const char *key;
	int list;		/* the kernel splits the value at ',' */
	enum kparam_repeat repeat;
};

static const struct dk_map dk_arm = { "boottrace.arm", 1, KPR_REPLACE };

/* One config key and its values, in order of first appearance. */
struct dk_entry {
	char *key;
	struct dk_map map;		/* map.key NULL: a passed-through word */
	char **vals;
	size_t nvals, cap;
	int bare;			/* a word without '=' */
};

struct dk_state {
	struct dk_entry *ent;
	size_t n, cap;
};

/* The config key of a tracing parameter, or 0 for a word passed through. */
static int dk_map_of(const char *param, struct dk_map *map)
{
	enum kparam id = kparam_find(param);
	const struct kparam_info *k;

	if (id == KP_N) {
		if (strlen(param) != strlen(dk_arm.key) ||
		    !words_parameq(param, dk_arm.key, strlen(param)))
			return 0;
		*map = dk_arm;
		return 1;
	}
	k = kparam_get(id);
	if (!k->bconf_key)
		return 0;
	map->key = k->bconf_key;
	map->list = k->value == KPV_LIST;
	map->repeat = k->repeat;
	return 1;
}

static struct dk_entry *dk_entry(struct dk_state *s, const char *key,
				 const struct dk_map *map)
{
	struct dk_entry *ne;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->ent[i].key, key))
			return &s->ent[i];
	if (BT_GROW(s->ent, s->n + 1, s->cap) < 0)
		return NULL;
	ne = &s->ent[s->n];
	memset(ne, 0, sizeof(*ne));
	ne->key = strdup(key);
	if (map)
		ne->map = *map;
	if (!ne->key)
		return NULL;
	s->n++;
	return ne;
}

static int dk_add_val(struct dk_entry *en, const char *v, size_t n)
{
	char **nv;

	if (BT_GROW(en->vals, en->nvals + 1, en->cap) < 0)
		return -1;
	nv = en->vals;
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

/* A tracing parameter: where a repeat replaces, only the last one counts. */
static int dk_tracing(struct dk_entry *en, const struct bconf_arg *a)
{
	const char *v = a->val ? a->val : "", *c;

	if (en->map.repeat == KPR_REPLACE) {
		if (en->nvals || en->bare)
			bt_say("boottrace", BT_SAY_NOTE, "%s= appears again; the kernel keeps only the last one, so the earlier is left out",
			       a->param);
		dk_clear_vals(en);
	}
	en->bare = !a->val;
	if (!en->map.list)
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
	struct dk_map found, *map = NULL;
	struct dk_entry *en;
	const char *p;

	for (p = a->param; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return bt_error_set(e, BT_EXIT_INPUT, NULL, "parameter '%s' has a character bootconfig keys cannot hold ('%c'); keep it on the bootloader's line",
					    a->param, *p);
	if (!init && dk_map_of(a->param, &found))
		map = &found;
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
			return bt_error_set(e, BT_EXIT_INPUT, NULL, "'%s' appears both with and without a value; bootconfig cannot say that",
					    en->key);
		textbuf_printf(out, "%s", en->key);
		for (j = 0; j < en->nvals; j++) {
			const char *v = en->vals[j];
			char q = strchr(v, '"') ? '\'' : '"';

			if (q == '\'' && strchr(v, '\''))
				return bt_error_set(e, BT_EXIT_INPUT, NULL, "the value of '%s' has both quote kinds",
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
