/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for bconf_parse() and everything that reads its tree.
 *
 * Input: one mode byte, then the config text. Mode bit 0 picks the ctype
 * (0 tools/bootconfig's ASCII, 1 the in-kernel Latin-1 table), bit 1 the
 * node limit (0: 8192, 1: 1024). The text is passed in a buffer of exactly
 * its size, without a terminating NUL, so ASan sees any read past it.
 *
 * On a parse error: the message is one of the kernel's, the position lies
 * in the text and line/column are counted as tools/bootconfig counts them.
 * On success, the tree is walked with the public API and the invariants
 * below (I1..I12) are asserted; then both printers run into a sink.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bconf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "fuzz_parse: invariant failed: %s " \
				"(%s:%d)\n", #cond, __FILE__, __LINE__);   \
			abort();                                           \
		}                                                          \
	} while (0)

/* ---- byte classes, as the two ctype profiles define them --------------- */

static int ascii_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/* May appear in a key word. */
static int word_byte(unsigned char c, enum bconf_ctype ct)
{
	if (ascii_alnum(c) || c == '-' || c == '_')
		return 1;
	/* Latin-1 letters; 0xd7 and 0xf7 (multiply, divide) are punctuation */
	return ct == BCONF_CTYPE_KERNEL && c >= 0xc0 && c != 0xd7 && c != 0xf7;
}

/* May appear in a value: printable or space. */
static int value_byte(unsigned char c, enum bconf_ctype ct)
{
	if ((c >= 0x20 && c <= 0x7e) || (c >= '\t' && c <= '\r'))
		return 1;
	return ct == BCONF_CTYPE_KERNEL && c >= 0xa0;
}

/* strnlen() is POSIX, not C11. */
static size_t text_len(const char *s, size_t max)
{
	const char *nul = memchr(s, '\0', max);

	return nul ? (size_t)(nul - s) : max;
}

/* ---- output sinks ------------------------------------------------------ */

struct sink {
	char *p;
	size_t n, cap;
};

static int sink_write(void *ctx, const char *s, size_t n)
{
	struct sink *k = ctx;

	if (k->n + n > k->cap) {
		size_t cap = k->cap ? k->cap : 4096;
		char *p;

		while (cap < k->n + n)
			cap *= 2;
		p = realloc(k->p, cap);
		if (!p)
			return -1;
		k->p = p;
		k->cap = cap;
	}
	memcpy(k->p + k->n, s, n);
	k->n += n;
	return 0;
}

static int sink_fail(void *ctx, const char *s, size_t n)
{
	(void)s;
	(void)n;
	++*(int *)ctx;
	return -1;
}

/* ---- the kernel's error messages --------------------------------------- */

static const char *const messages[] = {
	"Config data is empty", "Config data is too big", "Out of memory",
	"Too many nodes", "Exceed max depth of braces",
	"Unexpected closing brace", "Non printable value",
	"No value delimiter", "No closing quotes", "Invalid keyword",
	"Value is redefined", "Failed to override value",
	"Brace is not closed", "Empty config", "No closing brace",
	"Too long key length", "Too many key words", "No delimiter",
	"Wrong '+' operator", "Wrong ':' operator",
};

static void check_error(const struct bconf_error *err, const char *text,
			size_t len)
{
	struct bconf_error e = *err;
	size_t i, tlen;
	int known = 0, line = 1, col;

	CHECK(err->msg != NULL);
	for (i = 0; i < sizeof(messages) / sizeof(messages[0]); i++)
		known |= !strcmp(err->msg, messages[i]);
	CHECK(known);
	if (len == 0 || len > BCONF_DATA_MAX) {
		CHECK(!strcmp(err->msg, len ? "Config data is too big"
					    : "Config data is empty"));
		CHECK(err->pos == -1);
		return;
	}
	if (err->pos < 0) {
		CHECK(err->pos == -1);
		CHECK(!strcmp(err->msg, "Out of memory"));
		return;
	}
	/* The text ends at its first NUL: errors lie within it or at its end. */
	tlen = text_len(text, len);
	CHECK((size_t)err->pos <= tlen);
	/* Line and column as tools/bootconfig's show_xbc_error() counts. */
	col = (int)err->pos + 1;
	for (i = 0; i < (size_t)err->pos; i++) {
		if (text[i] == '\n') {
			line++;
			col = (int)(err->pos - (long)i);
		}
	}
	bconf_error_locate(&e, text, len);
	CHECK(e.line == line);
	CHECK(e.col == col);
	CHECK(e.pos == err->pos && e.msg == err->msg);
}

