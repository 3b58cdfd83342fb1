/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report_prev.c on a persistent instance's copy laid out as Linux 6.12.95
 * printed one in QEMU (docs/kernel-facts.md 50-55): the previous boot's
 * events, then this boot's appended per CPU, the clock restarting; the
 * previous boot's initcall pointers raw ("func=0x... (decimal)"), named
 * here through the text delta, this boot's _text and a System.map.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/out/report.h"

/* delta -0x18800000: previous _text 0xffffffffb9600000, this boot's
 * 0xffffffffa0e00000, the System.map's 0xffffffff81000000 */
/* as the kernel prints it: the CPUs merged, each head by its time */
static const char TRACE[] =
	"# tracer: nop\n"
	"#\n"
	"# entries-in-buffer/entries-written: 8/8   #P:3\n"
	"           <idle>-0       [000] ...1.     0.000000: initcall_level: level=console\n"
	"           <idle>-0       [000] ...1.     0.000000: initcall_start: func=0xffffffffb99890e0 (-1181183776)\n"
	"           <idle>-0       [000] ...1.     0.000000: initcall_finish: func=0xffffffffb99890e0 ret=0\n"
	"        swapper/0-1       [001] .....     0.700000: initcall_start: func=0xffffffffb9955780 (-1181395072)\n"
	"        swapper/0-1       [001] .....     0.500000: initcall_start: func=0xffffffffa11890e0 (-1592225568)\n"
	"        swapper/0-1       [002] .....     0.900000: initcall_finish: func=con_init+0x0/0x250 ret=0\n"
	"        swapper/0-1       [000] .....     1.060982: initcall_start: func=0xffffffffb9955790 (-1181395056)\n"
	"           <idle>-0       [000] ...1.     0.402274: initcall_level: level=console\n";
/* in the file's order per CPU: CPU 0 reads 0, 0, 0, 1.060982 then 0.402274 */
static const char TRACE_CPU0[] =
	"           <idle>-0       [000] ...1.     0.000000: initcall_level: level=console\n"
	"           <idle>-0       [000] ...1.     0.000000: initcall_start: func=0xffffffffb99890e0 (-1181183776)\n"
	"           <idle>-0       [000] ...1.     0.000000: initcall_finish: func=0xffffffffb99890e0 ret=0\n"
	"        swapper/0-1       [000] .....     1.060982: initcall_start: func=0xffffffffb9955790 (-1181395056)\n"
	"        swapper/0-1       [001] .....     0.700000: initcall_start: func=0xffffffffb9955780 (-1181395072)\n"
	"           <idle>-0       [000] ...1.     0.402274: initcall_level: level=console\n"
	"        swapper/0-1       [001] .....     0.500000: initcall_start: func=0xffffffffa11890e0 (-1592225568)\n"
	"        swapper/0-1       [002] .....     0.900000: initcall_finish: func=con_init+0x0/0x250 ret=0\n";
static const char LBI[] = "text delta:\t-411041792\ndata delta:\t-411041792\n";
static const char TEXT[] = "ffffffffa0e00000 T _text\n";
static const char MAP[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81355780 t foo_init\n"
	"ffffffff81355790 t hang_init\n"
	"ffffffff813890e0 t con_init\n"
	"ffffffff81389400 t after_con\n";

static void parse(struct rp_prev *p, const char *trace, const char *lbi,
		  const char *text)
{
	char *t = strdup(trace);

	assert_non_null(t);
	assert_int_equal(rp_prev_parse(p, "boottrace", t, strlen(t), lbi, text), 0);
}

static char *print(const struct rp_prev *p, const struct rp_syms *syms)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rp_prev_print_text(p, syms, f), 0);
	fclose(f);
	return buf;
}

static const struct rp_prev_cpu *cpu(const struct rp_prev *p, int n)
{
	size_t i;

	for (i = 0; i < p->ncpu; i++)
		if (p->cpu[i].cpu == n)
			return &p->cpu[i];
	fail_msg("no CPU %d", n);
	return NULL;
}

/* Each CPU's previous boot ends at its last step back in time. */
static void test_split_per_cpu(void **state)
{
	struct rp_prev p;

	(void)state;
	parse(&p, TRACE_CPU0, LBI, TEXT);
	assert_int_equal(p.ncpu, 3);
	assert_int_equal(cpu(&p, 0)->step, 4);
	assert_int_equal(cpu(&p, 0)->events, 5);
	assert_true(cpu(&p, 0)->prev_last == 1060982000ULL);
	assert_true(cpu(&p, 0)->cur_first == 402274000ULL);
	assert_int_equal(cpu(&p, 1)->step, 1);
	assert_int_equal(cpu(&p, 2)->step, 0);	/* no step: this boot's */
	assert_int_equal(p.nev, 5);
	assert_true(p.have_delta && p.delta == -411041792LL);
	assert_true(p.have_text && p.cur_text == 0xffffffffa0e00000ULL);
	rp_prev_free(&p);
}

