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
 * "name: fields" (events, kprobes). Only pointers into the line are
 * returned: this runs once per line of a trace of hundreds of megabytes.
 */
#include <string.h>

#include "report.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static const char *skip_sp(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

size_t rp_sym_len(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] == ' ' || s[i] == '\t')
			return i;
		if (s[i] == '+' && i + 2 < len && s[i + 1] == '0' &&
		    s[i + 2] == 'x')
			return i;
	}
	return len;
}

/*
 * "S.U" seconds (the default clocks) or an integer (counter clocks); the
 * fraction is scaled to nanoseconds whatever its width.
 */
static const char *parse_ts(const char *p, const char *end, struct rp_line *l)
{
	uint64_t sec = 0, frac = 0;
	int nd = 0, fd = 0;

	while (p < end && is_digit(*p) && nd < 19) {
		sec = sec * 10 + (uint64_t)(*p++ - '0');
		nd++;
	}
	if (!nd)
		return NULL;
	if (p < end && *p == '.') {
		p++;
		while (p < end && is_digit(*p)) {
			if (fd < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				fd++;
			}
			p++;
		}
		while (fd < 9) {
			frac *= 10;
			fd++;
		}
		l->ts = sec * 1000000000ULL + frac;
		l->ts_raw = 0;
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

static int is_flag(char c)
{
	return c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       is_digit(c);
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
	for (q = p; q < end && *q != ' ' && *q != ':'; q++)
		;
	if (q < end && *q == ':') {
		l->kind = RP_EVENT;
		l->a_len = (size_t)(q - p);
		q = skip_sp(q + 1, end);
		l->b = q;
		l->b_len = (size_t)(end - q);
		return;
	}
	l->kind = RP_FUNC;
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
	p = parse_ts(p, end, l);
	if (!p || end - p < 2 || p[0] != ':' || p[1] != ' ')
		return -1;
	split_body(p + 2, end, l);
	return 0;
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
		l->kind = RP_BAD;
	}
}
