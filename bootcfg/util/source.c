/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Config files with their text, for errors that point into them. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/readfile.h"
#include "util/source.h"

static int source_parse(struct source *s, struct bt_error *e)
{
	struct bconf_error pe;

	if (s->len == 0)
		return bt_error_set(e, BT_EXIT_INPUT, s->path,
				    "the config is empty: write at least one key");
	if (s->len >= BCONF_DATA_MAX)
		return bt_error_set(e, BT_EXIT_INPUT, s->path,
				    "the config is %zu bytes or more; the kernel takes at most %d: split it or remove comments",
				    s->len, BCONF_DATA_MAX - 1);
	s->bc = bconf_parse(s->text, s->len + 1, NULL, &pe);
	if (s->bc)
		return 0;
	bt_error_set(e, BT_EXIT_INPUT, s->path, "%s", pe.msg);
	e->line = pe.line;
	e->col = pe.col;
	return -1;
}

int source_load(const char *path, struct source *s, struct bt_error *e)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	/* Up to one byte over the kernel's limit, for a "too big" message. */
	s->text = readfile(path, BCONF_DATA_MAX, 1, "a config", &s->len, e);
	if (!s->text)
		return -1;
	return source_parse(s, e);
}

int source_load_text(const char *name, const char *text, size_t len,
		     struct source *s, struct bt_error *e)
{
	memset(s, 0, sizeof(*s));
	s->path = name;
	s->text = malloc(len + 1);
	if (!s->text)
		return bt_error_set(e, BT_EXIT_ENV, name, "out of memory");
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	s->len = len;
	return source_parse(s, e);
}

void source_free(struct source *s)
{
	bconf_free(s->bc);
	free(s->text);
	memset(s, 0, sizeof(*s));
}

void source_locate(const struct source *s, long pos, int *line, int *col)
{
	struct bconf_error pe;

	pe.pos = pos;
	bconf_error_locate(&pe, s->text, s->len);
	*line = pe.line;
	*col = pe.col;
}

int source_error(const struct source *s, int node, struct bt_error *e,
		 enum bt_exit code, const char *fmt, ...)
{
	char msg[sizeof(e->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bt_error_set(e, code, s->path, "%s", msg);
	if (node != BCONF_NONE && s->bc)
		source_locate(s, bconf_pos(s->bc, node), &e->line, &e->col);
	return -1;
}
