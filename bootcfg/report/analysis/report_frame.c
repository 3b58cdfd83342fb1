// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Frame normalization (docs/report.md, "Names the report checks"): what one
 * stack frame says and whether its name can be believed, decided once per
 * distinct stack, between reading the trace and every output.
 *
 * A frame line is "NAME", or with trace_options=sym-offset
 * "NAME+0xOFF/0xSIZE [MODULE]" (docs/kernel-facts.md 80). The kernel names
 * a stack's addresses when the trace is read, not when the stack was
 * taken, so a module's init function, freed after its init, is named after
 * whatever was loaded into that memory since (docs/kernel-facts.md 81).
 * With a modules tree, such a frame that is the init entry itself is named
 * from its module's .ko (docs/kernel-facts.md 83).
 */
#include <stdlib.h>
#include <string.h>

#include "kimage/kimage.h"
#include "report/analysis/analysis.h"
#include "util/grow.h"

/* ---- names checked against the module loads ---------------------------- */

static int frame_named(const struct report *r, uint32_t id, const char *s)
{
	return id != RP_NONE && !strcmp(rp_str(&r->names, id), s);
}

/* The first load of module @name in the trace, or UINT64_MAX. */
static uint64_t frame_loaded_at(const struct report *r, const char *name)
{
	const struct rp_lineage *l = &r->lin;
	uint32_t i;

	for (i = 0; i < l->nmod; i++)
		if (l->mod[i].kind == RP_PROC_MODLOAD &&
		    !strcmp(rp_str(&r->progs, l->mod[i].name), name))
			return l->mod[i].ts;
	return UINT64_MAX;
}

/* A module loaded after @ts (by anyone): 1. */
static int frame_load_after(const struct report *r, uint64_t ts)
{
	const struct rp_lineage *l = &r->lin;
	uint32_t i;

	for (i = 0; i < l->nmod; i++)
		if (l->mod[i].kind == RP_PROC_MODLOAD && l->mod[i].ts > ts)
			return 1;
	return 0;
}

/* The name id of @fmt with @arg ("[init of %s]"), cut to 299 bytes; RP_NONE: no memory. */
static uint32_t frame_name_id(struct report *r, const char *fmt, const char *arg)
{
	char buf[300];
	int n = snprintf(buf, sizeof(buf), fmt, arg);

	if (n < 0 || (size_t)n >= sizeof(buf))
		n = (int)sizeof(buf) - 1;
	return rp_intern(&r->names, buf, (size_t)n);
}

static int frame_rename(struct report *r, struct rp_stack *s, uint32_t i,
			const char *fmt, const char *arg, uint8_t flag)
{
	uint32_t id = frame_name_id(r, fmt, arg);

	if (id == RP_NONE)
		return -1;
	if (!s->was) {	/* the names as the trace had them, for JSON */
		s->was = malloc(s->nframes * sizeof(*s->was));
		if (!s->was)
			return -1;
		memcpy(s->was, s->frame, s->nframes * sizeof(*s->was));
	}
	s->frame[i] = id;
	s->flag[i] |= flag;
	return 0;
}

/*
 * The module frames of a module's init: a do_init_module stack's frames
 * inner to do_one_initcall run the init of the module its task was loading
 * (the last module_load by that pid before the stack, docs/kernel-facts.md
 * 81). The frame right under do_one_initcall is that init function; its
 * name is believed when its " [MODULE]" is that module, or (no module
 * shown) when no module was loaded after the stack; else it is named
 * "[init of MODULE]". A deeper frame of a module first loaded after the
 * stack is that init's code too. Without a module_load of that task the
 * name cannot be checked: it is shown as "[unverified NAME]".
 */
