/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the console-log extractor (report_console.c).
 *
 * Input: [boot byte][log bytes]. Snapshot number (boot byte % 4; 0 = the
 * last) is rebuilt from the log; when it succeeds the rebuilt trace is fed
 * to the report. Errors are fine; crashes, leaks and UB are not. Seeds:
 * the console logs of tests/data/traces and tests/fuzz/seeds (a real
 * capture made messy: escape codes, capture timestamps, a kernel message
 * mid-line), and every trace of tests/data/traces.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_snap s;
	struct bt_error e;
	struct report r;

	if (size < 1)
		return 0;
	memset(&s, 0, sizeof(s));
	bt_error_clear(&e);
	if (!rp_console_extract((const char *)data + 1, size - 1, data[0] % 4,
				&s, "fuzz", &e)) {
		assert(s.trace && s.boot >= 1 && s.boot <= s.nboots);
		assert(memchr(s.damage, '\0', sizeof(s.damage)));
		assert(!s.damaged == !s.damage[0]);
		assert(!s.trace_damaged || s.damaged);
		report_init(&r);
		assert(report_feed(&r, s.trace, s.trace_len, 1) ==
		       (long)s.trace_len);
		bt_error_clear(&e);
		(void)report_refused(&r, "fuzz", &e);
		report_free(&r);
	} else {
		assert(e.msg[0]);
	}
	rp_snap_free(&s);
	return 0;
}
