/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kallsyms tables inside an unpacked kernel (kimg.h; their layout is
 * kernel-facts 103-105, as scripts/kallsyms.c writes them and
 * kernel/kallsyms.c reads them). Found by their structure, not by symbols
 * (an installed image has none):
 *  1. kallsyms_token_table: 256 NUL-terminated tokens whose entries '0'..'9'
 *     are the digits themselves; kallsyms_token_index right after it (256
 *     16-bit offsets into the table) must match it exactly, which also
 *     tells the byte order;
 *  2. kallsyms_markers: 32-bit (or word-sized, older kernels) offsets, the
 *     first 0, rising; kallsyms_num_syms and kallsyms_names just before
 *     them: the names must decode to printable text, every 256th at its
 *     marker, ending where the markers start; between the markers and the
 *     token table nothing, or kallsyms_seqs_of_names (3 bytes a symbol);
 *  3. the addresses: kallsyms_offsets + kallsyms_relative_base (with or
 *     without absolute per-CPU symbols) or kallsyms_addresses, before
 *     kallsyms_num_syms (6.1) or after kallsyms_token_index (newer
 *     layouts); they must rise with the symbols' order.
 * A candidate that fails any check is refused, never used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kimg.h"
#include "util/grow.h"

struct ks {
	const unsigned char *d;
	size_t n;
	int big, ws;		/* byte order; word size 4 or 8 */
	size_t T, E, I;		/* token table, its end, token index */
	size_t off[256];	/* token i at d + T + off[i] */
	size_t Q, S, P;		/* num_syms, names, markers */
	size_t N, m;		/* symbols, markers */
	int mw;			/* marker width */
	int seqs;		/* kallsyms_seqs_of_names between markers and tokens */
	uint64_t *addr;		/* N addresses */
	const char *addrhow;
	int zero_base;		/* names fit, but kallsyms_relative_base reads 0, no relocation */
};

static uint64_t ks_rd(const struct ks *k, size_t at, int w)
{
	return kimg_rd(k->d + at, w, k->big);
}

static size_t up(size_t x, size_t a)
{
	return (x + a - 1) / a * a;
}

static int printable(unsigned char c)
{
	return c > 0x20 && c < 0x7f;
}

/* The 256 tokens from @T, matched by a token index after them. */
static int ks_tokens_at(struct ks *k, size_t T, size_t D)
{
	static const size_t al[] = { 2, 4, 8 };
	size_t p, i;

	k->T = T;
	for (p = T, i = 0; i < 256; i++) {
		k->off[i] = p - T;
		while (p < k->n && k->d[p]) {
			if (!printable(k->d[p]) || p - T - k->off[i] > 64)
				return -1;
			p++;
		}
		if (p >= k->n)
			return -1;
		p++;
	}
	if (k->off['0'] != D - T)
		return -1;
	k->E = p;
	for (i = 0; i < 3; i++) {
		size_t I = up(k->E, al[i]), j;
		int big;

		if (I + 512 > k->n)
			continue;
		for (big = 0; big < 2; big++) {
			k->big = big;
			for (j = 0; j < 256; j++)
				if (ks_rd(k, I + 2 * j, 2) != k->off[j])
					break;
			if (j == 256) {
				k->I = I;
				return 0;
			}
		}
	}
	return -1;
}

/*
 * Step 1 at the digits "0\0" ... "9\0" found at @D: 48 tokens before
 * them end in 48 NULs; where the first token starts only the token index
 * can tell (the bytes before the table may be printable too).
 */
static int ks_tokens(struct ks *k, size_t D)
{
	size_t pos = D, nul = 0, T;

	while (pos > 0 && D - pos < 48 * 65) {
		pos--;
		if (!k->d[pos] && ++nul == 48)
			break;
		if (k->d[pos] && !printable(k->d[pos]))
			return -1;
	}
	if (nul != 48)
		return -1;
	for (T = pos; T > 0 && pos - T < 64 && printable(k->d[T - 1]); T--)
		if (!ks_tokens_at(k, T - 1, D))
			return 0;
	return -1;
}

