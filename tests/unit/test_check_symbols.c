/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * boottrace check on a small System.map/kallsyms text: the reader, the
 * initcall levels, and every verdict on a name (found, missing with each
 * kind of near miss, module, init function, wildcard, notrace).
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>

#include "check/check.h"
#include "kimage/sysmap.h"

static const char map[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff817b45f0 T register_netdevice\n"
	"ffffffff817b4000 t netdev_run_todo.isra.0\n"
	"ffffffff817b5000 T register_netdev\n"
	"ffffffff817b6000 t tcp_a\n"
	"ffffffff817b6100 t tcp_b\n"
	"ffffffff82000000 T _sinittext\n"
	"ffffffff82000100 t net_dev_init\n"
	"ffffffff82000200 t migration_init\n"
	"ffffffff82000300 t helper_init\n"
	"ffffffff82100000 T _einittext\n"
	"ffffffff8324f910 d __initcall__kmod_core__1344_9715_migration_initearly\n"
	"ffffffff8324fc60 d __initcall__kmod_dev__1613_11668_net_dev_init4\n"
	"ffffffff8324fc64 d __initcall_old_style_init1s\n"
	"ffffffffc0400000 t bond_create\t[bonding]\n"
	"ffffffffc0410000 t bonding_init\t[bonding]\n";

struct fx {
	struct ksyms t;
	struct check_report r;
	struct source src;
	struct plan p;
};

static void load_map(struct ksyms *t)
{
	struct bt_error e;
	char *text = strdup(map);

	assert_non_null(text);
	assert_int_equal(ksyms_keep(t, text), 0);
	assert_int_equal(ksyms_parse_sysmap(t, text, strlen(text), "map", &e), 0);
	assert_int_equal(ksyms_index(t), 0);
}

/* Run the symbol checks of @conf; findings in fx->r. */
static void run(struct fx *fx, const char *conf)
{
	struct check_opts o = { 2 };
	struct bt_error e;

	memset(fx, 0, sizeof(*fx));
	load_map(&fx->t);
	assert_int_equal(source_load_text("t.bconf", conf, strlen(conf), &fx->src, &e), 0);
	if (plan_build(&fx->p, &fx->src, &e)) {
		bt_error_print(&e, stderr);
		fail();
	}
	check_plan_symbols(&fx->r, &fx->p, &fx->t, &o);
	assert_false(fx->r.oom);
}

static void done(struct fx *fx)
{
	check_report_free(&fx->r);
	plan_free(&fx->p);
	source_free(&fx->src);
	ksyms_free(&fx->t);
}

/* The one finding about @name, with its severity and a piece of its text. */
static void expect(const struct fx *fx, const char *name, enum check_sev sev,
		   const char *part)
{
	size_t i;

	for (i = 0; i < fx->r.n; i++) {
		if (strcmp(fx->r.f[i].what, name) || !strstr(fx->r.f[i].msg, part))
			continue;
		if (fx->r.f[i].sev != sev)
			fail_msg("%s: severity %d, not %d: %s", name, fx->r.f[i].sev,
				 sev, fx->r.f[i].msg);
		return;
	}
	for (i = 0; i < fx->r.n; i++)
		fprintf(stderr, "  %s: %s\n", fx->r.f[i].what, fx->r.f[i].msg);
	fail_msg("no finding on %s with '%s'", name, part);
}

static void test_sysmap_reader(void **state)
{
	struct ksyms t = { 0 };
	uint32_t k;
	int found = 0;

	(void)state;
	load_map(&t);
	assert_int_equal(t.nmods, 1);
	assert_string_equal(t.mods[0], "bonding");
	assert_int_equal(t.ninitcalls, 3);
	for (k = ksyms_bucket(&t, "net_dev_init"); k; k = t.sym[k].next)
		if (!strcmp(t.sym[k].name, "net_dev_init")) {
			found = 1;
			assert_true(t.sym[k].flags & KSYM_INIT);
			assert_int_equal(t.sym[k].mod, -1);
		}
	assert_true(found);
	assert_int_equal(t.core_trace, KT_UNKNOWN);
	ksyms_free(&t);
}

static void test_sysmap_bad(void **state)
{
	static const char *const bad[] = {
		"ffffffff81000000 T\n", "zz T foo\n", "ffffffff81000000 TT foo\n",
		"ffffffff81000000 t foo [bonding\n", "\n\n",
		"ffffffffffffffff B The real System.map is in the -dbg package\n",
		"11111111111111111 T foo\n",
	};
	struct bt_error e;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ksyms t = { 0 };
		char *s = strdup(bad[i]);

		bt_error_clear(&e);
		assert_int_equal(ksyms_parse_sysmap(&t, s, strlen(s), "m", &e), -1);
		assert_non_null(strstr(e.msg, "System.map"));
		free(s);
		ksyms_free(&t);
	}
}

