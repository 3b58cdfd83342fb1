/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One progress line on a terminal, rate-limited (progress.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "util/progress.h"

static uint64_t progress_now(const struct bt_progress *p)
{
	struct timespec ts;

	if (p->clock)
		return p->clock();
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void bt_progress_init(struct bt_progress *p, int fd, int quiet, const char *who)
{
	const char *term = getenv("TERM");

	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->who = who ? who : "boottrace";
	/* a dumb terminal (or none named) may not know "\r" and erase-line */
	if (!quiet && fd >= 0 && isatty(fd) && term && *term && strcmp(term, "dumb"))
		p->fd = fd;
}

int bt_progress_on(const struct bt_progress *p)
{
	return p && p->fd >= 0;
}

/* All of @buf, or the terminal is given up (no error: progress is extra). */
static void progress_write(struct bt_progress *p, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(p->fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			p->fd = -1;
			return;
		}
		buf += w;
		len -= (size_t)w;
	}
}

/* Columns of the terminal, less one: a line that wraps cannot be redrawn. */
static size_t progress_width(const struct bt_progress *p)
{
	struct winsize ws;

	if (ioctl(p->fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col - 1u < 400 ? ws.ws_col - 1u : 400;
	return 79;
}

/* Names come from the input: a control or non-ASCII byte is drawn as '?'. */
static void progress_clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

static void progress_draw(struct bt_progress *p, const char *item, uint64_t now)
{
	char text[512], line[520];
	size_t n, width = progress_width(p);

	n = (size_t)snprintf(text, sizeof(text), "%s: %s", p->who, p->what);
	if (n < sizeof(text) && p->total)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " %llu/%llu (%llu%%)",
				      p->done, p->total,
				      p->done >= p->total ? 100 : p->done * 100 / p->total);
	else if (n < sizeof(text) && p->done)
		n += (size_t)snprintf(text + n, sizeof(text) - n, " %llu", p->done);
	if (n < sizeof(text) && item && *item)
		snprintf(text + n, sizeof(text) - n, " %s", item);
	progress_clean(text);
	text[width < sizeof(text) ? width : sizeof(text) - 1] = '\0';
	/* back to the line's start, the text, the rest of the old line erased */
	n = (size_t)snprintf(line, sizeof(line), "\r%s\033[K", text);
	progress_write(p, line, n < sizeof(line) ? n : sizeof(line) - 1);
	p->last = now ? now : 1;
	p->shown = p->fd >= 0;
	p->draws++;
}

/* Draw when the last line is BT_PROGRESS_MS old (or there was none). */
static void progress_tick(struct bt_progress *p, const char *item)
{
	uint64_t now = progress_now(p);

	if (p->last && now - p->last < (uint64_t)BT_PROGRESS_MS * 1000000u)
		return;
	progress_draw(p, item, now);
}

void bt_progress_stage(struct bt_progress *p, const char *what,
		       unsigned long long total)
{
	if (!bt_progress_on(p))
		return;
	snprintf(p->what, sizeof(p->what), "%s", what);
	p->total = total;
	p->done = 0;
	progress_tick(p, NULL);
}

void bt_progress_update(struct bt_progress *p, unsigned long long done,
			const char *item)
{
	if (!bt_progress_on(p))
		return;
	p->done = done;
	progress_tick(p, item);
}

void bt_progress_clear(struct bt_progress *p)
{
	if (!bt_progress_on(p) || !p->shown)
		return;
	progress_write(p, "\r\033[K", 4);
	p->shown = 0;
}

void bt_progress_end(struct bt_progress *p)
{
	bt_progress_clear(p);
	if (p)
		p->fd = -1;
}
