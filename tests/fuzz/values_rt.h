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
 * parameter), init.K, the words of verbatim.kernel and verbatim.init, boottrace.K (the hook's word boottrace.K=V),
 * ftrace.ftrace.filters items (ftrace_filter= items on the command line,
 * boottrace.arm= items for module filters, which the hook arms), and
 * ftrace.event.G.E.filter (bootconfig only: the
 * command line drops it with --allow-drop). Words the compiler adds by
 * itself (trace_clock, bootconfig, the hook's boottrace.enable=1) are not
 * settings of the config (no generated config sets boottrace.enable).
 * A refusal is fine when it points at FILE:LINE:COL.
 *
 * The bootloader forms are read back the way their bootloaders read them,
 * each merged into a base line whose words must come back too:
 *  - -t uboot-script by the quoting rules of U-Boot's hush that
 *    docs/compile-targets.md states (verified in real U-Boot): blanks
 *    split, '...' is literal except that '\' takes the next byte, and
 *    outside quotes '\' takes the next byte; anything hush would expand
 *    or treat as syntax ($, ", ;, #, &, |, ...) fails the property;
 *  - -t grub by a real /bin/sh sourcing the drop-in (GRUB_CMDLINE_LINUX
 *    set before, as /etc/default/grub does), then GRUB's script lexer on
 *    the grub.cfg line 10_linux writes ('...' literal, '\' takes the next
 *    byte; anything GRUB would expand fails the property), then its linux
 *    loader joining the arguments ("..." around one holding a space, '\'
 *    before each '\', '\'' and '"'), then the kernel's tokenizer.
 */
#ifndef VALUES_RT_H
#define VALUES_RT_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <string.h>
#include <unistd.h>

#include "bconf.h"
#include "compile/emit.h"
#include "compile/emit_uboot.h"
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

/* @n bytes of @arg as one element, exactly. */
static void vrt_add_raw(struct vrt_set *s, const char *arg, size_t n)
{
	vrt_add(s, "", arg, n, NULL);
	memmove(s->v[s->n - 1], s->v[s->n - 1] + 1, n + 1);
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
	return !strcmp(param, "trace_clock") || !strcmp(param, "bootconfig") ||
	       !strcmp(param, "boottrace.enable");
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

/* The base line every bootloader form is merged into (no tracing words). */
#define VRT_BASE "root=/dev/vda1 console=ttyS0,115200 quiet -- single"

/*
 * The arguments of a command line, by hush's quoting rules (above), or
 * with @grub by GRUB's lexer's, where '...' holds every byte literally:
 * into @argv; -1 for anything either would not take literally.
 */
static int vrt_hush_args(const char *line, struct vrt_set *argv, int grub)
{
	char *arg = malloc(strlen(line) + 1);
	const char *p = line;
	size_t n;

	if (!arg)
		abort();
	for (;;) {
		int have = 0;

		p += strspn(p, " \t");
		if (!*p)
			break;
		for (n = 0; *p && *p != ' ' && *p != '\t'; p++, have = 1) {
			if (*p == '\\') {
				if (!*++p)
					goto bad;
				arg[n++] = *p;
			} else if (*p == '\'') {
				for (p++; *p && *p != '\''; p++) {
					if (!grub && *p == '\\' && !*++p)
						goto bad;
					arg[n++] = *p;
				}
				if (!*p)
					goto bad;
			} else if (strchr("$\";#&|<>(){}`", *p)) {
				goto bad;
			} else {
				arg[n++] = *p;
			}
		}
		if (have)
			vrt_add_raw(argv, arg, n);
	}
	free(arg);
	return 0;
bad:
	free(arg);
	return -1;
}

/* The bootargs a `setenv bootargs '...'` script sets, malloc'd, or NULL. */
static char *vrt_hush_bootargs(const char *script)
{
	struct vrt_set argv = { 0 };
	char *line = strdup(script), *nl, *v = NULL;

	if (!line)
		abort();
	nl = strchr(line, '\n');
	/* One command, one line. */
	if (!nl || nl[1] || (*nl = '\0', vrt_hush_args(line, &argv, 0)))
		goto out;
	if (argv.n == 3 && !strcmp(argv.v[0], "setenv") &&
	    !strcmp(argv.v[1], "bootargs"))
		v = strdup(argv.v[2]);
out:
	vrt_free(&argv);
	free(line);
	return v;
}

/*
 * GRUB's lexer on the arguments of the linux line, then its loader's
 * joining: the line the kernel gets (malloc'd), or NULL when the text
 * holds anything GRUB would expand or treat as syntax.
 */
static char *vrt_grub_line(const char *cfg)
{
	struct vrt_set argv = { 0 };
	char *k, *at;
	size_t i, len = 1;

	if (vrt_hush_args(cfg, &argv, 1))
		return vrt_free(&argv), NULL;
	for (i = 0; i < argv.n; i++)
		len += 2 * strlen(argv.v[i]) + 3;
	at = k = malloc(len);
	if (!k)
		abort();
	*k = '\0';
	for (i = 0; i < argv.n; i++) {
		const char *c = argv.v[i];
		int space = strchr(c, ' ') != NULL;

		if (i)
			*at++ = ' ';
		if (space)
			*at++ = '"';
		for (; *c; c++) {
			if (*c == '\\' || *c == '\'' || *c == '"')
				*at++ = '\\';
			*at++ = *c;
		}
		if (space)
			*at++ = '"';
		*at = '\0';
	}
	vrt_free(&argv);
	return k;
}

/*
 * The drop-in sourced by /bin/sh with GRUB_CMDLINE_LINUX=@preset, then
 * 10_linux's "ro $GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT":
 * malloc'd, or NULL when sh fails.
 */
static char *vrt_sh_grub(const char *path, const char *preset)
{
	char cmd[512], *out = malloc(65536);
	size_t n;
	FILE *f;
	int st = -1, tries;

	if (!out)
		abort();
	setenv("VRT_PRESET", preset, 1);
	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'GRUB_CMDLINE_LINUX=$VRT_PRESET; GRUB_CMDLINE_LINUX_DEFAULT=; . \"$0\" && printf \"%%s %%s\" \"$GRUB_CMDLINE_LINUX\" \"$GRUB_CMDLINE_LINUX_DEFAULT\"' '%s'", path);
	/*
	 * sh's own verdict counts; a sh that did not get to say (killed,
	 * not reaped: a loaded machine under the fuzzer) is run again.
	 */
	for (tries = 0; tries < 3; tries++) {
		f = popen(cmd, "r");
		if (!f)
			abort();
		n = fread(out, 1, 65535, f);
		out[n] = '\0';
		st = pclose(f);
		if (st != -1 && WIFEXITED(st))
			break;
	}
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

enum vrt_form { VRT_CMDLINE, VRT_BCONF, VRT_UBOOT, VRT_GRUB_BASE, VRT_GRUB_DROPIN, VRT_NFORMS };

static const char *const vrt_form_names[] = {
	"cmdline", "bootconfig", "uboot-script", "grub --base", "grub (drop-in)",
};

/*
 * The kernel's line from bootloader form @form of route @r (merged into
 * VRT_BASE): malloc'd; NULL with @why when the form's text is not what its
 * bootloader reads as one plain line; *@refused when the emitter refused.
 */
static char *vrt_form_line(enum vrt_form form, struct route *r,
			   const struct board *b, int *refused, char *why,
			   size_t wsize)
{
	char path[] = "/tmp/vrt-grub-XXXXXX", *text = NULL, *line = NULL, *sh;
	struct emit_in in;
	struct bt_error e;
	int fd;

	memset(&in, 0, sizeof(in));
	in.kernel = &r->words;
	in.board = b;
	bt_error_clear(&e);
	*refused = 0;
	if (form == VRT_UBOOT) {
		in.base = VRT_BASE;
		if (emit_uboot_script_text(&in, &text, &e)) {
			*refused = 1;
			snprintf(why, wsize, "uboot-script: refused after the route took it: %s", e.msg);
			return NULL;
		}
		line = vrt_hush_bootargs(text);
		if (!line)
			snprintf(why, wsize, "uboot-script: hush does not read it as one setenv bootargs: %s", text);
		free(text);
		return line;
	}
	fd = mkstemp(path);
	if (fd < 0)
		abort();
	close(fd);
	in.out = path;
	if (form == VRT_GRUB_BASE)
		in.base = "GRUB_CMDLINE_LINUX=\"" VRT_BASE "\"\n";
	if (emit_grub(&in, &e)) {
		unlink(path);
		*refused = 1;
		snprintf(why, wsize, "grub: refused after the route took it: %s", e.msg);
		return NULL;
	}
	sh = vrt_sh_grub(path, form == VRT_GRUB_BASE ? "" : VRT_BASE);
	unlink(path);
	if (sh)
		line = vrt_grub_line(sh);
	if (!line)
		snprintf(why, wsize, "%s: sh or GRUB's lexer does not read it plainly: %s", vrt_form_names[form], sh ? sh : "(sh failed)");
	free(sh);
	return line;
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
		/* verbatim.*: each value is a word of the line, as the kernel reads it. */
		if (!strncmp(key, "verbatim.", 9)) {
			bconf_for_each_value(bc, vn, v)
				vrt_read_line(s, bconf_data(bc, v), key[9] == 'i');
			continue;
		}
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
	snprintf(b.name, sizeof(b.name), "vrt");
	bt_error_clear(&e);
	kcaps_set_version(&k, "6.1", &e);
	if (source_load_text("v.bconf", text, len, &src, &e))
		return source_free(&src), 1;
	if (plan_build(&p, &src, &e))
		return source_free(&src), 1;
	for (form = 0; form < VRT_NFORMS && !bad; form++) {
		struct vrt_set want = { 0 }, got = { 0 };
		struct route r;
		int ret;

		bt_error_clear(&e);
		o.word_bad = form == VRT_UBOOT ? emit_uboot_word_bad :
			     form >= VRT_GRUB_BASE ? emit_grub_word_bad : NULL;
		o.form = vrt_form_names[form];
		/*
		 * Which settings a bootloader form drops is not known here:
		 * there it must refuse at the place instead.
		 */
		o.allow_drop = form <= VRT_BCONF;
		route_init(&r, &p, &k, &b, &o);
		ret = form == VRT_BCONF ? route_bootconfig(&r, &e) : route_cmdline(&r, &e);
		if (ret) {
			vrt_refused++;
			if (e.line <= 0 || !e.msg[0]) {
				snprintf(why, wsize, "%s: refused without a place: %s",
					 vrt_form_names[form], e.msg);
				bad = 1;
			}
		} else {
			char *line;
			int refused = 0;

			if (form <= VRT_BCONF)
				line = words_join(&r.words);
			else
				line = vrt_form_line((enum vrt_form)form, &r, &b, &refused, why, wsize);
			vrt_compiled++;
			if (!line) {
				bad = 1;
				goto next;
			}
			vrt_expect(&want, src.bc, form != VRT_BCONF);
			if (form > VRT_BCONF)
				vrt_read_line(&want, VRT_BASE, 0);
			vrt_read_line(&got, line, 0);
			if (form == VRT_BCONF && vrt_read_bconf(&got, r.bconf, r.bconf_len)) {
				snprintf(why, wsize, "bootconfig: the text does not parse");
				bad = 1;
			}
			/* What --allow-drop dropped is not expected back. */
			if (!bad && vrt_same(&want, &got)) {
				size_t i;
				int at = snprintf(why, wsize, "%s: line [%s] want",
						  vrt_form_names[form], line);

				for (i = 0; i < want.n && at < (int)wsize; i++)
					at += snprintf(why + at, wsize - (size_t)at, " [%s]", want.v[i]);
				for (i = 0, at += snprintf(why + at, at < (int)wsize ? wsize - (size_t)at : 0, " got"); i < got.n && at < (int)wsize; i++)
					at += snprintf(why + at, wsize - (size_t)at, " [%s]", got.v[i]);
				bad = 1;
			}
			free(line);
		}
next:
		route_free(&r);
		vrt_free(&want);
		vrt_free(&got);
	}
	plan_free(&p);
	source_free(&src);
	return bad ? -1 : 0;
}

#endif /* VALUES_RT_H */