static void test_initcall_levels(void **state)
{
	struct ksyms t = { 0 };

	(void)state;
	load_map(&t);
	assert_string_equal(kinitcall_level(&t, "migration_init"), "early");
	assert_string_equal(kinitcall_level(&t, "net_dev_init"), "4");
	assert_string_equal(kinitcall_level(&t, "old_style_init"), "1s");
	assert_null(kinitcall_level(&t, "net_dev"));
	assert_null(kinitcall_level(&t, "helper_init"));
	assert_int_equal(kinitcall_before_boottrace("early"), 1);
	assert_int_equal(kinitcall_before_boottrace("1s"), 2);
	assert_int_equal(kinitcall_before_boottrace("4"), 0);
	assert_string_equal(kinitcall_macro("4"), "subsys_initcall");
	ksyms_free(&t);
}

static void test_found_missing_nearmiss(void **state)
{
	struct fx fx;

	(void)state;
	run(&fx, "ftrace.ftrace.filters = register_netdevice, register_netdev1ce, "
	    "Register_Netdevice, netdev_run_todo, no_such_thing_at_all_xyz\n");
	expect(&fx, "register_netdevice", CK_NOTE, "traceability not checked");
	expect(&fx, "register_netdev1ce", CK_ERROR, "did you mean register_netdevice");
	expect(&fx, "Register_Netdevice", CK_ERROR, "case-sensitive");
	expect(&fx, "netdev_run_todo", CK_ERROR, "did you mean netdev_run_todo.isra.0");
	expect(&fx, "no_such_thing_at_all_xyz", CK_ERROR, "is not a function");
	assert_int_equal(fx.r.nerr, 4);
	done(&fx);
}

static void test_module_and_arm(void **state)
{
	struct fx fx;

	(void)state;
	run(&fx, "ftrace.ftrace.filters = bond_create\n"
	    "boottrace.arm = \"bonding_init:mod:bonding\", \"register_netdevice:mod:bonding\"\n");
	expect(&fx, "bond_create", CK_ERROR, "'bond_create:mod:bonding'");
	expect(&fx, "bonding_init", CK_NOTE, "found in module bonding");
	expect(&fx, "register_netdevice", CK_ERROR, "not in module bonding but in vmlinux");
	done(&fx);
}

static void test_init_timing(void **state)
{
	struct fx fx;

	(void)state;
	run(&fx, "ftrace.ftrace.filters = migration_init, net_dev_init, helper_init\n"
	    "kernel.ftrace_notrace = migration_init\n");
	expect(&fx, "migration_init", CK_WARN, "early_initcall");
	expect(&fx, "migration_init", CK_NOTE, "command line's ftrace_filter");
	expect(&fx, "net_dev_init", CK_NOTE, "subsys_initcall (level 4)");
	expect(&fx, "helper_init", CK_NOTE, ".init.text");
	done(&fx);
}

static void test_wildcards_and_probes(void **state)
{
	struct fx fx;

	(void)state;
	/* threshold 2 in run(): the 11 text symbols of the kernel warn */
	run(&fx, "ftrace.ftrace.filters = \"tcp_*\", \"*\", \"nomatch*\"\n"
	    "ftrace.event.kprobes.a.probes = \"p:grp/ev register_netdev+4 x=%di\"\n"
	    "ftrace.event.kprobes.b.probes = \"bonding:bond_create%return\"\n"
	    "ftrace.event.kprobes.c.probes = \"registr_netdev\"\n");
	expect(&fx, "tcp_*", CK_NOTE, "matches 2 function(s)");
	expect(&fx, "*", CK_WARN, "matches 11 functions");
	expect(&fx, "nomatch*", CK_ERROR, "matches no function");
	expect(&fx, "register_netdev", CK_NOTE, "kprobe point register_netdev found in vmlinux");
	expect(&fx, "bond_create", CK_NOTE, "kprobe point bond_create found in bonding");
	expect(&fx, "registr_netdev", CK_ERROR, "did you mean register_netdev");
	done(&fx);
}

