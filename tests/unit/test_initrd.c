/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * initrd_read_tail / initrd_rewrite against real files in a private
 * directory under /tmp. The point of initrd_rewrite is that the user's
 * file is replaced whole or not at all, so every failure test checks the
 * original byte for byte and that no temp file was left behind.
 */
#include "unit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "initrd/initrd.h"

struct fx {
	char dir[64];
};

/* ---- helpers ---------------------------------------------------------- */

static void join(char *buf, size_t cap, const struct fx *fx, const char *name)
{
	int n = snprintf(buf, cap, "%s/%s", fx->dir, name);

	assert_true(n > 0 && (size_t)n < cap);
}

/* Bytes that are not text, so a copy that mangles anything shows up. */
static unsigned char *pattern(size_t len, unsigned seed)
{
	unsigned char *p = malloc(len ? len : 1);

	assert_non_null(p);
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)((i * 31u + seed) ^ (i >> 8));
	return p;
}

static void write_file(const char *path, const void *data, size_t len,
		       mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	/* fchmod, not the open mode: the umask must not decide the test. */
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

static unsigned char *read_file(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void assert_file_is(const char *path, const void *want, size_t len)
{
	size_t got_len;
	unsigned char *got = read_file(path, &got_len);

	assert_int_equal(got_len, len);
	assert_int_equal(memcmp(got, want, len), 0);
	free(got);
}

static int count_temps(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strstr(de->d_name, ".boottrace-"))
			n++;
	closedir(d);
	return n;
}

static void assert_msg_has(const struct bt_error *err, const char *needle)
{
	if (!strstr(err->msg, needle))
		fail_msg("error \"%s\" lacks \"%s\"", err->msg, needle);
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	strcpy(fx->dir, "/tmp/bt-initrd-XXXXXX");
	if (!mkdtemp(fx->dir)) {
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int rc = nftw(fx->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);

	free(fx);
	return rc;
}

/* ---- initrd_rewrite: success ------------------------------------------ */

static void test_round_trip(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char path[128];
	size_t len = 200000;
	unsigned char *orig = pattern(len, 7);
	static const char footer[] = "key = value\n#BOOTCONFIG\n";
	unsigned char *both = malloc(len + sizeof(footer));

	assert_non_null(both);
	join(path, sizeof(path), fx, "initrd.img");
	write_file(path, orig, len, 0644);

	bt_error_clear(&err);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, len, footer, sizeof(footer), &err), 0);
	memcpy(both, orig, len);
	memcpy(both + len, footer, sizeof(footer));
	assert_file_is(path, both, len + sizeof(footer));

	assert_int_equal(initrd_rewrite(path, UINT64_MAX, len, NULL, 0, &err), 0);
	assert_file_is(path, orig, len);
	assert_int_equal(count_temps(fx->dir), 0);
	free(both);
	free(orig);
}

static void test_append_nothing_keeps_bytes(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char path[128];
	unsigned char *orig = pattern(4096, 3);

	join(path, sizeof(path), fx, "initrd.img");
	write_file(path, orig, 4096, 0644);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 4096, NULL, 0, &err), 0);
	assert_file_is(path, orig, 4096);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 0, NULL, 0, &err), 0);
	assert_file_is(path, "", 0);
	assert_int_equal(count_temps(fx->dir), 0);
	free(orig);
}

static void check_mode_kept(struct fx *fx, mode_t mode)
{
	struct bt_error err;
	struct stat st;
	char path[128];

	join(path, sizeof(path), fx, "initrd.img");
	write_file(path, "abcdef", 6, mode);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 3, "XYZ", 3, &err), 0);
	assert_file_is(path, "abcXYZ", 6);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, mode);
	assert_int_equal(unlink(path), 0);
}

static void test_mode_preserved(void **state)
{
	check_mode_kept(*state, 0640);
	check_mode_kept(*state, 0604);
	check_mode_kept(*state, 0400);	/* read-only file: rename still works */
	check_mode_kept(*state, 0755);
}

static void test_owner_preserved(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	struct stat st;
	char path[128];

	if (geteuid() != 0)
		skip();	/* giving a file away needs root */
	join(path, sizeof(path), fx, "initrd.img");
	write_file(path, "abcdef", 6, 02750);
	assert_int_equal(chown(path, 4321, 8765), 0);
	assert_int_equal(chmod(path, 02750), 0);	/* chown cleared set-gid */
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 6, "!", 1, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, 4321);
	assert_int_equal(st.st_gid, 8765);
	assert_int_equal(st.st_mode & 07777, 02750);
}

