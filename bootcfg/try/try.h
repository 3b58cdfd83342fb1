/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace try (docs/try.md): a plan applied to the running kernel's
 * tracefs, each refusal reported at its config position, and everything
 * added removed again.
 *
 * try_plan.c turns a plan into the ordered list of writes the kernel's
 * boot-time tracing would make (its order: docs/kernel-facts.md 90), each
 * with where it goes: into our own instance, or (what only the top level
 * holds) to a top-level file that is saved first and restored after.
 * try_undo.c is the undo list: every change is recorded as it is made and
 * undone in reverse order. try_run.c does the writes, reads error_log,
 * and holds, undoes and exits on a signal.
 */
#ifndef BT_TRY_H
#define BT_TRY_H

#include <stddef.h>
#include <stdio.h>

#include "plan/plan.h"
#include "util/bt_error.h"

/* Our instances are instances/TRY_PREFIX<pid>[-NAME]. */
#define TRY_PREFIX "boottrace-try-"

enum try_op {
	TRY_MKDIR,	/* create our instance @path (undo: rmdir) */
	TRY_APPEND,	/* write @text to @path, appending (O_APPEND) */
	TRY_REPLACE,	/* write @text to @path (a file a write replaces) */
	TRY_KPROBE,	/* add a kprobe event to kprobe_events (undo: -:kprobes/E) */
	TRY_SYNTH,	/* add a synthetic event (undo: !E) */
	TRY_TOP,	/* top-level file: save, write, restore */
	TRY_TRACER,	/* the tracer: in the instance if it allows it, else TRY_TOP */
	TRY_OPTION,	/* an option: where its tracer went */
};

struct try_step {
	enum try_op op;
	char *path;	/* relative to the tracefs root */
	char *text;	/* the line written, without its newline */
	char *name;	/* TRY_KPROBE/TRY_SYNTH: the event; TRY_TRACER/OPTION: the instance dir */
	int node;	/* config node of the setting (FILE:LINE:COL), BCONF_NONE if none */
	const char *what;	/* "function filter", "event filter", ... */
};

struct try_steps {
	struct try_step *s;
	size_t n, cap;
	/* settings of the plan this verb cannot try on a running kernel */
	struct try_skip { const char *what; int node; } *skip;
	size_t nskip, capskip;
};

/*
 * The writes of @p, in order, our instances named TRY_PREFIX<@pid> (the
 * global one) and TRY_PREFIX<@pid>-NAME. -1 with @e when out of memory.
 */
int try_plan_steps(const struct plan *p, long pid, struct try_steps *out,
		   struct bt_error *e);
void try_steps_free(struct try_steps *st);

/* The undo list (try_undo.c). */
enum try_undo_kind {
	TRY_U_RMDIR,	/* rmdir @path */
	TRY_U_DELETE,	/* write @text to @path until the kernel says ENOENT (at most @n times) */
	TRY_U_RESTORE,	/* open @path with O_TRUNC, write @text back (may be empty) */
};

struct try_undo_item {
	enum try_undo_kind kind;
	char *path;	/* absolute */
	char *text;
	size_t n;
};

struct try_undo {
	struct try_undo_item *it;
	size_t n, cap;
};

int try_undo_push(struct try_undo *u, enum try_undo_kind kind,
		  const char *path, const char *text, size_t n);
/* Is @path already saved (a TRY_U_RESTORE of it on the list)? */
int try_undo_saved(const struct try_undo *u, const char *path);
/* The TRY_U_DELETE item writing @text, or NULL. */
struct try_undo_item *try_undo_delete_of(struct try_undo *u, const char *text);
/*
 * Undo everything, last change first. Each failure is said (bt_say) and
 * counted; returns the number of failures. The list is emptied.
 */
int try_undo_run(struct try_undo *u);
void try_undo_free(struct try_undo *u);
/*
 * One write of @text (a newline added) to @path: @flags O_APPEND or
 * O_TRUNC added to O_WRONLY; EINTR retried. 0, or the errno. @text NULL:
 * only the open (with O_TRUNC: the file cleared).
 */
int try_write(const char *path, const char *text, int flags);

struct try_opts {
	const char *tracefs;	/* NULL: /sys/kernel/tracing, else /sys/kernel/debug/tracing */
	int hold;		/* keep the state until a signal */
	int remove_stale;	/* rmdir instances of dead runs */
	FILE *out;		/* the findings */
};

/*
 * The whole try: 0 all accepted, 1 some refused (said on @o->out), -1 with
 * @e (BT_EXIT_ENV: no tracefs, not allowed, interrupted...).
 */
int try_run(const struct plan *p, const struct try_opts *o, struct bt_error *e);

#endif /* BT_TRY_H */