static void test_report_formats(void **state)
{
	struct fx fx;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	run(&fx, "ftrace.ftrace.filters = \"bad\\name\"\n");
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(check_report_print_json(&fx.r, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"schema\": \"boottrace-check\", \"version\": 2, \"errors\": 1"));
	assert_non_null(strstr(buf, "\"where\": \"t.bconf:1:15\""));
	assert_non_null(strstr(buf, "bad\\\\name"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(check_report_print_text(&fx.r, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "t.bconf:1:15: error: ftrace filter 'bad\\name'"));
	assert_non_null(strstr(buf, "check: 1 error(s), 0 warning(s)\n"));
	free(buf);
	done(&fx);
}

/* Debian's one-line placeholder map names the package with the real one (issue 14, class 10). */
static void test_sysmap_placeholder(void **state)
{
	static const char ph[] = "ffffffffffffffff B The real System.map is in the linux-image-6.1.0-56-cloud-amd64-dbg package\n";
	struct ksyms t = { 0 };
	struct bt_error e;
	char pkg[64], *s = strdup(ph);

	(void)state;
	assert_int_equal(kimage_sysmap_placeholder(ph, strlen(ph), pkg, sizeof(pkg)), 1);
	assert_string_equal(pkg, "linux-image-6.1.0-56-cloud-amd64-dbg");
	assert_int_equal(kimage_sysmap_placeholder(map, strlen(map), pkg, sizeof(pkg)), 0);
	assert_int_equal(kimage_sysmap_placeholder(ph, 30, pkg, sizeof(pkg)), 0);
	bt_error_clear(&e);
	assert_int_equal(ksyms_parse_sysmap(&t, s, strlen(s), "m", &e), -1);
	assert_non_null(strstr(e.msg, "placeholder"));
	assert_non_null(strstr(e.msg, "linux-image-6.1.0-56-cloud-amd64-dbg package"));
	assert_non_null(strstr(e.msg, "vmlinux-6.1.0-56-cloud-amd64 as --vmlinux"));
	assert_non_null(strstr(e.msg, "/proc/kallsyms"));
	assert_null(strstr(e.msg, "line 1"));
	free(s);
	ksyms_free(&t);
}

/* Modules only: a core name is not "missing", it was not checked (issue 14, class 10). */
static void test_modules_only(void **state)
{
	static const char conf[] = "ftrace.ftrace.filters = register_netdevice, \"tcp_*\"\n"
		"boottrace.arm = \"bond_create:mod:bonding\", \"bond_crate:mod:bonding\"\n";
	struct check_opts o = { 2 };
	struct fx fx;
	struct bt_error e;
	char *text = strdup("ffffffffc0400000 t bond_create\t[bonding]\n"
			    "ffffffffc0410000 t bonding_init\t[bonding]\n");

	(void)state;
	memset(&fx, 0, sizeof(fx));
	assert_int_equal(ksyms_keep(&fx.t, text), 0);
	assert_int_equal(ksyms_parse_sysmap(&fx.t, text, strlen(text), "mods", &e), 0);
	assert_int_equal(ksyms_index(&fx.t), 0);
	assert_int_equal(source_load_text("t.bconf", conf, strlen(conf), &fx.src, &e), 0);
	assert_int_equal(plan_build(&fx.p, &fx.src, &e), 0);
	check_plan_symbols(&fx.r, &fx.p, &fx.t, &o);
	expect(&fx, "register_netdevice", CK_NOTE, "core-kernel names cannot be checked");
	expect(&fx, "register_netdevice", CK_NOTE, "--vmlinux");
	expect(&fx, "tcp_*", CK_NOTE, "not checked");
	expect(&fx, "bond_crate", CK_ERROR, "none of the modules given");
	assert_int_equal(fx.r.nerr, 1);
	done(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysmap_reader),
		cmocka_unit_test(test_sysmap_bad),
		cmocka_unit_test(test_initcall_levels),
		cmocka_unit_test(test_found_missing_nearmiss),
		cmocka_unit_test(test_module_and_arm),
		cmocka_unit_test(test_init_timing),
		cmocka_unit_test(test_wildcards_and_probes),
		cmocka_unit_test(test_report_formats),
		cmocka_unit_test(test_sysmap_placeholder),
		cmocka_unit_test(test_modules_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
