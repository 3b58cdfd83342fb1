// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the printers put around the report's values: text escaped for
 * HTML/XML and JSON, a trace time, a task's comm (pic.h).
 */
#include <string.h>

#include "report/out/pic.h"
#include "util/json.h"

void rp_put_xmln(const char *s, size_t n, FILE *f)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* XML 1.0 has no control characters; trace text is ASCII */
			fputc(c < 0x20 && c != '\n' && c != '\t' ? '?' :
			      c >= 0x80 ? '?' : (int)c, f);
		}
	}
}

void rp_put_xml(const char *s, FILE *f)
{
	rp_put_xmln(s, (size_t)-1, f);
}

void rp_put_json(const char *s, FILE *f)
{
	json_fputs(f, s);
}

void rp_put_secs(const struct report *r, uint64_t ts, FILE *f)
{
	char b[RP_TS_LEN];

	fputs(rp_ts_text(ts, r->ts_raw, b), f);
}

void rp_task_comm(const char *task, char *buf, size_t cap)
{
	const char *d = strrchr(task, '-');
	size_t n = d && d > task ? (size_t)(d - task) : strlen(task);

	if (!cap)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, task, n);
	buf[n] = 0;
}
