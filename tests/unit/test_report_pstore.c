/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rp_pstore_read, rp_pstore_dir (report_pstore.c, issue 18 part 4): a
 * pstore record, the previous boot's log tail ramoops kept at a panic.
 * Real records of tests/e2e/pstore.sh (tests/data/traces/README.md,
 * "pstore records"): the whole log with a short dump, and one whose dump
 * was longer than the kernel's log buffer (its start lost). Headers that
 * are not a record's are refused; the dump's trace must be the lines of
 * the record without their "<N>" prefixes.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/readfile.h"
#include "report/out/report.h"

#define DATA "tests/data/traces/"

static char *slurp(const char *path, size_t *len)
{
	struct bt_error e;
	char *t = readfile(path, 1u << 24, 0, "a test record", len, &e);

	assert_non_null(t);
	return t;
}

static void test_holds(void **state)
{
	static const char *const yes[] = {
		"Panic#1 Part1\n<0>[    1.000000] x\n", "Oops#12 Part3\n",
		"====1764130000.123456-D\nPanic#1 Part1\n",
		"====1764130000.123456\nShutdown#1 Part1\n", "Emergency#1 Part1",
	};
	static const char *const no[] = {
		"", "Panic#1\n", "Panic# Part1\n", "#1 Part1\n", "Panic#1 Part\n",
		"Panic#1 Part1 more\n", "====x\nPanic#1 Part1\n",
		"====1.2-C", "[    0.000000] Linux version\n", "Panic 1 Part1\n",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_int_equal(rp_pstore_holds(yes[i], strlen(yes[i])), 1);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_int_equal(rp_pstore_holds(no[i], strlen(no[i])), 0);
}

static void test_real_record(void **state)
{
	struct rp_pstore *ps;
	struct rp_dump *d;
	struct bt_error e;
	char *t, *trace;
	size_t len, tlen;

	(void)state;
	t = slurp(DATA "qemu-6.1-pstore-panic.dmesg-ramoops-0", &len);
	bt_error_clear(&e);
	assert_int_equal(rp_pstore_read(t, len, "x/dmesg-ramoops-0", &ps, &d,
					&trace, &tlen, &e), 0);
	assert_string_equal(ps->rec.name, "dmesg-ramoops-0");
	assert_string_equal(ps->rec.reason, "Panic");
	assert_int_equal(ps->rec.count, 1);
	assert_int_equal(ps->rec.part, 1);
	assert_int_equal(ps->rec.has_dump, 1);
	assert_int_equal(ps->rec.dump_cut, 0);
	assert_int_equal(ps->log_lines, 453);
	assert_string_equal(ps->first_stamp, "0.000000");
	assert_string_equal(ps->last_stamp, "33.133905");
	assert_non_null(d);
	assert_int_equal(d->start_cut, 0);
	assert_int_equal(d->truncated, 0);
	assert_int_equal(d->lines, 41);
	assert_string_equal(d->panic, "crashmod: device 0 failed to come up");
	assert_int_equal(d->nopen, 1);
	assert_string_equal(d->open[0].func, "crashmod_init");
	/* no "<0>" nor printk time left in the trace */
	assert_null(strstr(trace, "<0>"));
	assert_null(strstr(trace, "[   33."));
	assert_non_null(strstr(trace, "crashmod_probe_device: (crashmod_probe_device+0x0/0x26 [crashmod])"));
	rp_dump_free(d);
	rp_pstore_free(ps);
	free(trace);
	free(t);
}

static void test_start_cut(void **state)
{
	struct rp_pstore *ps;
	struct rp_dump *d;
	struct bt_error e;
	char *t, *trace, path[] = "/tmp/bt-pstore-XXXXXX";
	size_t len, tlen;
	char cmd[256];
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "gzip -dc " DATA "qemu-6.1-pstore-tracing-stopped.dmesg-ramoops-0.gz >%s", path);
	assert_int_equal(system(cmd), 0);
	t = slurp(path, &len);
	assert_int_equal(len, 161404);
	bt_error_clear(&e);
	assert_int_equal(rp_pstore_read(t, len, path, &ps, &d, &trace, &tlen, &e), 0);
	assert_non_null(d);
	assert_int_equal(d->start_cut, 1);
	assert_int_equal(ps->rec.dump_cut, 1);
	assert_int_equal(d->panic[0], '\0');
	assert_int_equal(d->interleaved, 0);
	assert_int_equal(d->nopen, 0);
	/* the leading frames of a stack whose event was lost are not trace */
	assert_true(trace[0] != ' ');
	rp_dump_free(d);
	rp_pstore_free(ps);
	free(trace);
	free(t);
	unlink(path);
}

