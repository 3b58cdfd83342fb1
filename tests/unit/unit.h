/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Common includes for the cmocka unit tests. */
#ifndef BT_UNIT_H
#define BT_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <stdio.h>

/* Write @text to the file @name in the directory @dir (a test's fixture). */
static inline void unit_put(const char *dir, const char *name,
			    const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

#endif