static void test_symlink_target_rewritten(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	struct stat st;
	char boot[128], real[128], link[128], target[128];
	ssize_t n;

	join(boot, sizeof(boot), fx, "boot");
	join(real, sizeof(real), fx, "boot/initrd.img-6.1.0");
	join(link, sizeof(link), fx, "initrd.img");
	assert_int_equal(mkdir(boot, 0755), 0);
	write_file(real, "0123456789", 10, 0644);
	assert_int_equal(symlink("boot/initrd.img-6.1.0", link), 0);

	assert_int_equal(initrd_rewrite(link, UINT64_MAX, 4, "abc", 3, &err), 0);

	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "boot/initrd.img-6.1.0");
	assert_file_is(real, "0123abc", 7);
	assert_int_equal(count_temps(fx->dir), 0);
	assert_int_equal(count_temps(boot), 0);
}

static void test_long_name(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char name[251], path[400];

	/* ".NAME.boottrace-XXXXXX" would pass NAME_MAX if not shortened. */
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	join(path, sizeof(path), fx, name);
	write_file(path, "abc", 3, 0644);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 3, "def", 3, &err), 0);
	assert_file_is(path, "abcdef", 6);
	assert_int_equal(count_temps(fx->dir), 0);
}

/* ---- initrd_rewrite: refusals and failures ------------------------------ */

static void test_directory_rejected(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;

	bt_error_clear(&err);
	assert_int_equal(initrd_rewrite(fx->dir, UINT64_MAX, 0, "x", 1, &err), -1);
	assert_int_equal(err.code, BT_EXIT_INPUT);
	assert_string_equal(err.file, fx->dir);
	assert_msg_has(&err, "directory");
	assert_int_equal(count_temps(fx->dir), 0);
}

static void test_fifo_rejected(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char path[128];

	join(path, sizeof(path), fx, "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	/* Must not block waiting for a writer. */
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 0, "x", 1, &err), -1);
	assert_int_equal(err.code, BT_EXIT_INPUT);
	assert_msg_has(&err, "FIFO");
	assert_int_equal(count_temps(fx->dir), 0);
}

static void test_missing_file(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char path[128];

	join(path, sizeof(path), fx, "no-such-initrd");
	bt_error_clear(&err);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 0, "x", 1, &err), -1);
	assert_int_equal(err.code, BT_EXIT_ENV);
	assert_string_equal(err.file, path);
	assert_msg_has(&err, "No such file");
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(count_temps(fx->dir), 0);
}

static void test_keep_beyond_size_rejected(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char path[128];

	join(path, sizeof(path), fx, "initrd.img");
	write_file(path, "abcdef", 6, 0644);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 7, "x", 1, &err), -1);
	assert_int_equal(err.code, BT_EXIT_INPUT);
	assert_file_is(path, "abcdef", 6);
	assert_int_equal(count_temps(fx->dir), 0);
}

static void test_size_changed_since_read(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char path[128];

	join(path, sizeof(path), fx, "initrd.img");
	write_file(path, "abcdef", 6, 0644);
	/* the caller saw 4 bytes; someone has written since */
	assert_int_equal(initrd_rewrite(path, 4, 4, "x", 1, &err), -1);
	assert_int_equal(err.code, BT_EXIT_ENV);
	assert_msg_has(&err, "changed size");
	assert_file_is(path, "abcdef", 6);
	assert_int_equal(initrd_rewrite(path, 6, 6, "x", 1, &err), 0);
	assert_file_is(path, "abcdefx", 7);
	assert_int_equal(count_temps(fx->dir), 0);
}

static void test_hard_link_rejected(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	char path[128], other[128];

	join(path, sizeof(path), fx, "initrd.img");
	join(other, sizeof(other), fx, "initrd.img.link");
	write_file(path, "abcdef", 6, 0644);
	assert_int_equal(link(path, other), 0);
	assert_int_equal(initrd_rewrite(path, UINT64_MAX, 6, "x", 1, &err), -1);
	assert_int_equal(err.code, BT_EXIT_INPUT);
	assert_msg_has(&err, "hard link");
	assert_file_is(path, "abcdef", 6);
	assert_int_equal(count_temps(fx->dir), 0);
}

/*
 * A write that fails halfway, without root or a full disk: a file size
 * limit makes the copy into the temp file fail with EFBIG.
 */
