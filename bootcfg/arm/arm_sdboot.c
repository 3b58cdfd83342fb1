// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm.h, systemd-boot: a loader entry boottrace-oneshot.conf, a copy of the
 * default entry with the one-shot options line, and the EFI variable
 * LoaderEntryOneShot naming it. systemd-boot boots the entry the variable
 * names and deletes the variable as it reads it (docs/arm-boot.md), so the
 * reset after is the normal boot; the entry file stays until disarm-boot.
 *
 * The variable is written as an efivarfs file (4 bytes of attributes, then
 * the UTF-16LE name and its NUL), not by `bootctl set-oneshot`: the bytes
 * are known before anything is written (saved in the state first, as for
 * GRUB), the same code runs on a scratch --efivars directory in the tests,
 * and bootctl refuses to run on a system not booted by systemd-boot.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arm/arm.h"
#include "kernel/words.h"
#include "util/readfile.h"

#define SDB_ENTRY "boottrace-oneshot.conf"
/* EFI_VARIABLE_NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS */
#define SDB_ATTRS 0x7u

struct sdb_files {
	char *esp, *conf, *entries, *oneshot, *var, *vardefault;
};

static void sdb_files_free(struct sdb_files *f)
{
	free(f->esp);
	free(f->conf);
	free(f->entries);
	free(f->oneshot);
	free(f->var);
	free(f->vardefault);
}

static int sdb_isdir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The ESP (or XBOOTLDR) under ROOT: --esp, else the first of /efi, /boot,
 * /boot/efi (the order bootctl looks for the ESP in) with loader/entries.
 */
static int sdb_files(const struct arm_opts *o, struct sdb_files *f,
		     struct bt_error *e)
{
	static const char *const cand[] = { "/efi", "/boot", "/boot/efi" };
	char *ent = NULL;
	size_t i;

	memset(f, 0, sizeof(*f));
	if (o->esp) {
		f->esp = arm_path(o->root, o->esp);
	} else {
		for (i = 0; i < sizeof(cand) / sizeof(cand[0]) && !f->esp; i++) {
			char *d = arm_path(o->root, cand[i]);

			if (!d || asprintf(&ent, "%s/loader/entries", d) < 0) {
				free(d);
				return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			}
			if (sdb_isdir(ent))
				f->esp = d;
			else
				free(d);
			free(ent);
		}
		if (!f->esp)
			return bt_error_set(e, BT_EXIT_INPUT, NULL, "no loader/entries directory in /efi, /boot or /boot/efi%s%s: give the ESP (or XBOOTLDR) with --esp DIR", o->root ? " under " : "", o->root ? o->root : "");
	}
	if (!f->esp || asprintf(&f->conf, "%s/loader/loader.conf", f->esp) < 0 ||
	    asprintf(&f->entries, "%s/loader/entries", f->esp) < 0 ||
	    asprintf(&f->oneshot, "%s/" SDB_ENTRY, f->entries) < 0)
		goto oom;
	ent = arm_path(o->root, o->efivars ? o->efivars : ARM_EFIVARS);
	if (!ent)
		goto oom;
	if (asprintf(&f->var, "%s/LoaderEntryOneShot-" ARM_SDB_GUID, ent) < 0 ||
	    asprintf(&f->vardefault, "%s/LoaderEntryDefault-" ARM_SDB_GUID, ent) < 0) {
		free(ent);
		goto oom;
	}
	if (!sdb_isdir(ent)) {
		bt_error_set(e, BT_EXIT_INPUT, ent, "is not a directory: no EFI variables (not booted with UEFI, or efivarfs not mounted: mount -t efivarfs efivarfs /sys/firmware/efi/efivars); give --efivars DIR");
		free(ent);
		return -1;
	}
	free(ent);
	if (!sdb_isdir(f->entries))
		return bt_error_set(e, BT_EXIT_INPUT, f->entries, "is not a directory: --esp must be the ESP or XBOOTLDR partition holding systemd-boot's loader/entries");
	return 0;
oom:
	return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
}

