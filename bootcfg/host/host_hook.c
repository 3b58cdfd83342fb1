// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host.h: will the next boot be traced and collected? The hook must be in
 * the initramfs the kernel boots with (the packages' triggers put it in
 * when they are installed; an initramfs built before lacks it), and
 * boottrace-collect.service must run on that boot. The packages do not
 * enable the unit for every boot; boottrace's systemd generator pulls it
 * in on a boot whose initramfs hook made /run/boottrace (the unit's own
 * condition), so it runs on traced boots only (docs/ask.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arm/arm.h"
#include "host/host.h"

/* Where systemd looks for system generators, as systemd.generator(7) lists them. */
static const char *const host_generator_dirs[] = {
	"/etc/systemd/system-generators", "/usr/local/lib/systemd/system-generators",
	"/usr/lib/systemd/system-generators", "/lib/systemd/system-generators", NULL,
};
#define HOST_GENERATOR "boottrace-generator"

int host_has(const char *root, const char *path, mode_t type)
{
	char *p = arm_path(root, path);
	struct stat st;
	int ok;

	ok = p && stat(p, &st) == 0 && (st.st_mode & S_IFMT) == type;
	free(p);
	return ok;
}

int host_hook_in_initrd(const struct host *h, struct bt_error *e)
{
	char *argv[3], *out = NULL;
	int in;

	if (!h->initrd)
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "no initramfs of kernel %s was found (%s, ...): the hook runs in the initramfs; build one (update-initramfs -c -k %s)", h->release, host_initrd_paths[0], h->release);
	argv[0] = arm_have("lsinitramfs") || !arm_have("lsinitrd") ? "lsinitramfs" : "lsinitrd";
	argv[1] = h->initrd;
	argv[2] = NULL;
	if (arm_run(argv, !strcmp(argv[0], "lsinitrd") ? "dracut-core" : "initramfs-tools-core", &out, NULL, e))
		return -1;
	in = strstr(out, HOST_HOOK_MARK) != NULL;
	free(out);
	return in;
}

const char *host_hook_generator(const struct host *h)
{
	if (host_has(h->root, "/usr/lib/dracut/modules.d/90boottrace/module-setup.sh", S_IFREG) &&
	    (host_has(h->root, "/usr/bin/dracut", S_IFREG) || host_has(h->root, "/usr/sbin/dracut", S_IFREG)))
		return "dracut";
	if (host_has(h->root, "/usr/share/initramfs-tools/hooks/boottrace", S_IFREG))
		return "initramfs-tools";
	return NULL;
}

int host_collect_ready(const struct host *h, char *why, size_t cap)
{
	char path[256];
	size_t i;

	if (!host_has(h->root, "/run/systemd/system", S_IFDIR)) {
		snprintf(why, cap, "systemd does not run this system (no /run/systemd/system): after the reboot, run boottrace collect yourself (or enable /etc/init.d/boottrace-collect), then boottrace report");
		return 0;
	}
	for (i = 0; host_generator_dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/" HOST_GENERATOR, host_generator_dirs[i]);
		if (host_has(h->root, path, S_IFREG)) {
			snprintf(why, cap, "boottrace-collect.service runs on the traced boot only (%s pulls it in when the hook made /run/boottrace)", path);
			return 1;
		}
	}
	snprintf(why, cap, "boottrace's systemd generator (" HOST_GENERATOR ") is not installed in %s or the other generator directories: reinstall the boottrace package (or make install), or run boottrace collect yourself after the reboot", host_generator_dirs[2]);
	return 0;
}
