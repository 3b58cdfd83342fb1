// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Raw frame addresses -> symbols: System.map or /proc/kallsyms text
 * ("ADDR TYPE NAME [module]") and /proc/modules for module bases
 * ("NAME SIZE REFS DEPS STATE ADDR"). Only text symbols are kept; lookup
 * is a binary search for the last symbol at or below the address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

static int by_addr(const void *x, const void *y)
{
	const struct rp_sym *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int syms_push(struct rp_syms *s, uint64_t addr, uint64_t size,
		     const char *name, size_t len, int module)
{
	struct rp_sym *v;
	uint32_t id;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;

		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	id = rp_intern(&s->names, name, len);
	if (id == RP_NONE)
		return -1;
	v = &s->v[s->n++];
	v->addr = addr;
	v->size = size;
	v->name = id;
	v->module = (uint8_t)module;
	return 0;
}

/* One "ADDR TYPE NAME[\t[mod]]" line; non-text symbols are skipped. */
static int syms_line(struct rp_syms *s, const char *line)
{
	char *end;
	unsigned long long a = strtoull(line, &end, 16);
	const char *n, *ne;
	char type;

	if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
		return 0;
	type = end[1];
	if (type != 't' && type != 'T' && type != 'W' && type != 'w')
		return 0;
	n = end + 3;
	ne = n + strcspn(n, " \t\r\n");
	if (ne == n || !a)
		return 0;
	return syms_push(s, a, 0, n, (size_t)(ne - n), 0);
}

/* Calls @fn on each line of @text (NUL-terminated copy in @buf). */
static int each_line(struct rp_syms *s, const char *text,
		     int (*fn)(struct rp_syms *, const char *))
{
	char buf[1024];

	while (*text) {
		size_t n = strcspn(text, "\n");

		if (n < sizeof(buf)) {
			memcpy(buf, text, n);
			buf[n] = '\0';
			if (fn(s, buf))
				return -1;
		}
		text += n + (text[n] == '\n');
	}
	return 0;
}

int rp_syms_load(struct rp_syms *s, const char *text, const char *name,
		 struct bt_error *e)
{
	size_t before = s->n;

	if (each_line(s, text, syms_line))
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	if (s->n == before)
		return bt_error_set(e, BT_EXIT_INPUT, name,
				    "no text symbols (expected System.map or "
				    "/proc/kallsyms lines \"ADDR t NAME\"; "
				    "kallsyms read without root shows zero "
				    "addresses)");
	qsort(s->v, s->n, sizeof(*s->v), by_addr);
	return 0;
}

/* "bonding 229376 0 - Live 0xffffffffc0314000" -> a range named [bonding]. */
static int module_line(struct rp_syms *s, const char *line)
{
	unsigned long long size, addr;
	char name[128], buf[160];
	const char *a = strstr(line, " 0x");
	int n;

	if (sscanf(line, "%127s %llu", name, &size) != 2 || !a ||
	    sscanf(a, " %llx", &addr) != 1 || !addr)
		return 0;
	n = snprintf(buf, sizeof(buf), "[%s]", name);
	return syms_push(s, addr, size, buf, (size_t)n, 1);
}

int rp_syms_load_modules(struct rp_syms *s, const char *text,
			 const char *name, struct bt_error *e)
{
	if (each_line(s, text, module_line))
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	qsort(s->v, s->n, sizeof(*s->v), by_addr);
	return 0;
}

int rp_syms_lookup(const struct rp_syms *s, uint64_t addr, char *out,
		   size_t cap)
{
	size_t lo = 0, hi = s->n, best = SIZE_MAX;
	const struct rp_sym *v;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].addr <= addr) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	if (best == SIZE_MAX)
		return -1;
	v = &s->v[best];
	/* symbols have no size here: farther than 1 MiB is not this one */
	if (v->module ? addr >= v->addr + v->size : addr - v->addr > (1u << 20))
		return -1;
	snprintf(out, cap, "%s+0x%llx", rp_str(&s->names, v->name),
		 (unsigned long long)(addr - v->addr));
	return 0;
}

void rp_syms_free(struct rp_syms *s)
{
	free(s->v);
	rp_intern_free(&s->names);
	memset(s, 0, sizeof(*s));
}
