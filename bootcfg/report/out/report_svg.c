// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A flame graph of the captured stacks as one SVG file: the lines of
 * -f folded (report_folded.c, the same caller paths and counts) merged
 * into a tree, the root at the bottom, each frame as wide as its hits.
 * Every frame has a <title> (name, hits, share) for hover; nothing needs
 * script. Frames narrower than a tenth of a pixel are merged into their
 * parent's width (their hits stay counted in it). A boot that died (an
 * ftrace dump in a console log) is a banner under the title.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/out/pic.h"
#include "util/grow.h"

#define W 1200.0
#define ROW 17
#define MIN_W 0.1

struct fnode {
	uint32_t name;		/* in the folded text: offset of a NUL-ended frame */
	uint32_t child, next;
	uint64_t count;
};

struct flame {
	struct fnode *v;
	size_t n, cap;
	uint32_t depth;
};

static uint32_t child_of(struct flame *g, uint32_t up, const char *text,
			 uint32_t name)
{
	uint32_t c;

	for (c = g->v[up].child; c != RP_NONE; c = g->v[c].next)
		if (!strcmp(text + g->v[c].name, text + name))
			return c;
	if (BT_GROW(g->v, g->n + 1, g->cap))
		return RP_NONE;
	c = (uint32_t)g->n++;
	g->v[c] = (struct fnode){ name, RP_NONE, g->v[up].child, 0 };
	g->v[up].child = c;
	return c;
}

/* Merge the folded lines of @text (modified: frames NUL-ended). */
static int build(struct flame *g, char *text, size_t len)
{
	char *p = text, *end = text + len, *nl, *sp, *q;
	uint32_t node, depth;
	uint64_t count;

	if (BT_GROW(g->v, 1, g->cap))
		return -1;
	g->v[0] = (struct fnode){ RP_NONE, RP_NONE, RP_NONE, 0 };
	g->n = 1;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		*nl = 0;
		sp = strrchr(p, ' ');
		if (!sp)
			continue;
		*sp = 0;
		count = strtoull(sp + 1, NULL, 10);
		g->v[0].count += count;
		node = 0;
		depth = 0;
		for (q = p; q; p = q) {
			q = strchr(p, ';');
			if (q)
				*q++ = 0;
			node = child_of(g, node, text, (uint32_t)(p - text));
			if (node == RP_NONE)
				return -1;
			g->v[node].count += count;
			depth++;
		}
		if (depth > g->depth)
			g->depth = depth;
	}
	return 0;
}

static void frames(const struct flame *g, const char *text, uint32_t node,
		   double x, uint32_t depth, double height, FILE *f)
{
	uint64_t total = g->v[0].count;
	double w = W * (double)g->v[node].count / (double)total;
	const char *name = node ? text + g->v[node].name : "all";
	uint32_t c;
	double y = height - ROW * (depth + 1.0) - 4;
	size_t fit;

	if (w < MIN_W)
		return;
	fprintf(f, "<g><title>");
	rp_put_xml(name, f);
	fprintf(f, " (%llu hit%s, %.2f%%)</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" fill=\"",
		(unsigned long long)g->v[node].count,
		g->v[node].count == 1 ? "" : "s",
		100.0 * (double)g->v[node].count / (double)total, x, y, w, ROW - 1);
	if (!node)
		fputs("#bbb", f);
	else {
		unsigned h = 0;
		const char *s;

		for (s = name; *s; s++)
			h = h * 31 + (unsigned char)*s;
		fprintf(f, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 130,
			40 + (h >> 16) % 40);
	}
	fputs("\" rx=\"2\"/>", f);
	fit = (size_t)(w / 7.0);
	if (fit >= 3) {
		fprintf(f, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + ROW - 5);
		if (strlen(name) <= fit)
			rp_put_xml(name, f);
		else {
			rp_put_xmln(name, fit - 2, f);
			fputs("..", f);
		}
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
	for (c = g->v[node].child; c != RP_NONE; c = g->v[c].next) {
		frames(g, text, c, x, depth + 1, height, f);
		x += W * (double)g->v[c].count / (double)total;
	}
}

int rp_print_svg(const struct rp_out *o, FILE *f)
{
	struct flame g = { 0 };
	char *text = NULL;
	size_t len = 0;
	double height;
	FILE *m = open_memstream(&text, &len);
	char words[800];
	int ret = -1, died;

	if (!m)
		return -1;
	if (rp_print_folded(o, m) || fclose(m) || build(&g, text, len))
		goto out;
	died = rp_crash_words(o->snap, words, sizeof(words));
	height = ROW * (g.depth + 1.0) + 40 + (died ? 22 : 0);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
		"<style>text{font:12px monospace;fill:#000;pointer-events:none}rect:hover{stroke:#000}</style>\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<text x=\"%.0f\" y=\"20\" text-anchor=\"middle\" style=\"font-size:15px\">",
		W + 20, height, W + 20, height, (W + 20) / 2);
	fputs("boottrace flame graph: ", f);
	rp_put_xml(o->input, f);
	fprintf(f, " (%llu hit%s; hover a frame for its count)</text>\n",
		(unsigned long long)(g.n ? g.v[0].count : 0),
		g.n && g.v[0].count == 1 ? "" : "s");
	if (died) {	/* under the title, in the dump's words (report_html_crash.c) */
		fputs("<g id=\"crash\"><title>The boot died (the ftrace dump in the console log): ", f);
		rp_put_xml(words, f);
		fprintf(f, "</title><rect x=\"10\" y=\"28\" width=\"%.0f\" height=\"18\" fill=\"#fdecea\" stroke=\"#b71c1c\"/>"
			"<text x=\"16\" y=\"41\" style=\"fill:#b71c1c\">The boot died: ", W);
		rp_put_xml(words, f);
		fputs("</text></g>\n", f);
	}
	fprintf(f, "<g transform=\"translate(10,%d)\">\n", died ? 22 : 0);
	if (g.n && g.v[0].count)
		frames(&g, text, 0, 0, 0, height - (died ? 22 : 0), f);
	else
		fputs("<text x=\"10\" y=\"50\">no traced function in this trace</text>\n", f);
	fputs("</g>\n</svg>\n", f);
	ret = ferror(f) ? -1 : 0;
out:
	free(g.v);
	free(text);
	return ret;
}
