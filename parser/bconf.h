/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libbconf: the bootconfig language exactly as the Linux kernel parses it
 * (lib/bootconfig.c as shipped in linux-source-6.1), its printers, the initrd
 * footer codec and a kernel-compatible command-line tokenizer.
 *
 * No I/O, no globals, no dependency but libc: every call works on memory
 * the caller owns, and errors come back as (message, byte offset).
 */
#ifndef BCONF_H
#define BCONF_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's limits (include/linux/bootconfig.h). */
#define BCONF_DATA_MAX     32767	/* bytes, including the final NUL */
#define BCONF_NODE_MAX     8192	/* 1024 before v6.3 (and 6.1.18) */
#define BCONF_NODE_MAX_OLD 1024
#define BCONF_KEYLEN_MAX   256
#define BCONF_DEPTH_MAX    16

#define BCONF_MAGIC      "#BOOTCONFIG\n"
#define BCONF_MAGIC_LEN  12
#define BCONF_FOOTER_LEN 20	/* le32 size, le32 checksum, magic */
#define BCONF_ALIGN      4

/*
 * An error: the kernel's text and, when the error has a place in the input,
 * its byte offset (pos) and 1-based line/column. pos is -1 otherwise.
 */
#define BCONF_ERROR_TEXT_MAX 256

struct bconf_error {
	const char *msg;
	long pos;
	int line, col;
	char text[BCONF_ERROR_TEXT_MAX];	/* msg may point here: do not
						 * copy the struct and keep msg */
};

/* Fill line/col of @err from its pos, counting as tools/bootconfig does. */
void bconf_error_locate(struct bconf_error *err, const char *text, size_t len);

/* ---- parsing ---------------------------------------------------------- */

enum bconf_ctype {
	/*
	 * ASCII only, as tools/bootconfig sees bytes (glibc, "C" locale):
	 * bytes >= 0x80 are neither printable, space nor alphanumeric.
	 */
	BCONF_CTYPE_TOOL = 0,
	/*
	 * The in-kernel table (lib/ctype.c): Latin-1 0xa0-0xff are printable,
	 * 0xc0-0xff alphanumeric (valid in key words!), 0xa0 is a space.
	 * This is what really runs at boot.
	 */
	BCONF_CTYPE_KERNEL = 1,
};

struct bconf_opts {
	unsigned node_max;	/* 0 means BCONF_NODE_MAX */
	enum bconf_ctype ctype;
};

struct bconf;

/*
 * Parse @len bytes of @text as xbc_init() does: @len must be 1..32767
 * ("Config data is empty" / "Config data is too big"), and the text ends at
 * its first NUL byte. Returns NULL with @err filled on any error (also on
 * allocation failure, msg "Out of memory").
 */
struct bconf *bconf_parse(const char *text, size_t len,
			  const struct bconf_opts *opts, struct bconf_error *err);
void bconf_free(struct bconf *bc);

/* ---- tree ------------------------------------------------------------- */

/*
 * Nodes are small integers; BCONF_NONE means "no node". A key node's first
 * child is its value node (if it has a value), followed by its subkeys.
 * An array is a value node whose further elements hang off bconf_child().
 */
#define BCONF_NONE (-1)

int bconf_node_count(const struct bconf *bc);
int bconf_root(const struct bconf *bc);	/* first top-level key */
int bconf_next(const struct bconf *bc, int node);
int bconf_child(const struct bconf *bc, int node);
int bconf_parent(const struct bconf *bc, int node);
int bconf_is_value(const struct bconf *bc, int node);
int bconf_is_array(const struct bconf *bc, int vnode);
const char *bconf_data(const struct bconf *bc, int node);
/* Byte offset of the node's text in the parsed input (for diagnostics). */
long bconf_pos(const struct bconf *bc, int node);

/* First subkey of a key (skipping its value), or BCONF_NONE. */
int bconf_subkey(const struct bconf *bc, int key);
/* Value node of a key, or BCONF_NONE for a value-less key. */
int bconf_value_node(const struct bconf *bc, int key);

/*
 * Key node for the dotted @key below @parent (BCONF_NONE = top level),
 * or BCONF_NONE if there is none.
 */
int bconf_find(const struct bconf *bc, int parent, const char *key);
/*
 * Value of dotted @key below @parent: the first element for an array, ""
 * for a value-less key, NULL if the key is absent or has only subkeys.
 * *@vnode (if given) gets the value node or BCONF_NONE.
 */
const char *bconf_find_value(const struct bconf *bc, int parent,
			     const char *key, int *vnode);
/*
 * Next leaf key (a key with a value, or without children) after @leaf under
 * @root (BCONF_NONE = whole tree); start with @leaf = BCONF_NONE.
 */
int bconf_next_leaf(const struct bconf *bc, int root, int leaf);
/*
 * Write the dotted name of @node relative to @root (BCONF_NONE = full key)
 * to @buf like snprintf; returns the untruncated length or -1.
 */
int bconf_compose_key(const struct bconf *bc, int root, int node,
		      char *buf, size_t size);

