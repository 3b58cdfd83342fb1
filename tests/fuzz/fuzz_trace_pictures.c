/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the report's pictures (issue 19): any trace text,
 * counted, then written as an HTML page, an SVG flame graph, trace-event
 * JSON and a diff against itself (text, JSON, HTML), to memory: no crash,
 * no leak, no UB whatever the bytes. The text of the trace must never
 * reach a page as markup: an HTML page holds no "<script" but its own
 * one, the SVG none; and a boot diffed against itself shows nothing that
 * appeared or vanished. Seeded like
 * fuzz_trace (tests/fuzz/run.sh: every trace of tests/data/traces).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/report.h"

static size_t count(const char *s, size_t len, const char *what)
{
	size_t n = 0, w = strlen(what);
	const char *p = s, *end = s + len;

	while ((p = memmem(p, (size_t)(end - p), what, w))) {
		n++;
		p += w;
	}
	return n;
}

static void one(int (*print)(const struct rp_out *, FILE *),
		const struct rp_out *o, size_t scripts)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert(f);
	print(o, f);
	fclose(f);
	if (scripts != (size_t)-1)
		assert(count(buf, len, "<script") == scripts);
	free(buf);
}

static void diffs(const struct rp_out *o)
{
	static const char *const fmt[] = { "text", "json", "html" };
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f;

	for (i = 0; i < 3; i++) {
		f = open_memstream(&buf, &len);
		assert(f);
		rp_print_diff(o, o, fmt[i], f);
		fclose(f);
		/* a boot against itself: nothing appeared or vanished (names
		 * hold no newline, so these are the diff's own lines) */
		if (i == 0) {
			assert(!memmem(buf, len, "\n  culprit appeared: ", 21));
			assert(!memmem(buf, len, "\n  culprit vanished: ", 21));
			assert(!memmem(buf, len, "\n  task appeared: ", 18));
			assert(!memmem(buf, len, "\n  task vanished: ", 18));
			assert(!memmem(buf, len, "\n  appeared: ", 14));
			assert(!memmem(buf, len, "\n  vanished: ", 14));
		}
		if (i == 2)
			assert(count(buf, len, "<script") == 1);
		free(buf);
		buf = NULL;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rp_findings q;
	struct report r;
	struct rp_out o = { &r, &q, NULL, "fuzz<&>", "trace", NULL };

	report_init(&r);
	assert(report_feed(&r, (const char *)data, size, 1) == (long)size);
	if (!rp_check(&r, NULL, NULL, &q)) {
		one(rp_print_html, &o, 1);
		one(rp_print_svg, &o, 0);
		one(rp_print_perfetto, &o, (size_t)-1);	/* JSON: '<' is text */
		diffs(&o);
	}
	report_free(&r);
	return 0;
}
