// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: the System.map/kallsyms reader of boottrace check, then the
 * lookups a check does on what it read (index, buckets, initcall levels).
 * Any input: an error or a table, never a crash, a leak or UB.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms t = { 0 };
	struct bt_error e;
	char *text = malloc(size + 1);
	size_t i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ksyms_keep(&t, text))
		return 0;
	if (!ksyms_parse_sysmap(&t, text, size, "fuzz", &e) && !ksyms_index(&t)) {
		for (i = 1; i < t.n && i < 64; i++) {
			uint32_t k;

			for (k = ksyms_bucket(&t, t.sym[i].name); k; k = t.sym[k].next)
				if (t.sym[k].mod >= (int)t.nmods)
					abort();
			kinitcall_level(&t, t.sym[i].name);
		}
	}
	ksyms_free(&t);
	return 0;
}
