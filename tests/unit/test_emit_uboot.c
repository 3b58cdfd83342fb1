/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The U-Boot target forms: exact script text for the characters hush
 * treats specially, the CONFIG_SYS_CBSIZE boundary, --keep-bootargs, and
 * the images built by the real mkimage / mkenvimage, read back with the
 * real mkimage -l and fw_printenv (libubootenv-tool). Whether U-Boot
 * itself reads them back exactly is tests/e2e/uboot.sh.
 */
#include "unit.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compile/emit.h"
#include "compile/emit_uboot.h"

struct fx {
	char dir[64];
	char path[128];		/* scratch: an output file in dir */
	struct words w;
	struct board b;
	struct emit_in in;
	struct bt_error e;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/bt-uboot-XXXXXX");
	if (!mkdtemp(fx->dir)) {
		free(fx);
		return -1;
	}
	words_init(&fx->w);
	strcpy(fx->b.name, "test-board");
	strcpy(fx->b.arch, "arm64");
	strcpy(fx->b.bootloader, "u-boot");
	fx->b.cmdline_max = 2048;
	fx->b.uboot_cbsize = 512;
	fx->b.env_size = 0x4000;
	fx->in.kernel = &fx->w;
	fx->in.board = &fx->b;
	/* The board's bootargs is empty: the forms write the words alone. */
	fx->in.base = "";
	*state = fx;
	return 0;
}

static int remove_one(const char *p, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st; (void)flag; (void)ftw;
	return remove(p);
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int rc = nftw(fx->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);

	words_free(&fx->w);
	free(fx);
	return rc;
}

static void add(struct fx *fx, const char *word)
{
	assert_int_equal(words_add(&fx->w, word), 0);
}

static const char *out(struct fx *fx, const char *name)
{
	snprintf(fx->path, sizeof(fx->path), "%s/%s", fx->dir, name);
	fx->in.out = fx->path;
	return fx->path;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

static void assert_script(struct fx *fx, const char *want)
{
	char *text;

	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), 0);
	assert_string_equal(text, want);
	free(text);
}

/* Run @fn with stderr into a file; returns what it wrote there. */
static char *with_stderr(struct fx *fx, int (*fn)(const struct emit_in *,
			 struct bt_error *), int *ret)
{
	char path[128];
	int saved = dup(2);
	FILE *f;

	snprintf(path, sizeof(path), "%s/stderr", fx->dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fflush(stderr);
	dup2(fileno(f), 2);
	*ret = fn(&fx->in, &fx->e);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	fclose(f);
	return slurp(path, NULL);
}

/* ---- script text -------------------------------------------------------- */

static void test_plain(void **state)
{
	struct fx *fx = *state;

	add(fx, "ftrace=function");
	add(fx, "ftrace_filter=register_netdevice");
	assert_script(fx, "setenv bootargs 'ftrace=function "
		      "ftrace_filter=register_netdevice'\n");
}

static void test_quoting(void **state)
{
	struct fx *fx = *state;

	/* " $ ; # are literal in '...'; ' and \ are not (hush). */
	add(fx, "foo=\"a b\"");
	add(fx, "kprobe_event=p:bt/x,func;p:bt/y,g");
	add(fx, "x=$y${z}");
	add(fx, "q='s'");
	add(fx, "b=c\\d");
	add(fx, "#h");
	assert_script(fx, "setenv bootargs 'foo=\"a b\" "
		      "kprobe_event=p:bt/x,func;p:bt/y,g x=$y${z} "
		      "q='\\''s'\\'' b=c\\\\d #h'\n");
}

static void test_control_byte_refused(void **state)
{
	struct fx *fx = *state;
	char *text;

	add(fx, "ok=1");
	add(fx, "bad=a\tb");
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_int_equal(fx->e.code, BT_EXIT_INPUT);
	assert_non_null(strstr(fx->e.msg, "'bad=a\tb'"));
	assert_non_null(strstr(fx->e.msg, "0x09"));
}

static void test_no_words_deletes(void **state)
{
	struct fx *fx = *state;

	assert_script(fx, "setenv bootargs\n");
}

/* ---- CONFIG_SYS_CBSIZE ---------------------------------------------------- */

static void fill(struct fx *fx, size_t value_len)
{
	char *w = malloc(value_len + 1);

	assert_non_null(w);
	memset(w, 'a', value_len);
	memcpy(w, "x=", 2);
	w[value_len] = '\0';
	add(fx, w);
	free(w);
}

static void test_cbsize_exact(void **state)
{
	struct fx *fx = *state;
	char *text;

	/* "setenv bootargs '" + value + "'" + NUL == 64 */
	fx->b.uboot_cbsize = 64;
	fill(fx, 64 - 1 - 18);
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), 0);
	assert_int_equal(strlen(text), 64 - 1 + 1);	/* with its newline */
	free(text);
}

