/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gen: random bootconfig files for the differential test (tests/diff/run.sh).
 *
 *   gen SEED COUNT OUTDIR
 *
 * writes OUTDIR/NNNNNN.bconf for N in 0..COUNT-1 and OUTDIR/MANIFEST with
 * one "NNNNNN KIND" line per file. Case N depends only on (SEED, N), so one
 * case can be regenerated alone. Own PRNG (splitmix64): the same seed gives
 * the same files on every machine.
 *
 * About half of the files are valid: a structured generator writes configs
 * the kernel accepts (tracking redefinition, key length, key words and brace
 * depth), using every legal corner of the syntax; the rest are near misses:
 * one or two injected errors, or a few byte-level edits of a valid config,
 * plus special files (empty, blank, comments only, near the 32767-byte and
 * 8192-node limits, keys near 256 bytes).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PRNG ------------------------------------------------------------ */

struct rng {
	uint64_t s;
};

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static unsigned rnd(struct rng *r, unsigned n)
{
	return (unsigned)(rng_next(r) % n);
}

/* True with probability num/den. */
static int chance(struct rng *r, unsigned num, unsigned den)
{
	return rnd(r, den) < num;
}

/* Uniform in [lo, hi]. */
static unsigned range(struct rng *r, unsigned lo, unsigned hi)
{
	return lo + rnd(r, hi - lo + 1);
}

/* ---- growable buffer -------------------------------------------------- */

struct buf {
	char *p;
	size_t n, cap;
};

static void die(const char *msg)
{
	fprintf(stderr, "gen: %s\n", msg);
	exit(1);
}

