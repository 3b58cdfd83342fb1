/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Board profiles (board.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/board.h"
#include "kernel/tracefs.h"
#include "util/grow.h"
#include "util/source.h"

/* the Makefile's sysconfdir and PREFIX (docs/boards.md, "Where profiles are found") */
#ifndef BT_SYSCONF_BOARDS
#define BT_SYSCONF_BOARDS "/etc/boottrace/boards"
#endif
#ifndef BT_BOARDS_DIR
#define BT_BOARDS_DIR "/usr/local/share/boottrace/boards"
#endif

enum board_kind { BK_TEXT, BK_UINT, BK_FLAG };

struct board_key {
	const char *key;	/* below "board." */
	enum board_kind kind;
	size_t off, size;
};

#define TEXT(k, f) { k, BK_TEXT, offsetof(struct board, f), sizeof(((struct board *)0)->f) }
#define UINT(k, f) { k, BK_UINT, offsetof(struct board, f), 0 }
#define FLAG(k, f) { k, BK_FLAG, offsetof(struct board, f), 0 }

static const struct board_key board_keys[] = {
	TEXT("name", title),
	TEXT("arch", arch),
	TEXT("bootloader", bootloader),
	TEXT("console", console),
	TEXT("tracefs", tracefs),
	UINT("cmdline.max", cmdline_max),
	UINT("cmdline.loader", cmdline_loader),
	TEXT("cmdline.base", cmdline_base),
	UINT("uboot.cbsize", uboot_cbsize),
	UINT("uboot.max_words", uboot_max_words),
	TEXT("uboot.script", uboot_script),
	UINT("uboot.env.size", env_size),
	FLAG("uboot.env.redundant", env_redundant),
	FLAG("uboot.env.big_endian", env_big_endian),
	TEXT("pstore.address", pstore_address),
	UINT("pstore.size", pstore_size),
	TEXT("pstore.reserve", pstore_reserve),
	FLAG("quirks.ftrace_stack_zero", ftrace_stack_zero),
};

static const char *const bootloaders[] = {
	"u-boot", "bootoctlinux", "grub", "rpi", "qemu-direct", "kernel-install",
};

static int board_set(const struct source *s, int key, const struct board_key *k,
		     struct board *b, struct bt_error *e)
{
	int v = bconf_value_node(s->bc, key);
	const char *val = v == BCONF_NONE ? NULL : bconf_data(s->bc, v);
	char *at = (char *)b + k->off;
	char *end;
	unsigned long n;

	if (v != BCONF_NONE && bconf_is_array(s->bc, v))
		return source_error(s, key, e, BT_EXIT_INPUT,
				    "board.%s takes one value, not a list", k->key);
	switch (k->kind) {
	case BK_FLAG:
		if (val && *val && strcmp(val, "1") && strcmp(val, "0"))
			return source_error(s, key, e, BT_EXIT_INPUT,
					    "board.%s is a flag: write it alone, or = 0 / 1",
					    k->key);
		*(int *)at = !val || !*val || !strcmp(val, "1");
		return 0;
	case BK_UINT:
		errno = 0;
		n = val ? strtoul(val, &end, 0) : 0;
		if (!val || !*val || *end || errno || n > UINT_MAX || val[0] == '-')
			return source_error(s, key, e, BT_EXIT_INPUT,
					    "board.%s needs a number (decimal or 0x...)",
					    k->key);
		*(unsigned *)at = (unsigned)n;
		return 0;
	case BK_TEXT:
		if (!val || strlen(val) >= k->size)
			return source_error(s, key, e, BT_EXIT_INPUT,
					    "board.%s needs a value of at most %zu bytes",
					    k->key, k->size - 1);
		memcpy(at, val, strlen(val) + 1);
		return 0;
	}
	return 0;
}

static int board_read_key(const struct source *s, int leaf, struct board *b,
			  struct bt_error *e)
{
	char name[BCONF_KEYLEN_MAX + 1];
	size_t i;

	bconf_compose_key(s->bc, BCONF_NONE, leaf, name, sizeof(name));
	if (strncmp(name, "board.", 6))
		return source_error(s, leaf, e, BT_EXIT_INPUT,
				    "'%s': a board profile has only board.* keys",
				    name);
	for (i = 0; i < sizeof(board_keys) / sizeof(board_keys[0]); i++)
		if (!strcmp(name + 6, board_keys[i].key))
			return board_set(s, leaf, &board_keys[i], b, e);
	return source_error(s, leaf, e, BT_EXIT_INPUT,
			    "unknown board key '%s' (see boottrace.bconf(5), BOARD PROFILES)",
			    name);
}

/* pstore.*: all three or none; a page-aligned hex address and size. */
static int board_check_pstore(const struct source *s, const struct board *b,
			      struct bt_error *e)
{
	const char *a = b->pstore_address;
	char *end;
	unsigned long long addr;

	if (!a[0] && !b->pstore_size && !b->pstore_reserve[0])
		return 0;
	if (!a[0] || !b->pstore_size || !b->pstore_reserve[0])
		return bt_error_set(e, BT_EXIT_INPUT, s->path, "board.pstore needs address, size and reserve together");
	errno = 0;
	addr = strtoull(a, &end, 16);
	if (strncmp(a, "0x", 2) || *end || errno || (addr & 4095) || (b->pstore_size & 4095))
		return bt_error_set(e, BT_EXIT_INPUT, s->path, "board.pstore.address '%s' and size %u must be 0x... and whole 4096-byte pages", a, b->pstore_size);
	if (strcmp(b->pstore_reserve, "memmap") && strcmp(b->pstore_reserve, "firmware"))
		return bt_error_set(e, BT_EXIT_INPUT, s->path, "board.pstore.reserve '%s' is memmap (the kernel is told with memmap=SIZE$ADDR) or firmware (the firmware or device tree keeps the kernel out of it)", b->pstore_reserve);
	return 0;
}

static int board_check(const struct source *s, struct board *b,
		       struct bt_error *e)
{
	size_t i;

	if (b->cmdline_loader >= b->cmdline_max && b->cmdline_max)
		return bt_error_set(e, BT_EXIT_INPUT, s->path, "board.cmdline.loader (%u) leaves nothing of board.cmdline.max (%u)", b->cmdline_loader, b->cmdline_max);
	if (!b->arch[0] || !b->bootloader[0] || !b->cmdline_max)
		return bt_error_set(e, BT_EXIT_INPUT, s->path,
				    "a board profile needs board.arch, board.bootloader and board.cmdline.max");
	if (board_check_pstore(s, b, e))
		return -1;
	for (i = 0; i < sizeof(bootloaders) / sizeof(bootloaders[0]); i++)
		if (!strcmp(b->bootloader, bootloaders[i]))
			return 0;
	return bt_error_set(e, BT_EXIT_INPUT, s->path,
			    "board.bootloader '%s' is not one of u-boot, bootoctlinux, grub, rpi, qemu-direct, kernel-install",
			    b->bootloader);
}

static int board_from_source(const struct source *s, struct board *b,
			     struct bt_error *e)
{
	int leaf = BCONF_NONE;

	while ((leaf = bconf_next_leaf(s->bc, BCONF_NONE, leaf)) != BCONF_NONE)
		if (board_read_key(s, leaf, b, e))
			return -1;
	if (!b->tracefs[0])
		strcpy(b->tracefs, TRACEFS_MOUNT);
	return board_check(s, b, e);
}

/* Add @dir to @p unless it is there already; 0, or -1 when @p is full. */
static int path_add(struct board_path *p, const char *dir, size_t len,
		    enum board_from from)
{
	int i;

	if (!len || len >= sizeof(p->dir[0]))
		return 0;
	for (i = 0; i < p->n; i++)
		if (strlen(p->dir[i]) == len && !strncmp(p->dir[i], dir, len))
			return 0;
	if (p->n == BOARD_PATH_MAX)
		return -1;
	memcpy(p->dir[p->n], dir, len);
	p->dir[p->n][len] = '\0';
	p->from[p->n++] = from;
	return 0;
}

static int is_file(const char *path)
{
	return !access(path, R_OK);
}

void board_path(struct board_path *p)
{
	const char *env = getenv("BOOTTRACE_BOARDS");
	char exe[PATH_MAX], buf[PATH_MAX + 64];
	ssize_t n;
	char *slash;

	p->n = 0;
	/* $BOOTTRACE_BOARDS (BOOTTRACE_BOARD_DIR, its older name), a colon list */
	if (!env || !*env)
		env = getenv("BOOTTRACE_BOARD_DIR");
	while (env && *env) {
		const char *colon = strchr(env, ':');
		size_t len = colon ? (size_t)(colon - env) : strlen(env);

		path_add(p, env, len, BOARD_FROM_ENV);
		env = colon ? colon + 1 : NULL;
	}
	path_add(p, BT_SYSCONF_BOARDS, strlen(BT_SYSCONF_BOARDS), BOARD_FROM_ETC);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
	}
	/* run from a build tree (build/boottrace, build/asan-bin/boottrace): its board/ */
	if (n > 0 && slash) {
		snprintf(buf, sizeof(buf), "%s/../board/qemu-x86_64.bconf", exe);
		if (is_file(buf)) {
			snprintf(buf, sizeof(buf), "%s/../board", exe);
			if (realpath(buf, exe))
				path_add(p, exe, strlen(exe), BOARD_FROM_TREE);
			return;
		}
		snprintf(buf, sizeof(buf), "%s/../../board/qemu-x86_64.bconf", exe);
		if (is_file(buf)) {
			snprintf(buf, sizeof(buf), "%s/../../board", exe);
			if (realpath(buf, exe))
				path_add(p, exe, strlen(exe), BOARD_FROM_TREE);
			return;
		}
		/* installed as PREFIX/bin/boottrace: PREFIX/share/boottrace/boards,
		 * wherever PREFIX was moved (a DESTDIR, a relocated tree) */
		snprintf(buf, sizeof(buf), "%s/../share/boottrace/boards", exe);
		if (!access(buf, X_OK) && realpath(buf, exe))
			path_add(p, exe, strlen(exe), BOARD_FROM_PREFIX);
	}
	path_add(p, BT_BOARDS_DIR, strlen(BT_BOARDS_DIR), BOARD_FROM_PREFIX);
}

