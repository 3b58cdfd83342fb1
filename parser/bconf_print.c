// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The two outputs of tools/bootconfig, byte for byte: the compact tree
 * (default) and the list (-l). Scripts and people diff these against the
 * kernel's tool, so even its oddities are part of the format.
 */
#include <string.h>

#include "bconf_int.h"

struct out {
	bconf_write_fn fn;
	void *ctx;
	int failed;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (!o->failed && n && o->fn(o->ctx, s, n))
		o->failed = 1;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void indent(struct out *o, int depth)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

	for (; depth > 16; depth -= 16)
		put(o, tabs, 16);
	put(o, tabs, (size_t)depth);
}

/*
 * Every element of the array starting at @v, each quoted with ' if it
 * holds a " (there is no escape), else with ", separated by ", " and ended
 * by @eol.
 */
static void put_values(struct out *o, const struct bconf *bc, unsigned v,
		       const char *eol)
{
	const struct bconf_node *n;
	const char *s;
	char q;

	for (;;) {
		n = &bc->nodes[v];
		s = bn_text(bc, v);
		q = strchr(s, '"') ? '\'' : '"';
		put(o, &q, 1);
		puts_(o, s);
		put(o, &q, 1);
		if (!n->child)
			break;
		puts_(o, ", ");
		v = n->child;
	}
	puts_(o, eol);
}

static void put_word(struct out *o, const struct bconf *bc, unsigned n,
		     const char *suffix)
{
	puts_(o, bn_text(bc, n));
	puts_(o, suffix);
}

static int is_key(const struct bconf *bc, unsigned n)
{
	return n && !bn_is_value(&bc->nodes[n]);
}

/*
 * Chains of single subkeys print joined by dots ("a.b.c = ..."), a key with
 * several subkeys opens a brace block, and a key with a value and subkeys
 * prints the value line first and then its subkeys at the same depth. The
 * walk is the tool's: when climbing out of a key whose first child has a
 * sibling it closes one brace, whether or not it opened one (a key with a
 * value and a single subkey, nested in a block, closes its parent's block
 * early). Node 0 is the first top-level key, and 0 means "none" in links.
 */
int bconf_print_tree(const struct bconf *bc, bconf_write_fn fn, void *ctx)
{
	struct out o = { fn, ctx, 0 };
	const struct bconf_node *nd;
	unsigned node = 0, cnode = 0, vnode;
	int depth = 0, have_c = 0;

	if (!bc || !bc->count)
		return 0;
	nd = bc->nodes;
	for (;;) {
		indent(&o, depth);
		if (!have_c)
			cnode = nd[node].child;
		have_c = 0;
		while (is_key(bc, cnode) && !nd[cnode].next) {
			vnode = nd[cnode].child;
			if (vnode && bn_is_value(&nd[vnode]) && nd[vnode].next)
				break;
			put_word(&o, bc, node, ".");
			node = cnode;
			cnode = vnode;
		}
		if (is_key(bc, cnode)) {
			put_word(&o, bc, node, " {\n");
			depth++;
			node = cnode;
			continue;
		}
		if (cnode) {
			put_word(&o, bc, node, " = ");
			put_values(&o, bc, cnode, ";\n");
			if (nd[cnode].next) {
				cnode = nd[cnode].next;
				have_c = 1;
				continue;
			}
		} else {
			put_word(&o, bc, node, ";\n");
		}
		while (!nd[node].next) {
			if (nd[node].parent == BN_NOPARENT)
				return o.failed ? -1 : 0;
			node = nd[node].parent;
			if (!nd[nd[node].child].next)
				continue;
			if (depth) {
				depth--;
				indent(&o, depth);
				puts_(&o, "}\n");
			}
		}
		node = nd[node].next;
	}
}

/*
 * tools/bootconfig composes each key into a 256-byte buffer and gives up on
 * keys of 16 or more words ("Failed to compose key"), after printing the
 * leaves before it. Keep both limits so the output stays the same.
 */
#define LIST_KEY_BUF 256
#define LIST_MAX_WORDS 16

static int words_in(const struct bconf *bc, int n)
{
	int words = 0;

	for (; n != BCONF_NONE; n = bconf_parent(bc, n))
		words++;
	return words;
}

int bconf_print_list(const struct bconf *bc, bconf_write_fn fn, void *ctx)
{
	struct out o = { fn, ctx, 0 };
	char key[LIST_KEY_BUF];
	int leaf = BCONF_NONE, v;

	while ((leaf = bconf_next_leaf(bc, BCONF_NONE, leaf)) != BCONF_NONE) {
		if (words_in(bc, leaf) >= LIST_MAX_WORDS)
			return o.failed ? -1 : 1;
		bconf_compose_key(bc, BCONF_NONE, leaf, key, sizeof(key));
		puts_(&o, key);
		puts_(&o, " = ");
		v = bconf_value_node(bc, leaf);
		if (v == BCONF_NONE || !bconf_data(bc, v)[0])
			puts_(&o, "\"\"\n");
		else
			put_values(&o, bc, (unsigned)v, "\n");
	}
	return o.failed ? -1 : 0;
}
