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
#include "kimage/kcallers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms t = { 0 };
	struct bt_error e;
	char *buf = malloc(size ? size : 1);
	char dir[] = "/tmp/bt-fuzz-elf.XXXXXX", path[64];
	FILE *f;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	ksyms_load_elf_mem(&t, buf, size, "fuzz", ksyms_module(&t, "m"), &e);
	ksyms_load_elf_mem(&t, buf, size, "fuzz", -1, &e);
	free(buf);
	ksyms_free(&t);

	/* The callers walk reads modules from files. */
	if (!mkdtemp(dir))
		return 0;
	snprintf(path, sizeof(path), "%s/m.ko", dir);
	f = fopen(path, "wb");
	if (f) {
		struct kcallers_graph g = { 0 };

		fwrite(data, 1, size, f);
		fclose(f);
		memset(&t, 0, sizeof(t));
		if (!ksyms_load_modules(&t, dir, &e)) {
			g.t = &t;
			kcallers_modules(&g, dir, &e);
			kcallers_graph_free(&g);
		}
		ksyms_free(&t);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}