/* ---- the tree walk ----------------------------------------------------- */

struct walk {
	const struct bconf *bc;
	enum bconf_ctype ctype;
	const char *text;	/* the parsed input */
	size_t len;
	int count;		/* bconf_node_count() */
	unsigned char *seen;
	int visited;
	int *leaves;		/* leaf keys in pre-order */
	int nleaves;
	int *keys;		/* all reachable key nodes, pre-order */
	int nkeys;
	int *depth;		/* words in the key, per key node */
	unsigned char *uval;	/* per key node: some ancestor has a value */
	size_t *klen;		/* length of the dotted key, per key node */
	char *buf1, *buf2;	/* room for any composed key */
	size_t bufsz;
};

static int valid_node(const struct walk *w, int n)
{
	return n >= 0 && n < w->count;
}

/*
 * I4 (positions): a node's text is a copy of the input at bconf_pos():
 * the key word or the value (as written, quotes and trimmed spaces aside).
 */
static void check_pos(const struct walk *w, int n, const char *s)
{
	long pos = bconf_pos(w->bc, n);
	size_t l = strlen(s);

	CHECK(pos >= 0 && (size_t)pos <= w->len);
	CHECK((size_t)pos + l <= w->len);
	CHECK(!memcmp(w->text + pos, s, l));
}

/* Every element of the value (array) starting at @v, a child of @key. */
static void walk_values(struct walk *w, int key, int v)
{
	int x, prev = key;

	for (x = v; x != BCONF_NONE; prev = x, x = bconf_child(w->bc, x)) {
		const char *s;
		size_t i;

		CHECK(valid_node(w, x));
		/* I1 (a tree): no node is reached twice */
		CHECK(!w->seen[x]);
		w->seen[x] = 1;
		w->visited++;
		/*
		 * I2 (links): an element's parent is the node it hangs off,
		 * the key for the first, the previous element for the rest;
		 * only the first element has siblings (the key's subkeys).
		 */
		CHECK(bconf_parent(w->bc, x) == prev);
		if (x != v)
			CHECK(bconf_next(w->bc, x) == BCONF_NONE);
		/* I3 (kinds): elements are values; an array has more of them */
		CHECK(bconf_is_value(w->bc, x));
		CHECK(!!bconf_is_array(w->bc, x) ==
		      (bconf_child(w->bc, x) != BCONF_NONE));
		s = bconf_data(w->bc, x);
		CHECK(s != NULL);
		/* I5 (bytes): values hold printable bytes and spaces only */
		for (i = 0; s[i]; i++)
			CHECK(value_byte((unsigned char)s[i], w->ctype));
		check_pos(w, x, s);
	}
}

