/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The value round trip (issue 14, class 1), shared by tests/unit/test_values.c
 * (random configs) and tests/fuzz/fuzz_values.c (fuzz input): a config is
 * compiled to the command line and to bootconfig, each output is read back
 * as the kernel reads it, and the settings that come back must be exactly
 * the config's: no more, no fewer.
 *
 * Read back: the command line with the kernel-compatible tokenizer
 * (bconf_cmdline_next: words before "--" are kernel parameters, after it
 * init's); the bootconfig text with our parser, its kernel.* and init.*
 * keys turned into words as the kernel does (xbc_snprint_cmdline: quoted
 * only when the value holds whitespace) and tokenized again.
 *
 * Settings compared ("FAMILY KEY=VALUE"): kernel.K (K not a tracing
 * parameter), init.K, boottrace.K (the hook's word boottrace.K=V),
 * ftrace.ftrace.filters items (ftrace_filter= items on the command line,
 * boottrace.arm= items for module filters, which the hook arms), and
 * ftrace.event.G.E.filter (bootconfig only: the
 * command line drops it with --allow-drop). Words the compiler adds by
 * itself (trace_clock, bootconfig) are not settings of the config.
 * A refusal is fine when it points at FILE:LINE:COL.
 */
#ifndef VALUES_RT_H
#define VALUES_RT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "compile/route.h"
#include "kernel/kcaps.h"
#include "kernel/params.h"
#include "plan/plan.h"
#include "util/source.h"

/* Outputs read back and refusals with their place, over all calls. */
static unsigned long vrt_compiled, vrt_refused;

struct vrt_set {
	char **v;
	size_t n, cap;
};

static void vrt_add(struct vrt_set *s, const char *fam, const char *key,
		    size_t klen, const char *val)
{
	size_t len = strlen(fam) + klen + (val ? strlen(val) : 0) + 4;
	char *e;

	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	e = malloc(len);
	if (!e)
		abort();
	snprintf(e, len, "%s %.*s%s%s", fam, (int)klen, key, val ? "=" : "",
		 val ? val : "");
	s->v[s->n++] = e;
}

static void vrt_free(struct vrt_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int vrt_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 0 when @a and @b hold the same settings, as many times each. */
static int vrt_same(struct vrt_set *a, struct vrt_set *b)
{
	size_t i;

	if (a->n != b->n)
		return -1;
	if (!a->n)
		return 0;
	qsort(a->v, a->n, sizeof(*a->v), vrt_cmp);
	qsort(b->v, b->n, sizeof(*b->v), vrt_cmp);
	for (i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return -1;
	return 0;
}

static int vrt_skip(const char *param)
{
	return !strcmp(param, "trace_clock") || !strcmp(param, "bootconfig");
}

/* One command-line parameter read back as settings of family @fam. */
static void vrt_param(struct vrt_set *s, const char *fam, const char *param,
		      const char *val)
{
	/* Module filters (FUNC:mod:MODULE) go to the hook: the same items. */
	if (!strcmp(fam, "kernel") && val && (!strcmp(param, "ftrace_filter") ||
					      !strcmp(param, "boottrace.arm"))) {
		const char *c;

		for (;;) {
			c = strchr(val, ',');
			vrt_add(s, "filter", val, c ? (size_t)(c - val) : strlen(val), NULL);
			if (!c)
				return;
			val = c + 1;
		}
	}
	if (!vrt_skip(param))
		vrt_add(s, fam, param, strlen(param), val);
}

/* A command line as the kernel splits it. */
static void vrt_read_line(struct vrt_set *s, const char *line, int init)
{
	char *copy = strdup(line), *at = copy;
	struct bconf_arg a;

	if (!copy)
		abort();
	while ((at = bconf_cmdline_next(at, &a))) {
		if (!init && !strcmp(a.param, "--") && !a.val) {
			init = 1;
			continue;
		}
		vrt_param(s, init ? "init" : "kernel", a.param, a.val);
	}
	free(copy);
}

/* The words the kernel makes of the kernel.* / init.* leaf @leaf. */
static int vrt_xbc_words(struct vrt_set *s, const struct bconf *bc, int root,
			 int leaf, int init)
{
	char key[BCONF_KEYLEN_MAX + 1], *line;
	int vn = bconf_value_node(bc, leaf), v;
	size_t len = 1, at = 0;

	bconf_compose_key(bc, root, leaf, key, sizeof(key));
	bconf_for_each_value(bc, vn, v)
		len += strlen(key) + strlen(bconf_data(bc, v)) + 5;
	len += strlen(key) + 2;
	line = malloc(len);
	if (!line)
		abort();
	line[0] = '\0';
	if (vn == BCONF_NONE)
		at += (size_t)sprintf(line + at, "%s ", key);
	bconf_for_each_value(bc, vn, v) {
		const char *val = bconf_data(bc, v);
		const char *q = strpbrk(val, " \t\r\n") ? "\"" : "";

		at += (size_t)sprintf(line + at, "%s=%s%s%s ", key, q, val, q);
	}
	vrt_read_line(s, line, init);
	free(line);
	return 0;
}

/* A bootconfig text read back: -1 if it does not parse. */
static int vrt_read_bconf(struct vrt_set *s, const char *text, size_t len)
{
	struct bconf_error pe;
	struct bconf *bc = bconf_parse(text, len + 1, NULL, &pe);
	int leaf = BCONF_NONE;

	if (!bc)
		return -1;
	while ((leaf = bconf_next_leaf(bc, BCONF_NONE, leaf)) != BCONF_NONE) {
		char key[BCONF_KEYLEN_MAX + 1];
		int vn = bconf_value_node(bc, leaf), v, top = leaf, up;

		while ((up = bconf_parent(bc, top)) != BCONF_NONE)
			top = up;
		if (!strcmp(bconf_data(bc, top), "kernel") ||
		    !strcmp(bconf_data(bc, top), "init")) {
			vrt_xbc_words(s, bc, top, leaf,
				      !strcmp(bconf_data(bc, top), "init"));
			continue;
		}
		bconf_compose_key(bc, BCONF_NONE, leaf, key, sizeof(key));
		if (!strcmp(key, "ftrace.trace_clock"))
			continue;
		if (!strcmp(key, "ftrace.ftrace.filters")) {
			bconf_for_each_value(bc, vn, v)
				vrt_add(s, "filter", bconf_data(bc, v),
					strlen(bconf_data(bc, v)), NULL);
			continue;
		}
		bconf_for_each_value(bc, vn, v)
			vrt_add(s, key, "", 0, bconf_data(bc, v));
		if (vn == BCONF_NONE)
			vrt_add(s, key, "", 0, NULL);
	}
	bconf_free(bc);
	return 0;
}

/* The settings of the config itself; @cmdline leaves out event filters. */
static void vrt_expect(struct vrt_set *s, const struct bconf *bc, int cmdline)
{
	int leaf = BCONF_NONE;

	while ((leaf = bconf_next_leaf(bc, BCONF_NONE, leaf)) != BCONF_NONE) {
		char key[BCONF_KEYLEN_MAX + 1];
		const char *k = key;
		int vn = bconf_value_node(bc, leaf), v;

		bconf_compose_key(bc, BCONF_NONE, leaf, key, sizeof(key));
		if (!strncmp(key, "kernel.", 7) || !strncmp(key, "init.", 5) ||
		    !strncmp(key, "boottrace.", 10)) {
			const char *fam = key[0] == 'i' ? "init" : "kernel";

			/* boottrace.K is the hook's word boottrace.K=V. */
			if (key[0] != 'b')
				k = strchr(key, '.') + 1;
			if (vn == BCONF_NONE)
				vrt_add(s, fam, k, strlen(k), NULL);
			bconf_for_each_value(bc, vn, v)
				vrt_add(s, fam, k, strlen(k), bconf_data(bc, v));
		} else if (!strcmp(key, "ftrace.ftrace.filters")) {
			bconf_for_each_value(bc, vn, v)
				vrt_add(s, "filter", bconf_data(bc, v),
					strlen(bconf_data(bc, v)), NULL);
		} else if (!cmdline) {
			bconf_for_each_value(bc, vn, v)
				vrt_add(s, key, "", 0, bconf_data(bc, v));
			if (vn == BCONF_NONE)
				vrt_add(s, key, "", 0, NULL);
		}
	}
}

/*
 * Compile @text (a config whose keys are only of the families above) both
 * ways: 0 when every output gives back exactly its settings or the compiler
 * refused at a place in the config; 1 when @text is not a config at all;
 * -1 (and @why) when the property fails.
 */
static int vrt_check(const char *text, size_t len, char *why, size_t wsize)
{
	struct route_opts o = { .allow_drop = 1 };
	struct source src;
	struct bt_error e;
	struct board b;
	struct kcaps k;
	struct plan p;
	int form, bad = 0;

	memset(&k, 0, sizeof(k));
	memset(&b, 0, sizeof(b));
	b.cmdline_max = 4096;
	bt_error_clear(&e);
	kcaps_set_version(&k, "6.1", &e);
	if (source_load_text("v.bconf", text, len, &src, &e))
		return source_free(&src), 1;
	if (plan_build(&p, &src, &e))
		return source_free(&src), 1;
	for (form = 0; form < 2 && !bad; form++) {
		struct vrt_set want = { 0 }, got = { 0 };
		struct route r;
		int ret;

		bt_error_clear(&e);
		route_init(&r, &p, &k, &b, &o);
		ret = form ? route_bootconfig(&r, &e) : route_cmdline(&r, &e);
		if (ret) {
			vrt_refused++;
			if (e.line <= 0 || !e.msg[0]) {
				snprintf(why, wsize, "%s: refused without a place: %s",
					 form ? "bootconfig" : "cmdline", e.msg);
				bad = 1;
			}
		} else {
			char *line = words_join(&r.words);

			vrt_compiled++;
			if (!line)
				abort();
			vrt_expect(&want, src.bc, !form);
			vrt_read_line(&got, line, 0);
			if (form && vrt_read_bconf(&got, r.bconf, r.bconf_len)) {
				snprintf(why, wsize, "bootconfig: the text does not parse");
				bad = 1;
			}
			/* What --allow-drop dropped is not expected back. */
			if (!bad && vrt_same(&want, &got)) {
				size_t i;
				int at = snprintf(why, wsize, "%s: want",
						  form ? "bootconfig" : "cmdline");

				for (i = 0; i < want.n && at < (int)wsize; i++)
					at += snprintf(why + at, wsize - (size_t)at, " [%s]", want.v[i]);
				for (i = 0, at += snprintf(why + at, at < (int)wsize ? wsize - (size_t)at : 0, " got"); i < got.n && at < (int)wsize; i++)
					at += snprintf(why + at, wsize - (size_t)at, " [%s]", got.v[i]);
				bad = 1;
			}
			free(line);
		}
		route_free(&r);
		vrt_free(&want);
		vrt_free(&got);
	}
	plan_free(&p);
	source_free(&src);
	return bad ? -1 : 0;
}

#endif /* VALUES_RT_H */