const char *board_path_text(const struct board_path *p, char *buf, size_t size)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < p->n && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i ? ":" : "", p->dir[i]);
	return buf;
}

static int board_is_path(const char *name)
{
	size_t n = strlen(name);

	return strchr(name, '/') || (n > 6 && !strcmp(name + n - 6, ".bconf"));
}

int board_load(const char *name, struct board *b, struct bt_error *e)
{
	struct board_path p;
	char text[1024];
	struct source s;
	const char *base;
	size_t n;
	int ret, i;

	memset(b, 0, sizeof(*b));
	if (board_is_path(name)) {
		snprintf(b->path, sizeof(b->path), "%s", name);
	} else {
		/* the first directory of the search path that has it */
		board_path(&p);
		for (i = 0; i < p.n; i++) {
			snprintf(b->path, sizeof(b->path), "%s/%s.bconf", p.dir[i], name);
			if (!access(b->path, R_OK))
				break;
		}
		if (i == p.n)
			return bt_error_set(e, BT_EXIT_INPUT, NULL,
					    "no board profile '%s' in %s: `boottrace boards` lists them, BOOTTRACE_BOARDS adds directories", name,
					    board_path_text(&p, text, sizeof(text)));
	}
	base = strrchr(b->path, '/');
	base = base ? base + 1 : b->path;
	n = strlen(base);
	if (n > 6 && !strcmp(base + n - 6, ".bconf"))
		n -= 6;
	if (n >= sizeof(b->name))
		n = sizeof(b->name) - 1;
	memcpy(b->name, base, n);
	b->name[n] = '\0';
	if (source_load(b->path, &s, e))
		return -1;
	ret = board_from_source(&s, b, e);
	source_free(&s);
	return ret;
}