static void bput(struct buf *b, const void *s, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (b->n + n + 1 > cap)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			die("out of memory");
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static void bputc(struct buf *b, char c)
{
	bput(b, &c, 1);
}

static void bputs(struct buf *b, const char *s)
{
	bput(b, s, strlen(s));
}

static void bprintf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void bprintf(struct buf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		die("vsnprintf");
	bput(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* ---- generator state --------------------------------------------------- */

#define POOL 12
#define KEYLEN_MAX 256	/* dotted length must stay <= KEYLEN_MAX - 1 */
#define WORDS_MAX 16
#define BRACE_MAX 16
#define DATA_MAX 32767

struct key {
	char *name;	/* full dotted key */
	int has_value;
};

struct gen {
	struct rng r;
	struct buf b;
	char pool[POOL][48];
	int npool;
	struct key *keys;
	int nkeys, capkeys;
	int inject;	/* errors still to inject (0: keep valid) */
	unsigned inject_rate;	/* per-statement chance, in 1/1000 */
	size_t target;	/* stop adding statements past this size */
	int crlf;	/* prefer \r\n line ends */
	int budget;	/* statements left */
};

static const char WORDCH[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

static void rand_word(struct rng *r, char *out, unsigned len)
{
	unsigned i;

	for (i = 0; i < len; i++) {
		/* Mostly lower case, as real keys. */
		if (chance(r, 3, 4))
			out[i] = (char)('a' + rnd(r, 26));
		else
			out[i] = WORDCH[rnd(r, sizeof(WORDCH) - 1)];
	}
	out[len] = '\0';
}

static unsigned word_len(struct rng *r)
{
	if (chance(r, 1, 25))
		return range(r, 12, 40);
	return range(r, 1, 9);
}

/* A key word: mostly from the per-file pool so that keys merge and clash. */
static void pick_word(struct gen *g, char *out)
{
	if (chance(&g->r, 7, 10)) {
		strcpy(out, g->pool[rnd(&g->r, (unsigned)g->npool)]);
		return;
	}
	rand_word(&g->r, out, word_len(&g->r));
}

static struct key *key_find(struct gen *g, const char *name)
{
	int i;

	for (i = 0; i < g->nkeys; i++)
		if (!strcmp(g->keys[i].name, name))
			return &g->keys[i];
	return NULL;
}

static struct key *key_add(struct gen *g, const char *name)
{
	struct key *k = key_find(g, name);

	if (k)
		return k;
	if (g->nkeys == g->capkeys) {
		g->capkeys = g->capkeys ? 2 * g->capkeys : 64;
		g->keys = realloc(g->keys, (size_t)g->capkeys * sizeof(*g->keys));
		if (!g->keys)
			die("out of memory");
	}
	k = &g->keys[g->nkeys++];
	k->name = malloc(strlen(name) + 1);
	if (!k->name)
		die("out of memory");
	strcpy(k->name, name);
	k->has_value = 0;
	return k;
}

static void keys_reset(struct gen *g)
{
	int i;

	for (i = 0; i < g->nkeys; i++)
		free(g->keys[i].name);
	g->nkeys = 0;
}

/* Should the statement being written be replaced by an error? */
static int want_error(struct gen *g)
{
	if (!g->inject)
		return 0;
	if (!chance(&g->r, g->inject_rate, 1000))
		return 0;
	g->inject--;
	return 1;
}

/* ---- whitespace, comments, line ends ----------------------------------- */

static void ws(struct gen *g)
{
	switch (rnd(&g->r, 10)) {
	case 0: bputc(&g->b, '\t'); break;
	case 1: bputs(&g->b, "  "); break;
	case 2: bputs(&g->b, " \t "); break;
	case 3: case 4: case 5: bputc(&g->b, ' '); break;
	default: break;
	}
}

static void eol(struct gen *g)
{
	if (g->crlf || chance(&g->r, 1, 40))
		bputc(&g->b, '\r');
	bputc(&g->b, '\n');
}

/* "# text\n": any byte but NUL and newline is fine in a comment. */
static void comment(struct gen *g)
{
	unsigned i, n = range(&g->r, 0, 30);

	bputc(&g->b, '#');
	for (i = 0; i < n; i++) {
		unsigned k = rnd(&g->r, 100);
		char c;

		if (k < 2)
			c = (char)range(&g->r, 1, 8);	/* control bytes */
		else if (k < 5)
			c = (char)range(&g->r, 0x80, 0xff);
		else if (k < 8)
			c = "{}=+:;#\"',.\t\r"[rnd(&g->r, 13)];
		else
			c = (char)range(&g->r, 0x20, 0x7e);
		bputc(&g->b, c);
	}
	eol(g);
}

/* Blank lines and comment lines between statements. */
static void filler(struct gen *g)
{
	while (chance(&g->r, 1, 5)) {
		ws(g);
		if (chance(&g->r, 1, 2))
			comment(g);
		else
			eol(g);
	}
}

/* ---- values ------------------------------------------------------------ */

/* Characters of a value: mostly tame, some punctuation, spaces. */
static char value_char(struct gen *g, const char *forbid)
{
	static const char punct[] = "./-_:=+{[]()<>!?@$%^&*~|\\'\"`";
	char c;

	do {
		unsigned k = rnd(&g->r, 100);

		if (k < 60)
			c = WORDCH[rnd(&g->r, sizeof(WORDCH) - 1)];
		else if (k < 75)
			c = ' ';
		else if (k < 95)
			c = punct[rnd(&g->r, sizeof(punct) - 1)];
		else
			c = (char)range(&g->r, 0x20, 0x7e);
	} while (strchr(forbid, c));
	return c;
}

static unsigned value_len(struct gen *g)
{
	if (chance(&g->r, 1, 20))
		return range(&g->r, 20, 80);
	return range(&g->r, 1, 14);
}

/* A non-printable, non-space byte (rejected inside values and keys). */
static char bad_byte(struct gen *g)
{
	static const char cs[] = "\x01\x02\x07\x08\x0e\x1b\x1f\x7f";

	if (chance(&g->r, 1, 2))
		return (char)range(&g->r, 0x80, 0xff);
	return cs[rnd(&g->r, sizeof(cs) - 1)];
}

/*
 * One value (an array element). Returns 1 if the value is an empty
 * unquoted one: then only ';', ',' or '}' may follow (a newline would make
 * the next line the value).
 */
static int value(struct gen *g, int bad)
{
	unsigned i, n = value_len(g), kind = rnd(&g->r, 100);
	unsigned badat = bad ? rnd(&g->r, n) : (unsigned)-1;

	if (kind < 6) {
		if (bad) {
			bputc(&g->b, bad_byte(g));
			return 0;
		}
		return 1;	/* empty unquoted */
	}
	if (kind < 55) {
		/* unquoted: no quote first, nothing of ",;\n#}" inside */
		for (i = 0; i < n; i++)
			bputc(&g->b, i == badat ? bad_byte(g)
			      : value_char(g, i ? ",;#}" : " \"',;#}"));
		if (chance(&g->r, 1, 5))	/* trailing spaces, trimmed */
			bputs(&g->b, chance(&g->r, 1, 2) ? "  " : " \t");
		return 0;
	} else {
		char q = kind < 82 ? '"' : '\'';
		char forbid[2] = { q, 0 };

		if (chance(&g->r, 1, 30) && !bad)
			n = 0;	/* "" */
		bputc(&g->b, q);
		for (i = 0; i < n; i++) {
			if (i == badat)
				bputc(&g->b, bad_byte(g));
			else if (chance(&g->r, 1, 40))
				bputc(&g->b, "\n\t#;,}"[rnd(&g->r, 6)]);
			else if (chance(&g->r, 1, 12))
				bputc(&g->b, q == '"' ? '\'' : '"');
			else
				bputc(&g->b, value_char(g, forbid));
		}
		bputc(&g->b, q);
		if (chance(&g->r, 1, 6))
			bputs(&g->b, chance(&g->r, 1, 2) ? " " : "\t ");
		return 0;
	}
}

/*
 * "= v1, v2, ..." after the operator; comments may sit after the operator
 * and between elements. Returns 1 if the last element was an empty
 * unquoted value.
 */
static int values(struct gen *g, int bad)
{
	unsigned n = chance(&g->r, 1, 4) ? range(&g->r, 2, 6) : 1;
	unsigned i, badat = bad ? rnd(&g->r, n) : (unsigned)-1;
	int empty = 0;

	if (chance(&g->r, 1, 12)) {	/* comment right after '=' */
		ws(g);
		comment(g);
		ws(g);
	} else {
		ws(g);
	}
	if (chance(&g->r, 1, 30)) {	/* value on the next line */
		eol(g);
		ws(g);
	}
	for (i = 0; i < n; i++) {
		empty = value(g, i == badat);
		if (i + 1 == n)
			break;
		if (empty && chance(&g->r, 1, 2))
			bputc(&g->b, ' ');
		bputc(&g->b, ',');
		/* Between elements: spaces, newlines, comments, blank lines. */
		switch (rnd(&g->r, 6)) {
		case 0: eol(g); ws(g); break;
		case 1: ws(g); comment(g); ws(g); break;
		case 2: eol(g); eol(g); comment(g); ws(g); break;
		default: ws(g); break;
		}
	}
	return empty;
}

/* ---- keys -------------------------------------------------------------- */

struct prefix {
	char name[1024];	/* dotted, "" at top level */
	int words;
	int depth;	/* open braces */
};

static void join(char *out, size_t size, const char *a, const char *b)
{
	if (*a)
		snprintf(out, size, "%s.%s", a, b);
	else
		snprintf(out, size, "%s", b);
}

/*
 * A relative key of 1..max_words words into @rel, its full name into
 * @full. In valid mode the full key keeps within the kernel's limits.
 */
static int make_key(struct gen *g, const struct prefix *pf, char *rel,
		    size_t relsz, char *full, size_t fullsz)
{
	unsigned n, i;
	size_t plen = strlen(pf->name);
	int room = WORDS_MAX - pf->words;

	if (room <= 0)
		return -1;
	n = chance(&g->r, 2, 3) ? 1 : range(&g->r, 1, 4);
	if (chance(&g->r, 1, 30))
		n = range(&g->r, 5, WORDS_MAX);
	if ((int)n > room)
		n = (unsigned)room;
	rel[0] = '\0';
	for (i = 0; i < n; i++) {
		char w[48];
		size_t cur = strlen(rel);

		pick_word(g, w);
		/* dotted length of the full key must stay <= 255 */
		if (plen + (plen ? 1 : 0) + cur + (cur ? 1 : 0) + strlen(w) >
		    KEYLEN_MAX - 1 || cur + strlen(w) + 2 > relsz)
			break;
		if (cur)
			strcat(rel, ".");
		strcat(rel, w);
	}
	if (!rel[0])
		return -1;
	join(full, fullsz, pf->name, rel);
	return 0;
}

/* A key word the kernel rejects. */
static void bad_key(struct gen *g, char *rel, size_t size)
{
	char w[48];

	pick_word(g, w);
	switch (rnd(&g->r, 8)) {
	case 0: snprintf(rel, size, "%s..%s", w, g->pool[0]); break;
	case 1: snprintf(rel, size, ".%s", w); break;
	case 2: snprintf(rel, size, "%s.", w); break;
	case 3: snprintf(rel, size, "%s %s", w, g->pool[1]); break;
	case 4: snprintf(rel, size, "%s%c", w, bad_byte(g)); break;
	case 5: snprintf(rel, size, "%s . %s", w, g->pool[1]); break;
	case 6: snprintf(rel, size, "%s\"x", w); break;
	default:
		snprintf(rel, size, "%s%c%s", w, "!$%&()*/<>?@[]^`|~,'\\"[rnd(&g->r, 22)],
			 g->pool[2]);
		break;
	}
}

/* ---- statements -------------------------------------------------------- */

static void block(struct gen *g, const struct prefix *pf, int nstmt);

/* End of a key=value statement (the value's delimiter). */
static void kv_end(struct gen *g, int empty)
{
	if (empty) {
		bputs(&g->b, chance(&g->r, 1, 2) ? ";" : " ;");
		if (chance(&g->r, 1, 2))
			eol(g);
		return;
	}
	switch (rnd(&g->r, 8)) {
	case 0: bputc(&g->b, ';'); break;
	case 1: bputs(&g->b, ";"); eol(g); break;
	case 2: ws(g); comment(g); break;
	default: eol(g); break;
	}
}

static const char *op_for(struct gen *g, struct key *k)
{
	if (k->has_value)
		return chance(&g->r, 1, 2) ? "+=" : ":=";
	switch (rnd(&g->r, 6)) {
	case 0: return "+=";
	case 1: return ":=";
	default: return "=";
	}
}

/* One injected error; returns after writing a complete (bad) statement. */
static void bad_statement(struct gen *g, const struct prefix *pf)
{
	char rel[1024], full[1100], w[48];
	const char *sp;
	unsigned i, n;
	struct key *k;

	switch (rnd(&g->r, 16)) {
	case 0:	/* redefinition */
		if (make_key(g, pf, rel, sizeof(rel), full, sizeof(full)))
			break;
		bprintf(&g->b, "%s = a", rel);
		eol(g);
		ws(g);
		bprintf(&g->b, "%s = b", rel);
		eol(g);
		key_add(g, full)->has_value = 1;
		return;
	case 1:	/* '+' or ':' without '=' */
		if (make_key(g, pf, rel, sizeof(rel), full, sizeof(full)))
			break;
		/* one draw per statement: argument order is unspecified */
		sp = chance(&g->r, 1, 2) ? " " : "";
		bprintf(&g->b, "%s%s%s 1", rel, sp,
			chance(&g->r, 1, 2) ? "+" : ":");
		eol(g);
		return;
	case 2:	/* unclosed quote */
		pick_word(g, w);
		bprintf(&g->b, "%s = %cabc", w, chance(&g->r, 1, 2) ? '"' : '\'');
		eol(g);
		return;
	case 3:	/* text after the closing quote */
		pick_word(g, w);
		bprintf(&g->b, "%s = \"a b\"%sx", w, chance(&g->r, 1, 2) ? " " : "");
		eol(g);
		return;
	case 4:	/* extra closing brace */
		bputc(&g->b, '}');
		eol(g);
		return;
	case 5:	/* brace never closed */
		pick_word(g, w);
		bprintf(&g->b, "%s {", w);
		eol(g);
		return;
	case 6:	/* invalid keyword */
		bad_key(g, rel, sizeof(rel));
		if (chance(&g->r, 1, 2))
			bprintf(&g->b, "%s = 1", rel);
		else
			bprintf(&g->b, "%s", rel);
		eol(g);
		return;
	case 7:	/* braces nested past 16 */
		n = range(&g->r, BRACE_MAX - 1, BRACE_MAX + 2);
		for (i = 0; i < n; i++) {
			bprintf(&g->b, "%s {", g->pool[rnd(&g->r, 3)]);
			if (chance(&g->r, 1, 2))
				eol(g);
		}
		bputs(&g->b, "x = 1");
		eol(g);
		for (i = 0; i < n; i++)
			bputs(&g->b, "}\n");
		return;
	case 8:	/* too many key words */
		n = range(&g->r, WORDS_MAX, WORDS_MAX + 2);
		for (i = 0; i < n; i++)
			bprintf(&g->b, "%s%s", i ? "." : "", g->pool[rnd(&g->r, 4)]);
		bputs(&g->b, " = 1");
		eol(g);
		return;
	case 9:	/* key too long */
		n = range(&g->r, 250, 300);
		rand_word(&g->r, w, 40);
		for (i = 0; i < n; i++)
			bputc(&g->b, (i % 41 == 40) ? '.' : w[i % 41]);
		bputs(&g->b, " = 1");
		eol(g);
		return;
	case 10:	/* non-printable value */
		pick_word(g, w);
		bprintf(&g->b, "%s = ", w);
		value(g, 1);
		eol(g);
		return;
	case 11:	/* operator without key */
		bputs(&g->b, chance(&g->r, 1, 2) ? " = 1" : "+= 2");
		eol(g);
		return;
	case 12:	/* brace on the next line */
		pick_word(g, w);
		bprintf(&g->b, "%s", w);
		eol(g);
		bputs(&g->b, "{ a = 1 }");
		eol(g);
		return;
	case 13:	/* comment between key and '=' */
		pick_word(g, w);
		bprintf(&g->b, "%s # c", w);
		eol(g);
		bputs(&g->b, " = 1");
		eol(g);
		return;
	case 14:	/* value redefined through a brace */
		if (make_key(g, pf, rel, sizeof(rel), full, sizeof(full)))
			break;
		k = key_find(g, full);
		bprintf(&g->b, "%s = 1", rel);
		eol(g);
		if (!strchr(rel, '.')) {
			bprintf(&g->b, "%s { }", rel);
			eol(g);
			bprintf(&g->b, "%s = 2", rel);
			eol(g);
		} else {
			char *dot = strchr(rel, '.');

			*dot = '\0';
			bprintf(&g->b, "%s { %s = 2 }", rel, dot + 1);
			eol(g);
		}
		(k ? k : key_add(g, full))->has_value = 1;
		return;
	default:	/* closing brace after a value, maybe at top level */
		pick_word(g, w);
		bprintf(&g->b, "%s = 1 }", w);
		eol(g);
		return;
	}
	bputs(&g->b, "=");
	eol(g);
}

static void statement(struct gen *g, const struct prefix *pf)
{
	char rel[1024], full[1100];
	unsigned kind = rnd(&g->r, 100);
	struct key *k;
	int empty;

	if (want_error(g)) {
		bad_statement(g, pf);
		return;
	}
	ws(g);
	if (kind < 55) {	/* key = value(s) */
		if (make_key(g, pf, rel, sizeof(rel), full, sizeof(full))) {
			comment(g);
			return;
		}
		k = key_add(g, full);
		bputs(&g->b, rel);
		ws(g);
		bputs(&g->b, op_for(g, k));
		k->has_value = 1;
		empty = values(g, 0);
		kv_end(g, empty);
	} else if (kind < 70) {	/* value-less key */
		if (make_key(g, pf, rel, sizeof(rel), full, sizeof(full))) {
			comment(g);
			return;
		}
		key_add(g, full);
		bputs(&g->b, rel);
		switch (rnd(&g->r, 4)) {
		case 0: bputc(&g->b, ';'); break;
		case 1: ws(g); comment(g); break;
		default: ws(g); eol(g); break;
		}
	} else if (kind < 88 && pf->depth < BRACE_MAX) {	/* key { ... } */
		struct prefix in;
		const char *s;

		if (make_key(g, pf, rel, sizeof(rel), full, sizeof(full)) ||
		    strlen(full) >= sizeof(in.name)) {
			comment(g);
			return;
		}
		key_add(g, full);
		snprintf(in.name, sizeof(in.name), "%s", full);
		in.words = pf->words + 1;
		for (s = rel; *s; s++)
			in.words += *s == '.';
		in.depth = pf->depth + 1;
		bputs(&g->b, rel);
		ws(g);
		bputc(&g->b, '{');
		if (chance(&g->r, 1, 8)) {	/* empty braces */
			ws(g);
			bputc(&g->b, '}');
			eol(g);
			return;
		}
		if (chance(&g->r, 1, 6)) {	/* one line: k { a = 1 } */
			char r2[1024], f2[1100];

			ws(g);
			if (make_key(g, &in, r2, sizeof(r2), f2, sizeof(f2)) == 0) {
				k = key_add(g, f2);
				bprintf(&g->b, "%s %s ", r2, op_for(g, k));
				k->has_value = 1;
				value(g, 0);
			}
			bputs(&g->b, " }");
			eol(g);
			return;
		}
		eol(g);
		block(g, &in, (int)range(&g->r, 1, 5));
		ws(g);
		bputc(&g->b, '}');
		if (chance(&g->r, 1, 5))
			bputc(&g->b, ';');
		eol(g);
	} else if (kind < 94) {
		comment(g);
	} else {
		eol(g);
	}
}

static void block(struct gen *g, const struct prefix *pf, int nstmt)
{
	int i;

	for (i = 0; i < nstmt && g->budget > 0 && g->b.n < g->target; i++) {
		g->budget--;
		filler(g);
		statement(g, pf);
	}
}

/* ---- whole files ------------------------------------------------------- */

static void new_pool(struct gen *g)
{
	int i;

	g->npool = (int)range(&g->r, 3, POOL);
	for (i = 0; i < g->npool; i++)
		rand_word(&g->r, g->pool[i], word_len(&g->r));
}

/* A structured config; inject > 0 asks for that many errors. */
static void config(struct gen *g, int inject, size_t target, int stmts)
{
	struct prefix top = { "", 0, 0 };

	g->inject = inject;
	g->inject_rate = inject ? 1000 / (unsigned)(stmts > 1 ? stmts : 1) + 1 : 0;
	g->target = target;
	g->budget = stmts;
	g->crlf = chance(&g->r, 1, 20);
	while (g->budget > 0 && g->b.n < g->target)
		block(g, &top, (int)range(&g->r, 1, 8));
	if (g->inject) {	/* not placed yet: at the end */
		g->inject = 0;
		bad_statement(g, &top);
	}
}

/* Byte-level edits of a config, to get near misses. */
static void mutate(struct gen *g, int edits)
{
	static const char special[] = "{}=+:;#\"'.,\n \t\r\\";
	struct buf *b = &g->b;

	while (edits-- > 0) {
		size_t at = b->n ? rnd(&g->r, (unsigned)b->n + 1) : 0;
		unsigned op = rnd(&g->r, 6);
		char c;

		if (op == 0 && b->n && at < b->n) {	/* delete */
			memmove(b->p + at, b->p + at + 1, b->n - at - 1);
			b->n--;
			continue;
		}
		if (op == 1 && at < b->n) {	/* replace */
			b->p[at] = special[rnd(&g->r, sizeof(special) - 1)];
			continue;
		}
		if (op == 2 && b->n > 2) {	/* truncate */
			b->n = at > 0 ? at : 1;
			continue;
		}
		/* insert */
		if (op == 3 && chance(&g->r, 1, 3))
			c = chance(&g->r, 1, 4) ? '\0' : bad_byte(g);
		else
			c = special[rnd(&g->r, sizeof(special) - 1)];
		bputc(b, 'x');
		memmove(b->p + at + 1, b->p + at, b->n - 1 - at);
		b->p[at] = c;
	}
}

/* Pad to exactly @size bytes with a comment (when there is room). */
static void pad_to(struct gen *g, size_t size)
{
	if (g->b.n >= size) {
		g->b.n = size;	/* cut (may break the last statement) */
		return;
	}
	if (g->b.n && g->b.p[g->b.n - 1] != '\n')
		bputc(&g->b, '\n');
	if (g->b.n < size) {
		bputc(&g->b, '#');
		while (g->b.n + 1 < size)
			bputc(&g->b, chance(&g->r, 1, 64) ? ' ' : 'x');
		if (g->b.n < size)
			bputc(&g->b, chance(&g->r, 1, 2) ? '\n' : 'x');
	}
	g->b.n = size;
}

static const char *gen_case(struct gen *g)
{
	unsigned k = rnd(&g->r, 1000);
	unsigned i, n;

	g->b.n = 0;
	keys_reset(g);
	new_pool(g);

	if (k < 25)
		return "empty";
	if (k < 45) {	/* whitespace only */
		n = range(&g->r, 1, 40);
		for (i = 0; i < n; i++)
			bputc(&g->b, " \t\n\r\v\f"[rnd(&g->r, 6)]);
		return "blank";
	}
	if (k < 70) {	/* comments only */
		n = range(&g->r, 1, 6);
		for (i = 0; i < n; i++) {
			ws(g);
			comment(g);
		}
		if (chance(&g->r, 1, 3))
			g->b.n--;	/* no final newline */
		return "comments";
	}
	if (k < 90) {	/* around 32767 bytes */
		static const size_t sizes[] = { 32765, 32766, 32767, 32768, 32769 };
		size_t size = chance(&g->r, 1, 2) ? sizes[rnd(&g->r, 5)]
						   : range(&g->r, 32600, 32900);

		config(g, chance(&g->r, 1, 3), size - 400, 100000);
		pad_to(g, size);
		return "big";
	}
	if (k < 110) {	/* around 8192 nodes */
		int d = (int)range(&g->r, 0, 8) - 4;
		unsigned m = range(&g->r, 0, 300), e;

		/* m keys "wN = x" (2 nodes each), then one array key. */
		for (i = 0; i < m; i++) {
			bprintf(&g->b, "w%u = x", i);
			eol(g);
		}
		e = (unsigned)(8192 + d - 1 - 2 * (int)m);
		bputs(&g->b, "arr = ");
		for (i = 0; i < e; i++) {
			bputc(&g->b, (char)('a' + rnd(&g->r, 26)));
			if (i + 1 < e)
				bputs(&g->b, chance(&g->r, 1, 20) ? ",\n" : ",");
		}
		eol(g);
		return d <= 0 ? "nodes-ok" : "nodes-over";
	}
	if (k < 130) {	/* a key around 256 bytes */
		unsigned len = range(&g->r, 248, 262), words = range(&g->r, 2, 16);
		unsigned wl = len / words, used = 0;
		struct buf key = { 0, 0, 0 };

		config(g, 0, 4000, (int)range(&g->r, 0, 6));
		for (i = 0; i < words; i++) {
			unsigned l = i + 1 == words ? len - used : wl - 1;
			char w[300];

			if (l < 1 || l > 290)
				l = 1;
			rand_word(&g->r, w, l);
			if (i)
				bputc(&key, '.');
			bputs(&key, w);
			used += l + 1;
		}
		if (chance(&g->r, 1, 3)) {
			/*
			 * The kernel never checks the subkeys of a key with a
			 * value: give the first word one, then a long key of
			 * up to 20 words below it.
			 */
			char *dot = strchr(key.p, '.');

			*dot = '\0';
			bprintf(&g->b, "%s = first", key.p);
			eol(g);
			*dot = '.';
			bputs(&g->b, key.p);
			n = range(&g->r, 0, 6);
			for (i = 0; i < n; i++)
				bprintf(&g->b, ".w%u", i);
			bputs(&g->b, " = v");
		} else if (chance(&g->r, 1, 2)) {
			bprintf(&g->b, "%s = v", key.p);
		} else {	/* first word as a brace */
			char *dot = strchr(key.p, '.');

			*dot = '\0';
			bprintf(&g->b, "%s {\n\t%s = v\n}", key.p, dot + 1);
		}
		eol(g);
		free(key.p);
		config(g, 0, 4000, (int)range(&g->r, 0, 4));
		return "keylen";
	}

	/* Structured configs: about half stay valid. */
	n = chance(&g->r, 1, 6) ? range(&g->r, 20, 120) : range(&g->r, 1, 16);
	if (chance(&g->r, 8, 20)) {
		config(g, 0, DATA_MAX - 2000, (int)n);
		if (chance(&g->r, 1, 25)) {	/* text after a NUL is ignored */
			bputc(&g->b, '\0');
			bputs(&g->b, "} garbage { = \x01");
		} else if (chance(&g->r, 1, 10) && g->b.n &&
			   g->b.p[g->b.n - 1] == '\n') {
			g->b.n--;	/* no final newline */
		}
		return "valid";
	}
	if (chance(&g->r, 1, 2)) {
		config(g, (int)range(&g->r, 1, 2), DATA_MAX - 2000, (int)n);
		return "error";
	}
	config(g, 0, DATA_MAX - 2000, (int)n);
	mutate(g, (int)range(&g->r, 1, 3));
	return "mutated";
}

int main(int argc, char **argv)
{
	struct gen g;
	unsigned long long seed;
	unsigned long count, i;
	char path[4096];
	FILE *man;
	char *end;

	if (argc != 4) {
		fprintf(stderr, "usage: gen SEED COUNT OUTDIR\n");
		return 2;
	}
	errno = 0;
	seed = strtoull(argv[1], &end, 0);
	if (errno || *end)
		die("bad SEED");
	count = strtoul(argv[2], &end, 0);
	if (errno || *end)
		die("bad COUNT");
	snprintf(path, sizeof(path), "%s/MANIFEST", argv[3]);
	man = fopen(path, "w");
	if (!man)
		die("cannot write OUTDIR/MANIFEST");
	memset(&g, 0, sizeof(g));
	for (i = 0; i < count; i++) {
		const char *kind;
		FILE *f;

		g.r.s = seed ^ (0xd1b54a32d192ed03ULL * (i + 1));
		rng_next(&g.r);
		kind = gen_case(&g);
		snprintf(path, sizeof(path), "%s/%06lu.bconf", argv[3], i);
		f = fopen(path, "wb");
		if (!f || (g.b.n && fwrite(g.b.p, 1, g.b.n, f) != g.b.n) ||
		    fclose(f))
			die("cannot write a case");
		fprintf(man, "%06lu %s\n", i, kind);
	}
	if (fclose(man))
		die("cannot write OUTDIR/MANIFEST");
	keys_reset(&g);
	free(g.keys);
	free(g.b.p);
	return 0;
}
