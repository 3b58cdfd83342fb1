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

/*
 * A word the config keys cannot hold: kept as written, as a verbatim.*
 * value (compile writes it back), or in a comment when not even a value
 * can hold it (both quote kinds).
 */
struct dk_verbatim {
	char *word;
	int init;			/* after "--" */
	int comment;			/* both quote kinds: only a comment holds it */
};

struct dk_state {
	struct dk_entry *ent;
	size_t n, cap;
	struct dk_verbatim *vb;
	size_t nvb, capvb;
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

static struct dk_entry *dk_entry_find(struct dk_state *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->ent[i].key, key))
			return &s->ent[i];
	return NULL;
}

static struct dk_entry *dk_entry(struct dk_state *s, const char *key,
				 const struct dk_map *map)
{
	struct dk_entry *ne = dk_entry_find(s, key);

	if (ne)
		return ne;
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
			bt_say(NULL, BT_SAY_NOTE, "%s= appears again; the kernel keeps only the last one, so the earlier is left out",
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

/*
 * Why the config language cannot hold @key (a whole key, "kernel.a.b"):
 * each word [A-Za-z0-9_-]+, at most BCONF_DEPTH_MAX words and
 * BCONF_KEYLEN_MAX bytes (parser/bconf_parse.c). NULL when it can.
 */
static const char *dk_key_bad(const char *key, char *why, size_t cap)
{
	size_t words = 1, wlen = 0;
	const char *p;

	if (strlen(key) + 1 > BCONF_KEYLEN_MAX) {
		snprintf(why, cap, "a key longer than %d bytes", BCONF_KEYLEN_MAX - 1);
		return why;
	}
	for (p = key; *p; p++) {
		if (*p == '.') {
			if (!wlen)
				break;
			words++;
			wlen = 0;
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			   (*p >= '0' && *p <= '9') || *p == '_' || *p == '-') {
			wlen++;
		} else {
			snprintf(why, cap, "the name has a character config keys cannot hold ('%c'; key words are [A-Za-z0-9_-])", *p);
			return why;
		}
	}
	if (!wlen) {
		snprintf(why, cap, "the name has an empty word between dots");
		return why;
	}
	if (words > BCONF_DEPTH_MAX) {
		snprintf(why, cap, "its key '%s' has %zu words, more than the %d a config key may have", key, words, BCONF_DEPTH_MAX);
		return why;
	}
	return NULL;
}

/* Why a config value cannot be @v, or NULL: quoted with one kind, no line break. */
static const char *dk_val_bad(const char *v)
{
	if (strchr(v, '"') && strchr(v, '\''))
		return "its value has both quote kinds (a config value is quoted with one and cannot hold it)";
	if (strpbrk(v, "\n\r"))
		return "its value has a line break";
	return NULL;
}

/*
 * Another key is @key's parent or child: the plan refuses a key with both
 * a value and subkeys ("iommu=pt iommu.passthrough=1"). NULL when none.
 */
static const struct dk_entry *dk_key_clash(const struct dk_state *s, const char *key)
{
	size_t i, n = strlen(key), m;

	for (i = 0; i < s->n; i++) {
		m = strlen(s->ent[i].key);
		if (m != n && !strncmp(s->ent[i].key, key, m < n ? m : n) &&
		    (m < n ? key[m] : s->ent[i].key[n]) == '.')
			return &s->ent[i];
	}
	return NULL;
}

static int dk_keep(struct dk_state *s, const char *word, size_t len, int init,
		   const char *why, struct bt_error *e)
{
	struct dk_verbatim *v;

	if (memchr(word, '\n', len) || memchr(word, '\r', len))
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "'%.*s' has a line break in a quoted value: no config and no comment can keep it", (int)len, word);
	if (BT_GROW(s->vb, s->nvb + 1, s->capvb) < 0)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	v = &s->vb[s->nvb];
	v->word = malloc(len + 1);
	if (!v->word)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	memcpy(v->word, word, len);
	v->word[len] = '\0';
	v->init = init;
	v->comment = strchr(v->word, '"') && strchr(v->word, '\'');
	s->nvb++;
	if (v->comment)
		bt_say(NULL, BT_SAY_WARN, "'%s'%s kept verbatim in a comment: %s, and as a verbatim.%s value it would need both quote kinds; compile will not write it back, so keep it on the bootloader's line",
		       v->word, init ? " (for init, after --)" : "", why, init ? "init" : "kernel");
	else
		bt_say(NULL, BT_SAY_WARN, "'%s' kept as written in verbatim.%s: %s; compile writes it back as written",
		       v->word, init ? "init" : "kernel", why);
	return 0;
}

/*
 * One word: @a as the kernel splits it, @word/@len as written. A word
 * the config cannot hold is kept verbatim unless it is a tracing
 * parameter, whose loss would change the trace: that is an error.
 */
static int dk_word(struct dk_state *s, const struct bconf_arg *a, int init,
		   const char *word, size_t len, struct bt_error *e)
{
	char key[BCONF_KEYLEN_MAX + 16], why[3 * BCONF_KEYLEN_MAX + 200];
	struct dk_map found, *map = NULL;
	const struct dk_entry *clash;
	struct dk_entry *en;
	const char *bad;
	int tracing;

	if (!init && dk_map_of(a->param, &found))
		map = &found;
	if (map)
		snprintf(key, sizeof(key), "%s", map->key);
	else if (!init && !strncmp(a->param, "boottrace.", 10))
		snprintf(key, sizeof(key), "%s", a->param);
	else
		snprintf(key, sizeof(key), "%s.%s", init ? "init" : "kernel", a->param);
	tracing = map || (!init && (kparam_find(a->param) != KP_N ||
				    !strncmp(a->param, "boottrace.", 10)));
	bad = map ? NULL : dk_key_bad(key, why, sizeof(why));
	if (!bad && !map && (clash = dk_key_clash(s, key))) {
		snprintf(why, sizeof(why), "the config cannot have '%s' with a value and '%s' (boottrace's plan refuses a key with both a value and subkeys)",
			 strlen(clash->key) < strlen(key) ? clash->key : key,
			 strlen(clash->key) < strlen(key) ? key : clash->key);
		bad = why;
	}
	if (!bad && a->val && (!map || !map->list))
		bad = dk_val_bad(a->val);
	en = bad ? NULL : dk_entry_find(s, key);
	if (!bad && !map && en && (en->bare ? a->val != NULL : !a->val))
		bad = "it appears both with and without a value, which a config key cannot say";
	if (bad && tracing)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "tracing parameter '%.*s' cannot be written as a config: %s", (int)len, word, bad);
	if (bad)
		return dk_keep(s, word, len, init, bad, e);
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

/* verbatim.kernel (or with @init verbatim.init) = the kept words, in order. */
static void dk_write_verbatim(const struct dk_state *s, struct textbuf *out,
			      int init)
{
	size_t i, n = 0;

	for (i = 0; i < s->nvb; i++) {
		const char *w = s->vb[i].word;

		if (s->vb[i].comment || s->vb[i].init != init)
			continue;
		textbuf_printf(out, "%s%s%s%c", n++ ? ", " : init ? "verbatim.init = " : "verbatim.kernel = ",
			       strchr(w, '"') ? "'" : "\"", w, strchr(w, '"') ? '\'' : '"');
	}
	if (n)
		textbuf_printf(out, "\n");
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
			const char *bad = dk_val_bad(v);

			if (bad)
				return bt_error_set(e, BT_EXIT_INPUT, NULL, "tracing parameter '%s' cannot be written as a config: %s",
						    en->key, bad);
			textbuf_printf(out, "%s%c%s%c", j ? ", " : " = ", q, v, q);
		}
		textbuf_printf(out, "\n");
	}
	dk_write_verbatim(s, out, 0);
	dk_write_verbatim(s, out, 1);
	for (i = j = 0; i < s->nvb; i++) {
		if (!s->vb[i].comment)
			continue;
		if (!j++)
			textbuf_printf(out, "# Kept verbatim: words no config value can hold (decompile's warnings say why).\n# compile does not write them back; keep them on the bootloader's line.\n");
		textbuf_printf(out, "#\t%s%s\n", s->vb[i].init ? "(after --) " : "", s->vb[i].word);
	}
	return 0;
}

int decompile_line(const char *line, struct textbuf *out, struct bt_error *e)
{
	struct dk_state s = { 0 };
	struct bconf_arg a;
	char *copy = strdup(line), *next;
	const char *orig = line, *word;
	int init = 0, ret = 0;
	size_t i, len;

	if (!copy)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	for (next = copy; !ret && (next = bconf_cmdline_next(next, &a)); ) {
		/* The same word as written: the span ends where next() ends it. */
		len = bconf_cmdline_span(orig, &word);
		orig = word + len;
		if (!init && !a.val && !strcmp(a.param, "--")) {
			init = 1;
			continue;
		}
		ret = dk_word(&s, &a, init, word, len, e);
	}
	if (!ret)
		ret = dk_write(&s, out, e);
	for (i = 0; i < s.n; i++) {
		dk_clear_vals(&s.ent[i]);
		free(s.ent[i].vals);
		free(s.ent[i].key);
	}
	free(s.ent);
	for (i = 0; i < s.nvb; i++)
		free(s.vb[i].word);
	free(s.vb);
	free(copy);
	if (!ret && out->failed)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return ret;
}