/* One key node, its parent already checked (@parent, BCONF_NONE on top). */
static void visit_key(struct walk *w, int k, int parent)
{
	const char *s;
	size_t i;
	int c, sub;

	CHECK(valid_node(w, k));
	/* I3: only a key's first child may be a value */
	CHECK(!bconf_is_value(w->bc, k));
	CHECK(!w->seen[k]);	/* I1 */
	w->seen[k] = 1;
	w->visited++;
	/* I2: a key's parent is the key it is under (BCONF_NONE on top) */
	CHECK(bconf_parent(w->bc, k) == parent);
	s = bconf_data(w->bc, k);
	CHECK(s != NULL);
	/* I5: key words are non-empty runs of word bytes */
	CHECK(s[0] != '\0');
	for (i = 0; s[i]; i++)
		CHECK(word_byte((unsigned char)s[i], w->ctype));
	check_pos(w, k, s);
	w->depth[k] = parent == BCONF_NONE ? 1 : w->depth[parent] + 1;
	w->uval[k] = parent != BCONF_NONE &&
		     (w->uval[parent] ||
		      bconf_value_node(w->bc, parent) != BCONF_NONE);
	w->klen[k] = (parent == BCONF_NONE ? 0 : w->klen[parent] + 1) + strlen(s);
	/*
	 * I6 (limits): at most 16 words and 255 bytes in a full key, as
	 * xbc_verify_tree() enforces; its walk never enters the subkeys of a
	 * key that has a value, so neither limit holds below such a key.
	 */
	if (!w->uval[k]) {
		CHECK(w->depth[k] <= BCONF_DEPTH_MAX);
		CHECK(w->klen[k] + 1 <= BCONF_KEYLEN_MAX);
	}
	w->keys[w->nkeys++] = k;

	/*
	 * I7 (children): the value node, if any, comes first;
	 * bconf_subkey() is the first key child; a leaf is a key with a
	 * value or without children.
	 */
	c = bconf_child(w->bc, k);
	sub = c;
	if (c != BCONF_NONE && bconf_is_value(w->bc, c)) {
		CHECK(bconf_value_node(w->bc, k) == c);
		walk_values(w, k, c);
		sub = bconf_next(w->bc, c);
	} else {
		CHECK(bconf_value_node(w->bc, k) == BCONF_NONE);
	}
	CHECK(bconf_subkey(w->bc, k) == sub);
	if (c == BCONF_NONE || bconf_is_value(w->bc, c))
		w->leaves[w->nleaves++] = k;
}

/* Pre-order walk of all keys, iterative (keys can nest thousands deep). */
static void walk_keys(struct walk *w)
{
	int k = bconf_root(w->bc), parent = BCONF_NONE, sub;

	while (k != BCONF_NONE) {
		visit_key(w, k, parent);
		sub = bconf_subkey(w->bc, k);
		if (sub != BCONF_NONE) {
			parent = k;
			k = sub;
			continue;
		}
		/* I2: parent links lead back up (checked on the way down) */
		while (k != BCONF_NONE && bconf_next(w->bc, k) == BCONF_NONE) {
			k = bconf_parent(w->bc, k);
			parent = k == BCONF_NONE ? BCONF_NONE
						 : bconf_parent(w->bc, k);
		}
		if (k != BCONF_NONE)
			k = bconf_next(w->bc, k);
	}
}

/* Full dotted name of key @k built from the parent links. */
static void own_compose(const struct walk *w, int k, char *buf, size_t size)
{
	size_t end = w->klen[k];
	int n;

	CHECK(end < size);
	buf[end] = '\0';
	for (n = k; n != BCONF_NONE; n = bconf_parent(w->bc, n)) {
		const char *s = bconf_data(w->bc, n);
		size_t l = strlen(s);

		CHECK(l <= end);
		end -= l;
		memcpy(buf + end, s, l);
		if (end) {
			buf[--end] = '.';
		}
	}
	CHECK(end == 0);
}

static int top_of(const struct walk *w, int k)
{
	int p;

	while ((p = bconf_parent(w->bc, k)) != BCONF_NONE)
		k = p;
	return k;
}

/*
 * I8 (names): bconf_compose_key() of every key equals the words on its
 * parent chain joined by dots (snprintf semantics when the buffer is
 * short), and bconf_find() of that name, from the top or relative to the
 * key's top-level ancestor, gives back the very same node; so does
 * bconf_find_value() its value. The kernel refuses to compose a key of 16
 * words or more (-ERANGE), so a failure is allowed there only. Keys
 * deeper than NAME_DEPTH_MAX (possible below a key with a value) are left
 * out: checking them costs depth squared.
 */
#define NAME_DEPTH_MAX 64