/* Length of the name at @p (ULEB128, at most 2 bytes), its bytes after *@hdr; 0: none. */
static size_t ks_len(const struct ks *k, size_t p, size_t *hdr)
{
	size_t len;

	if (p >= k->n)
		return 0;
	len = k->d[p];
	*hdr = 1;
	if (len & 0x80) {
		if (p + 1 >= k->n || (k->d[p + 1] & 0x80))
			return 0;
		len = (len & 0x7f) | (size_t)k->d[p + 1] << 7;
		*hdr = 2;
	}
	return len;
}

/* Do @N names from @S decode, meet every marker, and end in the padding before @P? */
static int ks_names_fit(const struct ks *k, size_t S, size_t N, size_t P, int mw)
{
	size_t i, p = S, hdr = 0;

	for (i = 0; i < N; i++) {
		size_t len = ks_len(k, p, &hdr), j;

		if ((i & 255) == 0 && ks_rd(k, P + (i >> 8) * (size_t)mw, mw) != p - S)
			return 0;
		if (!len || p + hdr + len > P)
			return 0;
		for (j = 0; j < len; j++) {
			size_t t = k->off[k->d[p + hdr + j]];

			if (!k->d[k->T + t])	/* an empty token: nothing a name is made of */
				return 0;
		}
		p += hdr + len;
	}
	if (P - p >= (size_t)k->ws)
		return 0;
	for (; p < P; p++)
		if (k->d[p])
			return 0;
	return 1;
}

/* Step 2 for one marker width: markers start at @P (aligned), @m rising values. */
static int ks_try_markers(struct ks *k, size_t P, size_t m, int mw)
{
	size_t A = (size_t)k->ws, last, lo, Q;
	uint64_t big = 256 * (0x3fffu + 2);

	last = (size_t)ks_rd(k, P + (m - 1) * (size_t)mw, mw);
	if (P < last + 2 * A)
		return -1;
	lo = P - last - 2 * A;
	lo = lo > big ? lo - big : 0;
	for (Q = (P - last - 2 * A) / A * A; Q >= lo && Q >= A; Q -= A) {
		size_t N = (size_t)ks_rd(k, Q, 4), mm, S = Q + A, me;
		int seqs;

		if (N <= 256 || N > 0xffffff || (N + 255) / 256 > m)
			continue;
		mm = (N + 255) / 256;
		if (ks_rd(k, P + (mm - 1) * (size_t)mw, mw) >= P - S)
			continue;
		/* what follows the markers: the tokens, or the name order first */
		me = up(P + mm * (size_t)mw, A);
		if (me == k->T)
			seqs = 0;
		else if (up(me + 3 * N, A) == k->T)
			seqs = 1;
		else
			continue;
		if (!ks_names_fit(k, S, N, P, mw))
			continue;
		k->Q = Q;
		k->S = S;
		k->P = P;
		k->N = N;
		k->m = mm;
		k->mw = mw;
		k->seqs = seqs;
		return 0;
	}
	return -1;
}

static int ks_markers(struct ks *k)
{
	size_t A = (size_t)k->ws, P, lim = (size_t)16 << 20;
	int mw;

	for (mw = 4; mw <= k->ws; mw += 4) {
		for (P = k->T / A * A; P >= A && k->T - P < lim; P -= A) {
			size_t m;
			uint64_t prev;

			if (ks_rd(k, P, mw) != 0)
				continue;
			prev = 0;
			for (m = 1; P + (m + 1) * (size_t)mw <= k->T; m++) {
				uint64_t v = ks_rd(k, P + m * (size_t)mw, mw);

				if (v < prev + 256 * 2 || v > prev + 256 * (0x3fffu + 2))
					break;
				prev = v;
			}
			/* at most the name order of 256 symbols a marker lies between them and the tokens */
			if (m >= 2 && k->T - P - m * (size_t)mw <= 3 * 256 * m + 2 * A &&
			    !ks_try_markers(k, P, m, mw))
				return 0;
		}
	}
	return -1;
}

/* Do the addresses rise with the symbols, and are they not all alike? */
static int ks_rising(const uint64_t *a, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (a[i] < a[i - 1])
			return 0;
	return a[n - 1] > a[0];
}

