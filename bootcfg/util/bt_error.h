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

/*
 * The file name is copied in, not pointed to: an error outlives the
 * strings of the code that made it (a freed path, a caller's buffer), and
 * is copied by value. "" when no file.
 */
#define BT_ERROR_FILE_MAX 1024

struct bt_error {
	char file[BT_ERROR_FILE_MAX];	/* "" when none */
	int line, col;		/* 0 when unknown */
	long long off;		/* byte offset, -1 when unknown or line is set */
	enum bt_exit code;
	char msg[512];
};

void bt_error_clear(struct bt_error *e);
/* Name @file (NULL: none) as @e's file, copied (cut visibly if too long). */
void bt_error_file(struct bt_error *e, const char *file);
/* Set @e (file, no position) with a printf-style message; returns -1. */
int bt_error_set(struct bt_error *e, enum bt_exit code, const char *file,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* As bt_error_set, with errno's text appended as ": strerror(errnum)". */
int bt_error_errno(struct bt_error *e, int errnum, const char *file,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void bt_error_print(const struct bt_error *e, FILE *f);

/*
 * What a bt_say line is; BT_SAY_PLAIN has no level word ("route: ...").
 * BT_SAY_TODO has none either: what the user must still do for an output
 * to work (compile -t bootconfig's words for the bootloader), so -q, which
 * keeps only errors, keeps it too.
 */
enum bt_level { BT_SAY_PLAIN, BT_SAY_NOTE, BT_SAY_WARN, BT_SAY_ERROR, BT_SAY_TODO };

/*
 * The program's voice, set once by main() for the verb it runs: the name an
 * error or message without a file is said in ("boottrace check",
 * "bootconfig"), and how much is said on stderr. Quiet: errors only.
 * Normal: errors, warnings and notes. Verbose: also the explanation lines
 * a verb writes when asked (bt_verbose()).
 */
enum bt_verbosity { BT_QUIET = -1, BT_NORMAL = 0, BT_VERBOSE = 1 };
/* @who is kept, not copied: a string literal or main()'s buffer. */
void bt_voice_name(const char *who);
const char *bt_voice(void);
void bt_voice_level(enum bt_verbosity v);
/* Nonzero when -v was given: a verb's cue to explain itself. */
int bt_verbose(void);
/* Nonzero when -q was given: no progress line either (util/progress.h). */
int bt_quiet(void);

/*
 * Text copied from outside (paths, symbol names, config values, messages
 * quoting them) onto a terminal or into a text file: control bytes and
 * every byte that is not part of valid UTF-8 are written as \n, \t or
 * \xNN, so that the output is valid UTF-8 and one line. The one escaper
 * of every text writer that copies foreign bytes (util/json.h is JSON's).
 */
void bt_fput_text(FILE *f, const char *s);

/*
 * "@who: LEVEL: TEXT" on stderr, one line (bt_fput_text), unless the
 * verbosity hides it (quiet: all but errors and what to do). @who NULL is
 * bt_voice().
 */
void bt_say(const char *who, enum bt_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void bt_vsay(const char *who, enum bt_level level, const char *fmt, va_list ap);

#endif /* BT_ERROR_H */
