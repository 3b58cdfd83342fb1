/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the trace parser and the report built on it.
 *
 * Input: [split byte][trace text]. The text is fed twice: whole, and cut
 * at a point chosen by the split byte (as reads cut a file); both must
 * give the same counts. Then the evidence checks and all three outputs
 * run on the result (to /dev/null): no crash, no leak, no UB, whatever
 * the bytes. The seeds (tests/fuzz/run.sh) are every trace of
 * tests/data/traces: function tracer with and without stacks, events,
 * kprobes, trigger stacks, syscall events, function_graph (with and
 * without abstime/proc), trace-cmd report text, latency tracers, and the
 * refused ones (osnoise); a refused trace must be refused both ways too.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/report.h"

static uint64_t timed(const struct report *r)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < r->nfn; i++)
		n += r->fn[i].dur_n * 31 + r->fn[i].dur_total;
	return n;
}

static void outputs(struct report *r)
{
	struct rp_findings q;
	struct rp_out o = { r, &q, NULL, "fuzz", "trace", NULL };
	FILE *f = fopen("/dev/null", "w");

	assert(f);
	if (!rp_check(r, NULL, NULL, &q)) {
		rp_print_text(&o, f);
		rp_print_json(&o, f);
		rp_print_folded(&o, f);
	}
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report a, b;
	size_t cut, len;
	const char *t;
	long used;

	if (size < 1)
		return 0;
	t = (const char *)data + 1;
	len = size - 1;
	cut = len ? data[0] * len / 255 : 0;
	report_init(&a);
	report_init(&b);
	assert(report_feed(&a, t, len, 1) == (long)len);
	used = report_feed(&b, t, cut, 0);
	assert(used >= 0 && (size_t)used <= cut);
	assert(report_feed(&b, t + used, len - (size_t)used, 1) ==
	       (long)(len - (size_t)used));
	assert(a.lines == b.lines && a.entries == b.entries &&
	       a.nfn == b.nfn && a.stacks.n == b.stacks.n &&
	       a.skip.lines == b.skip.lines);
	assert(a.hdr.how == b.hdr.how && timed(&a) == timed(&b));
	{
		struct bt_error ea, eb;

		bt_error_clear(&ea);
		bt_error_clear(&eb);
		assert(report_refused(&a, "fuzz", &ea) ==
		       report_refused(&b, "fuzz", &eb));
		assert(!ea.code || ea.msg[0]);
	}
	outputs(&a);
	report_free(&a);
	report_free(&b);
	return 0;
}
