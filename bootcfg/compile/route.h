/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Routing: for each setting of a plan, the form that really takes effect
 * on the target kernel (a legacy parameter, a kernel.* or an ftrace.*
 * bootconfig key, or the hook), or a refusal naming the setting, its
 * place in the config, the minimum kernel and a fix.
 */
#ifndef BT_ROUTE_H
#define BT_ROUTE_H

#include "kernel/board.h"
#include "kernel/kcaps.h"
#include "plan/plan.h"
#include "kernel/words.h"

struct route_opts {
	int allow_drop;		/* warn and drop what the target cannot carry */
	int verbose;		/* explain each route on stderr */
	/* the hook's boottrace.* words go to route.hook_words, not the line */
	int hook_apart;
	/*
	 * The target form's own limits on a word (emit_target.word_bad):
	 * 1 with the reason in @why when the form cannot carry @w as written.
	 * Asked for every word a setting makes, so that the refusal points at
	 * the setting's FILE:LINE:COL; NULL for forms with no limit of their own.
	 */
	int (*word_bad)(const char *w, char *why, size_t size);
	const char *form;	/* its name, for the message */
};

struct route {
	/* The words the bootloader must pass (all of them for cmdline). */
	struct words words;
	/* With opts->hook_apart: the hook's boottrace.* settings. */
	struct words hook_words;
	/* Bootconfig text (route_bootconfig), NUL-terminated, else NULL. */
	char *bconf;
	size_t bconf_len;
	int bconf_nodes;
	size_t dropped;		/* settings dropped with allow_drop */
	/*
	 * Their config nodes: every word and bootconfig value made at one of
	 * them (or at a value of one) is left out (route_dropped).
	 */
	struct route_drop {
		int node;
		const char *item;	/* one item of a list there; NULL: all */
	} *drop;
	size_t ndrop, capdrop;
	/* Where route_cmdline_part is putting words now (its @out). */
	struct words *out;
	/*
	 * Set while those words become kernel.* keys of a bootconfig: each
	 * value must then also come back from the word the kernel makes of
	 * the key (route_bconf_param_ok).
	 */
	int to_bconf;
	/* Routing init's arguments (after "--"): words, not kernel parameters. */
	int init_args;
	/* Context for messages. */
	const struct plan *plan;
	const struct kcaps *kcaps;
	const struct board *board;
	const struct route_opts *opts;
};

void route_init(struct route *r, const struct plan *p, const struct kcaps *k,
		const struct board *b, const struct route_opts *o);
void route_free(struct route *r);
/*
 * Was the setting at @node (or at the key of the value @node) dropped under
 * --allow-drop, or its item @item (NULL: asked of the whole setting)?
 */
int route_dropped(const struct route *r, int node, const char *item);
/* Everything as legacy command-line parameters. */
int route_cmdline(struct route *r, struct bt_error *e);
/* A bootconfig text plus the words the bootloader still passes. */
int route_bootconfig(struct route *r, struct bt_error *e);

/* Parts of the command-line route, for the bootconfig route to reuse. */
enum route_part {
	RP_TRACER = 1,		/* global tracer, filters, options, buffer */
	RP_EVENTS = 2,		/* events, kprobes, triggers, instances */
	RP_GLOBALS = 4,		/* fgraph, tp_printk, dump_on_oops, ... */
	RP_HOOK = 8,		/* boottrace.* */
	RP_KERNEL = 16,		/* other kernel.* words */
	RP_INIT = 32,		/* -- and init.* words */
	RP_CLOCK = 64,		/* trace_clock= (route_clock.c) */
	RP_ALL = 127,
	/* Only the global event list as trace_event= (not in RP_ALL: RP_EVENTS has it). */
	RP_EVLIST = 128,
};
/*
 * Append the command-line words of @parts to @out: r->words for the
 * command line itself, or a list of its own for the bootconfig route,
 * which writes them as kernel.* keys.
 */
int route_cmdline_part(struct route *r, unsigned parts, struct words *out,
		       struct bt_error *e);

/* ---- the global trace clock (route_clock.c) ---------------------------- */

enum route_clock_form {
	RC_NONE,	/* no clock */
	RC_BCONF,	/* the user's clock; ftrace.trace_clock works */
	RC_CMDLINE,	/* the user's clock, which must be trace_clock= */
	RC_ADDED,	/* none given; trace_clock=global keeps the buffer */
};
/* Where the global clock goes; @out gets the value (and its node). */
enum route_clock_form route_clock(const struct route *r, struct plan_val *out);
/* -v: why the clock is on the command line. */
void route_clock_note(const struct route *r, enum route_clock_form f);

/* ---- shared by route_*.c (route_common.c) ------------------------------ */

/* -v: "route: TEXT" on stderr. */
void route_note(const struct route *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* -v: "route: KEY (FILE:L:C) -> PARAM=VAL". */
void route_note_word(const struct route *r, int node, const char *param,
		     const char *val);
/*
 * A setting the target cannot carry: an error at @node, or with
 * allow_drop a warning (and 0).
 */
#define route_refuse(r, node, e, ...) \
	route_refuse_item((r), (node), NULL, (e), __VA_ARGS__)
/* The same of one item @item of the list at @node: only it is dropped. */
int route_refuse_item(struct route *r, int node, const char *item,
		      struct bt_error *e, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Warning at @node (always shown). */
void route_warn(const struct route *r, int node, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Does the kernel have @f? Refuses (at @node, naming @what) if not. */
int route_need(struct route *r, enum kfeat f, int node, const char *what,
	       struct bt_error *e);
/* Checks that hold for every target: .config options, silent failures. */
int route_check(struct route *r, struct bt_error *e);
/*
 * The check every kernel.* or init.* value written into a bootconfig gets
 * (whichever route made it): bootconfig can quote it, and the word the
 * kernel makes of it gives back @param and @val. -1 with @e at @node.
 */
int route_bconf_param_ok(struct route *r, const char *param, const char *val,
			 int node, struct bt_error *e);
/*
 * The verbatim.* words of @l, as written, appended to @out (the line they
 * go on: r->words from the bootconfig route, whose kernel.* keys could not
 * hold them), each checked against the target form's word limits.
 */
int route_verbatim(struct route *r, const struct plan_list *l,
		   struct words *out, struct bt_error *e);
/* "a,b,c" of a list, malloc'd. */
char *route_join(const struct plan_list *l, const char *sep);
/*
 * The word PARAM[=VAL] (VAL NULL: a bare word) for the setting at @node,
 * checked against the kernel's rules for PARAM and the target form: 0
 * added (or dropped with --allow-drop), -1 refused.
 */
int route_word(struct route *r, const char *param, const char *val,
	       int node, struct bt_error *e);
/*
 * boottrace.crash and boottrace.hang as the kernel's words (route_crash.c),
 * into r->out; an early_param goes on the bootloader's line.
 */
int route_crash(struct route *r, struct bt_error *e);
/* The events a plan instance enables, as set_event takes them ("G:E"). */
int route_event_names(const struct plan_inst *in, struct words *out);

#endif /* BT_ROUTE_H */
