// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: ELF section walking of boottrace check on arbitrary bytes,
 * as a module (symbols, __mcount_loc relocations) and as a vmlinux
 * (__start/__stop_mcount_loc), then the call edges from relocations and
 * code. Malformed files must give an error, never a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "kimage/check_callers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check_tab t = { 0 };
	struct bt_error e;
	char *buf = malloc(size ? size : 1);
	char dir[] = "/tmp/bt-fuzz-elf.XXXXXX", path[64];
	FILE *f;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	check_load_elf_mem(&t, buf, size, "fuzz", check_tab_module(&t, "m"), &e);
	check_load_elf_mem(&t, buf, size, "fuzz", -1, &e);
	free(buf);
	check_tab_free(&t);

	/* The callers walk reads modules from files. */
	if (!mkdtemp(dir))
		return 0;
	snprintf(path, sizeof(path), "%s/m.ko", dir);
	f = fopen(path, "wb");
	if (f) {
		struct check_graph g = { 0 };

		fwrite(data, 1, size, f);
		fclose(f);
		memset(&t, 0, sizeof(t));
		if (!check_load_modules(&t, dir, &e)) {
			g.t = &t;
			check_callers_modules(&g, dir, &e);
			check_graph_free(&g);
		}
		check_tab_free(&t);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}
