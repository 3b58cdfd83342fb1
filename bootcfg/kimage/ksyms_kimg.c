/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel image (--kernel, kimg.h) into the symbol table: an ELF vmlinux
 * with a symbol table through ksyms_elf.c (it also tells traceability);
 * any other image, or a vmlinux stripped of its symbols, through the
 * kallsyms tables compiled into it, read as System.map text
 * (ksyms_sysmap.c). With CONFIG_KALLSYMS_ALL the image's own array of
 * call sites then tells which functions are traceable (kimg_mcount.c),
 * and its array of trace events which events exist (kimg_events.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kimage.h"
#include "kimage/kimg.h"

static int kimg_oom(const char *path, struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
}

/* Append to @how (what -v says was read). */
static void kimg_how(char *how, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void kimg_how(char *how, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(how);
	va_list ap;

	va_start(ap, fmt);
	if (n < cap)
		vsnprintf(how + n, cap - n, fmt, ap);
	va_end(ap);
}

/* A table of the image that does not read is said; -1 only for no memory. */
static int kimg_unread(int r, const char *path, struct bt_error *why)
{
	if (r >= 0)
		return 0;
	if (why->code == BT_EXIT_ENV)
		return -1;
	bt_say(path, BT_SAY_WARN, "%s", why->msg);
	bt_error_clear(why);
	return 0;
}

/* What the image's arrays say, read before its symbol text is split. */
struct kimg_read {
	uint64_t *sites;
	size_t nsites;
	int have_sites;		/* kimg_mcount's 1 (the symbols) or 2 (the shape) */
};

/*
 * The events of @k through @m into @t; a table that does not read is said
 * and left unknown (the symbols still count). -1 only for no memory.
 */
static int kimg_events_read(struct ksyms *t, const struct kimg *k,
			    const struct kimg_addr *m, const char *text,
			    size_t len, const char *path)
{
	struct bt_error why = { 0 };
	int got = kimg_events(k, m, text, len, path, &t->events, &why);

	t->events_known = got > 0;
	return kimg_unread(got, path, &why);
}

/* The functions that hold a call site are traceable. -1: no memory. */
static int kimg_mark(struct ksyms *t, size_t from, struct kimg_read *r,
		     char *how, size_t howcap)
{
	if (r->have_sites) {
		if (ksyms_size_functions(t, from))
			return -1;
		ksyms_mark_sites(t, from, t->n, r->sites, r->nsites, 0);
		t->core_trace = KT_KNOWN;
		kimg_how(how, howcap, "; traceable functions from its %zu call sites (%s)", r->nsites,
			 r->have_sites == 1 ? "__start_mcount_loc" : "no __start_mcount_loc symbol: the array found by its shape, the longest run of text addresses");
	}
	if (t->events_known)
		kimg_how(how, howcap, "; %zu trace events in %zu systems from the %zu entries of its event array (%s%s)",
			 t->events.n, t->events.nsystems, t->events.entries,
			 t->events.by_shape ? "no __start_ftrace_events symbol: the array found by its shape" : "__start_ftrace_events",
			 t->events.syscall_table == 1 ? "" : t->events.syscall_table == 2 ?
			 "; syscall events matched with sys_call_table, which kallsyms does not list: found by its shape, the longest run of pointers to native syscall wrappers" :
			 "; syscall events not matched with sys_call_table, which kallsyms does not list and no run of pointers to syscall wrappers shows");
	return 0;
}

/*
 * The map of @k and its call sites into @r, in one pass over the guesses:
 * a raw image's base is each kimg_addr_guess of its first text symbol,
 * and the one under which the most sites read is kept (pointers held in
 * relocations read only at the right one); an ELF kernel maps itself. A
 * table that does not read is said and left unknown. -1 only for no memory.
 */
static int kimg_map_sites(struct kimg_addr *m, struct kimg_read *r,
			  const struct kimg *k, const char *text, size_t len,
			  const char *path)
{
	static const char *const names[] = { "_text", "_stext" };
	uint64_t a[2] = { 0 }, *sites, t0, pick;
	unsigned have = kimg_syms(text, len, names, a, 2);
	struct bt_error why = { 0 }, first = { 0 };
	size_t n;
	int g, got;

	t0 = have & 1 ? a[0] : a[1];
	pick = t0;
	if (kimg_addr_init(m, k, t0, t0 > 0xffffffffULL ? 8 : 4, 0))
		return -1;
	for (g = 0; g < (m->n ? 1 : KIMG_ADDR_GUESSES); g++) {
		m->base = kimg_addr_guess(t0, g);
		got = kimg_mcount(k, m, text, len, path, &sites, &n, &why);
		if (got < 0 && why.code == BT_EXIT_ENV)
			return -1;
		if (got < 0 && !g)
			first = why;	/* said when no guess reads */
		bt_error_clear(&why);
		if (got <= 0)
			continue;
		if (n <= r->nsites) {
			free(sites);
			continue;
		}
		free(r->sites);
		r->sites = sites;
		r->nsites = n;
		r->have_sites = got;
		pick = m->base;
	}
	m->base = pick;
	if (!r->have_sites)
		return kimg_unread(first.msg[0] ? -1 : 0, path, &first);
	return 0;
}

/* The image's kallsyms: what they locate, then the symbols. */
static int kimg_from_kallsyms(struct ksyms *t, const struct kimg *k,
			      const char *path, char *how, size_t howcap,
			      struct bt_error *e)
{
	struct kimg_read r = { 0 };
	struct kimg_addr m;
	char found[400];
	size_t len, nsyms, before = t->n ? t->n : 1;
	char *text;
	int ret;

	if (kimg_kallsyms(k, path, &text, &len, &nsyms, found, sizeof(found), e))
		return -1;
	snprintf(how, howcap, "%s; %s", k->how, found);
	if (ksyms_keep(t, text))
		return kimg_oom(path, e);
	/* the symbol walk ends names in place: the arrays are found first */
	if (kimg_map_sites(&m, &r, k, text, len, path) ||
	    kimg_events_read(t, k, &m, text, len, path)) {
		kimg_addr_free(&m);
		free(r.sites);
		return kimg_oom(path, e);
	}
	kimg_addr_free(&m);
	ret = ksyms_parse_sysmap(t, text, len, path, e);
	if (!ret && kimg_mark(t, before, &r, how, howcap))
		ret = kimg_oom(path, e);
	free(r.sites);
	return ret;
}

int ksyms_load_kimg(struct ksyms *t, struct kimg *k, const char *path,
		    char *how, size_t howcap, struct bt_error *e)
{
	size_t before = t->n;

	if (k->elf_class) {
		struct bt_error ign = { 0 };

		if (!ksyms_load_elf_mem(t, (char *)k->data, k->len, path, -1, &ign) &&
		    t->n > before + 1) {
			if (ksyms_keep(t, (char *)k->data)) {
				k->data = NULL;
				return kimg_oom(path, e);
			}
			k->data = NULL;	/* the table's now */
			snprintf(how, howcap, "%s; its ELF symbol table", k->how);
			return 0;
		}
		bt_error_clear(&ign);
	}
	return kimg_from_kallsyms(t, k, path, how, howcap, e);
}

int ksyms_load_kimage(struct ksyms *t, const char *path, char *how,
		      size_t howcap, struct bt_error *e)
{
	struct kimg k;
	int r;

	if (kimg_load(path, &k, e))
		return -1;
	r = ksyms_load_kimg(t, &k, path, how, howcap, e);
	kimg_free(&k);
	return r;
}
