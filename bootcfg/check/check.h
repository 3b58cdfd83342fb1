/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Offline checks of a trace plan against the kernel that will boot (the
 * symbol table of kimage/kimage.h and the .config of kernel/kcaps.h):
 * findings, each at the config place it is about.
 */
#ifndef BT_CHECK_H
#define BT_CHECK_H

#include <stdio.h>

#include "kernel/kcaps.h"
#include "kimage/kimg.h"
#include "kimage/kimage.h"
#include "plan/plan.h"
#include "util/source.h"

/* ---- findings (check_report.c) ------------------------------------ */
enum check_sev { CK_NOTE, CK_WARN, CK_ERROR };

struct check_finding {
	enum check_sev sev;
	char *where;		/* "FILE:LINE:COL" or a file name */
	char *what;		/* the name or setting it is about */
	char *msg;
};

struct check_report {
	struct check_finding *f;
	size_t n, cap;
	size_t nerr, nwarn;
	int oom;
};

/* Add a finding at @node of @p's config (BCONF_NONE: the file). */
void check_report_add(struct check_report *r, const struct plan *p, int node,
		      enum check_sev sev, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void check_report_free(struct check_report *r);
int check_report_print_text(const struct check_report *r, FILE *f);
int check_report_print_json(const struct check_report *r, FILE *f);

/* ---- the checks ----------------------------------------------------- */
struct check_opts {
	int threshold;		/* a wildcard matching more warns (1000) */
};
/* Every function name of @p against @t (check_symbols.c). */
void check_plan_symbols(struct check_report *r, const struct plan *p,
			const struct ksyms *t, const struct check_opts *o);
/*
 * Every event of @p against the events built into the image of @t, when
 * known (check_events.c).
 */
void check_plan_events(struct check_report *r, const struct plan *p,
		       const struct ksyms *t);
/* What the plan needs of the .config (check_config.c). */
void check_plan_config(struct check_report *r, const struct plan *p,
		       const struct kcaps *k);

/* ---- a whole check (check_run.c), for `check` and `compile --check` -- */
/* What check reads of the kernel that will boot. */
struct check_inputs {
	const char *vmlinux, *sysmap, *modules, *kconfig, *root;
	/*
	 * --kernel: the installed image; its symbols (kallsyms) are read when
	 * no --vmlinux or --system-map is given or the System.map is
	 * Debian's placeholder (kernel-facts 16).
	 */
	const char *kernel;
	/*
	 * 1: the caller has read the kernel config into the kcaps already
	 * (compile: its own, with --kernel IMAGE's, check_image_kconfig).
	 */
	int kconfig_ready;
	/*
	 * --kernel's image loaded already by the caller (compile), or NULL;
	 * its bytes may be taken over (ksyms_load_kimg).
	 */
	struct kimg *image;
	char found[5][4096];	/* what root gave */
};
/*
 * @in->root, an unpacked linux-image (and -dbg) package: fill in what was
 * not given (boot/config-VER, lib/modules/VER, the -dbg vmlinux or a real
 * System.map, else boot/vmlinuz-VER as --kernel). -1 with @e when it holds no symbols at all.
 */
int check_inputs_from_root(struct check_inputs *in, struct bt_error *e);
/*
 * The kernel config of the image @img (@image, --kernel IMAGE) into @k
 * (check_kconfig.c, docs/kernel-image.md): when @k has one already (an
 * explicit --kernel-config) only a note if the image's embedded .config
 * is of another release; else the embedded .config (IKCONFIG), else
 * config-RELEASE beside the image (a note says so), else a note that none
 * was found and that @what_skipped are skipped. 0, or -1 with @e.
 */
int check_image_kconfig(const struct kimg *img, const char *image,
			const char *what_skipped, struct kcaps *k,
			struct bt_error *e);
/*
 * Read the .config into @k (--kernel-config, and with --kernel IMAGE the
 * image's, check_image_kconfig) and the symbols into @t (indexed).
 */
int check_inputs_load(const struct check_inputs *in, struct ksyms *t,
		      struct kcaps *k, struct bt_error *e);
/*
 * Check the config @src against @t and @k, all findings printed on @out
 * (@json: as JSON). 1 when errors were found, 0 when none, -1 with @e.
 */
int check_source(const struct source *src, const struct ksyms *t,
		 const struct kcaps *k, const struct check_opts *o, int json,
		 FILE *out, struct bt_error *e);

#endif /* BT_CHECK_H */
