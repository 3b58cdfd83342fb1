// SPDX-License-Identifier: GPL-2.0-or-later
/* arm.h: arm-boot and disarm-boot as one call each, over the loaders' files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arm/arm.h"

const struct arm_loader arm_loaders[] = {
	{ "grub", "grub",
	  "a menu entry 'boottrace one-shot' (id boottrace-oneshot) in GRUB's custom.cfg, "
	  "made from grub.cfg's first entry, and next_entry in grubenv (as grub-reboot; "
	  "grub-editenv writes it when installed)" },
	{ "uboot-env", "uboot-env",
	  "boottrace_oneshot, boottrace_bootcmd and a bootcmd that takes the one-shot "
	  "once, by fw_setenv on the environment of --fw-config" },
	{ "systemd-boot", "bls",
	  "a loader entry boottrace-oneshot.conf in the ESP, a copy of an entry (--entry, else the default; ask: the one booted) "
	  "with the one-shot options line, and the EFI variable LoaderEntryOneShot naming "
	  "it (what bootctl set-oneshot sets; systemd-boot deletes it at boot)" },
	{ NULL, NULL, NULL },
};

const struct arm_loader *arm_loader_find(const char *name)
{
	const struct arm_loader *l;

	for (l = arm_loaders; l->name; l++)
		if (!strcmp(l->name, name))
			return l;
	return NULL;
}

const char *arm_loader_names(void)
{
	static char names[128];
	const struct arm_loader *l;
	size_t n = 0;

	if (!names[0])
		for (l = arm_loaders; l->name; l++)
			n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
					      n ? ", " : "", l->name);
	return names;
}

static int arm_loader_known(const char *loader, struct bt_error *e)
{
	if (arm_loader_find(loader))
		return 0;
	return bt_error_set(e, BT_EXIT_USAGE, NULL, "--loader %s: unknown; arm-boot knows %s", loader, arm_loader_names());
}

int arm_base(const struct arm_opts *o, char **base, struct bt_error *e)
{
	if (arm_loader_known(o->loader, e))
		return -1;
	if (!strcmp(o->loader, "systemd-boot"))
		return arm_sdboot_base(o, base, e);
	return !strcmp(o->loader, "grub") ? arm_grub_base(o, base, e) :
					    arm_uboot_base(o, base, e);
}

/* Put back the orig bytes of items [0, @n) (a failed arm, or disarm). */
static int arm_restore(const struct arm_state *s, size_t n, struct bt_error *e)
{
	size_t i;

	for (i = n; i-- > 0;)
		if (arm_item_write(&s->v[i], s->v[i].orig, s->v[i].orig_len, e))
			return -1;
	return 0;
}

/* Is a one-shot armed in @dir? 1 (said in @e), 0 not, -1 with @e. */
static int arm_armed_in(const char *dir, struct bt_error *e)
{
	char *index = NULL;
	int armed;

	if (asprintf(&index, "%s/armed", dir) < 0)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	armed = !access(index, F_OK);
	if (armed)
		bt_error_set(e, BT_EXIT_INPUT, NULL, "already armed (%s exists): run boottrace disarm-boot first; arm-boot keeps one set of originals, never two", index);
	free(index);
	return armed;
}

int arm_armed(const struct arm_opts *o, struct bt_error *e)
{
	char *dir = NULL;
	int ret;

	if (arm_state_dir(o, &dir, e))
		return -1;
	ret = arm_armed_in(dir, e);
	free(dir);
	return ret;
}

int arm_boot(const struct arm_opts *o, const char *line, struct bt_error *e)
{
	struct arm_state s = { 0 };
	struct bt_error e2;
	size_t i;
	int ret = -1;

	if (arm_loader_known(o->loader, e) || arm_state_dir(o, &s.dir, e))
		return -1;
	if (arm_armed_in(s.dir, e))	/* 1: said; -1: no memory */
		goto out;
	snprintf(s.loader, sizeof(s.loader), "%s", o->loader);
	if (strcmp(o->loader, "uboot-env")) {
		/* the new bytes are known before anything is written */
		if ((!strcmp(o->loader, "grub") ? arm_grub(o, line, &s, e) :
						  arm_sdboot(o, line, &s, e)) ||
		    arm_state_save(&s, e))
			goto out;
		for (i = 0; i < s.n; i++)
			if (arm_item_write(&s.v[i], s.v[i].armed, s.v[i].armed_len, e)) {
				bt_error_clear(&e2);
				if (arm_restore(&s, i, &e2) || arm_state_remove(&s, &e2))
					bt_say(NULL, BT_SAY_ERROR, "%s (and putting back the files failed; the originals are in %s)", e2.msg, s.dir);
				goto out;
			}
	} else {
		/* fw_setenv writes the environment itself; the state follows */
		if (arm_uboot(o, line, &s, e))
			goto out;
		if (arm_state_save(&s, e)) {
			bt_error_clear(&e2);
			if (arm_restore(&s, s.n, &e2))
				bt_say(NULL, BT_SAY_ERROR, "putting back the environment failed too: %s", e2.msg);
			goto out;
		}
	}
	ret = 0;
out:
	arm_state_free(&s);
	return ret;
}

