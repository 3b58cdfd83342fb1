// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The trace events built into an image (kimg.h, docs/kernel-image.md):
 * each TRACE_EVENT, DEFINE_EVENT, syscall event and ftrace's own entry
 * types puts a pointer to its struct trace_event_call into one array
 * between __start_ftrace_events and __stop_ftrace_events
 * (include/asm-generic/vmlinux.lds.h FTRACE_EVENTS); event_trace_enable()
 * walks that array at boot, and boot-time tracing (trace_event=,
 * ftrace.event.*) can enable only what is in it (kernel-facts 114).
 *
 *   struct trace_event_call { struct list_head list;
 *     struct trace_event_class *class;
 *     union { const char *name; struct tracepoint *tp; }; ... };
 *   struct trace_event_class { const char *system; ... };
 *   struct tracepoint { const char *name; ... };
 *
 * The name is the tracepoint's (TRACE_EVENT_FL_TRACEPOINT) or the call's
 * own string; a string and a struct are told apart by their bytes: a
 * pointer's bytes are no printable name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kimg.h"
#include "kimage/sysmap.h"
#include "util/grow.h"

#define EVENTS_MAX 100000	/* Debian's 6.1 amd64: about 2000 */
#define EVENT_NAME_MAX 128

/*
 * The name at the pointer @p: a struct tracepoint whose first word points
 * at a name, else the string itself. The struct is tried first: a name's
 * first bytes are no address inside the image, while a pointer's low
 * bytes may read as a short string ("`" for 0x...0060).
 */
static size_t events_name(const struct kimg *k, const struct kimg_addr *m,
			  uint64_t p, uint64_t *at)
{
	size_t len;

	if (!kimg_addr_ptr(m, k, p, at) &&
	    (len = kimg_addr_string(m, k, *at, EVENT_NAME_MAX)))
		return len;
	*at = p;
	return kimg_addr_string(m, k, p, EVENT_NAME_MAX);
}

/* "system:event" of the call at link address @call into @out; 0 if it does not read. */
static int events_one(const struct kimg *k, const struct kimg_addr *m,
		      uint64_t call, char *out, size_t cap)
{
	uint64_t cls, sys, name, sat, nat;
	size_t sl, nl;
	int w = m->ptr;

	if (kimg_addr_ptr(m, k, call + 2 * (uint64_t)w, &cls) ||
	    kimg_addr_ptr(m, k, call + 3 * (uint64_t)w, &name) ||
	    kimg_addr_ptr(m, k, cls, &sys))
		return 0;
	sl = kimg_addr_string(m, k, sys, EVENT_NAME_MAX);
	sat = sys;
	nl = events_name(k, m, name, &nat);
	if (!sl || !nl)
		return 0;
	snprintf(out, cap, "%.*s:%.*s", (int)sl,
		 (const char *)k->data + kimg_addr_byte(m, k, sat), (int)nl,
		 (const char *)k->data + kimg_addr_byte(m, k, nat));
	return 1;
}

/* ---- syscall events: only those of the system-call table ---------------- */

struct sc_fn {
	uint64_t addr;
	const char *name;
	size_t len;
	size_t order;		/* its place in kallsyms' own order */
};

/*
 * The tables arch_syscall_addr() reads (kernel-facts 114): sys_call_table,
 * and on MIPS with 32-bit compat also the n32 and o32 ones.
 */
static const char *const sc_tables[] = { "sys_call_table", "sysn32_call_table", "sys32_call_table" };
#define SC_NTABLES (sizeof(sc_tables) / sizeof(*sc_tables))

struct sc_set {
	struct sc_fn *fn;	/* the functions of the symbol text, by address */
	size_t nfn, capfn;
	uint64_t table[SC_NTABLES], end;	/* the tables; the end of the one read */
	unsigned tables;	/* a bit per table found by its symbol */
	int shape;		/* none: sys_call_table found by its shape */
	uint64_t cur;		/* the table sc_end bounds */
	char **tail;		/* "_openat" of each syscall in the table, sorted */
	size_t ntail;
};

