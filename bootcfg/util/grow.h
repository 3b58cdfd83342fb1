/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way an array grows here (after git's ALLOC_GROW): make room for
 * @need elements in the array @p whose capacity is @cap, doubling so that
 * appends stay amortized O(1). On failure the array and @cap are unchanged,
 * so the caller still owns and frees what it had.
 *
 *	if (BT_GROW(t->v, t->n + 1, t->cap) < 0)
 *		return -1;
 *	t->v[t->n++] = x;
 */
#ifndef BT_GROW_H
#define BT_GROW_H

#include <stddef.h>

#define BT_GROW(p, need, cap)                                               \
	((size_t)(need) <= (cap) ? 0                                        \
				 : bt_grow_to((void *)&(p), &(cap), (need), \
					      sizeof(*(p))))

/* 0, or -1 (no memory, or the size overflows) with *@pp and @cap unchanged. */
int bt_grow_to(void *pp, size_t *cap, size_t need, size_t elem);

#endif /* BT_GROW_H */
