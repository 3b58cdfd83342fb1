// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One line of the kernel's trace text (kernel/trace/trace_output.c):
 *
 *   default   "%16s-%-7d " [ "(%7d) " tgid ] "[%03d] " [ irq-info flags ]
 *             " %5lu.%06lu" ": " body
 *   latency   "%8.8s-%-7d %3d" flags " %4lldus%c: " body   (or " %4lld: ")
 *
 * irq-info flags are four characters on 4.x kernels ("d..1") and five
 * since 5.x ("d..1." with migrate-disable). Bodies: "func <-parent"
 * (function tracer), "<stack trace>" (frames follow as " => sym"),
 * "name: fields" (events, kprobes), "sys_name(args)" and "sys_name -> ret"
 * (syscall events). Only pointers into the line are
 * returned: this runs once per line of a trace of hundreds of megabytes.
 */
#include <stdio.h>
#include <string.h>

#include "report/lex/count.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Eight bytes a step for the scans every line needs (the spaces before a
 * task name, the end of a function name): a byte loop was a fifth of the
 * parse. rep(c) has c in every byte; zero_bytes(x) has the high bit set
 * in the lowest byte of x that is zero (and maybe above it), so the
 * lowest set bit is exact: little-endian only, byte loops elsewhere.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RP_SWAR 1
#define LO8 0x0101010101010101ULL
#define HI8 0x8080808080808080ULL

static uint64_t rep(unsigned char c)
{
	return LO8 * c;
}

static uint64_t zero_bytes(uint64_t x)
{
	return (x - LO8) & ~x & HI8;
}

/* High bit set in every byte of x that is not zero. */
static uint64_t nonzero_bytes(uint64_t x)
{
	return (((x & ~HI8) + ~HI8) | x) & HI8;
}

/*
 * The last 0-7 bytes of a run of at least eight: one load of the eight
 * bytes that end at @end, the bytes already looked at masked off.
 */
static const char *tail_hit(const char *end, size_t n, uint64_t m)
{
	m &= ~0ULL << (8 * (8 - n));
	return m ? end - 8 + (__builtin_ctzll(m) >> 3) : end;
}

/*
 * How many of the eight bytes at @p are leading digits, and their value
 * in *@v: the time's fraction is six or nine digits on every line.
 */
static inline __attribute__((always_inline)) size_t digits8(const char *p,
							 uint64_t *v)
{
	uint64_t w, x, bad;
	size_t k;

	memcpy(&w, p, 8);
	x = w - rep('0');
	/* high bit of each byte that is not '0'..'9' (exact for the lowest) */
	bad = (x | (x + rep(0x80 - 10))) & HI8;
	k = bad ? (size_t)(__builtin_ctzll(bad) >> 3) : 8;
	if (!k) {
		*v = 0;
		return 0;
	}
	/* the k digits into the high bytes, first digit most significant */
	x <<= 8 * (8 - k);
	x = (x * 10 + (x >> 8)) & 0x00ff00ff00ff00ffULL;
	x = (x * 100 + (x >> 16)) & 0x0000ffff0000ffffULL;
	x = (x * 10000 + (x >> 32)) & 0xffffffffULL;
	*v = x;
	return k;
}
#endif