static int frame_init_rule(struct report *r, struct rp_stack *s, uint64_t ts,
			   uint32_t pid, struct rp_frame_counts *c)
{
	const char *x = NULL;
	uint32_t d, i;
	int loader = 0;

	for (d = 0; d < s->nframes; d++)
		if (frame_named(r, s->frame[d], "do_one_initcall"))
			break;
	for (i = d + 1; i < s->nframes; i++)
		loader |= frame_named(r, s->frame[i], "do_init_module");
	if (d == s->nframes || !d || !loader ||
	    (s->flag[d - 1] & (RP_FR_ZERO | RP_FR_RAW | RP_FR_TRAMP)))
		return 0;
	if (pid != RP_NONE)
		x = rp_lineage_module(r, pid, ts);
	if (!x) {	/* undecidable: never a plain name (issue 22) */
		c->init_unchecked++;
		if (c->init_example == RP_NONE)
			c->init_example = s->frame[d - 1];
		if (s->flag[d - 1] & RP_FR_BADOFF)
			return 0;	/* "[unverified NAME]" already */
		return frame_rename(r, s, d - 1, "[unverified %s]",
				    rp_str(&r->names, s->frame[d - 1]), 0);
	}
	if (s->mod[d - 1] != RP_NONE ?
	    strcmp(rp_str(&r->names, s->mod[d - 1]), x) != 0 :
	    frame_load_after(r, ts)) {
		if (c->init_example == RP_NONE || !c->init_renamed)
			c->init_example = s->frame[d - 1];
		if (frame_rename(r, s, d - 1, "[init of %s]", x, RP_FR_INIT))
			return -1;
		c->init_renamed++;
	}
	for (i = 0; i + 1 < d; i++)
		if (s->mod[i] != RP_NONE && !(s->flag[i] & RP_FR_INIT) &&
		    frame_loaded_at(r, rp_str(&r->names, s->mod[i])) > ts) {
			if (c->init_example == RP_NONE || !c->init_renamed)
				c->init_example = s->frame[i];
			if (frame_rename(r, s, i, "[init of %s]", x, RP_FR_INIT))
				return -1;
			c->init_renamed++;
		}
	return 0;
}

int rp_frame_settle(struct report *r, struct rp_stack *s, uint64_t ts,
		    uint32_t pid, struct rp_frame_counts *c)
{
	uint32_t i;

	for (i = 0; i < s->nframes; i++)
		if ((s->flag[i] & RP_FR_BADOFF) && !(s->flag[i] & RP_FR_INIT)) {
			if (frame_rename(r, s, i, "[unverified %s]",
					 rp_str(&r->names, s->frame[i]), 0))
				return -1;
			c->badoff++;
		}
	return frame_init_rule(r, s, ts, pid, c);
}

/* ---- parent chains: a module's init entry --------------------------------- */

/*
 * The first hit of each chain node, in one pass over chain_task: its task
 * in @task[n] (RP_NONE: none) and time in @ts[n].
 */
static void chain_firsts(const struct report *r, uint32_t *task, uint64_t *ts)
{
	size_t i;
	uint32_t n;

	for (n = 0; n < r->chains.n; n++)
		task[n] = RP_NONE;
	for (i = 0; i < r->chain_task.cap; i++) {
		const struct rp_count *h = &r->chain_task.slot[i];

		if (!h->key || !h->n || (n = rp_key_a(h)) >= r->chains.n ||
		    (task[n] != RP_NONE && h->first >= ts[n]))
			continue;
		task[n] = rp_key_b(h);
		ts[n] = h->first;
	}
}

/*
 * A function line "F <-do_one_initcall" of a task that is not swapper is
 * a module's init entry (report_phase.c's rule), named when the trace was
 * read (docs/kernel-facts.md 81): checked as a stack's init entry is,
 * without a [MODULE] to compare (the chain keeps none).
 */
/*
 * The init entry @n's chain runs under: the node right under a
 * do_one_initcall (@n itself when it is one), or RP_NONE.
 */
static uint32_t chain_entry(const struct report *r, uint32_t n)
{
	const struct rp_chains *ch = &r->chains;
	uint32_t hops;

	for (hops = 0; n != RP_NONE && hops < ch->n; hops++) {
		uint32_t up = ch->node[n].up;

		if (up == RP_NONE)
			return RP_NONE;
		if (frame_named(r, ch->node[up].fn, "do_one_initcall"))
			return n;
		n = up;
	}
	return RP_NONE;
}

