/* SPDX-License-Identifier: MIT */
/*
 * A heat map as inline SVG for atio report: a grid of cells, one per
 * point of a two-axis sweep, coloured from light (low) to dark (high) by
 * its value and labelled with it, so that it reads as a table too and
 * printed in grey still says each figure. The markup is fixed for the
 * tests: an <svg class="chart" data-chart=ID> with a <rect class="cell">
 * and a <text class="value"> per cell that has a value.
 */
#include <math.h>

#include "atio/page/svg.h"

#define W 760.0                    /* width of the chart */
#define LEFT 110.0                 /* room for the row labels and the y label */
#define TOP 52.0                   /* the title and the column labels */
#define RIGHT 18.0
#define BOTTOM 30.0                /* the x label */
#define CELL_H 34.0

/* The colour of share @t (0 to 1) of the way from light to dark blue. */
static void shade(char *buf, size_t len, double t)
{
	static const double lo[3] = { 0xee, 0xf4, 0xfb }, hi[3] = { 0x08, 0x30, 0x6b };
	unsigned c[3];

	if (!(t >= 0))
		t = 0;
	if (t > 1)
		t = 1;
	for (unsigned i = 0; i < 3; i++)
		c[i] = (unsigned)lround(lo[i] + (hi[i] - lo[i]) * t);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

void atio_svg_heat_map(FILE *f, const struct atio_svg_heat *h)
{
	double lo = INFINITY, hi = -INFINITY;
	double cw = h->ncols ? (W - LEFT - RIGHT) / h->ncols : 0;
	double height = TOP + CELL_H * h->nrows + BOTTOM;

	for (unsigned i = 0; i < h->nrows * h->ncols; i++)
		if (isfinite(h->values[i])) {
			lo = fmin(lo, h->values[i]);
			hi = fmax(hi, h->values[i]);
		}
	fputs("<svg class=\"chart\" data-chart=\"", f);
	atio_html_escape(f, h->id);
	fprintf(f, "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
		"width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"", W, height, W, height);
	atio_html_escape(f, h->title);
	fprintf(f, "\">\n<text class=\"title\" x=\"%.1f\" y=\"20\" text-anchor=\"middle\">",
		W / 2);
	atio_html_escape(f, h->title);
	fputs("</text>\n", f);
	for (unsigned c = 0; c < h->ncols; c++) {
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			LEFT + cw * (c + 0.5), TOP - 6);
		atio_html_escape(f, h->cols[c]);
		fputs("</text>\n", f);
	}
	for (unsigned r = 0; r < h->nrows; r++) {
		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			LEFT - 6, TOP + CELL_H * (r + 0.5) + 4);
		atio_html_escape(f, h->rows[r]);
		fputs("</text>\n", f);
		for (unsigned c = 0; c < h->ncols; c++) {
			double v = h->values[r * h->ncols + c], t;
			char fill[8], num[32];

			if (!isfinite(v))
				continue;
			t = hi > lo ? (v - lo) / (hi - lo) : 1;
			shade(fill, sizeof(fill), t);
			atio_svg_num(num, sizeof(num), v);
			fprintf(f, "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\" stroke=\"#fff\"/><text class=\"value\" "
				"x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
				LEFT + cw * c, TOP + CELL_H * r, cw, CELL_H, fill, LEFT + cw * (c + 0.5),
				TOP + CELL_H * (r + 0.5) + 4, t > 0.5 ? "#fff" : "#111", num);
		}
	}
	fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		LEFT + (W - LEFT - RIGHT) / 2, TOP + CELL_H * h->nrows + 20);
	atio_html_escape(f, h->xlabel);
	fprintf(f, "</text>\n<text class=\"axis\" transform=\"translate(16 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">", TOP + CELL_H * h->nrows / 2);
	atio_html_escape(f, h->ylabel);
	fputs("</text>\n</svg>\n", f);
}
