// SPDX-License-Identifier: GPL-2.0-or-later
/* A kprobe's fetch argument, checked as the kernel parses it (fetcharg.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/fetcharg.h"

/*
 * Each arch's register names as its regs_query_register_offset() takes
 * them (arch/ARCH/kernel/ptrace.c, linux-source-6.1), and the registers
 * of the first function arguments (docs/kernel-facts.md 84).
 */
struct fa_arch {
	const char *family;
	const char *const *regs;	/* NULL-terminated; NULL: numbered */
	const char *num_prefix;		/* numbered: PREFIX0..PREFIX(nnum-1) */
	int nnum;
	const char *const *args;	/* NULL-terminated */
	int arg_access;			/* HAVE_FUNCTION_ARG_ACCESS_API: $argN */
};

static const char *const x86_regs[] = {
	"r15", "r14", "r13", "r12", "r11", "r10", "r9", "r8", "bx", "cx", "dx",
	"si", "di", "bp", "ax", "orig_ax", "ip", "cs", "flags", "sp", "ss", NULL
};
static const char *const x86_args[] = { "di", "si", "dx", "cx", "r8", "r9", NULL };

static const char *const arm64_regs[] = { "sp", "pc", "pstate", NULL };
static const char *const arm64_args[] = { "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", NULL };

static const char *const riscv_regs[] = {
	"epc", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1",
	"a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "status", "badaddr",
	"cause", "orig_a0", NULL
};
static const char *const riscv_args[] = { "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", NULL };

static const char *const arm_regs[] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp",
	"ip", "sp", "lr", "pc", "cpsr", "ORIG_r0", NULL
};
static const char *const arm_args[] = { "r0", "r1", "r2", "r3", NULL };

/* MIPS names its registers r0..r31 (no $a0): a0 is r4, both ABIs */
static const char *const mips_regs[] = {
	"c0_status", "hi", "lo", "c0_badvaddr", "c0_cause", "c0_epc", NULL
};
static const char *const mips_args[] = { "r4", "r5", "r6", "r7", NULL };

/* s390 takes rN below NUM_GPRS (16); arguments from r2 */
static const char *const s390_args[] = { "r2", "r3", "r4", "r5", "r6", NULL };

static const struct fa_arch fa_arches[] = {
	{ "x86_64", x86_regs, NULL, 0, x86_args, 1 },
	{ "arm64", arm64_regs, "x", 31, arm64_args, 1 },
	{ "riscv", riscv_regs, NULL, 0, riscv_args, 1 },
	{ "arm", arm_regs, NULL, 0, arm_args, 0 },
	{ "mips", mips_regs, "r", 32, mips_args, 0 },
	{ "s390", NULL, "r", 16, s390_args, 1 },
};

const char *fetcharg_family(const char *arch)
{
	if (!arch)
		return NULL;
	if (!strcmp(arch, "x86_64") || !strcmp(arch, "amd64"))
		return "x86_64";
	if (!strcmp(arch, "arm64") || !strcmp(arch, "aarch64"))
		return "arm64";
	if (!strncmp(arch, "riscv", 5))
		return "riscv";
	if (!strcmp(arch, "arm") || !strncmp(arch, "armv", 4) ||
	    !strcmp(arch, "armhf") || !strcmp(arch, "armel"))
		return "arm";
	if (!strncmp(arch, "mips", 4))
		return "mips";
	if (!strncmp(arch, "s390", 4))
		return "s390";
	return NULL;
}

static const struct fa_arch *fa_find(const char *arch)
{
	const char *f = fetcharg_family(arch);
	size_t i;

	for (i = 0; f && i < sizeof(fa_arches) / sizeof(fa_arches[0]); i++)
		if (!strcmp(fa_arches[i].family, f))
			return &fa_arches[i];
	return NULL;
}

const char *fetcharg_arg_reg(const char *arch, int n)
{
	const struct fa_arch *a = fa_find(arch);
	int i;

	if (!a || n < 1)
		return NULL;
	for (i = 0; a->args[i]; i++)
		if (i == n - 1)
			return a->args[i];
	return NULL;
}