/*
 * Whether chain node @n (under init entry @e) is a module's freed init
 * code, by the rule of a stack's frames (frame_init_rule): the entry keeps
 * its name when sym-offset showed it in module @x, the module its task was
 * loading, or, none shown, when nothing was loaded after it; a deeper node
 * is init code when its shown module was first loaded after the hit.
 */
static int chain_freed(const struct report *r, uint32_t n, uint32_t e,
		       const char *x, uint64_t ts)
{
	const char *m = rp_name_module(r, r->chains.node[n].fn);

	if (n != e)
		return m && frame_loaded_at(r, m) > ts;
	if (!x)
		return 1;	/* undecidable: [unverified F] */
	return m ? strcmp(m, x) != 0 : frame_load_after(r, ts);
}

int rp_frame_chains(struct report *r, struct rp_frame_counts *c)
{
	struct rp_chains *ch = &r->chains;
	uint32_t *task = malloc((ch->n ? ch->n : 1) * sizeof(*task)), n;
	uint64_t *ts = malloc((ch->n ? ch->n : 1) * sizeof(*ts));
	int ret = -1;

	if (!task || !ts)
		goto out;
	chain_firsts(r, task, ts);
	for (n = 0; n < ch->n; n++) {
		uint32_t fn = ch->node[n].fn, e = chain_entry(r, n), id;
		const char *t, *x;

		if (e == RP_NONE || task[n] >= r->tasks.n)
			continue;
		t = rp_str(&r->tasks, task[n]);
		if (!strncmp(t, "swapper", 7))
			continue;	/* a built-in initcall: not freed code */
		x = rp_lineage_module(r, rp_task_pid(t), ts[n]);
		if (!chain_freed(r, n, e, x, ts[n]))
			continue;
		id = x ? frame_name_id(r, "[init of %s]", x) :
			 frame_name_id(r, "[unverified %s]", rp_str(&r->names, fn));
		if (id == RP_NONE)
			goto out;
		c->chain_inits++;
		if (x) {
			if (c->init_example == RP_NONE || !c->init_renamed)
				c->init_example = fn;
			c->init_renamed++;
		} else {
			if (c->init_example == RP_NONE)
				c->init_example = fn;
			c->init_unchecked++;
		}
		ch->node[n].fn = id;
	}
	ret = 0;
out:
	free(task);
	free(ts);
	return ret;
}

/* ---- the parent column, named as the stack's caller --------------------- */

int rp_frame_parents(struct report *r)
{
	size_t i;

	for (i = 0; i < r->fn_stack.cap; i++) {
		const struct rp_count *h = &r->fn_stack.slot[i];
		const struct rp_stack *s;
		struct rp_count *was, *now;
		uint32_t fn, k;
		uint64_t n;

		if (!h->key)
			continue;
		fn = rp_key_a(h);
		s = &r->stacks.s[rp_key_b(h)];
		k = rp_stack_caller(s, fn);
		if (!s->was || k == s->nframes || s->was[k] == s->frame[k])
			continue;
		was = rp_pairs_find(&r->fn_parent, fn, s->was[k]);
		if (!was || !was->n)
			continue;	/* hits whose column said otherwise */
		n = was->n < h->n ? was->n : h->n;
		now = rp_pairs_add(&r->fn_parent, fn, s->frame[k], h->first);
		if (!now)
			return -1;
		/* rp_pairs_add may have moved the table: find it again */
		was = rp_pairs_find(&r->fn_parent, fn, s->was[k]);
		now->n += n - 1;
		now->first = now->first < h->first ? now->first : h->first;
		now->last = now->last > h->last ? now->last : h->last;
		was->n -= n;	/* 0: left out of rp_pairs_index */
	}
	return 0;
}

