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
	int cur;		/* key new words attach to; -1 = top level */
	int nbrace;
	uint16_t brace[BCONF_DEPTH_MAX];
	struct bconf_error *err;
};

/* ---- character classes ----------------------------------------------- */

static void cls_init(unsigned char *cls, enum bconf_ctype ct)
{
	int c;

	memset(cls, 0, 256);
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
		if (ct != BCONF_CTYPE_KERNEL || c < 0xa0)
			continue;
		/* lib/ctype.c: Latin-1 upper half */
		cls[c] |= BC_PRINT;
		if (c == 0xa0)
			cls[c] |= BC_SPACE;
		if (c >= 0xc0 && c != 0xd7 && c != 0xf7)
			cls[c] |= BC_WORD;
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

/* Trim both ends in place, as the kernel's strim(). */
static char *trim(const struct bconf *bc, char *s)
{
	char *end = s + strlen(s);

	while (end > s && is_space(bc, end[-1]))
		end--;
	*end = '\0';
	return skip_spaces(bc, s);
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

static unsigned word_hash(unsigned parent, const char *w, size_t len)
{
	uint32_t h = 2166136261u ^ parent;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)w[i]) * 16777619u;
	return h;
}

int bconf_lookup_word(const struct bconf *bc, unsigned parent, const char *w,
		      size_t wlen)
{
	unsigned i = word_hash(parent, w, wlen) & bc->slot_mask;
	unsigned n;

	while ((n = bc->slots[i]) != 0) {
		n--;
		if (bc->nodes[n].parent == parent &&
		    !strncmp(bn_text(bc, n), w, wlen) && !bn_text(bc, n)[wlen])
			return (int)n;
		i = (i + 1) & bc->slot_mask;
	}
	return -1;
}

static void index_word(struct bconf *bc, unsigned n, size_t wlen)
{
	unsigned i = word_hash(bc->nodes[n].parent, bn_text(bc, n), wlen) &
		     bc->slot_mask;

	while (bc->slots[i])
		i = (i + 1) & bc->slot_mask;
	bc->slots[i] = (uint16_t)(n + 1);
}

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

static int valid_word(const struct bconf *bc, const char *w, size_t *len)
{
	const char *p = w;

	while (bc->cls[(unsigned char)*p] & BC_WORD)
		p++;
	*len = (size_t)(p - w);
	return *w && !*p;
}

/* Descend into word @w, creating it if the current key has no such child. */
static int enter_word(struct parse *ps, char *w)
{
	struct bconf *bc = ps->bc;
	unsigned parent = ps->cur < 0 ? BN_NOPARENT : (unsigned)ps->cur;
	size_t len;
	int n;

	if (!valid_word(bc, w, &len))
		return fail(ps, "Invalid keyword", w);
	n = bconf_lookup_word(bc, parent, w, len);
	if (n < 0) {
		n = attach(ps, w, 0, 0);
		if (n < 0)
			return -1;
		index_word(bc, (unsigned)n, len);
	}
	ps->cur = n;
	return 0;
}

/* A dotted key: leaves ps->cur at its last word. */
static int enter_key(struct parse *ps, char *k)
{
	char *dot;

	k = trim(ps->bc, k);
	while ((dot = strchr(k, '.')) != NULL) {
		*dot = '\0';
		if (enter_word(ps, k))
			return -1;
		k = dot + 1;
	}
	return enter_word(ps, k);
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
	char *v = skip_spaces(bc, *vp), *p;
	int quote = 0, c;

	while (*v == '#')
		v = skip_spaces(bc, skip_comment(v));
	if (*v == '"' || *v == '\'')
		quote = *v++;
	for (p = v; (c = *p) != 0; p++) {
		if (!(bc->cls[(unsigned char)c] & (BC_PRINT | BC_SPACE)))
			return fail(ps, "Non printable value", p);
		if (quote) {
			if (c != quote)
				continue;
			quote = 0;
			*p++ = '\0';
			while (*p != '\n' && is_space(bc, *p))
				p++;
			c = *p;
			if (c && !is_value_delim(bc, (char)c))
				return fail(ps, "No value delimiter", p);
			if (c)
				p++;
			break;
		}
		if (is_value_delim(bc, (char)c)) {
			*p++ = '\0';
			v = trim(bc, v);
			break;
		}
	}
	if (quote)
		return fail(ps, "No closing quotes", p);
	if (c == '#') {
		p = skip_comment(p);
		c = '\n';
	}
	*np = p;
	*vp = v;
	return c;
}