#define bconf_for_each_child(bc, parent, n) \
	for ((n) = bconf_child((bc), (parent)); (n) != BCONF_NONE; \
	     (n) = bconf_next((bc), (n)))
#define bconf_for_each_subkey(bc, parent, n) \
	for ((n) = bconf_subkey((bc), (parent)); (n) != BCONF_NONE; \
	     (n) = bconf_next((bc), (n)))
/* Every element of the array (or single value) starting at value node @v. */
#define bconf_for_each_value(bc, vnode, v) \
	for ((v) = (vnode); (v) != BCONF_NONE; (v) = bconf_child((bc), (v)))

/* ---- printers (tools/bootconfig output, byte for byte) ----------------- */

/* Sink for printer output: returns 0 or -1 (then printing stops). */
typedef int (*bconf_write_fn)(void *ctx, const char *s, size_t n);

/* Returns 0, or -1 when @out failed. */
int bconf_print_tree(const struct bconf *bc, bconf_write_fn out, void *ctx);
/*
 * Returns 0, -1 when @out failed, or 1 when it stopped (as the kernel's
 * tool does) at a leaf of BCONF_DEPTH_MAX or more words.
 */
int bconf_print_list(const struct bconf *bc, bconf_write_fn out, void *ctx);

/* ---- initrd footer: [data][NUL pad][size le32][csum le32][magic] -------- */

uint32_t bconf_checksum(const void *data, size_t size);

struct bconf_footer {
	uint64_t data_off;	/* offset of the config text in the file */
	uint32_t size;		/* config + padding, as stored */
	uint32_t csum;		/* as stored */
	uint64_t end;		/* offset just past the magic */
	int aligned;		/* end is a multiple of BCONF_ALIGN */
};

/*
 * Look for a footer in @tail, the last @tail_len bytes of a file of
 * @file_size bytes. @slack is how many bytes before the very end the magic
 * may also sit: 0 as tools/bootconfig, 3 as the kernel (GRUB rounds the
 * initrd size up). Returns 1 and fills @f when found and valid, 0 when
 * there is no magic, -1 with @err (pos = file offset) when the footer is
 * corrupt: size past the start of the file, larger than BCONF_DATA_MAX,
 * data not inside @tail, checksum mismatch, or a magic with no room for
 * its size and checksum. Also -1 (pos -1) when @tail_len > @file_size or
 * @tail is too short to examine a place the magic may occupy.
 *
 * Size 32767 is accepted, as by xbc_init() and tools/bootconfig, but note
 * that init/main.c of 6.1 refuses sizes >= 32767 at boot.
 */
int bconf_footer_find(const unsigned char *tail, size_t tail_len,
		      uint64_t file_size, unsigned slack,
		      struct bconf_footer *f, struct bconf_error *err);

/*
 * Build what tools/bootconfig -a appends to an initrd of @initrd_size bytes
 * for config @conf of @conf_len bytes (text plus its NUL): the text, NUL
 * padding so that the whole file ends 4-aligned, and the footer. Returns
 * the number of bytes written to @out, or 0 if @cap is too small
 * (bconf_footer_blob_len() tells the size needed).
 */
/* 0 if @conf_len plus padding does not fit the 32-bit size field. */
size_t bconf_footer_blob_len(size_t conf_len, uint64_t initrd_size);
size_t bconf_footer_build(const char *conf, size_t conf_len,
			  uint64_t initrd_size, unsigned char *out, size_t cap);

/* ---- kernel command line ------------------------------------------------ */

/*
 * One word of a command line split as the kernel's next_arg() does
 * (lib/cmdline.c): param and value point into the caller's buffer, which
 * the tokenizer modifies in place exactly as the kernel does; val is NULL
 * for a word without '='.
 */
struct bconf_arg {
	char *param;
	char *val;
};

/*
 * Split @line in place. Returns the next word's start (skip that many
 * with repeated calls) and fills @arg; returns NULL when @line is empty.
 */
char *bconf_cmdline_next(char *line, struct bconf_arg *arg);

/*
 * The next word of @line as written (quotes kept, nothing modified): sets
 * *@word to its first byte and returns its length, 0 at the end. The word
 * ends where bconf_cmdline_next() would end it. Continue at *@word + len.
 */
size_t bconf_cmdline_span(const char *line, const char **word);

/*
 * Quote @val so that the kernel gives back exactly @val for param=@val:
 * wrap in double quotes when it holds whitespace or starts with '"'; an
 * empty value is written as "param=" (the kernel reads it as ""); a NULL
 * @val gives a bare "param". Fails (returns -1, @err->msg says why, pos is
 * the offset in "param=val") for words the kernel cannot carry: an empty
 * param or one with '=', '"', whitespace or non-printable bytes; a value
 * with a newline, a non-printable byte (tab and bytes >= 0x80 included), a
 * '"' together with whitespace, or an odd number of '"'. Writes like
 * snprintf; returns the untruncated length.
 */
int bconf_cmdline_quote(const char *param, const char *val, char *buf,
			size_t size, struct bconf_error *err);

#endif /* BCONF_H */
