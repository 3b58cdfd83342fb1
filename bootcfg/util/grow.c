/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int bt_grow_to(void *pp, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 8;
	void *old, *np;

	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return -1;
	/* the caller's pointer is read and written as bytes: it may be any T * */
	memcpy(&old, pp, sizeof(old));
	np = realloc(old, ncap * elem);
	if (!np)
		return -1;
	memcpy(pp, &np, sizeof(np));
	*cap = ncap;
	return 0;
}
