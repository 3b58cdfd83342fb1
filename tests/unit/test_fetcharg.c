/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Issue 22 part 4: a kprobe's NAME=FETCH[:TYPE] is checked as the kernel
 * parses it, with each arch's register names (kernel/fetcharg.h), and a
 * refusal names the byte where the kernel would stop.
 */
#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "kernel/fetcharg.h"

static void ok(const char *spec, const char *arch, int kver)
{
	struct kcaps k;
	struct bt_error e;

	memset(&k, 0, sizeof(k));
	k.version = kver;
	bt_error_clear(&e);
	if (fetcharg_check(spec, arch, &k, &e)) {
		fprintf(stderr, "refused %s on %s: %s (byte %lld)\n", spec, arch, e.msg, e.off);
		fail();
	}
}

/* Refused at byte @off with @words in the message; the file is @spec. */
static void bad(const char *spec, const char *arch, int kver, long long off,
		const char *words)
{
	struct kcaps k;
	struct bt_error e;

	memset(&k, 0, sizeof(k));
	k.version = kver;
	bt_error_clear(&e);
	if (!fetcharg_check(spec, arch, &k, &e)) {
		fprintf(stderr, "took %s on %s\n", spec, arch ? arch : "(none)");
		fail();
	}
	if (e.off != off || !strstr(e.msg, words) || strcmp(e.file, spec)) {
		fprintf(stderr, "%s on %s: byte %lld (want %lld): %s\n", spec, arch ? arch : "(none)", e.off, off, e.msg);
		fail();
	}
}

static void test_fetcharg_arg_regs(void **state)
{
	(void)state;
	assert_string_equal(fetcharg_arg_reg("x86_64", 1), "di");
	assert_string_equal(fetcharg_arg_reg("x86_64", 2), "si");
	assert_string_equal(fetcharg_arg_reg("arm64", 1), "x0");
	assert_string_equal(fetcharg_arg_reg("riscv64", 1), "a0");
	assert_string_equal(fetcharg_arg_reg("arm", 1), "r0");
	/* MIPS: $a0 is r4 in both ABIs, and the kernel's names are rN */
	assert_string_equal(fetcharg_arg_reg("mips64el", 1), "r4");
	assert_string_equal(fetcharg_arg_reg("mips", 2), "r5");
	assert_string_equal(fetcharg_arg_reg("s390x", 1), "r2");
	assert_null(fetcharg_arg_reg("unknown", 1));
	assert_null(fetcharg_arg_reg("sparc64", 1));
	assert_null(fetcharg_arg_reg("arm", 5));
}

static void test_fetcharg_registers(void **state)
{
	(void)state;
	ok("name=+0(%di):string", "x86_64", KVER(6, 1));
	ok("dev=%di", "x86_64", 0);
	ok("v=%r15:x64", "x86_64", 0);
	ok("name=+0(%x0):string", "arm64", 0);
	ok("v=%x30", "arm64", 0);
	ok("v=%pstate:u32", "arm64", 0);
	ok("name=+0(%a0):string", "riscv64", 0);
	ok("name=+0(%r0):string", "arm", 0);
	ok("name=+0(%r4):string", "mips64el", 0);
	ok("v=%r31", "mips", 0);
	ok("v=%r15", "s390x", 0);
	/* x86_64's names have no 'r' prefix for the old registers */
	bad("name=+0(%rdi):string", "x86_64", 0, 9, "'rdi' is not a register name of x86_64");
	bad("name=+0(%rdi):string", "x86_64", 0, 9, "%di, %si, %dx");
	bad("v=%x31", "arm64", 0, 3, "not a register name of arm64");
	bad("v=%x01", "arm64", 0, 3, "not a register name");
	bad("v=%a0", "mips64", 0, 3, "its function arguments come in %r4");
	bad("v=%r32", "mips", 0, 3, "not a register name");
	bad("v=%r16", "s390", 0, 3, "not a register name");
	bad("v=%ds", "x86_64", 0, 3, "not a register name");	/* 32-bit only */
	/* an unknown arch: the caller notes the register is unchecked */
	ok("v=%anything", "unknown", 0);
	ok("v=%anything", NULL, 0);
}

