/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Modules under a directory (kimage.h): *.ko read in place by libelf, and
 * *.ko.xz (liblzma), *.ko.zst (libzstd), *.ko.gz (kgzip.c) unpacked in memory,
 * as the kernel's MODULE_COMPRESS_* options write them.
 */
#include <dirent.h>
#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "kimage/kgzip.h"
#include "kimage/kimage.h"
#include "util/grow.h"
#include "util/readfile.h"

/* The biggest module unpacked: far above any real one, below a bomb. */
#define MOD_MAX ((size_t)256 << 20)

enum modz { MZ_NONE, MZ_XZ, MZ_ZST, MZ_GZ, MZ_NOTMOD };

static enum modz mod_kind(const char *name)
{
	const char *ko = strstr(name, ".ko");

	while (ko && strstr(ko + 1, ".ko"))
		ko = strstr(ko + 1, ".ko");
	if (!ko || ko == name)
		return MZ_NOTMOD;
	if (!strcmp(ko, ".ko"))
		return MZ_NONE;
	if (!strcmp(ko, ".ko.xz"))
		return MZ_XZ;
	if (!strcmp(ko, ".ko.zst"))
		return MZ_ZST;
	if (!strcmp(ko, ".ko.gz"))
		return MZ_GZ;
	return MZ_NOTMOD;
}

static int mod_grow(unsigned char **out, size_t *cap, const char *path,
		    struct bt_error *e)
{
	if (*cap >= MOD_MAX)
		return bt_error_set(e, BT_EXIT_INPUT, path, "unpacks to more than %zu MB: not a kernel module", MOD_MAX >> 20);
	/* doubling from 1 MB: a module's size is not known before it is unpacked */
	if (BT_GROW(*out, *cap ? *cap * 2 : (size_t)1 << 20, *cap) < 0)
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	return 0;
}

static int mod_bad(const char *path, const char *fmt, struct bt_error *e)
{
	return bt_error_set(e, BT_EXIT_INPUT, path, "cannot unpack: not a valid %s stream (expected a compressed kernel module)", fmt);
}

static int mod_unxz(const unsigned char *in, size_t len, unsigned char **out,
		    size_t *olen, const char *path, struct bt_error *e)
{
	lzma_stream s = LZMA_STREAM_INIT;
	size_t cap = 0;
	lzma_ret r;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return bt_error_set(e, BT_EXIT_ENV, path, "liblzma: out of memory");
	s.next_in = in;
	s.avail_in = len;
	do {
		if (s.avail_out == 0) {
			if (mod_grow(out, &cap, path, e)) {
				lzma_end(&s);
				return -1;
			}
			s.next_out = *out + s.total_out;
			s.avail_out = cap - s.total_out;
		}
		r = lzma_code(&s, LZMA_FINISH);
	} while (r == LZMA_OK);
	*olen = s.total_out;
	lzma_end(&s);
	return r == LZMA_STREAM_END ? 0 : mod_bad(path, "xz", e);
}

static int mod_unzstd(const unsigned char *in, size_t len, unsigned char **out,
		      size_t *olen, const char *path, struct bt_error *e)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, len, 0 };
	ZSTD_outBuffer ob = { NULL, 0, 0 };
	size_t cap = 0, r = 1;

	if (!z)
		return bt_error_set(e, BT_EXIT_ENV, path, "libzstd: out of memory");
	while (r != 0) {
		if (ob.pos == ob.size) {
			if (mod_grow(out, &cap, path, e)) {
				ZSTD_freeDStream(z);
				return -1;
			}
			ob.dst = *out;
			ob.size = cap;
		}
		r = ZSTD_decompressStream(z, &ob, &ib);
		if (ZSTD_isError(r) || (ib.pos == ib.size && ob.pos < ob.size && r)) {
			ZSTD_freeDStream(z);
			return mod_bad(path, "zstd", e);
		}
	}
	ZSTD_freeDStream(z);
	*olen = ob.pos;
	return 0;
}

/* Doubling as the module's other formats do, once the output is full. */
static int mod_ungz_room(struct kbuf *o, void *ctx, struct bt_error *e)
{
	const char *const *path = ctx;

	return o->n == o->cap && mod_grow(&o->p, &o->cap, *path, e) ? -1 : 0;
}

