// SPDX-License-Identifier: GPL-2.0-or-later
/* Walking and searching a parsed tree. */
#include <string.h>

#include "bconf_int.h"

static int valid(const struct bconf *bc, int n)
{
	return bc && n >= 0 && (unsigned)n < bc->count;
}

/* 0 is "none" for links, see bconf_int.h. */
static int link_of(uint16_t l)
{
	return l ? (int)l : BCONF_NONE;
}

int bconf_node_count(const struct bconf *bc)
{
	return bc ? (int)bc->count : 0;
}

int bconf_root(const struct bconf *bc)
{
	return bc && bc->count ? 0 : BCONF_NONE;
}

int bconf_next(const struct bconf *bc, int n)
{
	return valid(bc, n) ? link_of(bc->nodes[n].next) : BCONF_NONE;
}

int bconf_child(const struct bconf *bc, int n)
{
	return valid(bc, n) ? link_of(bc->nodes[n].child) : BCONF_NONE;
}

int bconf_parent(const struct bconf *bc, int n)
{
	if (!valid(bc, n) || bc->nodes[n].parent == BN_NOPARENT)
		return BCONF_NONE;
	return bc->nodes[n].parent;
}

int bconf_is_value(const struct bconf *bc, int n)
{
	return valid(bc, n) && bn_is_value(&bc->nodes[n]);
}

int bconf_is_array(const struct bconf *bc, int v)
{
	return bconf_is_value(bc, v) && bc->nodes[v].child != 0;
}

const char *bconf_data(const struct bconf *bc, int n)
{
	return valid(bc, n) ? bn_text(bc, (unsigned)n) : NULL;
}

long bconf_pos(const struct bconf *bc, int n)
{
	return valid(bc, n) ? (long)(bc->nodes[n].data & ~BN_VALUE) : -1;
}

int bconf_value_node(const struct bconf *bc, int key)
{
	int c = bconf_child(bc, key);

	return bconf_is_value(bc, c) ? c : BCONF_NONE;
}

int bconf_subkey(const struct bconf *bc, int key)
{
	int c = bconf_child(bc, key);

	return bconf_is_value(bc, c) ? bconf_next(bc, c) : c;
}

int bconf_find(const struct bconf *bc, int parent, const char *key)
{
	unsigned p = BN_NOPARENT;
	const char *dot;
	size_t len;
	int n = parent;

	if (!bc || !key || (parent != BCONF_NONE && !valid(bc, parent)))
		return BCONF_NONE;
	if (parent != BCONF_NONE) {
		if (bn_is_value(&bc->nodes[parent]))
			return BCONF_NONE;
		p = (unsigned)parent;
	}
	do {
		dot = strchr(key, '.');
		len = dot ? (size_t)(dot - key) : strlen(key);
		n = bconf_lookup_word(bc, p, key, len);
		if (n < 0)
			return BCONF_NONE;
		p = (unsigned)n;
		if (dot)
			key = dot + 1;
	} while (dot);
	return n;
}

const char *bconf_find_value(const struct bconf *bc, int parent,
			     const char *key, int *vnode)
{
	int n = bconf_find(bc, parent, key), c;

	if (vnode)
		*vnode = BCONF_NONE;
	if (n == BCONF_NONE)
		return NULL;
	c = bconf_child(bc, n);
	if (c == BCONF_NONE)
		return "";
	if (!bconf_is_value(bc, c))
		return NULL;
	if (vnode)
		*vnode = c;
	return bconf_data(bc, c);
}

static int is_leaf(const struct bconf *bc, int n)
{
	int c = bconf_child(bc, n);

	return !bconf_is_value(bc, n) && (c == BCONF_NONE || bconf_is_value(bc, c));
}

static int first_leaf(const struct bconf *bc, int n)
{
	while (n != BCONF_NONE && !is_leaf(bc, n))
		n = bconf_child(bc, n);
	return n;
}

/* Leaf order as xbc_node_find_next_leaf(): a key with a value comes before
 * its own subkeys. */
int bconf_next_leaf(const struct bconf *bc, int root, int leaf)
{
	int n;

	if (!bc || !bc->count)
		return BCONF_NONE;
	if (leaf == BCONF_NONE)
		return first_leaf(bc, root == BCONF_NONE ? 0 : root);
	n = bconf_subkey(bc, leaf);
	if (n != BCONF_NONE)
		return first_leaf(bc, n);
	if (leaf == root)
		return BCONF_NONE;
	n = leaf;
	while (bconf_next(bc, n) == BCONF_NONE) {
		n = bconf_parent(bc, n);
		if (n == root || n == BCONF_NONE)
			return BCONF_NONE;
	}
	return first_leaf(bc, bconf_next(bc, n));
}

/* The key of a value node is the parent of its first element. */
static int key_of(const struct bconf *bc, int n)
{
	while (bconf_is_value(bc, n))
		n = bconf_parent(bc, n);
	return n;
}

/*
 * Written back to front, so keys of any depth need no stack: the words are
 * counted on the way up, then copied into place on a second walk.
 */
int bconf_compose_key(const struct bconf *bc, int root, int node, char *buf,
		      size_t size)
{
	size_t total = 0, pos, len;
	int n;

	if (!valid(bc, node) || node == root)
		return -1;
	node = key_of(bc, node);
	for (n = node; n != BCONF_NONE && n != root; n = bconf_parent(bc, n))
		total += strlen(bconf_data(bc, n)) + 1;
	if (n != root || total == 0)
		return -1;
	total--;
	if (size == 0)
		return (int)total;
	buf[total < size ? total : size - 1] = '\0';
	pos = total;
	for (n = node; n != root; n = bconf_parent(bc, n)) {
		len = strlen(bconf_data(bc, n));
		pos -= len;
		if (pos < size - 1)
			memcpy(buf + pos, bconf_data(bc, n),
			       (pos + len < size - 1 ? len : size - 1 - pos));
		if (pos == 0)
			break;
		pos--;
		if (pos < size - 1)
			buf[pos] = '.';
	}
	return (int)total;
}
