/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel config that goes with --kernel IMAGE (check.h,
 * docs/kernel-image.md): an explicit --kernel-config always; else the
 * .config the image keeps itself (CONFIG_IKCONFIG=y, kimg_ikconfig); else
 * the one its configs.ko module keeps (CONFIG_IKCONFIG=m) in the modules
 * tree that goes with /boot; else config-RELEASE beside the image, as /boot
 * holds them; else none, said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "kimage/kimg.h"

/* RELEASE of a file named vmlinuz-RELEASE or vmlinux-RELEASE, or NULL. */
static const char *release_of_name(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if ((!strncmp(base, "vmlinuz-", 8) || !strncmp(base, "vmlinux-", 8)) && base[8])
		return base + 8;
	return NULL;
}

/* config-RELEASE in the image's directory: 1 found (in @out), 0 not there. */
static int beside(const char *image, const char *rel, char *out, size_t cap)
{
	const char *slash = strrchr(image, '/');
	struct stat st;

	if ((size_t)snprintf(out, cap, "%.*s/config-%s", slash ? (int)(slash - image) : 1,
			     slash ? image : ".", rel) >= cap)
		return 0;
	return !stat(out, &st) && S_ISREG(st.st_mode);
}

/*
 * configs.ko of RELEASE in the modules tree next to the image's directory
 * (/boot/vmlinuz-R -> /lib/modules/R/kernel/kernel/configs.ko, as Debian
 * lays them out; also in an unpacked package): 1 found (in @out), else 0.
 */
static int module_path(const char *image, const char *rel, char *out,
		       size_t cap)
{
	static const char *const ext[] = { "", ".xz", ".zst", ".gz" };
	const char *slash = strrchr(image, '/');
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(ext) / sizeof(*ext); i++) {
		if ((size_t)snprintf(out, cap, "%.*s/../lib/modules/%s/kernel/kernel/configs.ko%s",
				     slash ? (int)(slash - image) : 1, slash ? image : ".",
				     rel, ext[i]) >= cap)
			return 0;
		if (!stat(out, &st) && S_ISREG(st.st_mode))
			return 1;
	}
	return 0;
}

/*
 * The .config of CONFIG_IKCONFIG=m: kernel/configs.c built as configs.ko
 * keeps it between the same markers as the image would (kernel-facts 111).
 * 1 read into @k, 0 the module keeps none, -1 with @e.
 */
static int module_config(const char *image, const char *path, struct kcaps *k,
			 struct bt_error *e)
{
	struct kimg mod = { 0 };
	char *text, name[4160];
	size_t len, at;
	int found;

	mod.data = (unsigned char *)kmodules_read(path, &mod.len, e);
	if (!mod.data)
		return -1;
	found = kimg_ikconfig(&mod, path, &text, &len, &at, e);
	free(mod.data);
	if (found <= 0)
		return found;
	snprintf(name, sizeof(name), "the .config kept in %s", path);
	found = kcaps_load_config_text(k, text, len, name, e);
	free(text);
	if (found)
		return -1;
	bt_say(image, BT_SAY_NOTE, "kernel config: kept in the module %s (CONFIG_IKCONFIG=m; the image keeps none itself)%s%s",
	       path, k->config_release[0] ? ", of " : "", k->config_release);
	return 1;
}

/* An explicit --kernel-config against the image's own: say when the releases differ. */
static void compare_given(const char *image, const char *text, size_t len,
			  const struct kcaps *k)
{
	struct kcaps *own = calloc(1, sizeof(*own));
	struct bt_error ign;

	bt_error_clear(&ign);
	if (!own)
		return;
	if (!kcaps_load_config_text(own, text, len, "embedded", &ign) &&
	    strcmp(own->config_release, k->config_release))
		bt_say(image, BT_SAY_NOTE, "--kernel-config %s is the .config of %s, the one embedded in the image (IKCONFIG) of %s: --kernel-config is used",
		       k->config_path, k->config_release[0] ? k->config_release : "an unnamed release",
		       own->config_release[0] ? own->config_release : "an unnamed release");
	else if (bt_verbose())
		bt_say(image, BT_SAY_NOTE, "kernel config: --kernel-config %s (the image's embedded one is of the same release)", k->config_path);
	free(own);
	bt_error_clear(&ign);
}

int check_image_kconfig(const struct kimg *img, const char *image,
			const char *what_skipped, struct kcaps *k,
			struct bt_error *e)
{
	char *text = NULL, rel[256], path[4096] = "", name[4160];
	const char *r = NULL;
	size_t len, at;
	int found = kimg_ikconfig(img, image, &text, &len, &at, e);

	if (found < 0)
		return -1;
	if (k->config_path) {	/* --kernel-config: it wins */
		if (found)
			compare_given(image, text, len, k);
		free(text);
		return 0;
	}
	if (found) {
		snprintf(name, sizeof(name), "the .config embedded in %s", image);
		found = kcaps_load_config_text(k, text, len, name, e);
		free(text);
		if (found)
			return -1;
		if (bt_verbose())
			bt_say(image, BT_SAY_NOTE, "kernel config: embedded in %s (IKCONFIG, %zu bytes from byte %zu of the unpacked kernel)%s%s",
			       image, len, at, k->config_release[0] ? ", of " : "", k->config_release);
		return 0;
	}
	if (!kimg_release(img, rel, sizeof(rel)))
		r = rel;
	else
		r = release_of_name(image);
	if (r && module_path(image, r, path, sizeof(path))) {
		found = module_config(image, path, k, e);
		if (found)
			return found < 0 ? -1 : 0;
	}
	path[0] = '\0';
	if (r && beside(image, r, path, sizeof(path))) {
		if (kcaps_load_config(k, path, e))
			return -1;
		snprintf(k->config_name, sizeof(k->config_name), "%s", path);
		k->config_path = k->config_name;
		bt_say(image, BT_SAY_NOTE, "kernel config: %s beside the image (release %s, from its %s; the image keeps no .config of its own)",
		       path, r, r == rel ? "banner" : "file name");
		return 0;
	}
	if (r && path[0])
		bt_say(image, BT_SAY_NOTE, "no kernel config found: the image keeps none (no IKCONFIG) and there is no %s beside it: %s are skipped; give --kernel-config FILE",
		       path, what_skipped);
	else
		bt_say(image, BT_SAY_NOTE, "no kernel config found: the image keeps none (no IKCONFIG) and names no release (no \"Linux version\" banner, no vmlinuz-RELEASE file name): %s are skipped; give --kernel-config FILE",
		       what_skipped);
	return 0;
}
