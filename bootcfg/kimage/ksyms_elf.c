/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A vmlinux or a module through libelf (kimage.h): its functions, the mcount
 * or patchable-entry sites that make them traceable, and its __initcall
 * symbols. Every size and index read from the file is checked against the
 * section that holds it: a malformed file is an error, never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kimage/kimage.h"
#include "util/grow.h"
#include "util/readfile.h"

struct elf_in {
	struct ksyms *t;
	Elf *elf;
	GElf_Ehdr eh;
	size_t shnum;
	const char *name;	/* for messages */
	int mod;
	size_t first;		/* this file's first symbol in t->sym */
	uint64_t mstart, mstop;	/* __start_mcount_loc / __stop_mcount_loc */
	int have_mbounds;
	unsigned char *secfl;	/* per section: KSYM_TEXT, KSYM_INIT */
	struct bt_error *e;
};

static int elf_bad(struct elf_in *in, const char *what)
{
	return bt_error_set(in->e, BT_EXIT_INPUT, in->name,
			    "malformed ELF file: %s (%s); expected a vmlinux or a kernel module", what, elf_errmsg(-1));
}

static int elf_shdr(struct elf_in *in, size_t i, GElf_Shdr *sh)
{
	Elf_Scn *scn = elf_getscn(in->elf, i);

	return scn && gelf_getshdr(scn, sh) ? 0 : -1;
}

/* MIPS64 little-endian packs r_info as sym(32) ssym type3 type2 type. */
static size_t elf_rel_sym(const struct elf_in *in, uint64_t info)
{
	if (in->eh.e_machine == EM_MIPS && in->eh.e_ident[EI_CLASS] == ELFCLASS64 &&
	    in->eh.e_ident[EI_DATA] == ELFDATA2LSB)
		return (size_t)(info & 0xffffffffu);
	return (size_t)GELF_R_SYM(info);
}

static uint64_t elf_word(const struct elf_in *in, const unsigned char *p)
{
	int n = in->eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4, i;
	uint64_t v = 0;

	for (i = 0; i < n; i++) {
		int b = in->eh.e_ident[EI_DATA] == ELFDATA2MSB ? i : n - 1 - i;

		v = v << 8 | p[b];
	}
	return v;
}

/* Per section: executable? .init.text? Read once, not per symbol. */
static int elf_section_flags(struct elf_in *in)
{
	size_t i, str;
	GElf_Shdr sh;
	const char *name;

	in->secfl = calloc(in->shnum ? in->shnum : 1, 1);
	if (!in->secfl)
		return bt_error_set(in->e, BT_EXIT_ENV, in->name, "out of memory");
	if (elf_getshdrstrndx(in->elf, &str))
		str = 0;
	for (i = 1; i < in->shnum; i++) {
		if (elf_shdr(in, i, &sh) || !(sh.sh_flags & SHF_EXECINSTR))
			continue;
		in->secfl[i] = KSYM_TEXT;
		name = str ? elf_strptr(in->elf, str, sh.sh_name) : NULL;
		if (name && !strncmp(name, ".init.text", 10))
			in->secfl[i] |= KSYM_INIT;
	}
	return 0;
}

static unsigned elf_sym_flags(const struct elf_in *in, const GElf_Sym *s,
			      const char *name)
{
	unsigned fl;

	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= in->shnum ||
	    s->st_shndx >= SHN_LORESERVE || !in->secfl[s->st_shndx])
		return 0;
	fl = in->secfl[s->st_shndx];
	if (GELF_ST_TYPE(s->st_info) == STT_FUNC)
		return fl;
	if (GELF_ST_TYPE(s->st_info) == STT_NOTYPE && name[0] &&
	    name[0] != '.' && name[0] != '$')
		return fl | KSYM_LABEL;
	return 0;
}

