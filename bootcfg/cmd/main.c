// SPDX-License-Identifier: GPL-2.0-or-later
/* boottrace: dispatch a verb. Invoked as `bootconfig`, be the kernel's tool. */
#include <stdio.h>
#include <string.h>

#include "cmd/commands.h"

struct verb {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct verb verbs[] = {
	{ "compile", cmd_compile,
	  "[-t TARGET] [-b BOARD] [-k KVER] CONFIG  config -> cmdline, bootconfig, bootloader form" },
	{ "decompile", cmd_decompile,
	  "CMDLINE... | FILE | -  legacy command line -> config text" },
	{ "bootconfig", cmd_bootconfig,
	  "[-a CONF | -d | -l] FILE  show, apply or delete an initrd's bootconfig" },
	{ "boards", cmd_boards, "  list board profiles and their limits" },
	{ "report", cmd_report,
	  "INPUT [-f text|json|folded] [--function F]  snapshot -> who called what" },
	{ "collect", cmd_collect,
	  "[--keep N] [--state DIR]  this boot's snapshot + the live trace -> a boot record" },
	{ "check", cmd_check,
	  "CONFIG [--vmlinux F | --system-map F] [--modules DIR]  check against the kernel" },
	{ "arm-boot", cmd_arm_boot,
	  "--loader grub|uboot-env CONFIG  the compiled line for the next boot only" },
	{ "disarm-boot", cmd_disarm_boot,
	  "  put back what arm-boot changed, byte for byte" },
	{ "try", cmd_try,
	  "[--hold] CONFIG  apply it to the running kernel's tracefs, report refusals, undo" },
};

static int usage(FILE *f)
{
	size_t i;

	fputs("usage: boottrace VERB [ARGS]   (boottrace VERB --help for more)\n\n"
	      "verbs:\n", f);
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		fprintf(f, "  %s %s\n", verbs[i].name, verbs[i].summary);
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

int main(int argc, char **argv)
{
	static char voice[32];
	size_t i;

	if (argc > 0 && !strcmp(base_name(argv[0]), "bootconfig")) {
		bt_voice_name("bootconfig");
		return cmd_bootconfig(argc, argv);
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
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(argv[1], verbs[i].name)) {
			/* errors and messages without a file: "boottrace VERB: ..." */
			snprintf(voice, sizeof(voice), "boottrace %s", verbs[i].name);
			bt_voice_name(voice);
			return verbs[i].run(argc - 1, argv + 1);
		}
	bt_say(NULL, BT_SAY_ERROR, "unknown verb '%s'; see boottrace --help", argv[1]);
	return usage(stderr);
}