static void test_cbsize_one_over(void **state)
{
	struct fx *fx = *state;
	char *text = (char *)1;

	fx->b.uboot_cbsize = 64;
	fill(fx, 64 - 18);
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_null(text);
	assert_int_equal(fx->e.code, BT_EXIT_INPUT);
	assert_non_null(strstr(fx->e.msg, "is 64 bytes"));
	assert_non_null(strstr(fx->e.msg, "at most 63"));
	assert_non_null(strstr(fx->e.msg, "CONFIG_SYS_CBSIZE 64"));
	assert_non_null(strstr(fx->e.msg, "test-board"));
}

static void test_cbsize_counts_quoting(void **state)
{
	struct fx *fx = *state;
	char *text;

	/* 45 bytes of value fit 64, but each ' costs 3 more in the script. */
	fx->b.uboot_cbsize = 64;
	add(fx, "x='aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'");
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "is 68 bytes"));
}

static void test_kernel_limit(void **state)
{
	struct fx *fx = *state;
	char *text;

	fx->b.cmdline_max = 32;
	fx->b.uboot_cbsize = 0;		/* unknown: not checked */
	fill(fx, 31);
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), 0);
	free(text);
	words_free(&fx->w);
	fill(fx, 32);
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "COMMAND_LINE_SIZE 32"));
	assert_non_null(strstr(fx->e.msg, "32 bytes"));
}

/* ---- --keep-bootargs ------------------------------------------------------ */

static void test_keep(void **state)
{
	struct fx *fx = *state;
	char *err;
	int ret;

	fx->in.keep_bootargs = 1;
	fx->in.base = NULL;
	add(fx, "ftrace=function");
	add(fx, "q='s'\\");
	out(fx, "keep.txt");
	err = with_stderr(fx, emit_uboot_script, &ret);
	assert_int_equal(ret, 0);
	{
		char *text = slurp(fx->path, NULL);

		/*
		 * No command names a variable, so hush parses each once and
		 * the old value never: setexpr puts it in place of "\0".
		 */
		assert_string_equal(text,
			"if env exists bootargs; then\n"
			"setexpr bootargs sub '^.+$' '\\\\0 ftrace=function "
			"q='\\''s'\\''\\\\'\n"
			"else\n"
			"setenv bootargs 'ftrace=function q='\\''s'\\''\\\\'\n"
			"fi\n");
		assert_null(strstr(text, "${"));
		free(text);
	}
	/* The kernel: OLD + " " + 22 bytes <= 2047, OLD <= 2024. */
	assert_non_null(strstr(err, "warning: --keep-bootargs"));
	assert_non_null(strstr(err, "at most 2024 bytes (COMMAND_LINE_SIZE 2048)"));
	free(err);
}

static void test_keep_cbsize(void **state)
{
	struct fx *fx = *state;
	char *text;

	/* "setexpr bootargs sub '^.+$' '\\0 " + value + "'" + NUL == 64 */
	fx->in.keep_bootargs = 1;
	fx->in.base = NULL;
	fx->b.uboot_cbsize = 64;
	fill(fx, 64 - 1 - 34);
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), 0);
	free(text);
	words_free(&fx->w);
	fill(fx, 64 - 34);
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "is 64 bytes"));
}

