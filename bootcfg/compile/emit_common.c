/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every emitter shares: which words are ours, merging, the kernel's limit. */
#include <string.h>

#include "compile/emit.h"
#include "kernel/params.h"

/* Index in @add of a word with the same parameter as @word, or -1. */
static long emit_same_param(const struct words *add, const char *word)
{
	const char *s = word + (word[0] == '"');
	size_t n = words_param_len(word);
	char name[256];

	if (n >= sizeof(name))
		return -1;
	memcpy(name, s, n);
	name[n] = '\0';
	return words_find(add, name, 0);
}

int emit_check_kept(const struct words *base, const struct words *out,
		    struct bt_error *e)
{
	static const char *const vital[] = { "root", "console" };
	size_t i, k, m, dashes = words_dashes(base);

	for (i = 0; i < dashes; i++) {
		const char *w = base->v[i];
		size_t n = words_param_len(w);

		for (k = 0; k < sizeof(vital) / sizeof(vital[0]); k++) {
			if (n != strlen(vital[k]) ||
			    !words_parameq(w + (w[0] == '"'), vital[k], n))
				continue;
			for (m = 0; m < out->n && strcmp(out->v[m], w); m++)
				;
			if (m == out->n)
				return bt_error_set(e, BT_EXIT_INPUT, NULL, "the merged line lost '%s' of the base line: the board would not boot as before, so nothing was written; report this, and give the tracing settings that replace it under another name", w);
		}
	}
	return 0;
}

/* Words @from..@to of @add not yet used, appended to @out. */
static int emit_put_added(const struct words *add, const unsigned char *used,
			  size_t from, size_t to, struct words *out)
{
	size_t j;

	for (j = from; j < to; j++)
		if (!used[j] && words_add(out, add->v[j]))
			return -1;
	return 0;
}

int emit_merge(const struct words *base, const struct words *add,
	       struct words *out, int verbose, struct bt_error *e)
{
	unsigned char used[add->n ? add->n : 1];
	size_t i, dashes = words_dashes(base), adash = words_dashes(add);
	long j;

	memset(used, 0, sizeof(used));
	for (i = 0; i < base->n; i++) {
		const char *w = base->v[i];

		if (i < dashes && kparam_is_trace_word(w)) {
			j = emit_same_param(add, w);
			if (j >= 0 && (size_t)j < adash && !used[j]) {
				used[j] = 1;
				if (verbose && strcmp(w, add->v[j]))
					bt_say(NULL, BT_SAY_PLAIN, "replaced '%s' with '%s'",
					       w, add->v[j]);
				if (words_add(out, add->v[j]))
					goto oom;
			} else if (verbose) {
				bt_say(NULL, BT_SAY_PLAIN, "dropped '%s' (%s)", w,
				       j >= 0 ? "a repeat" : "not in this plan");
			}
			continue;
		}
		/* The new kernel words go before the base's "--". */
		if (i == dashes && emit_put_added(add, used, 0, adash, out))
			goto oom;
		if (words_add(out, w))
			goto oom;
	}
	/*
	 * The new init arguments go after the base's own (no second "--"),
	 * or with their "--" at the end when the base has none.
	 */
	if (dashes == base->n ? emit_put_added(add, used, 0, add->n, out) :
	    emit_put_added(add, used, adash + (adash < add->n), add->n, out))
		goto oom;
	return emit_check_kept(base, out, e);
oom:
	return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
}

int emit_check_kernel_len(const struct board *b, size_t len, const char *what,
			  struct bt_error *e)
{
	unsigned room = b->cmdline_max - b->cmdline_loader;

	if (len + 1 <= room)
		return 0;
	if (b->cmdline_loader)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "%s is %zu bytes, but the %s kernel of board %s gets at most %u of them (a line of %u bytes with the NUL%s%s, %u taken by the loader's own words) and cuts the rest silently: trace fewer functions or events, put the hook's settings in the initramfs (--hook-settings), or use the bootconfig target", what, len, b->arch, b->name, room - 1, b->cmdline_max, b->cmdline_from[0] ? ", from " : "", b->cmdline_from, b->cmdline_loader);
	if (b->cmdline_from[0])
		return bt_error_set(e, BT_EXIT_INPUT, NULL,
				    "%s is %zu bytes, but the kernel keeps at most %u (COMMAND_LINE_SIZE %u, from %s) and cuts the rest silently: trace fewer functions or events, or use the bootconfig target", what, len,
				    b->cmdline_max - 1, b->cmdline_max, b->cmdline_from);
	return bt_error_set(e, BT_EXIT_INPUT, NULL,
			    "%s is %zu bytes, but the %s kernel keeps at most %u (COMMAND_LINE_SIZE %u of board %s) and cuts the rest silently: trace fewer functions or events, or use the bootconfig target", what, len, b->arch,
			    b->cmdline_max - 1, b->cmdline_max, b->name);
}
