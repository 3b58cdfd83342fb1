/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kprobe's fetch argument, NAME=FETCH[:TYPE], checked as the kernel's
 * kernel/trace/trace_probe.c parses it (linux-source-6.1), against the
 * board's architecture (the register names of each arch's
 * regs_query_register_offset table) and the target kernel
 * (docs/kernel-facts.md 84-86).
 */
#ifndef BT_FETCHARG_H
#define BT_FETCHARG_H

#include "kernel/kcaps.h"
#include "util/bt_error.h"

/*
 * The arch family of a board's arch word ("x86_64", "arm64", "riscv",
 * "arm", "mips", "s390"), NULL when boottrace does not know its registers.
 */
const char *fetcharg_family(const char *arch);

/*
 * The register (without '%') that carries argument @n (1-based) of a
 * kernel function at its entry on @arch, NULL when the arch is unknown
 * or @n is past the arguments passed in registers.
 */
const char *fetcharg_arg_reg(const char *arch, int n);

/*
 * Check @spec, one NAME=FETCH[:TYPE] of a probe at a function's entry,
 * for a kernel on @arch (NULL or unknown: registers are not checked, and
 * $argN is refused). 0 when the kernel would take it; else -1 with @e:
 * its file is @spec (kept, not copied) and its offset the byte of @spec
 * where the kernel would stop, its message what to write instead.
 */
int fetcharg_check(const char *spec, const char *arch, const struct kcaps *k,
		   struct bt_error *e);

/*
 * What a call of @func creates, in words ("network device"), when its
 * first recorded value names the object (compile --who-creates), NULL when
 * boottrace knows of none: the report's answer then says "created by".
 */
const char *fetcharg_creates(const char *func);

#endif /* BT_FETCHARG_H */