/* setexpr would put the old value in place of a "\0" of ours. */
static void test_keep_backref(void **state)
{
	struct fx *fx = *state;
	char *text;

	fx->in.keep_bootargs = 1;
	fx->in.base = NULL;
	add(fx, "ftrace=function");
	add(fx, "x=a\\0b");
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "'\\0'"));
	assert_non_null(strstr(fx->e.msg, "offset 19"));
}

/* ---- the base line ---------------------------------------------------------- */

/* Every form merges into the board's line: its words kept, stale ones replaced. */
static void test_base_merged(void **state)
{
	struct fx *fx = *state;
	char *text;

	fx->in.base = "bootargs=console=ttyAMA0,115200 root=/dev/mmcblk0p2 "
		      "ftrace=nop rw ftrace_filter=old -- single";
	add(fx, "ftrace=function");
	add(fx, "ftrace_filter=register_netdevice");
	add(fx, "trace_options=func_stack_trace");
	assert_script(fx, "setenv bootargs 'console=ttyAMA0,115200 "
		      "root=/dev/mmcblk0p2 ftrace=function rw "
		      "ftrace_filter=register_netdevice "
		      "trace_options=func_stack_trace -- single'\n");
	assert_int_equal(emit_uboot_value(&fx->in, &text, &fx->e), 0);
	assert_string_equal(text, "console=ttyAMA0,115200 root=/dev/mmcblk0p2 "
			    "ftrace=function rw ftrace_filter=register_netdevice "
			    "trace_options=func_stack_trace -- single");
	free(text);
	out(fx, "env.txt");
	assert_int_equal(emit_uboot_env(&fx->in, &fx->e), 0);
	text = slurp(fx->path, NULL);
	assert_non_null(strstr(text, "bootargs=console=ttyAMA0,115200 root=/dev/mmcblk0p2 "));
	free(text);
}

/* No base, no --keep-bootargs: nothing written, and the message says what to give. */
static void test_base_missing(void **state)
{
	struct fx *fx = *state;
	char *text;

	fx->in.base = NULL;
	add(fx, "ftrace=function");
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_int_equal(fx->e.code, BT_EXIT_USAGE);
	assert_non_null(strstr(fx->e.msg, "--base"));
	assert_non_null(strstr(fx->e.msg, "--base-file"));
	assert_non_null(strstr(fx->e.msg, "board.cmdline.base"));
	assert_non_null(strstr(fx->e.msg, "--keep-bootargs"));
	out(fx, "env.txt");
	assert_int_equal(emit_uboot_env(&fx->in, &fx->e), -1);
	out(fx, "env.bin");
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), -1);
	assert_int_equal(access(fx->path, F_OK), -1);
	/* both: the line now and the line at run time cannot both be meant */
	fx->in.base = "root=/dev/sda1";
	fx->in.keep_bootargs = 1;
	assert_int_equal(emit_uboot_script_text(&fx->in, &text, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "give one of them"));
}

/* The guard of every merge: root= and console= of the base survive. */
static void test_base_kept(void **state)
{
	struct words base, out;
	struct bt_error e;

	(void)state;
	words_init(&base);
	words_init(&out);
	assert_int_equal(words_split(&base, "console=ttyS0 root=/dev/sda1 quiet -- root=x"), 0);
	assert_int_equal(words_split(&out, "console=ttyS0 root=/dev/sda1 ftrace=function"), 0);
	assert_int_equal(emit_check_kept(&base, &out, &e), 0);
	words_remove(&out, 1);
	assert_int_equal(emit_check_kept(&base, &out, &e), -1);
	assert_non_null(strstr(e.msg, "lost 'root=/dev/sda1'"));
	words_free(&out);
	words_init(&out);
	assert_int_equal(words_split(&out, "root=/dev/sda1"), 0);
	assert_int_equal(emit_check_kept(&base, &out, &e), -1);
	assert_non_null(strstr(e.msg, "lost 'console=ttyS0'"));
	words_free(&base);
	words_free(&out);
}

/* ---- uboot-env ------------------------------------------------------------ */

