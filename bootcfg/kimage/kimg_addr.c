// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Link addresses of an unpacked kernel (kimg.h): which byte of the image
 * holds the address, and which address a pointer stored there holds.
 * The one place that knows the three ways an image is laid out:
 *  - an ELF kernel (the unpacked amd64 bzImage): its PT_LOAD program
 *    headers map addresses to bytes, and pointers hold link addresses;
 *  - a raw image (the mips64el vmlinux.bin): byte 0 is at a base address
 *    the caller knows or proves (_text, or a guess a table confirms);
 *  - a relocatable arm64 Image: raw, and a pointer is 0 in the file with
 *    an R_AARCH64_RELATIVE entry holding its value (kernel-facts 106).
 *    The entries are Elf64_Rela (r_offset, r_info 1027, r_addend) of
 *    .rela.dyn; every one whose r_offset is a word of the image is taken.
 */
#include <stdlib.h>
#include <string.h>

#include "kimage/kimg.h"
#include "kimage/sysmap.h"
#include "util/grow.h"

#define RELA_RELATIVE 1027	/* R_AARCH64_RELATIVE */
#define RELA_MIN_RUN 64		/* fewer: not the kernel's table */

/* The PT_LOAD segments of an ELF kernel. */
static void addr_elf(const struct kimg *k, struct kimg_addr *m)
{
	const unsigned char *d = k->data;
	int w = k->elf_class == 64, big = k->elf_big;
	uint64_t phoff;
	unsigned phent, phnum, i;

	if (k->len < (w ? 64u : 52u))
		return;		/* shorter than its ELF header */
	phoff = kimg_rd(d + (w ? 32 : 28), w ? 8 : 4, big);
	phent = (unsigned)kimg_rd(d + (w ? 54 : 42), 2, big);
	phnum = (unsigned)kimg_rd(d + (w ? 56 : 44), 2, big);
	if (phent < (w ? 56u : 32u) || phoff >= k->len)
		return;		/* no program headers to read */
	for (i = 0; i < phnum && m->n < KIMG_ADDR_SEGS; i++) {
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

static int rela_cmp(const void *a, const void *b)
{
	const struct kimg_rela *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Is the 24 bytes at @p an R_AARCH64_RELATIVE entry for an aligned word?
 * (Not tied to the base, which the caller may still be proving.)
 */
static int rela_is(const unsigned char *p)
{
	uint64_t off = kimg_rd(p, 8, 0);

	return kimg_rd(p + 8, 8, 0) == RELA_RELATIVE && off && !(off & 7);
}

/*
 * Every R_AARCH64_RELATIVE entry of @k (8-byte aligned, as the linker
 * places .rela.dyn; padding and other data split it into runs: Debian's
 * 6.1 arm64 Image has about 130000 entries in several),
 * sorted by r_offset; none when there are fewer than RELA_MIN_RUN.
 * -1: no memory.
 */
static int addr_rela(const struct kimg *k, struct kimg_addr *m)
{
	size_t at, n = 0, cap = 0, first = 0;

	for (at = 0; at + 24 <= k->len; at += 8) {
		const unsigned char *p = k->data + at;

		if (!rela_is(p))
			continue;
		if (BT_GROW(m->rel, n + 1, cap)) {
			free(m->rel);
			m->rel = NULL;
			return -1;
		}
		if (!n)
			first = at;
		m->rel[n].off = kimg_rd(p, 8, 0);
		m->rel[n++].add = kimg_rd(p + 16, 8, 0);
		at += 16;	/* past this entry */
	}
	if (n < RELA_MIN_RUN) {
		free(m->rel);
		m->rel = NULL;
		return 0;
	}
	qsort(m->rel, n, sizeof(*m->rel), rela_cmp);
	m->nrel = n;
	m->relat = first;
	return 0;
}

int kimg_addr_init(struct kimg_addr *m, const struct kimg *k, uint64_t base,
		   int ptr, int big)
{
	memset(m, 0, sizeof(*m));
	m->base = base;
	m->ptr = ptr;
	m->big = big;
	if (k->elf_class) {
		addr_elf(k, m);
		m->ptr = k->elf_class / 8;
		m->big = k->elf_big;
		return 0;
	}
	/* arm64 is the relocatable raw image (64-bit little-endian) */
	if (ptr == 8 && !big)
		return addr_rela(k, m);
	return 0;
}

uint64_t kimg_addr_guess(uint64_t text, int g)
{
	static const uint64_t mask[KIMG_ADDR_GUESSES] = { 0, 0xfff, 0xffff, 0xfffff };

	return text & ~mask[g];
}

void kimg_addr_free(struct kimg_addr *m)
{
	free(m->rel);
	memset(m, 0, sizeof(*m));
}

long long kimg_addr_byte(const struct kimg_addr *m, const struct kimg *k,
			 uint64_t va)
{
	int i;

	if (!m->n)
		return va >= m->base && va - m->base < k->len ?
			(long long)(va - m->base) : -1;
	for (i = 0; i < m->n; i++)
		if (va >= m->va[i] && va - m->va[i] < m->len[i] &&
		    m->off[i] + (va - m->va[i]) < k->len)
			return (long long)(m->off[i] + (va - m->va[i]));
	return -1;
}

/* The relocation of the word at link address @va: its addend, or 0. */
static uint64_t addr_reloc(const struct kimg_addr *m, uint64_t va)
{
	const struct kimg_rela key = { va, 0 }, *r;

	r = bsearch(&key, m->rel, m->nrel, sizeof(*m->rel), rela_cmp);
	return r ? r->add : 0;
}

uint64_t kimg_addr_ptr_at(const struct kimg_addr *m, const struct kimg *k,
			  size_t at)
{
	uint64_t v;

	if (at > k->len || (size_t)m->ptr > k->len - at)
		return 0;
	v = kimg_rd(k->data + at, m->ptr, m->big);
	if (!v && m->nrel && !m->n)
		v = addr_reloc(m, m->base + at);
	return v;
}

int kimg_addr_array(const struct kimg_addr *m, const struct kimg *k,
		    uint64_t start, uint64_t stop, size_t max, size_t *at,
		    size_t *n)
{
	long long b = kimg_addr_byte(m, k, start);

	*n = stop >= start ? (size_t)(stop - start) / (size_t)m->ptr : 0;
	*at = b < 0 ? 0 : (size_t)b;
	if (stop < start || *n > max || b < 0 ||
	    *n * (size_t)m->ptr > k->len - *at)
		return -1;
	return 0;
}

size_t kimg_addr_run(const struct kimg_addr *m, const struct kimg *k,
		     int (*ok)(uint64_t v, void *ctx), void *ctx, size_t *at)
{
	size_t w = (size_t)m->ptr, pos, run = 0, from = 0, best = 0;

	for (pos = 0; pos + w <= k->len; pos += w) {
		if (!ok(kimg_addr_ptr_at(m, k, pos), ctx)) {
			run = 0;
			continue;
		}
		if (!run++)
			from = pos;
		if (run > best) {
			best = run;
			*at = from;
		}
	}
	return best;
}

int kimg_addr_ptr(const struct kimg_addr *m, const struct kimg *k,
		  uint64_t va, uint64_t *out)
{
	long long at = kimg_addr_byte(m, k, va);

	if (at < 0 || (size_t)m->ptr > k->len - (size_t)at)
		return -1;
	*out = kimg_addr_ptr_at(m, k, (size_t)at);
	return 0;
}

size_t kimg_str_at(const struct kimg *k, long long at, size_t max)
{
	size_t i;

	if (at < 0)
		return 0;
	for (i = 0; i < max && (size_t)at + i < k->len; i++) {
		unsigned char c = k->data[at + i];

		if (!c)
			return i;
		if (c <= ' ' || c > '~')
			return 0;
	}
	return 0;
}

size_t kimg_addr_string(const struct kimg_addr *m, const struct kimg *k,
			uint64_t va, size_t max)
{
	return kimg_str_at(k, kimg_addr_byte(m, k, va), max);
}

struct syms_find {
	const char *const *names;
	uint64_t *addr;
	int n;
	unsigned found;
};

static int syms_visit(void *ctx, const struct kimage_sysmap_line *l)
{
	struct syms_find *s = ctx;
	int i;

	if (l->bad || l->mod)
		return 0;
	for (i = 0; i < s->n; i++)
		if (!(s->found & 1u << i) && strlen(s->names[i]) == l->namelen &&
		    !memcmp(s->names[i], l->name, l->namelen)) {
			s->addr[i] = l->addr;
			s->found |= 1u << i;
		}
	return 0;
}

unsigned kimg_syms(const char *symtext, size_t len, const char *const *names,
		   uint64_t *addr, int n)
{
	struct syms_find s = { names, addr, n < 32 ? n : 32, 0 };

	kimage_sysmap_each(symtext, len, syms_visit, &s);
	return s.found;
}
