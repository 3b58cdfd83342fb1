// SPDX-License-Identifier: GPL-2.0-or-later
/* boottrace collect: this boot's snapshot + the live trace -> a boot record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "record/record.h"

#define CONF_DEFAULT "/etc/boottrace/collect.conf"

enum { O_KEEP = CMD_O_VERB, O_STATE, O_RUN, O_TRACEFS, O_CONFIG, O_BOOTID, O_PSTORE };

static const struct cmd_opt collect_opts[] = {
	{ O_KEEP, 0, "keep", "N", "records to keep, 1 to 1000 (default: 'keep = N' in "
	  CONF_DEFAULT ", else 5)", CMD_OPT_KEY, NULL },
	{ O_STATE, 0, "state", "DIR", "where records go (default " RECORD_STATE_DEFAULT "); arm-boot's "
	  "state, STATE/" ARM_STATE_NAME ", is settled there",
	  CMD_OPT_KEY, NULL },
	CMD_ARG(0, "run", "DIR", O_RUN, "where the hook's snapshots are (default " RECORD_RUN_DEFAULT ")"),
	CMD_ARG(0, "tracefs", "DIR", O_TRACEFS, "tracefs (default /sys/kernel/tracing, else "
		"/sys/kernel/debug/tracing; mounted when neither is)"),
	CMD_ARG(0, "config", "FILE", O_CONFIG, "the settings file (default " CONF_DEFAULT ")"),
	CMD_ARG(0, "pstore", "DIR", O_PSTORE, "pstore's records of earlier boots, taken when "
		"the snapshot has none (default /sys/fs/pstore)"),
	CMD_ARG(0, "boot-id", "ID", O_BOOTID, "collect another boot id's snapshot (tests)"),
	CMD_OPT_END,
};

static const struct cmd_optgroup collect_groups[] = {
	{ NULL, collect_opts },
	{ NULL, NULL },
};

static void collect_epilog(FILE *f)
{
	fputs("Exit status: 0 the record was written (gaps are in it), 1 no\n"
	      "snapshot of this boot, a bad settings file, a broken snapshot (the\n"
	      "hook's errors in its meta, no COMPLETE, no meta) or an empty record\n"
	      "(no event at all, or boottrace.follow asked and its live window has\n"
	      "none): such records are written all the same and say why; 2 usage,\n"
	      "3 no tracefs, a full or read-only state directory (nothing is left\n"
	      "half-written).\n", f);
}

static int cmd_collect(int argc, char **argv);

const struct cmd_verb cmd_collect_verb = {
	.name = "collect", .run = cmd_collect,
	.summary = "this boot's snapshot + the live trace -> a boot record",
	.about = "On the running system, once the boot is done (boottrace-collect.service\n"
		 "or the init script runs it): join this boot's initramfs snapshot\n"
		 "(RUN/<boot-id>/, boot id from /proc/sys/kernel/random/boot_id) with\n"
		 "the live trace in tracefs (the events after the snapshot's last one\n"
		 "on each CPU), stop tracing when the boot asked for it\n"
		 "(boottrace.follow=1; follow=keep leaves it on), and write one boot\n"
		 "record, STATE/<boot-id>/: the files of a snapshot directory (report\n"
		 "reads it: boottrace report STATE/<boot-id>) and record.json\n"
		 "(docs/record-schema.md). It is built under a temporary name and\n"
		 "renamed, so no half record is ever under the final name. Gaps\n"
		 "(the live buffer wrapped or was cleared) and lost events are\n"
		 "errors in its meta and record.json, and said here.\n\n"
		 "The last N records are kept; a directory collect did not write\n"
		 "(no .boottrace-record in it) is never removed.\n\n"
		 "After the one-shot boot of arm-boot (its state is STATE/arm-boot and\n"
		 "the bootloader took the one-shot), collect puts back what arm-boot\n"
		 "changed, as disarm-boot does, and says so in the record; a one-shot\n"
		 "still to come is left armed.\n",
	.groups = collect_groups, .epilog = collect_epilog,
};

static int parse_keep(const char *s, int *keep)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end || n < 1 || n > RECORD_KEEP_MAX) {
		bt_say(NULL, BT_SAY_ERROR, "--keep takes a whole number of records from 1 to %d, not '%s'", RECORD_KEEP_MAX, s);
		return -1;
	}
	*keep = (int)n;
	return 0;
}

static int cmd_collect(int argc, char **argv)
{
	struct record_opts o = { .run = RECORD_RUN_DEFAULT, .state = RECORD_STATE_DEFAULT,
				 .keep = RECORD_KEEP_DEFAULT };
	struct record_result r;
	struct bt_error e;
	const char *conf = NULL, *keep = NULL;
	int c, ret;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, &cmd_collect_verb)) != -1) {
		switch (c) {
		case O_KEEP: keep = optarg; break;
		case O_STATE: o.state = optarg; break;
		case O_RUN: o.run = optarg; break;
		case O_TRACEFS: o.tracefs = optarg; break;
		case O_CONFIG: conf = optarg; break;
		case O_BOOTID: o.boot_id = optarg; break;
		case O_PSTORE: o.pstore = optarg; break;
		case CMD_OPT_HELP: return cmd_parse_exit(CMD_HELP, &cmd_collect_verb);
		default: return cmd_parse_exit(CMD_BAD, &cmd_collect_verb);
		}
	}
	if (optind != argc) {
		bt_say(NULL, BT_SAY_ERROR, "no argument is taken ('%s'); see the options", argv[optind]);
		return cmd_parse_exit(CMD_BAD, &cmd_collect_verb);
	}
	if (!*o.state || !*o.run) {
		bt_say(NULL, BT_SAY_ERROR, "--state and --run take a directory");
		return cmd_parse_exit(CMD_BAD, &cmd_collect_verb);
	}
	bt_error_clear(&e);
	if (record_conf_load(conf ? conf : CONF_DEFAULT, conf != NULL, &o.keep, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	if (keep && parse_keep(keep, &o.keep))
		return cmd_parse_exit(CMD_BAD, &cmd_collect_verb);
	if (record_collect(&o, &r, &e))
		return cmd_fail(&e, BT_EXIT_ENV);
	printf("%s: boot record from %s (tracing %s; %d errors, %d warnings; %d older records removed)\n",
	       r.dir, r.snapshot, r.tracing, r.errors, r.warnings, r.pruned);
	if (fflush(stdout))
		return BT_EXIT_ENV;
	/* written and kept, but the unit fails so that someone looks */
	ret = BT_EXIT_OK;
	if (r.broken.msg[0])
		ret = cmd_fail(&r.broken, BT_EXIT_INPUT);
	if (r.empty[0]) {
		bt_error_set(&e, BT_EXIT_INPUT, r.dir, "the record is empty: %s", r.empty);
		ret = cmd_fail(&e, BT_EXIT_INPUT);
	}
	return ret;
}