/* Further elements after "v1,": each hangs off the previous one. */
static int parse_array(struct parse *ps, char **vp)
{
	struct bconf_node *nodes = ps->bc->nodes;
	char *next;
	int c;

	if (nodes[ps->cur].child)
		ps->cur = nodes[ps->cur].child;
	do {
		c = cut_value(ps, vp, &next);
		if (c < 0)
			return -1;
		ps->cur = attach(ps, *vp, BN_VALUE, 0);
		if (ps->cur < 0)
			return -1;
		*vp = next;
	} while (c == ',');
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

static int last_element(const struct bconf *bc, int v)
{
	while (bc->nodes[v].child)
		v = bc->nodes[v].child;
	return v;
}

/* KEY OP VALUE[, VALUE…] with OP one of '=', '+' (+=), ':' (:=). */
static int parse_kv(struct parse *ps, char **k, char *v, int op)
{
	struct bconf *bc = ps->bc;
	int saved = ps->cur, first, c;
	char *next;

	if (enter_key(ps, *k))
		return -1;
	c = cut_value(ps, &v, &next);
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
			goto array;
		}
		ps->cur = last_element(bc, first);
	}
	if (attach(ps, v, BN_VALUE, 1) < 0)
		return -1;
array:
	if (c == ',') {
		c = parse_array(ps, &next);
		if (c < 0)
			return -1;
	}
	ps->cur = saved;
	if (c == '}' && close_brace(ps, next - 1))
		return -1;
	*k = next;
	return 0;
}

/* A value-less key (ended by ';', newline, '#' or '}'), or nothing. */
static int parse_bare_key(struct parse *ps, char **k, char *next)
{
	int saved = ps->cur;

	*k = trim(ps->bc, *k);
	if (**k) {
		if (enter_key(ps, *k))
			return -1;
		ps->cur = saved;
	}
	*k = next;
	return 0;
}

static int open_brace(struct parse *ps, char **k, char *next)
{
	if (enter_key(ps, *k))
		return -1;
	*k = next;
	if (ps->nbrace >= BCONF_DEPTH_MAX)
		return fail(ps, "Exceed max depth of braces", next - 1);
	ps->brace[ps->nbrace++] = (uint16_t)ps->cur;
	return 0;
}

static char *find_tree_delim(const struct bconf *bc, char *p)
{
	while (*p && !(bc->cls[(unsigned char)*p] & BC_TREE))
		p++;
	return *p ? p : NULL;
}

static int parse_text(struct parse *ps)
{
	char *p = ps->bc->text, *q;
	int c, ret = 0;

	while (!ret) {
		q = find_tree_delim(ps->bc, p);
		if (!q) {
			p = skip_spaces(ps->bc, p);
			return *p ? fail(ps, "No delimiter", p) : 0;
		}
		c = *q;
		*q++ = '\0';
		switch (c) {
		case ':':
		case '+':
			if (*q++ != '=')
				return fail(ps, c == '+' ? "Wrong '+' operator" :
					    "Wrong ':' operator", q - 2);
			/* fall through */
		case '=':
			ret = parse_kv(ps, &p, q, c);
			break;
		case '{':
			ret = open_brace(ps, &p, q);
			break;
		case '#':
			q = skip_comment(q);
			/* fall through */
		case ';':
		case '\n':
			ret = parse_bare_key(ps, &p, q);
			break;
		case '}':
			ret = parse_bare_key(ps, &p, q);
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
		wlen = (int)strlen(bn_text(bc, n)) + 1;
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
			len -= (int)strlen(bn_text(bc, n)) + 1;
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
	unsigned slots = 16;

	if (!bc)
		return NULL;
	/* A node needs at least one byte of text, so len bounds the count. */
	if (max > len + 1)
		max = (unsigned)len + 1;
	while (slots < 2 * max)
		slots <<= 1;
	bc->max = max;
	bc->size = len;
	bc->slot_mask = slots - 1;
	bc->text = malloc(len + 1);
	bc->nodes = malloc(max * sizeof(*bc->nodes));
	bc->tail = malloc(max * sizeof(*bc->tail));
	bc->slots = calloc(slots, sizeof(*bc->slots));
	if (!bc->text || !bc->nodes || !bc->tail || !bc->slots) {
		bconf_free(bc);
		return NULL;
	}
	memcpy(bc->text, text, len);
	bc->text[len] = '\0';
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