/* The names stay in a copy of the string table the table keeps. */
static int elf_symbols(struct elf_in *in, size_t symidx, const GElf_Shdr *symsh)
{
	Elf_Data *d = elf_getdata(elf_getscn(in->elf, symidx), NULL), *sd;
	GElf_Shdr strsh;
	GElf_Sym s;
	struct bt_progress *prog;
	char *str;
	size_t n, i;
	unsigned fl;

	if (!d || symsh->sh_link >= in->shnum || elf_shdr(in, symsh->sh_link, &strsh))
		return elf_bad(in, "symbol table without a string table");
	sd = elf_getdata(elf_getscn(in->elf, symsh->sh_link), NULL);
	if (!sd || !sd->d_buf)
		return elf_bad(in, "unreadable string table");
	str = malloc(sd->d_size + 1);
	if (!str || ksyms_keep(in->t, str))
		return bt_error_set(in->e, BT_EXIT_ENV, in->name, "out of memory");
	memcpy(str, sd->d_buf, sd->d_size);
	str[sd->d_size] = '\0';
	n = symsh->sh_entsize ? d->d_size / symsh->sh_entsize : 0;
	/* a module is one step of the modules' progress; vmlinux has its own */
	prog = in->mod < 0 ? in->t->progress : NULL;
	bt_progress_stage(prog, "reading symbols", n);
	for (i = 1; i < n; i++) {
		const char *name;

		if (!(i & 4095))
			bt_progress_update(prog, i, in->name);
		if (!gelf_getsym(d, (int)i, &s))
			return elf_bad(in, "unreadable symbol");
		if (s.st_name >= sd->d_size)
			return elf_bad(in, "symbol name outside the string table");
		name = str + s.st_name;
		if (!strcmp(name, "__start_mcount_loc")) {
			in->mstart = s.st_value;
			in->have_mbounds |= 1;
		} else if (!strcmp(name, "__stop_mcount_loc")) {
			in->mstop = s.st_value;
			in->have_mbounds |= 2;
		}
		fl = elf_sym_flags(in, &s, name);
		if (!fl && strncmp(name, "__initcall", 10))
			continue;
		if (ksyms_add(in->t, name, s.st_value, s.st_size, in->mod,
			      in->eh.e_type == ET_REL ? s.st_shndx : 0, fl))
			return bt_error_set(in->e, BT_EXIT_ENV, in->name, "out of memory");
	}
	return 0;
}

