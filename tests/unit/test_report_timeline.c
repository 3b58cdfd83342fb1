/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The time axis' buckets (report_timeline.c): hits far apart widen the
 * buckets by more than a 32-bit shift, as a damaged clock or a wrapped
 * counter gives (found by fuzz_report_dump); every hit stays counted.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/out/report.h"

static uint64_t counted(const struct report *r)
{
	const struct rp_timeline *t = &r->tl;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < (size_t)t->nseries * RP_TL_BUCKETS; i++)
		n += t->count[i];
	return n;
}

static struct report *read_text(const char *text)
{
	struct rp_findings q;
	struct report *r = report_new();

	assert_non_null(r);
	assert_true(report_feed(r, text, strlen(text), 1) >= 0);
	assert_int_equal(rp_check(r, NULL, NULL, &q), 0);
	return r;
}

#define HIT(ts) "          insmod-97      [001] .....  " ts ": bond_create <-bonding_init\n"

static void test_far_jump(void **state)
{
	struct report *r = read_text("# tracer: function\n" HIT("0.100000"));
	uint64_t per_hit = counted(r);	/* one per series the hit is in */

	(void)state;
	assert_true(per_hit > 0);
	report_delete(r);
	r = read_text("# tracer: function\n" HIT("0.100000") HIT("0.100001")
		      HIT("99999999.000000"));
	assert_true(r->tl.shift >= 32);
	assert_int_equal(counted(r), 3 * per_hit);
	report_delete(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_far_jump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
