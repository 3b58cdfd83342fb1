/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Call edges from modules (kcallers_int.h). A module is relocatable: every
 * call to another function, in the module or outside, is a relocation in a
 * code section, whatever the architecture (x86 PLT32, MIPS -mlong-calls
 * HI16/LO16 pairs, ...). The caller is the function whose range holds the
 * relocation; the callee is the symbol, or for a section symbol the
 * function at the addend.
 */
#include <ctype.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kcallers_int.h"
#include "util/grow.h"

struct ko_fn {
	uint64_t sec, addr, size;
	const char *name;
};

struct ko_in {
	struct kcallers_graph *g;
	Elf *elf;
	GElf_Ehdr eh;
	Elf_Data *symd;
	const char *str;	/* the module's copy of its string table */
	size_t strsz, nsym;
	struct ko_fn *fn;
	size_t nfn;
	struct ko_fn *roff;	/* relocated places in code: sec, addr */
	size_t nroff, caproff;
	int mod, next_mod;
	const char *path;
	struct bt_error *e;
};

static int ko_cmp_plain(const void *a, const void *b)
{
	const struct ko_fn *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int ko_alias(const char *name)
{
	return !strcmp(name, "init_module") || !strcmp(name, "cleanup_module");
}

static int ko_cmp(const void *a, const void *b)
{
	const struct ko_fn *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* Aliases: the lookup takes the last one, so module_init's alias goes first. */
	return ko_alias(y->name) - ko_alias(x->name);
}

static const struct ko_fn *ko_at(const struct ko_in *in, uint64_t sec, uint64_t off)
{
	size_t lo = 0, hi = in->nfn;

	while (lo < hi) {	/* the last function starting at or before off */
		size_t mid = (lo + hi) / 2;
		const struct ko_fn *f = &in->fn[mid];

		if (f->sec < sec || (f->sec == sec && f->addr <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || in->fn[lo - 1].sec != sec)
		return NULL;
	lo--;
	return off < in->fn[lo].addr + in->fn[lo].size ? &in->fn[lo] : NULL;
}

static int ko_bad(const struct ko_in *in, const char *what)
{
	return bt_error_set(in->e, BT_EXIT_INPUT, in->path, "malformed module: %s (%s)", what, elf_errmsg(-1));
}

static int ko_functions(struct ko_in *in)
{
	size_t i;
	GElf_Sym s;

	in->fn = malloc((in->nsym ? in->nsym : 1) * sizeof(*in->fn));
	if (!in->fn)
		return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	for (i = 1; i < in->nsym; i++) {
		if (!gelf_getsym(in->symd, (int)i, &s))
			return ko_bad(in, "unreadable symbol");
		if (GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF ||
		    s.st_shndx >= SHN_LORESERVE || s.st_name >= in->strsz)
			continue;
		in->fn[in->nfn].sec = s.st_shndx;
		in->fn[in->nfn].addr = s.st_value;
		in->fn[in->nfn].size = s.st_size;
		in->fn[in->nfn++].name = in->str + s.st_name;
	}
	qsort(in->fn, in->nfn, sizeof(*in->fn), ko_cmp);
	return 0;
}

/* The function a relocation points at. */
static const char *ko_callee(const struct ko_in *in, size_t symi, int64_t add,
			     uint64_t type)
{
	const struct ko_fn *f;
	GElf_Sym s;

	if (!gelf_getsym(in->symd, (int)symi, &s) || s.st_name >= in->strsz)
		return NULL;
	if (GELF_ST_TYPE(s.st_info) != STT_SECTION)
		return in->str[s.st_name] ? in->str + s.st_name : NULL;
	/* x86 PC-relative: the addend is the target minus the 4-byte field. */
	if (in->eh.e_machine == EM_X86_64 && (type == R_X86_64_PC32 ||
					      type == R_X86_64_PLT32))
		add += 4;
	f = ko_at(in, s.st_shndx, s.st_value + (uint64_t)add);
	return f && f->addr == s.st_value + (uint64_t)add ? f->name : NULL;
}

static int ko_relocs(struct ko_in *in, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0, i;
	int mips64el = in->eh.e_machine == EM_MIPS &&
		       in->eh.e_ident[EI_CLASS] == ELFCLASS64 &&
		       in->eh.e_ident[EI_DATA] == ELFDATA2LSB;

	if (!d)
		return ko_bad(in, "unreadable relocations");
	if (BT_GROW(in->roff, in->nroff + n + 1, in->caproff) < 0)
		return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	for (i = 0; i < n; i++) {
		GElf_Rela r;
		GElf_Rel rl;
		const struct ko_fn *from;
		const char *to;
		size_t symi;
		uint64_t type;

		if (sh->sh_type == SHT_RELA) {
			if (!gelf_getrela(d, (int)i, &r))
				return ko_bad(in, "unreadable relocation");
		} else {
			if (!gelf_getrel(d, (int)i, &rl))
				return ko_bad(in, "unreadable relocation");
			r.r_offset = rl.r_offset;
			r.r_info = rl.r_info;
			r.r_addend = 0;
		}
		symi = mips64el ? (size_t)(r.r_info & 0xffffffffu) : GELF_R_SYM(r.r_info);
		type = mips64el ? r.r_info >> 56 : GELF_R_TYPE(r.r_info);
		in->roff[in->nroff].sec = sh->sh_info;
		in->roff[in->nroff++].addr = r.r_offset;
		from = ko_at(in, sh->sh_info, r.r_offset);
		if (!from || symi >= in->nsym)
			continue;
		to = ko_callee(in, symi, r.r_addend, type);
		if (to && strcmp(to, from->name) &&
		    kcallers_graph_add(in->g, from->name, to, in->mod))
			return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	}
	return 0;
}

/* Is any byte of [a, a+n) in section @sec relocated? (roff sorted) */
static int ko_relocated(const struct ko_in *in, uint64_t sec, uint64_t a, uint64_t n)
{
	size_t lo = 0, hi = in->nroff;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct ko_fn *r = &in->roff[mid];

		if (r->sec < sec || (r->sec == sec && r->addr < a))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < in->nroff && in->roff[lo].sec == sec && in->roff[lo].addr < a + n;
}

/*
 * Calls inside one section of one object file need no relocation: the
 * assembler resolved them. Find those in the code itself.
 */
static int ko_local_calls(struct ko_in *in, csh h, int x86)
{
	cs_insn *ins = cs_malloc(h);
	size_t i;

	if (!ins)
		return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	for (i = 0; i < in->nfn; i++) {
		const struct ko_fn *f = &in->fn[i], *to;
		Elf_Scn *scn = elf_getscn(in->elf, f->sec);
		Elf_Data *d = scn ? elf_rawdata(scn, NULL) : NULL;
		const uint8_t *code;
		uint64_t addr = f->addr;
		size_t left = f->size;

		if (!d || !d->d_buf || f->addr > d->d_size || f->size > d->d_size - f->addr)
			continue;
		code = (const uint8_t *)d->d_buf + f->addr;
		while (cs_disasm_iter(h, &code, &left, &addr, ins)) {
			if (!kcallers_insn_is_call(x86, ins->mnemonic) ||
			    !isdigit((unsigned char)ins->op_str[0]) ||
			    ko_relocated(in, f->sec, ins->address, ins->size))
				continue;
			to = ko_at(in, f->sec, strtoull(ins->op_str, NULL, 0));
			if (to && to != f && to->addr == strtoull(ins->op_str, NULL, 0) &&
			    strcmp(to->name, f->name) &&
			    kcallers_graph_add(in->g, f->name, to->name, in->mod)) {
				cs_free(ins, 1);
				return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
			}
		}
	}
	cs_free(ins, 1);
	return 0;
}

static int ko_walk(struct ko_in *in)
{
	size_t shnum, i;
	GElf_Shdr sh, tsh, ssh;
	Elf_Scn *scn = NULL;
	Elf_Data *sd;
	char *str;

	if (elf_kind(in->elf) != ELF_K_ELF || !gelf_getehdr(in->elf, &in->eh) ||
	    elf_getshdrnum(in->elf, &shnum))
		return ko_bad(in, "not an ELF object");
	while ((scn = elf_nextscn(in->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	if (!scn || !sh.sh_entsize || !(in->symd = elf_getdata(scn, NULL)) ||
	    !gelf_getshdr(elf_getscn(in->elf, sh.sh_link), &ssh) ||
	    !(sd = elf_getdata(elf_getscn(in->elf, sh.sh_link), NULL)) || !sd->d_buf)
		return ko_bad(in, "no symbol table");
	in->nsym = in->symd->d_size / sh.sh_entsize;
	str = malloc(sd->d_size + 1);
	if (!str)
		return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	memcpy(str, sd->d_buf, sd->d_size);
	str[sd->d_size] = '\0';
	if (BT_GROW(in->g->blobs, in->g->nblobs + 1, in->g->capblobs) < 0) {
		free(str);
		return bt_error_set(in->e, BT_EXIT_ENV, in->path, "out of memory");
	}
	in->g->blobs[in->g->nblobs++] = str;
	in->str = str;
	in->strsz = sd->d_size;
	if (ko_functions(in))
		return -1;
	for (i = 1; i < shnum; i++) {
		scn = elf_getscn(in->elf, i);
		if (!scn || !gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    !gelf_getshdr(elf_getscn(in->elf, sh.sh_info), &tsh) ||
		    !(tsh.sh_flags & SHF_EXECINSTR))
			continue;
		if (ko_relocs(in, scn, &sh))
			return -1;
	}
	if (in->nroff)
		qsort(in->roff, in->nroff, sizeof(*in->roff), ko_cmp_plain);
	{
		csh h;
		int x86, ret;

		if (kcallers_insn_open(&in->eh, &h, &x86))
			return 0;	/* other machines: relocations only */
		ret = ko_local_calls(in, h, x86);
		cs_close(&h);
		return ret;
	}
}

static int ko_one(void *ctx, const char *path, const char *name,
		  struct bt_error *e)
{
	struct ko_in in = *(struct ko_in *)ctx;
	const struct ksyms *t = in.g->t;
	size_t len, i;
	char *buf;
	int ret;

	/* Same walk as ksyms_load_modules: the same order, checked by name. */
	in.mod = -1;
	if ((size_t)in.next_mod < t->nmods && !strcmp(t->mods[in.next_mod], name))
		in.mod = in.next_mod;
	for (i = 0; in.mod < 0 && i < t->nmods; i++)
		if (!strcmp(t->mods[i], name))
			in.mod = (int)i;
	((struct ko_in *)ctx)->next_mod = in.mod + 1;
	if (in.mod < 0)
		return 0;
	in.path = path;
	in.e = e;
	buf = kmodules_read(path, &len, e);
	if (!buf)
		return -1;
	elf_version(EV_CURRENT);
	in.elf = elf_memory(buf, len);
	ret = in.elf ? ko_walk(&in) : ko_bad(&in, "not an ELF object");
	elf_end(in.elf);
	free(in.fn);
	free(in.roff);
	free(buf);
	return ret;
}

int kcallers_modules(struct kcallers_graph *g, const char *dir,
		     struct bt_error *e)
{
	struct ko_in in = { .g = g };

	return kmodules_walk(dir, ko_one, &in, g->t->progress,
			     "reading the calls of modules", e);
}