/* ---- names of module inits from their .ko (--modules DIR) ------------- */

/* A module whose init entry was renamed, and what its .ko says. */
struct ko_want {
	char mod[64];		/* "bonding" */
	char fn[128];		/* "bonding_init", "" not found */
	char *path;		/* its .ko, once found */
};

struct ko_walk {
	struct ko_want *v;
	size_t n, cap;
	struct rp_frame_counts *c;
	const char *dir;
};

#define KO_PREFIX "[init of "

/* "[init of bonding]" -> "bonding" (len into *@n), else NULL. */
static const char *ko_init_module(const char *name, size_t *n)
{
	size_t len = strlen(name), p = sizeof(KO_PREFIX) - 1;

	if (len <= p + 1 || strncmp(name, KO_PREFIX, p) || name[len - 1] != ']')
		return NULL;
	*n = len - p - 1;
	return name + p;
}

size_t rp_frame_ko_named(const char *name)
{
	const char *b = strstr(name, " " KO_PREFIX);
	size_t n;

	return b && b > name && ko_init_module(b + 1, &n) ? (size_t)(b - name) : 0;
}

/* The frame of @s right under do_one_initcall, if renamed: its index. */
static int ko_entry(const struct report *r, const struct rp_stack *s,
		    uint32_t *at)
{
	uint32_t d;

	for (d = 1; d < s->nframes; d++)
		if (frame_named(r, s->frame[d], "do_one_initcall"))
			break;
	if (d == s->nframes || !(s->flag[d - 1] & RP_FR_INIT))
		return 0;
	*at = d - 1;
	return 1;
}

/* Chain node @n, an init entry renamed "[init of M]": 1. */
static int ko_chain_entry(const struct report *r, uint32_t n)
{
	uint32_t up = r->chains.node[n].up;

	return up != RP_NONE &&
	       frame_named(r, r->chains.node[up].fn, "do_one_initcall");
}

static struct ko_want *ko_find(struct ko_walk *w, const char *mod, size_t n)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (strlen(w->v[i].mod) == n && !strncmp(w->v[i].mod, mod, n))
			return &w->v[i];
	return NULL;
}

/* Append "TEXT" to @buf as a list item, "..." when it is full. */
static void ko_list(char *buf, size_t cap, const char *text)
{
	size_t len = strlen(buf);

	if (len + 4 >= cap || !strcmp(buf + (len > 3 ? len - 3 : 0), "..."))
		return;
	if (len + strlen(text) + 2 + 5 >= cap)
		snprintf(buf + len, cap - len, "%s...", len ? ", " : "");
	else
		snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", text);
}

/* kmodules_walk's callback: a wanted module's init name. */
static int ko_visit(void *ctx, const char *path, const char *name,
		    struct bt_error *e)
{
	struct ko_walk *w = ctx;
	struct ko_want *k = ko_find(w, name, strlen(name));
	struct bt_error why;
	uint64_t size;
	int ret;

	if (!k || k->path)	/* not wanted, or found already */
		return 0;
	if (!(k->path = strdup(path)))
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	bt_error_clear(&why);
	ret = kmodules_init_file(path, k->fn, sizeof(k->fn), &size, &why);
	if (ret > 0)
		return 0;
	k->fn[0] = '\0';
	if (why.code == BT_EXIT_ENV) {
		*e = why;
		return -1;
	}
	/* a .ko that does not say is reported, not fatal: the rest stands */
	if (!w->c->ko_unnamed++)
		snprintf(w->c->ko_problem, sizeof(w->c->ko_problem), "%.120s: %.170s",
			 path, ret < 0 ? why.msg :
			 "no init_module symbol (a module without an init, or stripped)");
	return 0;
}

/* Parent chains' init entries named from their .ko, as a stack's are. */
static int ko_chains(struct report *r, struct ko_walk *w,
		     struct rp_frame_counts *c)
{
	const struct ko_want *kw;
	const char *m;
	char buf[300];
	uint32_t i, id;
	size_t n;

