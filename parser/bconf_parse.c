// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bootconfig language as lib/bootconfig.c (linux-source-6.1) parses it.
 *
 * Every rule here mirrors an observable behaviour of the kernel: what it
 * accepts, what it rejects with which text at which byte, and the tree shape
 * it builds (the printers depend on sibling order). Where the kernel has a
 * quirk, we keep the quirk and say so; a config that passes here must pass
 * at boot, and the other way round.
 *
 * Unlike the kernel we index key words in a hash table and keep a tail
 * pointer per key, so a config with many siblings parses in linear time.
 */
#include <stdlib.h>
#include <string.h>

#include "bconf_int.h"

struct parse {
	struct bconf *bc;
	int oom;		/* the word index could not grow */
	int cur;		/* key new words attach to; -1 = top level */
	int nbrace;
	uint16_t brace[BCONF_DEPTH_MAX];
	struct bconf_error *err;
};

/* ---- character classes ----------------------------------------------- */

static void cls_init(uint16_t *cls, enum bconf_ctype ct)
{
	int c;

	memset(cls, 0, 256 * sizeof(*cls));
	for (c = 0; c < 256; c++) {
		if (c == ' ' || (c >= '\t' && c <= '\r'))
			cls[c] |= BC_SPACE;
		if (c >= ' ' && c <= '~')
			cls[c] |= BC_PRINT;
		if (c && strchr(",;\n#}", c))
			cls[c] |= BC_VDELIM;
		if (c && strchr("{}=+;:\n#", c))
			cls[c] |= BC_TREE;
		if ((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
		    (c >= 'a' && c <= 'z') || c == '-' || c == '_')
			cls[c] |= BC_WORD;
		if (ct == BCONF_CTYPE_KERNEL && c >= 0xa0) {
			/* lib/ctype.c: Latin-1 upper half */
			cls[c] |= BC_PRINT;
			if (c == 0xa0)
				cls[c] |= BC_SPACE;
			if (c >= 0xc0 && c != 0xd7 && c != 0xf7)
				cls[c] |= BC_WORD;
		}
		if (c && !(cls[c] & BC_TREE))
			cls[c] |= BC_KEYTEXT;
		if ((cls[c] & BC_SPACE) && c != '\n')
			cls[c] |= BC_HSPACE;
		if (c && (cls[c] & (BC_PRINT | BC_SPACE))) {
			if (!(cls[c] & BC_VDELIM))
				cls[c] |= BC_PLAIN;
			if (c != '"')
				cls[c] |= BC_INDQ;
			if (c != '\'')
				cls[c] |= BC_INSQ;
		}
	}
}

static inline int is_space(const struct bconf *bc, char c)
{
	return bc->cls[(unsigned char)c] & BC_SPACE;
}

static inline int is_value_delim(const struct bconf *bc, char c)
{
	return bc->cls[(unsigned char)c] & BC_VDELIM;
}

static char *skip_spaces(const struct bconf *bc, char *p)
{
	while (is_space(bc, *p))
		p++;
	return p;
}

static char *skip_comment(char *p)
{
	char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

static int fail(struct parse *ps, const char *msg, const char *at)
{
	ps->err->msg = msg;
	ps->err->pos = at - ps->bc->text;
	return -1;
}

/* ---- nodes ------------------------------------------------------------ */

/*
 * Allocate a node for text at @at. The kernel refuses data offsets at or
 * past XBC_DATA_MAX and reports that as "Too many nodes" too (only an empty
 * value at the very end of a 32767-byte config reaches it).
 */
static int new_node(struct parse *ps, const char *at, unsigned flag)
{
	struct bconf *bc = ps->bc;
	size_t off = (size_t)(at - bc->text);
	struct bconf_node *n;

	if (bc->count == bc->max || off >= BCONF_DATA_MAX)
		return fail(ps, "Too many nodes", at);
	n = &bc->nodes[bc->count];
	n->data = (uint16_t)(off | flag);
	n->next = n->child = 0;
	return (int)bc->count++;
}

/*
 * Link a new node under the current key: appended after its last child, or
 * (@head) in front, where a key keeps its value. Without a current key it
 * joins the top-level chain. Returns the node or -1.
 */
static int attach(struct parse *ps, const char *at, unsigned flag, int head)
{
	struct bconf *bc = ps->bc;
	int idx = new_node(ps, at, flag);
	struct bconf_node *n, *p;

	if (idx < 0)
		return -1;
	n = &bc->nodes[idx];
	if (ps->cur < 0) {
		n->parent = BN_NOPARENT;
		if (idx)
			bc->nodes[bc->top_tail].next = (uint16_t)idx;
		bc->top_tail = (uint16_t)idx;
		return idx;
	}
	p = &bc->nodes[ps->cur];
	n->parent = (uint16_t)ps->cur;
	if (!p->child || head) {
		if (!p->child)
			bc->tail[ps->cur] = (uint16_t)idx;
		n->next = p->child;
		p->child = (uint16_t)idx;
	} else {
		bc->nodes[bc->tail[ps->cur]].next = (uint16_t)idx;
		bc->tail[ps->cur] = (uint16_t)idx;
	}
	return idx;
}

/*
 * A new key word under ps->cur, going into index @slot: the node, or -1
 * with the error set. What attach() does for a key, minus its general
 * cases: this runs for every new key in the config.
 */
static int add_word(struct parse *ps, char *w, size_t len, uint32_t h,
		    unsigned slot)
{
	struct bconf *bc = ps->bc;
	size_t off = (size_t)(w - bc->text);
	unsigned n = bc->count;
	struct bconf_node *nd = &bc->nodes[n];

	if (n == bc->max || off >= BCONF_DATA_MAX)
		return fail(ps, "Too many nodes", w);
	nd->data = (uint16_t)off;
	nd->next = nd->child = 0;
	if (ps->cur < 0) {
		nd->parent = BN_NOPARENT;
		if (n)
			bc->nodes[bc->top_tail].next = (uint16_t)n;
		bc->top_tail = (uint16_t)n;
	} else {
		nd->parent = (uint16_t)ps->cur;
		if (bc->nodes[ps->cur].child)
			bc->nodes[bc->tail[ps->cur]].next = (uint16_t)n;
		else
			bc->nodes[ps->cur].child = (uint16_t)n;
		bc->tail[ps->cur] = (uint16_t)n;
	}
	bc->count++;
	if (bconf_index_at(bc, n, len, h, slot)) {
		ps->oom = 1;
		return fail(ps, "Out of memory", w);
	}
	return (int)n;
}

/* Descend into word @w of @len bytes (hash @h), creating it if new here. */
static int enter_hashed(struct parse *ps, char *w, size_t len, uint32_t h)
{
	unsigned parent = ps->cur < 0 ? BN_NOPARENT : (unsigned)ps->cur, slot = 0;
	int n;

	w[len] = '\0';
	n = bconf_probe(ps->bc, parent, w, len, h, &slot);
	if (n < 0)
		n = add_word(ps, w, len, h, slot);
	if (n < 0)
		return -1;
	ps->cur = n;
	return 0;
}

static int enter_word(struct parse *ps, char *w, size_t len)
{
	if (len == 0)
		return fail(ps, "Invalid keyword", w);
	return enter_hashed(ps, w, len, bconf_word_hash_text(w, len));
}

/*
 * Trim [*@k, *@end) in place as the kernel's strim() would; returns whether
 * anything is left.
 */
static int trim_span(const struct bconf *bc, char **k, char **end)
{
	char *s = *k, *e = *end;

	while (e > s && is_space(bc, e[-1]))
		e--;
	*e = '\0';
	while (is_space(bc, *s))
		s++;
	*k = s;
	*end = e;
	return s < e;
}

/*
 * A trimmed dotted key ending at a NUL: leaves ps->cur at its last word.
 * Words are checked and entered one at a time, left to right, as the
 * kernel does, so the first error is the kernel's first error.
 */
static int enter_key(struct parse *ps, char *k)
{
	const uint16_t *cls = ps->bc->cls;
	char *w;

	for (;;) {
		w = k;
		while (cls[(unsigned char)*k] & BC_WORD)
			k++;
		if (*k != '.' && *k != '\0')
			return fail(ps, "Invalid keyword", w);
		if (*k == '\0')
			return enter_word(ps, w, (size_t)(k - w));
		if (enter_word(ps, w, (size_t)(k - w)))
			return -1;
		k++;
	}
}

/*
 * The fast path for the common key: exactly "word(.word)* spaces" before a
 * tree delimiter, each word looked up (or added) as soon as it is read.
 * Returns the delimiter with ps->cur at the key, or NULL when the region
 * needs the kernel-shaped slow path (empty words, bad characters, more
 * than BCONF_DEPTH_MAX words, no delimiter, no room for a node). The words
 * entered before giving up are the ones the slow path enters first anyway,
 * so nothing differs; the slow path then reports the kernel's error.
 * A new word is NUL-terminated at once, as its node needs; if the region
 * then goes the slow way, those bytes are put back first.
 */
static char *read_key(struct parse *ps, char *p)
{
	struct bconf *bc = ps->bc;
	const uint16_t *cls = bc->cls;
	int cur = ps->cur, n, words = 0, dots = 0, i, last_new;
	char *dot[BCONF_DEPTH_MAX];
	unsigned slot = 0;	/* set by bconf_probe; 0 for -O1 -fsanitize=thread's -Wmaybe-uninitialized */
	size_t len;
	uint32_t h;
	char *w;

	for (;;) {
		w = p;
		p = bconf_span(cls, p, BC_WORD);
		len = (size_t)(p - w);
		if (!len || ++words > BCONF_DEPTH_MAX)
			goto slow;
		h = bconf_word_hash_text(w, len);
		n = bconf_probe(bc, cur < 0 ? BN_NOPARENT : (unsigned)cur, w,
				len, h, &slot);
		last_new = n < 0;
		if (last_new) {
			ps->cur = cur;
			n = add_word(ps, w, len, h, slot);
			if (n < 0)
				goto slow;
		}
		cur = n;
		if (*p != '.')
			break;
		if (last_new) {
			dot[dots++] = p;
			*p = '\0';
		}
		p++;
	}
	w = p;		/* just past the last word */
	p = bconf_span(cls, p, BC_HSPACE);
	if (cls[(unsigned char)*p] & BC_TREE) {
		if (last_new && w != p)
			*w = '\0';	/* a space; the delimiter is cut later */
		ps->cur = cur;
		return p;
	}
slow:
	for (i = 0; i < dots; i++)
		*dot[i] = '.';
	return NULL;
}

/*
 * Enter the key in [*@k, @end) unless read_key() did (@keyed). Returns 1
 * if there was a key, 0 for an empty region (only when @allow_empty), -1
 * on error.
 */
static int enter_region(struct parse *ps, char **k, char *end, int keyed,
			int allow_empty)
{
	if (keyed)
		return 1;
	if (!trim_span(ps->bc, k, &end) && allow_empty)
		return 0;
	return enter_key(ps, *k) ? -1 : 1;
}

/* ---- values ------------------------------------------------------------ */

/*
 * Cut one value out of the text at *@vp. Returns the delimiter that ended
 * it (0 at the end of the text; a comment counts as a newline) and sets
 * *@vp to the value and *@np past the delimiter; -1 on error.
 *
 * Kernel quirks kept: comments may precede the value (even on following
 * lines); an unquoted value ended by the end of the text is not trimmed.
 */
static int cut_value(struct parse *ps, char **vp, char **np)
{
	const struct bconf *bc = ps->bc;
	const uint16_t *cls = bc->cls;
	char *v = skip_spaces(bc, *vp), *p, *e;
	int c;

	while (*v == '#')
		v = skip_spaces(bc, skip_comment(v));
	if (*v == '"' || *v == '\'') {
		int quote = *v++;
		unsigned inside = quote == '"' ? BC_INDQ : BC_INSQ;

		p = bconf_span(cls, v, inside);
		if (*p == '\0')
			return fail(ps, "No closing quotes", p);
		if (*p != quote)
			return fail(ps, "Non printable value", p);
		*p++ = '\0';
		while (*p != '\n' && is_space(bc, *p))
			p++;
		c = *p;
		if (c && !is_value_delim(bc, (char)c))
			return fail(ps, "No value delimiter", p);
		if (c)
			p++;
	} else {
		p = bconf_span(cls, v, BC_PLAIN);
		c = *p;
		if (c && !is_value_delim(bc, (char)c))
			return fail(ps, "Non printable value", p);
		if (c) {
			for (e = p; e > v && is_space(bc, e[-1]); e--)
				;
			*e = '\0';
			p++;
		}
	}
	if (c == '#') {
		p = skip_comment(p);
		c = '\n';
	}
	*np = p;
	*vp = v;
	return c;
}

/*
 * Further elements after "v1,": each hangs off the previous one. The last
 * element of the array that starts at @first is kept in tail[@first], so
 * `+=` appends without walking the chain.
 */
static int parse_array(struct parse *ps, char **vp, int first)
{
	struct bconf *bc = ps->bc;
	char *next;
	int c;

	ps->cur = bc->tail[first];
	do {
		c = cut_value(ps, vp, &next);
		if (c < 0)
			return -1;
		ps->cur = attach(ps, *vp, BN_VALUE, 0);
		if (ps->cur < 0)
			return -1;
		*vp = next;
	} while (c == ',');
	bc->tail[first] = (uint16_t)ps->cur;
	return c;
}

static int close_brace(struct parse *ps, const char *at)
{
	if (ps->cur < 0 || ps->nbrace == 0 ||
	    ps->brace[ps->nbrace - 1] != ps->cur)
		return fail(ps, "Unexpected closing brace", at);
	ps->nbrace--;
	ps->cur = ps->nbrace ? ps->brace[ps->nbrace - 1] : -1;
	return 0;
}

/*
 * The value part of KEY OP VALUE[, VALUE…], with ps->cur at KEY and OP one
 * of '=', '+' (+=), ':' (:=). Returns the delimiter after the last value.
 */
static int set_value(struct parse *ps, char *v, char **next, int op)
{
	struct bconf *bc = ps->bc;
	int first, c, n;

	c = cut_value(ps, &v, next);
	if (c < 0)
		return -1;
	first = bc->nodes[ps->cur].child;
	if (first && bn_is_value(&bc->nodes[first])) {
		if (op == '=')
			return fail(ps, "Value is redefined", v);
		if (op == ':') {
			/* Replace in place: subkeys stay, old elements orphan. */
			size_t off = (size_t)(v - bc->text);

			if (off >= BCONF_DATA_MAX)
				return fail(ps, "Failed to override value", v);
			bc->nodes[first].data = (uint16_t)(off | BN_VALUE);
			bc->nodes[first].child = 0;
			bc->tail[first] = (uint16_t)first;
		} else {
			ps->cur = bc->tail[first];
			n = attach(ps, v, BN_VALUE, 1);
			if (n < 0)
				return -1;
			bc->tail[first] = (uint16_t)n;
		}
	} else {
		first = attach(ps, v, BN_VALUE, 1);
		if (first < 0)
			return -1;
		bc->tail[first] = (uint16_t)first;
	}
	if (c == ',')
		c = parse_array(ps, next, first);
	return c;
}

static int parse_kv(struct parse *ps, char **k, char *end, int keyed,
		    int saved, char *v, int op)
{
	char *next;
	int c;

	if (enter_region(ps, k, end, keyed, 0) < 0)
		return -1;
	c = set_value(ps, v, &next, op);
	if (c < 0)
		return -1;
	ps->cur = saved;
	if (c == '}' && close_brace(ps, next - 1))
		return -1;
	*k = next;
	return 0;
}

/* A value-less key (ended by ';', newline, '#' or '}'), or nothing. */
static int parse_bare_key(struct parse *ps, char **k, char *end, int keyed,
			  int saved, char *next)
{
	if (enter_region(ps, k, end, keyed, 1) < 0)
		return -1;
	ps->cur = saved;
	*k = next;
	return 0;
}

static int open_brace(struct parse *ps, char **k, char *end, int keyed,
		      char *next)
{
	if (enter_region(ps, k, end, keyed, 0) < 0)
		return -1;
	*k = next;
	if (ps->nbrace >= BCONF_DEPTH_MAX)
		return fail(ps, "Exceed max depth of braces", next - 1);
	ps->brace[ps->nbrace++] = (uint16_t)ps->cur;
	return 0;
}

static char *find_tree_delim(const struct bconf *bc, char *p)
{
	p = bconf_span(bc->cls, p, BC_KEYTEXT);
	return *p ? p : NULL;
}

static int parse_text(struct parse *ps)
{
	const uint16_t *cls = ps->bc->cls;
	char *p = ps->bc->text, *q, *end;
	int c, ret = 0, keyed, saved;

	while (!ret) {
		saved = ps->cur;
		/* Blank lines, comments and braces go straight to the slow scan. */
		/* (The slow path needs the region from its very start: the
		 * kernel reports an all-space key at its first byte.) */
		q = bconf_span(cls, p, BC_HSPACE);
		q = cls[(unsigned char)*q] & BC_WORD ? read_key(ps, q) : NULL;
		keyed = q != NULL;
		if (!q) {
			if (ps->oom)
				return -1;
			ps->cur = saved;
			q = find_tree_delim(ps->bc, p);
		}
		if (!q) {
			p = skip_spaces(ps->bc, p);
			return *p ? fail(ps, "No delimiter", p) : 0;
		}
		c = *q;
		end = q;
		*q++ = '\0';
		switch (c) {
		case ':':
		case '+':
			if (*q++ != '=')
				return fail(ps, c == '+' ? "Wrong '+' operator" :
					    "Wrong ':' operator", q - 2);
			/* fall through */
		case '=':
			ret = parse_kv(ps, &p, end, keyed, saved, q, c);
			break;
		case '{':
			ret = open_brace(ps, &p, end, keyed, q);
			break;
		case '#':
			q = skip_comment(q);
			/* fall through */
		case ';':
		case '\n':
			ret = parse_bare_key(ps, &p, end, keyed, saved, q);
			break;
		case '}':
			ret = parse_bare_key(ps, &p, end, keyed, saved, q);
			if (!ret)
				ret = close_brace(ps, q - 1);
			break;
		}
	}
	return ret;
}

/* ---- whole-tree checks (xbc_verify_tree) -------------------------------- */

/*
 * Key length and word count, walked the kernel's way: a key whose first
 * child is a value is treated as a leaf, so subkeys under a key that also
 * has a value are never measured. The kernel accepts such configs, so do we.
 */
static int check_limits(struct parse *ps)
{
	const struct bconf *bc = ps->bc;
	const struct bconf_node *nodes = bc->nodes;
	unsigned n = 0, m;
	int depth = 1, len = 0, wlen;

	for (;;) {
		wlen = bc->wlen[n] + 1;
		len += wlen;
		if (len > BCONF_KEYLEN_MAX)
			return fail(ps, "Too long key length", bn_text(bc, n));
		m = nodes[n].child;
		if (m && !bn_is_value(&nodes[m])) {
			n = m;
			if (++depth > BCONF_DEPTH_MAX)
				return fail(ps, "Too many key words",
					    bn_text(bc, n));
			continue;
		}
		len -= wlen;
		while (!nodes[n].next) {
			if (nodes[n].parent == BN_NOPARENT)
				return 0;
			n = nodes[n].parent;
			len -= bc->wlen[n] + 1;
			depth--;
		}
		n = nodes[n].next;
	}
}

static int verify(struct parse *ps)
{
	const struct bconf *bc = ps->bc;

	if (ps->nbrace)
		return fail(ps, "Brace is not closed",
			    bn_text(bc, ps->brace[ps->nbrace - 1]));
	if (bc->count == 0)
		return fail(ps, "Empty config", bc->text);
	return check_limits(ps);
}

/* ---- entry ------------------------------------------------------------ */

static struct bconf *alloc_tree(const char *text, size_t len, unsigned max)
{
	struct bconf *bc = calloc(1, sizeof(*bc));

	if (!bc)
		return NULL;
	/* A node needs at least one byte of text, so len bounds the count. */
	if (max > len + 1)
		max = (unsigned)len + 1;
	bc->max = max;
	bc->size = len;
	/* About one key word per 16 bytes of text: rarely a need to grow. */
	bc->slot_mask = 63;
	while (bc->slot_mask < len / 8 && bc->slot_mask < 2 * max)
		bc->slot_mask = 2 * bc->slot_mask + 1;
	bc->text = malloc(len + 1 + 8);
	bc->nodes = malloc(max * sizeof(*bc->nodes));
	bc->tail = malloc(max * sizeof(*bc->tail));
	bc->wlen = malloc(max * sizeof(*bc->wlen));
	bc->whash = malloc(max * sizeof(*bc->whash));
	bc->slots = calloc(bc->slot_mask + 1, sizeof(*bc->slots));
	if (!bc->text || !bc->nodes || !bc->tail || !bc->wlen || !bc->whash ||
	    !bc->slots) {
		bconf_free(bc);
		return NULL;
	}
	memcpy(bc->text, text, len);
	memset(bc->text + len, 0, 1 + 8);
	return bc;
}

struct bconf *bconf_parse(const char *text, size_t len,
			  const struct bconf_opts *opts, struct bconf_error *err)
{
	unsigned max = opts && opts->node_max ? opts->node_max : BCONF_NODE_MAX;
	struct parse ps = { .cur = -1, .err = err };
	struct bconf *bc;

	err->msg = NULL;
	err->pos = -1;
	err->line = err->col = 0;
	if (len == 0 || len > BCONF_DATA_MAX) {
		err->msg = len ? "Config data is too big" : "Config data is empty";
		return NULL;
	}
	if (max > BCONF_NODE_MAX)
		max = BCONF_NODE_MAX;
	bc = alloc_tree(text, len, max);
	if (!bc) {
		err->msg = "Out of memory";
		return NULL;
	}
	cls_init(bc->cls, opts ? opts->ctype : BCONF_CTYPE_TOOL);
	ps.bc = bc;
	if (parse_text(&ps) || verify(&ps)) {
		bconf_error_locate(err, text, len);
		bconf_free(bc);
		return NULL;
	}
	return bc;
}

void bconf_free(struct bconf *bc)
{
	if (!bc)
		return;
	free(bc->text);
	free(bc->nodes);
	free(bc->tail);
	free(bc->wlen);
	free(bc->whash);
	free(bc->slots);
	free(bc);
}

/*
 * Line and column as tools/bootconfig counts them: 1-based, a newline
 * belongs to the line it ends.
 */
void bconf_error_locate(struct bconf_error *err, const char *text, size_t len)
{
	long i;

	err->line = err->col = 0;
	if (err->pos < 0)
		return;
	err->line = 1;
	err->col = (int)err->pos + 1;
	for (i = 0; i < err->pos && (size_t)i < len; i++) {
		if (text[i] == '\n') {
			err->line++;
			err->col = (int)(err->pos - i);
		}
	}
}