/* Is @s (@n bytes) a register name of @a? */
static int fa_is_reg(const struct fa_arch *a, const char *s, size_t n)
{
	size_t i, p;
	unsigned long v;

	for (i = 0; a->regs && a->regs[i]; i++)
		if (strlen(a->regs[i]) == n && !memcmp(a->regs[i], s, n))
			return 1;
	if (!a->num_prefix)
		return 0;
	p = strlen(a->num_prefix);
	if (n <= p || n > p + 2 || memcmp(s, a->num_prefix, p))
		return 0;
	for (i = p, v = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return 0;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	/* "x01" is not x1 to the tables that compare names */
	return v < (unsigned long)a->nnum && (n == p + 1 || s[p] != '0');
}

/* A few register names of @a for a message: "di, si, dx, ...". */
static void fa_reg_hint(const struct fa_arch *a, char *buf, size_t cap)
{
	size_t at = 0;
	int i;

	buf[0] = 0;
	for (i = 0; a->args[i] && at < cap; i++)
		at += (size_t)snprintf(buf + at, cap - at, "%s%%%s", i ? ", " : "",
				       a->args[i]);
}

struct fa_ctx {
	const char *spec;
	const char *arch;
	const struct fa_arch *a;
	const struct kcaps *k;
	struct bt_error *e;
};

__attribute__((format(printf, 3, 4)))
static int fa_fail(struct fa_ctx *c, const char *at, const char *fmt, ...)
{
	va_list ap;
	char msg[400];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	bt_error_set(c->e, BT_EXIT_USAGE, c->spec, "%s", msg);
	c->e->off = at - c->spec;
	return -1;
}

/* An unsigned number of base 0 as kstrtoul takes it, all of [s, end). */
static int fa_number(const char *s, const char *end, unsigned long *v)
{
	char buf[32], *x;
	size_t n = (size_t)(end - s);

	if (!n || n >= sizeof(buf) || !isdigit((unsigned char)*s))
		return 0;
	memcpy(buf, s, n);
	buf[n] = 0;
	*v = strtoul(buf, &x, 0);
	return *x == 0;
}

/* $VAR at a function's entry: $stack, $stackN, $comm, $argN. */
static int fa_var(struct fa_ctx *c, const char *s, const char *end)
{
	size_t n = (size_t)(end - s);
	unsigned long v;
	char hint[80];

	if ((n == 5 && !memcmp(s, "stack", 5)) ||
	    (n == 4 && (!memcmp(s, "comm", 4) || !memcmp(s, "COMM", 4))))
		return 0;
	if (n > 5 && !memcmp(s, "stack", 5) && fa_number(s + 5, end, &v))
		return 0;
	if (n == 6 && !memcmp(s, "retval", 6))
		return fa_fail(c, s - 1, "$retval is the value a function returns, which only a return probe (r:) has; --who-calls probes the function's entry");
	if (n > 3 && !memcmp(s, "arg", 3)) {
		if (!fa_number(s + 3, end, &v) || !v || v > 64)
			return fa_fail(c, s + 3, "$argN counts the function's arguments from 1: $arg1, $arg2, ...");
		if (!c->a || !c->a->arg_access)
			return fa_fail(c, s - 1, "$arg%lu: the kernel has no function-argument access (HAVE_FUNCTION_ARG_ACCESS_API) on %s%s; name the register instead%s%s",
				       v, c->arch ? c->arch : "an unknown arch",
				       c->a ? "" : " (give -b BOARD)",
				       c->a ? ": " : "",
				       c->a ? (fa_reg_hint(c->a, hint, sizeof(hint)), hint) : "");
		if (c->k && c->k->version && c->k->version < KVER(6, 1))
			return fa_fail(c, s - 1, "$arg%lu: boottrace knows function-argument access on %s from Linux 6.1's sources only, and the kernel is %s; name the register instead: %s",
				       v, c->a->family, kcaps_name(c->k),
				       (fa_reg_hint(c->a, hint, sizeof(hint)), hint));
		return 0;
	}
	return fa_fail(c, s - 1, "'$%.*s' is not a variable of a kprobe at a function's entry: $argN, $stackN, $stack or $comm", (int)n, s);
}

/* FETCH in [s, end): what parse_probe_arg() takes for a kprobe. */
static int fa_fetch(struct fa_ctx *c, const char *s, const char *end,
		    int depth, int *mem)
{
	const char *p, *open, *close;
	unsigned long v;
	char hint[80];

	*mem = 0;
	if (s == end)
		return fa_fail(c, s, "nothing to fetch: give %%REG, $argN, +OFF(%%REG), @SYMBOL or $comm");
	if (depth > 8)
		return fa_fail(c, s, "too many nested +OFF(...): the kernel takes a few");
	switch (*s) {
	case '%':
		if (!c->a)
			return 0;	/* unchecked: the caller says so */
		if (fa_is_reg(c->a, s + 1, (size_t)(end - s - 1)))
			return 0;
		fa_reg_hint(c->a, hint, sizeof(hint));
		return fa_fail(c, s + 1, "'%.*s' is not a register name of %s (arch/%s/kernel/ptrace.c); its function arguments come in %s",
			       (int)(end - s - 1), s + 1, c->a->family,
			       !strcmp(c->a->family, "x86_64") ? "x86" : c->a->family, hint);
	case '$':
		return fa_var(c, s + 1, end);
	case '@':
		*mem = 1;
		if (s + 1 < end && isdigit((unsigned char)s[1]))
			return fa_number(s + 1, end, &v) ? 0 :
			       fa_fail(c, s + 1, "@ADDR is a number (0x... or decimal)");
		if (s + 1 < end && s[1] == '+')
			return fa_fail(c, s + 1, "@+OFFSET (a file offset) is for uprobes; a kprobe takes @ADDR or @SYMBOL[+OFF]");
		for (p = s + 1; p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '.'); p++)
			;
		if (p == s + 1)
			return fa_fail(c, p, "@ needs an address or a symbol: @0xADDR or @SYMBOL[+OFF]");
		if (p < end && (*p == '+' || *p == '-') && fa_number(p + 1, end, &v))
			return 0;
		return p == end ? 0 : fa_fail(c, p, "after @SYMBOL only +OFF or -OFF may follow");
	case '+':
	case '-':
		*mem = 1;
		p = s + 1;
		if (p < end && *p == 'u')
			p++;
		for (open = p; open < end && *open != '('; open++)
			;
		if (open == end)
			return fa_fail(c, s, "+OFF(FETCH) needs its '(': e.g. +0(%%%s)",
				       c->a ? c->a->args[0] : "REG");
		if (!fa_number(p, open, &v))
			return fa_fail(c, p, "+OFF(FETCH): the offset is a number (0x... or decimal)");
		close = end - 1;
		if (close <= open || *close != ')')
			return fa_fail(c, end, "+OFF(FETCH) needs its ')' at the end");
		{
			int inner;

			if (fa_fetch(c, open + 1, close, depth + 1, &inner))
				return -1;
		}
		if (open + 1 < close && open[1] == '$' &&
		    (!strncmp(open + 2, "comm", 4) || !strncmp(open + 2, "COMM", 4)))
			return fa_fail(c, open + 1, "$comm is a string already: it cannot be dereferenced");
		return 0;
	case '\\':
		if (s + 1 < end && s[1] == '"') {
			if (end - s < 3 || end[-1] != '"')
				return fa_fail(c, end, "an immediate string \\\"...\" needs its closing '\"'");
			*mem = 1;
			return 0;
		}
		if (s + 1 < end && s[1] == '-')
			return fa_number(s + 2, end, &v) ? 0 : fa_fail(c, s + 1, "\\IMM is a number");
		return fa_number(s + 1 + (s + 1 < end && s[1] == '+'), end, &v) ? 0 :
		       fa_fail(c, s + 1, "\\IMM is a number");
	}
	return fa_fail(c, s, "'%c' starts no fetch: give %%REG, $argN, +OFF(FETCH), @SYMBOL or $comm", *s);
}

