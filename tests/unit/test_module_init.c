/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A module's init function from its .ko (kmodules_init, kimage.h), on
 * objects gcc and xz make at test time (nothing binary is committed): the
 * alias module_init() makes (docs/kernel-facts.md 83), an init written as
 * init_module itself, a module without an init, the same packed with xz,
 * and a file that is no ELF.
 */
#include "unit.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kimage/kimage.h"

static char dir[64];

/* as module_init(bonding_init) expands: init_module an alias of it */
static const char alias_src[] =
	"int helper(int x) { return x + 1; }\n"
	"__attribute__((section(\".init.text\"), used)) int bonding_init(void)\n"
	"{ return helper(0) - 1; }\n"
	"int init_module(void) __attribute__((alias(\"bonding_init\")));\n";
/* an old-style module: its init is init_module under no other name */
static const char plain_src[] =
	"__attribute__((section(\".init.text\"))) int init_module(void) { return 0; }\n";
/* no init at all (a library module) */
static const char none_src[] = "int helper(int x) { return x + 1; }\n";

static void put(const char *name, const char *text)
{
	unit_put(dir, name, text);
}

static int setup(void **state)
{
	char cmd[512];

	(void)state;
	strcpy(dir, "/tmp/bt-modinit.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	put("alias.c", alias_src);
	put("plain.c", plain_src);
	put("none.c", none_src);
	snprintf(cmd, sizeof(cmd), "cd %s && gcc -O2 -c -o alias.ko alias.c && "
		 "gcc -O2 -c -o plain.ko plain.c && gcc -O2 -c -o none.ko none.c && "
		 "xz --check=crc32 -c alias.ko > packed.ko.xz && "
		 "echo 'not a module' > text.ko", dir);
	return system(cmd) ? -1 : 0;
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

static int init_of(const char *file, char *name, size_t cap, uint64_t *size,
		   struct bt_error *e)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	bt_error_clear(e);
	name[0] = '\0';
	return kmodules_init_file(path, name, cap, size, e);
}

static void test_alias(void **state)
{
	char name[64];
	uint64_t size = 0;
	struct bt_error e;

	(void)state;
	assert_int_equal(init_of("alias.ko", name, sizeof(name), &size, &e), 1);
	assert_string_equal(name, "bonding_init");
	assert_true(size > 0);
	/* packed as the kernel's MODULE_COMPRESS_XZ writes it: the same */
	assert_int_equal(init_of("packed.ko.xz", name, sizeof(name), &size, &e), 1);
	assert_string_equal(name, "bonding_init");
}

static void test_plain_and_none(void **state)
{
	char name[64];
	uint64_t size = 0;
	struct bt_error e;

	(void)state;
	assert_int_equal(init_of("plain.ko", name, sizeof(name), &size, &e), 1);
	assert_string_equal(name, "init_module");
	assert_int_equal(init_of("none.ko", name, sizeof(name), &size, &e), 0);
	assert_string_equal(name, "");
}

static void test_table(void **state)
{
	struct ksyms t = { 0 };
	const struct ksym *s;
	char path[128];
	struct bt_error e;
	int a, b;

	(void)state;
	/* two modules in one table: each one's own init */
	a = ksyms_module(&t, "none");
	b = ksyms_module(&t, "alias");
	snprintf(path, sizeof(path), "%s/none.ko", dir);
	assert_int_equal(ksyms_load_elf(&t, path, a, &e), 0);
	snprintf(path, sizeof(path), "%s/alias.ko", dir);
	assert_int_equal(ksyms_load_elf(&t, path, b, &e), 0);
	assert_null(kmodules_init(&t, a));
	s = kmodules_init(&t, b);
	assert_non_null(s);
	assert_string_equal(s->name, "bonding_init");
	assert_true(s->flags & KSYM_INIT);
	ksyms_free(&t);
}

static void test_bad(void **state)
{
	char name[64];
	uint64_t size = 0;
	struct bt_error e;

	(void)state;
	assert_int_equal(init_of("text.ko", name, sizeof(name), &size, &e), -1);
	assert_non_null(strstr(e.msg, "expected"));
	assert_int_equal(init_of("missing.ko", name, sizeof(name), &size, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alias),
		cmocka_unit_test(test_plain_and_none),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