static int mod_ungz(const unsigned char *in, size_t len, unsigned char **out,
		    size_t *olen, const char *path, struct bt_error *e)
{
	struct kbuf o = { NULL, 0, 0 };
	size_t used;
	enum kgz_end r = kgz_inflate(in, len, &o, mod_ungz_room, &path, &used, e);

	*out = o.p;
	*olen = o.n;
	if (r == KGZ_ERR)
		return -1;
	if (r == KGZ_NOSTART)
		return bt_error_set(e, BT_EXIT_ENV, path, "zlib: out of memory");
	return r == KGZ_END ? 0 : mod_bad(path, "gzip", e);
}

char *kmodules_read(const char *path, size_t *len, struct bt_error *e)
{
	enum modz k = mod_kind(path);
	unsigned char *out = NULL;
	size_t n;
	char *raw;
	int ret;

	/* readfile allocates what the file holds, not its limit */
	raw = readfile(path, MOD_MAX, 0, "a kernel module", &n, e);
	if (!raw)
		return NULL;
	if (k == MZ_NONE || k == MZ_NOTMOD) {
		*len = n;
		return raw;
	}
	if (k == MZ_XZ)
		ret = mod_unxz((unsigned char *)raw, n, &out, len, path, e);
	else if (k == MZ_ZST)
		ret = mod_unzstd((unsigned char *)raw, n, &out, len, path, e);
	else
		ret = mod_ungz((unsigned char *)raw, n, &out, len, path, e);
	free(raw);
	if (ret) {
		free(out);
		return NULL;
	}
	return (char *)out;
}

/* bonding.ko.xz -> "bonding"; the kernel spells '-' as '_' in module names. */
static void mod_name(const char *base, char *name, size_t cap)
{
	size_t n = (size_t)(strstr(base, ".ko") - base);
	char *p;

	snprintf(name, cap, "%.*s", (int)n, base);
	for (p = name; *p; p++)
		if (*p == '-')
			*p = '_';
}

/*
 * The walk's bounds: a modules tree is 4 levels deep (kernel/drivers/net/
 * ethernet) and holds about 6000 modules in 600 directories on a
 * distribution kernel; far more is not a modules tree.
 */
#define WALK_DEPTH 16
#define WALK_DIRS  100000
#define WALK_MODS  200000

struct walk {
	const char *top;
	size_t mods, dirs;
	struct stat *seen;	/* the directories being walked, top first */
	size_t nseen, cap;
	kmodules_fn fn;
	void *ctx;
	struct bt_progress *prog;	/* NULL while counting */
};

/*
 * A symbolic link to a directory is not followed, as find(1) does not
 * (build and source point out of the tree), and a directory that is one of
 * the directories being walked (same device and inode: a bind mount of a
 * parent) is not entered again: no loop. 1: skip it.
 */
static int walk_enter(struct walk *w, const char *dir, int depth,
		      const struct stat *st, struct bt_error *e)
{
	size_t i;

	for (i = 0; i < w->nseen; i++)
		if (w->seen[i].st_dev == st->st_dev && w->seen[i].st_ino == st->st_ino)
			return 1;
	if (depth > WALK_DEPTH)
		return bt_error_set(e, BT_EXIT_INPUT, dir, "more than %d directories deep under %s: not a modules tree (give /lib/modules/VERSION)", WALK_DEPTH, w->top);
	if (++w->dirs > WALK_DIRS)
		return bt_error_set(e, BT_EXIT_INPUT, w->top, "more than %d directories: not a modules tree (give /lib/modules/VERSION)", WALK_DIRS);
	if (BT_GROW(w->seen, w->nseen + 1, w->cap) < 0)
		return bt_error_set(e, BT_EXIT_ENV, dir, "out of memory");
	w->seen[w->nseen++] = *st;
	return 0;
}

static int mod_walk(struct walk *w, const char *dir, int depth,
		    struct bt_error *e)
{
	DIR *d;
	struct dirent *de;
	char path[4096], name[256];
	struct stat st;
	int ret = 0;