/* TYPE in [s, end): u8..u64, s8..s64, x8..x64, string, ustring, symbol, bW@O/S, [N] */
static int fa_type(struct fa_ctx *c, const char *s, const char *end,
		   int *string)
{
	static const char *const fixed[] = {
		"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "x8", "x16",
		"x32", "x64", "symbol", "string", "ustring", NULL
	};
	const char *br = memchr(s, '[', (size_t)(end - s)), *te = br ? br : end;
	unsigned long v;
	size_t n = (size_t)(te - s);
	int i;

	*string = 0;
	if (br) {
		if (end[-1] != ']')
			return fa_fail(c, end, "an array type is TYPE[N], closed by ']'");
		if (!fa_number(br + 1, end - 1, &v) || !v || v > 64)
			return fa_fail(c, br + 1, "TYPE[N]: N is 1 to 64 (MAX_ARRAY_LEN)");
	}
	for (i = 0; fixed[i]; i++)
		if (strlen(fixed[i]) == n && !memcmp(fixed[i], s, n)) {
			*string = i >= 13;
			return 0;
		}
	if (n > 1 && *s == 'b') {
		/* bWIDTH@OFFSET/SIZE: a bitfield of a u8..u64 */
		const char *at = memchr(s, '@', n), *sl = memchr(s, '/', n);
		unsigned long w, o, z;

		if (at && sl && sl > at && fa_number(s + 1, at, &w) &&
		    fa_number(at + 1, sl, &o) && fa_number(sl + 1, te, &z) &&
		    (z == 8 || z == 16 || z == 32 || z == 64) && w && w + o <= z)
			return 0;
		return fa_fail(c, s, "a bitfield type is bWIDTH@OFFSET/SIZE with SIZE 8, 16, 32 or 64 and WIDTH+OFFSET within it");
	}
	return fa_fail(c, s, "'%.*s' is not a fetch type: u8..u64, s8..s64, x8..x64, string, ustring, symbol, bW@O/S, or TYPE[N]",
		       (int)n, s);
}

