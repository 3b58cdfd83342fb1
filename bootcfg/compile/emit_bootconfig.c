/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -t bootconfig: the config text to embed (-o FILE or stdout), or applied
 * to an initrd (--apply), and the words the bootloader must still pass.
 */
#include <stdlib.h>
#include <string.h>

#include "compile/emit.h"
#include "initrd/initrd_bconf.h"
#include "util/outfile.h"

/*
 * The words the bootloader must still pass: on stdout as the output's
 * last line, or, when stdout holds the bootconfig text, said on stderr.
 */
static int emit_bootconfig_words(const struct emit_in *in, int said,
				 struct bt_error *e)
{
	char *line = words_join(in->kernel);

	if (!line)
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	if (*line && said)
		bt_say(NULL, BT_SAY_TODO, "add to the kernel command line: %s", line);
	else if (*line)
		printf("%s\n", line);
	free(line);
	return 0;
}

int emit_bootconfig(const struct emit_in *in, struct bt_error *e)
{
	struct outfile o;

	if (emit_check_kernel_len(in->board, words_join_len(in->kernel),
				  "the command line", e))
		return -1;
	if (in->apply) {
		if (initrd_bconf_apply(in->out ? in->out : "bootconfig", in->bconf, in->bconf_len + 1, in->apply, 0, stderr, e))
			return -1;
		return emit_bootconfig_words(in, 0, e);
	}
	if (outfile_open(&o, in->out, e))
		return -1;
	fwrite(in->bconf, 1, in->bconf_len, o.f);
	if (outfile_commit(&o, e))
		return -1;
	/* With the text on stdout, the words go where they cannot mix in. */
	return emit_bootconfig_words(in, !in->out, e);
}
