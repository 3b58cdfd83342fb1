/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util/readfile.c: the one input opener, on the files it must refuse or bound. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unit.h"
#include "util/readfile.h"

static char dir[] = "/tmp/bt-readfile-XXXXXX";

static void path_in(char *buf, size_t cap, const char *name)
{
	snprintf(buf, cap, "%s/%s", dir, name);
}

static void put(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void reads_a_file_whole(void **state)
{
	char p[256];
	struct bt_error e;
	size_t len = 0;
	char *t;

	(void)state;
	path_in(p, sizeof(p), "a");
	put(p, "hello\n", 6);
	bt_error_clear(&e);
	t = readfile(p, 6, 0, "a test", &len, &e);
	assert_non_null(t);
	assert_int_equal(len, 6);
	assert_string_equal(t, "hello\n");
	free(t);
	/* one byte over: refused by its size, or handed over with RF_OVER */
	t = readfile(p, 5, 0, "a test", &len, &e);
	assert_null(t);
	assert_int_equal(e.code, BT_EXIT_INPUT);
	assert_non_null(strstr(e.msg, "is 6 bytes, more than a test may be (5 bytes)"));
	t = readfile(p, 5, RF_OVER, "a test", &len, &e);
	assert_non_null(t);
	assert_int_equal(len, 6);
	free(t);
}

/*
 * A limit past the address space (RF_TRACE_MAX is 16 GiB, more than a
 * 32-bit board's size_t; SIZE_MAX anywhere) reads the file whole: the
 * limit is cut to what memory can hold, it does not wrap to 0 or 1.
 */
static void a_limit_past_the_address_space(void **state)
{
	const unsigned long long limits[] = { RF_TRACE_MAX, SIZE_MAX, (unsigned long long)-1 };
	char p[256];
	struct bt_error e;
	size_t i, len;
	char *t;

	(void)state;
	path_in(p, sizeof(p), "big-limit");
	put(p, "hello\n", 6);
	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		bt_error_clear(&e);
		len = 0;
		t = readfile(p, limits[i], 0, "a test", &len, &e);
		assert_non_null(t);
		assert_int_equal(len, 6);
		assert_string_equal(t, "hello\n");
		free(t);
		/* a file that says 0 bytes grows as its bytes come */
		t = readfile("/proc/self/stat", limits[i], 0, "a test", &len, &e);
		assert_non_null(t);
		assert_true(len > 0 && strlen(t) == len);
		free(t);
	}
}

/* /proc files say 0 bytes: the reader grows as the bytes come. */
static void reads_proc_files(void **state)
{
	struct bt_error e;
	size_t len = 0;
	char *t;

	(void)state;
	bt_error_clear(&e);
	t = readfile("/proc/self/status", 1 << 20, 0, "a test", &len, &e);
	assert_non_null(t);
	assert_true(len > 100);
	assert_non_null(strstr(t, "Name:"));
	assert_int_equal(strlen(t), len);
	free(t);
}

static void refuses_devices_and_directories(void **state)
{
	struct bt_error e;
	struct stat st;
	size_t len;

	(void)state;
	bt_error_clear(&e);
	assert_null(readfile("/dev/zero", 100, 0, "a test", &len, &e));
	assert_non_null(strstr(e.msg, "is a character device, not a test"));
	assert_null(readfile(dir, 100, 0, "a test", &len, &e));
	assert_non_null(strstr(e.msg, "is a directory, not a test"));
	assert_int_equal(readfile_open("/dev/null", 100, RF_STREAM, "a test", &st, &e), -1);
	assert_non_null(strstr(e.msg, "is a character device"));
}

static void fifo_only_where_a_stream_belongs(void **state)
{
	char p[256];
	struct bt_error e;
	struct stat st;
	int fd, w;

	(void)state;
	path_in(p, sizeof(p), "fifo");
	assert_int_equal(mkfifo(p, 0600), 0);
	bt_error_clear(&e);
	/* not a stream: refused at once, even with a writer */
	assert_int_equal(readfile_open(p, 100, 0, "an image", &st, &e), -1);
	assert_non_null(strstr(e.msg, "is a FIFO, not an image: give a regular file"));
	/* a stream with data waiting: taken, and blocking from then on */
	w = open(p, O_RDWR);
	assert_true(w >= 0);
	assert_int_equal(write(w, "x", 1), 1);
	fd = readfile_open(p, 100, RF_STREAM, "a trace", &st, &e);
	assert_true(fd >= 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	close(fd);
	close(w);
	unlink(p);
}

/* RF_REGULAR: a FIFO is refused even with data waiting; "-" is a file name. */
static void regular_only(void **state)
{
	char p[256], dash[300], cwd[256];
	struct bt_error e;
	size_t len;
	char *t;
	int w;

	(void)state;
	path_in(p, sizeof(p), "fifo2");
	assert_int_equal(mkfifo(p, 0600), 0);
	w = open(p, O_RDWR);
	assert_true(w >= 0);
	assert_int_equal(write(w, "x", 1), 1);
	bt_error_clear(&e);
	assert_null(readfile(p, 100, RF_REGULAR, "a kernel .config", &len, &e));
	assert_non_null(strstr(e.msg, "is a FIFO, not a kernel .config"));
	close(w);
	unlink(p);
	/* "-" is the file of that name, not standard input */
	path_in(p, sizeof(p), "");
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(p), 0);
	snprintf(dash, sizeof(dash), "%s/-", p);
	w = open(dash, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(w >= 0);
	assert_int_equal(write(w, "CONFIG_X=y\n", 11), 11);
	close(w);
	t = readfile("-", 100, RF_REGULAR, "a kernel .config", &len, &e);
	assert_non_null(t);
	assert_string_equal(t, "CONFIG_X=y\n");
	free(t);
	unlink(dash);
	assert_int_equal(chdir(cwd), 0);
}

/* Bigger than its limit: the error comes before any read. */
static void a_huge_sparse_file_is_refused_by_size(void **state)
{
	char p[256];
	struct bt_error e;
	size_t len;
	int fd;

	(void)state;
	path_in(p, sizeof(p), "huge");
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)1 << 34), 0);
	close(fd);
	bt_error_clear(&e);
	assert_null(readfile(p, 1 << 20, 0, "a test", &len, &e));
	assert_non_null(strstr(e.msg, "is 17179869184 bytes"));
	unlink(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_a_file_whole),
		cmocka_unit_test(a_limit_past_the_address_space),
		cmocka_unit_test(reads_proc_files),
		cmocka_unit_test(refuses_devices_and_directories),
		cmocka_unit_test(fifo_only_where_a_stream_belongs),
		cmocka_unit_test(regular_only),
		cmocka_unit_test(a_huge_sparse_file_is_refused_by_size),
	};
	char p[256];
	int ret;

	if (!mkdtemp(dir))
		return 1;
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	path_in(p, sizeof(p), "a");
	unlink(p);
	rmdir(dir);
	return ret;
}
