/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the previous boot's reader (report_prev.c): any
 * bytes as the copy of a persistent instance, its last_boot_info and the
 * hook's text line taken from the input's first two lines (so that the
 * delta and _text parsers are fuzzed too); then the text and JSON
 * sections printed to /dev/null. Out of memory is the only error; crashes,
 * leaks and UB are not fine. Seeds: the trace files (run.sh, "trace").
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	const char *p = (const char *)data, *end = p + size, *nl1, *nl2;
	char *lbi = NULL, *text = NULL, *trace;
	struct rp_prev prev;
	size_t len;

	if (!null)
		null = fopen("/dev/null", "w");
	nl1 = memchr(p, '\n', size);
	nl2 = nl1 ? memchr(nl1 + 1, '\n', (size_t)(end - nl1 - 1)) : NULL;
	if (nl2) {
		lbi = strndup(p, (size_t)(nl1 - p));
		text = strndup(nl1 + 1, (size_t)(nl2 - nl1 - 1));
		p = nl2 + 1;
	}
	len = (size_t)(end - p);
	trace = malloc(len + 1);
	if (!trace)
		return 0;
	memcpy(trace, p, len);
	trace[len] = '\0';
	memset(&prev, 0, sizeof(prev));
	if (rp_prev_parse(&prev, "fuzz", trace, len, lbi, text) == 0 && null) {
		rp_prev_print_text(&prev, NULL, null);
		rp_prev_print_json(&prev, NULL, null);
	}
	rp_prev_free(&prev);
	free(lbi);
	free(text);
	return 0;
}