static const char *skip_sp(const char *p, const char *end)
{
#ifdef RP_SWAR
	uint64_t w;

	if (end - p >= 8) {
		for (; end - p >= 8; p += 8) {
			uint64_t m;

			memcpy(&w, p, 8);
			m = nonzero_bytes(w ^ rep(' '));
			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
		if (p == end)
			return end;
		memcpy(&w, end - 8, 8);
		return tail_hit(end, (size_t)(end - p),
				nonzero_bytes(w ^ rep(' ')));
	}
#endif
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* The first of @a, @b, @c in [p, end), or end. */
static const char *find3(const char *p, const char *end, unsigned char a,
			 unsigned char b, unsigned char c)
{
#ifdef RP_SWAR
	uint64_t w, m;

	if (end - p >= 8) {
		for (; end - p >= 8; p += 8) {
			memcpy(&w, p, 8);
			m = zero_bytes(w ^ rep(a)) | zero_bytes(w ^ rep(b)) |
			    zero_bytes(w ^ rep(c));
			if (m)
				return p + (__builtin_ctzll(m) >> 3);
		}
		if (p == end)
			return end;
		memcpy(&w, end - 8, 8);
		m = zero_bytes(w ^ rep(a)) | zero_bytes(w ^ rep(b)) |
		    zero_bytes(w ^ rep(c));
		return tail_hit(end, (size_t)(end - p), m);
	}
#endif
	while (p < end && (unsigned char)*p != a && (unsigned char)*p != b &&
	       (unsigned char)*p != c)
		p++;
	return p;
}

size_t rp_sym_len(const char *s, size_t len)
{
	const char *end = s + len, *q = s;

	while ((q = find3(q, end, ' ', '\t', '+')) < end) {
		if (*q != '+' || (end - q > 2 && q[1] == '0' && q[2] == 'x'))
			return (size_t)(q - s);
		q++;
	}
	return len;
}

/*
 * "S.U" seconds (the default clocks) or an integer (counter clocks); the
 * fraction is scaled to nanoseconds whatever its width.
 */
static const char *parse_ts(const char *p, const char *end, struct rp_line *l)
{
	static const uint64_t scale[10] = {
		1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000,
		100, 10, 1,
	};
	const char *d = p, *lim = end - p > 19 ? p + 19 : end;
	uint64_t sec = 0, frac = 0;

#ifdef RP_SWAR
	if (end - p >= 8)	/* "%5lu": up to eight digits at once */
		d = p + digits8(p, &sec);
#endif
	while (d < lim && is_digit(*d))
		sec = sec * 10 + (uint64_t)(*d++ - '0');
	if (d == p)
		return NULL;
	p = d;
	if (p < end && *p == '.') {
		lim = end - ++p > 9 ? p + 9 : end;
		d = p;
#ifdef RP_SWAR
		if (end - p >= 8) {	/* "%06lu" and "%09lu": eight at once */
			size_t k = digits8(p, &frac);

			d = p + k;
			if (k == 8 && d < lim && is_digit(*d))
				frac = frac * 10 + (uint64_t)(*d++ - '0');
		}
#endif
		for (; d < lim && is_digit(*d); d++)
			frac = frac * 10 + (uint64_t)(*d - '0');
		l->ts = sec * 1000000000ULL + frac * scale[d - p];
		l->ts_raw = 0;
		while (d < end && is_digit(*d))
			d++;	/* below a nanosecond */
		p = d;
	} else if (p + 1 < end && p[0] == 'u' && p[1] == 's') {
		l->ts = sec * 1000ULL;	/* latency format: microseconds */
		l->ts_raw = 0;
		p += 2;
		if (p < end && *p != ':')
			p++;	/* the overhead mark: ' ', '+', '!', ... */
	} else {
		l->ts = sec;
		l->ts_raw = 1;
	}
	return p;
}

/* "comm-pid" ending just before @end (spaces already trimmed). */
static int take_task(const char *s, const char *end, struct rp_line *l)
{
	const char *d = end;
	int pid = 0, mul = 1;

	while (d > s && is_digit(d[-1]))
		d--;
	if (d == end || d == s || d[-1] != '-' || end - d > 9)
		return -1;
	for (const char *q = end; q > d; q--) {
		pid += (q[-1] - '0') * mul;
		mul *= 10;
	}
	l->task = s;
	l->task_len = (size_t)(end - s);
	l->pid = pid;
	return 0;
}

/* The "[003]" CPU column: the first one after a space. */
static const char *find_cpu(const char *p, const char *end, int *cpu)
{
	const char *q = p;

	while ((q = memchr(q, '[', (size_t)(end - q)))) {
		const char *d = q + 1;
		int v = 0;

		while (d < end && is_digit(*d) && v < 1000000)
			v = v * 10 + (*d++ - '0');
		if (d > q + 1 && d + 1 < end && *d == ']' && d[1] == ' ' &&
		    q > p && q[-1] == ' ') {
			*cpu = v;
			return q;
		}
		q++;
	}
	return NULL;
}

/* irq-info flag characters: '.', letters, digits (the preempt depth). */
static const unsigned char flag_char[256] = {
	['.'] = 1,
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1,
	['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1,
	['g'] = 1, ['h'] = 1, ['i'] = 1, ['j'] = 1, ['k'] = 1, ['l'] = 1,
	['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
	['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1,
	['y'] = 1, ['z'] = 1,
	['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1,
	['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1, ['K'] = 1, ['L'] = 1,
	['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
	['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1,
	['Y'] = 1, ['Z'] = 1,
};

static int is_flag(char c)
{
	return flag_char[(unsigned char)c];
}

static void split_body(const char *p, const char *end, struct rp_line *l)
{
	const char *q;

	l->a = p;
	if (end - p >= 13 && !memcmp(p, "<stack trace>", 13)) {
		l->kind = RP_STACK;
		return;
	}
	if (end - p >= 18 && !memcmp(p, "<user stack trace>", 18)) {
		l->kind = RP_USTACK;
		return;
	}
	q = find3(p, end, ' ', ':', '(');
	if (q < end && *q == '(' && q - p > 4 && !memcmp(p, "sys_", 4)) {
		/* events/syscalls: "sys_openat(dfd: ffffff9c, ...)" */
		l->kind = RP_EVENT;
		l->sys = 1;
		l->a_len = (size_t)(q - p);
		l->b = q;
		l->b_len = (size_t)(end - q);
		return;
	}
	if (q < end && *q == ' ' && q - p > 4 && !memcmp(p, "sys_", 4) &&
	    end - q > 4 && !memcmp(q, " -> ", 4)) {
		/* and its return: "sys_openat -> 0x3" */
		l->kind = RP_EVENT;
		l->sys = 2;
		l->a_len = (size_t)(q - p);
		l->b = q + 4;
		l->b_len = (size_t)(end - q - 4);
		return;
	}
	if (q < end && *q == '(')
		q = find3(q, end, ' ', ':', ' ');
	if (q < end && *q == ':') {
		l->kind = RP_EVENT;
		l->a_len = (size_t)(q - p);
		q = skip_sp(q + 1, end);
		l->b = q;
		l->b_len = (size_t)(end - q);
		return;
	}
	l->kind = RP_FUNC;
	/* sym-offset prints a module's function "f+0x0/0x90 [mod]" */
	if (end - q >= 3 && q[0] == ' ' && q[1] == '[') {
		const char *m = memchr(q, ']', (size_t)(end - q));

		if (m && !memchr(q + 1, ' ', (size_t)(m - q - 1)))
			q = m + 1;
	}
	l->a_len = (size_t)(q - p);
	q = skip_sp(q, end);
	if (end - q >= 2 && q[0] == '<' && q[1] == '-') {
		l->b = q + 2;
		l->b_len = (size_t)(end - q - 2);
	} else {
		l->b = q;
		l->b_len = 0;
	}
	if (!l->a_len)
		l->kind = RP_BAD;
}

/* Default layout: everything after "[cpu] ". */
static int parse_default(const char *s, const char *br, const char *end,
			 struct rp_line *l)
{
	const char *t = br, *p, *f;

	while (t > s && t[-1] == ' ')
		t--;
	if (t > s && t[-1] == ')') {	/* record-tgid: "(   123) " */
		while (t > s && t[-1] != '(')
			t--;
		if (t == s)
			return -1;
		t--;
		while (t > s && t[-1] == ' ')
			t--;
	}
	if (take_task(s, t, l))
		return -1;
	p = skip_sp(memchr(br, ']', (size_t)(end - br)) + 1, end);
	f = p;
	while (p < end && is_flag(*p))
		p++;
	if (p < end && *p == ' ') {	/* irq-info flags, then the time */
		if (p - f < 4 || p - f > 6)
			return -1;
		l->flags_w = (int)(p - f);
		p = skip_sp(p, end);
	} else {
		p = f;
	}
	l->ts_at = p;
	return rp_parse_rest(p, end, l) ? 0 : -1;
}

int rp_parse_rest(const char *p, const char *end, struct rp_line *l)
{
	p = parse_ts(p, end, l);
	if (!p || end - p < 2 || p[0] != ':' || p[1] != ' ')
		return 0;
	split_body(p + 2, end, l);
	return 1;
}

/* Latency layout: "comm-pid  cpuFLAGS  time[us][mark]: body". */
static int parse_latency(const char *s, const char *end, struct rp_line *l)
{
	const char *c = s, *t, *u, *v, *d;
	int cpu = 0;

	while ((c = memchr(c, ':', (size_t)(end - c)))) {
		if (c + 1 < end && c[1] == ' ')
			break;
		c++;
	}
	if (!c)
		return -1;
	t = c;
	while (t > s && t[-1] != ' ')
		t--;	/* the time token: "2406358us+" or "123" */
	if (t == c && t > s) {	/* the mark was a space: "2406358us :" */
		t--;
		while (t > s && t[-1] != ' ')
			t--;
	}
	if (t >= c || !is_digit(*t) || !parse_ts(t, c, l))
		return -1;
	u = t;
	while (u > s && u[-1] == ' ')
		u--;
	v = u;
	while (v > s && v[-1] != ' ')
		v--;	/* "0d..2." : cpu digits, then the flags */
	for (d = v; d < u && is_digit(*d) && cpu < 1000000; d++)
		cpu = cpu * 10 + (*d - '0');
	if (d == v || u - d < 4 || u - d > 6)
		return -1;
	l->flags_w = (int)(u - d);
	while (v > s && v[-1] == ' ')
		v--;
	if (take_task(s, v, l))
		return -1;
	l->cpu = cpu;
	split_body(c + 2, end, l);
	return 0;
}

void rp_parse_line(const char *p, const char *end, struct rp_line *l)
{
	const char *s, *br;

	memset(l, 0, sizeof(*l));
	l->task_id = RP_NONE;
	if (end > p && end[-1] == '\r')
		end--;	/* serial consoles */
	if (p == end) {
		l->kind = RP_BLANK;
		return;
	}
	if (*p == '#') {
		l->kind = end - p > 10 && !memcmp(p, "##### CPU ", 10) ?
			  RP_CPUSTART : RP_COMMENT;
		l->a = p;
		l->a_len = (size_t)(end - p);
		return;
	}
	if (end - p >= 4 && !memcmp(p, " => ", 4)) {
		l->kind = RP_FRAME;
		l->a = p + 4;
		l->a_len = (size_t)(end - p - 4);
		return;
	}
	s = skip_sp(p, end);
	if (s == end) {
		l->kind = RP_BLANK;
		return;
	}
	l->kind = RP_BAD;
	br = find_cpu(s, end, &l->cpu);
	if (br ? parse_default(s, br, end, l) : parse_latency(s, end, l)) {
		memset(l, 0, sizeof(*l));
		l->task_id = RP_NONE;
		l->kind = RP_BAD;
	}
}

int report_line_time(const char *p, const char *end, int *cpu, uint64_t *ts,
		     int *raw)
{
	struct rp_line l;

	rp_parse_line(p, end, &l);
	if ((l.kind != RP_FUNC && l.kind != RP_EVENT && l.kind != RP_STACK &&
	     l.kind != RP_USTACK) || l.cpu < 0 || !l.ts_at)
		return 0;
	*cpu = l.cpu;
	*ts = l.ts;
	*raw = l.ts_raw;
	return 1;
}

const char *rp_ts_text(uint64_t ns, int raw, char *buf)
{
	if (raw)
		snprintf(buf, RP_TS_LEN, "%llu", (unsigned long long)ns);
	else
		snprintf(buf, RP_TS_LEN, "%llu.%06llu",
			 (unsigned long long)(ns / 1000000000ULL),
			 (unsigned long long)(ns % 1000000000ULL / 1000ULL));
	return buf;
}