/* A previous boot's pointer + delta - this _text + the map's _text. */
static void test_name_moved_pointer(void **state)
{
	struct rp_syms syms;
	struct bt_error e;
	struct rp_prev p;
	char out[128];

	(void)state;
	memset(&syms, 0, sizeof(syms));
	assert_int_equal(rp_syms_load(&syms, MAP, "map", &e), 0);
	parse(&p, TRACE_CPU0, LBI, TEXT);
	assert_int_equal(rp_prev_name(&p, &syms, -1, out, sizeof(out), 0xffffffffb99890e0ULL), 0);
	assert_string_equal(out, "con_init+0x0");
	assert_int_equal(rp_prev_name(&p, &syms, -1, out, sizeof(out), 0xffffffffb9955790ULL), 0);
	assert_string_equal(out, "hang_init+0x0");
	rp_prev_free(&p);
	/* without this boot's _text a System.map cannot be used */
	parse(&p, TRACE_CPU0, LBI, NULL);
	assert_int_equal(rp_prev_name(&p, &syms, -1, out, sizeof(out), 0xffffffffb99890e0ULL), -1);
	rp_prev_free(&p);
	rp_syms_free(&syms);
}

static void test_text_section(void **state)
{
	struct rp_syms syms;
	struct bt_error e;
	struct rp_prev p;
	char *s;

	(void)state;
	memset(&syms, 0, sizeof(syms));
	assert_int_equal(rp_syms_load(&syms, MAP, "map", &e), 0);
	parse(&p, TRACE_CPU0, LBI, TEXT);
	s = print(&p, &syms);
	assert_non_null(strstr(s, "Previous boot (persistent instance boottrace"));
	assert_non_null(strstr(s, "CPU 0: 4 events of the previous boot, the last at 1.060982 s (then this boot's from 0.402274 s)"));
	assert_non_null(strstr(s, "CPU 1: 1 events of the previous boot"));
	assert_non_null(strstr(s, "CPU 2: no events of the previous boot found"));
	assert_non_null(strstr(s, "ambiguous"));
	/* the never-finished ones, the last to start first, named */
	assert_non_null(strstr(s, "never finished"));
	assert_non_null(strstr(s, "initcall_start: func=hang_init+0x0\n"));
	assert_true(strstr(s, "func=hang_init+0x0\n") < strstr(s, "func=foo_init+0x0\n"));
	assert_null(strstr(s, "func=0x"));
	/* con_init finished: not among the unfinished */
	assert_null(strstr(strstr(s, "never finished"), "con_init"));
	free(s);
	/* no symbol table: raw, and said so */
	s = print(&p, NULL);
	assert_non_null(strstr(s, "func=0xffffffffb9955790"));
	assert_non_null(strstr(s, "pointers left raw"));
	free(s);
	rp_prev_free(&p);
	rp_syms_free(&syms);
}

/* The time-sorted file of the kernel reads the same per CPU. */
static void test_merged_order(void **state)
{
	struct rp_prev p;

	(void)state;
	parse(&p, TRACE, LBI, TEXT);
	assert_int_equal(cpu(&p, 0)->step, 4);
	assert_int_equal(cpu(&p, 1)->step, 1);
	assert_int_equal(cpu(&p, 2)->step, 0);
	assert_int_equal(p.nev, 5);
	rp_prev_free(&p);
}

static void test_all_finished(void **state)
{
	static const char t[] =
		"  a-1 [000] .....     2.000000: initcall_start: func=0xffffffffb99890e0 (-1)\n"
		"  a-1 [000] .....     2.100000: initcall_finish: func=0xffffffffb99890e0 ret=0\n"
		"  a-1 [000] .....     0.400000: initcall_level: level=console\n";
	struct rp_prev p;
	char *s;

	(void)state;
	parse(&p, t, LBI, TEXT);
	s = print(&p, NULL);
	assert_non_null(strstr(s, "every initcall that started finished"));
	free(s);
	rp_prev_free(&p);
}

/*
 * A small text delta: this boot's kernel names some previous-boot pointers
 * after its own symbols ("__end_rodata+0x..."), wrongly. The finish is
 * paired with its start by task and named by the start's raw pointer.
 */
