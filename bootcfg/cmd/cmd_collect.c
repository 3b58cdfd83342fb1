// SPDX-License-Identifier: GPL-2.0-or-later
/* boottrace collect: this boot's snapshot + the live trace -> a boot record. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "record/record.h"

#define CONF_DEFAULT "/etc/boottrace/collect.conf"

static int collect_usage(FILE *f)
{
	fputs("usage: boottrace collect [--keep N] [--state DIR] [--run DIR]\n"
	      "                         [--tracefs DIR] [--config FILE] [--boot-id ID]\n\n"
	      "On the running system, once the boot is done (boottrace-collect.service\n"
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
	      "  --keep N        records to keep, 1 to 1000 (default: 'keep = N' in\n"
	      "                  " CONF_DEFAULT ", else 5)\n"
	      "  --state DIR     where records go (default /var/lib/boottrace)\n"
	      "  --run DIR       where the hook's snapshots are (default /run/boottrace)\n"
	      "  --tracefs DIR   tracefs (default /sys/kernel/tracing, else\n"
	      "                  /sys/kernel/debug/tracing; mounted when neither is)\n"
	      "  --config FILE   the settings file (default " CONF_DEFAULT ")\n"
	      "  --pstore DIR    pstore's records of earlier boots, taken when the\n"
	      "                  snapshot has none (default /sys/fs/pstore)\n"
	      "  --boot-id ID    collect another boot id's snapshot (tests)\n", f);
	cmd_common_usage(f);
	fputs("\nExit status: 0 the record was written (gaps are in it), 1 no\n"
	      "snapshot of this boot or a bad settings file, 2 usage, 3 no\n"
	      "tracefs, a full or read-only state directory (nothing is left\n"
	      "half-written).\n", f);
	return f == stdout ? BT_EXIT_OK : BT_EXIT_USAGE;
}

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

int cmd_collect(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "keep", required_argument, NULL, 'k' },
		{ "state", required_argument, NULL, 's' },
		{ "run", required_argument, NULL, 'r' },
		{ "tracefs", required_argument, NULL, 't' },
		{ "config", required_argument, NULL, 'c' },
		{ "boot-id", required_argument, NULL, 'b' },
		{ "pstore", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct record_opts o = { .run = "/run/boottrace", .state = "/var/lib/boottrace",
				 .keep = RECORD_KEEP_DEFAULT };
	struct record_result r;
	struct bt_error e;
	const char *conf = NULL, *keep = NULL;
	int c;

	optind = 1;
	while ((c = cmd_getopt(argc, argv, "", longs)) != -1) {
		switch (c) {
		case 'k': keep = optarg; break;
		case 's': o.state = optarg; break;
		case 'r': o.run = optarg; break;
		case 't': o.tracefs = optarg; break;
		case 'c': conf = optarg; break;
		case 'b': o.boot_id = optarg; break;
		case 'p': o.pstore = optarg; break;
		case CMD_OPT_HELP: return cmd_parse_exit(CMD_HELP, collect_usage);
		default: return cmd_parse_exit(CMD_BAD, collect_usage);
		}
	}
	if (optind != argc) {
		bt_say(NULL, BT_SAY_ERROR, "no argument is taken ('%s'); see the options", argv[optind]);
		return cmd_parse_exit(CMD_BAD, collect_usage);
	}
	if (!*o.state || !*o.run) {
		bt_say(NULL, BT_SAY_ERROR, "--state and --run take a directory");
		return cmd_parse_exit(CMD_BAD, collect_usage);
	}
	bt_error_clear(&e);
	if (record_conf_load(conf ? conf : CONF_DEFAULT, conf != NULL, &o.keep, &e))
		return cmd_fail(&e, BT_EXIT_INPUT);
	if (keep && parse_keep(keep, &o.keep))
		return cmd_parse_exit(CMD_BAD, collect_usage);
	if (record_collect(&o, &r, &e))
		return cmd_fail(&e, BT_EXIT_ENV);
	printf("%s: boot record from %s (tracing %s; %d errors, %d warnings; %d older records removed)\n",
	       r.dir, r.snapshot, r.tracing, r.errors, r.warnings, r.pruned);
	return fflush(stdout) ? BT_EXIT_ENV : BT_EXIT_OK;
}