	if (!(d = opendir(dir)))
		return bt_error_errno(e, errno, dir, "cannot open directory (expected a modules tree such as /lib/modules/VERSION)");
	if (fstat(dirfd(d), &st) || (ret = walk_enter(w, dir, depth, &st, e))) {
		closedir(d);
		return ret > 0 ? 0 : -1;
	}
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     de->d_name) >= sizeof(path))
			continue;
		if (lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			ret = mod_walk(w, path, depth + 1, e);
			continue;
		}
		/* a link to a module is followed; a link to a directory is not */
		if (mod_kind(de->d_name) == MZ_NOTMOD ||
		    (S_ISLNK(st.st_mode) && stat(path, &st)) || !S_ISREG(st.st_mode))
			continue;
		if (++w->mods > WALK_MODS) {
			ret = bt_error_set(e, BT_EXIT_INPUT, w->top, "more than %d modules: not a modules tree (give /lib/modules/VERSION)", WALK_MODS);
			break;
		}
		mod_name(de->d_name, name, sizeof(name));
		bt_progress_update(w->prog, w->mods - 1, name);
		ret = w->fn ? w->fn(w->ctx, path, name, e) : 0;
	}
	closedir(d);
	w->nseen--;
	return ret;
}

/* The modules under @dir, for the progress line's total (0: not known). */
static size_t mod_count(const char *dir)
{
	struct walk w = { .top = dir };
	struct bt_error ignore;	/* the walk proper says what is wrong */
	int ret = mod_walk(&w, dir, 0, &ignore);

	free(w.seen);
	return ret ? 0 : w.mods;
}

int kmodules_walk(const char *dir, kmodules_fn fn, void *ctx,
		  struct bt_progress *prog, const char *what,
		  struct bt_error *e)
{
	struct walk w = { .top = dir, .fn = fn, .ctx = ctx, .prog = prog };
	int ret;
	size_t count;

	/* counting costs a second walk of the directories: only when it is shown */
	if (bt_progress_on(prog))
		bt_progress_stage(prog, what, mod_count(dir));
	ret = mod_walk(&w, dir, 0, e);
	count = w.mods;
	free(w.seen);
	if (ret)
		return -1;
	if (!count)
		return bt_error_set(e, BT_EXIT_INPUT, dir, "no *.ko, *.ko.xz, *.ko.zst or *.ko.gz under this directory: expected a modules tree");
	return 0;
}

/* Plain modules are read in place (mmap); packed ones unpacked in memory. */
static int mod_load(void *ctx, const char *path, const char *name,
		    struct bt_error *e)
{
	struct ksyms *t = ctx;
	int mod = ksyms_module(t, name), ret;
	size_t len;
	char *buf;

	if (mod < 0)
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	if (mod_kind(path) == MZ_NONE)
		return ksyms_load_elf(t, path, mod, e);
	buf = kmodules_read(path, &len, e);
	if (!buf)
		return -1;
	ret = ksyms_load_elf_mem(t, buf, len, path, mod, e);
	free(buf);
	return ret;
}

int ksyms_load_modules(struct ksyms *t, const char *dir, struct bt_error *e)
{
	return kmodules_walk(dir, mod_load, t, t->progress, "reading modules", e);
}

/* ---- a module's init function ------------------------------------------- */

/*
 * module_init(fn) makes init_module an alias of fn (same section, same
 * address), and the module's struct module points its init at init_module
 * (docs/kernel-facts.md 83). The function at that address under another name is
 * the one the source calls its init; a module whose init is written as
 * init_module itself, or whose local symbols are stripped, has no other.
 */
const struct ksym *kmodules_init(const struct ksyms *t, int mod)
{
	const struct ksym *entry = NULL, *s;
	size_t i;

	for (i = 1; i < t->n && !entry; i++)
		if (t->sym[i].mod == mod && (t->sym[i].flags & KSYM_TEXT) &&
		    !(t->sym[i].flags & KSYM_LABEL) &&
		    !strcmp(t->sym[i].name, "init_module"))
			entry = &t->sym[i];
	if (!entry)
		return NULL;
	for (i = 1; i < t->n; i++) {
		s = &t->sym[i];
		if (s != entry && s->mod == mod && s->sec == entry->sec &&
		    s->addr == entry->addr && (s->flags & KSYM_TEXT) &&
		    !(s->flags & KSYM_LABEL) && strcmp(s->name, "init_module"))
			return s;
	}
	return entry;
}

int kmodules_init_file(const char *path, char *name, size_t cap,
		       uint64_t *size, struct bt_error *e)
{
	struct ksyms t;
	const struct ksym *s;
	int ret;

	memset(&t, 0, sizeof(t));
	if (mod_load(&t, path, "module", e)) {
		ksyms_free(&t);
		return -1;
	}
	s = kmodules_init(&t, 0);
	ret = s != NULL;
	if (s) {
		snprintf(name, cap, "%s", s->name);
		*size = s->size;
	}
	ksyms_free(&t);
	return ret;
}
