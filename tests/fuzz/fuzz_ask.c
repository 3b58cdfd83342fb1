/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the boot's question (kernel/ask.c): a command line
 * and a bare value. Whatever bt_ask_from_cmdline accepts must parse again
 * from its own KIND:OBJECT to the same question, hold only the bytes the
 * word allows, and fit its bounds; a refusal must say why; a line without
 * the word asks nothing.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/ask.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_accepted(const struct bt_ask *a)
{
	char again[BT_ASK_OBJECT_MAX + 32];
	struct bt_ask b;
	const char *why = NULL;
	size_t off;

	assert(a->kind != BT_ASK_NONE);
	assert(*a->object && strlen(a->object) <= BT_ASK_OBJECT_MAX);
	assert(!strpbrk(a->object, " \t\n\"'=#"));
	snprintf(again, sizeof(again), "%s:%s", bt_ask_kind_name(a->kind), a->object);
	assert(!bt_ask_parse(again, &b, &why, &off));
	assert(b.kind == a->kind && !strcmp(b.object, a->object));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const char *why = NULL;
	struct bt_ask a;
	size_t off = 0;
	int r;

	assert(s);
	memcpy(s, data, size);
	s[size] = 0;
	r = bt_ask_from_cmdline(s, &a, &why);
	assert(r >= -1 && r <= 1);
	if (r == 1)
		check_accepted(&a);
	else if (r < 0)
		assert(why && *why && strlen(a.object) <= BT_ASK_OBJECT_MAX);
	else if (!strstr(s, BT_ASK_PARAM))
		assert(a.kind == BT_ASK_NONE);
	why = NULL;
	if (!bt_ask_parse(s, &a, &why, &off))
		check_accepted(&a);
	else
		assert(why && off <= strlen(s));
	free(s);
	return 0;
}