	for (i = 0; i < r->chains.n; i++) {
		if (!ko_chain_entry(r, i) ||
		    !(m = ko_init_module(rp_str(&r->names, r->chains.node[i].fn), &n)) ||
		    !(kw = ko_find(w, m, n)) || !kw->fn[0])
			continue;
		snprintf(buf, sizeof(buf), "%s " KO_PREFIX "%s]", kw->fn, kw->mod);
		if ((id = frame_name_id(r, "%s", buf)) == RP_NONE)
			return -1;
		if (c->ko_example == RP_NONE)
			c->ko_example = c->init_example;
		r->chains.node[i].fn = id;
		c->ko_named++;
	}
	return 0;
}

int rp_frame_ko_names(struct report *r, const char *dir,
		      struct rp_frame_counts *c, struct bt_error *e)
{
	struct ko_walk w = { .c = c, .dir = dir };
	uint32_t i, at;
	size_t n, k;
	const char *m;
	char buf[300];
	int ret = -1;

	c->ko_dir = dir;
	c->ko_example = RP_NONE;
	/* the inits wanted: stacks' first, then parent chains' entries */
	for (i = 0; i < r->stacks.n + r->chains.n; i++) {
		uint32_t id;

		if (i < r->stacks.n) {
			if (!ko_entry(r, &r->stacks.s[i], &at))
				continue;
			id = r->stacks.s[i].frame[at];
		} else if (ko_chain_entry(r, i - r->stacks.n)) {
			id = r->chains.node[i - r->stacks.n].fn;
		} else {
			continue;
		}
		if (!(m = ko_init_module(rp_str(&r->names, id), &n)) ||
		    ko_find(&w, m, n) || n >= sizeof(w.v[0].mod))
			continue;
		if (BT_GROW(w.v, w.n + 1, w.cap) < 0) {
			bt_error_set(e, BT_EXIT_ENV, dir, "out of memory");
			goto out;
		}
		memset(&w.v[w.n], 0, sizeof(w.v[0]));
		memcpy(w.v[w.n].mod, m, n);
		w.n++;
	}
	/* walked even with nothing to name: a wrong tree is said either way */
	if (kmodules_walk(dir, ko_visit, &w, NULL, "reading modules", e))
		goto out;
	for (k = 0; k < w.n; k++) {
		if (!w.v[k].path) {
			c->ko_missing++;
			ko_list(c->ko_missing_names, sizeof(c->ko_missing_names),
				w.v[k].mod);
		} else if (w.v[k].fn[0]) {
			const char *rel = w.v[k].path;

			/* the path under the tree the finding names */
			if (!strncmp(rel, dir, strlen(dir)) && rel[strlen(dir)] == '/')
				rel += strlen(dir) + 1;
			snprintf(buf, sizeof(buf), "%s (%s, %s)", w.v[k].fn,
				 w.v[k].mod, rel);
			ko_list(c->ko_names, sizeof(c->ko_names), buf);
		}
	}
	for (i = 0; i < r->stacks.n; i++) {
		struct rp_stack *s = &r->stacks.s[i];
		const struct ko_want *kw;

		if (!ko_entry(r, s, &at) ||
		    !(m = ko_init_module(rp_str(&r->names, s->frame[at]), &n)) ||
		    !(kw = ko_find(&w, m, n)) || !kw->fn[0])
			continue;
		snprintf(buf, sizeof(buf), "%s " KO_PREFIX "%s]", kw->fn, kw->mod);
		if (c->ko_example == RP_NONE && s->was)
			c->ko_example = s->was[at];
		if (frame_rename(r, s, at, "%s", buf, RP_FR_INIT)) {
			bt_error_set(e, BT_EXIT_ENV, dir, "out of memory");
			goto out;
		}
		c->ko_named++;
	}
	if (ko_chains(r, &w, c)) {
		bt_error_set(e, BT_EXIT_ENV, dir, "out of memory");
		goto out;
	}
	ret = 0;
out:
	for (k = 0; k < w.n; k++)
		free(w.v[k].path);
	free(w.v);
	return ret;
}

