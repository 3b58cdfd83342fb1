/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every function name of a plan against the kernel's symbols (check.h):
 * exists (where: vmlinux or which module), traceable by the function tracer
 * (has an mcount/fentry site), when it runs if it is an init function, and
 * for a name that is not there, the near misses: compiler clones
 * (.isra.0, .constprop.0, .part.0, .cold), case, edit distance.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "check/check.h"

enum name_kind { NK_FILTER, NK_NOTRACE, NK_GFILTER, NK_GNOTRACE, NK_KPROBE, NK_ARM };

struct name_ref {
	enum name_kind kind;
	char func[256];		/* the function (or glob) */
	char mod[256];		/* :mod:MODULE or MODULE:SYM, "" if none */
	const char *text;	/* as written */
	int node;
	int key_ftrace;		/* written under ftrace.* (applied at 1s) */
};

struct sym_ctx {
	struct check_report *r;
	const struct plan *p;
	const struct ksyms *t;
	const struct check_opts *o;
	int core;		/* the table has the kernel image's functions */
};

/* Said of a name the modules lack when the kernel image's symbols are not at hand. */
static const char no_core[] = "core-kernel names cannot be checked without the kernel's symbols: give --vmlinux (the linux-image-VER-dbg package's usr/lib/debug/boot/vmlinux-VER), --system-map (a real System.map or the board's /proc/kallsyms) or --root";

static int is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* "foo", "!foo", "foo:mod:bar", "foo:traceoff" -> function and module. */
static void name_parse_filter(struct name_ref *n, const char *s)
{
	const char *c, *m;

	if (*s == '!')
		s++;
	c = strchr(s, ':');
	m = strstr(s, ":mod:");
	snprintf(n->func, sizeof(n->func), "%.*s", (int)(c ? c - s : (long)strlen(s)), s);
	if (m)
		snprintf(n->mod, sizeof(n->mod), "%.*s", (int)strcspn(m + 5, ":"), m + 5);
}

/*
 * A kprobe probe: "[p|r[N]:[GRP/]EVENT ]SYM[+OFF][%return] ARGS...",
 * SYM possibly MODULE:SYM. An address (0x...) names no symbol: "" then.
 */
static void name_parse_probe(struct name_ref *n, const char *s)
{
	char w[256];
	size_t len = strcspn(s, " \t");
	char *c;

	if ((s[0] == 'p' || s[0] == 'r') && len > 1 &&
	    strspn(s + 1, "0123456789") + 1 < len && s[1 + strspn(s + 1, "0123456789")] == ':') {
		s += len;
		s += strspn(s, " \t");
		len = strcspn(s, " \t");
	}
	snprintf(w, sizeof(w), "%.*s", (int)len, s);
	w[strcspn(w, "+%")] = '\0';
	if (!strncmp(w, "0x", 2) || (w[0] >= '0' && w[0] <= '9')) {
		n->func[0] = '\0';
		return;
	}
	c = strchr(w, ':');
	if (c) {
		*c = '\0';
		snprintf(n->mod, sizeof(n->mod), "%s", w);
		snprintf(n->func, sizeof(n->func), "%s", c + 1);
	} else {
		snprintf(n->func, sizeof(n->func), "%s", w);
	}
}

static const char *mod_name(const struct ksyms *t, int mod)
{
	return mod < 0 ? "vmlinux" : t->mods[mod];
}

/* Clones and case slips share the bucket; then the nearest by edit distance. */
static void name_suggest(const struct sym_ctx *c, const char *f, char *buf, size_t cap)
{
	const struct ksyms *t = c->t;
	size_t lf = strlen(f), lim = lf / 3 + 2, i, n = 0;
	const char **cands, *best;
	uint32_t k;

	buf[0] = '\0';
	for (k = ksyms_bucket(t, f); k; k = t->sym[k].next) {
		const char *s = t->sym[k].name;

		if (!(t->sym[k].flags & KSYM_TEXT))
			continue;
		if (!strncmp(s, f, lf) && s[lf] == '.') {
			snprintf(buf, cap, "; did you mean %s (a compiler clone: the kernel lists it under that full name; filter on '%s' or '%s*')", s, s, f);
			return;
		}
		if (!strcasecmp(s, f)) {
			snprintf(buf, cap, "; did you mean %s (names are case-sensitive)", s);
			return;
		}
	}
	cands = malloc(t->n * sizeof(*cands));
	if (!cands)
		return;
	for (i = 1; i < t->n; i++) {
		size_t ls = strlen(t->sym[i].name);

		if ((t->sym[i].flags & KSYM_TEXT) &&
		    (ls > lf ? ls - lf : lf - ls) <= lim)
			cands[n++] = t->sym[i].name;
	}
	cands[n] = NULL;
	best = n ? plan_nearest(f, cands) : NULL;
	if (best)
		snprintf(buf, cap, "; did you mean %s", best);
	free(cands);
}