static void test_kernel_named_finish(void **state)
{
	static const char t[] =
		"  swapper/0-1       [000] .....     0.900000: initcall_finish: func=early_thing+0x10/0x20 ret=0\n"
		"  swapper/0-1       [000] .....     1.000000: initcall_start: func=0xffffffffa29890e0 (-1)\n"
		"  swapper/0-1       [000] .....     1.100000: initcall_finish: func=__end_rodata+0xe50e0/0x15b000 ret=0\n"
		"  swapper/0-1       [000] .....     1.200000: initcall_start: func=0xffffffffa2955790 (-1)\n"
		"  swapper/0-1       [000] .....     0.300000: initcall_level: level=console\n";
	struct rp_syms syms;
	struct bt_error e;
	struct rp_prev p;
	char *s, *open;

	(void)state;
	memset(&syms, 0, sizeof(syms));
	assert_int_equal(rp_syms_load(&syms, MAP, "map", &e), 0);
	parse(&p, t, "text delta:\t-25165824\n", TEXT);
	assert_int_equal(p.nev, 4);
	assert_int_equal(p.ev[2].start, 2);	/* the finish -> event 1 */
	s = print(&p, &syms);
	assert_non_null(strstr(s, "initcall_finish: func=con_init+0x0 ret=0"));
	assert_null(strstr(s, "__end_rodata"));
	open = strstr(s, "never finished");
	assert_non_null(open);
	assert_non_null(strstr(open, "func=hang_init+0x0"));
	assert_null(strstr(open, "con_init"));
	free(s);
	rp_prev_free(&p);
	rp_syms_free(&syms);
}

/*
 * Boot A's hook emptied the instance, A went on recording (a module's
 * initcall at 30 s), B died at 1.5 s, C reads: two steps back; only B's
 * events are the previous boot's.
 */
static void test_earlier_boot(void **state)
{
	static const char t[] =
		"  modprobe-300      [000] .....    30.000000: initcall_start: func=0xffffffffb9955780 (-1)\n"
		"  modprobe-300      [000] .....    30.100000: initcall_finish: func=0xffffffffb9955780 ret=0\n"
		"  swapper/0-1       [000] .....     1.000000: initcall_start: func=0xffffffffb99890e0 (-1)\n"
		"  swapper/0-1       [000] .....     1.500000: initcall_start: func=0xffffffffb9955790 (-1)\n"
		"  swapper/0-1       [000] .....     0.300000: initcall_level: level=console\n";
	struct rp_prev p;
	char *s;

	(void)state;
	parse(&p, t, LBI, TEXT);
	assert_int_equal(cpu(&p, 0)->step0, 2);
	assert_int_equal(cpu(&p, 0)->step, 4);
	assert_int_equal(p.nev, 2);
	s = print(&p, NULL);
	assert_non_null(strstr(s, "CPU 0: 2 events of an earlier boot first"));
	assert_non_null(strstr(s, "CPU 0: 2 events of the previous boot, the last at 1.500000 s"));
	assert_null(strstr(s, "30.000000"));
	free(s);
	rp_prev_free(&p);
}

/*
 * last_boot_info's delta is of the boot that last emptied the instance,
 * not of the one that died after it: the move is measured from the
 * initcalls both boots ran (the same function differs by the same amount).
 */
static void test_calibrated_delta(void **state)
{
	static const char t[] =
		"  swapper/0-1       [000] .....     1.000000: initcall_start: func=0xffffffffb9955780 (-1)\n"
		"  swapper/0-1       [000] .....     1.100000: initcall_start: func=0xffffffffb99890e0 (-1)\n"
		"  swapper/0-1       [000] .....     1.200000: initcall_start: func=0xffffffffb9989400 (-1)\n"
		"  swapper/0-1       [000] .....     1.300000: initcall_start: func=0xffffffffb9955790 (-1)\n"
		"  swapper/0-1       [000] .....     0.300000: initcall_start: func=0xffffffffa1155780 (-1)\n"
		"  swapper/0-1       [000] .....     0.400000: initcall_start: func=0xffffffffa11890e0 (-1)\n"
		"  swapper/0-1       [000] .....     0.500000: initcall_start: func=0xffffffffa1189400 (-1)\n";
	struct rp_syms syms;
	struct bt_error e;
	struct rp_prev p;
	char out[128], *s;

	(void)state;
	memset(&syms, 0, sizeof(syms));
	assert_int_equal(rp_syms_load(&syms, MAP, "map", &e), 0);
	parse(&p, t, "text delta:\t12345678\n", TEXT);
	assert_true(p.have_cal);
	assert_true(p.cal == -411041792LL);
	assert_int_equal(p.cal_votes, 3);
	assert_int_equal(rp_prev_name(&p, &syms, -1, out, sizeof(out), 0xffffffffb9955790ULL), 0);
	assert_string_equal(out, "hang_init+0x0");
	s = print(&p, &syms);
	assert_non_null(strstr(s, "the kernel moved by -411041792 bytes since, measured from 3 of 3 initcalls of both boots; last_boot_info's text delta 12345678 is not the previous boot's"));
	free(s);
	rp_prev_free(&p);
	/* too few to measure: the kernel's delta, said unchecked */
	parse(&p, TRACE_CPU0, "text delta:\t12345678\n", TEXT);
	assert_false(p.have_cal);
	s = print(&p, &syms);
	assert_non_null(strstr(s, "not checked against the initcalls"));
	free(s);
	rp_prev_free(&p);
	rp_syms_free(&syms);
}

