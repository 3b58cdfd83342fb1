/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compile.h: plan, then the route the target is fed by, then its emitter. */
#include <string.h>

#include "compile/compile.h"

int compile_source(const struct source *src, const struct kcaps *k,
		   const struct board *b, const struct emit_target *t,
		   const struct compile_opts *o, struct bt_error *e)
{
	struct emit_in in;
	struct route r;
	struct plan p;
	int ret;

	if (plan_build(&p, src, e))
		return -1;
	route_init(&r, &p, k, b, &o->route);
	ret = t->route == EMIT_FROM_BOOTCONFIG ? route_bootconfig(&r, e) : route_cmdline(&r, e);
	if (!ret) {
		memset(&in, 0, sizeof(in));
		in.kernel = &r.words;
		in.bconf = r.bconf;
		in.bconf_len = r.bconf_len;
		in.board = b;
		in.base = o->base;
		in.keep_bootargs = o->keep_bootargs;
		in.apply = o->apply;
		in.out = o->out;
		in.verbose = o->route.verbose;
		ret = t->run(&in, e);
	}
	route_free(&r);
	plan_free(&p);
	return ret;
}