static void test_fetcharg_vars(void **state)
{
	(void)state;
	ok("name=+0($arg1):string", "x86_64", KVER(6, 1));
	ok("a=$arg2", "arm64", 0);
	ok("a=$arg1", "riscv64", KVER(6, 6));
	ok("c=$comm", "arm", 0);
	ok("c=$comm:string", "arm", 0);
	ok("s=$stack3", "mips", 0);
	ok("s=$stack", "mips", 0);
	bad("a=$arg1", "arm", 0, 2, "no function-argument access");
	bad("a=$arg1", "mips64el", 0, 2, "%r4, %r5");
	bad("a=$arg1", "unknown", 0, 2, "give -b BOARD");
	bad("a=$arg1", "x86_64", KVER(5, 10), 2, "from Linux 6.1's sources only");
	bad("a=$arg0", "x86_64", 0, 6, "from 1");
	bad("r=$retval", "x86_64", 0, 2, "return probe");
	bad("x=$foo", "x86_64", 0, 2, "'$foo' is not a variable");
	bad("c=$comm:u32", "x86_64", 0, 8, "$comm is a string");
	bad("c=+0($comm)", "x86_64", 0, 5, "cannot be dereferenced");
}

static void test_fetcharg_syntax(void **state)
{
	(void)state;
	ok("p=@jiffies", "x86_64", 0);
	ok("p=@jiffies+8:u64", "x86_64", 0);
	ok("p=@0xffffffff81000000:x64", "x86_64", 0);
	ok("p=+8(+0(%di)):string", "x86_64", 0);
	ok("p=-8(%sp):s32", "x86_64", 0);
	ok("p=+0x10(%di):u8[4]", "x86_64", 0);
	ok("p=+0(%di):b3@2/8", "x86_64", 0);
	ok("p=+u0(%di):ustring", "x86_64", 0);
	ok("p=\\\"text\":string", "x86_64", 0);
	ok("p=\\12", "x86_64", 0);
	bad("=%di", "x86_64", 0, 0, "give NAME=FETCH");
	bad("1a=%di", "x86_64", 0, 0, "give NAME=FETCH");
	bad("name", "x86_64", 0, 4, "give NAME=FETCH");
	bad("na-me=%di", "x86_64", 0, 2, "after the name");
	bad("name=", "x86_64", 0, 5, "nothing to fetch");
	bad("name=+0%di", "x86_64", 0, 5, "needs its '('");
	bad("name=+0(%di:string", "x86_64", 0, 11, "needs its ')'");
	bad("name=+x(%di)", "x86_64", 0, 6, "the offset is a number");
	bad("name=%di:string", "x86_64", 0, 9, "a string is read from memory");
	bad("name=%di:string", "x86_64", 0, 9, "name=+0(%di):string");
	bad("name=+0(%di):str", "x86_64", 0, 13, "'str' is not a fetch type");
	bad("name=+0(%di):u8[0]", "x86_64", 0, 16, "N is 1 to 64");
	bad("name=+0(%di):u8[4", "x86_64", 0, 17, "closed by ']'");
	bad("name=+0(%di):b9@0/8", "x86_64", 0, 13, "bitfield");
	bad("name=@+8", "x86_64", 0, 6, "uprobes");
	bad("name=@", "x86_64", 0, 6, "@ needs an address");
	bad("name=@sym*", "x86_64", 0, 9, "after @SYMBOL");
	bad("name=#1", "x86_64", 0, 5, "'#' starts no fetch");
	bad("name=+0(%di),x", "x86_64", 0, 12, "kprobe_event= splits");
	bad("name=+0(%di) x", "x86_64", 0, 12, "no blank");
	bad("n=+0(+0(+0(+0(+0(+0(+0(+0(+0(+0(%di))))))))))", "x86_64", 0, 29, "too many nested");
	/* MAX_ARGSTR_LEN: 63 bytes after NAME= */
	bad("n=@a12345678901234567890123456789012345678901234567890123456789012",
	    "x86_64", 0, 65, "63 bytes at most");
	ok("n=@a1234567890123456789012345678901234567890123456789012345678901",
	   "x86_64", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fetcharg_arg_regs),
		cmocka_unit_test(test_fetcharg_registers),
		cmocka_unit_test(test_fetcharg_vars),
		cmocka_unit_test(test_fetcharg_syntax),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