static void test_failure_midway_leaves_original(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	struct rlimit old, lim;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_sa;
	char path[128], *printed = NULL, want[160];
	size_t len = 300000, printed_len;
	unsigned char *orig = pattern(len, 11);
	FILE *f;

	join(path, sizeof(path), fx, "initrd.img");
	write_file(path, orig, len, 0644);

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 65536;
	assert_int_equal(sigaction(SIGXFSZ, &ign, &old_sa), 0);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	bt_error_clear(&err);
	int rc = initrd_rewrite(path, UINT64_MAX, len, "tail", 4, &err);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(sigaction(SIGXFSZ, &old_sa, NULL), 0);

	assert_int_equal(rc, -1);
	assert_int_equal(err.code, BT_EXIT_ENV);
	assert_msg_has(&err, "File too large");
	assert_msg_has(&err, "unchanged");
	assert_file_is(path, orig, len);
	assert_int_equal(count_temps(fx->dir), 0);

	f = open_memstream(&printed, &printed_len);
	assert_non_null(f);
	bt_error_print(&err, f);
	fclose(f);
	snprintf(want, sizeof(want), "%s: error: not rewritten", path);
	assert_int_equal(strncmp(printed, want, strlen(want)), 0);
	assert_int_equal(printed[printed_len - 1], '\n');
	assert_null(memchr(printed, '\n', printed_len - 1));
	free(printed);
	free(orig);
}

/* ---- initrd_read_tail ------------------------------------------------- */

static void test_read_tail_small(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	struct initrd_tail t;
	char path[128];

	join(path, sizeof(path), fx, "small");
	write_file(path, "0123456789", 10, 0644);
	assert_int_equal(initrd_read_tail(path, 4096, &t, &err), 0);
	assert_int_equal(t.file_size, 10);
	assert_int_equal(t.len, 10);
	assert_memory_equal(t.buf, "0123456789", 10);
	initrd_tail_free(&t);
	initrd_tail_free(&t);	/* safe twice: error paths may do so */

	assert_int_equal(initrd_read_tail(path, 3, &t, &err), 0);
	assert_int_equal(t.file_size, 10);
	assert_int_equal(t.len, 3);
	assert_memory_equal(t.buf, "789", 3);
	initrd_tail_free(&t);
}

static void test_read_tail_large(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	struct initrd_tail t;
	char path[128];
	size_t len = 3u << 20;
	unsigned char *data = pattern(len, 5);

	join(path, sizeof(path), fx, "large");
	write_file(path, data, len, 0644);
	assert_int_equal(initrd_read_tail(path, 32768, &t, &err), 0);
	assert_int_equal(t.file_size, len);
	assert_int_equal(t.len, 32768);
	assert_memory_equal(t.buf, data + len - 32768, 32768);
	initrd_tail_free(&t);
	free(data);
}

static void test_read_tail_empty(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	struct initrd_tail t;
	char path[128];

	join(path, sizeof(path), fx, "empty");
	write_file(path, "", 0, 0644);
	assert_int_equal(initrd_read_tail(path, 4096, &t, &err), 0);
	assert_int_equal(t.file_size, 0);
	assert_int_equal(t.len, 0);
	assert_non_null(t.buf);
	initrd_tail_free(&t);
}

static void test_read_tail_rejects(void **state)
{
	struct fx *fx = *state;
	struct bt_error err;
	struct initrd_tail t;
	char path[128];

	assert_int_equal(initrd_read_tail(fx->dir, 4096, &t, &err), -1);
	assert_int_equal(err.code, BT_EXIT_INPUT);
	assert_msg_has(&err, "directory");
	assert_null(t.buf);

	join(path, sizeof(path), fx, "missing");
	assert_int_equal(initrd_read_tail(path, 4096, &t, &err), -1);
	assert_int_equal(err.code, BT_EXIT_ENV);
	assert_msg_has(&err, "No such file");
	assert_null(t.buf);

	join(path, sizeof(path), fx, "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(initrd_read_tail(path, 4096, &t, &err), -1);
	assert_int_equal(err.code, BT_EXIT_INPUT);
	assert_null(t.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_append_nothing_keeps_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_preserved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner_preserved, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_target_rewritten, setup, teardown),
		cmocka_unit_test_setup_teardown(test_long_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_directory_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_beyond_size_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_size_changed_since_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hard_link_rejected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failure_midway_leaves_original, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_tail_small, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_tail_large, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_tail_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_tail_rejects, setup, teardown),
	};

	return cmocka_run_group_tests_name("initrd", tests, NULL, NULL);
}
