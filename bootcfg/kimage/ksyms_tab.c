/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The symbol table of the kernel and its modules (kimage.h): one array, a
 * name index whose key folds case and compiler suffixes (so that exact
 * names, clones like foo.isra.0 and case slips are found in one bucket),
 * and the mapping of mcount sites to the functions that hold them.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kimage.h"
#include "util/grow.h"

void ksyms_free(struct ksyms *t)
{
	size_t i;

	for (i = 0; i < t->nmods; i++)
		free(t->mods[i]);
	for (i = 0; i < t->nblobs; i++)
		free(t->blobs[i]);
	free(t->mods);
	free(t->blobs);
	free(t->sym);
	free(t->bucket);
	free(t->initcalls);
	kimg_events_free(&t->events);
	memset(t, 0, sizeof(*t));
}

int ksyms_keep(struct ksyms *t, char *blob)
{
	if (BT_GROW(t->blobs, t->nblobs + 1, t->capblobs) < 0) {
		free(blob);
		return -1;
	}
	t->blobs[t->nblobs++] = blob;
	return 0;
}

int ksyms_add(struct ksyms *t, const char *name, uint64_t addr,
	      uint64_t size, int mod, int sec, unsigned flags)
{
	struct ksym *s;

	if (!t->n)
		t->n = 1;	/* slot 0 ends bucket chains */
	if (BT_GROW(t->sym, t->n + 1, t->cap) < 0)
		return -1;
	s = &t->sym[t->n++];
	s->name = name;
	s->addr = addr;
	s->size = size;
	s->mod = mod;
	s->sec = sec;
	s->flags = flags;
	s->next = 0;
	if (!strncmp(name, "__initcall", 10)) {
		if (BT_GROW(t->initcalls, t->ninitcalls + 1, t->capinit) < 0)
			return -1;
		t->initcalls[t->ninitcalls++] = name;
	}
	return 0;
}

int ksyms_module(struct ksyms *t, const char *name)
{
	if (BT_GROW(t->mods, t->nmods + 1, t->capmods) < 0)
		return -1;
	t->mods[t->nmods] = strdup(name);
	if (!t->mods[t->nmods])
		return -1;
	return (int)t->nmods++;
}

uint32_t ksyms_hash(const char *name)
{
	uint32_t h = 2166136261u;

	for (; *name && *name != '.'; name++)
		h = (h ^ (unsigned char)tolower((unsigned char)*name)) * 16777619u;
	return h;
}

int ksyms_index(struct ksyms *t)
{
	size_t nb = 1024, i;
	uint32_t h;

	while (nb < t->n)
		nb *= 2;
	free(t->bucket);
	t->bucket = calloc(nb, sizeof(*t->bucket));
	if (!t->bucket)
		return -1;
	t->nbucket = nb;
	/* Backwards, so that each chain lists symbols in load order. */
	for (i = t->n; i-- > 1;) {
		h = ksyms_hash(t->sym[i].name) & (uint32_t)(nb - 1);
		t->sym[i].next = t->bucket[h];
		t->bucket[h] = (uint32_t)i;
	}
	return 0;
}

uint32_t ksyms_bucket(const struct ksyms *t, const char *name)
{
	if (!t->nbucket)
		return 0;
	return t->bucket[ksyms_hash(name) & (uint32_t)(t->nbucket - 1)];
}

static int ksyms_cmp_addr(const void *a, const void *b, void *arg)
{
	const struct ksym *s = arg;
	uint64_t x = s[*(const uint32_t *)a].addr, y = s[*(const uint32_t *)b].addr;

	return x < y ? -1 : x > y;
}

/*
 * Functions that share @j's start address (aliases such as init_module
 * and the module's init function) get the mark too.
 */
static void ksyms_mark_at(struct ksym *s, const uint32_t *fn,
			  size_t nfn, size_t j)
{
	uint64_t a = s[fn[j]].addr;
	size_t k;

	while (j > 0 && s[fn[j - 1]].addr == a)
		j--;
	for (k = j; k < nfn && s[fn[k]].addr == a; k++)
		s[fn[k]].flags |= KSYM_TRACE;
}

int ksyms_size_functions(struct ksyms *t, size_t from)
{
	struct ksym *s = t->sym;
	uint32_t *fn = malloc((t->n - from + 1) * sizeof(*fn));
	size_t nfn = 0, i, j, k;

	if (!fn)
		return -1;
	for (i = from; i < t->n; i++)
		if ((s[i].flags & KSYM_TEXT) && s[i].mod < 0)
			fn[nfn++] = (uint32_t)i;
	qsort_r(fn, nfn, sizeof(*fn), ksyms_cmp_addr, s);
	for (i = 0; i < nfn; i = j) {
		for (j = i + 1; j < nfn && s[fn[j]].addr == s[fn[i]].addr; j++)
			;
		for (k = i; k < j; k++)
			s[fn[k]].size = j < nfn ? s[fn[j]].addr - s[fn[i]].addr : 0;
	}
	free(fn);
	return 0;
}

/*
 * A site is inside its function (fentry at +0 or after endbr64, mcount
 * after the prologue), or a few bytes before it when the compiler put
 * patchable NOPs ahead of the entry (-fpatchable-function-entry=N,M).
 */
void ksyms_mark_sites(struct ksyms *t, size_t from, size_t to,
		      uint64_t *sites, size_t nsites, int sec)
{
	struct ksym *s = t->sym;
	uint32_t *fn;
	size_t nfn = 0, i, j = 0;

	fn = malloc((to - from + 1) * sizeof(*fn));
	if (!fn)
		return;
	for (i = from; i < to; i++)
		if ((s[i].flags & (KSYM_TEXT | KSYM_LABEL)) == KSYM_TEXT &&
		    s[i].sec == sec)
			fn[nfn++] = (uint32_t)i;
	qsort_r(fn, nfn, sizeof(*fn), ksyms_cmp_addr, s);
	for (i = 0; i < nsites && nfn; i++) {
		uint64_t a = sites[i];

		while (j + 1 < nfn && s[fn[j + 1]].addr <= a)
			j++;
		if (s[fn[j]].addr <= a && a < s[fn[j]].addr + s[fn[j]].size)
			ksyms_mark_at(s, fn, nfn, j);
		else if (s[fn[j]].addr > a && s[fn[j]].addr - a <= 16)
			ksyms_mark_at(s, fn, nfn, j);
		else if (j + 1 < nfn && s[fn[j + 1]].addr - a <= 16)
			ksyms_mark_at(s, fn, nfn, j + 1);
	}
	free(fn);
}
