/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What --kernel IMAGE decides beside its symbols, below the CLI
 * (docs/kernel-image.md): the image's own table of boot parameters beats
 * the version table, which the image's .config header now gives too (a
 * word the table holds is taken, a backport; one it lacks is refused
 * naming the image); and the command-line size of a bzImage's setup
 * header, once it replaces the board's, is what the length error names.
 * The IKCONFIG finder and the setup header's cmdline_size are tested on
 * images built in tests/unit/test_kimg.c.
 */
#include <stdio.h>
#include <stdlib.h>

#include "unit.h"
#include "compile/emit.h"
#include "compile/route.h"
#include "kernel/kcaps.h"
#include "plan/plan.h"
#include "util/source.h"

/* Route @text as cmdline for 6.1 with the image table @params (NULL: none). */
static int route_image(const char *text, char *const *params, size_t n,
		       char **line, char *err, size_t esize)
{
	struct route_opts o = { 0 };
	struct source src;
	struct board b;
	struct kcaps k;
	struct bt_error e;
	struct plan p;
	struct route r;
	int ret;

	memset(&k, 0, sizeof(k));
	board_generic(&b);
	bt_error_clear(&e);
	assert_int_equal(kcaps_set_version(&k, "6.1", &e), 0);
	if (params) {
		k.image_path = "/boot/vmlinuz-test";
		k.image_params = params;
		k.nimage_params = n;
	}
	assert_int_equal(source_load_text("t.bconf", text, strlen(text), &src, &e), 0);
	ret = plan_build(&p, &src, &e);
	if (!ret) {
		route_init(&r, &p, &k, &b, &o);
		ret = route_cmdline(&r, &e);
		if (!ret)
			*line = words_join(&r.words);
		route_free(&r);
		plan_free(&p);
	}
	if (ret)
		snprintf(err, esize, "%s", e.msg);
	source_free(&src);
	return ret;
}

static void test_image_table_beats_version(void **state)
{
	static char *backport[] = { "ftrace=", "trace_instance=", "tp_printk" };
	static char *without[] = { "ftrace=", "trace_buf_size=", "tp_printk" };
	char *line = NULL, err[1024];

	(void)state;
	/* the version table alone: 6.3's word refused for 6.1 */
	assert_int_equal(route_image("kernel.trace_instance = foo\n", NULL, 0, &line, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "trace_instance= needs kernel 6.3 or later; the target is 6.1"));
	/* the image's table has it (a backport): taken */
	if (route_image("kernel.trace_instance = foo\n", backport, 3, &line, err, sizeof(err)))
		fail_msg("%s", err);
	assert_non_null(strstr(line, "trace_instance=foo"));
	free(line);
	/* the table lacks a word the version table allows: refused naming the image */
	assert_int_equal(route_image("ftrace.ftrace.filters = f\n", without, 3, &line, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "ftrace_filter=: the kernel image /boot/vmlinuz-test has no such boot parameter"));
	/* and the word 6.3 brought, when the table lacks it too: the image is named */
	assert_int_equal(route_image("kernel.trace_instance = foo\n", without, 3, &line, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "trace_instance=: the kernel image /boot/vmlinuz-test has no such boot parameter"));
}

static void test_cmdline_size_named(void **state)
{
	struct board b;
	struct bt_error e;

	(void)state;
	board_generic(&b);
	b.cmdline_max = 61;	/* cmdline_size 60 + the NUL */
	snprintf(b.cmdline_from, sizeof(b.cmdline_from), "the setup header of /boot/vmlinuz-x");
	bt_error_clear(&e);
	assert_int_equal(emit_check_kernel_len(&b, 60, "the command line", &e), 0);
	assert_int_equal(emit_check_kernel_len(&b, 61, "the command line", &e), -1);
	assert_non_null(strstr(e.msg, "the command line is 61 bytes, but the kernel keeps at most 60 (COMMAND_LINE_SIZE 61, from the setup header of /boot/vmlinuz-x)"));
	/* the board's own figure is still named as the board's */
	board_generic(&b);
	bt_error_clear(&e);
	assert_int_equal(emit_check_kernel_len(&b, 2048, "the command line", &e), -1);
	assert_non_null(strstr(e.msg, "(COMMAND_LINE_SIZE 2048 of board generic)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image_table_beats_version),
		cmocka_unit_test(test_cmdline_size_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