int fetcharg_check(const char *spec, const char *arch, const struct kcaps *k,
		   struct bt_error *e)
{
	struct fa_ctx c = { spec, arch, fa_find(arch), k, e };
	const char *eq, *body, *colon, *end;
	int mem, string = 0;

	for (eq = spec; *eq && (isalnum((unsigned char)*eq) || *eq == '_'); eq++)
		;
	if (eq == spec || isdigit((unsigned char)*spec))
		return fa_fail(&c, spec, "give NAME=FETCH[:TYPE], NAME a C identifier (the field the trace prints), e.g. name=+0(%%%s):string",
			       c.a ? c.a->args[0] : "REG");
	if (*eq != '=')
		return fa_fail(&c, eq, "'%c' after the name: give NAME=FETCH[:TYPE]", *eq ? *eq : ' ');
	body = eq + 1;
	end = body + strlen(body);
	/* MAX_ARGSTR_LEN of kernel/trace/trace_probe.h */
	if (end - body > 63)
		return fa_fail(&c, body + 63, "the kernel takes FETCH[:TYPE] of 63 bytes at most (MAX_ARGSTR_LEN)");
	if (strpbrk(body, " ,;\t"))
		return fa_fail(&c, strpbrk(body, " ,;\t"), "no blank, ',' or ';' in a fetch argument: the kernel's kprobe_event= splits on them");
	colon = strchr(body, ':');
	if (colon && fa_type(&c, colon + 1, end, &string))
		return -1;
	if (fa_fetch(&c, body, colon ? colon : end, 0, &mem))
		return -1;
	if (!strncmp(body, "$comm", 5) || !strncmp(body, "$COMM", 5)) {
		if (colon && (!string || memchr(colon, '[', (size_t)(end - colon))))
			return fa_fail(&c, colon + 1, "$comm is a string: give it no type or :string");
		return 0;
	}
	if (string && !mem)
		return fa_fail(&c, colon + 1, "a string is read from memory: give the address's fetch inside +0(...), e.g. %.*s=+0(%.*s):string",
			       (int)(eq - spec), spec, (int)(colon - body), body);
	return 0;
}

/* The functions --who-creates probes, and what each creates (kernel-facts 86). */
static const struct {
	const char *func, *what;
} fa_creates[] = {
	{ "register_netdevice", "network device" },
};

const char *fetcharg_creates(const char *func)
{
	size_t i;

	for (i = 0; func && i < sizeof(fa_creates) / sizeof(fa_creates[0]); i++)
		if (!strcmp(fa_creates[i].func, func))
			return fa_creates[i].what;
	return NULL;
}
