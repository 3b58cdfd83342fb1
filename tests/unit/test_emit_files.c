/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -t grub, -t kernel-install, -t uki, -t rpi: the files they write, read back the
 * way their consumers read them (the grub drop-in is sourced by /bin/sh as
 * grub-mkconfig does), and their limits exactly at the edge.
 * Run from the top of the tree (board/ profiles are read from there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "compile/emit.h"

struct fx {
	char dir[64];
	char out[96];
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/bt-files-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	snprintf(fx->out, sizeof(fx->out), "%s/out", fx->dir);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	unlink(fx->out);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static void load_board(struct board *b, const char *name)
{
	struct bt_error e;
	char path[128];

	snprintf(path, sizeof(path), "board/%s.bconf", name);
	bt_error_clear(&e);
	if (board_load(path, b, &e))
		fail_msg("%s (run from the top of the tree)", e.msg);
}

static char *slurp(FILE *f)
{
	char *buf = calloc(1, 65536);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	return buf;
}

static int run(struct fx *fx, emit_fn fn, const struct board *b,
	       const char *base, const char *kernel, char **out,
	       struct bt_error *e)
{
	struct words kw;
	struct emit_in in;
	FILE *f;
	int ret;

	words_init(&kw);
	assert_int_equal(words_split(&kw, kernel), 0);
	memset(&in, 0, sizeof(in));
	in.kernel = &kw;
	in.board = b;
	in.base = base;
	in.out = fx->out;
	bt_error_clear(e);
	unlink(fx->out);
	ret = fn(&in, e);
	words_free(&kw);
	*out = NULL;
	if (ret) {
		assert_int_equal(access(fx->out, F_OK), -1);
	} else {
		f = fopen(fx->out, "r");
		*out = slurp(f);
		fclose(f);
	}
	return ret;
}

static void expect(struct fx *fx, emit_fn fn, const struct board *b,
		   const char *base, const char *kernel, const char *want)
{
	struct bt_error e;
	char *out;

	if (run(fx, fn, b, base, kernel, &out, &e))
		fail_msg("unexpected error: %s", e.msg);
	assert_string_equal(out, want);
	free(out);
}

static void expect_error(struct fx *fx, emit_fn fn, const struct board *b,
			 const char *base, const char *kernel, int code,
			 const char *part1, const char *part2)
{
	struct bt_error e;
	char *out;

	assert_int_equal(run(fx, fn, b, base, kernel, &out, &e), -1);
	assert_int_equal(e.code, code);
	if (!strstr(e.msg, part1) || (part2 && !strstr(e.msg, part2)))
		fail_msg("message '%s' lacks '%s' / '%s'", e.msg, part1,
			 part2 ? part2 : "");
}

/* "ftrace_filter=" and @k letters f. */
static const char *filter_word(char *buf, size_t k)
{
	strcpy(buf, "ftrace_filter=");
	memset(buf + 14, 'f', k);
	buf[14 + k] = '\0';
	return buf;
}

/* ---- grub ---------------------------------------------------------------- */

/* Source the drop-in with /bin/sh after GRUB_CMDLINE_LINUX=@before. */
static char *grub_source(const struct fx *fx, const char *before)
{
	char cmd[512];
	FILE *p;
	char *got;

	snprintf(cmd, sizeof(cmd), "/bin/sh -c 'GRUB_CMDLINE_LINUX=\"$1\"; "
		 "set -e; . \"$2\"; printf %%s \"$GRUB_CMDLINE_LINUX\"' sh "
		 "'%s' '%s'", before, fx->out);
	p = popen(cmd, "r");
	got = slurp(p);
	assert_int_equal(pclose(p), 0);
	return got;
}

static void grub_case(struct fx *fx, const char *kernel, const char *before,
		      const char *want)
{
	struct bt_error e;
	struct board b;
	char *out, *got;

	load_board(&b, "x86_64-grub");
	if (run(fx, emit_grub, &b, NULL, kernel, &out, &e))
		fail_msg("unexpected error: %s", e.msg);
	got = grub_source(fx, before);
	assert_string_equal(got, want);
	free(got);
	free(out);
}

/*
 * What GRUB's lexer must get: plain words as they are; anything else in
 * single quotes (literal for GRUB); the quotes of foo="a b" are the
 * kernel's, so GRUB gets foo=a b and its loader writes "foo=a b".
 */
static void test_grub_sourced(void **state)
{
	struct fx *fx = *state;

	grub_case(fx, "ftrace=function trace_options=func_stack_trace",
		  "quiet splash",
		  "quiet splash ftrace=function trace_options=func_stack_trace");
	grub_case(fx, "ftrace=function", "", "ftrace=function");
	grub_case(fx, "trace_event=\"sched:* irq:*\" kprobe_event=p,vfs_read,$arg1 "
		  "x=a;b y=`id` z=$(id) w={a}",
		  "ro",
		  "ro 'trace_event=sched:* irq:*' 'kprobe_event=p,vfs_read,$arg1' "
		  "'x=a;b' 'y=`id`' 'z=$(id)' 'w={a}'");
}

static void test_grub_file(void **state)
{
	struct fx *fx = *state;
	struct board b;

	load_board(&b, "x86_64-grub");
	expect(fx, emit_grub, &b, NULL, "ftrace=function x=$HOME",
	       "# boottrace compile -t grub: kernel tracing words. Put it in "
	       "/etc/default/grub.d/\n# (e.g. 90-boottrace.cfg), then run "
	       "update-grub.\nbt_words=\"ftrace=function 'x=\\$HOME'\"\n"
	       "bt_v=\" $GRUB_CMDLINE_LINUX \"\n"
	       "case \"$bt_v\" in\n"
	       "*\" -- \"*)\n"
	       "\tbt_pre=${bt_v%%\" -- \"*} bt_post=${bt_v#*\" -- \"}\n"
	       "\tbt_pre=${bt_pre# } bt_post=${bt_post% }\n"
	       "\tGRUB_CMDLINE_LINUX=\"${bt_pre:+$bt_pre }$bt_words --${bt_post:+ $bt_post}\" ;;\n"
	       "*) GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX:+$GRUB_CMDLINE_LINUX }$bt_words\" ;;\n"
	       "esac\n"
	       "unset bt_words bt_init bt_v bt_pre bt_post\n");
}

/*
 * --base, the text of /etc/default/grub: both variables written whole,
 * the tracing words before "--", stale ones gone from both.
 */
static void test_grub_base(void **state)
{
	struct fx *fx = *state;
	struct board b;

	load_board(&b, "x86_64-grub");
	expect(fx, emit_grub, &b,
	       "GRUB_DEFAULT=0\n"
	       "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet ftrace=nop\"\n"
	       "export GRUB_CMDLINE_LINUX='console=ttyS0 root=/dev/sda1 "
	       "ftrace_filter=old -- single'\n",
	       "ftrace=function ftrace_filter=a,b",
	       "# boottrace compile -t grub: kernel tracing words. Put it in "
	       "/etc/default/grub.d/\n# (e.g. 90-boottrace.cfg), then run "
	       "update-grub.\nGRUB_CMDLINE_LINUX=\"console=ttyS0 root=/dev/sda1 "
	       "ftrace_filter=a,b ftrace=function -- single\"\n"
	       "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n");
	/* a line alone is GRUB_CMDLINE_LINUX's value */
	expect(fx, emit_grub, &b, "root=/dev/sda1 -- s", "ftrace=function",
	       "# boottrace compile -t grub: kernel tracing words. Put it in "
	       "/etc/default/grub.d/\n# (e.g. 90-boottrace.cfg), then run "
	       "update-grub.\nGRUB_CMDLINE_LINUX=\"root=/dev/sda1 "
	       "ftrace=function -- s\"\n");
	expect_error(fx, emit_grub, &b, "GRUB_CMDLINE_LINUX=\"$X quiet\"",
		     "ftrace=function", BT_EXIT_INPUT, "sh expansion", NULL);
}

static void test_grub_refused(void **state)
{
	struct fx *fx = *state;
	struct board b;
	char w[2100];

	load_board(&b, "x86_64-grub");
	expect_error(fx, emit_grub, &b, NULL, "x=a\\b", BT_EXIT_INPUT,
		     "kernel word 'x=a\\b' cannot go through GRUB", "kernel keeps");
	expect_error(fx, emit_grub, &b, NULL, "x=it's", BT_EXIT_INPUT,
		     "cannot go through GRUB", NULL);
	expect_error(fx, emit_grub, &b, NULL, "x=a\"b\"", BT_EXIT_INPUT,
		     "cannot go through GRUB", NULL);
	/* COMMAND_LINE_SIZE 2048: 2047 bytes of words pass, 2048 do not. */
	expect_error(fx, emit_grub, &b, NULL, filter_word(w, 2048 - 14),
		     BT_EXIT_INPUT, "is 2048 bytes", "keeps at most 2047");
	{
		struct bt_error e;
		char *out;

		assert_int_equal(run(fx, emit_grub, &b, NULL,
				     filter_word(w, 2047 - 14), &out, &e), 0);
		free(out);
	}
}

/* ---- kernel-install -------------------------------------------------------- */

static void test_kernel_install(void **state)
{
	struct fx *fx = *state;
	struct board b;
	char base[2100], w[64], want[2200];

	load_board(&b, "qemu-x86_64");
	/* From /proc/cmdline: the bootloader's words go, the old trace words too. */
	expect(fx, emit_kernel_install, &b, "BOOT_IMAGE=/vmlinuz-6.1.0-18-amd64 "
	       "root=UUID=0a1b ro quiet ftrace=nop trace_options=x initrd=\\initrd.img\n",
	       "ftrace=function ftrace_filter=register_netdevice",
	       "root=UUID=0a1b ro quiet ftrace=function "
	       "ftrace_filter=register_netdevice\n");
	/* "--": the words go before init's arguments. */
	expect(fx, emit_kernel_install, &b, "root=/dev/vda ro -- single",
	       "ftrace=function", "root=/dev/vda ro ftrace=function -- single\n");
	expect_error(fx, emit_kernel_install, &b, "ro", "x=\"a  b\"",
		     BT_EXIT_INPUT, "cannot go through kernel-install",
		     "single spaces");
	expect_error(fx, emit_kernel_install, &b, NULL, "ftrace=function",
		     BT_EXIT_USAGE, "-t kernel-install needs --base", NULL);
	/* \ through dash's echo (90-loaderentry.install): refused */
	expect_error(fx, emit_kernel_install, &b, "ro", "x=a\\cb",
		     BT_EXIT_INPUT, "cannot go through kernel-install",
		     "/bin/sh's echo");
	/*
	 * 2047 bytes pass, 2048 do not, the 52 of " systemd.machine_id=ID"
	 * that kernel-install appends counted.
	 */
	memset(base, 'r', 2047 - 52 - 1 - 20);
	base[2047 - 52 - 1 - 20] = '\0';
	snprintf(want, sizeof(want), "%s %s\n", base, filter_word(w, 6));
	expect(fx, emit_kernel_install, &b, base, w, want);
	expect_error(fx, emit_kernel_install, &b, base, filter_word(w, 7),
		     BT_EXIT_INPUT, "is 2048 bytes",
		     "keeps at most 2047 (COMMAND_LINE_SIZE 2048 of board qemu-x86_64)");
}

/* ---- uki -------------------------------------------------------------------- */

static void test_uki(void **state)
{
	struct fx *fx = *state;
	struct board b;
	char base[2100], w[64], want[2200];
	size_t n;

	load_board(&b, "qemu-x86_64");
	expect(fx, emit_uki, &b, "BOOT_IMAGE=/vmlinuz root=UUID=0a1b ro "
	       "ftrace=nop initrd=\\initrd.img -- single\n",
	       "ftrace=function ftrace_filter=register_netdevice",
	       "root=UUID=0a1b ro ftrace=function "
	       "ftrace_filter=register_netdevice -- single\n");
	expect_error(fx, emit_uki, &b, NULL, "ftrace=function",
		     BT_EXIT_USAGE, "-t uki needs --base", NULL);
	/* kernel-install's rules, and systemd-stub's printable ASCII */
	expect_error(fx, emit_uki, &b, "ro", "x=\"a  b\"", BT_EXIT_INPUT,
		     "cannot go through kernel-install (-t uki)", "single spaces");
	expect_error(fx, emit_uki, &b, "ro", "x=a\\cb", BT_EXIT_INPUT,
		     "(-t uki)", "/bin/sh's echo");
	expect_error(fx, emit_uki, &b, "ro", "x=\xc3\xa9", BT_EXIT_INPUT,
		     "(-t uki)", "only printable ASCII");
	expect_error(fx, emit_uki, &b, "ro", "x=\x7f", BT_EXIT_INPUT,
		     "(-t uki)", "only printable ASCII");
	expect(fx, emit_kernel_install, &b, "ro", "x=\xc3\xa9", "ro x=\xc3\xa9\n");
	/* a '"' at both ends: systemd-boot takes them as quotes of the value */
	expect_error(fx, emit_uki, &b, "\"a=1 2\" -- \"b\"", "ftrace=function",
		     BT_EXIT_INPUT, "begin and end with '\"'",
		     "systemd-boot removes those two");
	/* with systemd.machine_id= in the line nothing is appended: 2047 */
	n = 2047 - 1 - 20 - 52;
	memcpy(base, "systemd.machine_id=0123456789abcdef0123456789abcdef ", 52);
	memset(base + 52, 'r', n);
	base[52 + n] = '\0';
	snprintf(want, sizeof(want), "%s %s\n", base, filter_word(w, 6));
	expect(fx, emit_uki, &b, base, w, want);
	assert_int_equal(strlen(want), 2048);
	expect_error(fx, emit_uki, &b, base, filter_word(w, 7),
		     BT_EXIT_INPUT, "the /etc/kernel/cmdline line is 2048 bytes", NULL);
}

/* ---- rpi -------------------------------------------------------------------- */

static void test_rpi(void **state)
{
	struct fx *fx = *state;
	struct board b;
	char base[1100], w[64], want[1200];

	load_board(&b, "rpi4");
	/* One line, a final newline, the trace words merged. */
	expect(fx, emit_rpi, &b, "console=serial0,115200 console=tty1 "
	       "root=PARTUUID=6c586e13-02 rootfstype=ext4 fsck.repair=yes "
	       "rootwait ftrace=nop\n", "ftrace=function trace_options=sym-addr",
	       "console=serial0,115200 console=tty1 root=PARTUUID=6c586e13-02 "
	       "rootfstype=ext4 fsck.repair=yes rootwait ftrace=function "
	       "trace_options=sym-addr\n");
	expect_error(fx, emit_rpi, &b, "root=/dev/mmcblk0p2\nquiet\n",
		     "ftrace=function", BT_EXIT_INPUT, "more than one line",
		     "reads only the first line");
	expect_error(fx, emit_rpi, &b, NULL, "ftrace=function", BT_EXIT_USAGE,
		     "-t rpi needs --base", NULL);
	/* The firmware's 1024: 1023 bytes pass, 1024 do not. */
	memset(base, 'r', 1023 - 1 - 20);
	base[1023 - 1 - 20] = '\0';
	snprintf(want, sizeof(want), "%s %s\n", base, filter_word(w, 6));
	assert_int_equal(strlen(want), 1024);
	expect(fx, emit_rpi, &b, base, w, want);
	expect_error(fx, emit_rpi, &b, base, filter_word(w, 7), BT_EXIT_INPUT,
		     "the cmdline.txt line is 1024 bytes",
		     "keeps at most 1023 (COMMAND_LINE_SIZE 1024 of board rpi4)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_grub_sourced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grub_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grub_base, setup, teardown),
		cmocka_unit_test_setup_teardown(test_grub_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_install, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uki, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rpi, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
