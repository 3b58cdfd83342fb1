/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one text escaper (bt_fput_text, util/bt_error.c) and the voice every
 * message is said in: valid UTF-8 kept, control bytes and bytes that are
 * not UTF-8 as \xNN; errors without a file in the verb's name; quiet
 * keeping errors only.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/bt_error.h"

static char *text(const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	bt_fput_text(f, in);
	fclose(f);
	return buf;
}

static void expect(const char *in, const char *want)
{
	char *got = text(in);

	assert_string_equal(got, want);
	free(got);
}

static void test_text_escapes(void **state)
{
	(void)state;
	expect("plain/path.bconf", "plain/path.bconf");
	expect("a\nb\tc\x1b[0m\x7f", "a\\nb\\tc\\x1b[0m\\x7f");
	/* valid UTF-8 stays as it is */
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* a lone continuation, a lead byte without its tail, 0xff */
	expect("b\xff.bconf", "b\\xff.bconf");
	expect("\x80x", "\\x80x");
	expect("\xc3x", "\\xc3x");
	expect("\xe2\x82", "\\xe2\\x82");
	/* overlong '/', a surrogate, past U+10FFFF */
	expect("\xc0\xaf", "\\xc0\\xaf");
	expect("\xed\xa0\x80", "\\xed\\xa0\\x80");
	expect("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
}

/* Whatever the bytes, the output is ASCII-safe: no byte >= 0x80 that is not
 * part of a sequence copied whole, no control byte. */
static void test_text_random(void **state)
{
	char in[64];
	unsigned int seed = 20;
	int round, i;

	(void)state;
	for (round = 0; round < 20000; round++) {
		char *out;

		for (i = 0; i < 63; i++)
			in[i] = (char)(1 + rand_r(&seed) % 255);
		in[63] = '\0';
		out = text(in);
		for (i = 0; out[i]; i++)
			assert_true((unsigned char)out[i] >= 0x20 && out[i] != 0x7f);
		free(out);
	}
}

static char *stderr_of(void (*fn)(void))
{
	char path[] = "/tmp/test_text.XXXXXX";
	char *buf = calloc(1, 4096);
	int fd = mkstemp(path), saved = dup(2);
	FILE *f;

	assert_true(fd >= 0 && saved >= 0 && buf);
	fflush(stderr);
	dup2(fd, 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fdopen(fd, "r");
	rewind(f);
	assert_true(fread(buf, 1, 4095, f) < 4095);
	fclose(f);
	unlink(path);
	return buf;
}

static void say_all(void)
{
	struct bt_error e;

	bt_error_set(&e, BT_EXIT_ENV, NULL, "cannot write output");
	bt_error_print(&e, stderr);
	bt_say(NULL, BT_SAY_WARN, "a warning");
	bt_say("f.bconf", BT_SAY_NOTE, "a note in \xff");
	bt_say(NULL, BT_SAY_ERROR, "an error");
}

static void test_voice(void **state)
{
	char *s;

	(void)state;
	bt_voice_name("boottrace check");
	bt_voice_level(BT_NORMAL);
	s = stderr_of(say_all);
	assert_string_equal(s, "boottrace check: error: cannot write output\n"
			    "boottrace check: warning: a warning\n"
			    "f.bconf: note: a note in \\xff\n"
			    "boottrace check: error: an error\n");
	free(s);
	assert_false(bt_verbose());
	bt_voice_level(BT_QUIET);
	s = stderr_of(say_all);
	assert_string_equal(s, "boottrace check: error: cannot write output\n"
			    "boottrace check: error: an error\n");
	free(s);
	bt_voice_level(BT_VERBOSE);
	assert_true(bt_verbose());
	bt_voice_level(BT_NORMAL);
	bt_voice_name(NULL);
}

/*
 * An error keeps its own copy of the file name: the path it was made
 * with may be freed before the verb prints it (try's instance path was),
 * and an error is copied by value.
 */
static void test_error_owns_file(void **state)
{
	struct bt_error e, copy;
	char *path = strdup("/sys/kernel/tracing/instances");
	char *out = NULL, *longname;
	size_t len = 0, n = BT_ERROR_FILE_MAX + 50;
	FILE *f;

	(void)state;
	assert_non_null(path);
	bt_error_set(&e, BT_EXIT_ENV, path, "cannot create an instance");
	memset(path, 'x', strlen(path));
	free(path);
	copy = e;
	memset(&e, 0, sizeof(e));
	f = open_memstream(&out, &len);
	assert_non_null(f);
	bt_error_print(&copy, f);
	fclose(f);
	assert_string_equal(out, "/sys/kernel/tracing/instances: error: cannot create an instance\n");
	free(out);
	/* a name longer than the copy is cut visibly, never overrun */
	longname = malloc(n + 1);
	assert_non_null(longname);
	memset(longname, 'a', n);
	longname[n] = '\0';
	bt_error_set(&e, BT_EXIT_INPUT, longname, "x");
	assert_int_equal(strlen(e.file), BT_ERROR_FILE_MAX - 1);
	assert_string_equal(e.file + strlen(e.file) - 3, "...");
	free(longname);
	bt_error_set(&e, BT_EXIT_INPUT, NULL, "x");
	assert_string_equal(e.file, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_escapes),
		cmocka_unit_test(test_text_random),
		cmocka_unit_test(test_voice),
		cmocka_unit_test(test_error_owns_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
