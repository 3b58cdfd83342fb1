// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD helper for tests/cli/report.bats: the first time the program
 * maps the file SHRINK_PATH, the file is cut to SHRINK_TO bytes right
 * after, as a trace rewritten with ">" while `boottrace report` reads it.
 * Built at test time: cc -shared -fPIC -o shrink.so shrink-on-mmap.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef void *mmap_fn(void *, size_t, int, int, int, off_t);

static int is_target(int fd, const char *path)
{
	char link[64], target[4096];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return 0;
	target[n] = '\0';
	return !strcmp(target, path);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static mmap_fn *real;
	static int done;
	const char *path = getenv("SHRINK_PATH"), *to = getenv("SHRINK_TO");
	void *m;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "mmap");
	m = real(addr, len, prot, flags, fd, off);
	if (!done && fd >= 0 && path && to && m != MAP_FAILED &&
	    is_target(fd, path)) {
		done = 1;
		if (truncate(path, atol(to)))
			perror("shrink-on-mmap: truncate");
	}
	return m;
}
