/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The running kernel's tracefs (tracefs.h). */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/tracefs.h"

/* initramfs-hook/boottrace-snapshot.sh's BT_TRACEFS_DIRS is the same list. */
static const char *const tracefs_dirs[] = {
	TRACEFS_MOUNT,
	"/sys/kernel/debug/tracing",
};

int tracefs_has(const char *dir, enum tracefs_need need)
{
	char p[4096];
	struct stat st;
	const char *file = need == TFN_TRACE ? "trace" : "instances";

	/* a path too long to name is no tracefs */
	if ((size_t)snprintf(p, sizeof(p), "%s/%s", dir, file) >= sizeof(p))
		return 0;
	if (need == TFN_TRACE)
		return !access(p, R_OK);
	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

const char *tracefs_dir(size_t i)
{
	return i < sizeof(tracefs_dirs) / sizeof(tracefs_dirs[0]) ? tracefs_dirs[i] : NULL;
}

const char *tracefs_find(enum tracefs_need need)
{
	const char *d;
	size_t i;

	for (i = 0; (d = tracefs_dir(i)); i++)
		if (tracefs_has(d, need))
			return d;
	return NULL;
}