static const char *kind_what(enum name_kind k)
{
	static const char *const w[] = {
		"ftrace filter", "ftrace notrace", "graph filter",
		"graph notrace", "kprobe", "module filter (boottrace.arm)",
	};
	return w[k];
}

static void name_missing(const struct sym_ctx *c, const struct name_ref *n)
{
	char sug[600];

	if (!c->core && !n->mod[0]) {
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s '%s' is in none of the modules given; %s",
				 kind_what(n->kind), n->func, no_core);
		return;
	}
	name_suggest(c, n->func, sug, sizeof(sug));
	if (!c->core)
		check_report_add(c->r, c->p, n->node, CK_ERROR, n->func,
				 "%s '%s' is in none of the modules given%s (the kernel image's names were not searched: no --vmlinux, --system-map or --root)",
				 kind_what(n->kind), n->func, sug);
	else
		check_report_add(c->r, c->p, n->node, CK_ERROR, n->func,
				 "%s '%s' is not a function of this kernel%s%s", kind_what(n->kind),
				 n->func, c->t->nmods ? " or its modules" :
				 " (no --modules given: module functions were not searched)",
				 sug);
}

/* An init function of the kernel image: when does it run? */
static void name_init(const struct sym_ctx *c, const struct name_ref *n)
{
	const char *lv = kinitcall_level(c->t, n->func);
	int before = lv ? kinitcall_before_boottrace(lv) : 0;

	if (!lv) {
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s is in .init.text: it can be traced only during boot (the kernel frees it after init)",
				 n->func);
	} else if (before && n->key_ftrace && n->kind != NK_KPROBE) {
		check_report_add(c->r, c->p, n->node, CK_WARN, n->func,
				 "%s is registered with %s (level %s), which runs %s ftrace.* boot-time tracing starts (core_initcall_sync): from a bootconfig blob this filter comes too late; on the command line (-t cmdline, or kernel.ftrace_filter) it is applied in start_kernel, before any initcall",
				 n->func, kinitcall_macro(lv), lv,
				 before == 2 ? "in the same level as (maybe before)" :
				 "before");
	} else {
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s is registered with %s (level %s): it runs %s", n->func, kinitcall_macro(lv), lv,
				 before ? "before ftrace.* boot-time tracing, but the command line's ftrace_filter is applied before any initcall" :
				 "after boot-time tracing starts (core_initcall_sync): traceable at boot");
	}
}

static void name_traceable(const struct sym_ctx *c, const struct name_ref *n,
			   const struct ksym *s)
{
	int known = s->mod < 0 ? c->t->core_trace == KT_KNOWN : c->t->mods_trace;
	const char *where = mod_name(c->t, s->mod);

	if (n->kind == NK_KPROBE) {
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "kprobe point %s found in %s", n->func, where);
	} else if (!known) {
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s found in %s; traceability not checked (give --vmlinux%s to read __mcount_loc)", n->func, where,
				 s->mod < 0 ? "" : " or --modules");
	} else if (s->flags & KSYM_TRACE) {
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s found in %s, traceable (it has an mcount/fentry site)", n->func, where);
	} else {
		check_report_add(c->r, c->p, n->node,
				 n->kind == NK_NOTRACE || n->kind == NK_GNOTRACE ?
				 CK_WARN : CK_ERROR, n->func,
				 "%s is in %s but has no mcount/fentry site: it is notrace (or only its inlined copies run), so the function tracer never sees it; a kprobe can: ftrace.event.kprobes.%.20s_probe.probes = %s", n->func, where, n->func, n->func);
	}
}

/* Found in a module: say what a boot-time filter on it needs. */
static void name_module(const struct sym_ctx *c, const struct name_ref *n,
			const struct ksym *s)
{
	const char *m = c->t->mods[s->mod];

	if (n->kind == NK_FILTER || n->kind == NK_GFILTER) {
		check_report_add(c->r, c->p, n->node, CK_ERROR, n->func,
				 "%s is in module %s, not in vmlinux: a boot filter on a module function is dropped by the kernel before the module loads; write it as '%s:mod:%s' and boottrace arms it from the initramfs hook (boottrace.arm) before %s loads",
				 n->func, m, n->func, m, m);
		return;
	}
	if (n->kind == NK_ARM)
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s found in module %s (%s.ko): the hook writes '%s:mod:%s' to set_ftrace_filter before the module loads and the kernel applies it when %s loads, so tracing must still be on then%s",
				 n->func, m, m, n->func, m, m,
				 s->flags & KSYM_INIT ? "; it is the module's init code, traced at load (kernel 4.15+)" : "");
	name_traceable(c, n, s);
}

