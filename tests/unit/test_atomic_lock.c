// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/atomic.c's atomic_lock: the lock around bootconfig -a/-d's read and
 * rename. Held by one process, another waits its bounded time and fails
 * with a message naming the file and the directory; released, it is taken.
 */
#include "unit.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/atomic.h"

static char dir[] = "/tmp/bt-lock-XXXXXX";
static char file[64];

/* A child holding the lock until it is killed; it says when it has it. */
static pid_t hold(void)
{
	int pfd[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct bt_error e;
		int fd = atomic_lock(file, 0, &e);

		if (fd < 0 || write(pfd[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	assert_int_equal(read(pfd[0], &c, 1), 1);
	close(pfd[0]);
	return pid;
}

static void release(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

static void waits_then_fails_with_a_clear_error(void **state)
{
	struct bt_error e;
	pid_t pid = hold();

	(void)state;
	bt_error_clear(&e);
	assert_int_equal(atomic_lock(file, 1, &e), -1);
	assert_int_equal(e.code, BT_EXIT_ENV);
	assert_string_equal(e.file, file);
	assert_non_null(strstr(e.msg, "another boottrace or bootconfig has been rewriting a file in"));
	assert_non_null(strstr(e.msg, dir));
	assert_non_null(strstr(e.msg, "for 1 s; retry when it is done"));
	release(pid);
}

static void taken_once_released_and_again_after_unlock(void **state)
{
	struct bt_error e;
	pid_t pid = hold();
	int fd, fd2;

	(void)state;
	release(pid);
	bt_error_clear(&e);
	fd = atomic_lock(file, 0, &e);
	assert_true(fd >= 0);
	atomic_unlock(fd);
	fd2 = atomic_lock(file, 0, &e);
	assert_true(fd2 >= 0);
	atomic_unlock(fd2);
}

/* A lock on the file of a symlink is the lock of its target's directory. */
static void a_symlink_locks_its_target(void **state)
{
	char link[96];
	struct bt_error e;
	pid_t pid = hold();

	(void)state;
	snprintf(link, sizeof(link), "/tmp/bt-lock-link-%d", (int)getpid());
	unlink(link);
	assert_int_equal(symlink(file, link), 0);
	bt_error_clear(&e);
	assert_int_equal(atomic_lock(link, 0, &e), -1);
	assert_non_null(strstr(e.msg, dir));
	release(pid);
	unlink(link);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(waits_then_fails_with_a_clear_error),
		cmocka_unit_test(taken_once_released_and_again_after_unlock),
		cmocka_unit_test(a_symlink_locks_its_target),
	};
	int ret, fd;

	if (!mkdtemp(dir))
		return 1;
	snprintf(file, sizeof(file), "%s/initrd.img", dir);
	fd = open(file, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return 1;
	close(fd);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(file);
	rmdir(dir);
	return ret;
}
