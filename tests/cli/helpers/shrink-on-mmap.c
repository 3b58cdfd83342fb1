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

/* The mapping @sym made, and the file cut after the first one of SHRINK_PATH. */
static void *shrink_map(const char *sym, void *addr, size_t len, int prot,
			int flags, int fd, off_t off)
{
	static int done;
	const char *path = getenv("SHRINK_PATH"), *to = getenv("SHRINK_TO");
	mmap_fn *real;
	void *m;

	*(void **)&real = dlsym(RTLD_NEXT, sym);
	m = real(addr, len, prot, flags, fd, off);
	if (!done && fd >= 0 && path && to && m != MAP_FAILED &&
	    is_target(fd, path)) {
		done = 1;
		if (truncate(path, atol(to)))
			perror("shrink-on-mmap: truncate");
	}
	return m;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return shrink_map("mmap", addr, len, prot, flags, fd, off);
}

/*
 * A program built with -D_FILE_OFFSET_BITS=64 (the Makefile's, for the
 * 32-bit boards) calls mmap64, also on 64-bit glibc.
 */
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return shrink_map("mmap64", addr, len, prot, flags, fd, off);
}
