// SPDX-License-Identifier: GPL-2.0-or-later
/* arm.h: running the bootloaders' own tools (grub-editenv, fw_printenv, fw_setenv), paths under the root, errors kept past the files they name. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arm/arm.h"
#include "util/grow.h"

extern char **environ;

char *arm_path(const char *root, const char *path)
{
	size_t rl = root ? strlen(root) : 0, pl = strlen(path);
	char *p;

	while (rl > 0 && root[rl - 1] == '/')
		rl--;
	p = malloc(rl + pl + 1);
	if (!p)
		return NULL;
	if (rl)
		memcpy(p, root, rl);
	memcpy(p + rl, path, pl + 1);
	return p;
}

int arm_have(const char *tool)
{
	const char *path = getenv("PATH"), *s, *end;
	char buf[4096];

	if (!path)
		path = "/usr/bin:/bin";
	for (s = path; *s; s = *end ? end + 1 : end) {
		end = strchr(s, ':');
		if (!end)
			end = s + strlen(s);
		if ((size_t)snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - s),
				     end > s ? s : ".", tool) < sizeof(buf) &&
		    !access(buf, X_OK))
			return 1;
	}
	return 0;
}

int arm_run(char *const argv[], const char *pkg, char **out, size_t *outlen,
	    struct bt_error *e)
{
	posix_spawn_file_actions_t fa;
	int pfd[2] = { -1, -1 }, rc, st;
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t r;
	pid_t pid;

	if (!arm_have(argv[0]))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "%s is not installed (not in PATH): install Debian's %s", argv[0], pkg);
	if (out && pipe2(pfd, O_CLOEXEC))
		return bt_error_errno(e, errno, NULL, "cannot make a pipe for %s", argv[0]);
	if (posix_spawn_file_actions_init(&fa))
		return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
	rc = out ? posix_spawn_file_actions_adddup2(&fa, pfd[1], 1) :
		   posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (!rc)
		rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (out)
		close(pfd[1]);
	if (rc) {
		if (out)
			close(pfd[0]);
		return bt_error_errno(e, rc, NULL, "cannot run %s", argv[0]);
	}
	while (out) {
		if (len >= ARM_RUN_MAX) {	/* a tool gone wrong: not held in memory */
			rc = EFBIG;
			break;
		}
		if (BT_GROW(buf, len + 4097, cap) < 0) {
			rc = ENOMEM;
			break;
		}
		r = read(pfd[0], buf + len, 4096);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? errno : 0;
			break;
		}
		len += (size_t)r;
	}
	if (out)
		close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			free(buf);
			return bt_error_errno(e, errno, NULL, "cannot wait for %s", argv[0]);
		}
	if (rc == EFBIG) {
		free(buf);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "%s wrote more than %d MiB: not read", argv[0], ARM_RUN_MAX >> 20);
	}
	if (rc) {
		free(buf);
		return bt_error_errno(e, rc, NULL, "cannot read the output of %s", argv[0]);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		free(buf);
		return bt_error_set(e, BT_EXIT_ENV, NULL, "%s %s failed (%s %d; its message is above): nothing was changed by it", argv[0], argv[1] ? argv[1] : "", WIFEXITED(st) ? "exit status" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	if (out) {
		if (!buf && !(buf = malloc(1)))
			return bt_error_set(e, BT_EXIT_ENV, NULL, "out of memory");
		buf[len] = 0;
		*out = buf;
		if (outlen)
			*outlen = len;
	}
	return 0;
}
