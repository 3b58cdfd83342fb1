/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Errors as values: filled where something fails, printed once at the edge
 * as "FILE:LINE:COL: error: TEXT" (or "FILE: error: TEXT" when the error has
 * no place in the file).
 */
#ifndef BT_ERROR_H
#define BT_ERROR_H

#include <stdio.h>

/* Exit status classes (DESIGN.md). */
enum bt_exit {
	BT_EXIT_OK = 0,
	BT_EXIT_INPUT = 1,	/* the input is wrong */
	BT_EXIT_USAGE = 2,
	BT_EXIT_ENV = 3,	/* I/O, missing tool, out of memory */
};

struct bt_error {
	const char *file;	/* may be NULL */
	int line, col;		/* 0 when unknown */
	long long off;		/* byte offset, -1 when unknown or line is set */
	enum bt_exit code;
	char msg[512];
};

void bt_error_clear(struct bt_error *e);
/* Set @e (file, no position) with a printf-style message; returns -1. */
int bt_error_set(struct bt_error *e, enum bt_exit code, const char *file,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* As bt_error_set, with errno's text appended as ": strerror(errnum)". */
int bt_error_errno(struct bt_error *e, int errnum, const char *file,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void bt_error_print(const struct bt_error *e, FILE *f);

#endif /* BT_ERROR_H */
