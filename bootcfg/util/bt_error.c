/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Errors as values (bt_error.h). The message buffer is fixed so that filling
 * an error can never fail; what does not fit is cut visibly with "...", and
 * printing escapes control bytes so that one error is always one line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/bt_error.h"
#include "util/json.h"

#define ELLIPSIS "..."

/*
 * Cut @buf (capacity @cap) so that @room bytes plus the NUL fit after an
 * ellipsis, backing up to a UTF-8 lead byte so no half character is printed.
 * Returns the new length, ellipsis included.
 */
static size_t cut_with_ellipsis(char *buf, size_t cap, size_t room)
{
	size_t cut;

	if (cap < sizeof(ELLIPSIS) + room)
		room = 0;	/* cannot happen with msg[512]; stay in bounds anyway */
	cut = cap - sizeof(ELLIPSIS) - room;
	if (cut > strlen(buf))
		cut = strlen(buf);
	while (cut > 0 && ((unsigned char)buf[cut] & 0xc0) == 0x80)
		cut--;
	memcpy(buf + cut, ELLIPSIS, sizeof(ELLIPSIS));
	return cut + sizeof(ELLIPSIS) - 1;
}

void bt_error_file(struct bt_error *e, const char *file)
{
	size_t n = file ? strlen(file) : 0;

	if (n < sizeof(e->file)) {
		memcpy(e->file, file ? file : "", n + 1);
		return;
	}
	memcpy(e->file, file, sizeof(e->file) - 1);
	e->file[sizeof(e->file) - 1] = '\0';
	cut_with_ellipsis(e->file, sizeof(e->file), 0);
}

/* Shared by set and errno, which differ only in the code and the suffix. */
static void fill(struct bt_error *e, enum bt_exit code, const char *file,
		 const char *fmt, va_list ap)
{
	int n;

	bt_error_file(e, file);
	e->line = 0;
	e->col = 0;
	e->off = -1;
	e->code = code;
	n = vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	if (n < 0)
		snprintf(e->msg, sizeof(e->msg), "(unformattable message: %s)",
			 fmt);
	else if ((size_t)n >= sizeof(e->msg))
		cut_with_ellipsis(e->msg, sizeof(e->msg), 0);
}

/*
 * Append ": @text" to @msg. The system's reason is the part a user acts on,
 * so when space runs out it is our own text that gets shortened.
 */
static void append_reason(char *msg, size_t cap, const char *text)
{
	size_t len = strlen(msg);
	size_t need = 2 + strlen(text);

	if (len + need >= cap)
		len = cut_with_ellipsis(msg, cap, need);
	snprintf(msg + len, cap - len, ": %s", text);
}

void bt_error_clear(struct bt_error *e)
{
	if (!e)
		return;
	memset(e, 0, sizeof(*e));
	e->off = -1;
	e->code = BT_EXIT_OK;
}

int bt_error_set(struct bt_error *e, enum bt_exit code, const char *file,
		 const char *fmt, ...)
{
	int saved = errno;	/* callers often still need errno afterwards */
	va_list ap;

	if (!e)
		return -1;
	va_start(ap, fmt);
	fill(e, code, file, fmt, ap);
	va_end(ap);
	errno = saved;
	return -1;
}

int bt_error_errno(struct bt_error *e, int errnum, const char *file,
		   const char *fmt, ...)
{
	int saved = errno;
	char sys[128];
	const char *reason;
	va_list ap;

	if (!e)
		return -1;
	/* GNU strerror_r: reentrant, may return a static string instead. */
	reason = strerror_r(errnum, sys, sizeof(sys));
	va_start(ap, fmt);
	fill(e, BT_EXIT_ENV, file, fmt, ap);
	va_end(ap);
	append_reason(e->msg, sizeof(e->msg), reason);
	errno = saved;
	return -1;
}

static const char *voice_who = "boottrace";
static enum bt_verbosity voice_level = BT_NORMAL;

void bt_voice_name(const char *who)
{
	voice_who = who ? who : "boottrace";
}

const char *bt_voice(void)
{
	return voice_who;
}

void bt_voice_level(enum bt_verbosity v)
{
	voice_level = v;
}

int bt_verbose(void)
{
	return voice_level == BT_VERBOSE;
}

int bt_quiet(void)
{
	return voice_level == BT_QUIET;
}

/*
 * File names and messages may quote user input; a newline or an escape
 * sequence in them must not split the line or drive the terminal, and a
 * byte that is not UTF-8 must not make the whole output invalid.
 */
void bt_fput_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n, left = strlen(s);

	while (*p) {
		if (*p == '\n')
			fputs("\\n", f), n = 1;
		else if (*p == '\t')
			fputs("\\t", f), n = 1;
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\x%02x", *p), n = 1;
		else if (*p < 0x80)
			fputc(*p, f), n = 1;
		else if ((n = utf8_seq_len(p, left)))
			fwrite(p, 1, n, f);
		else
			fprintf(f, "\\x%02x", *p), n = 1;
		p += n;
		left -= n;
	}
}

static void put_escaped(const char *s, FILE *f)
{
	bt_fput_text(f, s);
}

/* The location prefix, before ": error: ". */
static void put_where(const struct bt_error *e, FILE *f)
{
	if (!e->file[0]) {
		put_escaped(voice_who, f);
		return;
	}
	put_escaped(e->file, f);
	if (e->line > 0) {
		fprintf(f, ":%d", e->line);
		/* Compiler style: no column is better than a made-up one. */
		if (e->col > 0)
			fprintf(f, ":%d", e->col);
	} else if (e->off >= 0) {
		fprintf(f, ": byte %lld", e->off);
	}
}

void bt_error_print(const struct bt_error *e, FILE *f)
{
	if (!e || !f)
		return;
	put_where(e, f);
	fputs(": error: ", f);
	put_escaped(e->msg[0] ? e->msg : "unknown error", f);
	fputc('\n', f);
}

void bt_vsay(const char *who, enum bt_level level, const char *fmt, va_list ap)
{
	static const char *const word[] = { "", "note: ", "warning: ", "error: ", "" };
	char msg[4096], *whole = NULL;
	va_list again;
	int n;

	if (voice_level == BT_QUIET && level != BT_SAY_ERROR && level != BT_SAY_TODO)
		return;
	va_copy(again, ap);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n < 0)
		snprintf(msg, sizeof(msg), "(unformattable message: %s)", fmt);
	else if ((size_t)n >= sizeof(msg) && level == BT_SAY_TODO &&
		 (whole = malloc((size_t)n + 1)))
		/* what to do is said whole: a cut command line would be wrong */
		vsnprintf(whole, (size_t)n + 1, fmt, again);
	else if ((size_t)n >= sizeof(msg))
		cut_with_ellipsis(msg, sizeof(msg), 0);
	va_end(again);
	put_escaped(who ? who : voice_who, stderr);
	fputs(": ", stderr);
	fputs(word[level], stderr);
	put_escaped(whole ? whole : msg, stderr);
	fputc('\n', stderr);
	free(whole);
}

void bt_say(const char *who, enum bt_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	bt_vsay(who, level, fmt, ap);
	va_end(ap);
}