static void test_refused(void **state)
{
	static const char notrec[] = "[    0.000000] Linux version\n";
	static const char comp[] = "====1.000001-C\nPanic#1 Part1\n";
	struct rp_pstore *ps;
	struct rp_dump *d;
	struct bt_error e;
	char *trace = NULL;
	size_t tlen;

	(void)state;
	bt_error_clear(&e);
	assert_int_equal(rp_pstore_read(notrec, sizeof(notrec) - 1, "r", &ps, &d,
					&trace, &tlen, &e), -1);
	assert_null(ps);
	assert_non_null(strstr(e.msg, "line 1: not a pstore record's header"));
	bt_error_clear(&e);
	assert_int_equal(rp_pstore_read(comp, sizeof(comp) - 1, "r", &ps, &d,
					&trace, &tlen, &e), -1);
	assert_non_null(strstr(e.msg, "still compressed"));
}

static void test_no_dump(void **state)
{
	static const char rec[] = "Oops#2 Part1\n<4>[    5.000000] BUG: x\n<4>[    5.100000] y";
	struct rp_pstore *ps;
	struct rp_dump *d;
	struct bt_error e;
	char *trace = NULL;
	size_t tlen = 0;

	(void)state;
	bt_error_clear(&e);
	assert_int_equal(rp_pstore_read(rec, sizeof(rec) - 1, "r", &ps, &d,
					&trace, &tlen, &e), 0);
	assert_null(d);
	assert_null(trace);
	assert_string_equal(ps->rec.reason, "Oops");
	assert_int_equal(ps->rec.count, 2);
	assert_int_equal(ps->log_lines, 2);
	assert_string_equal(ps->last_stamp, "5.100000");
	rp_pstore_free(ps);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_dir(void **state)
{
	struct rp_pstore *ps;
	struct bt_error e;
	char dir[] = "/tmp/bt-pstore-dir-XXXXXX", p[256], *t;
	size_t len;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	bt_error_clear(&e);
	assert_int_equal(rp_pstore_dir(dir, &ps, &e), 0);
	assert_null(ps);	/* no pstore/ */
	snprintf(p, sizeof(p), "%s/pstore", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	t = slurp(DATA "qemu-6.1-pstore-panic.dmesg-ramoops-0", &len);
	/* an older dump of the same boot (Oops#1) in the other record */
	snprintf(p, sizeof(p), "%s/pstore/dmesg-ramoops-0", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("Oops#1 Part1\n", f);
	fwrite(strchr(t, '\n') + 1, 1, len - (size_t)(strchr(t, '\n') + 1 - t), f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/pstore/dmesg-ramoops-1", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("Panic#2 Part1\n", f);
	fwrite(strchr(t, '\n') + 1, 1, len - (size_t)(strchr(t, '\n') + 1 - t), f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/pstore/console-ramoops-0", dir);
	put(p, "text\n");
	bt_error_clear(&e);
	assert_int_equal(rp_pstore_dir(dir, &ps, &e), 0);
	assert_non_null(ps);
	assert_int_equal(ps->nrecs, 3);
	assert_string_equal(ps->recs[0].name, "console-ramoops-0");
	assert_string_equal(ps->recs[0].reason, "");
	assert_string_equal(ps->recs[1].name, "dmesg-ramoops-0");
	assert_string_equal(ps->recs[2].name, "dmesg-ramoops-1");
	/* the newest: the highest count */
	assert_int_equal(ps->answered, 2);
	assert_string_equal(ps->rec.name, "dmesg-ramoops-1");
	assert_string_equal(ps->rec.reason, "Panic");
	assert_non_null(ps->dump);
	rp_pstore_free(ps);
	free(t);
	snprintf(p, sizeof(p), "rm -rf %s", dir);
	assert_int_equal(system(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holds),
		cmocka_unit_test(test_real_record),
		cmocka_unit_test(test_start_cut),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_no_dump),
		cmocka_unit_test(test_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
