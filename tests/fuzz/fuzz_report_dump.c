/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the ftrace-dump reader (report_dump.c): any bytes
 * as a console log. When a dump is found its trace is fed to the report
 * and its summary printed (text and JSON, to /dev/null). Errors are fine;
 * crashes, leaks and UB are not. Seeds: the dump logs of tests/data/traces
 * (qemu-6.1-dump-*.log, hand-dump-*.log).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct rp_dump *d = NULL;
	struct bt_error e;
	struct report r;
	char *trace = NULL;
	size_t len = 0;
	unsigned i;

	if (!null)
		null = fopen("/dev/null", "w");
	bt_error_clear(&e);
	if (rp_dump_extract((const char *)data, size, &d, &trace, &len, "fuzz",
			    &e)) {
		assert(e.msg[0] && !d);
		return 0;
	}
	assert(d && trace && !trace[len]);
	assert(d->ndumps >= 1 && d->nopen <= RP_DUMP_OPEN &&
	       d->ncalls <= RP_DUMP_CALLS);
	assert(d->nopen <= d->nopen_all);
	for (i = 0; i < d->ncpu; i++)
		assert(d->cpu[i].nlast <= RP_DUMP_LAST);
	report_init(&r);
	assert(report_feed(&r, trace, len, 1) == (long)len);
	report_free(&r);
	if (null) {
		rp_dump_text(d, null);
		rp_dump_json(d, null);
	}
	rp_dump_free(d);
	free(trace);
	return 0;
}
