/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Progress of long work (docs/architecture.md, "Messages"): one line on a
 * terminal, redrawn in place ("\r...") at most every BT_PROGRESS_MS
 * milliseconds, saying who, what is being done, done/total and the percent
 * when the total is known, and the item at hand; cleared at the end, so
 * that what is printed next starts on a clean line. Nothing at all is
 * written unless the descriptor is a terminal, TERM is set and is not
 * "dumb", and the caller is not quiet: in a pipe, a log or under -q the
 * output is the same bytes as without progress.
 *
 * A handle is carried into the long loop (kimage/kimage.h: ksyms's
 * progress); every function takes NULL for "no progress".
 */
#ifndef BT_PROGRESS_H
#define BT_PROGRESS_H

#include <stdint.h>

#define BT_PROGRESS_MS 100	/* at most 10 redraws a second */

struct bt_progress {
	int fd;			/* the terminal drawn on, -1: nothing is drawn */
	const char *who;	/* "boottrace check" */
	char what[96];		/* the stage: "reading modules" */
	unsigned long long done, total;	/* total 0: not known */
	uint64_t last;		/* when the line was last drawn (ns), 0: never */
	int shown;		/* a line is on the terminal */
	unsigned draws;		/* lines drawn so far (tests, figures) */
	/* the clock (ns, monotonic); NULL: CLOCK_MONOTONIC. Tests set their own. */
	uint64_t (*clock)(void);
};

/*
 * Start on @fd (STDERR_FILENO for a verb) for @who (kept, not copied).
 * Draws only when !@quiet, isatty(@fd) and TERM is set and not "dumb".
 */
void bt_progress_init(struct bt_progress *p, int fd, int quiet, const char *who);
/* Nonzero when @p draws: a caller may then count its total first. */
int bt_progress_on(const struct bt_progress *p);
/*
 * A new stage: @what (copied), @total items (0: not known), done 0. Drawn
 * at once when the last line is older than BT_PROGRESS_MS.
 */
void bt_progress_stage(struct bt_progress *p, const char *what,
		       unsigned long long total);
/*
 * @done items of the stage, @item the one at hand (NULL: none). Cheap when
 * called more often than the line is redrawn: the clock is read, nothing
 * else, until BT_PROGRESS_MS has passed since the last line.
 */
void bt_progress_update(struct bt_progress *p, unsigned long long done,
			const char *item);
/* Clear the line (before printing on the terminal, and at the end). */
void bt_progress_clear(struct bt_progress *p);
/* The end: the line cleared, nothing drawn any more. */
void bt_progress_end(struct bt_progress *p);

#endif /* BT_PROGRESS_H */
