// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which record (record.h): --boot as journalctl -b counts boots, or a boot
 * id's start; and what a record's --list line says of it.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util/readfile.h"
#include "record/record.h"

/* A cmdline is at most a few KiB; COMPLETE one line. */
#define ABOUT_MAX ((size_t)64 << 10)

/* The index of offset @k (journalctl -b: 0 newest, -1 before, 1 oldest), or -1. */
static long pick_offset(size_t n, long k)
{
	if (k <= 0)
		return (size_t)-k < n ? -k : -1;
	return (size_t)k <= n ? (long)(n - (size_t)k) : -1;
}

static long pick_prefix(const struct record_entry *v, size_t n, const char *spec,
			const char *state, struct bt_error *e)
{
	size_t i, len = strlen(spec), hits = 0;
	long at = -1;

	for (i = 0; i < n; i++)
		if (!strncasecmp(v[i].name, spec, len))
			hits++, at = (long)i;
	if (hits == 1)
		return at;
	if (hits)
		bt_error_set(e, BT_EXIT_INPUT, NULL, "--boot %s: %zu records' boot ids start so in %s: give more of the boot id (boottrace report --list)", spec, hits, state);
	else
		bt_error_set(e, BT_EXIT_INPUT, NULL, "--boot %s: no record's boot id starts so in %s (boottrace report --list shows them)", spec, state);
	return -1;
}

long record_pick(const struct record_entry *v, size_t n, const char *spec,
		 const char *state, struct bt_error *e)
{
	char *end;
	long k = strtol(spec, &end, 10), at;

	if (!*spec || *end)
		return pick_prefix(v, n, spec, state, e);
	if ((at = pick_offset(n, k)) >= 0)
		return at;
	if (!n)
		bt_error_set(e, BT_EXIT_INPUT, NULL, "--boot %s: no record in %s", spec, state);
	else
		bt_error_set(e, BT_EXIT_INPUT, NULL, "--boot %s: %s holds %zu records: 0 is the newest, -%zu the oldest (or 1 the oldest, %zu the newest); boottrace report --list shows them", spec, state, n, n - 1, n);
	return -1;
}

void record_utc(long long t, char *buf, size_t cap)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, cap, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, cap, "%lld", t);
}

/* @rel of the record, or NULL (absent, unreadable, too long: not said). */
static char *about_file(const char *state, const char *name, const char *rel)
{
	struct bt_error e;
	char path[4096];
	size_t len;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s", state, name, rel) >= sizeof(path))
		return NULL;
	return readfile(path, ABOUT_MAX, RF_REGULAR, rel, &len, &e);
}

/* The sum of @key=N words in COMPLETE's line. */
static int complete_count(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p;

	for (p = text; (p = strstr(p, key)); p += kl)
		if ((p == text || p[-1] == ' ') && p[kl] == '=')
			return atoi(p + kl + 1);
	return 0;
}

void record_about(const char *state, const struct record_entry *r,
		  struct record_about *a)
{
	char *cmdline = about_file(state, r->name, "cmdline");
	char *complete = about_file(state, r->name, "COMPLETE");

	memset(a, 0, sizeof(*a));
	if (cmdline)
		a->asked = bt_ask_from_cmdline(cmdline, &a->ask, &a->why);
	a->complete = complete != NULL;
	if (complete)
		a->errors = complete_count(complete, "errors") +
			    complete_count(complete, "collect_errors");
	record_utc(r->when, a->utc, sizeof(a->utc));
	free(cmdline);
	free(complete);
}
