/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One whole check (check.h): find and load what the kernel offers, then
 * check a config against it. `check` prints the findings on stdout,
 * `compile --check` on stderr beside the compiled form.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "kernel/tracers.h"
#include "kimage/kimg.h"
#include "kimage/sysmap.h"
#include "util/readfile.h"

/* The first entry of @dir starting with @prefix that is a real file. */
static int root_find(const char *dir, const char *prefix, off_t min,
		     int want_dir, char *out, size_t cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct stat st;
	int found = 0;

	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) || de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(out, cap, "%s/%s", dir, de->d_name) >= cap ||
		    stat(out, &st))
			continue;
		found = want_dir ? S_ISDIR(st.st_mode) :
			S_ISREG(st.st_mode) && st.st_size >= min;
	}
	closedir(d);
	return found;
}

/* No symbols under @root: name the -dbg package its placeholder map points at. */
static int root_no_symbols(const char *root, const char *boot, struct bt_error *e)
{
	char path[4096], pkg[256] = "linux-image-VER-dbg";
	struct bt_error ignore;
	size_t len;
	char *text = NULL;

	if (root_find(boot, "System.map-", 1, 0, path, sizeof(path)))
		text = readfile(path, 4096, 0, "a System.map", &len, &ignore);
	if (text && (!kimage_sysmap_placeholder(text, len, pkg, sizeof(pkg)) || !*pkg))
		snprintf(pkg, sizeof(pkg), "linux-image-VER-dbg");
	free(text);
	return bt_error_set(e, BT_EXIT_INPUT, root, "no vmlinux (usr/lib/debug/boot) and no real System.map (boot/) here: the real symbols are in the %s package; unpack it into the same directory (dpkg -x), or give the running board's /proc/kallsyms as --system-map",
			    pkg);
}

/*
 * An unpacked linux-image (and -dbg) package: boot/config-VER, lib/modules/VER,
 * the -dbg vmlinux or the real System.map, else the image boot/vmlinuz-VER
 * (its kallsyms). Debian's image package ships an 83-byte placeholder
 * System.map: a map smaller than 1 KB is skipped.
 */
int check_inputs_from_root(struct check_inputs *a, struct bt_error *e)
{
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/boot", a->root);
	if (!a->kconfig && root_find(dir, "config-", 1, 0, a->found[0], 4096))
		a->kconfig = a->found[0];
	snprintf(dir, sizeof(dir), "%s/lib/modules", a->root);
	if (!a->modules && root_find(dir, "", 0, 1, a->found[1], 4096))
		a->modules = a->found[1];
	snprintf(dir, sizeof(dir), "%s/usr/lib/debug/boot", a->root);
	if (!a->vmlinux && !a->sysmap &&
	    root_find(dir, "vmlinux-", 1, 0, a->found[2], 4096))
		a->vmlinux = a->found[2];
	snprintf(dir, sizeof(dir), "%s/boot", a->root);
	if (!a->vmlinux && !a->sysmap &&
	    root_find(dir, "System.map-", 1024, 0, a->found[3], 4096))
		a->sysmap = a->found[3];
	if (!a->vmlinux && !a->sysmap && !a->kernel &&
	    root_find(dir, "vmlinuz-", 1, 0, a->found[4], 4096))
		a->kernel = a->found[4];
	if (!a->vmlinux && !a->sysmap && !a->kernel)
		return root_no_symbols(a->root, dir, e);
	return 0;
}

/* Is the System.map at @path Debian's placeholder (kernel-facts 16)? */
static int sysmap_is_placeholder(const char *path)
{
	struct bt_error ignore = { 0 };
	char pkg[256], *text;
	size_t len;
	int r;

	text = readfile(path, 4096, RF_OVER, "a System.map", &len, &ignore);
	if (!text)
		return 0;
	r = len <= 4096 && kimage_sysmap_placeholder(text, len, pkg, sizeof(pkg));
	free(text);
	return r;
}

/*
 * --kernel IMAGE, loaded once for what it is needed for: its .config (when
 * the caller has not read one) and its symbols (when no --vmlinux or real
 * System.map gives them). 0 with @img->data NULL when it is not needed.
 */