/* ---- the module each name is in (sym-offset's " [MODULE]") --------------- */

#define MOD_MIXED (UINT32_MAX - 1)	/* shown in two modules: none said */

static void mod_note(uint32_t *mod, uint32_t n, uint32_t id, uint32_t m)
{
	if (id >= n || m == RP_NONE || mod[id] == MOD_MIXED)
		return;
	mod[id] = mod[id] == RP_NONE || mod[id] == m ? m : MOD_MIXED;
}

/* The module of the frame text [f, f + len) as a name id, RP_NONE: none. */
static uint32_t mod_of_text(struct report *r, const char *f, size_t len)
{
	struct rp_frame_text ft;

	rp_frame_parse(f, len, &ft);
	return ft.mod ? rp_intern(&r->names, ft.mod, ft.mod_len) : RP_NONE;
}

/*
 * A function line's body "FUNC+0x0/0x7e0 [M] <-PARENT+0x62/0xb0 [M]": the
 * kernel prints each name with its module when sym-offset is set.
 */
static void mod_bodies(struct report *r, uint32_t *mod, uint32_t n)
{
	uint32_t b;

	for (b = 0; b < r->nbody; b++) {
		const char *t = rp_str(&r->bodies, b), *p = strstr(t, " <-");
		size_t a = p ? (size_t)(p - t) : strlen(t);

		mod_note(mod, n, r->body[b].fn, mod_of_text(r, t, a));
		if (p && r->body[b].parent != RP_NONE)
			mod_note(mod, n, r->body[b].parent,
				 mod_of_text(r, p + 3, strlen(p + 3)));
	}
}

int rp_frame_modules(struct report *r)
{
	uint32_t n = r->names.n, *mod, *shown, i, k;

	free(r->an.shown);
	free(r->an.modof);
	r->an.shown = r->an.modof = NULL;
	r->an.nshown = 0;
	mod = malloc(((size_t)n + 1) * sizeof(*mod));
	shown = malloc(((size_t)n + 1) * sizeof(*shown));
	if (!mod || !shown)
		goto oom;
	for (i = 0; i < n; i++)
		mod[i] = RP_NONE;
	for (k = 0; k < r->stacks.n; k++) {
		const struct rp_stack *s = &r->stacks.s[k];

		for (i = 0; i < s->nframes; i++)	/* as the trace named it */
			mod_note(mod, n, s->was ? s->was[i] : s->frame[i],
				 s->mod[i]);
	}
	mod_bodies(r, mod, n);
	for (i = 0; i < n; i++) {
		char buf[300];

		shown[i] = RP_NONE;
		if (mod[i] == MOD_MIXED)
			mod[i] = RP_NONE;
		if (mod[i] == RP_NONE)
			continue;
		snprintf(buf, sizeof(buf), "%s [%s]", rp_str(&r->names, i),
			 rp_str(&r->names, mod[i]));
		shown[i] = rp_intern(&r->names, buf, strlen(buf));
		if (shown[i] == RP_NONE)
			goto oom;
	}
	r->an.shown = shown;
	r->an.modof = mod;
	r->an.nshown = n;
	return 0;
oom:
	free(mod);
	free(shown);
	return -1;
}

const char *rp_name_module(const struct report *r, uint32_t id)
{
	return id < r->an.nshown && r->an.modof[id] != RP_NONE ?
	       rp_str(&r->names, r->an.modof[id]) : NULL;
}

const char *rp_name(const struct report *r, uint32_t id)
{
	if (id < r->an.nshown && r->an.shown[id] != RP_NONE)
		id = r->an.shown[id];
	return rp_str(&r->names, id);
}

const char *rp_name_in(const struct report *r, const struct rp_intern *t,
		       uint32_t id)
{
	return t == &r->names ? rp_name(r, id) : rp_str(t, id);
}
