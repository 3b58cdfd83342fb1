/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way an input file is opened: a config, a command line, a trace,
 * a console log, a System.map, a kernel image, a module, an initrd.
 *
 * Every path is opened with O_NONBLOCK|O_NOCTTY|O_CLOEXEC (opening a FIFO
 * with no writer or a terminal never blocks nor takes a controlling tty),
 * and the open descriptor is fstat()ed (not the path: no race with a
 * rename). Then:
 *  - a regular file is taken, up to the limit for its kind of input (below;
 *    a bigger one is refused before a byte is read);
 *  - a FIFO or pipe is taken only where a stream is read deliberately
 *    (RF_STREAM, and readfile's whole-text reads, which stop at their
 *    limit): the first data or the writer's end is awaited at most
 *    RF_FIFO_WAIT seconds, so a FIFO nobody writes is an error, not a hang;
 *  - a directory, a device (/dev/zero, /dev/tty), a socket is refused with
 *    what was expected and what to do.
 * "-" (standard input) is a stream the user asked for: readfile reads it
 * up to its limit, whatever it is.
 * The limits are listed in README.md ("Inputs and their limits").
 */
#ifndef BT_READFILE_H
#define BT_READFILE_H

#include <stddef.h>
#include <sys/stat.h>

#include "util/bt_error.h"

/* Limits per kind of input (bytes). */
#define RF_IMAGE_MAX   ((unsigned long long)4 << 30)	/* vmlinux, module, initrd */
#define RF_TRACE_MAX   ((unsigned long long)16 << 30)	/* a trace file (mapped, not read) */
#define RF_KCONFIG_MAX ((size_t)16 << 20)		/* a kernel .config */
#define RF_FIFO_WAIT   10	/* seconds a FIFO may stay without a writer */

/* flags */
#define RF_OVER   1	/* readfile: a longer input is the caller's to judge */
#define RF_STREAM 2	/* readfile_open: a FIFO or pipe is a deliberate input */
#define RF_REGULAR 4	/* readfile: a regular file only ("-" is a file name then) */

/*
 * Read @path ("-": standard input, unless RF_REGULAR), at most @max bytes, into a malloc'd
 * NUL-terminated buffer; *@len gets the size. More than @max bytes is an
 * input error saying @what it should have been (with RF_OVER in @flags,
 * the caller decides instead: *@len is @max + 1 and the buffer holds
 * @max + 1 bytes). Memory grows with what is read, never past @max + 2.
 * @max is taken as a file size (RF_TRACE_MAX is more than a 32-bit size_t)
 * and cut to what the address space can hold.
 */
char *readfile(const char *path, unsigned long long max, int flags, const char *what,
	       size_t *len, struct bt_error *e);

/*
 * Open @path for reading as above (@what: "a vmlinux", for messages; @max:
 * the biggest regular file taken). Returns a blocking descriptor with *@st
 * its status, or -1 with @e.
 */
int readfile_open(const char *path, unsigned long long max, int flags,
		  const char *what, struct stat *st, struct bt_error *e);

/* What a file of @mode is, for messages: "a directory", "a FIFO", ... */
const char *readfile_kind(mode_t mode);

#endif /* BT_READFILE_H */