/* The functions of the symbol text, for sc_fn_at. */
static int sc_visit(void *ctx, const struct kimage_sysmap_line *l)
{
	struct sc_set *s = ctx;

	if (l->bad || l->mod || !strchr("tTwW", l->type))
		return 0;
	if (BT_GROW(s->fn, s->nfn + 1, s->capfn))
		return -1;
	s->fn[s->nfn] = (struct sc_fn){ l->addr, l->name, l->namelen, s->nfn };
	s->nfn++;
	return 0;
}

static int sc_fn_cmp(const void *a, const void *b)
{
	const struct sc_fn *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The next symbol after the table at s->cur bounds it, in s->end. */
static int sc_end(void *ctx, const struct kimage_sysmap_line *l)
{
	struct sc_set *s = ctx;

	if (!l->bad && !l->mod && l->addr > s->cur && l->addr < s->end)
		s->end = l->addr;
	return 0;
}

/*
 * The name kallsyms_lookup() gives @a: of the functions there (sys_accept
 * and its alias __se_sys_accept), the first in kallsyms' order
 * (kernel-facts 114); NULL when none is.
 */
static const struct sc_fn *sc_fn_at(const struct sc_set *s, uint64_t a)
{
	size_t lo = 0, hi = s->nfn, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (s->fn[mid].addr < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nfn && s->fn[lo].addr == a ? &s->fn[lo] : NULL;
}

/*
 * What of a syscall function's name the kernel compares with its
 * metadata's "sys_NAME" (kernel-facts 114): the part after "__x64_sys",
 * "__ia32_sys" (x86), "__arm64_sys", "__do_sys", "__sys" (MIPS) or the
 * first three bytes.
 */
static const char *sc_tail(const char *name, size_t len, size_t *tl)
{
	static const char *const pre[] = { "__x64_sys", "__ia32_sys", "__arm64_sys", "__do_sys", "__sys" };
	size_t i, n;

	for (i = 0; i < sizeof(pre) / sizeof(*pre); i++) {
		n = strlen(pre[i]);
		if (len > n && !memcmp(name, pre[i], n)) {
			*tl = len - n;
			return name + n;
		}
	}
	*tl = len > 3 ? len - 3 : 0;
	return name + (len > 3 ? 3 : len);
}

static int sc_tail_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The syscalls of the @n entries at byte @at: their tails added to @s. -1: no memory. */
static int sc_entries(struct sc_set *s, const struct kimg *k,
		      const struct kimg_addr *m, size_t at, size_t n, size_t *cap)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sc_fn *f = sc_fn_at(s, kimg_addr_ptr_at(m, k, at + i * (size_t)m->ptr));
		const char *t;
		size_t tl;

		if (!f)
			continue;
		t = sc_tail(f->name, f->len, &tl);
		if (tl == 11 && !memcmp(t, "_ni_syscall", 11))
			continue;	/* the kernel maps no event to it */
		if (BT_GROW(s->tail, s->ntail + 1, *cap) ||
		    !(s->tail[s->ntail] = strndup(t, tl)))
			return -1;
		s->ntail++;
	}
	return 0;
}

/* The syscalls of the table at link address @table (to the next symbol). */
static int sc_table(struct sc_set *s, const struct kimg *k,
		    const struct kimg_addr *m, const char *symtext, size_t len,
		    uint64_t table, size_t *cap)
{
	long long at = kimg_addr_byte(m, k, table);
	size_t n;

	if (at < 0)
		return 0;
	s->cur = table;
	s->end = table + 4096 * (uint64_t)m->ptr;	/* no table is longer */
	kimage_sysmap_each(symtext, len, sc_end, s);
	n = (size_t)(s->end - table) / (size_t)m->ptr;
	if (n > (k->len - (size_t)at) / (size_t)m->ptr)
		n = (k->len - (size_t)at) / (size_t)m->ptr;
	return sc_entries(s, k, m, (size_t)at, n, cap);
}

/*
 * The native syscall wrappers' names: every entry of sys_call_table is one
 * (its empty slots __arm64_sys_ni_syscall); the compat table mixes in
 * __arm64_compat_sys_ ones and x86's 32-bit table __ia32_sys_ ones.
 */