/*
 * Boots died one after another (tests/e2e/persistent.sh saw five in one
 * run): the previous boot ran only on CPU 0, so CPU 1's events before
 * this boot's are an older boot's, at another move. Each CPU's move is
 * measured on its own: CPU 1's pointers are named with theirs and said to
 * be another boot's, and are not taken for the previous boot's unfinished
 * initcalls.
 */
static void test_other_boot_on_a_cpu(void **state)
{
	static const char t[] =
		"  swapper/0-1       [000] .....     1.000000: initcall_start: func=0xffffffffb9955780 (-1)\n"
		"  swapper/0-1       [000] .....     1.100000: initcall_start: func=0xffffffffb99890e0 (-1)\n"
		"  swapper/0-1       [000] .....     1.200000: initcall_start: func=0xffffffffb9989400 (-1)\n"
		"  swapper/0-1       [000] .....     1.300000: initcall_start: func=0xffffffffb9955790 (-1)\n"
		"  swapper/0-1       [000] .....     0.300000: initcall_start: func=0xffffffffa1155780 (-1)\n"
		"  swapper/0-1       [000] .....     0.400000: initcall_start: func=0xffffffffa11890e0 (-1)\n"
		"  swapper/0-1       [000] .....     0.500000: initcall_start: func=0xffffffffa1189400 (-1)\n"
		"  swapper/0-1       [000] .....     0.600000: initcall_start: func=0xffffffffa1155790 (-1)\n"
		"  swapper/0-1       [001] .....     9.000000: initcall_start: func=0xffffffffc1955780 (-1)\n"
		"  swapper/0-1       [001] .....     9.100000: initcall_start: func=0xffffffffc19890e0 (-1)\n"
		"  swapper/0-1       [001] .....     9.200000: initcall_start: func=0xffffffffc1989400 (-1)\n"
		"  swapper/0-1       [001] .....     0.200000: initcall_level: level=console\n";
	struct rp_syms syms;
	struct bt_error e;
	struct rp_prev p;
	char out[128], *s;

	(void)state;
	memset(&syms, 0, sizeof(syms));
	assert_int_equal(rp_syms_load(&syms, MAP, "map", &e), 0);
	parse(&p, t, LBI, TEXT);
	assert_true(p.have_cal);
	assert_true(p.cal == -0x18800000LL);
	assert_false(cpu(&p, 0)->other_boot);
	assert_true(cpu(&p, 1)->have_cal);
	assert_true(cpu(&p, 1)->cal == -0x20800000LL);
	assert_true(cpu(&p, 1)->other_boot);
	assert_int_equal(rp_prev_name(&p, &syms, 1, out, sizeof(out), 0xffffffffc19890e0ULL), 0);
	assert_string_equal(out, "con_init+0x0");
	s = print(&p, &syms);
	assert_non_null(strstr(s, "CPU 1: its last 3 events before this boot's are of another boot than the previous boot (the kernel was elsewhere: moved by -545259520 bytes since"));
	assert_non_null(strstr(s, "initcall_start: func=after_con+0x0"));
	assert_null(strstr(s, "func=0x"));
	/* the unfinished initcalls are CPU 0's, the previous boot's */
	assert_non_null(strstr(s, "never finished, as far as the copy shows (the last to start first; a dying boot's last events on a CPU can be missing from the copy, docs/kernel-facts.md 58):\n    swapper/0-1       [000] .....     1.300000: initcall_start: func=hang_init+0x0"));
	free(s);
	rp_prev_free(&p);
	rp_syms_free(&syms);
}

