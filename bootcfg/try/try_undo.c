// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The undo list of boottrace try: each change to the kernel's tracefs is
 * recorded before the next one is made, and undone last first (our
 * instances before the kprobe and synthetic events they use: the kernel
 * refuses to delete an event that is enabled somewhere, EBUSY).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "try/try.h"
#include "util/grow.h"

int try_write(const char *path, const char *text, int flags)
{
	size_t len = text ? strlen(text) : 0;
	char *buf = malloc(len + 2);
	ssize_t n;
	int fd, err = 0;

	if (!buf)
		return ENOMEM;
	if (text) {
		memcpy(buf, text, len);
		buf[len++] = '\n';
	}
	buf[len] = 0;
	do
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | flags);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		err = errno;
		free(buf);
		return err;
	}
	do
		n = len ? write(fd, buf, len) : 0;
	while (n < 0 && errno == EINTR);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;
	if (close(fd) && !err && errno != EINTR)
		err = errno;
	free(buf);
	return err;
}

int try_undo_push(struct try_undo *u, enum try_undo_kind kind,
		  const char *path, const char *text, size_t n)
{
	struct try_undo_item *it;

	if (BT_GROW(u->it, u->n + 1, u->cap) < 0)
		return -1;
	it = &u->it[u->n];
	it->kind = kind;
	it->n = n;
	it->path = strdup(path);
	it->text = strdup(text ? text : "");
	if (!it->path || !it->text) {
		free(it->path);
		free(it->text);
		return -1;
	}
	u->n++;
	return 0;
}

int try_undo_saved(const struct try_undo *u, const char *path)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (u->it[i].kind == TRY_U_RESTORE && !strcmp(u->it[i].path, path))
			return 1;
	return 0;
}

struct try_undo_item *try_undo_delete_of(struct try_undo *u, const char *text)
{
	size_t i;

	for (i = 0; i < u->n; i++)
		if (u->it[i].kind == TRY_U_DELETE && !strcmp(u->it[i].text, text))
			return &u->it[i];
	return NULL;
}

/*
 * A saved list written back: the open with O_TRUNC clears the file (an
 * empty list is just that), the first line is written through it, the
 * others appended one write a line (the kernel's parsers take a line each).
 */
static int restore(const struct try_undo_item *it)
{
	const char *s = it->text, *nl;
	int err = 0, flags = O_TRUNC;

	if (!*s)
		return try_write(it->path, NULL, O_TRUNC);
	while (!err && *s) {
		char *line;

		nl = strchr(s, '\n');
		line = strndup(s, nl ? (size_t)(nl - s) : strlen(s));
		if (!line)
			return ENOMEM;
		if (*line) {
			err = try_write(it->path, line, flags);
			flags = O_APPEND;
		}
		free(line);
		s = nl ? nl + 1 : s + strlen(s);
	}
	return err;
}

static int undo_one(const struct try_undo_item *it)
{
	size_t i;
	int err = 0;

	switch (it->kind) {
	case TRY_U_RMDIR: {
		int r;

		do
			r = rmdir(it->path);
		while (r && errno == EINTR);
		return r && errno != ENOENT ? errno : 0;
	}
	case TRY_U_DELETE:
		/* a kprobe event of several probes is deleted one probe a write */
		for (i = 0; i < it->n; i++) {
			err = try_write(it->path, it->text, O_APPEND);
			if (err)
				break;
		}
		return i > 0 && err == ENOENT ? 0 : err;
	case TRY_U_RESTORE:
		return restore(it);
	}
	return EINVAL;
}

int try_undo_run(struct try_undo *u)
{
	int bad = 0;

	while (u->n) {
		struct try_undo_item *it = &u->it[--u->n];
		int err = undo_one(it);

		if (err) {
			bad++;
			if (it->kind == TRY_U_RMDIR)
				bt_say(NULL, BT_SAY_ERROR, "%s: could not remove our instance: %s; remove it with rmdir when nothing uses it", it->path, strerror(err));
			else if (it->kind == TRY_U_DELETE)
				bt_say(NULL, BT_SAY_ERROR, "%s: could not delete what we added ('%s'): %s; write that line to it by hand", it->path, it->text, strerror(err));
			else
				bt_say(NULL, BT_SAY_ERROR, "%s: could not restore its saved content: %s; its old content was: %s", it->path, strerror(err), *it->text ? it->text : "(empty)");
		}
		free(it->path);
		free(it->text);
	}
	return bad;
}

void try_undo_free(struct try_undo *u)
{
	while (u->n) {
		u->n--;
		free(u->it[u->n].path);
		free(u->it[u->n].text);
	}
	free(u->it);
	memset(u, 0, sizeof(*u));
}