static int sc_native(const struct sc_fn *f)
{
	static const char *const pre[] = { "__arm64_sys_", "__x64_sys_" };
	size_t i, n;

	for (i = 0; f && i < sizeof(pre) / sizeof(*pre); i++) {
		n = strlen(pre[i]);
		if (f->len > n && !memcmp(f->name, pre[i], n))
			return 1;
	}
	return 0;
}

/* Fewer native wrappers in a row than this are no sys_call_table (6.1 has 451). */
#define SC_SHAPE_MIN 200

/* A word of sys_call_table by its shape: a pointer to a native wrapper. */
static int sc_word(uint64_t v, void *ctx)
{
	return sc_native(sc_fn_at(ctx, v));
}

/*
 * The syscalls of every table kallsyms lists, or of sys_call_table by its
 * shape: their tails, sorted. -1: no memory.
 */
static int sc_read(struct sc_set *s, const struct kimg *k,
		   const struct kimg_addr *m, const char *symtext, size_t len)
{
	size_t cap = 0, i, at = 0, n;

	s->tables = kimg_syms(symtext, len, sc_tables, s->table, SC_NTABLES);
	if (kimage_sysmap_each(symtext, len, sc_visit, s))
		return -1;
	if (s->nfn)
		qsort(s->fn, s->nfn, sizeof(*s->fn), sc_fn_cmp);
	for (i = 0; i < SC_NTABLES; i++)
		if ((s->tables & 1u << i) &&
		    sc_table(s, k, m, symtext, len, s->table[i], &cap))
			return -1;
	/*
	 * sys_call_table when kallsyms does not list it (data, no
	 * KALLSYMS_ALL: Debian's arm64): the longest run of pointers to
	 * native syscall wrappers, at least SC_SHAPE_MIN
	 */
	if (!s->tables &&
	    (n = kimg_addr_run(m, k, sc_word, s, &at)) >= SC_SHAPE_MIN) {
		s->shape = 1;
		if (sc_entries(s, k, m, at, n, &cap))
			return -1;
	}
	if (s->ntail)
		qsort(s->tail, s->ntail, sizeof(*s->tail), sc_tail_cmp);
	return 0;
}

static void sc_free(struct sc_set *s)
{
	size_t i;

	for (i = 0; i < s->ntail; i++)
		free(s->tail[i]);
	free(s->tail);
	free(s->fn);
}

/*
 * Does the kernel list the event @ev ("syscalls:sys_enter_openat")? A
 * syscall event whose syscall is not in the table (a 32-bit one on a
 * 64-bit kernel) fails its init at boot and is not listed.
 */
static int sc_listed(const struct sc_set *s, const char *ev)
{
	const char *t;

	if ((!s->tables && !s->shape) || strncmp(ev, "syscalls:", 9))
		return 1;
	t = ev + 9;
	if (!strncmp(t, "sys_enter", 9))
		t += 9;
	else if (!strncmp(t, "sys_exit", 8))
		t += 8;
	else
		return 1;
	return s->ntail && bsearch(&t, s->tail, s->ntail, sizeof(*s->tail), sc_tail_cmp);
}

static int events_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort, drop doubles, count the systems. */
static void events_sort(struct kimg_events *ev)
{
	size_t i, j = 0;

	if (ev->n)
		qsort(ev->name, ev->n, sizeof(*ev->name), events_cmp);
	for (i = 0; i < ev->n; i++) {
		if (j && !strcmp(ev->name[j - 1], ev->name[i])) {
			free(ev->name[i]);
			continue;
		}
		if (!j || strcspn(ev->name[j - 1], ":") != strcspn(ev->name[i], ":") ||
		    strncmp(ev->name[j - 1], ev->name[i], strcspn(ev->name[i], ":")))
			ev->nsystems++;
		ev->name[j++] = ev->name[i];
	}
	ev->n = j;
}

/* Fewer events in a row than this are no kernel's array (Debian's have 1400+). */
#define EVENTS_SHAPE_MIN 100

/* A word of the events' array by its shape: it leads to an event's system and name. */
struct events_ctx {
	const struct kimg *k;
	const struct kimg_addr *m;
};

static int events_word(uint64_t v, void *ctx)
{
	const struct events_ctx *c = ctx;
	char one[2 * EVENT_NAME_MAX + 2];

	return v && kimg_addr_byte(c->m, c->k, v) >= 0 &&
	       events_one(c->k, c->m, v, one, sizeof(one));
}

