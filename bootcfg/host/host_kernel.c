// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * host.h: the running kernel, and where its image, .config and initramfs
 * are. The places are those of Debian (/boot/vmlinuz-REL, config-REL,
 * initrd.img-REL), of dracut's distributions (/boot/initramfs-REL.img)
 * and of those that keep the image beside the modules
 * (/usr/lib/modules/REL/vmlinuz).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "arm/arm.h"
#include "host/host.h"
#include "util/readfile.h"

const char *const host_image_paths[] = {
	"/boot/vmlinuz-%s", "/boot/vmlinux-%s", "/boot/Image-%s", "/boot/zImage-%s",
	"/usr/lib/modules/%s/vmlinuz", "/lib/modules/%s/vmlinuz", NULL,
};
const char *const host_config_paths[] = {
	"/boot/config-%s", "/usr/lib/modules/%s/config", "/lib/modules/%s/config", NULL,
};
const char *const host_initrd_paths[] = {
	"/boot/initrd.img-%s", "/boot/initramfs-%s.img", "/boot/initrd-%s", NULL,
};

static int host_is_root(const char *root)
{
	return !root || !strcmp(root, "/") || !*root;
}

/* One line of a proc file under @root into @buf, the newline cut. */
static int host_proc_line(const char *root, const char *path, char *buf,
			  size_t cap, struct bt_error *e)
{
	char *p = arm_path(root, path), *t;
	size_t len;

	if (!p)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	t = readfile(p, 4096, 0, "a kernel fact", &len, e);
	free(p);
	if (!t)
		return -1;
	t[strcspn(t, "\n")] = 0;
	if (!*t || strlen(t) >= cap) {
		free(t);
		return bt_error_set(e, BT_EXIT_INPUT, path, "under %s is empty or longer than %zu bytes", root, cap - 1);
	}
	strcpy(buf, t);
	free(t);
	return 0;
}

static int host_uname(const char *root, struct host *h, struct bt_error *e)
{
	struct utsname u;

	if (!host_is_root(root)) {
		snprintf(h->from, sizeof(h->from), "proc/sys/kernel/arch and osrelease under the root");
		return host_proc_line(root, "/proc/sys/kernel/arch", h->arch, sizeof(h->arch), e) ||
		       host_proc_line(root, "/proc/sys/kernel/osrelease", h->release, sizeof(h->release), e) ? -1 : 0;
	}
	if (uname(&u) < 0)
		return bt_error_errno(e, errno, NULL, "uname");
	if (strlen(u.machine) >= sizeof(h->arch) || strlen(u.release) >= sizeof(h->release))
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "uname says an architecture or release longer than boottrace takes (%zu, %zu bytes)", sizeof(h->arch) - 1, sizeof(h->release) - 1);
	memcpy(h->arch, u.machine, strlen(u.machine) + 1);
	memcpy(h->release, u.release, strlen(u.release) + 1);
	snprintf(h->from, sizeof(h->from), "uname");
	return 0;
}

/* The first of @paths (with the release) that is a regular file under the root. */
static int host_first(const struct host *h, const char *const *paths,
		      char **out, struct bt_error *e)
{
	char rel[4096];
	struct stat st;
	size_t i;

	*out = NULL;
	for (i = 0; paths[i]; i++) {
		char *p;

		snprintf(rel, sizeof(rel), paths[i], h->release);
		if (!(p = arm_path(h->root, rel)))
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			*out = p;
			return 0;
		}
		free(p);
	}
	return 0;
}

int host_kernel(const char *root, struct host *h, struct bt_error *e)
{
	memset(h, 0, sizeof(*h));
	h->root = host_is_root(root) ? NULL : root;
	if (host_uname(h->root, h, e))
		return -1;
	if (strchr(h->release, '/'))
		return bt_error_set(e, BT_EXIT_INPUT, NULL, "the kernel release '%s' has a '/': not a release", h->release);
	return host_first(h, host_image_paths, &h->image, e) ||
	       host_first(h, host_config_paths, &h->config, e) ||
	       host_first(h, host_initrd_paths, &h->initrd, e) ? -1 : 0;
}

void host_free(struct host *h)
{
	free(h->image);
	free(h->config);
	free(h->initrd);
	free(h->entry);
	memset(h, 0, sizeof(*h));
}
