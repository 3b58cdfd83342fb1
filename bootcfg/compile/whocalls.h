/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --who-calls: the config that answers "who calls FUNC?" in one boot on a
 * given kernel and board.
 */
#ifndef BT_WHOCALLS_H
#define BT_WHOCALLS_H

#include "kernel/board.h"
#include "util/bt_error.h"
#include "util/progress.h"
#include "kernel/kcaps.h"

/*
 * A kprobe on the one function asked about, recording @args (NAME=FETCH,
 * checked by kernel/fetcharg.h against the board's arch and the kernel):
 * what each call was about, shown by report with its culprit.
 */
struct whocalls_probe {
	const char *const *args;
	size_t nargs;
	const char *object;	/* --who-creates NETDEV, for the config's words */
};

/*
 * Config text (malloc'd) for @funcs ("a,b"), with @callers ("x,y:mod:m",
 * may be NULL) for parent-chain mode. Where ftrace stack traces work: the
 * function tracer, a filter on @funcs and func_stack_trace. Where they do
 * not (board quirk ftrace_stack_zero): the function tracer on @funcs and
 * their callers, each traced function's <-parent column giving one edge of
 * the chain; callers in modules go to the hook (boottrace.arm). With
 * @crash (console or persistent: --crash, the bring-up preset), a boot
 * that dies or hangs before the hook still gives its trace
 * (boottrace.crash and boottrace.hang = panic, docs/crash.md). With
 * @probe (may be NULL or empty), a kprobe on @funcs (one function of the
 * kernel's own) recording its arguments. The question goes with it as
 * boottrace.ask and boottrace.follow = 1 (unless @ask is 0:
 * whocalls_ask_fits).
 */
char *whocalls_config(const char *funcs, const char *callers,
		      const struct board *b, const struct kcaps *k,
		      int lineage, int ask, const char *crash,
		      const struct whocalls_probe *probe, struct bt_error *e);

/*
 * The netdev preset (--who-creates NETDEV): who-calls register_netdevice
 * with a kprobe recording the device's name at entry, name=+0(%REG):string
 * with the board's first-argument register (docs/kernel-facts.md 86).
 * Writes that argument into @arg; -1 with @e when the board's arch is
 * unknown or @netdev is no device name.
 */
#define WHOCALLS_CREATES_FUNC "register_netdevice"
int whocalls_creates(const char *netdev, const struct board *b, char *arg,
		     size_t cap, struct bt_error *e);
/*
 * Does the lineage (boottrace.lineage) fit the question's line on board
 * @b? Its events are kernel words; on a line of a few hundred bytes they
 * would take the room of the callers (half the line, see cmd_compile.c),
 * so they go only where the other half holds them, or into a bootconfig
 * (@bootconfig). When they do not, a warning says what is lost.
 */
int whocalls_lineage_fits(const struct board *b, int bootconfig);
/*
 * The same for the question's words, boottrace.ask=KIND:@object (kernel/
 * ask.h; KIND who-creates when @creates) and boottrace.follow=1: left
 * out, with a warning, where they would take the callers' room (Malta's
 * 207 bytes: the trace then ends at the initramfs snapshot).
 */
int whocalls_ask_fits(const struct board *b, int bootconfig, int creates,
		      const char *object);

/*
 * Callers of @funcs for parent-chain mode from `check`'s analysis of
 * @vmlinux and/or the modules under @modules, up to @depth levels, as
 * many whole levels as fit in @budget bytes: "a,b:mod:m,..." (malloc'd).
 * Reading the inputs shows on @prog (NULL: nothing), ended before the
 * levels are said.
 */
char *whocalls_find_callers(const char *funcs, const char *vmlinux,
			    const char *modules, size_t budget, int depth,
			    struct bt_progress *prog, struct bt_error *e);

#endif /* BT_WHOCALLS_H */
