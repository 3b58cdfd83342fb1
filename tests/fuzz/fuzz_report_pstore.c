/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the pstore record reader (report_pstore.c): any
 * bytes as a record of /sys/fs/pstore. A record read has its header's
 * fields in range and, with a dump, the dump's trace fed to the report and
 * its summary printed (text and JSON, to /dev/null). Errors are fine;
 * crashes, leaks and UB are not. Seeds: tests/data/traces/
 * qemu-6.1-pstore-panic.dmesg-ramoops-0 (and the same with a "====" line).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct rp_pstore *ps = NULL;
	struct rp_dump *d = NULL;
	struct bt_error e;
	struct report r;
	char *trace = NULL;
	size_t len = 0;

	if (!null)
		null = fopen("/dev/null", "w");
	bt_error_clear(&e);
	if (rp_pstore_read((const char *)data, size, "fuzz", &ps, &d, &trace,
			   &len, &e)) {
		assert(e.msg[0] && !ps && !d);
		return 0;
	}
	assert(ps && ps->rec.reason[0] && ps->rec.count >= 0 && ps->rec.part >= 0);
	assert(rp_pstore_holds((const char *)data, size));
	assert(!d == !trace);
	if (d) {
		assert(!trace[len] && d->ndumps >= 1);
		report_init(&r);
		assert(report_feed(&r, trace, len, 1) == (long)len);
		report_free(&r);
	}
	if (null) {
		rp_pstore_text(ps, d, null);
		rp_pstore_json(ps, d, null);
		if (d)
			rp_dump_text(d, null);
	}
	rp_dump_free(d);
	rp_pstore_free(ps);
	free(trace);
	return 0;
}
