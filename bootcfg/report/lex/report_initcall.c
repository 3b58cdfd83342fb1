// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Initcalls that started and never finished (count.h): one rule for
 * the console dump (report_dump.c) and the previous boot of a persistent
 * instance (report_prev.c). An initcall_finish closes the latest open
 * initcall_start of the same task, since a task runs its initcalls one at
 * a time; never by the function's name, which the kernel may print wrongly
 * for a previous boot's finish (docs/kernel-facts.md 53).
 */
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "report/lex/count.h"

int rp_icalls_start(struct rp_icalls *c, const char *task, size_t len,
		    size_t ref)
{
	struct rp_icall_open *o;

	if (BT_GROW(c->open, c->n + 1, c->cap) < 0)
		return -1;
	o = &c->open[c->n++];
	if (len >= sizeof(o->task))
		len = sizeof(o->task) - 1;
	memcpy(o->task, task, len);
	o->task[len] = '\0';
	o->ref = ref;
	return 0;
}

size_t rp_icalls_finish(struct rp_icalls *c, const char *task, size_t len)
{
	size_t i, ref;

	if (len >= sizeof(c->open[0].task))
		len = sizeof(c->open[0].task) - 1;
	for (i = c->n; i-- > 0;) {
		if (strncmp(c->open[i].task, task, len) || c->open[i].task[len])
			continue;
		ref = c->open[i].ref;
		memmove(&c->open[i], &c->open[i + 1], (c->n - i - 1) * sizeof(c->open[0]));
		c->n--;
		return ref;
	}
	return RP_ICALL_NONE;
}

void rp_icalls_free(struct rp_icalls *c)
{
	free(c->open);
	memset(c, 0, sizeof(*c));
}
