/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a built-in init function is registered (kimage.h). The kernel names
 * each initcall entry after its function and level (include/linux/init.h):
 *   __initcall__kmod_MOD__COUNTER_LINE_FN<ID>   (5.13+, __initcall_id)
 *   __initcall_FN<ID>                            (older kernels)
 * with ID one of early, 0..7, 0s..7s, rootfs, con. The same names are in
 * System.map and in vmlinux's symbol table, so both inputs answer.
 */
#include <ctype.h>
#include <string.h>

#include "kimage/kimage.h"

struct ic_level {
	const char *id, *macro;
	int before;	/* 1: runs before core_initcall_sync; 2: in it */
};

/* In the order the kernel runs them (do_pre_smp_initcalls, do_initcalls). */
static const struct ic_level ic_levels[] = {
	{ "con", "console_initcall", 1 },
	{ "early", "early_initcall", 1 },
	{ "0", "pure_initcall", 1 },
	{ "0s", "pure_initcall_sync", 1 },
	{ "1", "core_initcall", 1 },
	{ "1s", "core_initcall_sync", 2 },
	{ "2", "postcore_initcall", 0 },
	{ "2s", "postcore_initcall_sync", 0 },
	{ "3", "arch_initcall", 0 },
	{ "3s", "arch_initcall_sync", 0 },
	{ "4", "subsys_initcall", 0 },
	{ "4s", "subsys_initcall_sync", 0 },
	{ "5", "fs_initcall", 0 },
	{ "5s", "fs_initcall_sync", 0 },
	{ "rootfs", "rootfs_initcall", 0 },
	{ "6", "device_initcall (or module_init, built in)", 0 },
	{ "6s", "device_initcall_sync", 0 },
	{ "7", "late_initcall", 0 },
	{ "7s", "late_initcall_sync", 0 },
};

#define NLEVELS (sizeof(ic_levels) / sizeof(ic_levels[0]))

static const struct ic_level *ic_find(const char *id)
{
	size_t i;

	for (i = 0; i < NLEVELS; i++)
		if (!strcmp(ic_levels[i].id, id))
			return &ic_levels[i];
	return NULL;
}

/* "MOD__12_34_" -> the byte after it, or NULL. */
static const char *ic_skip_id(const char *s)
{
	const char *p;

	for (p = strstr(s, "__"); p; p = strstr(p + 1, "__")) {
		const char *q = p + 2;

		if (!isdigit((unsigned char)*q))
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q++ != '_' || !isdigit((unsigned char)*q))
			continue;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '_')
			return q + 1;
	}
	return NULL;
}

/* The FN<ID> part of an initcall symbol name. */
static const char *ic_tail(const char *sym)
{
	if (!strncmp(sym, "__initcall__kmod_", 17))
		return ic_skip_id(sym + 17);
	if (!strncmp(sym, "__initcall_", 11) && sym[11] != '_')
		return sym + 11;
	return NULL;
}

const char *kinitcall_level(const struct ksyms *t, const char *func)
{
	size_t i, n = strlen(func);
	const struct ic_level *l;
	const char *tail;

	for (i = 0; i < t->ninitcalls; i++) {
		tail = ic_tail(t->initcalls[i]);
		if (!tail || strncmp(tail, func, n))
			continue;
		l = ic_find(tail + n);
		if (l)
			return l->id;
	}
	return NULL;
}

int kinitcall_before_boottrace(const char *level)
{
	const struct ic_level *l = ic_find(level);

	return l ? l->before : 0;
}

const char *kinitcall_macro(const char *level)
{
	const struct ic_level *l = ic_find(level);

	return l ? l->macro : "an unknown initcall level";
}