/*
 * The kernel dropped the dying boot's last events on CPU 0 (tests/e2e/
 * persistent.sh saw it, docs/kernel-facts.md 58): hang_init's start is
 * CPU 0's last, but the task went on to after_con on CPU 1, which comes
 * two places later in this boot's order: hang_init finished. One place
 * later (con_init) can be this boot's merged CPUs printing neighbours the
 * other way round: then it is still said to have never finished.
 */
static void test_finish_lost(void **state)
{
	static const char head[] =
		"  swapper/0-1       [000] .....     1.000000: initcall_start: func=0xffffffffb9955780 (-1)\n"
		"  swapper/0-1       [000] .....     1.050000: initcall_finish: func=0xffffffffb9955780 ret=0\n"
		"  swapper/0-1       [000] .....     1.100000: initcall_start: func=0xffffffffb9955790 (-1)\n";
	static const char later[] =
		"  swapper/0-1       [001] .....     1.300000: initcall_start: func=0xffffffffb9989400 (-1)\n"
		"  swapper/0-1       [001] .....     1.400000: initcall_finish: func=0xffffffffb9989400 ret=0\n";
	static const char next[] =
		"  swapper/0-1       [001] .....     1.300000: initcall_start: func=0xffffffffb99890e0 (-1)\n"
		"  swapper/0-1       [001] .....     1.400000: initcall_finish: func=0xffffffffb99890e0 ret=0\n";
	static const char tail[] =
		"  swapper/0-1       [000] .....     0.300000: initcall_start: func=0xffffffffa1155780 (-1)\n"
		"  swapper/0-1       [000] .....     0.400000: initcall_start: func=0xffffffffa1155790 (-1)\n"
		"  swapper/0-1       [000] .....     0.500000: initcall_start: func=0xffffffffa11890e0 (-1)\n"
		"  swapper/0-1       [000] .....     0.600000: initcall_start: func=0xffffffffa1189400 (-1)\n"
		"  swapper/0-1       [001] .....     0.200000: initcall_level: level=console\n";
	struct rp_syms syms;
	struct bt_error e;
	struct rp_prev p;
	char t[4096], *s;

	(void)state;
	memset(&syms, 0, sizeof(syms));
	assert_int_equal(rp_syms_load(&syms, MAP, "map", &e), 0);
	snprintf(t, sizeof(t), "%s%s%s", head, later, tail);
	parse(&p, t, LBI, TEXT);
	assert_true(p.have_cal);
	s = print(&p, &syms);
	assert_non_null(strstr(s, "every initcall that started finished"));
	assert_non_null(strstr(s, "1 initcall_start without a finish in the copy, though the task went on to initcalls that come later in this boot's order"));
	assert_non_null(strstr(s, "1.100000: initcall_start: func=hang_init+0x0"));
	assert_null(strstr(s, "never finished"));
	free(s);
	{
		char *j = NULL;
		size_t jl = 0;
		FILE *f = open_memstream(&j, &jl);

		assert_non_null(f);
		assert_int_equal(rp_prev_print_json(&p, &syms, f), 0);
		fclose(f);
		assert_non_null(strstr(j, "\"initcalls\": \"all finished\", \"unfinished\": [], \"finish_lost\": 1, \"finish_lost_last\": [\"swapper/0-1       [000] .....     1.100000: initcall_start: func=hang_init+0x0\"]"));
		free(j);
	}
	rp_prev_free(&p);
	snprintf(t, sizeof(t), "%s%s%s", head, next, tail);
	parse(&p, t, LBI, TEXT);
	s = print(&p, &syms);
	assert_non_null(strstr(s, "never finished, as far as the copy shows (the last to start first; a dying boot's last events on a CPU can be missing from the copy, docs/kernel-facts.md 58):\n    swapper/0-1       [000] .....     1.100000: initcall_start: func=hang_init+0x0"));
	assert_null(strstr(s, "without a finish in the copy"));
	free(s);
	rp_prev_free(&p);
	rp_syms_free(&syms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_per_cpu),
		cmocka_unit_test(test_name_moved_pointer),
		cmocka_unit_test(test_text_section),
		cmocka_unit_test(test_merged_order),
		cmocka_unit_test(test_all_finished),
		cmocka_unit_test(test_kernel_named_finish),
		cmocka_unit_test(test_earlier_boot),
		cmocka_unit_test(test_calibrated_delta),
		cmocka_unit_test(test_other_boot_on_a_cpu),
		cmocka_unit_test(test_finish_lost),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
