// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Raw frame addresses -> symbols: System.map or /proc/kallsyms text
 * (kimage/sysmap.h) and /proc/modules for module bases
 * ("NAME SIZE REFS DEPS STATE ADDR"). Only text symbols are kept; lookup
 * is a binary search for the last symbol at or below the address.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/sysmap.h"
#include "report/input/input.h"
#include "util/grow.h"

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

	if (BT_GROW(s->v, s->n + 1, s->cap) < 0)
		return -1;
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

/*
 * A System.map or kallsyms line (kimage/sysmap.c reads them): only text
 * symbols name code. Malformed lines are passed over, and so are zero
 * addresses (kallsyms read without root).
 */
static int syms_line(void *ctx, const struct kimage_sysmap_line *l)
{
	struct rp_syms *s = ctx;

	if (l->bad || !l->addr ||
	    (l->type != 't' && l->type != 'T' && l->type != 'W' && l->type != 'w'))
		return 0;
	return syms_push(s, l->addr, 0, l->name, l->namelen, 0);
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
	char pkg[256];

	/* Debian's /boot/System.map-* names where the real one is (kernel-facts 16) */
	if (kimage_sysmap_placeholder(text, strlen(text), pkg, sizeof(pkg)))
		return bt_error_set(e, BT_EXIT_INPUT, name, "a placeholder, not a symbol table: the real System.map is in the %s package; give its System.map, or that boot's /proc/kallsyms (read as root) with --kallsyms", *pkg ? pkg : "linux-image-VER-dbg");
	if (kimage_sysmap_each(text, strlen(text), syms_line, s))
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	if (s->n == before)
		return bt_error_set(e, BT_EXIT_INPUT, name, "no text symbols (expected System.map or /proc/kallsyms lines \"ADDR t NAME\"; kallsyms read without root shows zero addresses)");
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
	if (s->n)	/* an empty /proc/modules leaves s->v NULL: qsort must not see it */
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
