// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The functions of an image the function tracer can trace (kimg.h,
 * docs/kernel-image.md): each has a call site (mcount, fentry or the
 * patchable NOPs of -fpatchable-function-entry) whose address the build
 * records in one array between __start_mcount_loc and __stop_mcount_loc
 * (linux-source-6.1 include/asm-generic/vmlinux.lds.h MCOUNT_REC,
 * kernel-facts 113). ftrace_init() reads that array at boot; a function
 * without a site is notrace and ftrace_filter= never matches it. Both
 * symbols are in kallsyms only with CONFIG_KALLSYMS_ALL; without them the
 * array is found by its shape: the longest run of words that are all
 * addresses in the kernel's text (kernel-facts 113).
 */
#include <stdlib.h>
#include <string.h>

#include "kimage/kimg.h"

/* More sites than this is no kernel's table (Debian's 6.1 amd64: about 50000). */
#define MCOUNT_MAX ((size_t)1 << 22)

static int mcount_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Is @a in the kernel's text, .text or .init.text (@r: their bounds)? */
static int mcount_in_text(const uint64_t *r, unsigned have, uint64_t a)
{
	if ((have & 0x3c) != 0x3c)
		return 1;	/* bounds not all known: not checked */
	return (a >= r[2] && a < r[3]) || (a >= r[4] && a < r[5]);
}

/* Fewer text addresses in a row than this are no kernel's call sites (Debian's have 30000+). */
#define MCOUNT_SHAPE_MIN 1000

/* The text's bounds, for kimg_addr_run: r[2..5] of kimg_mcount, and have. */
struct mcount_text {
	const uint64_t *r;
	unsigned have;
};

/*
 * A word of the array by its shape: a nonzero text address (in place, or
 * relocated). Other tables of text pointers (an exception table, the
 * syscall table) make shorter runs.
 */
static int mcount_site(uint64_t v, void *ctx)
{
	const struct mcount_text *t = ctx;

	return v && mcount_in_text(t->r, t->have, v);
}

int kimg_mcount(const struct kimg *k, const struct kimg_addr *m,
		const char *symtext, size_t symlen, const char *path,
		uint64_t **sites, size_t *n, struct bt_error *e)
{
	static const char *const names[] = { "__start_mcount_loc", "__stop_mcount_loc",
		"_stext", "_etext", "_sinittext", "_einittext" };
	uint64_t r[6] = { 0 };
	unsigned have = kimg_syms(symtext, symlen, names, r, 6);
	size_t cnt, i, outside = 0, at;

	*sites = NULL;
	*n = 0;
	if ((have & 3) != 3) {
		/* no symbols: by its shape, within the text's known bounds */
		if ((have & 0x3c) != 0x3c)
			return 0;
		struct mcount_text tx = { r, have };

		cnt = kimg_addr_run(m, k, mcount_site, &tx, &at);
		if (cnt < MCOUNT_SHAPE_MIN)
			return 0;
	} else if (kimg_addr_array(m, k, r[0], r[1], MCOUNT_MAX, &at, &cnt))
		return bt_error_set(e, BT_EXIT_INPUT, path, "__start_mcount_loc %#llx .. __stop_mcount_loc %#llx is not an array inside the image (%s): its traceable functions are not known",
				    (unsigned long long)r[0], (unsigned long long)r[1], k->how);
	*sites = malloc((cnt ? cnt : 1) * sizeof(**sites));
	if (!*sites)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	for (i = 0; i < cnt; i++) {
		(*sites)[i] = kimg_addr_ptr_at(m, k, at + i * (size_t)m->ptr);
		outside += !mcount_in_text(r, have, (*sites)[i]);
	}
	/* a few sites may be in code kallsyms does not bound; most may not */
	if (outside > cnt / 100) {
		free(*sites);
		*sites = NULL;
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: %zu of the %zu words between __start_mcount_loc and __stop_mcount_loc are outside the kernel's text: not a table of call sites, its traceable functions are not known",
				    at, outside, cnt);
	}
	qsort(*sites, cnt, sizeof(**sites), mcount_cmp);
	*n = cnt;
	return (have & 3) == 3 ? 1 : 2;
}
