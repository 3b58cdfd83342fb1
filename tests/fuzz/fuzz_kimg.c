// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer: a kernel image (kimage/kimg.h): the unpacker (bzImage header,
 * ELF self-decompressor scan, gzip, xz, lzma, LZ4 legacy and zstd streams)
 * and the kallsyms decoder on what it gives (then the table of boot
 * parameters, kimg_params.c; the embedded .config and the release,
 * kimg_config.c), and the decoder on the bytes
 * as they are (as a 32- or 64-bit ELF kernel or a raw one); and, with a
 * symbol text of the input's own before its first NUL, the readers of
 * what the image offers (kimg_addr.c's map and relocations, the call
 * sites, the events, the parameters). Any input: an
 * error or a symbol text, never a crash, a leak or UB; a text is lines of
 * "ADDR TYPE NAME".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kimage/kimg.h"

/* IKCONFIG and the banner's release: bounded, NUL-terminated, or none. */
static void own_config(const struct kimg *k)
{
	struct bt_error e;
	char *text, rel[64];
	size_t len, at;
	int r = kimg_ikconfig(k, "fuzz", &text, &len, &at, &e);

	if (r == 1) {
		if (len > KIMG_IKCONFIG_MAX || text[len] || at < 8 || at > k->len ||
		    memcmp(k->data + at - 8, "IKCFG_ST", 8))
			abort();
		free(text);
	} else if (r == 0 && text) {
		abort();
	}
	if (!kimg_release(k, rel, sizeof(rel)) &&
	    (rel[0] < '0' || rel[0] > '9' || strlen(rel) >= sizeof(rel)))
		abort();
}

static void decode(const struct kimg *k)
{
	struct bt_error e;
	struct kimg_params p;
	char *text, how[400];
	size_t len, n, i, lines = 0;

	if (kimg_kallsyms(k, "fuzz", &text, &len, &n, how, sizeof(how), &e))
		return;
	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (lines != n || !len || text[len - 1] != '\n')
		abort();
	/* the boot parameters' table, found by its shape in the same bytes */
	if (!kimg_params(k, text, len, "fuzz", &p, &e)) {
		if (!p.n || p.early > p.n)
			abort();
		kimg_params_free(&p);
	}
	free(text);
}

/* The call sites (sorted, nonzero count) and events ("system:event", sorted). */
static void lists(const struct kimg *k, const char *text, size_t len, int ptr)
{
	struct bt_error e;
	struct kimg_addr m;
	struct kimg_events ev;
	struct kimg_params p;
	uint64_t *sites;
	size_t n, i;

	if (kimg_addr_init(&m, k, 0xffffffff81000000ull, ptr, 0))
		return;
	if (kimg_mcount(k, &m, text, len, "fuzz", &sites, &n, &e) > 0) {
		for (i = 1; i < n; i++)
			if (sites[i - 1] > sites[i])
				abort();
		free(sites);
	}
	if (kimg_events(k, &m, text, len, "fuzz", &ev, &e) > 0) {
		for (i = 0; i < ev.n; i++)
			if (!strchr(ev.name[i], ':') || (i && strcmp(ev.name[i - 1], ev.name[i]) >= 0))
				abort();
		kimg_events_free(&ev);
	}
	kimg_addr_free(&m);
	if (!kimg_params(k, text, len, "fuzz", &p, &e))
		kimg_params_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_error e;
	struct kimg k;

	if (size < 1)
		return 0;
	if ((data[0] & 9) == 9) {	/* "SYMBOL TEXT\0IMAGE" */
		const char *nul = memchr(data + 1, 0, size - 1);

		if (!nul)
			return 0;
		memset(&k, 0, sizeof(k));
		k.data = (unsigned char *)nul + 1;
		k.len = size - (size_t)((const uint8_t *)nul + 1 - data);
		k.elf_class = data[0] & 2 ? 64 : 0;
		lists(&k, (const char *)data + 1, (size_t)(nul - (const char *)data - 1),
		      data[0] & 16 ? 4 : 8);
		return 0;
	}
	if (data[0] & 1) {
		memset(&k, 0, sizeof(k));
		k.data = (unsigned char *)data + 1;
		k.len = size - 1;
		k.elf_class = data[0] & 2 ? 64 : data[0] & 4 ? 32 : 0;
		own_config(&k);
		decode(&k);
		return 0;
	}
	if (kimg_unpack(data + 1, size - 1, "fuzz", &k, &e))
		return 0;
	own_config(&k);
	decode(&k);
	kimg_free(&k);
	return 0;
}