/*
 * A relocatable arm64 Image leaves kallsyms_relative_base 0 in the file:
 * an R_AARCH64_RELATIVE entry (Elf64_Rela: r_offset, r_info 1027,
 * r_addend) fills it in at boot (kernel-facts 106). The image's first byte
 * is _text, linked at a 2 MiB-aligned address, so the entry for the word
 * at file offset @R has r_offset - @R 2 MiB-aligned and its r_addend (the
 * base) inside the image after it. 0: none.
 */
static uint64_t ks_rela_base(const struct ks *k, size_t R)
{
	size_t p;

	if (k->ws != 8 || k->big)
		return 0;
	for (p = 0; p + 24 <= k->n; p += 8) {
		uint64_t off, add;

		if (ks_rd(k, p + 8, 8) != 1027)
			continue;
		off = ks_rd(k, p, 8);
		add = ks_rd(k, p + 16, 8);
		if (off >= R && !((off - R) & 0x1fffff) && add >= off - R &&
		    add - (off - R) < k->n)
			return add;
	}
	return 0;
}

/* Step 3 at @O: offsets + relative base (at @R), or addresses. */
static int ks_addr_at(struct ks *k, size_t O, size_t R, int relative)
{
	size_t i;

	if (O > k->n || (relative ? 4 * k->N : (size_t)k->ws * k->N) > k->n - O)
		return -1;
	if (!relative) {
		for (i = 0; i < k->N; i++)
			k->addr[i] = ks_rd(k, O + i * (size_t)k->ws, k->ws);
		if (!ks_rising(k->addr, k->N))
			return -1;
		k->addrhow = "absolute addresses (kallsyms_addresses)";
		return 0;
	} else {
		uint64_t base, mask = k->ws == 8 ? ~(uint64_t)0 : 0xffffffffu;
		int percpu;

		if (R > k->n || (size_t)k->ws > k->n - R)
			return -1;
		base = ks_rd(k, R, k->ws);
		if (!base)
			base = ks_rela_base(k, R);
		if (!base) {
			k->zero_base = 1;
			return -1;
		}
		for (percpu = 0; percpu < 2; percpu++) {
			for (i = 0; i < k->N; i++) {
				int32_t o = (int32_t)(uint32_t)ks_rd(k, O + 4 * i, 4);

				if (!percpu)
					k->addr[i] = (base + (uint32_t)o) & mask;
				else if (o >= 0)
					k->addr[i] = (uint64_t)o;
				else
					k->addr[i] = (base - 1 - (uint64_t)(int64_t)o) & mask;
			}
			if (ks_rising(k->addr, k->N)) {
				k->addrhow = percpu ? "offsets from kallsyms_relative_base, per-CPU symbols absolute (CONFIG_KALLSYMS_ABSOLUTE_PERCPU)"
						    : "offsets from kallsyms_relative_base (CONFIG_KALLSYMS_BASE_RELATIVE)";
				return 0;
			}
		}
	}
	return -1;
}

static int ks_addresses(struct ks *k)
{
	size_t A = (size_t)k->ws, R, O;

	/* before kallsyms_num_syms (6.1 and older) */
	if (k->Q >= A + 4 * k->N) {
		R = k->Q - A;
		O = (R - 4 * k->N) / A * A;
		if (!ks_addr_at(k, O, R, 1))
			return 0;
	}
	if (k->Q >= (size_t)k->ws * k->N && !ks_addr_at(k, k->Q - (size_t)k->ws * k->N, 0, 0))
		return 0;
	/* after kallsyms_token_index (newer layouts) */
	O = up(k->I + 512, A);
	R = up(O + 4 * k->N, A);
	if (!ks_addr_at(k, O, R, 1))
		return 0;
	return ks_addr_at(k, O, 0, 0);
}

