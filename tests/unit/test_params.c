/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The boot parameter table (kernel/params.h): tracing's and the crash words. */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "kernel/ftrace_keys.h"
#include "kernel/params.h"

static void test_params_lookup(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < KP_N; i++) {
		const char *n = kparam_name((enum kparam)i);

		assert_non_null(n);
		assert_int_equal(kparam_find_any(n, strlen(n)), i);
		/* a crash word is the user's own to the tracing lookups */
		if (kparam_get((enum kparam)i)->use == KPU_TRACING)
			assert_int_equal(kparam_find(n), i);
		else
			assert_int_equal(kparam_find(n), KP_N);
		assert_ptr_equal(kparam_get((enum kparam)i)->name, n);
	}
	assert_int_equal(kparam_find("panic"), KP_N);
	assert_int_equal(kparam_find_any("panic=10", 5), KP_PANIC);
	assert_int_equal(kparam_find("ftrace-graph-filter"), KP_FTRACE_GRAPH_FILTER);
	assert_int_equal(kparam_find("tp_printk"), KP_TP_PRINTK);
	assert_int_equal(kparam_find("tp_printk_stop"), KP_N);
	assert_int_equal(kparam_find("quiet"), KP_N);
	assert_int_equal(kparam_findn("trace_event=sched:*", 11), KP_TRACE_EVENT);
	assert_int_equal(kparam_findn("ftrace_filter", 6), KP_FTRACE);
}

static void test_params_facts(void **state)
{
	size_t i;

	(void)state;
	assert_int_equal(kparam_buf(KP_FTRACE, 2048), 100);
	assert_int_equal(kparam_buf(KP_TRACE_OPTIONS, 2048), 100);
	assert_int_equal(kparam_buf(KP_TRACE_CLOCK, 2048), 100);
	assert_int_equal(kparam_buf(KP_FTRACE_FILTER, 2048), 2048);
	assert_int_equal(kparam_buf(KP_TRACE_EVENT, 512), 512);
	assert_int_equal(kparam_buf(KP_TRACE_BUF_SIZE, 2048), 0);
	assert_int_equal(kparam_get(KP_TRACE_INSTANCE)->repeat, KPR_APPEND);
	assert_int_equal(kparam_get(KP_TRACE_TRIGGER)->repeat, KPR_REPLACE);
	assert_string_equal(kcaps_since(kparam_get(KP_KPROBE_EVENT)->since), "5.3");
	assert_string_equal(kcaps_since(kparam_get(KP_TRACE_INSTANCE)->since), "6.3");
	assert_int_equal(kparam_get(KP_TP_PRINTK)->value, KPV_FLAG);
	assert_int_equal(kparam_get(KP_FTRACE_FILTER)->value, KPV_LIST);
	/* early_params stay on the bootloader's line (route_crash.c) */
	assert_true(kparam_get(KP_OOPS)->early);
	assert_true(kparam_get(KP_RESERVE_MEM)->early);
	assert_false(kparam_get(KP_PANIC)->early);
	assert_int_equal(kparam_get(KP_HUNG_TASK_PANIC)->needs, KO_DETECT_HUNG_TASK);
	assert_int_equal(kparam_get(KP_PANIC)->needs, KO_NOPT);
	for (i = 0; i < KP_N; i++) {
		const struct kparam_info *k = kparam_get((enum kparam)i);
		const struct kparam_info *real = kparam_get(k->real);

		/* A dead name points at a live one; a live one at itself. */
		if (k->value == KPV_DEAD)
			assert_int_not_equal(real->value, KPV_DEAD);
		else
			assert_int_equal(k->real, i);
		if (k->bconf_key) {
			char first[64];

			/* its first level is a key of kernel/ftrace_keys.c's table */
			assert_int_equal(strncmp(k->bconf_key, "ftrace.", 7), 0);
			snprintf(first, sizeof(first), "%.*s", (int)strcspn(k->bconf_key + 7, "."),
				 k->bconf_key + 7);
			assert_true(fkey_flags(first) & FK_GLOBAL);
			assert_string_equal(fkey_name(fkey_find(first)), first);
		}
	}
}

/* kernel/ftrace_keys.c: a key's id and its name, both levels. */
static void test_ftrace_keys(void **state)
{
	static const enum fkey parents[] = { FKEY_FTRACE, FKEY_FGRAPH, FKEY_EVENT };
	static const struct { enum fkey parent; const char *name; enum fsub id; } want[] = {
		{ FKEY_FTRACE, "filters", FSUB_FILTERS },
		{ FKEY_FTRACE, "notraces", FSUB_NOTRACES },
		{ FKEY_FGRAPH, "filters", FSUB_FILTERS },
		{ FKEY_FGRAPH, "max_depth", FSUB_MAX_DEPTH },
		{ FKEY_EVENT, "enable", FSUB_ENABLE },
		{ FKEY_EVENT, "filter", FSUB_FILTER },
		{ FKEY_EVENT, "actions", FSUB_ACTIONS },
		{ FKEY_EVENT, "hist", FSUB_HIST },
		{ FKEY_EVENT, "probes", FSUB_PROBES },
		{ FKEY_EVENT, "fields", FSUB_FIELDS },
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < FKEY_N; i++)
		assert_int_equal(fkey_find(fkey_name((enum fkey)i)), i);
	assert_int_equal(fkey_find("nope"), FKEY_N);
	assert_int_equal(fkey_flags("instance"), FK_GLOBAL);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(fsub_find(want[i].parent, want[i].name), want[i].id);
	/* every listed subkey has an id of its own under its parent */
	for (i = 0; i < sizeof(parents) / sizeof(parents[0]); i++) {
		const char *const *n = fsub_names(parents[i]);

		assert_non_null(n);
		for (j = 0; n[j]; j++) {
			assert_int_not_equal(fsub_find(parents[i], n[j]), FSUB_N);
			if (j)
				assert_int_not_equal(fsub_find(parents[i], n[j]), fsub_find(parents[i], n[j - 1]));
		}
	}
	assert_int_equal(fsub_find(FKEY_FTRACE, "max_depth"), FSUB_N);
	assert_int_equal(fsub_find(FKEY_TRACER, "filters"), FSUB_N);
	assert_null(fsub_names(FKEY_TRACER));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_params_lookup),
		cmocka_unit_test(test_params_facts),
		cmocka_unit_test(test_ftrace_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
