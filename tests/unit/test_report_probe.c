/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kprobe hits joined to their function's hit (report_agg.c): the layout of
 * tests/data/traces/debian-6.1-amd64-frames.trace (the probe line, its
 * stack, the function line, its stack, on one CPU and task), and the cases
 * where there is nothing to join to.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/out/report.h"

static struct report *checked(const char *text)
{
	struct report *r = report_new();
	struct rp_findings q;

	assert_non_null(r);
	assert_true(report_feed(r, text, strlen(text), 1) >= 0);
	assert_int_equal(rp_check(r, NULL, NULL, &q), 0);
	return r;
}

static const struct rp_fn *fn(const struct report *r, const char *name)
{
	uint32_t i;

	for (i = 0; i < r->nfn; i++)
		if (!strcmp(rp_str(&r->names, r->fn[i].name), name))
			return &r->fn[i];
	fail_msg("no function %s", name);
	return NULL;
}

static const char *vals_of(const struct report *r, const struct rp_pairs *t,
			   uint32_t a, char *buf, size_t cap)
{
	rp_probe_text(r, t, a, buf, cap);
	return buf;
}

/* The stack id whose innermost usable frame is @name. */
static uint32_t stack_with(const struct report *r, const char *name)
{
	uint32_t k, j;

	for (k = 0; k < r->stacks.n; k++)
		for (j = 0; j < r->stacks.s[k].nframes; j++)
			if (!strcmp(rp_str(&r->names, r->stacks.s[k].frame[j]), name))
				return k;
	fail_msg("no stack with %s", name);
	return RP_NONE;
}

#define PROBE(cpu, t, v) "          insmod-97      [00" cpu "] ...1.     " t ": rnd: (register_netdevice+0x0/0x7e0) name=\"" v "\"\n"
#define STACK(cpu, t) "          insmod-97      [00" cpu "] ...1.     " t ": <stack trace>\n"
#define FUNC(cpu, t) "          insmod-97      [00" cpu "] ...1.     " t ": register_netdevice+0x0/0x7e0 <-bond_create+0x62/0xb0 [bonding]\n"

/* probe, its stack, the function, its stack: one hit, the values with it */
static void test_joined(void **state)
{
	char buf[200];
	struct report *r = checked("# tracer: function\n"
				   PROBE("1", "3.971907", "bond%d") STACK("1", "3.979097")
				   " => register_netdevice+0x1/0x7e0\n => bond_create+0x62/0xb0 [bonding]\n => probe_only_frame\n"
				   FUNC("1", "3.979217") STACK("1", "3.979248")
				   " => arch_ftrace_ops_list_func+0x112/0x1d0\n => ftrace_regs_call+0x5/0x52\n"
				   " => register_netdevice+0x5/0x7e0\n => bond_create+0x62/0xb0 [bonding]\n => func_only_frame\n");
	const struct rp_fn *f = fn(r, "register_netdevice");

	(void)state;
	assert_int_equal(f->hits, 1);
	assert_int_equal(f->with_stack, 1);
	assert_int_equal(f->probe_joined, 1);
	assert_false(f->is_event);
	assert_string_equal(vals_of(r, &r->fn_probe, f->name, buf, sizeof(buf)), "name=\"bond%d\" (1)");
	/* the function's own stack carries the values; the probe's is not counted */
	assert_string_equal(vals_of(r, &r->stack_probe, stack_with(r, "func_only_frame"), buf, sizeof(buf)),
			    "name=\"bond%d\" (1)");
	assert_string_equal(vals_of(r, &r->stack_probe, stack_with(r, "probe_only_frame"), buf, sizeof(buf)), "");
	report_delete(r);
}

/* the function's hit has no stack (no func_stack_trace): it takes the probe's */
static void test_joined_probe_stack(void **state)
{
	char buf[200];
	struct report *r = checked("# tracer: function\n"
				   PROBE("1", "3.971907", "bond%d") STACK("1", "3.979097")
				   " => register_netdevice+0x1/0x7e0\n => bond_create+0x62/0xb0 [bonding]\n => probe_only_frame\n"
				   FUNC("1", "3.979217")
				   "          insmod-97      [001] .....     3.990000: bond_init <-register_netdevice\n");
	const struct rp_fn *f = fn(r, "register_netdevice");

	(void)state;
	assert_int_equal(f->hits, 1);
	assert_int_equal(f->with_stack, 1);
	assert_string_equal(vals_of(r, &r->stack_probe, stack_with(r, "probe_only_frame"), buf, sizeof(buf)),
			    "name=\"bond%d\" (1)");
	assert_int_equal(fn(r, "bond_init")->hits, 1);
	report_delete(r);
}

/* nothing to join to: another function next, or the end; a probe alone */
static void test_alone(void **state)
{
	char buf[200];
	struct report *r = checked("# tracer: function\n"
				   PROBE("0", "1.000000", "eth%d")
				   "          insmod-97      [000] .....     1.000100: other_fn <-x\n"
				   PROBE("1", "2.000000", "bond%d"));
	const struct rp_fn *f = fn(r, "register_netdevice");

	(void)state;
	assert_int_equal(f->hits, 2);
	assert_true(f->is_event);
	assert_int_equal(f->probe_joined, 0);
	assert_string_equal(vals_of(r, &r->fn_probe, f->name, buf, sizeof(buf)),
			    "name=\"eth%d\" (1), name=\"bond%d\" (1)");
	assert_int_equal(fn(r, "other_fn")->hits, 1);
	report_delete(r);
}

/* two CPUs interleaved: each probe joins the call on its own CPU */
static void test_two_cpus(void **state)
{
	char buf[200];
	struct report *r = checked("# tracer: function\n"
				   PROBE("0", "1.000000", "a%d") PROBE("1", "1.000001", "b%d")
				   FUNC("1", "1.000002") FUNC("0", "1.000003"));
	const struct rp_fn *f = fn(r, "register_netdevice");

	(void)state;
	assert_int_equal(f->hits, 2);
	assert_int_equal(f->probe_joined, 2);
	assert_string_equal(vals_of(r, &r->fn_probe, f->name, buf, sizeof(buf)),
			    "name=\"b%d\" (1), name=\"a%d\" (1)");	/* b joined first */
	report_delete(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_joined),
		cmocka_unit_test(test_joined_probe_stack),
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_two_cpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