static void check_glob(const struct sym_ctx *c, const struct name_ref *n)
{
	const struct ksyms *t = c->t;
	size_t i, count = 0, all = 0;
	const char *first = NULL;
	int known = t->core_trace == KT_KNOWN;

	for (i = 1; i < t->n; i++) {
		const struct ksym *s = &t->sym[i];

		if (!(s->flags & KSYM_TEXT) || fnmatch(n->func, s->name, 0))
			continue;
		if (n->mod[0] ? s->mod < 0 || fnmatch(n->mod, t->mods[s->mod], 0) :
		    s->mod >= 0)
			continue;
		all++;
		if (known && !(s->flags & KSYM_TRACE))
			continue;
		if (!count++)
			first = s->name;
	}
	if (!count && !c->core && !n->mod[0])
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s '%s' not checked: %s", kind_what(n->kind),
				 n->func, no_core);
	else if (!count)
		check_report_add(c->r, c->p, n->node, CK_ERROR, n->func,
				 "%s '%s' matches no %sfunction%s", kind_what(n->kind),
				 n->func, known ? "traceable " : "",
				 all ? " (only functions without an mcount site)" : "");
	else if (count > (size_t)c->o->threshold)
		check_report_add(c->r, c->p, n->node, CK_WARN, n->func,
				 "'%s' matches %zu %sfunctions: tracing them all at boot slows it down and fills the buffer",
				 n->func, count, known ? "traceable " : "");
	else
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "'%s' matches %zu %sfunction(s), e.g. %s",
				 n->func, count, known ? "traceable " : "", first);
}

static void check_name(const struct sym_ctx *c, struct name_ref *n)
{
	const struct ksyms *t = c->t;
	const struct ksym *core = NULL, *mod = NULL, *other = NULL;
	uint32_t k;

	if (!n->func[0])
		return;
	if (is_glob(n->func)) {
		check_glob(c, n);
		return;
	}
	for (k = ksyms_bucket(t, n->func); k; k = t->sym[k].next) {
		const struct ksym *s = &t->sym[k];

		if (!(s->flags & KSYM_TEXT) || strcmp(s->name, n->func))
			continue;
		if (s->mod < 0) {
			/* Several static functions may share a name: prefer a traceable one. */
			if (!core || (!(core->flags & KSYM_TRACE) && (s->flags & KSYM_TRACE)))
				core = s;
		} else if (!n->mod[0] || !strcmp(t->mods[s->mod], n->mod)) {
			if (!mod)
				mod = s;
		} else if (!other) {
			other = s;
		}
	}
	if (n->mod[0] && !mod && !t->nmods) {
		check_report_add(c->r, c->p, n->node, CK_NOTE, n->func,
				 "%s:mod:%s not checked: no --modules given",
				 n->func, n->mod);
	} else if (n->mod[0] && !mod) {
		if (other || core)
			check_report_add(c->r, c->p, n->node, CK_ERROR, n->func,
					 "%s is not in module %s but in %s",
					 n->func, n->mod, other ? mod_name(t, other->mod) :
					 "vmlinux");
		else
			name_missing(c, n);
	} else if (n->mod[0] || (!core && mod)) {
		name_module(c, n, mod);
	} else if (core) {
		name_traceable(c, n, core);
		if (core->flags & KSYM_INIT)
			name_init(c, n);
	} else {
		name_missing(c, n);
	}
}

static void check_list(const struct sym_ctx *c, const struct plan_list *l,
		       enum name_kind kind)
{
	const struct bconf *bc = c->p->src->bc;
	struct name_ref n;
	char key[16];
	size_t i;

	for (i = 0; i < l->n; i++) {
		memset(&n, 0, sizeof(n));
		n.kind = kind;
		n.text = l->v[i].text;
		n.node = l->v[i].node;
		key[0] = '\0';
		if (n.node != BCONF_NONE)
			bconf_compose_key(bc, BCONF_NONE, n.node, key, sizeof(key));
		n.key_ftrace = !strncmp(key, "ftrace.", 7);
		if (kind == NK_KPROBE)
			name_parse_probe(&n, n.text);
		else
			name_parse_filter(&n, n.text);
		check_name(c, &n);
	}
}

void check_plan_symbols(struct check_report *r, const struct plan *p,
			const struct ksyms *t, const struct check_opts *o)
{
	struct sym_ctx c = { r, p, t, o, 0 };
	size_t i;

	for (i = 1; i < t->n && !c.core; i++)
		c.core = t->sym[i].mod < 0 && (t->sym[i].flags & KSYM_TEXT);

	for (i = 0; i < p->ninst; i++) {
		check_list(&c, &p->inst[i].filters, NK_FILTER);
		check_list(&c, &p->inst[i].notraces, NK_NOTRACE);
	}
	check_list(&c, &p->graph_filters, NK_GFILTER);
	check_list(&c, &p->graph_notraces, NK_GNOTRACE);
	for (i = 0; i < p->nkprobes; i++)
		check_list(&c, &p->kprobes[i].probes, NK_KPROBE);
	check_list(&c, &p->arm, NK_ARM);
}
