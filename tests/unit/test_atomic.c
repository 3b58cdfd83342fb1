// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/atomic.c, the one writer of the user's files: a symlink keeps
 * pointing at its target, mode and owner survive, a new file gets the
 * umask's mode, and the temp file is gone after a signal.
 */
#include "unit.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/atomic.h"
#include "util/outfile.h"

static char dir[] = "/tmp/bt-atomic-XXXXXX";

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || strstr(de->d_name, ".boottrace-") != NULL;
	closedir(d);
	return n;
}

static void put(const char *path, const char *text)
{
	struct outfile o;
	struct bt_error e;

	bt_error_clear(&e);
	assert_int_equal(outfile_open(&o, path, &e), 0);
	fputs(text, o.f);
	assert_int_equal(outfile_commit(&o, &e), 0);
}

static void slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static void test_symlink_followed_mode_kept(void **state)
{
	char real[128], link[128], buf[64];
	struct stat st;

	(void)state;
	snprintf(real, sizeof(real), "%s/real.txt", dir);
	snprintf(link, sizeof(link), "%s/link.txt", dir);
	put(real, "old\n");
	assert_int_equal(chmod(real, 0640), 0);
	assert_int_equal(symlink("real.txt", link), 0);
	put(link, "new\n");
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(real, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	slurp(real, buf, sizeof(buf));
	assert_string_equal(buf, "new\n");
	assert_int_equal(entries(), 2);
	unlink(link);
	unlink(real);
}

static void test_new_file_umask_mode(void **state)
{
	char path[128];
	struct stat st;
	mode_t old = umask(027);

	(void)state;
	snprintf(path, sizeof(path), "%s/new.txt", dir);
	put(path, "x\n");
	umask(old);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	unlink(path);
}

static void test_abort_leaves_old(void **state)
{
	char path[128], buf[64];
	struct outfile o;
	struct bt_error e;

	(void)state;
	snprintf(path, sizeof(path), "%s/keep.txt", dir);
	put(path, "keep\n");
	assert_int_equal(outfile_open(&o, path, &e), 0);
	fputs("half", o.f);
	outfile_abort(&o);
	slurp(path, buf, sizeof(buf));
	assert_string_equal(buf, "keep\n");
	assert_int_equal(entries(), 1);
	unlink(path);
}

/* A process killed while writing leaves no temp file behind. */
static void test_signal_removes_temp(void **state)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	char path[128];
	size_t i;

	(void)state;
	snprintf(path, sizeof(path), "%s/sig.txt", dir);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int status;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			struct atomic a;
			struct bt_error e;

			if (atomic_begin(&a, path, &e))
				_exit(10);
			if (access(a.tmp, F_OK))
				_exit(11);
			raise(sigs[i]);
			_exit(12);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status));
		assert_int_equal(WTERMSIG(status), sigs[i]);
		assert_int_equal(entries(), 0);
	}
}

static void test_refuses_directory_and_links(void **state)
{
	char path[128], other[128];
	struct atomic a;
	struct bt_error e;

	(void)state;
	snprintf(path, sizeof(path), "%s/sub", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(atomic_begin(&a, path, &e), -1);
	assert_non_null(strstr(e.msg, "is a directory"));
	rmdir(path);
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	snprintf(other, sizeof(other), "%s/b.txt", dir);
	put(path, "a\n");
	assert_int_equal(link(path, other), 0);
	assert_int_equal(atomic_begin(&a, path, &e), -1);
	assert_non_null(strstr(e.msg, "hard links"));
	assert_int_equal(entries(), 2);
	unlink(path);
	unlink(other);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symlink_followed_mode_kept),
		cmocka_unit_test(test_new_file_umask_mode),
		cmocka_unit_test(test_abort_leaves_old),
		cmocka_unit_test(test_signal_removes_temp),
		cmocka_unit_test(test_refuses_directory_and_links),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