static void check_names(const struct walk *w)
{
	char *full = w->buf1, *own = w->buf2, small[5];
	int i;

	for (i = 0; i < w->nkeys; i++) {
		int k = w->keys[i], v, c, top, r;
		const char *val;

		if (w->depth[k] > NAME_DEPTH_MAX)
			continue;
		r = bconf_compose_key(w->bc, BCONF_NONE, k, full, w->bufsz);
		if (r < 0) {
			CHECK(w->depth[k] >= BCONF_DEPTH_MAX);
			continue;
		}
		own_compose(w, k, own, w->bufsz);
		CHECK((size_t)r == strlen(own));
		CHECK(!strcmp(full, own));
		CHECK(bconf_compose_key(w->bc, BCONF_NONE, k, small,
					sizeof(small)) == r);
		CHECK(strlen(small) == ((size_t)r < sizeof(small) ? (size_t)r
						     : sizeof(small) - 1));
		CHECK(!strncmp(small, full, strlen(small)));

		CHECK(bconf_find(w->bc, BCONF_NONE, full) == k);
		top = top_of(w, k);
		if (top != k) {
			const char *rel = full + strlen(bconf_data(w->bc, top)) + 1;

			CHECK(bconf_compose_key(w->bc, top, k, own, w->bufsz) ==
			      (int)strlen(rel));
			CHECK(!strcmp(own, rel));
			CHECK(bconf_find(w->bc, top, rel) == k);
		}

		v = -2;
		val = bconf_find_value(w->bc, BCONF_NONE, full, &v);
		c = bconf_child(w->bc, k);
		if (c != BCONF_NONE && bconf_is_value(w->bc, c)) {
			CHECK(v == c);
			CHECK(val != NULL && !strcmp(val, bconf_data(w->bc, c)));
		} else if (c == BCONF_NONE) {
			CHECK(val != NULL && val[0] == '\0');
			CHECK(v == BCONF_NONE);
		} else {
			CHECK(val == NULL);	/* subkeys only */
		}
	}
}

/*
 * I9 (leaf order): bconf_next_leaf() over the whole tree yields exactly
 * the leaf keys in pre-order, each once; under a top-level key it yields
 * that key's part of the same sequence.
 */
static void check_leaves(const struct walk *w)
{
	int l = BCONF_NONE, i = 0, t;

	while ((l = bconf_next_leaf(w->bc, BCONF_NONE, l)) != BCONF_NONE) {
		CHECK(i < w->nleaves);
		CHECK(l == w->leaves[i]);
		i++;
	}
	CHECK(i == w->nleaves);

	i = 0;
	for (t = bconf_root(w->bc); t != BCONF_NONE; t = bconf_next(w->bc, t)) {
		l = BCONF_NONE;
		while ((l = bconf_next_leaf(w->bc, t, l)) != BCONF_NONE) {
			CHECK(i < w->nleaves);
			CHECK(l == w->leaves[i]);
			CHECK(top_of(w, l) == t);
			i++;
		}
	}
	CHECK(i == w->nleaves);
}

/*
 * I10 (printers): both succeed, write no NUL byte, write the same bytes
 * twice, and stop with an error at once when the sink fails. The list
 * starts with the first leaf's full name and " = " (unless it is cut at
 * once by a 16-word leaf).
 */
