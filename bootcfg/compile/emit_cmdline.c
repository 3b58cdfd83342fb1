/* SPDX-License-Identifier: GPL-2.0-or-later */
/* -t cmdline: the kernel words on one line, merged into --base if given. */
#include <stdlib.h>
#include <string.h>

#include "compile/emit.h"
#include "util/outfile.h"

int emit_cmdline(const struct emit_in *in, struct bt_error *e)
{
	struct words base, merged;
	const struct words *line = in->kernel;
	struct outfile o;
	char *text = NULL;
	int ret = -1;

	words_init(&base);
	words_init(&merged);
	if (in->base) {
		if (words_split(&base, in->base) ||
		    emit_merge(&base, in->kernel, &merged, in->verbose, e))
			goto out;
		line = &merged;
	}
	text = words_join(line);
	if (!text) {
		bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		goto out;
	}
	if (emit_check_kernel_len(in->board, strlen(text), "the command line", e) ||
	    outfile_open(&o, in->out, e))
		goto out;
	fprintf(o.f, "%s\n", text);
	ret = outfile_commit(&o, e);
out:
	free(text);
	words_free(&base);
	words_free(&merged);
	return ret;
}
