/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/readfile.h"

/*
 * Inputs go to 4 GiB (an initrd) and 16 GiB (a trace): on a 32-bit board
 * off_t is 32 bits unless the Makefile's -D_FILE_OFFSET_BITS=64 is there,
 * and stat() of a bigger file would fail with EOVERFLOW.
 */
_Static_assert(sizeof(off_t) == 8, "off_t must be 64 bits: build with -D_FILE_OFFSET_BITS=64");

const char *readfile_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a regular file";
}

/*
 * A FIFO: wait for its first byte or its writer's end. Linux does not
 * report the end of a named FIFO that never had a writer (docs/kernel-facts.md,
 * 20), so a FIFO nobody opens times out here instead of reading as empty.
 */
static int rf_await(int fd, const char *path, const char *what,
		    struct bt_error *e)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n;

	do
		n = poll(&p, 1, RF_FIFO_WAIT * 1000);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return bt_error_errno(e, errno, path, "cannot wait for the FIFO");
	if (!n)
		return bt_error_set(e, BT_EXIT_INPUT, path, "is a FIFO that nothing wrote to in %d s, not %s: start its writer first, or give a regular file", RF_FIFO_WAIT, what);
	return 0;
}

int readfile_open(const char *path, unsigned long long max, int flags,
		  const char *what, struct stat *st, struct bt_error *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int fl;

	if (fd < 0) {
		/* a socket cannot be opened: say what it is, not "no such device" */
		if (errno == ENXIO && !stat(path, st) && !S_ISREG(st->st_mode))
			return bt_error_set(e, BT_EXIT_INPUT, path, "is %s, not %s: give a regular file", readfile_kind(st->st_mode), what);
		return bt_error_errno(e, errno, path, "cannot open (expected %s)", what);
	}
	if (fstat(fd, st) < 0) {
		bt_error_errno(e, errno, path, "cannot read its status");
		goto fail;
	}
	if (S_ISREG(st->st_mode)) {
		if ((unsigned long long)st->st_size > max) {
			bt_error_set(e, BT_EXIT_INPUT, path, "is %jd bytes, more than %s may be (%llu bytes): give the right file, or cut it to size", (intmax_t)st->st_size, what, max);
			goto fail;
		}
	} else if (S_ISFIFO(st->st_mode) && (flags & RF_STREAM)) {
		if (rf_await(fd, path, what, e))
			goto fail;
	} else {
		bt_error_set(e, BT_EXIT_INPUT, path, "is %s, not %s: give a regular file%s", readfile_kind(st->st_mode), what, (flags & RF_STREAM) ? " (or pipe the data to '-', standard input)" : "");
		goto fail;
	}
	/* read from here on as any file is: blocking */
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		bt_error_errno(e, errno, path, "cannot read");
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

char *readfile(const char *path, unsigned long long limit, int flags, const char *what,
	       size_t *len, struct bt_error *e)
{
	int in = !(flags & RF_REGULAR) && !strcmp(path, "-");
	/*
	 * The buffer holds max + 2 bytes: a limit past what the address space
	 * can hold (RF_TRACE_MAX on a 32-bit board, SIZE_MAX anywhere) is the
	 * address space's, never a size_t that wrapped to 0 or 1.
	 */
	size_t max = limit > SIZE_MAX - 2 ? SIZE_MAX - 2 : (size_t)limit;
	struct stat st;
	char *buf = NULL;
	size_t n = 0, cap = 0, want = 4096;
	ssize_t got;
	int fd = 0;

	if (!in) {
		/* a regular file longer than @max: with RF_OVER, read @max + 1 */
		fd = readfile_open(path, (flags & RF_OVER) ? (unsigned long long)-1 : max,
				   (flags & RF_REGULAR) ? 0 : RF_STREAM, what, &st, e);
		if (fd < 0)
			return NULL;
		/* /proc files say 0: then grow as the bytes come */
		if (S_ISREG(st.st_mode) && st.st_size > 0)
			want = (size_t)st.st_size < max ? (size_t)st.st_size + 2 : max + 2;
	}
	if (want > max + 2)
		want = max + 2;
	/* One byte more than allowed tells "too big" from "just fits". */
	for (;;) {
		if (n + 1 >= cap && BT_GROW(buf, n + 1 < want ? want : n + 2, cap) < 0) {
			bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
			goto fail;
		}
		got = read(fd, buf + n, (cap - 1 < max + 1 ? cap - 1 : max + 1) - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			bt_error_errno(e, errno, path, "cannot read");
			goto fail;
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > max)
			break;
		want = cap * 2 < max + 2 ? cap * 2 : max + 2;
	}
	if (n > max && !(flags & RF_OVER)) {
		bt_error_set(e, BT_EXIT_INPUT, path, "more than %zu bytes: not %s", max, what);
		goto fail;
	}
	if (!in)
		close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	if (!in)
		close(fd);
	free(buf);
	return NULL;
}
