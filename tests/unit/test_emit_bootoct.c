/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -t bootoctlinux: merging into a real-sized Octeon command, U-Boot's word
 * and buffer limits and the kernel's, exactly at the limit and one over.
 * Run from the top of the tree (board/ profiles are read from there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "unit.h"
#include "compile/emit.h"

/* A field line as found in Octeon U-Boot environments: 901 bytes. */
#define OCT_HEAD "bootoctlinux $(loadaddr) coremask=0xffff endbootargs mem=0 " \
	"console=ttyS0,115200 root=/dev/mmcblk0p2 rootfstype=ext4 rootwait rw " \
	"rootdelay=10 mtdparts=phys_mapped_flash:512k(boot0)ro,512k(boot1)ro," \
	"64k@1024k(eeprom)ro,3m(recovery),-(data) " \
	"octeon-ethernet.receive_group_order=3 octeon_ethernet.pow_send_group=-1 " \
	"net.ifnames=0 biosdevname=0 panic=10 oops=panic loglevel=7 " \
	"ignore_loglevel printk.devkmsg=on earlycon=uart8250,mmio32,0x1180000000800 "
#define OCT_OLD "ftrace=function_graph " \
	"ftrace_filter=octeon_irq_init,octeon_pci_setup,cvm_oct_init_module " \
	"trace_options=stacktrace,sym-offset,print-parent "
#define OCT_NEW "ftrace=function ftrace_filter=register_netdevice,bond_create " \
	"trace_options=func_stack_trace "
#define OCT_TAIL "crashkernel=128M@0x20000000 init=/sbin/init " \
	"systemd.log_level=info usbcore.autosuspend=-1 " \
	"ip=192.168.1.20:192.168.1.1:192.168.1.1:255.255.255.0:octeon:eth0:off " \
	"fsck.mode=skip fsck.repair=no audit=0 hugepagesz=2M hugepages=64 cma=64M " \
	"maxcpus=16 nr_cpus=16 irqaffinity=0-3 rcu_nocbs=4-15 nohz_full=4-15 " \
	"isolcpus=4-15 quiet"
#define OCT_WORDS "ftrace=function ftrace_filter=register_netdevice,bond_create " \
	"trace_options=func_stack_trace"

struct fx {
	char dir[64];
	char out[96];
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/bt-oct-XXXXXX");
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

/* A board with the given limits, nothing else. */
static void limits(struct board *b, unsigned cmdline_max, unsigned cbsize,
		   unsigned max_words)
{
	memset(b, 0, sizeof(*b));
	strcpy(b->name, "test");
	strcpy(b->arch, "mips64");
	strcpy(b->bootloader, "bootoctlinux");
	b->cmdline_max = cmdline_max;
	b->uboot_cbsize = cbsize;
	b->uboot_max_words = max_words;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * Run the emitter: 0 and *@out (the file, malloc'd) or -1 and @e.
 * @kernel is split as the kernel splits it.
 */
static int run(struct fx *fx, const struct board *b, const char *base,
	       const char *kernel, char **out, struct bt_error *e)
{
	struct words kw;
	struct emit_in in;
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
	ret = emit_bootoctlinux(&in, e);
	words_free(&kw);
	*out = ret ? NULL : slurp(fx->out);
	if (ret)
		assert_int_equal(access(fx->out, F_OK), -1);	/* nothing half-written */
	return ret;
}

static void expect(struct fx *fx, const struct board *b, const char *base,
		   const char *kernel, const char *want)
{
	struct bt_error e;
	char *out;

	if (run(fx, b, base, kernel, &out, &e))
		fail_msg("unexpected error: %s", e.msg);
	assert_string_equal(out, want);
	free(out);
}

static void expect_error(struct fx *fx, const struct board *b, const char *base,
			 const char *kernel, int code, const char *part1,
			 const char *part2)
{
	struct bt_error e;
	char *out;

	assert_int_equal(run(fx, b, base, kernel, &out, &e), -1);
	assert_int_equal(e.code, code);
	if (!strstr(e.msg, part1) || (part2 && !strstr(e.msg, part2)))
		fail_msg("message '%s' lacks '%s' / '%s'", e.msg, part1,
			 part2 ? part2 : "");
}

/* The 900-byte field line: only the three tracing words change. */
static void test_round_trip_900(void **state)
{
	struct fx *fx = *state;
	const char *base = OCT_HEAD OCT_OLD OCT_TAIL;
	const char *quoted = "'" OCT_HEAD OCT_OLD OCT_TAIL "'";
	struct bt_error e;
	struct board b;
	char *out;

	load_board(&b, "octeon-uboot");
	assert_true(strlen(base) >= 900);
	expect(fx, &b, base, OCT_WORDS, OCT_HEAD OCT_NEW OCT_TAIL "\n");
	/* The env-variable form keeps its quotes. */
	expect(fx, &b, quoted, OCT_WORDS, "'" OCT_HEAD OCT_NEW OCT_TAIL "'\n");
	/* A second run over its own output changes nothing. */
	assert_int_equal(run(fx, &b, OCT_HEAD OCT_NEW OCT_TAIL, OCT_WORDS,
			     &out, &e), 0);
	assert_string_equal(out, OCT_HEAD OCT_NEW OCT_TAIL "\n");
	free(out);
	/* Too many words for the EdgeRouter's stock U-Boot. */
	load_board(&b, "edgerouter-lite");
	expect_error(fx, &b, base, OCT_WORDS, BT_EXIT_INPUT, "has 43 words",
		     "U-Boot on board edgerouter-lite takes at most 32");
}

/* Options stay put; kernel words go after endbootargs. */
static void test_endbootargs(void **state)
{
	struct fx *fx = *state;
	struct board b;

	load_board(&b, "edgerouter-lite");
	expect(fx, &b, "bootoctlinux 0x20000000 numcores=2 endbootargs mem=0 "
	       "root=/dev/sda2", "ftrace=function",
	       "bootoctlinux 0x20000000 numcores=2 endbootargs mem=0 "
	       "root=/dev/sda2 ftrace=function\n");
	/* No address, no endbootargs: options are the leading run. */
	expect(fx, &b, "bootoctlinux coremask=0x3 forceboot root=/dev/sda2 "
	       "ftrace=nop", "ftrace=function",
	       "bootoctlinux coremask=0x3 forceboot root=/dev/sda2 "
	       "ftrace=function\n");
	/* Without endbootargs U-Boot would read this word as coremask=. */
	expect_error(fx, &b, "bootoctlinux $(loadaddr) root=/dev/sda2",
		     "coremask=0x1", BT_EXIT_INPUT,
		     "as its own option 'coremask='", "add endbootargs");
	expect(fx, &b, "bootoctlinux $(loadaddr) endbootargs root=/dev/sda2",
	       "coremask=0x1", "bootoctlinux $(loadaddr) endbootargs "
	       "root=/dev/sda2 coremask=0x1\n");
	/* A tracing-looking option before endbootargs is U-Boot's: kept. */
	expect(fx, &b, "bootoctlinux $(loadaddr) debug endbootargs ftrace=nop",
	       "trace_options=sym-addr", "bootoctlinux $(loadaddr) debug "
	       "endbootargs trace_options=sym-addr\n");
}

/* "--": init's arguments follow; the tracing words go before it. */
static void test_dashes(void **state)
{
	struct fx *fx = *state;
	struct board b;

	load_board(&b, "edgerouter-lite");
	expect(fx, &b, "bootoctlinux $(loadaddr) endbootargs root=/dev/sda2 -- "
	       "single ftrace=nop", "ftrace=function trace_options=sym-addr",
	       "bootoctlinux $(loadaddr) endbootargs root=/dev/sda2 "
	       "ftrace=function trace_options=sym-addr -- single ftrace=nop\n");
}

/* A repeated word loses the earlier one: one is kept, in the first place. */
static void test_repeated(void **state)
{
	struct fx *fx = *state;
	struct board b;

	load_board(&b, "edgerouter-lite");
	expect(fx, &b, "bootoctlinux $(loadaddr) endbootargs trace_options=a "
	       "root=/dev/sda2 trace-options=b trace_buf_size=1M quiet "
	       "trace_options=c", "trace_options=func_stack_trace ftrace=function",
	       "bootoctlinux $(loadaddr) endbootargs "
	       "trace_options=func_stack_trace root=/dev/sda2 quiet "
	       "ftrace=function\n");
}

/* 32 words pass on the EdgeRouter, 33 do not; 255 bytes pass, 256 do not. */
static void test_uboot_limits(void **state)
{
	struct fx *fx = *state;
	char base[512], want[600], kernel[300];
	struct board b;
	int i;

	load_board(&b, "edgerouter-lite");
	strcpy(base, "bootoctlinux $(loadaddr) endbootargs");	/* 3 words */
	for (i = 0; i < 28; i++)				/* 31 */
		sprintf(base + strlen(base), " w%d", i);
	snprintf(want, sizeof(want), "%s ftrace=function\n", base);
	expect(fx, &b, base, "ftrace=function", want);
	expect_error(fx, &b, base, "ftrace=function ftrace_filter=a",
		     BT_EXIT_INPUT, "has 33 words", "takes at most 32");
	/* A space inside a quoted value is a word for U-Boot too. */
	expect_error(fx, &b, base, "trace_event=\"a b\"",
		     BT_EXIT_INPUT, "has 33 words", "CONFIG_SYS_MAXARGS");

	/* 255 bytes: "bootoctlinux 0x20000000 endbootargs " is 36. */
	memset(kernel, 0, sizeof(kernel));
	strcpy(kernel, "ftrace_filter=");
	memset(kernel + 14, 'f', 255 - 36 - 14);
	snprintf(want, sizeof(want), "bootoctlinux 0x20000000 endbootargs %s\n",
		 kernel);
	assert_int_equal(strlen(want), 256);
	expect(fx, &b, "bootoctlinux 0x20000000 endbootargs", kernel, want);
	strcat(kernel, "f");
	expect_error(fx, &b, "bootoctlinux 0x20000000 endbootargs", kernel,
		     BT_EXIT_INPUT, "command is 256 bytes",
		     "reads at most 255 (CONFIG_SYS_CBSIZE 256");
}

/* "ftrace_filter=" and @k letters f: a word of 14 + @k bytes. */
static const char *filter_word(char *buf, size_t k)
{
	strcpy(buf, "ftrace_filter=");
	memset(buf + 14, 'f', k);
	buf[14 + k] = '\0';
	return buf;
}

/*
 * The kernel's limit as Octeon Linux builds the line: " word" per word,
 * mem= left out, one spare byte; COMMAND_LINE_SIZE 64 here.
 */
static void test_kernel_limit(void **state)
{
	struct fx *fx = *state;
	char w[80], want[160];
	struct board b;

	limits(&b, 64, 1024, 64);
	/* " console=ttyS0" 14 + " ftrace_filter=" 15 + 33 = 62, + 1 spare. */
	snprintf(want, sizeof(want), "bootoctlinux 0 endbootargs mem=0 "
		 "console=ttyS0 %s\n", filter_word(w, 33));
	expect(fx, &b, "bootoctlinux 0 endbootargs mem=0 console=ttyS0", w, want);
	expect_error(fx, &b, "bootoctlinux 0 endbootargs mem=0 console=ttyS0",
		     filter_word(w, 34), BT_EXIT_INPUT, "is 64 bytes",
		     "keeps at most 63 (COMMAND_LINE_SIZE 64 of board test)");
	/* No console=: Linux adds " console=ttyS0,115200" (21): 10 + 15 + k. */
	snprintf(want, sizeof(want), "bootoctlinux 0 endbootargs mem=0 "
		 "x=0123456 %s\n", filter_word(w, 17));
	expect(fx, &b, "bootoctlinux 0 endbootargs mem=0 x=0123456", w, want);
	expect_error(fx, &b, "bootoctlinux 0 endbootargs mem=0 x=0123456",
		     filter_word(w, 18), BT_EXIT_INPUT, "is 64 bytes",
		     "the console= it adds");
	/* No endbootargs: the kernel gets every word, the command too (40). */
	snprintf(want, sizeof(want), "bootoctlinux 0 coremask=1 console=ttyS0 "
		 "%s\n", filter_word(w, 7));
	expect(fx, &b, "bootoctlinux 0 coremask=1 console=ttyS0", w, want);
	expect_error(fx, &b, "bootoctlinux 0 coremask=1 console=ttyS0",
		     filter_word(w, 8), BT_EXIT_INPUT, "is 64 bytes", NULL);
}

/* Double quotes do not group in U-Boot: one space survives, two do not. */
static void test_quotes_and_escapes(void **state)
{
	struct fx *fx = *state;
	struct board b;

	load_board(&b, "octeon-uboot");
	expect(fx, &b, "bootoctlinux 0 endbootargs", "trace_event=\"a b\"",
	       "bootoctlinux 0 endbootargs trace_event=\"a b\"\n");
	expect_error(fx, &b, "bootoctlinux 0 endbootargs", "trace_event=\"a  b\"",
		     BT_EXIT_INPUT, "the kernel would get 'trace_event=\"a b\"'",
		     "single spaces");
	/* ';' ends a U-Boot command, $(x) expands, '\' escapes: escaped. */
	expect(fx, &b, "bootoctlinux 0 endbootargs",
	       "kprobe_event=p:a/b,f;p:a/c,g x=$(y) z=a\\b q=it's",
	       "bootoctlinux 0 endbootargs kprobe_event=p:a/b,f\\;p:a/c,g "
	       "x=\\$(y) z=a\\\\b q=it\\'s\n");
	/* $arg1 is no U-Boot variable: kept as it is. */
	expect(fx, &b, "bootoctlinux 0 endbootargs", "kprobe_event=p,f,$arg1",
	       "bootoctlinux 0 endbootargs kprobe_event=p,f,$arg1\n");
	/* Two backslashes: U-Boot's unescaping cannot give them back. */
	expect_error(fx, &b, "bootoctlinux 0 endbootargs", "z=a\\\\b",
		     BT_EXIT_INPUT, "cannot go through bootoctlinux", NULL);
	/* An escaped ';' in --base is one command, kept as written. */
	expect(fx, &b, "bootoctlinux 0 endbootargs mtdparts=a:1m(x)\\;b:2m(y)",
	       "ftrace=function", "bootoctlinux 0 endbootargs "
	       "mtdparts=a:1m(x)\\;b:2m(y) ftrace=function\n");
}

static void test_bad_base(void **state)
{
	struct fx *fx = *state;
	struct bt_error e;
	struct emit_in in;
	struct words kw;
	struct board b;

	load_board(&b, "edgerouter-lite");
	/* A bootcmd of several commands: only bootoctlinux's arguments change. */
	expect(fx, &b, "fatload usb 0 $(loadaddr) vmlinux.64;bootoctlinux "
	       "$(loadaddr)", "ftrace=function", "fatload usb 0 $(loadaddr) "
	       "vmlinux.64;bootoctlinux $(loadaddr) ftrace=function\n");
	expect_error(fx, &b, "bootoctlinux 0 a; bootoctlinux 1 b",
		     "ftrace=function", BT_EXIT_INPUT,
		     "more than one bootoctlinux command", NULL);
	expect_error(fx, &b, "run a; run b", "ftrace=function", BT_EXIT_INPUT,
		     "starts with 'run'", "has none");
	expect_error(fx, &b, "bootm $(loadaddr)", "ftrace=function",
		     BT_EXIT_INPUT, "must be a bootoctlinux command",
		     "starts with 'bootm'");
	expect_error(fx, &b, "  ", "ftrace=function", BT_EXIT_INPUT,
		     "--base is empty", NULL);
	words_init(&kw);
	memset(&in, 0, sizeof(in));
	in.kernel = &kw;
	in.board = &b;
	bt_error_clear(&e);
	assert_int_equal(emit_bootoctlinux(&in, &e), -1);
	assert_int_equal(e.code, BT_EXIT_USAGE);
	assert_non_null(strstr(e.msg, "needs --base"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip_900, setup, teardown),
		cmocka_unit_test_setup_teardown(test_endbootargs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dashes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_repeated, setup, teardown),
		cmocka_unit_test_setup_teardown(test_uboot_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kernel_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_quotes_and_escapes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_base, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