static void test_env(void **state)
{
	struct fx *fx = *state;
	char *text;

	add(fx, "foo=\"a b\"");
	add(fx, "x=$y;'z'\\");
	out(fx, "env.txt");
	assert_int_equal(emit_uboot_env(&fx->in, &fx->e), 0);
	text = slurp(fx->path, NULL);
	/* U-Boot unescapes \ when it imports an environment. */
	assert_string_equal(text, "bootargs=foo=\"a b\" x=$y;'z'\\\\\n");
	free(text);
}

static void test_env_keep_refused(void **state)
{
	struct fx *fx = *state;

	add(fx, "a=b");
	fx->in.keep_bootargs = 1;
	out(fx, "env.txt");
	assert_int_equal(emit_uboot_env(&fx->in, &fx->e), -1);
	assert_int_equal(fx->e.code, BT_EXIT_USAGE);
	assert_non_null(strstr(fx->e.msg, "--keep-bootargs"));
	assert_int_equal(access(fx->path, F_OK), -1);
}

/* ---- uboot-scr ------------------------------------------------------------ */

static void test_scr_needs_out(void **state)
{
	struct fx *fx = *state;

	add(fx, "a=b");
	assert_int_equal(emit_uboot_scr(&fx->in, &fx->e), -1);
	assert_int_equal(fx->e.code, BT_EXIT_USAGE);
	assert_non_null(strstr(fx->e.msg, "-o FILE"));
	fx->in.out = "-";
	assert_int_equal(emit_uboot_scr(&fx->in, &fx->e), -1);
}

static unsigned be32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3];
}

static void test_scr_image(void **state)
{
	struct fx *fx = *state;
	const char *want = "setenv bootargs 'foo=\"a b\" x='\\''y'\\'''\n";
	char cmd[512], *img;
	size_t len;

	add(fx, "foo=\"a b\"");
	add(fx, "x='y'");
	out(fx, "boot.scr");
	assert_int_equal(emit_uboot_scr(&fx->in, &fx->e), 0);
	img = slurp(fx->path, &len);
	/* Legacy header: magic, then the script as a one-entry multi image. */
	assert_true(len == 64 + 8 + strlen(want));
	assert_int_equal(be32((unsigned char *)img), 0x27051956);
	assert_int_equal((unsigned char)img[29], 22);	/* arm64 (IH_ARCH_ARM64) */
	assert_int_equal((unsigned char)img[30], 6);	/* script (IH_TYPE_SCRIPT) */
	assert_int_equal(be32((unsigned char *)img + 64), strlen(want));
	assert_memory_equal(img + 72, want, strlen(want));
	free(img);
	/* mkimage itself checks both CRCs. */
	snprintf(cmd, sizeof(cmd), "mkimage -l %s | grep -q 'Script'", fx->path);
	assert_int_equal(system(cmd), 0);
}

static void test_scr_arch(void **state)
{
	struct fx *fx = *state;

	assert_string_equal(emit_uboot_mkimage_arch("x86_64"), "x86");
	assert_string_equal(emit_uboot_mkimage_arch("mips64el"), "mips64");
	assert_string_equal(emit_uboot_mkimage_arch("arm"), "arm");
	assert_null(emit_uboot_mkimage_arch("pdp11"));
	strcpy(fx->b.arch, "pdp11");
	add(fx, "a=b");
	out(fx, "boot.scr");
	assert_int_equal(emit_uboot_scr(&fx->in, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "pdp11"));
}

static void test_scr_no_mkimage(void **state)
{
	struct fx *fx = *state;
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	int ret;

	add(fx, "a=b");
	out(fx, "boot.scr");
	setenv("PATH", fx->dir, 1);
	ret = emit_uboot_scr(&fx->in, &fx->e);
	if (path) {
		setenv("PATH", path, 1);
		free(path);
	}
	assert_int_equal(ret, -1);
	assert_int_equal(fx->e.code, BT_EXIT_ENV);
	assert_non_null(strstr(fx->e.msg, "mkimage not found"));
	assert_non_null(strstr(fx->e.msg, "u-boot-tools"));
	/* Nothing left behind: no OUT, no temp file. */
	assert_int_equal(access(fx->path, F_OK), -1);
	assert_int_equal(rmdir(fx->dir), 0);
	assert_int_equal(mkdir(fx->dir, 0700), 0);
}

