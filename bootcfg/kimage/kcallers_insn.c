/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call edges from vmlinux (kcallers_int.h): a final image has no
 * relocations to read, so each function's code is disassembled with
 * capstone and every direct call or tail jump whose target starts a
 * function is an edge. x86_64 and MIPS (32/64, either endianness).
 */
#include <capstone/capstone.h>
#include <fcntl.h>
#include <ctype.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kimage/kcallers_int.h"
#include "util/readfile.h"

struct insn_fn {
	uint64_t addr, size;
	const char *name;
};

static int insn_cmp(const void *a, const void *b)
{
	const struct insn_fn *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const char *insn_target(const struct insn_fn *fn, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fn[mid].addr < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && fn[lo].addr == a ? fn[lo].name : NULL;
}

int kcallers_insn_open(const GElf_Ehdr *eh, csh *h, int *x86)
{
	cs_arch arch;
	cs_mode mode;

	if (eh->e_machine == EM_X86_64) {
		arch = CS_ARCH_X86;
		mode = CS_MODE_64;
	} else if (eh->e_machine == EM_MIPS) {
		arch = CS_ARCH_MIPS;
		mode = (eh->e_ident[EI_CLASS] == ELFCLASS64 ? CS_MODE_MIPS64 :
			CS_MODE_MIPS32) | (eh->e_ident[EI_DATA] == ELFDATA2MSB ?
					   CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN);
	} else {
		return -1;
	}
	*x86 = arch == CS_ARCH_X86;
	return cs_open(arch, mode, h) == CS_ERR_OK ? 0 : -2;
}

/* Direct calls and jumps; capstone prints their target as a number. */
int kcallers_insn_is_call(int x86, const char *m)
{
	if (x86)
		return !strcmp(m, "call") || !strcmp(m, "jmp");
	return !strcmp(m, "jal") || !strcmp(m, "j") || !strcmp(m, "bal");
}

/* The functions of vmlinux from the table, sorted by address. */
static struct insn_fn *insn_functions(const struct ksyms *t, size_t *n)
{
	struct insn_fn *fn = malloc((t->n ? t->n : 1) * sizeof(*fn));
	size_t i;

	*n = 0;
	if (!fn)
		return NULL;
	for (i = 1; i < t->n; i++) {
		const struct ksym *s = &t->sym[i];

		if (s->mod >= 0 || (s->flags & (KSYM_TEXT | KSYM_LABEL)) != KSYM_TEXT ||
		    !s->size)
			continue;
		fn[*n].addr = s->addr;
		fn[*n].size = s->size;
		fn[(*n)++].name = s->name;
	}
	qsort(fn, *n, sizeof(*fn), insn_cmp);
	return fn;
}

/* @done: functions disassembled so far, over all sections (the progress line) */
static int insn_section(struct kcallers_graph *g, csh h, int x86,
			const GElf_Shdr *sh, const Elf_Data *d,
			const struct insn_fn *fn, size_t nfn, size_t *done)
{
	cs_insn *ins = cs_malloc(h);
	size_t i;

	if (!ins)
		return -1;
	for (i = 0; i < nfn; i++) {
		const uint8_t *code;
		uint64_t addr = fn[i].addr;
		size_t left;

		if (addr < sh->sh_addr || addr - sh->sh_addr > d->d_size ||
		    fn[i].size > d->d_size - (addr - sh->sh_addr))
			continue;
		if (!(++*done & 255))
			bt_progress_update(g->t->progress, *done, fn[i].name);
		code = (const uint8_t *)d->d_buf + (addr - sh->sh_addr);
		left = fn[i].size;
		while (cs_disasm_iter(h, &code, &left, &addr, ins)) {
			const char *to;

			if (!kcallers_insn_is_call(x86, ins->mnemonic) ||
			    !isdigit((unsigned char)ins->op_str[0]))
				continue;
			to = insn_target(fn, nfn, strtoull(ins->op_str, NULL, 0));
			if (to && to != fn[i].name &&
			    kcallers_graph_add(g, fn[i].name, to, -1)) {
				cs_free(ins, 1);
				return -1;
			}
		}
	}
	cs_free(ins, 1);
	return 0;
}

int kcallers_vmlinux(struct kcallers_graph *g, const char *vmlinux,
		     struct bt_error *e)
{
	struct insn_fn *fn;
	size_t nfn, shnum, i, done = 0;
	Elf_Scn *scn;
	GElf_Shdr sh;
	GElf_Ehdr eh;
	Elf *elf;
	csh h;
	struct stat st;
	int fd, ret = 0, x86, r;

	elf_version(EV_CURRENT);
	fd = readfile_open(vmlinux, RF_IMAGE_MAX, 0, "a vmlinux", &st, e);
	if (fd < 0)
		return -1;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || !gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum)) {
		ret = bt_error_set(e, BT_EXIT_INPUT, vmlinux, "not an ELF file");
		goto out;
	}
	r = kcallers_insn_open(&eh, &h, &x86);
	if (r) {
		ret = r == -1 ? bt_error_set(e, BT_EXIT_INPUT, vmlinux, "callers in vmlinux: ELF machine %u is not supported (x86_64 and MIPS are)",
					     eh.e_machine) :
			bt_error_set(e, BT_EXIT_ENV, vmlinux, "capstone cannot open this architecture");
		goto out;
	}
	fn = insn_functions(g->t, &nfn);
	bt_progress_stage(g->t->progress, "disassembling vmlinux for calls", nfn);
	for (i = 1; fn && !ret && i < shnum; i++) {
		Elf_Data *d;

		scn = elf_getscn(elf, i);
		if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		d = elf_rawdata(scn, NULL);
		if (d && d->d_buf && insn_section(g, h, x86, &sh, d, fn, nfn, &done))
			ret = bt_error_set(e, BT_EXIT_ENV, vmlinux, "out of memory");
	}
	if (!fn)
		ret = bt_error_set(e, BT_EXIT_ENV, vmlinux, "out of memory");
	free(fn);
	cs_close(&h);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
