// SPDX-License-Identifier: GPL-2.0-or-later
/* The boot's question on its command line (ask.h). */
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "kernel/ask.h"

/* KIND:OBJECT into @ask: 0, or -1 with *@why. */
static int ask_split(const char *val, struct ask *ask, const char **why)
{
	const char *colon = val ? strchr(val, ':') : NULL;
	size_t klen;

	if (!colon || colon == val || !colon[1]) {
		*why = "not KIND:OBJECT (who-creates:bond0)";
		return -1;
	}
	klen = (size_t)(colon - val);
	if (klen >= sizeof(ask->kind) || strlen(colon + 1) >= sizeof(ask->object)) {
		*why = "longer than any question boottrace asks";
		return -1;
	}
	memcpy(ask->kind, val, klen);
	ask->kind[klen] = '\0';
	strcpy(ask->object, colon + 1);
	return 0;
}

int ask_find(const char *cmdline, struct ask *ask, const char **why)
{
	struct bconf_arg arg;
	char *copy = strdup(cmdline), *p;
	int found = 0;

	*why = NULL;
	if (!copy) {
		*why = "out of memory";
		return -1;
	}
	for (p = copy; (p = bconf_cmdline_next(p, &arg));) {
		if (!strcmp(arg.param, "--"))
			break;
		if (strcmp(arg.param, ASK_PARAM))
			continue;
		/* the last word counts: an earlier bad one is no error */
		found = ask_split(arg.val, ask, why) ? -1 : 1;
	}
	free(copy);
	if (found == 1)
		*why = NULL;
	return found;
}