static int ks_text(const struct ks *k, char **text, size_t *len)
{
	char *t = NULL, name[0x4000 * 8 + 1];
	size_t cap = 0, n = 0, i, p = k->S, hdr = 0;

	for (i = 0; i < k->N; i++) {
		size_t l = ks_len(k, p, &hdr), j, nl = 0;
		int w;

		for (j = 0; j < l; j++) {
			const char *tok = (const char *)k->d + k->T + k->off[k->d[p + hdr + j]];
			size_t tl = strlen(tok);

			if (nl + tl >= sizeof(name))
				return -1;
			memcpy(name + nl, tok, tl);
			nl += tl;
		}
		p += hdr + l;
		name[nl] = '\0';
		if (nl < 2 || !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z') || name[0] == '?'))
			return -1;
		for (j = 0; j < nl; j++)
			if (!printable((unsigned char)name[j]))
				return -1;
		if (BT_GROW(t, n + nl + 24, cap) < 0) {
			free(t);
			return -2;
		}
		w = snprintf(t + n, cap - n, "%0*llx %c %s\n", k->ws * 2,
			     (unsigned long long)k->addr[i], name[0], name + 1);
		n += (size_t)w;
	}
	*text = t;
	*len = n;
	return 0;
}

int kimg_kallsyms(const struct kimg *im, const char *path, char **text,
		  size_t *len, size_t *nsyms, char *how, size_t howcap,
		  struct bt_error *e)
{
	static const char digits[] = "0\0" "1\0" "2\0" "3\0" "4\0" "5\0" "6\0" "7\0" "8\0" "9";
	struct ks k;
	const unsigned char *at;
	int ws, tables = 0;

	memset(&k, 0, sizeof(k));
	k.d = im->data;
	k.n = im->len;
	for (at = k.d; k.n >= 20 && at <= k.d + k.n - 20;
	     at++) {
		at = memmem(at, (size_t)(k.d + k.n - at), digits, 20);
		if (!at)
			break;
		if (ks_tokens(&k, (size_t)(at - k.d)))
			continue;
		tables++;
		for (ws = 8; ws >= 4; ws -= 4) {
			int r;

			if (im->elf_class && im->elf_class != ws * 8)
				continue;
			k.ws = ws;
			if (ks_markers(&k))
				continue;
			k.addr = malloc(k.N * sizeof(*k.addr));
			if (!k.addr)
				return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
			if (ks_addresses(&k)) {
				free(k.addr);
				k.addr = NULL;
				continue;
			}
			r = ks_text(&k, text, len);
			free(k.addr);
			k.addr = NULL;
			if (r == -2)
				return bt_error_set(e, BT_EXIT_ENV, path, "out of memory");
			if (r)
				continue;
			*nsyms = k.N;
			snprintf(how, howcap, "kallsyms: %zu symbols, %d-bit %s-endian, token table at byte %zu of the unpacked kernel, %s%s",
				 k.N, ws * 8, k.big ? "big" : "little", k.T, k.addrhow,
				 k.seqs ? ", with kallsyms_seqs_of_names" : "");
			return 0;
		}
	}
	if (k.zero_base)
		return bt_error_set(e, BT_EXIT_INPUT, path, "the kallsyms names decode (token table at byte %zu of the unpacked kernel), but kallsyms_relative_base reads 0 and no R_AARCH64_RELATIVE relocation gives it (a relocatable image whose relocations are not read here, kernel-facts 106); give the System.map or the -dbg vmlinux instead", k.T);
	if (tables)
		return bt_error_set(e, BT_EXIT_INPUT, path, "a kallsyms token table is at byte %zu of the unpacked kernel, but the names, markers or addresses around it do not check out (a layout not read here, see docs/kernel-image.md); give the System.map or vmlinux instead", k.T);
	return bt_error_set(e, BT_EXIT_INPUT, path, "no kallsyms table in the %zu unpacked bytes (a kernel built without CONFIG_KALLSYMS, or not a kernel); give the System.map or vmlinux instead", k.n);
}

int kimg_load_kallsyms(const char *path, char **text, size_t *len,
		       size_t *nsyms, char *how, size_t howcap,
		       struct bt_error *e)
{
	struct kimg k;
	char found[400];
	int r;

	if (kimg_load(path, &k, e))
		return -1;
	r = kimg_kallsyms(&k, path, text, len, nsyms, found, sizeof(found), e);
	if (!r)
		snprintf(how, howcap, "%s; %s", k.how, found);
	kimg_free(&k);
	return r;
}
