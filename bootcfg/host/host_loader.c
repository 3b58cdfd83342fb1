// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host.h: which bootloader booted this machine, so that ask arms the
 * right one (docs/ask.md). systemd-boot says so itself: it sets the EFI
 * variable LoaderInfo ("systemd-boot 252.39-1~deb12u1") at every boot,
 * and LoaderEntrySelected to the entry it booted (docs/kernel-facts.md
 * 117). GRUB and U-Boot leave
 * no such mark, so their files decide: GRUB's grub.cfg (where grubenv's
 * next_entry is read), U-Boot's fw_env.config with fw_printenv to read
 * the environment it names. The order matters on machines that carry
 * more than one: the loader that says it booted wins over files that may
 * be left over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arm/arm.h"
#include "host/host.h"

/* A systemd variable (LoaderInfo, LoaderEntrySelected) into *@out. */
static int host_efivar(const struct host *h, const char *name, char **out,
		       struct bt_error *e)
{
	char *dir = arm_path(h->root, ARM_EFIVARS), *p = NULL;
	int ret;

	if (!dir || asprintf(&p, "%s/%s-" ARM_SDB_GUID, dir, name) < 0) {
		free(dir);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	}
	ret = arm_efivar_string(p, out, e);
	free(p);
	free(dir);
	return ret;
}

static void host_why(struct host *h, const char *fmt, const char *arg)
{
	size_t n = strlen(h->loader_why);

	if (n)
		snprintf(h->loader_why + n, sizeof(h->loader_why) - n, "; ");
	n = strlen(h->loader_why);
	snprintf(h->loader_why + n, sizeof(h->loader_why) - n, fmt, arg);
}

/* 1 when LoaderInfo names systemd-boot; what it says goes in the reasons. */
static int host_sdboot(struct host *h, struct bt_error *e)
{
	char *info = NULL;

	if (host_efivar(h, "LoaderInfo", &info, e))
		return -1;
	if (!info) {
		host_why(h, "no EFI variable LoaderInfo (%s: systemd-boot sets it at every boot)", ARM_EFIVARS);
		return 0;
	}
	if (strncmp(info, "systemd-boot", 12)) {
		host_why(h, "the EFI variable LoaderInfo names '%s', not systemd-boot", info);
		free(info);
		return 0;
	}
	strcpy(h->loader, "systemd-boot");
	host_why(h, "the EFI variable LoaderInfo says '%s'", info);
	free(info);
	return host_efivar(h, "LoaderEntrySelected", &h->entry, e) ? -1 : 1;
}

int host_loader(struct host *h, struct bt_error *e)
{
	int r;

	h->loader[0] = h->loader_why[0] = 0;
	if ((r = host_sdboot(h, e)) != 0)
		return r;
	if (host_has(h->root, ARM_GRUB_DIR "/grub.cfg", S_IFREG)) {
		strcpy(h->loader, "grub");
		snprintf(h->loader_why, sizeof(h->loader_why), "%s/grub.cfg is there and no other loader said it booted", ARM_GRUB_DIR);
		return 1;
	}
	host_why(h, "no %s/grub.cfg (GRUB)", ARM_GRUB_DIR);
	if (!host_has(h->root, ARM_FW_CONFIG, S_IFREG)) {
		host_why(h, "no %s (U-Boot's environment)", ARM_FW_CONFIG);
		return 0;
	}
	if (!arm_have("fw_printenv")) {
		host_why(h, "%s is there but fw_printenv is not installed (libubootenv-tool)", ARM_FW_CONFIG);
		return 0;
	}
	strcpy(h->loader, "uboot-env");
	snprintf(h->loader_why, sizeof(h->loader_why), "%s is there and fw_printenv reads it", ARM_FW_CONFIG);
	return 1;
}
