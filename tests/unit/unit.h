/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Common includes for the cmocka unit tests. */
#ifndef BT_UNIT_H
#define BT_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#endif
