/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --who-calls without --callers, in parent-chain mode: the callers come
 * from `check`'s caller analysis (module relocations, call instructions in
 * vmlinux), level by level up the call graph, as many levels as fit in
 * the board's command line.
 */
#include <stdlib.h>
#include <string.h>

#include "kimage/kcallers.h"
#include "util/textbuf.h"
#include "compile/whocalls.h"

/* Is @name (a bare function name) in the comma list @list? */
static int wc_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *s = list;

	while ((s = strstr(s, name))) {
		if ((s == list || s[-1] == ',') &&
		    (s[n] == ',' || s[n] == '\0' || s[n] == ':'))
			return 1;
		s += n;
	}
	return 0;
}

/* One level: the callers of every function in @frontier not seen yet. */
static void wc_level(const struct kcallers_graph *g, const char *frontier,
		     const char *seen, struct textbuf *next,
		     struct textbuf *words)
{
	char caller[256];
	size_t i, n;

	for (i = 0; i < g->n; i++) {
		const struct kcallers_edge *ed = &g->e[i];
		const char *cold = strstr(ed->caller, ".cold");

		/* A .cold part is the same function's code moved away. */
		n = cold ? (size_t)(cold - ed->caller) : strlen(ed->caller);
		if (n >= sizeof(caller))
			continue;
		memcpy(caller, ed->caller, n);
		caller[n] = '\0';
		if (!wc_listed(frontier, ed->callee) || wc_listed(seen, caller) ||
		    (next->len && wc_listed(next->s, caller)))
			continue;
		textbuf_printf(next, "%s%s", next->len ? "," : "", caller);
		if (ed->mod >= 0)
			textbuf_printf(words, "%s%s:mod:%s", words->len ? "," : "",
				       caller, g->t->mods[ed->mod]);
		else
			textbuf_printf(words, "%s%s", words->len ? "," : "", caller);
	}
}

char *whocalls_find_callers(const char *funcs, const char *vmlinux,
			    const char *modules, size_t budget, int depth,
			    struct bt_progress *prog, struct bt_error *e)
{
	struct ksyms t = { .progress = prog };
	struct kcallers_graph g = { .t = &t };
	struct textbuf seen = { 0 }, frontier = { 0 }, out = { 0 };
	int level;

	if ((vmlinux && ksyms_load_elf(&t, vmlinux, -1, e)) ||
	    (modules && ksyms_load_modules(&t, modules, e)))
		goto fail;
	if (ksyms_index(&t)) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto fail;
	}
	if ((vmlinux && kcallers_vmlinux(&g, vmlinux, e)) ||
	    (modules && kcallers_modules(&g, modules, e)))
		goto fail;
	bt_progress_end(prog);	/* what follows is said on a clean line */
	textbuf_puts(&seen, funcs);
	textbuf_puts(&frontier, funcs);
	for (level = 1; level <= depth; level++) {
		struct textbuf next = { 0 }, words = { 0 };

		wc_level(&g, frontier.s, seen.s, &next, &words);
		/* A level that does not fit whole is left out: half a level
		 * would leave chains broken in places nobody can see. */
		if (!next.len || out.len + words.len + 1 > budget) {
			if (next.len)
				bt_say(NULL, BT_SAY_PLAIN, "--who-calls: callers at level %d (%zu bytes) do not fit the board's command line; traced up to level %d",
				       level, words.len, level - 1);
			textbuf_free(&next);
			textbuf_free(&words);
			break;
		}
		textbuf_printf(&out, "%s%s", out.len ? "," : "", words.s);
		textbuf_printf(&seen, ",%s", next.s);
		textbuf_free(&frontier);
		frontier = next;
		textbuf_free(&words);
	}
	if (seen.failed || frontier.failed || out.failed) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto fail;
	}
	if (!out.len) {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "--who-calls: no direct caller of %s found in %s%s%s (called only through pointers?): give --callers", funcs, vmlinux ? "vmlinux" : "",
			     vmlinux && modules ? " and " : "", modules ? "the modules" : "");
		goto fail;
	}
	textbuf_free(&seen);
	textbuf_free(&frontier);
	kcallers_graph_free(&g);
	ksyms_free(&t);
	return out.s;
fail:
	textbuf_free(&seen);
	textbuf_free(&frontier);
	textbuf_free(&out);
	kcallers_graph_free(&g);
	ksyms_free(&t);
	return NULL;
}