/*
 * Each file against the bytes arm-boot left: *@consumed when the
 * bootloader took the one-shot, *@changed the first file (1-based) changed
 * otherwise. A U-Boot environment fw_printenv cannot read sets
 * *@unreadable with @e saying why. 0, or -1 with @e (a file unreadable).
 */
static int arm_compare(const struct arm_state *s, int *consumed, int *changed,
		       int *unreadable, struct bt_error *e)
{
	char *cur;
	size_t i, len;
	int r;

	*consumed = *changed = *unreadable = 0;
	for (i = 0; i < s->n; i++) {
		if (arm_item_read(&s->v[i], &cur, &len, e))
			return -1;
		if (!(cur && len == s->v[i].armed_len && !memcmp(cur, s->v[i].armed, len))) {
			if (!strcmp(s->loader, "grub") && arm_grub_consumed(s, i, cur, len))
				*consumed = 1;
			else if (!strcmp(s->loader, "systemd-boot") && arm_sdboot_consumed(s, i, cur))
				*consumed = 1;
			else
				*changed = *changed ? *changed : (int)i + 1;
		}
		free(cur);
	}
	if (strcmp(s->loader, "uboot-env") || !*changed)
		return 0;
	/*
	 * An environment fw_printenv cannot read is what a saveenv that did
	 * not finish leaves (U-Boot erases the sectors before it writes; seen
	 * in QEMU, docs/arm-boot.md): the caller decides.
	 */
	r = arm_uboot_consumed(s, e);
	if (r < 0)
		*unreadable = 1;
	if (r > 0)
		*consumed = 1, *changed = 0;
	return 0;
}

const char *arm_fate_name(enum arm_fate f)
{
	switch (f) {
	case ARM_PENDING: return "the one-shot is still to come";
	case ARM_TAKEN: return "the bootloader took the one-shot";
	case ARM_CHANGED: return "its files changed since, not as the bootloader changes them";
	default: return "nothing armed";
	}
}

const char *arm_fate_word(enum arm_fate f)
{
	static const char *const words[] = { "none", "pending", "taken", "changed" };

	return words[f];
}

int arm_fate(const char *dir, enum arm_fate *fate, char loader[16],
	     struct bt_error *e)
{
	struct arm_state s;
	char *index;
	int consumed, changed, unreadable, none, ret = -1;

	*fate = ARM_NONE;
	loader[0] = '\0';
	if (asprintf(&index, "%s/armed", dir) < 0)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	none = access(index, F_OK) < 0 && errno == ENOENT;
	free(index);
	if (none)
		return 0;
	if (arm_state_load(dir, &s, e))
		goto out;
	snprintf(loader, 16, "%s", s.loader);
	if (arm_compare(&s, &consumed, &changed, &unreadable, e))
		goto out;
	bt_error_clear(e);
	*fate = unreadable || changed ? ARM_CHANGED : consumed ? ARM_TAKEN : ARM_PENDING;
	ret = 0;
out:
	arm_state_free(&s);
	return ret;
}

int arm_disarm(const struct arm_opts *o, int force, struct bt_error *e)
{
	struct arm_state s;
	char *dir;
	int ret = -1, consumed, changed, unreadable;

	if (arm_state_dir(o, &dir, e))
		return -1;
	if (arm_state_load(dir, &s, e)) {
		free(dir);
		arm_state_free(&s);
		return -1;
	}
	free(dir);
	if (arm_compare(&s, &consumed, &changed, &unreadable, e))
		goto out;
	/* --force must not depend on reading what a dead saveenv left */
	if (unreadable && !force) {
		char why[sizeof e->msg];

		snprintf(why, sizeof why, "%s", e->msg);
		bt_error_set(e, e->code, NULL, "%s changed since arm-boot and cannot be read (%s): nothing was restored; look at it, then run boottrace disarm-boot --force to put back the bytes from before arm-boot (kept in %s)", s.v[changed - 1].path, why, s.dir);
		goto out;
	}
	if (unreadable)
		bt_error_clear(e);
	if (changed && !force) {
		bt_error_set(e, BT_EXIT_INPUT, NULL, "%s changed since arm-boot, and not as the bootloader changes it when it takes the one-shot: nothing was restored; look at it, then run boottrace disarm-boot --force to put back the bytes from before arm-boot (kept in %s)", s.v[changed - 1].path, s.dir);
		goto out;
	}
	if (changed)
		bt_say(s.v[changed - 1].path, BT_SAY_WARN, "changed since arm-boot: --force puts back the bytes from before arm-boot all the same");
	else if (consumed)
		bt_say(NULL, BT_SAY_NOTE, "the bootloader took the one-shot (%s): putting back the bytes from before arm-boot", !strcmp(s.loader, "grub") ? "next_entry cleared" : !strcmp(s.loader, "systemd-boot") ? "LoaderEntryOneShot deleted" : "boottrace_oneshot cleared by saveenv");
	if (arm_restore(&s, s.n, e) || arm_state_remove(&s, e))
		goto out;
	ret = 0;
out:
	arm_state_free(&s);
	return ret;
}
