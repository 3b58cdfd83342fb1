/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one diagnostics channel (docs/architecture.md, "Messages"). Errors are
 * values: filled where something fails, printed once at the edge as
 * "FILE:LINE:COL: error: TEXT" (or "FILE: error: TEXT" when the error has no
 * place in the file). Notes and warnings that do not stop the work go
 * through bt_say, as "WHO: LEVEL: TEXT": WHO is the file it is about, or
 * the program ("boottrace", "boottrace VERB", "bootconfig").
 */
#ifndef BT_ERROR_H
#define BT_ERROR_H

#include <stdarg.h>
#include <stdio.h>

/* Exit status classes (docs/architecture.md, "Exit status"). */
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

/* What a bt_say line is; BT_SAY_PLAIN has no level word ("route: ..."). */
enum bt_level { BT_SAY_PLAIN, BT_SAY_NOTE, BT_SAY_WARN, BT_SAY_ERROR };
/* "@who: LEVEL: TEXT" on stderr, one line (control bytes escaped). */
void bt_say(const char *who, enum bt_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void bt_vsay(const char *who, enum bt_level level, const char *fmt, va_list ap);

#endif /* BT_ERROR_H */
