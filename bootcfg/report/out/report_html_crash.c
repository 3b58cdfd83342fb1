// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML page's part for a boot that died (docs/crash.md): a banner at
 * the top naming the panic or the dead boot, and a section with what the
 * text report says of it (report_dump_out.c for a console dump,
 * report_prev.c for a persistent instance's previous boot), written once
 * there and escaped here, so that the page and the text never differ;
 * and the crash in words, which the SVG, the Perfetto JSON and --diff
 * say too (rp_crash_words).
 */
#include <stdio.h>
#include <stdlib.h>

#include "report/out/pic.h"

/* The text of @put(@a, @b, f) escaped into a <pre>; -1 when it fails. */
static int html_pre(FILE *f, const char *id, const char *title,
		    int (*put)(const void *a, const void *b, FILE *f),
		    const void *a, const void *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -1;
	rc = put(a, b, m);
	if (fclose(m) || rc) {
		free(buf);
		return -1;
	}
	fprintf(f, "<section id=\"%s\"><h2>%s</h2>\n<pre style=\"white-space:pre-wrap\">", id, title);
	rp_put_xmln(buf, len, f);
	fputs("</pre></section>\n", f);
	free(buf);
	return 0;
}

static int put_dump(const void *a, const void *b, FILE *f)
{
	(void)b;
	rp_dump_text(a, f);
	return 0;
}

static int put_prev(const void *a, const void *b, FILE *f)
{
	return rp_prev_print_text(a, b, f) ? -1 : 0;
}

int rp_crash_words(const struct rp_snap *s, char *buf, size_t cap)
{
	const struct rp_dump *d = s ? s->dump : NULL;

	if (!d) {
		if (cap)
			buf[0] = '\0';
		return 0;
	}
	snprintf(buf, cap, "%s%s%s%s",
		 d->panic[0] ? d->panic : d->oops[0] ? d->oops :
		 "an ftrace dump with no panic or oops line",
		 d->nopen && !d->truncated ? "; the initcall that never finished: " : "",
		 d->nopen && !d->truncated ? d->open[0].func : "",
		 d->truncated ? "; the dump is cut" : "");
	return 1;
}

void rp_html_crash_banner(const struct rp_snap *s, FILE *f)
{
	char words[800];

	if (rp_crash_words(s, words, sizeof(words))) {
		fputs("<div class=\"banner damage\"><b>The boot died</b>: ", f);
		rp_put_xml(words, f);
		fputs(" <a href=\"#crash\">crash</a></div>\n", f);
	}
	if (s && s->prev) {
		fputs("<div class=\"banner warn\"><b>A previous boot's trace</b> was kept in the persistent instance ", f);
		rp_put_xml(s->prev->name, f);
		fputs(" <a href=\"#previous-boot\">previous boot</a></div>\n", f);
	}
}

int rp_html_crash(const struct rp_snap *s, FILE *f)
{
	if (s && s->dump &&
	    html_pre(f, "crash", "The crash (ftrace dump)", put_dump, s->dump, NULL))
		return -1;
	if (s && s->prev &&
	    html_pre(f, "previous-boot", "The previous boot", put_prev, s->prev, s->prev_syms))
		return -1;
	return 0;
}