/* ---- uboot-envimage ------------------------------------------------------- */

static void test_envimage_needs(void **state)
{
	struct fx *fx = *state;

	add(fx, "a=b");
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "-o FILE"));
	out(fx, "env.bin");
	fx->b.env_size = 0;
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), -1);
	assert_int_equal(fx->e.code, BT_EXIT_INPUT);
	assert_non_null(strstr(fx->e.msg, "uboot.env.size"));
	fx->b.env_size = 0x4000;
	fx->in.keep_bootargs = 1;
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "--keep-bootargs"));
	assert_int_equal(access(fx->path, F_OK), -1);
}

static void test_envimage_too_big(void **state)
{
	struct fx *fx = *state;

	/* 4 (CRC) + 1 (flag) + "bootargs=" 9 + value + 2 NULs */
	fx->b.env_size = 64;
	fx->b.env_redundant = 1;
	fill(fx, 64 - 4 - 1 - 9 - 2);
	out(fx, "env.bin");
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), 0);
	words_free(&fx->w);
	fill(fx, 64 - 4 - 1 - 9 - 1);
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), -1);
	assert_non_null(strstr(fx->e.msg, "needs 65 bytes"));
	assert_non_null(strstr(fx->e.msg, "uboot.env.size 64"));
}

/* Read the image back with libubootenv's fw_printenv. */
static void test_envimage_fw_printenv(void **state)
{
	struct fx *fx = *state;
	char cfg[160], cmd[512], *got;
	FILE *f;

	add(fx, "foo=\"a b\"");
	add(fx, "x=$y;'z'#\\");
	out(fx, "env.bin");
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), 0);
	snprintf(cfg, sizeof(cfg), "%s/fw_env.config", fx->dir);
	f = fopen(cfg, "w");
	assert_non_null(f);
	fprintf(f, "%s 0x0 0x%x\n", fx->path, fx->b.env_size);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "fw_printenv -c %s > %s/printed", cfg, fx->dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/printed", fx->dir);
	got = slurp(cmd, NULL);
	assert_string_equal(got, "bootargs=foo=\"a b\" x=$y;'z'#\\\\\n");
	free(got);
}

/* U-Boot's crc32 (zlib's), to check the layout flags change. */
static unsigned crc32_of(const unsigned char *p, size_t n)
{
	unsigned c = 0xffffffffu;

	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

static void test_envimage_redundant_be(void **state)
{
	struct fx *fx = *state;
	unsigned char *img;
	size_t len;

	fx->b.env_size = 0x2000;
	fx->b.env_redundant = 1;
	fx->b.env_big_endian = 1;
	add(fx, "a=b");
	out(fx, "env.bin");
	assert_int_equal(emit_uboot_envimage(&fx->in, &fx->e), 0);
	img = (unsigned char *)slurp(fx->path, &len);
	assert_int_equal(len, 0x2000);
	assert_int_equal(img[4], 1);	/* the redundant copy's flag */
	assert_memory_equal(img + 5, "bootargs=a=b\0\0", 14);
	assert_int_equal(be32(img), crc32_of(img + 5, 0x2000 - 5));
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_plain, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quoting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_control_byte_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_words_deletes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cbsize_exact, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cbsize_one_over, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cbsize_counts_quoting, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_cbsize, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_backref, setup, teardown),
		cmocka_unit_test_setup_teardown(test_base_merged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_base_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_base_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env_keep_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scr_needs_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scr_image, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scr_arch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scr_no_mkimage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_envimage_needs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_envimage_too_big, setup, teardown),
		cmocka_unit_test_setup_teardown(test_envimage_fw_printenv, setup, teardown),
		cmocka_unit_test_setup_teardown(test_envimage_redundant_be, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
