// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The boot parameters a kernel image accepts (kimg.h, docs/kernel-image.md):
 * its table of __setup() and early_param() entries, struct obs_kernel_param
 * { const char *str; int (*setup_func)(char *); int early; }, one after the
 * other between __setup_start and __setup_end (docs/kernel-facts.md 107).
 * No symbol names the table without CONFIG_KALLSYMS_ALL, so it is found by
 * its shape: a run of entries whose str points at a parameter name inside
 * the image and whose setup_func is the address of a function kallsyms
 * lists. Pointers are the link-time addresses, mapped to bytes of the image
 * through an ELF's program headers, or from _text at byte 0 of a raw image,
 * taken from an arm64 Image's relocations (kimg_addr.c).
 */
#include <stdlib.h>
#include <string.h>

#include "kimage/kimg.h"
#include "kimage/sysmap.h"
#include "util/grow.h"

#define PARAM_MIN_RUN 32	/* fewer entries in a row: not the table */
#define PARAM_NAME_MAX 64

struct fnset {
	uint64_t *a;
	size_t n, cap;
	uint64_t text;		/* byte 0 of a raw image: _text (or a guess) */
	int have_text;
	int wide;		/* an address above 4 GiB: 64-bit pointers */
};

static int fn_visit(void *ctx, const struct kimage_sysmap_line *l)
{
	struct fnset *s = ctx;

	if (l->bad)
		return 0;
	/* _text, else _stext (MIPS lists no _text without KALLSYMS_ALL) */
	if ((l->namelen == 5 && !memcmp(l->name, "_text", 5)) ||
	    (!s->have_text && l->namelen == 6 && !memcmp(l->name, "_stext", 6))) {
		s->text = l->addr;
		s->have_text = 1;
	}
	s->wide |= l->addr > 0xffffffffULL;
	if (l->type != 't' && l->type != 'T')
		return 0;
	if (BT_GROW(s->a, s->n + 1, s->cap))
		return -1;
	s->a[s->n++] = l->addr;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int fn_has(const struct fnset *s, uint64_t a)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->a[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->a[lo] == a;
}

struct shape {
	int ptr, size, big;	/* pointer bytes, entry bytes, byte order */
};

/* Is the entry at byte @at of @k one of the table? Its name's byte in *@name. */
static int entry_ok(const struct kimg *k, const struct kimg_addr *m,
		    const struct fnset *f, const struct shape *sh, size_t at,
		    long long *name)
{
	const unsigned char *p = k->data + at;
	uint64_t early = kimg_rd(p + 2 * sh->ptr, 4, sh->big);

	if (early > 1 || (sh->ptr == 8 && kimg_rd(p + 20, 4, sh->big)))
		return 0;
	if (!fn_has(f, kimg_addr_ptr_at(m, k, at + (size_t)sh->ptr)))
		return 0;
	*name = kimg_addr_byte(m, k, kimg_addr_ptr_at(m, k, at));
	return kimg_str_at(k, *name, PARAM_NAME_MAX) > 0;
}

/* The longest run of entries of shape @sh: its start and count. */
static size_t longest_run(const struct kimg *k, const struct kimg_addr *m,
			  const struct fnset *f, const struct shape *sh,
			  size_t *start)
{
	size_t at, best = 0, run = 0, from = 0;
	long long name;

	for (at = 0; at + (size_t)sh->size <= k->len; at += (size_t)sh->ptr) {
		if (entry_ok(k, m, f, sh, at, &name)) {
			size_t n = 1, next = at + (size_t)sh->size;

			while (next + (size_t)sh->size <= k->len &&
			       entry_ok(k, m, f, sh, next, &name)) {
				n++;
				next += (size_t)sh->size;
			}
			run = n;
			from = at;
			if (run > best) {
				best = run;
				*start = from;
			}
			at = next - (size_t)sh->ptr;	/* past this run */
		}
	}
	return best;
}

/* Read entries of shape @sh; a raw image from @base. */
static void params_shape(struct kimg_addr *m, const struct shape *sh,
			 uint64_t base)
{
	if (m->n)
		return;		/* an ELF kernel: its own map and words */
	m->ptr = sh->ptr;
	m->big = sh->big;
	m->base = base;
}

/* The names of the @n entries of shape @sh from byte @start into @out. */
static int params_names(const struct kimg *k, const struct kimg_addr *m,
			const struct fnset *f, const struct shape *sh,
			size_t start, size_t n, struct kimg_params *out)
{
	size_t i;

	out->name = calloc(n, sizeof(*out->name));
	if (!out->name)
		return -1;
	for (i = 0; i < n; i++) {
		size_t at = start + i * (size_t)sh->size;
		long long name;

		entry_ok(k, m, f, sh, at, &name);
		out->name[out->n] = strndup((const char *)k->data + name, kimg_str_at(k, name, PARAM_NAME_MAX));
		if (!out->name[out->n])
			return -1;
		out->n++;
		out->early += kimg_rd(k->data + at + 2 * (size_t)sh->ptr, 4, sh->big) != 0;
	}
	out->at = start;
	return 0;
}

int kimg_params(const struct kimg *k, const char *symtext, size_t symlen,
		const char *path, struct kimg_params *out, struct bt_error *e)
{
	struct fnset f = { 0 };
	struct kimg_addr m;
	struct shape sh[4] = { { 8, 24, 0 }, { 8, 24, 1 }, { 4, 12, 0 }, { 4, 12, 1 } };
	uint64_t base = 0;
	size_t best = 0, start = 0;
	int s, g, which = -1;

	memset(out, 0, sizeof(*out));
	if (kimage_sysmap_each(symtext, symlen, fn_visit, &f) ||
	    kimg_addr_init(&m, k, f.text, f.wide ? 8 : 4, 0)) {
		free(f.a);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	if (f.n)
		qsort(f.a, f.n, sizeof(*f.a), cmp_u64);
	if (!m.n && !f.have_text) {
		free(f.a);
		kimg_addr_free(&m);
		return bt_error_set(e, BT_EXIT_INPUT, path, "no _text or _stext symbol and no ELF program headers: the image's addresses cannot be mapped to its bytes, so its boot parameters are not known");
	}
	/* a raw image: each guess of its base is proved by the table it finds */
	for (g = 0; g < (m.n ? 1 : KIMG_ADDR_GUESSES); g++) {
		for (s = 0; s < 4; s++) {
			size_t at = 0, n;

			if (m.n ? (sh[s].ptr == 8) != (k->elf_class == 64) ||
				  sh[s].big != k->elf_big :
				  (sh[s].ptr == 8) != f.wide)
				continue;
			params_shape(&m, &sh[s], kimg_addr_guess(f.text, g));
			n = longest_run(k, &m, &f, &sh[s], &at);
			if (n > best) {
				best = n;
				start = at;
				which = s;
				base = kimg_addr_guess(f.text, g);
			}
		}
	}
	if (best < PARAM_MIN_RUN) {
		free(f.a);
		kimg_addr_free(&m);
		return bt_error_set(e, BT_EXIT_INPUT, path, "no table of boot parameters found (the longest run of __setup-shaped entries is %zu, fewer than %d): this image's parameters are not known; leave --kernel out to use the version table (-k)",
				    best, PARAM_MIN_RUN);
	}
	params_shape(&m, &sh[which], base);
	out->relocated = m.nrel;
	s = params_names(k, &m, &f, &sh[which], start, best, out);
	free(f.a);
	kimg_addr_free(&m);
	if (s) {
		kimg_params_free(out);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	return 0;
}

void kimg_params_free(struct kimg_params *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->name[i]);
	free(p->name);
	memset(p, 0, sizeof(*p));
}
