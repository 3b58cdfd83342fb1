// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm.h, GRUB: a menu entry in custom.cfg, made from grub.cfg's first menu
 * entry with the one-shot line on its linux line, and next_entry in the
 * environment block, which the script of grub-mkconfig's 00_header turns
 * into the default of one boot and clears (save_env), as grub-reboot does.
 * custom.cfg is read at boot by the script of 41_custom, so no
 * grub-mkconfig run is needed and grub.cfg is not touched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arm/arm.h"
#include "compile/emit.h"
#include "kernel/words.h"
#include "util/readfile.h"

#define GRUB_ENTRY_ID "boottrace-oneshot"
#define GRUBENV_SIZE 1024
#define GRUBENV_SIG "# GRUB Environment Block\n"

struct grub_files {
	char *dir, *cfg, *env, *custom;
};

static void grub_files_free(struct grub_files *g)
{
	free(g->dir);
	free(g->cfg);
	free(g->env);
	free(g->custom);
}

static int grub_files(const struct arm_opts *o, struct grub_files *g,
		      struct bt_error *e)
{
	memset(g, 0, sizeof(*g));
	g->dir = arm_path(o->root, o->grub_dir ? o->grub_dir : ARM_GRUB_DIR);
	if (g->dir) {
		if (asprintf(&g->cfg, "%s/grub.cfg", g->dir) < 0)
			g->cfg = NULL;
		if (asprintf(&g->env, "%s/grubenv", g->dir) < 0)
			g->env = NULL;
		if (asprintf(&g->custom, "%s/custom.cfg", g->dir) < 0)
			g->custom = NULL;
	}
	if (!g->cfg || !g->env || !g->custom) {
		grub_files_free(g);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	return 0;
}

/* The default entry of grub.cfg: offsets of its body and linux line. */
struct grub_entry {
	size_t body, close;		/* body start; the closing "}" line */
	size_t lin, lin_end;		/* the linux line (without its '\n') */
	size_t args;			/* its arguments after the kernel path */
	int lin_no;			/* its line number */
};

static const char *grub_skip_ws(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

/* Whether the word at @s (to @end) is @w followed by blank or the end. */
static int grub_is_word(const char *s, const char *end, const char *w)
{
	size_t n = strlen(w);

	return (size_t)(end - s) >= n && !memcmp(s, w, n) &&
	       (s + n == end || s[n] == ' ' || s[n] == '\t');
}

/*
 * The first menuentry at the top level of grub.cfg @t (the entry GRUB
 * boots by default as grub-mkconfig writes it: its default is entry 0),
 * its body up to the line "}" closing it, and its linux line. Braces are
 * counted per line: a line ending in "{" opens a block, a line "}" closes one.
 */
static int grub_find_entry(const char *cfg, const char *t, size_t len,
			   struct grub_entry *en, struct bt_error *e)
{
	const char *l, *nl, *end, *s, *r;
	int depth = 0, in = 0, no = 0;

	memset(en, 0, sizeof(*en));
	for (l = t; l < t + len; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(t + len - l));
		if (!nl)
			nl = t + len;
		no++;
		s = grub_skip_ws(l, nl);
		for (end = nl; end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'); end--)
			;
		if (end == s || *s == '#')
			continue;
		if (end - s == 1 && *s == '}') {
			if (depth > 0 && --depth == 0 && in) {
				en->close = (size_t)(l - t);
				if (!en->lin_no)
					return bt_error_set(e, BT_EXIT_INPUT, cfg, "its first menu entry has no linux line: arm-boot makes its one-shot entry from that entry; give --grub-dir the directory of the grub.cfg that boots Linux");
				return 0;
			}
			continue;
		}
		if (in && depth == 1 && (grub_is_word(s, end, "linux") ||
					 grub_is_word(s, end, "linuxefi") ||
					 grub_is_word(s, end, "linux16"))) {
			en->lin = (size_t)(l - t);
			en->lin_end = (size_t)(nl - t);
			en->lin_no = no;
			r = s + strcspn(s, " \t");
			r = grub_skip_ws(r, end);	/* the kernel path */
			r += strcspn(r, " \t\n");
			if (r > end)
				r = end;
			en->args = (size_t)(grub_skip_ws(r, end) - t);
			continue;
		}
		if (end[-1] == '{') {
			if (!depth && !en->body && grub_is_word(s, end, "menuentry")) {
				in = 1;
				en->body = (size_t)(nl - t) + (nl < t + len);
			}
			depth++;
		}
	}
	return bt_error_set(e, BT_EXIT_INPUT, cfg, "has no complete menuentry block at the top level (a line ending in '{' up to a line '}'): arm-boot makes its one-shot entry from grub.cfg's first menu entry; run update-grub, or give --grub-dir");
}

struct grub_cfg {
	char *text;
	size_t len;
	struct grub_entry en;
};

/* grub.cfg read and checked: next_entry and custom.cfg are honoured. */
static int grub_load_cfg(const struct grub_files *g, struct grub_cfg *c,
			 struct bt_error *e)
{
	c->text = readfile(g->cfg, (size_t)16 << 20, 0, "grub.cfg", &c->len, e);
	if (!c->text)
		return -1;
	if (!strstr(c->text, "next_entry") || !strstr(c->text, "save_env next_entry"))
		return bt_error_set(e, BT_EXIT_INPUT, g->cfg, "does not take next_entry from the environment block (no 'save_env next_entry', which grub-mkconfig's 00_header writes): GRUB would not boot the one-shot entry; regenerate it with update-grub");
	if (!strstr(c->text, "custom.cfg"))
		return bt_error_set(e, BT_EXIT_INPUT, g->cfg, "does not read custom.cfg (the block of grub-mkconfig's /etc/grub.d/41_custom): GRUB would not see the one-shot entry; make 41_custom executable and run update-grub");
	return grub_find_entry(g->cfg, c->text, c->len, &c->en, e);
}

/*
 * The kernel words of the linux line; words GRUB expands itself ($name,
 * as Ubuntu's $vt_handoff) are kept aside in @grub_only, written back as
 * they were. Quotes and escapes are GRUB's script syntax, not merged.
 */
static int grub_line_words(const char *cfg, const struct grub_cfg *c,
			   char **kernel, struct words *grub_only,
			   struct bt_error *e)
{
	const char *a = c->text + c->en.args, *end = c->text + c->en.lin_end;
	struct words all;
	size_t i, n = 0;
	char *k;
	int ret = 0;

	for (i = 0; a + i < end; i++)
		if (strchr("'\"\\;|&<>{}", a[i]))
			return bt_error_set(e, BT_EXIT_INPUT, cfg, "line %d: the linux line holds GRUB quoting or script syntax ('%c'), which arm-boot does not merge (not done): set the command line without it in /etc/default/grub and run update-grub", c->en.lin_no, a[i]);
	k = malloc((size_t)(end - a) + 1);
	if (!k)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	memcpy(k, a, (size_t)(end - a));
	k[end - a] = 0;
	for (i = 0; k[i]; i++)
		if (k[i] == '\t' || k[i] == '\r')
			k[i] = ' ';
	words_init(&all);
	if (words_split(&all, k)) {
		free(k);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	k[0] = 0;
	for (i = 0; i < all.n && !ret; i++) {
		if (strchr(all.v[i], '$')) {
			ret = words_add(grub_only, all.v[i]);
			continue;
		}
		n += (size_t)sprintf(k + n, "%s%s", n ? " " : "", all.v[i]);
	}
	words_free(&all);
	if (ret) {
		free(k);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	*kernel = k;
	return 0;
}

int arm_grub_base(const struct arm_opts *o, char **base, struct bt_error *e)
{
	struct grub_files g;
	struct grub_cfg c = { 0 };
	struct words grub_only;
	int ret;

	if (grub_files(o, &g, e))
		return -1;
	words_init(&grub_only);
	ret = grub_load_cfg(&g, &c, e);
	if (!ret)
		ret = grub_line_words(g.cfg, &c, base, &grub_only, e);
	words_free(&grub_only);
	free(c.text);
	grub_files_free(&g);
	return ret;
}

/* The one-shot entry: the default entry's body with the linux line's arguments replaced. */
static char *grub_entry_text(const struct grub_cfg *c, const char *line,
			     const struct words *grub_only, struct bt_error *e)
{
	struct words kw;
	char *out = NULL, *cw;
	size_t olen = 0, i;
	FILE *f;
	int bad = 0;

	words_init(&kw);
	if (words_split(&kw, line) || !(f = open_memstream(&out, &olen))) {
		words_free(&kw);
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		return NULL;
	}
	fputs("# boottrace arm-boot: the one-shot entry of the next boot (boottrace disarm-boot removes it)\n"
	      "menuentry 'boottrace one-shot' --id " GRUB_ENTRY_ID " {\n", f);
	fwrite(c->text + c->en.body, 1, c->en.args - c->en.body, f);
	for (i = 0; i < kw.n && !bad; i++) {
		if (emit_grub_cfg_word(kw.v[i], &cw, e)) {
			bad = 1;
			break;
		}
		fprintf(f, "%s%s", i ? " " : "", cw);
		free(cw);
	}
	for (i = 0; i < grub_only->n; i++)
		fprintf(f, " %s", grub_only->v[i]);
	fwrite(c->text + c->en.lin_end, 1, c->en.close - c->en.lin_end, f);
	fputs("}\n", f);
	words_free(&kw);
	if (fclose(f) || bad) {
		if (!bad)
			bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		free(out);
		return NULL;
	}
	return out;
}

/* ---- the environment block ------------------------------------------ */

/* The end of the variables: where the trailing '#' padding starts. */
static size_t grubenv_used(const char *b, size_t len)
{
	size_t end = len;

	while (end > 0 && b[end - 1] == '#')
		end--;
	return end;
}

/*
 * The block @b (NULL: a new one) with NAME=VAL set, as GRUB's envblk does:
 * an existing line replaced, else the line added after the last one, the
 * '#' padding shortened or lengthened to keep the block's size. For a
 * machine without grub-editenv.
 */
static int grubenv_set(const char *path, const char *b, size_t len,
		       const char *name, const char *val, char **out,
		       struct bt_error *e)
{
	static const char fresh[] = GRUBENV_SIG "# WARNING: Do not edit this file by tools other than grub-editenv!!!\n";
	size_t nl = strlen(name), used, at = 0, old = 0, add;
	char *o, *p;

	if (!b) {
		b = fresh;
		len = GRUBENV_SIZE;
		used = sizeof(fresh) - 1;
	} else {
		if (len != GRUBENV_SIZE || memcmp(b, GRUBENV_SIG, sizeof(GRUBENV_SIG) - 1))
			return bt_error_set(e, BT_EXIT_INPUT, path, "is not a GRUB environment block (%zu bytes, GRUB's are %d and start with '# GRUB Environment Block'): check it with grub-editenv list", len, GRUBENV_SIZE);
		used = grubenv_used(b, len);
	}
	for (p = (char *)b; p < b + used; p = memchr(p, '\n', (size_t)(b + used - p)) + 1) {
		if (!memchr(p, '\n', (size_t)(b + used - p)))
			break;
		if (!strncmp(p, name, nl) && p[nl] == '=') {
			at = (size_t)(p - b);
			old = (size_t)((char *)memchr(p, '\n', (size_t)(b + used - p)) - p) + 1;
			break;
		}
	}
	if (!old)
		at = used;
	add = nl + 1 + strlen(val) + 1;
	if (used - old + add > len)
		return bt_error_set(e, BT_EXIT_INPUT, path, "has no room for %s=%s (the block is %zu bytes): remove a variable with grub-editenv unset", name, val, len);
	o = malloc(len + 1);
	if (!o)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	memcpy(o, b, at);
	sprintf(o + at, "%s=%s\n", name, val);
	memcpy(o + at + add, b + at + old, used - at - old);
	memset(o + used - old + add, '#', len - (used - old + add));
	o[len] = 0;
	*out = o;
	return 0;
}

/* The block with next_entry set: by grub-editenv when installed. */
static int grubenv_armed(const char *path, const char *orig, size_t olen,
			 char **out, size_t *outlen, struct bt_error *e)
{
	char tdir[] = "/tmp/boottrace-grubenv.XXXXXX", *tmp = NULL;
	char *create[] = { "grub-editenv", NULL, "create", NULL };
	char *set[] = { "grub-editenv", NULL, "set", "next_entry=" GRUB_ENTRY_ID, NULL };
	struct arm_item it = { 0 };
	FILE *f;
	int ret = -1;

	if (!arm_have("grub-editenv")) {
		bt_say(NULL, BT_SAY_NOTE, "grub-editenv is not installed: the environment block is written by boottrace (GRUB's format)");
		*outlen = GRUBENV_SIZE;
		return grubenv_set(path, orig, olen, "next_entry", GRUB_ENTRY_ID, out, e);
	}
	if (!mkdtemp(tdir) || asprintf(&tmp, "%s/grubenv", tdir) < 0)
		return bt_error_errno(e, errno, NULL, "cannot make a temporary directory in /tmp for grub-editenv");
	create[1] = set[1] = tmp;
	if (orig) {
		f = fopen(tmp, "wbx");
		if (!f || fwrite(orig, 1, olen, f) != olen || fclose(f)) {
			bt_error_errno(e, errno, tmp, "cannot write a copy of the environment block");
			goto out;
		}
	} else if (arm_run(create, "grub-common", NULL, NULL, e)) {
		goto out;
	}
	if (arm_run(set, "grub-common", NULL, NULL, e))
		goto out;
	it.path = tmp;
	ret = arm_item_read(&it, out, outlen, e);
out:
	unlink(tmp);
	rmdir(tdir);
	free(tmp);
	return ret;
}

/* The variable lines of a block, next_entry's left out; *@next its value or NULL. */
static char *grubenv_vars(const char *b, size_t len, const char **next, size_t *nlen)
{
	size_t used = grubenv_used(b, len), n = 0;
	const char *p, *q;
	char *v = malloc(used + 1);

	*next = NULL;
	*nlen = 0;
	if (!v)
		return NULL;
	for (p = b; p < b + used; p = q + 1) {
		q = memchr(p, '\n', (size_t)(b + used - p));
		if (!q)
			q = b + used;
		if (*p == '#')
			continue;
		if (!strncmp(p, "next_entry=", 11)) {
			*next = p + 11;
			*nlen = (size_t)(q - p - 11);
			continue;
		}
		memcpy(v + n, p, (size_t)(q - p) + (q < b + used));
		n += (size_t)(q - p) + (q < b + used);
	}
	v[n] = 0;
	return v;
}

int arm_grub_consumed(const struct arm_state *s, size_t i, const char *cur,
		      size_t len)
{
	const struct arm_item *it = &s->v[i];
	const char *na, *nc;
	size_t la, lc;
	char *va, *vc;
	int ok;

	if (!cur || !it->armed || i != 1)	/* 0 custom.cfg, 1 grubenv (arm_grub) */
		return 0;
	va = grubenv_vars(it->armed, it->armed_len, &na, &la);
	vc = grubenv_vars(cur, len, &nc, &lc);
	ok = va && vc && !strcmp(va, vc) && (!nc || !lc);
	free(va);
	free(vc);
	return ok;
}

int arm_grub(const struct arm_opts *o, const char *line, struct arm_state *s,
	     struct bt_error *e)
{
	struct grub_files g;
	struct grub_cfg c = { 0 };
	struct words grub_only;
	struct arm_item *custom, *env;
	char *entry = NULL, *base = NULL;
	int ret = -1;

	if (grub_files(o, &g, e))
		return -1;
	words_init(&grub_only);
	if (grub_load_cfg(&g, &c, e) || grub_line_words(g.cfg, &c, &base, &grub_only, e))
		goto out;
	if (!(entry = grub_entry_text(&c, line, &grub_only, e)))
		goto out;
	if (!(custom = arm_state_add(s, g.custom, e)) ||
	    arm_item_read(custom, &custom->orig, &custom->orig_len, e))
		goto out;
	if (custom->orig && strstr(custom->orig, "--id " GRUB_ENTRY_ID " ")) {
		bt_error_set(e, BT_EXIT_INPUT, g.custom, "already has the entry %s of an earlier arm-boot whose state is gone: remove that entry by hand, then arm again", GRUB_ENTRY_ID);
		goto out;
	}
	custom->existed = custom->orig != NULL;
	custom->armed_len = custom->orig_len + (custom->orig_len && custom->orig[custom->orig_len - 1] != '\n') + strlen(entry);
	custom->armed = malloc(custom->armed_len + 1);
	if (!custom->armed) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	snprintf(custom->armed, custom->armed_len + 1, "%.*s%s%s", (int)custom->orig_len,
		 custom->orig ? custom->orig : "",
		 custom->orig_len && custom->orig[custom->orig_len - 1] != '\n' ? "\n" : "", entry);
	if (!(env = arm_state_add(s, g.env, e)) ||
	    arm_item_read(env, &env->orig, &env->orig_len, e))
		goto out;
	env->existed = env->orig != NULL;
	ret = grubenv_armed(g.env, env->orig, env->orig_len, &env->armed, &env->armed_len, e);
out:
	words_free(&grub_only);
	free(entry);
	free(base);
	free(c.text);
	grub_files_free(&g);
	return ret;
}