/*
 * A line "KEY VALUE" of a loader.conf or an entry: the key and value spans.
 * systemd-boot removes a '"' at both ends of the value.
 */
static int sdb_kv(const char *l, const char *end, const char **k, size_t *kl,
		  const char **v, size_t *vl)
{
	while (l < end && (*l == ' ' || *l == '\t'))
		l++;
	while (end > l && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	if (l == end || *l == '#')
		return 0;
	*k = l;
	while (l < end && *l != ' ' && *l != '\t')
		l++;
	*kl = (size_t)(l - *k);
	while (l < end && (*l == ' ' || *l == '\t'))
		l++;
	*v = l;
	*vl = (size_t)(end - l);
	return 1;
}

static int sdb_key_is(const char *k, size_t kl, const char *name)
{
	return kl == strlen(name) && !memcmp(k, name, kl);
}

/* The pattern of loader.conf's last "default" line, malloc'd, or NULL. */
static int sdb_conf_default(const char *conf, char **pat, struct bt_error *e)
{
	const char *l, *nl, *k, *v;
	size_t len, kl, vl;
	char *t;

	*pat = NULL;
	if (access(conf, F_OK) < 0)
		return 0;
	t = readfile(conf, 1 << 20, 0, "loader.conf", &len, e);
	if (!t)
		return -1;
	for (l = t; l < t + len; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(t + len - l));
		if (!nl)
			nl = t + len;
		if (!sdb_kv(l, nl, &k, &kl, &v, &vl) || !sdb_key_is(k, kl, "default"))
			continue;
		if (vl > 1 && v[0] == '"' && v[vl - 1] == '"')
			v++, vl -= 2;
		free(*pat);
		if (!(*pat = strndup(v, vl))) {
			free(t);
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		}
	}
	free(t);
	return 0;
}

