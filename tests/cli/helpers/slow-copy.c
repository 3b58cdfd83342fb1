// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD helper for tests/cli/bootconfig-safety.bats: the program's
 * first copy_file_range (initrd/initrd.c copying the initrd into its temp
 * file) touches the file SLOW_MARK and then sleeps SLOW_SECONDS, so that
 * a signal sent once the mark exists arrives mid-write, every time.
 * Built at test time: cc -shared -fPIC -o slow.so slow-copy.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t cfr_fn(int, off_t *, int, off_t *, size_t, unsigned int);

ssize_t copy_file_range(int in, off_t *in_off, int out, off_t *out_off,
			size_t len, unsigned int flags)
{
	static cfr_fn *real;
	static int done;
	const char *mark = getenv("SLOW_MARK"), *secs = getenv("SLOW_SECONDS");

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "copy_file_range");
	if (!done && mark) {
		int fd = open(mark, O_WRONLY | O_CREAT, 0600);

		done = 1;
		if (fd >= 0)
			close(fd);
		sleep(secs ? (unsigned)atoi(secs) : 10);
	}
	return real(in, in_off, out, out_off, len, flags);
}
