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
 * through an ELF's program headers, or from _text at byte 0 of a raw image.
 */
#include <stdlib.h>
#include <string.h>

#include "kimage/kimg.h"
#include "kimage/sysmap.h"
#include "util/grow.h"

#define PARAM_MIN_RUN 32	/* fewer entries in a row: not the table */
#define PARAM_NAME_MAX 64

struct pmap {			/* link address -> byte of the image */
	uint64_t va[16], off[16], len[16];
	int n;
};

struct fnset {
	uint64_t *a;
	size_t n, cap;
	uint64_t text;		/* byte 0 of a raw image: _text (or a guess) */
	int have_text;
	int wide;		/* an address above 4 GiB: 64-bit pointers */
};

/* The PT_LOAD segments of an ELF image. */
static void pmap_elf(const struct kimg *k, struct pmap *m)
{
	const unsigned char *d = k->data;
	int w = k->elf_class == 64, big = k->elf_big;
	uint64_t phoff = kimg_rd(d + (w ? 32 : 28), w ? 8 : 4, big);
	unsigned phent = (unsigned)kimg_rd(d + (w ? 54 : 42), 2, big);
	unsigned phnum = (unsigned)kimg_rd(d + (w ? 56 : 44), 2, big), i;

	if (phent < (w ? 56u : 32u) || phoff >= k->len)
		return;		/* no program headers to read */
	for (i = 0; i < phnum && m->n < 16; i++) {
		const unsigned char *p = d + phoff + (uint64_t)i * phent;

		if ((uint64_t)(i + 1) * phent > k->len - phoff)
			break;
		if (kimg_rd(p, 4, big) != 1)	/* PT_LOAD */
			continue;
		m->off[m->n] = kimg_rd(p + (w ? 8 : 4), w ? 8 : 4, big);
		m->va[m->n] = kimg_rd(p + (w ? 16 : 8), w ? 8 : 4, big);
		m->len[m->n] = kimg_rd(p + (w ? 32 : 16), w ? 8 : 4, big);
		if (m->off[m->n] < k->len)
			m->n++;
	}
}

/* Byte of the image at link address @va, or -1. */
static long long pmap_at(const struct pmap *m, const struct kimg *k, uint64_t va)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (va >= m->va[i] && va - m->va[i] < m->len[i] &&
		    m->off[i] + (va - m->va[i]) < k->len)
			return (long long)(m->off[i] + (va - m->va[i]));
	return -1;
}

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

/* A parameter name at byte @off: printable, NUL-terminated; its length or 0. */
static size_t name_at(const struct kimg *k, long long off)
{
	size_t i;

	if (off < 0)
		return 0;
	for (i = 0; i < PARAM_NAME_MAX && (size_t)off + i < k->len; i++) {
		unsigned char c = k->data[off + i];

		if (!c)
			return i;
		if (c <= ' ' || c > '~')
			return 0;
	}
	return 0;
}

struct shape {
	int ptr, size, big;	/* pointer bytes, entry bytes, byte order */
};

/* Is the entry at byte @at of @k one of the table? Its name's byte in *@name. */
static int entry_ok(const struct kimg *k, const struct pmap *m,
		    const struct fnset *f, const struct shape *sh, size_t at,
		    long long *name)
{
	const unsigned char *p = k->data + at;
	uint64_t early = kimg_rd(p + 2 * sh->ptr, 4, sh->big);

	if (early > 1 || (sh->ptr == 8 && kimg_rd(p + 20, 4, sh->big)))
		return 0;
	if (!fn_has(f, kimg_rd(p + sh->ptr, sh->ptr, sh->big)))
		return 0;
	*name = m->n ? pmap_at(m, k, kimg_rd(p, sh->ptr, sh->big)) :
		       (long long)(kimg_rd(p, sh->ptr, sh->big) - f->text);
	if (!m->n && (kimg_rd(p, sh->ptr, sh->big) < f->text ||
		      (uint64_t)*name >= k->len))
		return 0;
	return name_at(k, *name) > 0;
}

/* The longest run of entries of shape @sh: its start and count. */
static size_t longest_run(const struct kimg *k, const struct pmap *m,
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

int kimg_params(const struct kimg *k, const char *symtext, size_t symlen,
		const char *path, struct kimg_params *out, struct bt_error *e)
{
	struct fnset f = { 0 };
	struct pmap m = { { 0 }, { 0 }, { 0 }, 0 };
	struct shape sh[4] = { { 8, 24, 0 }, { 8, 24, 1 }, { 4, 12, 0 }, { 4, 12, 1 } };
	static const uint64_t mask[4] = { 0, 0xfff, 0xffff, 0xfffff };
	uint64_t text0, base = 0;
	size_t best = 0, start = 0, i;
	int s, g, which = -1;

	memset(out, 0, sizeof(*out));
	if (kimage_sysmap_each(symtext, symlen, fn_visit, &f)) {
		free(f.a);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	qsort(f.a, f.n, sizeof(*f.a), cmp_u64);
	if (k->elf_class)	/* an ELF kernel: its program headers map it */
		pmap_elf(k, &m);
	if (!m.n && !f.have_text) {
		free(f.a);
		return bt_error_set(e, BT_EXIT_INPUT, path, "no _text or _stext symbol and no ELF program headers: the image's addresses cannot be mapped to its bytes, so its boot parameters are not known");
	}
	/*
	 * A raw image starts at the load address, at or a little below the
	 * first text symbol (MIPS: _stext 0x400 above it): each guess is
	 * proved or not by the table it finds.
	 */
	text0 = f.text;
	for (g = 0; g < (m.n ? 1 : 4); g++) {
		f.text = text0 & ~mask[g];
		for (s = 0; s < 4; s++) {
			size_t at = 0, n;

			if (m.n ? (sh[s].ptr == 8) != (k->elf_class == 64) ||
				  sh[s].big != k->elf_big :
				  (sh[s].ptr == 8) != f.wide)
				continue;
			n = longest_run(k, &m, &f, &sh[s], &at);
			if (n > best) {
				best = n;
				start = at;
				which = s;
				base = f.text;
			}
		}
	}
	f.text = base;
	if (best < PARAM_MIN_RUN) {
		free(f.a);
		return bt_error_set(e, BT_EXIT_INPUT, path, "no table of boot parameters found (the longest run of __setup-shaped entries is %zu, fewer than %d): this image's parameters are not known; leave --kernel out to use the version table (-k)",
				    best, PARAM_MIN_RUN);
	}
	out->name = calloc(best, sizeof(*out->name));
	if (!out->name) {
		free(f.a);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	for (i = 0; i < best; i++) {
		long long name;
		size_t len;

		entry_ok(k, &m, &f, &sh[which], start + i * (size_t)sh[which].size, &name);
		len = name_at(k, name);
		out->name[i] = strndup((const char *)k->data + name, len);
		if (!out->name[i]) {
			out->n = i;
			kimg_params_free(out);
			free(f.a);
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		}
		out->early += kimg_rd(k->data + start + i * (size_t)sh[which].size +
				 2 * (size_t)sh[which].ptr, 4, sh[which].big) != 0;
	}
	out->n = best;
	out->at = start;
	free(f.a);
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
