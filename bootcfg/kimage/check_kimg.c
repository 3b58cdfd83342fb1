/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel image (--kernel, kimg.h) into the check table: an ELF vmlinux
 * with a symbol table through check_elf.c (it also tells traceability);
 * any other image, or a vmlinux stripped of its symbols, through the
 * kallsyms tables compiled into it, read as System.map text
 * (check_sysmap.c): no traceability, as with a System.map.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kimage.h"
#include "kimage/kimg.h"

int check_load_kimage(struct check_tab *t, const char *path, char *how,
		      size_t howcap, struct bt_error *e)
{
	struct kimg k;
	char found[400];
	size_t len, nsyms, before = t->n;
	char *text;

	if (kimg_load(path, &k, e))
		return -1;
	if (k.elf_class) {
		struct bt_error ign = { 0 };

		if (!check_load_elf_mem(t, (char *)k.data, k.len, path, -1, &ign) &&
		    t->n > before + 1) {
			if (check_tab_keep(t, (char *)k.data)) {
				kimg_free(&k);
				return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
			}
			snprintf(how, howcap, "%s; its ELF symbol table", k.how);
			return 0;
		}
		bt_error_clear(&ign);
	}
	if (kimg_kallsyms(&k, path, &text, &len, &nsyms, found, sizeof(found), e)) {
		kimg_free(&k);
		return -1;
	}
	snprintf(how, howcap, "%s; %s", k.how, found);
	kimg_free(&k);
	if (check_tab_keep(t, text)) {
		free(text);
		return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
	}
	return check_parse_sysmap(t, text, len, path, e);
}
