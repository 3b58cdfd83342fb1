/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ELF side of boottrace check on objects that gcc, ld, xz, zstd and
 * gzip make at test time (nothing binary is committed): an object built
 * like a module (-pg -mfentry -mrecord-mcount, or
 * -fpatchable-function-entry), the same compressed three ways, a tiny
 * "vmlinux" linked with __start/__stop_mcount_loc as the kernel's linker
 * script does, and broken files.
 */
#include "unit.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check/check.h"
#include "kimage/kcallers.h"

static char dir[64];

static const char src[] =
	"extern void ext_target(void);\n"
	"__attribute__((noinline)) void traced_fn(void) { ext_target(); }\n"
	"__attribute__((noinline, no_instrument_function, patchable_function_entry(0, 0)))\n"
	"void notrace_fn(void) { ext_target(); }\n"
	"__attribute__((noinline, section(\".init.text\"))) int my_init(void)\n"
	"{ traced_fn(); return 0; }\n"
	"int init_module(void) __attribute__((alias(\"my_init\")));\n"
	"void caller_fn(void) { traced_fn(); notrace_fn(); }\n";

static const char support[] =
	"void __fentry__(void) {}\nvoid ext_target(void) {}\n";

static const char lds[] =
	"ENTRY(caller_fn)\nSECTIONS {\n . = 0x400000;\n"
	" .text : { *(.text .text.*) }\n .init.text : { *(.init.text) }\n"
	" .init.data : { __start_mcount_loc = .; KEEP(*(__mcount_loc))"
	" __stop_mcount_loc = .; }\n .data : { *(.data .bss .rodata*) }\n}\n";

static void put(const char *name, const char *text)
{
	unit_put(dir, name, text);
}

static void sh(const char *fmt)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cd %s && %s", dir, fmt);
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

static int setup(void **state)
{
	(void)state;
	strcpy(dir, "/tmp/bt-check-elf.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	put("x.c", src);
	put("support.c", support);
	put("v.ld", lds);
	sh("gcc -O2 -fno-pic -pg -mfentry -mrecord-mcount -c -o x.o x.c && "
	   "gcc -O2 -fno-pic -fpatchable-function-entry=5 -c -o p.o x.c && "
	   "mkdir -p mods/sub && cp x.o mods/plain.ko && "
	   "xz --check=crc32 -c x.o > mods/sub/xzmod.ko.xz && "
	   "zstd -q -c x.o > mods/sub/zst-mod.ko.zst && "
	   "gzip -c x.o > mods/gzmod.ko.gz && "
	   "gcc -O2 -fno-pic -c -o support.o support.c && "
	   "gcc -nostdlib -static -no-pie -Wl,-T,v.ld -o vmlinux x.o support.o && "
	   "head -c 300 x.o > trunc.o && echo 'hello' > text.txt");
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(p);
}

static int teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
}

static unsigned flags_of(const struct ksyms *t, const char *name, int mod)
{
	size_t i;

	for (i = 1; i < t->n; i++)
		if (!strcmp(t->sym[i].name, name) && t->sym[i].mod == mod)
			return t->sym[i].flags;
	fail_msg("no symbol %s in module %d", name, mod);
	return 0;
}

static void load(struct ksyms *t, const char *name, int mod)
{
	char path[128];
	struct bt_error e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (ksyms_load_elf(t, path, mod, &e)) {
		bt_error_print(&e, stderr);
		fail();
	}
}

static void test_module_mcount(void **state)
{
	struct ksyms t = { 0 };
	int m;

	(void)state;
	m = ksyms_module(&t, "x");
	load(&t, "x.o", m);
	assert_true(t.mods_trace);
	assert_int_equal(flags_of(&t, "traced_fn", m) & (KSYM_TEXT | KSYM_TRACE), KSYM_TEXT | KSYM_TRACE);
	assert_int_equal(flags_of(&t, "caller_fn", m) & KSYM_TRACE, KSYM_TRACE);
	assert_int_equal(flags_of(&t, "notrace_fn", m) & (KSYM_TEXT | KSYM_TRACE), KSYM_TEXT);
	assert_int_equal(flags_of(&t, "my_init", m) & (KSYM_INIT | KSYM_TRACE), KSYM_INIT | KSYM_TRACE);
	assert_int_equal(flags_of(&t, "init_module", m) & KSYM_TRACE, KSYM_TRACE);
	ksyms_free(&t);
}

static void test_module_patchable(void **state)
{
	struct ksyms t = { 0 };
	int m;

	(void)state;
	m = ksyms_module(&t, "p");
	load(&t, "p.o", m);
	assert_true(t.mods_trace);
	assert_int_equal(flags_of(&t, "traced_fn", m) & KSYM_TRACE, KSYM_TRACE);
	assert_int_equal(flags_of(&t, "notrace_fn", m) & KSYM_TRACE, 0);
	ksyms_free(&t);
}