/*
 * No symbols (no CONFIG_KALLSYMS_ALL): the array is the longest such run;
 * a raw image's byte 0 is the guess below @mm->base under which it is
 * longest (the pointers lead somewhere only at the right one). 1 found.
 */
static int events_shape(const struct kimg *k, struct kimg_addr *mm,
			size_t *at, size_t *cnt)
{
	uint64_t b0 = mm->base, pick = b0;
	size_t a = 0, n;
	int g;

	*cnt = 0;
	for (g = 0; g < (mm->n ? 1 : KIMG_ADDR_GUESSES); g++) {
		struct events_ctx c = { k, mm };

		mm->base = kimg_addr_guess(b0, g);
		n = kimg_addr_run(mm, k, events_word, &c, &a);
		if (n > *cnt) {
			*cnt = n;
			*at = a;
			pick = mm->base;
		}
	}
	mm->base = pick;
	return *cnt >= EVENTS_SHAPE_MIN;
}

int kimg_events(const struct kimg *k, const struct kimg_addr *map,
		const char *symtext, size_t symlen, const char *path,
		struct kimg_events *ev, struct bt_error *e)
{
	struct kimg_addr mm = *map, *m = &mm;	/* its base may be proved anew */
	static const char *const names[] = { "__start_ftrace_events", "__stop_ftrace_events" };
	uint64_t r[2] = { 0 };
	struct sc_set sc = { 0 };
	size_t cnt, i, bad = 0, cap = 0, at;
	char one[2 * EVENT_NAME_MAX + 2];

	memset(ev, 0, sizeof(*ev));
	if (kimg_syms(symtext, symlen, names, r, 2) != 3) {
		if (!events_shape(k, m, &at, &cnt))
			return 0;
		ev->by_shape = 1;
	} else if (kimg_addr_array(m, k, r[0], r[1], EVENTS_MAX, &at, &cnt))
		return bt_error_set(e, BT_EXIT_INPUT, path, "__start_ftrace_events %#llx .. __stop_ftrace_events %#llx is not an array inside the image (%s): its trace events are not known",
				    (unsigned long long)r[0], (unsigned long long)r[1], k->how);
	if (sc_read(&sc, k, m, symtext, symlen)) {
		sc_free(&sc);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	for (i = 0; i < cnt; i++) {
		uint64_t call = kimg_addr_ptr_at(m, k, at + i * (size_t)m->ptr);

		if (!events_one(k, m, call, one, sizeof(one))) {
			bad++;
			continue;
		}
		/* ftrace's own entry types: written by tracers, never enabled */
		if (!strncmp(one, "ftrace:", 7) || !sc_listed(&sc, one)) {
			ev->unlisted++;
			continue;
		}
		if (BT_GROW(ev->name, ev->n + 1, cap) ||
		    !(ev->name[ev->n] = strdup(one))) {
			kimg_events_free(ev);
			sc_free(&sc);
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		}
		ev->n++;
	}
	ev->syscall_table = sc.tables ? 1 : sc.shape ? 2 : 0;
	sc_free(&sc);
	if (bad > cnt / 100) {
		kimg_events_free(ev);
		return bt_error_set(e, BT_EXIT_INPUT, path, "byte %zu: %zu of the %zu entries between __start_ftrace_events and __stop_ftrace_events do not lead to an event's system and name: not the table of trace events, they are not known",
				    at, bad, cnt);
	}
	ev->unread = bad;
	ev->entries = cnt;
	events_sort(ev);
	return ev->by_shape ? 2 : 1;
}

void kimg_events_free(struct kimg_events *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++)
		free(ev->name[i]);
	free(ev->name);
	memset(ev, 0, sizeof(*ev));
}

int kimg_events_has(const struct kimg_events *ev, const char *system,
		    const char *event)
{
	size_t sl = strlen(system), i;

	for (i = 0; i < ev->n; i++) {
		const char *s = ev->name[i];

		if (strncmp(s, system, sl) || s[sl] != ':')
			continue;
		if (!event || !strcmp(s + sl + 1, event))
			return 1;
	}
	return 0;
}
