/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel/tracefs.c: what makes a directory a tracefs, and where one is looked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "kernel/tracefs.h"

static void has_what_is_asked(void **state)
{
	char dir[] = "/tmp/bt-tracefs-XXXXXX", p[300], *longer;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_false(tracefs_has(dir, TFN_TRACE));
	assert_false(tracefs_has(dir, TFN_INSTANCES));
	snprintf(p, sizeof(p), "%s/trace", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	assert_true(tracefs_has(dir, TFN_TRACE));
	assert_false(tracefs_has(dir, TFN_INSTANCES));
	/* a file named instances is not the directory of instances */
	snprintf(p, sizeof(p), "%s/instances", dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	assert_false(tracefs_has(dir, TFN_INSTANCES));
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkdir(p, 0700), 0);
	assert_true(tracefs_has(dir, TFN_INSTANCES));
	/* a name longer than a path may be is no tracefs */
	longer = malloc(5000);
	assert_non_null(longer);
	memset(longer, 'a', 4999);
	longer[4999] = '\0';
	assert_false(tracefs_has(longer, TFN_TRACE));
	free(longer);
	assert_int_equal(rmdir(p), 0);
	snprintf(p, sizeof(p), "%s/trace", dir);
	assert_int_equal(unlink(p), 0);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * The initramfs hook looks for tracefs in shell; its default list must be
 * this one, in this order, or the hook and collect read different places.
 */
static void hook_looks_in_the_same_order(void **state)
{
	static const char key[] = "BT_TRACEFS_DIRS=${BOOTTRACE_TRACEFS:-";
	FILE *f = fopen("initramfs-hook/boottrace-snapshot.sh", "r");
	char line[512], want[512] = "";
	const char *d;
	size_t i;
	int found = 0;

	(void)state;
	assert_non_null(f);
	for (i = 0; (d = tracefs_dir(i)); i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? " " : "", d);
	assert_true(i >= 2);
	assert_string_equal(tracefs_dir(0), TRACEFS_MOUNT);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, sizeof(key) - 1)) {
			line[strcspn(line, "}")] = '\0';
			assert_string_equal(line + sizeof(key) - 1, want);
			found = 1;
		}
	fclose(f);
	assert_true(found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(has_what_is_asked),
		cmocka_unit_test(hook_looks_in_the_same_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