int arm_efivar_string(const char *path, char **out, struct bt_error *e)
{
	char *b;
	size_t len, i, n = 0;

	*out = NULL;
	if (access(path, F_OK) < 0)
		return 0;
	b = readfile(path, 65536, 0, "an EFI variable", &len, e);
	if (!b)
		return -1;
	if (len < 4 || (len - 4) % 2) {
		free(b);
		return bt_error_set(e, BT_EXIT_INPUT, path, "is %zu bytes: not an EFI variable holding a UTF-16 string (4 bytes of attributes, then 2 bytes a character)", len);
	}
	if (!(*out = malloc((len - 4) / 2 + 1))) {
		free(b);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	for (i = 4; i + 1 < len; i += 2) {
		unsigned c = (unsigned char)b[i] | (unsigned)(unsigned char)b[i + 1] << 8;

		if (!c)
			break;
		if (c > 0x7e || c < 0x20) {
			free(b);
			free(*out);
			*out = NULL;
			return bt_error_set(e, BT_EXIT_INPUT, path, "holds a character U+%04X at offset %zu that is not printable ASCII: arm-boot takes entry names in ASCII only", c, i);
		}
		(*out)[n++] = (char)c;
	}
	(*out)[n] = 0;
	free(b);
	return 0;
}

static void sdb_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* The entries (file names ending in .conf, ours left out), sorted by name. */
static int sdb_list(const char *dir, struct words *w, struct bt_error *e)
{
	struct dirent *d;
	size_t n;
	DIR *dp = opendir(dir);

	if (!dp)
		return bt_error_errno(e, errno, dir, "cannot list the loader entries");
	while ((d = readdir(dp))) {
		n = strlen(d->d_name);
		if (n <= 5 || strcmp(d->d_name + n - 5, ".conf") || !strcmp(d->d_name, SDB_ENTRY))
			continue;
		if (words_add(w, d->d_name)) {
			closedir(dp);
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		}
	}
	closedir(dp);
	return 0;
}

/*
 * The one entry of @w the default pattern @pat (from the file @from)
 * matches, as systemd-boot matches it: a glob against the lower-cased IDs.
 * 1 found (*@name), 0 none, -1 with @e: the pattern is @saved (resolved by
 * the loader at boot), or it matches several entries (then the first as
 * systemd-boot sorts them is taken, an order arm-boot does not reproduce).
 */
static int sdb_match(char *pat, const char *from, const struct words *w,
		     char **name, struct bt_error *e)
{
	char matches[512] = "", *id;
	size_t i, hits = 0, at = 0;

	if (pat[0] == '@')
		return bt_error_set(e, BT_EXIT_INPUT, from, "sets the default entry to %s, which systemd-boot resolves at boot (not done): give --entry ID", pat);
	sdb_lower(pat);
	for (i = 0; i < w->n; i++) {
		if (!(id = strdup(w->v[i])))
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		sdb_lower(id);
		if (!fnmatch(pat, id, 0)) {
			hits++;
			at = i;
			snprintf(matches + strlen(matches), sizeof(matches) - strlen(matches), " %s", w->v[i]);
		}
		free(id);
	}
	if (!hits)
		return 0;
	if (hits > 1)
		return bt_error_set(e, BT_EXIT_INPUT, from, "names the default entry %s, which matches %zu entries (%s): which systemd-boot takes depends on its sort order, which arm-boot does not reproduce: give --entry ID", pat, hits, matches + 1);
	if (!(*name = strdup(w->v[at])))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	return 1;
}

/*
 * The default entry's file name: --entry; else the entry the pattern of
 * the variable LoaderEntryDefault (bootctl set-default) matches, else the
 * one loader.conf's default matches (systemd-boot 252 goes on to the next
 * when a pattern matches no entry); else the only entry. *@by_default: 0
 * when it is the only entry for want of a default.
 */
static int sdb_pick(const struct arm_opts *o, const struct sdb_files *f,
		    char **name, int *by_default, struct bt_error *e)
{
	struct words w;
	char *pat = NULL;
	size_t i;
	int ret = -1, r = 0;

	*name = NULL;
	*by_default = 1;
	words_init(&w);
	if (sdb_list(f->entries, &w, e))
		goto out;
	if (o->entry) {
		size_t n = strlen(o->entry);

		/* the ID is the file name; ".conf" may be left out */
		for (i = 0; i < w.n; i++)
			if (!strcmp(w.v[i], o->entry) ||
			    (strlen(w.v[i]) == n + 5 && !strncmp(w.v[i], o->entry, n)))
				break;
		if (i == w.n) {
			bt_error_set(e, BT_EXIT_INPUT, f->entries, "has no entry %s (.conf): give --entry one of the files there", o->entry);
			goto out;
		}
		ret = (*name = strdup(w.v[i])) ? 0 : bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if (arm_efivar_string(f->vardefault, &pat, e))
		goto out;
	if (pat && (r = sdb_match(pat, f->vardefault, &w, name, e)) < 0)
		goto out;
	free(pat);
	pat = NULL;
	if (!r && sdb_conf_default(f->conf, &pat, e))
		goto out;
	if (!r && pat && (r = sdb_match(pat, f->conf, &w, name, e)) < 0)
		goto out;
	if (r) {
		ret = 0;
		goto out;
	}
	*by_default = 0;
	if (w.n != 1) {
		bt_error_set(e, BT_EXIT_INPUT, f->entries, w.n ? "has %zu entries and no default that matches one (LoaderEntryDefault, loader.conf's default): which systemd-boot boots depends on its sort order, which arm-boot does not reproduce: give --entry ID, or set default in loader.conf" :
				"has no loader entry (%zu files NAME.conf): arm-boot makes its one-shot entry from the default entry; give --esp the partition that holds them", w.n);
		goto out;
	}
	ret = (*name = strdup(w.v[0])) ? 0 : bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
out:
	if (ret) {
		free(*name);
		*name = NULL;
	}
	free(pat);
	words_free(&w);
	return ret;
}

struct sdb_entry {
	char *path, *text;
	size_t len;
	int has_sort_key;
};

/* The default entry, read, and its options lines' words joined (@base). */
static int sdb_load(const struct arm_opts *o, const struct sdb_files *f,
		    struct sdb_entry *en, char **base, int *by_default,
		    struct bt_error *e)
{
	const char *l, *nl, *k, *v;
	size_t kl, vl, n = 0;
	char *name;

	memset(en, 0, sizeof(*en));
	if (sdb_pick(o, f, &name, by_default, e))
		return -1;
	if (asprintf(&en->path, "%s/%s", f->entries, name) < 0) {
		free(name);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	free(name);
	en->text = readfile(en->path, 1 << 20, 0, "a loader entry", &en->len, e);
	if (!en->text)
		return -1;
	if (!(*base = malloc(en->len + 1)))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	for (l = en->text; l < en->text + en->len; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(en->text + en->len - l));
		if (!nl)
			nl = en->text + en->len;
		if (!sdb_kv(l, nl, &k, &kl, &v, &vl))
			continue;
		if (sdb_key_is(k, kl, "sort-key"))
			en->has_sort_key = 1;
		if (!sdb_key_is(k, kl, "options") || !vl)
			continue;
		/* systemd-boot joins the options lines with one space */
		n += (size_t)sprintf(*base + n, "%s%.*s", n ? " " : "", (int)vl, v);
	}
	(*base)[n] = 0;
	return 0;
}

static void sdb_entry_free(struct sdb_entry *en)
{
	free(en->path);
	free(en->text);
}

int arm_sdboot_base(const struct arm_opts *o, char **base, struct bt_error *e)
{
	struct sdb_files f;
	struct sdb_entry en = { 0 };
	int by_default, ret;

	*base = NULL;
	ret = sdb_files(o, &f, e);
	if (!ret)
		ret = sdb_load(o, &f, &en, base, &by_default, e);
	if (!ret && bt_verbose())
		bt_say(en.path, BT_SAY_PLAIN, "the default entry");
	if (ret) {
		free(*base);
		*base = NULL;
	}
	sdb_entry_free(&en);
	sdb_files_free(&f);
	return ret;
}

/*
 * The one-shot entry: the default entry with the title marked, its first
 * options line the one-shot line and its other options lines and sort-key
 * left out. Without a sort-key it sorts after the entries that have one
 * (systemd-boot's order), so it never becomes the default of a reset.
 */
static char *sdb_entry_text(const struct sdb_entry *en, const char *line,
			    struct bt_error *e)
{
	const char *l, *nl, *k, *v;
	size_t kl, vl, olen = 0;
	char *out = NULL;
	int opt = 0;
	FILE *f = open_memstream(&out, &olen);

	if (!f) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		return NULL;
	}
	fprintf(f, "# boottrace arm-boot: the one-shot entry of the next boot, made from %s (boottrace disarm-boot removes it)\n", strrchr(en->path, '/') + 1);
	for (l = en->text; l < en->text + en->len; l = nl + 1) {
		nl = memchr(l, '\n', (size_t)(en->text + en->len - l));
		if (!nl)
			nl = en->text + en->len;
		if (sdb_kv(l, nl, &k, &kl, &v, &vl)) {
			if (sdb_key_is(k, kl, "sort-key"))
				continue;
			if (sdb_key_is(k, kl, "options")) {
				if (!opt++)
					fprintf(f, "options %s\n", line);
				continue;
			}
			if (sdb_key_is(k, kl, "title")) {
				fprintf(f, "title boottrace one-shot: %.*s\n", (int)vl, v);
				continue;
			}
		}
		fwrite(l, 1, (size_t)(nl - l), f);
		fputc('\n', f);
	}
	if (!opt)
		fprintf(f, "options %s\n", line);
	if (fclose(f)) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		free(out);
		return NULL;
	}
	return out;
}

