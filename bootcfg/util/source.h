/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A parsed config file kept with its text, so that any later stage can
 * point an error at the FILE:LINE:COL of the node it is about.
 */
#ifndef BT_SOURCE_H
#define BT_SOURCE_H

#include "bconf.h"
#include "util/bt_error.h"

struct source {
	const char *path;	/* as given; "-" is standard input */
	char *text;		/* the bytes read, NUL-terminated */
	size_t len;
	struct bconf *bc;
};

/* Read and parse @path ("-": stdin). -1 with @e (FILE:LINE:COL) on error. */
int source_load(const char *path, struct source *s, struct bt_error *e);
/* Parse @len bytes of @text named @name (copied). */
int source_load_text(const char *name, const char *text, size_t len,
		     struct source *s, struct bt_error *e);
void source_free(struct source *s);
/* Fill @e with a message at @node's place in @s; returns -1. */
int source_error(const struct source *s, int node, struct bt_error *e,
		 enum bt_exit code, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Line and column (1-based) of byte offset @pos; 0/0 if unknown. */
void source_locate(const struct source *s, long pos, int *line, int *col);

#endif /* BT_SOURCE_H */
