// SPDX-License-Identifier: GPL-2.0-or-later
/* boottrace: dispatch a verb. Invoked as `bootconfig`, be the kernel's tool. */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

/* The verbs, in the order boottrace --help lists them; each file holds its table. */
static const struct cmd_verb *const cmd_verbs[] = {
	&cmd_ask_verb, &cmd_compile_verb, &cmd_decompile_verb, &cmd_bootconfig_verb, &cmd_boards_verb,
	&cmd_report_verb, &cmd_collect_verb, &cmd_check_verb, &cmd_arm_boot_verb,
	&cmd_disarm_boot_verb, &cmd_try_verb, NULL,
};

static int usage(FILE *f)
{
	size_t i;

	fputs("usage: boottrace VERB [ARGS]   (boottrace VERB --help for more)\n\n"
	      "verbs:\n", f);
	for (i = 0; cmd_verbs[i]; i++)
		cmd_usage_line(cmd_verbs[i], f);
	fputs("\nEvery verb also takes -q, --quiet (errors only), -v, --verbose (also\n"
	      "explain) and -h, --help.\n", f);
	fputs("\nInvoked as 'bootconfig' it behaves as the kernel's tools/bootconfig.\nSee boottrace(1).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/*
 * boottrace --list-options [VERB]: every option of the tables, for the
 * completion and the tests (cmd_opt.h); not in --help, an internal verb.
 */
static int list_options(int argc, char **argv)
{
	size_t i;
	int found = 0;

	for (i = 0; cmd_verbs[i] && argc <= 3; i++)
		if (argc < 3 || !strcmp(argv[2], cmd_verbs[i]->name)) {
			cmd_opt_list(cmd_verbs[i], stdout);
			found = 1;
		}
	if (!found) {
		bt_say(NULL, BT_SAY_ERROR, "--list-options [VERB]: unknown verb '%s'", argv[2]);
		return BT_EXIT_USAGE;
	}
	return fflush(stdout) ? BT_EXIT_ENV : BT_EXIT_OK;
}

int main(int argc, char **argv)
{
	static char voice[32];
	size_t i;

	if (argc > 0 && !strcmp(base_name(argv[0]), "bootconfig")) {
		bt_voice_name("bootconfig");
		return cmd_bootconfig_verb.run(argc, argv);
	}
	if (argc < 2)
		return usage(stderr);
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help"))
		return usage(stdout);
	if (!strcmp(argv[1], "--version")) {
		printf("boottrace %s\n", BT_VERSION);
		return BT_EXIT_OK;
	}
	if (!strcmp(argv[1], "--list-options"))
		return list_options(argc, argv);
	for (i = 0; cmd_verbs[i]; i++)
		if (!strcmp(argv[1], cmd_verbs[i]->name)) {
			/* errors and messages without a file: "boottrace VERB: ..." */
			snprintf(voice, sizeof(voice), "boottrace %s", cmd_verbs[i]->name);
			bt_voice_name(voice);
			return cmd_verbs[i]->run(argc - 1, argv + 1);
		}
	bt_say(NULL, BT_SAY_ERROR, "unknown verb '%s'; see boottrace --help", argv[1]);
	return usage(stderr);
}