static void check_printers(const struct walk *w)
{
	struct sink t1 = { 0 }, t2 = { 0 }, l1 = { 0 };
	char *key = w->buf1;
	int calls = 0, r, i;

	CHECK(bconf_print_tree(w->bc, sink_write, &t1) == 0);
	CHECK(bconf_print_tree(w->bc, sink_write, &t2) == 0);
	CHECK(t1.n == t2.n && (!t1.n || !memcmp(t1.p, t2.p, t1.n)));
	CHECK(!t1.n || !memchr(t1.p, '\0', t1.n));
	/*
	 * Like tools/bootconfig -l, the list stops (returning 1) at the
	 * first leaf of 16 words, and only then.
	 */
	for (i = 0; i < w->nleaves; i++)
		if (w->depth[w->leaves[i]] >= BCONF_DEPTH_MAX)
			break;
	r = bconf_print_list(w->bc, sink_write, &l1);
	CHECK(r == (i < w->nleaves ? 1 : 0));
	CHECK(!l1.n || !memchr(l1.p, '\0', l1.n));
	if (w->nleaves > 0 && w->depth[w->leaves[0]] < BCONF_DEPTH_MAX) {
		r = bconf_compose_key(w->bc, BCONF_NONE, w->leaves[0], key,
				      w->bufsz);
		if (r >= 0) {
			CHECK(l1.n >= (size_t)r + 3);
			CHECK(!memcmp(l1.p, key, (size_t)r));
			CHECK(!memcmp(l1.p + r, " = ", 3));
		}
	}
	if (t1.n) {
		CHECK(bconf_print_tree(w->bc, sink_fail, &calls) != 0);
		CHECK(calls == 1);
	}
	free(t1.p);
	free(t2.p);
	free(l1.p);
}

static void check_tree(const struct bconf *bc, const struct bconf_opts *o,
		       const char *text, size_t len)
{
	struct walk w = { 0 };
	unsigned max = o->node_max ? o->node_max : BCONF_NODE_MAX;

	w.bc = bc;
	w.ctype = o->ctype;
	w.text = text;
	w.len = len;
	w.count = bconf_node_count(bc);
	/* I11 (count): a success has nodes, no more than the limit */
	CHECK(w.count >= 1 && (unsigned)w.count <= max);
	w.seen = calloc((size_t)w.count, 1);
	w.leaves = calloc((size_t)w.count, sizeof(int));
	w.keys = calloc((size_t)w.count, sizeof(int));
	w.depth = calloc((size_t)w.count, sizeof(int));
	w.klen = calloc((size_t)w.count, sizeof(size_t));
	w.uval = calloc((size_t)w.count, 1);
	/* a composed key is made of words and dots of the input: < 2 * len */
	w.bufsz = 2 * len + 16;
	w.buf1 = malloc(w.bufsz);
	w.buf2 = malloc(w.bufsz);
	CHECK(w.seen && w.leaves && w.keys && w.depth && w.klen && w.uval &&
	      w.buf1 && w.buf2);

	/* I3: the tree starts with a top-level key */
	CHECK(bconf_root(bc) != BCONF_NONE);
	CHECK(!bconf_is_value(bc, bconf_root(bc)));
	CHECK(bconf_parent(bc, bconf_root(bc)) == BCONF_NONE);
	walk_keys(&w);
	/* I1: reachable nodes are distinct; `:=` may orphan old values */
	CHECK(w.visited <= w.count);
	CHECK(w.nleaves >= 1);

	check_names(&w);
	check_leaves(&w);
	check_printers(&w);

	free(w.seen);
	free(w.leaves);
	free(w.keys);
	free(w.depth);
	free(w.klen);
	free(w.uval);
	free(w.buf1);
	free(w.buf2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bconf_opts o = { 0 };
	struct bconf_error err = { 0 };
	struct bconf *bc;
	char *text;
	size_t len;

	if (size < 1)
		return 0;
	o.ctype = (data[0] & 1) ? BCONF_CTYPE_KERNEL : BCONF_CTYPE_TOOL;
	o.node_max = (data[0] & 2) ? BCONF_NODE_MAX_OLD : BCONF_NODE_MAX;
	len = size - 1;
	text = malloc(len ? len : 1);
	CHECK(text != NULL);
	if (len)
		memcpy(text, data + 1, len);

	bc = bconf_parse(text, len, &o, &err);
	/* I12 (input): the caller's text is never written to */
	CHECK(!len || !memcmp(text, data + 1, len));
	if (!bc) {
		check_error(&err, text, len);
	} else {
		CHECK(len >= 1 && len <= BCONF_DATA_MAX);
		check_tree(bc, &o, text, len);
		bconf_free(bc);
	}
	free(text);
	return 0;
}