static void test_compressed_modules(void **state)
{
	struct ksyms t = { 0 };
	struct bt_error e;
	char path[128];
	size_t i;

	(void)state;
	snprintf(path, sizeof(path), "%s/mods", dir);
	if (ksyms_load_modules(&t, path, &e)) {
		bt_error_print(&e, stderr);
		fail();
	}
	assert_int_equal(t.nmods, 4);
	for (i = 0; i < t.nmods; i++) {
		assert_int_equal(flags_of(&t, "traced_fn", (int)i) & KSYM_TRACE, KSYM_TRACE);
		assert_int_equal(flags_of(&t, "notrace_fn", (int)i) & KSYM_TRACE, 0);
		assert_true(!strcmp(t.mods[i], "plain") || !strcmp(t.mods[i], "xzmod") ||
			    !strcmp(t.mods[i], "zst_mod") || !strcmp(t.mods[i], "gzmod"));
	}
	ksyms_free(&t);
}

static void test_vmlinux_mcount_loc(void **state)
{
	struct ksyms t = { 0 };

	(void)state;
	load(&t, "vmlinux", -1);
	assert_int_equal(t.core_trace, KT_KNOWN);
	assert_int_equal(flags_of(&t, "traced_fn", -1) & KSYM_TRACE, KSYM_TRACE);
	assert_int_equal(flags_of(&t, "notrace_fn", -1) & KSYM_TRACE, 0);
	assert_int_equal(flags_of(&t, "__fentry__", -1) & KSYM_TRACE, 0);
	assert_int_equal(flags_of(&t, "my_init", -1) & (KSYM_INIT | KSYM_TRACE), KSYM_INIT | KSYM_TRACE);
	ksyms_free(&t);
}

static char *callers(const char *vmlinux, const char *mods, const char *func)
{
	struct ksyms t = { 0 };
	struct bt_error e;
	char v[128], m[128], *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	snprintf(v, sizeof(v), "%s/%s", dir, vmlinux ? vmlinux : "");
	snprintf(m, sizeof(m), "%s/%s", dir, mods ? mods : "");
	if ((vmlinux && ksyms_load_elf(&t, v, -1, &e)) ||
	    (mods && ksyms_load_modules(&t, m, &e)) || ksyms_index(&t) ||
	    kcallers_print(&t, vmlinux ? v : NULL, mods ? m : NULL, func, 3, f, &e)) {
		bt_error_print(&e, stderr);
		fail();
	}
	fclose(f);
	ksyms_free(&t);
	return buf;
}

static void test_callers(void **state)
{
	char *out;

	(void)state;
	out = callers("vmlinux", NULL, "ext_target");
	assert_non_null(strstr(out, "ext_target\n"));
	assert_non_null(strstr(out, "  <- traced_fn\n"));
	assert_non_null(strstr(out, "    <- caller_fn\n"));
	assert_non_null(strstr(out, "    <- my_init\n"));
	assert_non_null(strstr(out, "  <- notrace_fn\n"));
	free(out);
	out = callers(NULL, "mods", "traced_fn");
	assert_non_null(strstr(out, "  <- caller_fn [plain]\n"));
	assert_non_null(strstr(out, "  <- my_init [zst_mod]\n"));
	assert_null(strstr(out, "init_module"));
	free(out);
	out = callers(NULL, "mods", "caller_fn");
	assert_non_null(strstr(out, "no direct caller found in the modules"));
	free(out);
}

static void test_bad_files(void **state)
{
	static const char *const names[] = { "trunc.o", "text.txt", "missing.ko", "x.c" };
	const char *want[] = { "ELF", "not an ELF file", "cannot open", "not an ELF file" };
	struct bt_error e;
	char path[128];
	size_t i;

	(void)state;
	for (i = 0; i < 4; i++) {
		struct ksyms t = { 0 };

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		bt_error_clear(&e);
		assert_int_equal(ksyms_load_elf(&t, path, -1, &e), -1);
		if (!strstr(e.msg, want[i]) || !strstr(e.msg, "expected"))
			fail_msg("%s: %s", names[i], e.msg);
		assert_string_equal(e.file, path);
		ksyms_free(&t);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_mcount),
		cmocka_unit_test(test_module_patchable),
		cmocka_unit_test(test_compressed_modules),
		cmocka_unit_test(test_vmlinux_mcount_loc),
		cmocka_unit_test(test_callers),
		cmocka_unit_test(test_bad_files),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