static int elf_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* vmlinux: the sites lie between __start/__stop_mcount_loc (in .init.data). */
static int elf_exec_sites(struct elf_in *in)
{
	size_t i, w = in->eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4, n;
	uint64_t *sites;
	GElf_Shdr sh;
	Elf_Data *d;

	if (in->have_mbounds != 3 || in->mstop < in->mstart)
		return 0;
	for (i = 1; i < in->shnum; i++) {
		if (elf_shdr(in, i, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(sh.sh_flags & SHF_ALLOC) || in->mstart < sh.sh_addr ||
		    in->mstop > sh.sh_addr + sh.sh_size)
			continue;
		d = elf_rawdata(elf_getscn(in->elf, i), NULL);
		if (!d || !d->d_buf || d->d_size < sh.sh_size)
			return elf_bad(in, "unreadable __mcount_loc data");
		n = (size_t)(in->mstop - in->mstart) / w;
		sites = malloc((n ? n : 1) * sizeof(*sites));
		if (!sites)
			return bt_error_set(in->e, BT_EXIT_ENV, in->name, "out of memory");
		for (size_t k = 0; k < n; k++)
			sites[k] = elf_word(in, (const unsigned char *)d->d_buf +
					    (in->mstart - sh.sh_addr) + k * w);
		qsort(sites, n, sizeof(*sites), elf_cmp_u64);
		ksyms_mark_sites(in->t, in->first, in->t->n, sites, n, 0);
		free(sites);
		in->t->core_trace = KT_KNOWN;
		return 0;
	}
	return elf_bad(in, "__start_mcount_loc..__stop_mcount_loc in no section");
}

struct elf_site {
	uint64_t sec, off;
};

struct elf_sites {
	struct elf_site *v;
	size_t n, cap;
};

static int elf_cmp_site(const void *a, const void *b)
{
	const struct elf_site *x = a, *y = b;

	if (x->sec != y->sec)
		return x->sec < y->sec ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* One relocation section against __mcount_loc: each entry is SYM+ADDEND. */
static int elf_rel_sites(struct elf_in *in, size_t ri, const GElf_Shdr *rsh,
			 const GElf_Shdr *msh, size_t mi, Elf_Data *symd,
			 struct elf_sites *v)
{
	Elf_Data *rd = elf_getdata(elf_getscn(in->elf, ri), NULL);
	Elf_Data *md = elf_rawdata(elf_getscn(in->elf, mi), NULL);
	size_t n = rsh->sh_entsize ? rsh->sh_size / rsh->sh_entsize : 0, i;
	size_t w = in->eh.e_ident[EI_CLASS] == ELFCLASS64 ? 8 : 4;

	if (!rd || !symd)
		return elf_bad(in, "unreadable relocations of __mcount_loc");
	if (BT_GROW(v->v, v->n + n + 1, v->cap) < 0)
		return bt_error_set(in->e, BT_EXIT_ENV, in->name, "out of memory");
	for (i = 0; i < n; i++) {
		GElf_Rela ra;
		GElf_Rel rl;
		GElf_Sym s;
		uint64_t off, add;

		if (rsh->sh_type == SHT_RELA) {
			if (!gelf_getrela(rd, (int)i, &ra))
				return elf_bad(in, "unreadable relocation");
			off = ra.r_offset;
			add = (uint64_t)ra.r_addend;
		} else {
			if (!gelf_getrel(rd, (int)i, &rl))
				return elf_bad(in, "unreadable relocation");
			off = rl.r_offset;
			ra.r_info = rl.r_info;
			if (!md || !md->d_buf || off > msh->sh_size ||
			    msh->sh_size - off < w || md->d_size < msh->sh_size)
				return elf_bad(in, "REL addend outside __mcount_loc");
			add = elf_word(in, (const unsigned char *)md->d_buf + off);
		}
		if (!gelf_getsym(symd, (int)elf_rel_sym(in, ra.r_info), &s))
			return elf_bad(in, "relocation against no symbol");
		v->v[v->n].sec = s.st_shndx;
		v->v[v->n++].off = s.st_value + add;
	}
	return 0;
}

static int elf_is_site_section(const char *name)
{
	return name && (!strcmp(name, "__mcount_loc") ||
			!strcmp(name, "__patchable_function_entries"));
}

/* A module: __mcount_loc holds zeros until relocated; read the relocations. */
static int elf_rel_all_sites(struct elf_in *in, size_t symidx)
{
	Elf_Data *symd = elf_getdata(elf_getscn(in->elf, symidx), NULL);
	struct elf_sites sv = { 0 };
	struct elf_site *v;
	size_t nv, i, j, str, found = 0;
	GElf_Shdr rsh, msh;
	uint64_t *sites;
	int ret = 0;

	if (elf_getshdrstrndx(in->elf, &str))
		return elf_bad(in, "no section name table");
	for (i = 1; i < in->shnum && !ret; i++) {
		if (elf_shdr(in, i, &rsh) ||
		    (rsh.sh_type != SHT_RELA && rsh.sh_type != SHT_REL) ||
		    rsh.sh_info >= in->shnum || elf_shdr(in, rsh.sh_info, &msh) ||
		    !elf_is_site_section(elf_strptr(in->elf, str, msh.sh_name)))
			continue;
		found = 1;
		ret = elf_rel_sites(in, i, &rsh, &msh, rsh.sh_info, symd, &sv);
	}
	v = sv.v;
	nv = sv.n;
	if (ret || !found) {
		free(v);
		return ret;
	}
	qsort(v, nv, sizeof(*v), elf_cmp_site);
	sites = malloc((nv ? nv : 1) * sizeof(*sites));
	if (!sites) {
		free(v);
		return bt_error_set(in->e, BT_EXIT_ENV, in->name, "out of memory");
	}
	for (i = 0; i < nv; i = j) {
		for (j = i; j < nv && v[j].sec == v[i].sec; j++)
			sites[j - i] = v[j].off;
		ksyms_mark_sites(in->t, in->first, in->t->n, sites, j - i,
				 (int)v[i].sec);
	}
	in->t->mods_trace = 1;
	free(sites);
	free(v);
	return 0;
}

static int elf_walk(struct elf_in *in)
{
	size_t i, symidx = 0, fsize = 0;
	GElf_Shdr sh, symsh;

	if (elf_kind(in->elf) != ELF_K_ELF)
		return bt_error_set(in->e, BT_EXIT_INPUT, in->name, "not an ELF file: expected a vmlinux or a kernel module (.ko); give a System.map with --system-map");
	if (!gelf_getehdr(in->elf, &in->eh) || elf_getshdrnum(in->elf, &in->shnum))
		return elf_bad(in, "unreadable ELF header");
	if (!elf_rawfile(in->elf, &fsize) || in->eh.e_shoff > fsize ||
	    (fsize - in->eh.e_shoff) / (in->eh.e_shentsize ? in->eh.e_shentsize : 1) <
	    in->shnum)
		return elf_bad(in, "the section headers lie past the end of the file (truncated?)");
	if (in->eh.e_type != ET_EXEC && in->eh.e_type != ET_REL &&
	    in->eh.e_type != ET_DYN)
		return elf_bad(in, "neither an executable nor a relocatable object");
	for (i = 1; i < in->shnum; i++)
		if (!elf_shdr(in, i, &sh) && sh.sh_type == SHT_SYMTAB) {
			symidx = i;
			symsh = sh;
			break;
		}
	if (!symidx)
		return bt_error_set(in->e, BT_EXIT_INPUT, in->name, "no symbol table: this file is stripped (use the vmlinux from the build or the -dbg package, or --system-map)");
	in->first = in->t->n ? in->t->n : 1;
	if (elf_section_flags(in) || elf_symbols(in, symidx, &symsh))
		return -1;
	if (in->eh.e_type == ET_REL)
		return elf_rel_all_sites(in, symidx);
	return elf_exec_sites(in);
}

int ksyms_load_elf(struct ksyms *t, const char *path, int mod,
		   struct bt_error *e)
{
	struct elf_in in = { .t = t, .name = path, .mod = mod, .e = e };
	struct stat st;
	int fd, ret;

	elf_version(EV_CURRENT);
	fd = readfile_open(path, RF_IMAGE_MAX, 0, "a vmlinux or a kernel module", &st, e);
	if (fd < 0)
		return -1;
	in.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!in.elf) {
		close(fd);
		return bt_error_set(e, BT_EXIT_INPUT, path, "cannot read as ELF (expected a vmlinux or a kernel module): %s",
				    elf_errmsg(-1));
	}
	ret = elf_walk(&in);
	free(in.secfl);
	elf_end(in.elf);
	close(fd);
	return ret;
}

int ksyms_load_elf_mem(struct ksyms *t, char *buf, size_t len,
		       const char *name, int mod, struct bt_error *e)
{
	struct elf_in in = { .t = t, .name = name, .mod = mod, .e = e };
	int ret;

	elf_version(EV_CURRENT);
	in.elf = elf_memory(buf, len);
	if (!in.elf)
		return bt_error_set(e, BT_EXIT_INPUT, name, "cannot read as ELF: %s", elf_errmsg(-1));
	ret = elf_walk(&in);
	free(in.secfl);
	elf_end(in.elf);
	return ret;
}
