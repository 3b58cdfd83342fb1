/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a kernel image offers to tracing: a symbol table gathered from System.map/kallsyms text, a vmlinux (libelf)
 * and modules (*.ko, .ko.xz, .ko.zst, .ko.gz), what of it is traceable
 * (__mcount_loc / __patchable_function_entries), where init functions are
 * registered, and who calls whom (kcallers.c).
 */
#ifndef BT_KIMAGE_H
#define BT_KIMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "kimage/kimg.h"
#include "util/bt_error.h"
#include "util/progress.h"

enum {
	KSYM_TEXT = 1,		/* a function (t/T, STT_FUNC) */
	KSYM_TRACE = 2,		/* has an mcount/fentry/patchable site */
	KSYM_INIT = 4,		/* in .init.text: freed after boot */
	KSYM_LABEL = 8,		/* an assembler label: no size, no sites */
};

struct ksym {
	const char *name;
	uint64_t addr, size;	/* addr is section-relative in a .ko */
	int mod;		/* -1: the kernel image; else ksyms.mods[] */
	int sec;		/* section index in a .ko, 0 in vmlinux */
	unsigned flags;
	uint32_t next;		/* next in the same hash bucket, 0 = none */
};

/* Where one input's traceability stands. */
enum ksyms_trace { KT_UNKNOWN, KT_KNOWN };

struct ksyms {
	struct ksym *sym;	/* sym[0] is unused: 0 ends a bucket chain */
	size_t n, cap;
	char **mods;		/* module names ("bonding") */
	size_t nmods, capmods;
	enum ksyms_trace core_trace;	/* vmlinux __mcount_loc read */
	int mods_trace;		/* modules' __mcount_loc read */
	const char **initcalls;	/* __initcall* symbol names */
	size_t ninitcalls, capinit;
	uint32_t *bucket;	/* hash of the lower-cased name up to its first '.' */
	size_t nbucket;
	char **blobs;		/* memory the names point into */
	size_t nblobs, capblobs;
	const char *core_path;	/* the kernel's symbol source, for messages */
	/* the trace events built into the image (--kernel, kimg_events.c) */
	struct kimg_events events;
	int events_known;
	/* the long loops (vmlinux symbols, modules, disassembly) report here; NULL: none */
	struct bt_progress *progress;
};

/* ---- the table (ksyms_tab.c) -------------------------------------- */
void ksyms_free(struct ksyms *t);
/* Keep @blob (malloc'd) until the table is freed. */
int ksyms_keep(struct ksyms *t, char *blob);
/* Append a symbol; @name must live as long as the table. -1: no memory. */
int ksyms_add(struct ksyms *t, const char *name, uint64_t addr,
	      uint64_t size, int mod, int sec, unsigned flags);
/* Index of a (new) module name. */
int ksyms_module(struct ksyms *t, const char *name);
/* Build the name index; call once after the last add. */
int ksyms_index(struct ksyms *t);
/* Key of a name: lower case, up to the first '.' (clones share it). */
uint32_t ksyms_hash(const char *name);
/* First symbol of @name's bucket (0: none); walk with sym[i].next. */
uint32_t ksyms_bucket(const struct ksyms *t, const char *name);
/*
 * Symbol text gives no sizes: each core function of symbols @from..t->n
 * reaches to the next function at a higher address (0: the last one).
 * -1: no memory.
 */
int ksyms_size_functions(struct ksyms *t, size_t from);
/* Mark the functions whose range holds each sorted address as traceable. */
void ksyms_mark_sites(struct ksyms *t, size_t from, size_t to,
		      uint64_t *sites, size_t nsites, int sec);

/* ---- inputs --------------------------------------------------------- */
/* System.map or /proc/kallsyms text ("ADDR TYPE NAME [\t[module]]"). */
int ksyms_load_sysmap(struct ksyms *t, const char *path, struct bt_error *e);
int ksyms_parse_sysmap(struct ksyms *t, char *text, size_t len,
		       const char *path, struct bt_error *e);
/*
 * A kernel image (--kernel: vmlinux, bzImage, vmlinuz, Image, kimg.h): its
 * ELF symbol table, else the kallsyms tables inside it (ksyms_kimg.c).
 * @how (@howcap bytes) says what was read, for -v.
 */
int ksyms_load_kimage(struct ksyms *t, const char *path, char *how,
		      size_t howcap, struct bt_error *e);
/*
 * The same of an image loaded already (@k, kept by the caller): an ELF
 * kernel's bytes become the table's (k->data is NULL after).
 */
int ksyms_load_kimg(struct ksyms *t, struct kimg *k, const char *path,
		    char *how, size_t howcap, struct bt_error *e);
/*
 * A vmlinux (@mod -1) or a .ko (@mod from ksyms_module), with libelf:
 * functions, mcount/patchable sites, initcall symbols.
 */
int ksyms_load_elf(struct ksyms *t, const char *path, int mod,
		   struct bt_error *e);
/* The same from memory (@buf stays owned by the caller until freed). */
int ksyms_load_elf_mem(struct ksyms *t, char *buf, size_t len,
		       const char *name, int mod, struct bt_error *e);
/* Every *.ko, *.ko.xz, *.ko.zst, *.ko.gz under @dir. */
int ksyms_load_modules(struct ksyms *t, const char *dir, struct bt_error *e);
/*
 * Call @fn for each module file under @dir (name: "bonding"). With @prog
 * drawing, the modules are counted first and the stage @what goes from 0
 * to that count.
 */
typedef int (*kmodules_fn)(void *ctx, const char *path, const char *name,
			   struct bt_error *e);
int kmodules_walk(const char *dir, kmodules_fn fn, void *ctx,
		  struct bt_progress *prog, const char *what,
		  struct bt_error *e);
/* The bytes of a possibly compressed module (malloc'd). */
char *kmodules_read(const char *path, size_t *len, struct bt_error *e);
/*
 * A module's init function, @mod's in @t: the function at its init_module
 * (the alias module_init() makes) under its own name ("bonding_init"), or
 * init_module itself when nothing else is there; NULL: no init_module.
 */
const struct ksym *kmodules_init(const struct ksyms *t, int mod);
/*
 * The same of the module file @path (.ko, .ko.xz, .ko.zst, .ko.gz): its
 * name into @name and its size; 1 found, 0 no init_module, -1 @e set.
 */
int kmodules_init_file(const char *path, char *name, size_t cap,
		       uint64_t *size, struct bt_error *e);

/* ---- initcalls (kinitcall.c) ---------------------------------- */
/*
 * The level @func is registered at in the kernel image ("1", "1s",
 * "early", "6", "rootfs", "con"), or NULL if it is no built-in initcall.
 */
const char *kinitcall_level(const struct ksyms *t, const char *func);
/* Does the level run before ftrace.* boot-time tracing (core_initcall_sync)? */
int kinitcall_before_boottrace(const char *level);
/* "core_initcall" style name of a level. */
const char *kinitcall_macro(const char *level);

#endif /* BT_KIMAGE_H */