static int inputs_image(const struct check_inputs *a, const char *sysmap,
			struct kimg *img, struct kcaps *k, struct bt_error *e)
{
	memset(img, 0, sizeof(*img));
	if (!a->kernel || (a->kconfig_ready && (a->vmlinux || sysmap)))
		return 0;
	if (a->image && a->image->data) {	/* the caller's: its bytes are taken over */
		*img = *a->image;
		a->image->data = NULL;
	} else if (kimg_load(a->kernel, img, e))
		return -1;
	if (!a->kconfig_ready &&
	    check_image_kconfig(img, a->kernel, "the checks of what the settings need of the .config (CONFIG_ options)", k, e)) {
		kimg_free(img);
		return -1;
	}
	return 0;
}

/* The kernel's symbols: --vmlinux, --system-map, else the image's own. */
static int inputs_symbols(const struct check_inputs *a, const char *sysmap,
			  struct kimg *img, struct ksyms *t,
			  struct bt_error *e)
{
	const char *core = a->vmlinux ? a->vmlinux : sysmap;
	char how[1000];

	if (a->vmlinux && ksyms_load_elf(t, a->vmlinux, -1, e))
		return -1;
	if (!a->vmlinux && sysmap && ksyms_load_sysmap(t, sysmap, e))
		return -1;
	if (!core && a->kernel) {
		if (ksyms_load_kimg(t, img, a->kernel, how, sizeof(how), e))
			return -1;
		core = a->kernel;
		if (bt_verbose())
			bt_say(a->kernel, BT_SAY_NOTE, "symbols from the image itself: %s", how);
	} else if (core && bt_verbose()) {
		bt_say(core, BT_SAY_NOTE, "symbols from %s%s", a->vmlinux ? "--vmlinux" : "--system-map", a->kernel ? " (not from --kernel)" : "");
	}
	t->core_path = core;
	return 0;
}

/* Has the kernel's own code (not a module's) the function @name? */
static int core_has(const struct ksyms *t, const char *name)
{
	uint32_t i;

	for (i = ksyms_bucket(t, name); i; i = t->sym[i].next)
		if ((t->sym[i].flags & KSYM_TEXT) && t->sym[i].mod < 0 &&
		    !strcmp(t->sym[i].name, name))
			return 1;
	return 0;
}

/* The tracers whose code the kernel's symbols hold (kernel/tracers.c). */
static void inputs_tracers(const struct ksyms *t, struct kcaps *k)
{
	const char *const *w = ktracer_witnesses();
	unsigned long mask = 0;
	int i;

	if (!t->core_path)
		return;
	for (i = 0; w[i]; i++)
		if (core_has(t, w[i]))
			mask |= 1UL << i;
	ktracer_set_symbols(k, mask, t->core_path);
}

int check_inputs_load(const struct check_inputs *a, struct ksyms *t,
		      struct kcaps *k, struct bt_error *e)
{
	const char *sysmap = a->sysmap;
	struct kimg img;
	int r;

	if (!a->kconfig_ready && a->kconfig && kcaps_load_config(k, a->kconfig, e))
		return -1;
	if (sysmap && a->kernel && sysmap_is_placeholder(sysmap)) {
		bt_say(sysmap, BT_SAY_NOTE, "Debian's placeholder System.map: the symbols come from --kernel %s", a->kernel);
		sysmap = NULL;
	}
	if (inputs_image(a, sysmap, &img, k, e))
		return -1;
	r = inputs_symbols(a, sysmap, &img, t, e);
	kimg_free(&img);
	if (r || (a->modules && ksyms_load_modules(t, a->modules, e)))
		return -1;
	if (ksyms_index(t))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	inputs_tracers(t, k);
	return 0;
}

int check_source(const struct source *src, const struct ksyms *t,
		 const struct kcaps *k, const struct check_opts *o, int json,
		 FILE *out, struct bt_error *e)
{
	struct check_report r = { 0 };
	struct plan p;
	int ret = -1;

	if (plan_build(&p, src, e))
		return -1;
	if (plan_add_lineage(&p, k, e) < 0) {
		plan_free(&p);
		return -1;
	}
	if (!t->n)
		check_report_add(&r, &p, BCONF_NONE, CK_NOTE, "", "no --vmlinux, --system-map or --root: function names were not checked");
	else
		check_plan_symbols(&r, &p, t, o);
	check_plan_events(&r, &p, t);
	check_plan_config(&r, &p, k);
	if (r.oom)
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	else if (json ? check_report_print_json(&r, out) : check_report_print_text(&r, out))
		bt_error_set(e, BT_EXIT_ENV, NULL, "cannot write the report");
	else
		ret = r.nerr ? 1 : 0;
	check_report_free(&r);
	plan_free(&p);
	return ret;
}