/* The efivarfs bytes of LoaderEntryOneShot naming our entry. */
static char *sdb_var_bytes(size_t *len)
{
	static const char name[] = SDB_ENTRY;
	size_t i, n = sizeof(name);	/* with its NUL */
	char *b = malloc(4 + 2 * n);

	if (!b)
		return NULL;
	b[0] = (char)SDB_ATTRS;
	b[1] = b[2] = b[3] = 0;
	for (i = 0; i < n; i++) {
		b[4 + 2 * i] = name[i];
		b[5 + 2 * i] = 0;
	}
	*len = 4 + 2 * n;
	return b;
}

int arm_sdboot(const struct arm_opts *o, const char *line, struct arm_state *s,
	       struct bt_error *e)
{
	struct sdb_files f;
	struct sdb_entry en = { 0 };
	struct arm_item *ent, *var;
	char *base = NULL, *cur = NULL, *lc = NULL;
	size_t i, len = strlen(line);
	int by_default, ret = -1;

	if (sdb_files(o, &f, e))
		goto out;
	for (i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f) {
			bt_error_set(e, BT_EXIT_INPUT, NULL, "the line has a control character (0x%02x) at byte %zu, which an entry's options line cannot hold", (unsigned char)line[i], i);
			goto out;
		}
	/* systemd-boot removes a '"' at both ends of a value (emit_bls) */
	if (len > 1 && line[0] == '"' && line[len - 1] == '"') {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "the options line would begin and end with '\"' (%s), which systemd-boot removes as quotes around the whole value: put another word first or last", line);
		goto out;
	}
	if (sdb_load(o, &f, &en, &base, &by_default, e))
		goto out;
	if (!by_default && !en.has_sort_key) {
		/*
		 * The only entry, and no default set: systemd-boot boots the
		 * first as it sorts them, IDs descending where no entry has a
		 * sort-key; ours must not come first.
		 */
		lc = strdup(strrchr(en.path, '/') + 1);
		if (!lc) {
			bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			goto out;
		}
		sdb_lower(lc);
		if (strverscmp(SDB_ENTRY, lc) > 0) {
			bt_error_set(e, BT_EXIT_INPUT, en.path, "is the only entry, has no sort-key and no default is set: %s would sort before it and be booted on every reset; set 'default %s' in %s first", SDB_ENTRY, strrchr(en.path, '/') + 1, f.conf);
			goto out;
		}
	}
	if (arm_efivar_string(f.var, &cur, e))
		goto out;
	if (cur) {
		bt_error_set(e, BT_EXIT_INPUT, f.var, "is set (to %s): a one-shot entry is armed already (bootctl set-oneshot); arm-boot does not replace it: remove it (chattr -i, rm) or boot it first", cur);
		goto out;
	}
	if (!(ent = arm_state_add(s, f.oneshot, e)) ||
	    arm_item_read(ent, &ent->orig, &ent->orig_len, e))
		goto out;
	if (ent->orig) {
		bt_error_set(e, BT_EXIT_INPUT, f.oneshot, "exists: the entry of an earlier arm-boot whose state is gone; remove it by hand, then arm again");
		goto out;
	}
	if (!(ent->armed = sdb_entry_text(&en, line, e)))
		goto out;
	ent->armed_len = strlen(ent->armed);
	if (!(var = arm_state_add(s, f.var, e)))
		goto out;
	var->efivar = 1;
	if (!(var->armed = sdb_var_bytes(&var->armed_len))) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	ret = 0;
out:
	free(cur);
	free(lc);
	free(base);
	sdb_entry_free(&en);
	sdb_files_free(&f);
	return ret;
}

int arm_sdboot_consumed(const struct arm_state *s, size_t i, const char *cur)
{
	/* 0 the entry, 1 the variable (arm_sdboot): systemd-boot deletes it */
	return i == 1 && s->v[i].efivar && !cur;
}
