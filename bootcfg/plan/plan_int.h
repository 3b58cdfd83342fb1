/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the files that build a plan (plan*.c). */
#ifndef BT_PLAN_INT_H
#define BT_PLAN_INT_H

#include "plan/plan.h"

/* A composed key and its NUL. */
#define NKEY (BCONF_KEYLEN_MAX + 1)

char *plan_own(struct plan *p, const char *s, size_t n);
int plan_oom(const struct plan *p, struct bt_error *e);
int plan_unknown(const struct plan *p, int node, const char *const *cands,
		 const char *where, struct bt_error *e);
int plan_single(struct plan *p, int key, struct plan_val *out,
		struct bt_error *e);
int plan_values(struct plan *p, int key, struct plan_list *l, int nonempty,
		struct bt_error *e);
void plan_inst_clear(struct plan_inst *in);
/* Append leaf @leaf (named relative to @root) to a word array. */
int plan_add_word(struct plan *p, struct plan_word **arr, size_t *n,
		  size_t *cap, int root, int leaf, struct bt_error *e);
/* kernel.*: legacy tracing parameters into the plan, the rest as words. */
int plan_read_kernel(struct plan *p, int node, struct bt_error *e);
/*
 * The boottrace.* keys: the one table of what the hook reads
 * (initramfs-hook/README.md "Settings") and what compile keeps to itself
 * (plan_check.c). Each key's kind says how its value is checked.
 */
enum plan_hook_kind {
	PH_FLAG,	/* 0/1, yes/no, on/off, ... (plan_flag) */
	PH_FOLLOW,	/* a flag, or keep */
	PH_NUMBER,	/* decimal in [min, max] */
	PH_DEST,	/* run, console, /dev/NAME, LABEL=L, UUID=U */
	PH_TEXT,	/* any one value */
	PH_ARM,		/* FUNC:mod:MODULE list (the plan's arm) */
	PH_CRASH,	/* boottrace.crash: a list of capture modes */
	PH_HANG,	/* panic or off */
	PH_SIGNED,	/* decimal, '-' allowed, in [-min, max] */
	PH_SIZE,	/* N, NK or NM bytes, in [min, max] */
	PH_ASK,		/* KIND:OBJECT, the boot's question (kernel/ask.h) */
};

struct plan_hook_key {
	const char *name;
	enum plan_hook_kind kind;
	unsigned long long min, max;
	/*
	 * Compile's own key, which the hook never sees: the offset of its
	 * struct plan_val in struct plan (PH_CRASH: of the list); 0 for the
	 * hook's.
	 */
	size_t own;
};

/* The row of boottrace.@name, or NULL. */
const struct plan_hook_key *plan_hook_key(const char *name);
/* Is @v a good value of own key @k? -1 with @e at @node if not. */
int plan_check_own(struct plan *p, const struct plan_hook_key *k,
		   const char *v, int node, struct bt_error *e);
/* The names, NULL-terminated, for "did you mean". */
const char *const *plan_hook_names(void);
/* Checks across the whole plan (values the kernel would reject). */
int plan_check(struct plan *p, struct bt_error *e);

#endif /* BT_PLAN_INT_H */