/* the part of @path after its last '/' */
static const char *base_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int board_base_cmp(const void *a, const void *b)
{
	return strcmp(base_of(*(char *const *)a), base_of(*(char *const *)b));
}

/* Add the profiles of @d to @names, but a name already there from an earlier directory. */
static int board_list_dir(const char *d, int must, char ***names, size_t *n,
			  size_t *cap, struct bt_error *e)
{
	struct dirent *de;
	DIR *dp = opendir(d);
	size_t i;
	int ret = 0;

	if (!dp) {
		if (!must && (errno == ENOENT || errno == ENOTDIR))
			return 0;
		return bt_error_errno(e, errno, NULL, "cannot list board profiles in %s (from BOOTTRACE_BOARDS): give an existing directory", d);
	}
	while ((de = readdir(dp))) {
		size_t l = strlen(de->d_name);

		if (l <= 6 || strcmp(de->d_name + l - 6, ".bconf") ||
		    de->d_name[0] == '.')
			continue;
		for (i = 0; i < *n; i++)
			if (!strcmp(base_of((*names)[i]), de->d_name))
				break;
		if (i < *n)
			continue;	/* first directory wins */
		if (BT_GROW(*names, *n + 1, *cap) < 0) {
			ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			break;
		}
		(*names)[*n] = malloc(strlen(d) + l + 2);
		if (!(*names)[*n]) {
			ret = bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
			break;
		}
		sprintf((*names)[(*n)++], "%s/%s", d, de->d_name);
	}
	closedir(dp);
	return ret;
}

int board_each(struct board *b, int (*fn)(const struct board *b, void *ctx),
	       void *ctx, struct bt_error *e)
{
	struct board_path p;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int ret = 0, k;

	board_path(&p);
	for (k = 0; !ret && k < p.n; k++)
		ret = board_list_dir(p.dir[k], p.from[k] == BOARD_FROM_ENV, &names, &n, &cap, e);
	if (!ret)
		qsort(names, n, sizeof(*names), board_base_cmp);
	for (i = 0; !ret && i < n; i++) {
		ret = board_load(names[i], b, e);
		if (!ret)
			ret = fn(b, ctx);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return ret;
}

void board_generic(struct board *b)
{
	memset(b, 0, sizeof(*b));
	strcpy(b->name, "generic");
	strcpy(b->title, "generic (no -b given)");
	strcpy(b->arch, "unknown");
	strcpy(b->bootloader, "qemu-direct");
	strcpy(b->tracefs, TRACEFS_MOUNT);
	b->cmdline_max = 2048;
}
