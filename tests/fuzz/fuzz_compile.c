/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the compiler below its I/O: config text -> plan ->
 * command-line route and bootconfig route.
 *
 * Input: one mode byte, then the config text. Mode bits 0-2 pick the
 * kernel (none, 4.9, 5.10, 6.1, 6.6, ...), bit 3 --allow-drop, bit 4 a
 * .config without CONFIG_BOOTTIME_TRACING. Checked: a failure always has
 * a message; every command-line word survives the kernel's tokenizer as
 * one word; a bootconfig text parses again with the kernel's grammar.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"
#include "kernel/kcaps.h"
#include "plan/plan.h"
#include "compile/route.h"
#include "util/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const versions[] = { NULL, "4.9", "5.4", "5.10", "5.15",
					"6.1", "6.3", "6.6" };

static void check_words(const struct words *w)
{
	struct bconf_arg a;
	size_t i;

	for (i = 0; i < w->n; i++) {
		char *copy = strdup(w->v[i]), *next;

		if (!copy)
			abort();
		next = bconf_cmdline_next(copy, &a);
		/* One word in, one word out: nothing was injected. */
		if (!next || bconf_cmdline_next(next, &a))
			abort();
		free(copy);
	}
}

static void run_route(const struct plan *p, const struct kcaps *k,
		      const struct board *b, int drop, int bootconfig)
{
	struct route_opts o = { .allow_drop = drop };
	struct bt_error e;
	struct route r;
	int ret;

	bt_error_clear(&e);
	route_init(&r, p, k, b, &o);
	ret = bootconfig ? route_bootconfig(&r, &e) : route_cmdline(&r, &e);
	if (ret && !e.msg[0])
		abort();
	if (!ret) {
		check_words(&r.words);
		if (r.bconf) {
			struct bconf_error pe;
			struct bconf *bc = bconf_parse(r.bconf, r.bconf_len + 1, NULL, &pe);

			if (!bc)
				abort();
			bconf_free(bc);
		}
	}
	route_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct source src;
	struct bt_error e;
	struct board b;
	struct kcaps k;
	struct plan p;
	uint8_t mode;

	if (size < 1)
		return 0;
	mode = data[0];
	memset(&k, 0, sizeof(k));
	if (versions[mode & 7])
		kcaps_set_version(&k, versions[mode & 7], &e);
	if (mode & 16) {
		k.opt[KO_BOOT_CONFIG] = KO_YES;
		k.opt[KO_BOOTTIME_TRACING] = KO_NO;
		k.config_path = "fuzz.config";
	}
	memset(&b, 0, sizeof(b));
	strcpy(b.name, "fuzz");
	b.cmdline_max = 2048;
	b.ftrace_stack_zero = (mode >> 5) & 1;
	bt_error_clear(&e);
	if (source_load_text("fuzz.bconf", (const char *)data + 1, size - 1, &src, &e)) {
		if (!e.msg[0])
			abort();
		source_free(&src);
		return 0;
	}
	if (plan_build(&p, &src, &e) == 0) {
		run_route(&p, &k, &b, (mode >> 3) & 1, 0);
		run_route(&p, &k, &b, (mode >> 3) & 1, 1);
		plan_free(&p);
	} else if (!e.msg[0]) {
		abort();
	}
	source_free(&src);
	return 0;
}
