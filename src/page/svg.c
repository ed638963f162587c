/* SPDX-License-Identifier: MIT */
/*
 * Inline SVG charts for atio report. A chart is a frame of fixed size: a
 * title on top, the plot with its grid and ticks, the axis labels, and a
 * legend below that grows a row for every four series. Coordinates are
 * written with one decimal: a tenth of a pixel is below what a screen or
 * printer shows.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "atio/page/svg.h"

#define W 760.0                    /* width of a chart */
#define PLOT_H 250.0               /* height of its plot area */
#define LEFT 78.0                  /* room for the y ticks and label */
#define RIGHT 18.0
#define TOP 34.0                   /* room for the title */
#define BOTTOM 46.0                /* room for the x ticks and label */
#define LEGEND_ROW 20.0
#define LEGEND_COLS 4              /* at most, when the names are short */
#define LEGEND_CHAR 7.2            /* a character of the legend's 12px sans-serif, at its widest */
#define MARKER_MAX 40              /* series with more points get no markers */

/*
 * Colours with distinct lightness (so that grey levels differ too), dash
 * patterns and marker shapes; series i takes entry i of each, modulo
 * their lengths, which differ so that combinations repeat late.
 */
static const char *const colour[] = {
	"#000000", "#d55e00", "#0072b2", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#7f7f7f",
};
static const char *const dash[] = {
	"none", "8 4", "2 3", "10 3 2 3", "5 2", "12 3 3 3 3 3", "1 2",
};
#define NCOLOUR (sizeof(colour) / sizeof(colour[0]))
#define NDASH (sizeof(dash) / sizeof(dash[0]))
#define NMARK 5

void atio_html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* Control characters would make the XML of an SVG invalid. */
			putc((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t' ? '?' : *s, f);
		}
	}
}

double atio_svg_nice_step(double span, unsigned parts)
{
	static const double mult[] = { 1, 2, 5, 10 };
	double raw, mag;

	if (!(span > 0) || !isfinite(span) || parts == 0)
		return 1.0;
	raw = span / parts;
	mag = pow(10.0, floor(log10(raw)));
	for (unsigned i = 0; i < 4; i++)
		if (mult[i] * mag >= raw * (1 - 1e-9))
			return mult[i] * mag;
	return 10 * mag;
}

/* @v / @div with up to 3 decimals, trailing zeros dropped, then @suffix. */
static void trimmed(char *buf, size_t len, double v, const char *suffix)
{
	char num[48];
	char *p;

	snprintf(num, sizeof(num), "%.3f", v);
	p = num + strlen(num) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	if (strcmp(num, "-0") == 0)
		strcpy(num, "0");
	snprintf(buf, len, "%s%s", num, suffix);
}

void atio_svg_num(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a >= 1e12)
		trimmed(buf, len, v / 1e12, "T");
	else if (a >= 1e9)
		trimmed(buf, len, v / 1e9, "G");
	else if (a >= 1e6)
		trimmed(buf, len, v / 1e6, "M");
	else if (a >= 1e3)
		trimmed(buf, len, v / 1e3, "k");
	else
		trimmed(buf, len, v, "");
}

void atio_svg_time(char *buf, size_t len, double ns)
{
	double a = fabs(ns);

	if (a >= 1e9)
		trimmed(buf, len, ns / 1e9, " s");
	else if (a >= 1e6)
		trimmed(buf, len, ns / 1e6, " ms");
	else if (a >= 1e3)
		trimmed(buf, len, ns / 1e3, " µs");
	else
		trimmed(buf, len, ns, " ns");
}

static void label(char *buf, size_t len, double v, enum atio_svg_fmt fmt)
{
	if (fmt == ATIO_SVG_NS)
		atio_svg_time(buf, len, v);
	else
		atio_svg_num(buf, len, v);
}

/* An axis fitted to its data: the range, and how values map onto pixels. */
struct scale {
	const struct atio_svg_axis *a;
	double lo, hi;             /* in values; log10 of them on a log axis */
	double p0, p1;             /* pixels of lo and hi */
	bool empty;
};

static bool usable(const struct atio_svg_axis *a, double v)
{
	return isfinite(v) && (!a->log || v > 0);
}

/* Widen [*lo, *hi] by @v. */
static void take(double *lo, double *hi, double v, bool *any)
{
	if (!*any || v < *lo)
		*lo = v;
	if (!*any || v > *hi)
		*hi = v;
	*any = true;
}

/* Round the data range [lo, hi] outwards to whole ticks. */
static void fit(struct scale *s, double lo, double hi, bool any)
{
	double step;

	s->empty = !any;
	if (!any) {
		lo = s->a->log ? 1 : 0;
		hi = s->a->log ? 1000 : 1;
	}
	if (s->a->log) {
		s->lo = floor(log10(lo));
		s->hi = ceil(log10(hi));
		if (s->hi <= s->lo)
			s->hi = s->lo + 1;
		return;
	}
	if (s->a->zero && lo > 0)
		lo = 0;
	if (hi <= lo) {
		hi = lo + (lo == 0 ? 1 : fabs(lo) * 0.1);
		lo = lo == 0 || s->a->zero ? lo : lo - fabs(lo) * 0.1;
	}
	step = atio_svg_nice_step(hi - lo, 6);
	s->lo = floor(lo / step + 1e-9) * step;
	s->hi = ceil(hi / step - 1e-9) * step;
}

static double px(const struct scale *s, double v)
{
	double t = s->a->log ? log10(v) : v;

	return s->p0 + (t - s->lo) / (s->hi - s->lo) * (s->p1 - s->p0);
}

/*
 * The ticks of @s: on a linear axis every nice step; on a log axis each
 * power of ten, and 2 and 5 times it when the axis spans three decades or
 * fewer. Returns how many were stored in @t (at most @max).
 */
static unsigned ticks(const struct scale *s, double *t, unsigned max)
{
	unsigned n = 0;

	if (s->a->log) {
		bool fine = s->hi - s->lo <= 3;

		for (double d = s->lo; d <= s->hi + 1e-9 && n < max; d++) {
			double p = pow(10.0, d);

			t[n++] = p;
			if (fine && d < s->hi - 1e-9 && n + 2 <= max) {
				t[n++] = 2 * p;
				t[n++] = 5 * p;
			}
		}
		return n;
	}
	double step = atio_svg_nice_step(s->hi - s->lo, 6);

	for (double v = s->lo; v <= s->hi + step * 1e-6 && n < max; v += step)
		t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

/* The frame: the plot area, grid, ticks, axis labels and title. */
static void frame(FILE *f, const char *title, const struct scale *x, const struct scale *y)
{
	double t[64];
	unsigned n;
	char buf[32];

	fprintf(f, "<text class=\"title\" x=\"%.1f\" y=\"20\" text-anchor=\"middle\">", W / 2);
	atio_html_escape(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fff\" "
		"stroke=\"#444\"/>\n", LEFT, TOP, W - LEFT - RIGHT, PLOT_H);
	n = ticks(y, t, 64);
	for (unsigned i = 0; i < n; i++) {
		double p = px(y, t[i]);

		label(buf, sizeof(buf), t[i], y->a->fmt);
		fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fH%.1f\"/><text class=\"tick\" "
			"x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", LEFT, p,
			W - RIGHT, LEFT - 6, p + 4, buf);
	}
	if (x) {
		n = ticks(x, t, 64);
		for (unsigned i = 0; i < n; i++) {
			double p = px(x, t[i]);

			label(buf, sizeof(buf), t[i], x->a->fmt);
			fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fV%.1f\"/><text class=\"tick\" "
				"x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", p, TOP,
				TOP + PLOT_H, p, TOP + PLOT_H + 16, buf);
		}
		fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			LEFT + (W - LEFT - RIGHT) / 2, TOP + PLOT_H + 36);
		atio_html_escape(f, x->a->label);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text class=\"axis\" transform=\"translate(16 %.1f) rotate(-90)\" "
		"text-anchor=\"middle\">", TOP + PLOT_H / 2);
	atio_html_escape(f, y->a->label);
	fputs("</text>\n", f);
}

/* <defs>: a marker of each shape in each colour used, and the hatching of bands. */
static void defs(FILE *f, const char *id, unsigned nstyles)
{
	static const char *const shape[NMARK] = {
		"<circle cx=\"5\" cy=\"5\" r=\"3\"", "<rect x=\"2\" y=\"2\" width=\"6\" height=\"6\"",
		"<path d=\"M5 1.5L8.5 8H1.5Z\"", "<path d=\"M5 1L9 5L5 9L1 5Z\"",
		"<path d=\"M2 2L8 8M8 2L2 8\" stroke-width=\"1.6\"",
	};

	fputs("<defs>\n", f);
	for (unsigned i = 0; i < nstyles; i++)
		fprintf(f, "<marker id=\"%s-m%u\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" "
			"markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\">"
			"%s fill=\"%s\" stroke=\"%s\"/></marker>\n", id, i, shape[i % NMARK],
			i % NMARK == 4 ? "none" : colour[i % NCOLOUR], colour[i % NCOLOUR]);
	fprintf(f, "<pattern id=\"%s-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
		"patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f4c7c3\"/>"
		"<path d=\"M0 0V6\" stroke=\"#b3261e\" stroke-width=\"1.5\"/></pattern>\n", id);
	fprintf(f, "<clipPath id=\"%s-clip\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\"/></clipPath>\n</defs>\n", id, LEFT, TOP, W - LEFT - RIGHT, PLOT_H);
}

/* The stroke attributes of style @s. */
static void stroke(FILE *f, const char *id, unsigned s, bool thick, bool markers)
{
	fprintf(f, " fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-dasharray=\"%s\"",
		colour[s % NCOLOUR], thick ? "2.6" : "1.5", dash[s % NDASH]);
	if (markers)
		fprintf(f, " marker-start=\"url(#%s-m%u)\" marker-mid=\"url(#%s-m%u)\" "
			"marker-end=\"url(#%s-m%u)\"", id, s, id, s, id, s);
}

/* The characters of @s (UTF-8: its bytes that begin one). */
static unsigned chars(const char *s)
{
	unsigned n = 0;

	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/*
 * The columns of a legend whose longest name has @longest characters,
 * after a sample @sample wide: as many as fit side by side without one
 * name running into the next, at most LEGEND_COLS, at least one.
 */
static unsigned legend_cols(unsigned longest, double sample)
{
	unsigned cols = (unsigned)((W - LEFT) / (sample + 6 + longest * LEGEND_CHAR + 12));

	return cols < 1 ? 1 : cols > LEGEND_COLS ? LEGEND_COLS : cols;
}

/* Where legend entry @k goes in a legend of @cols columns. */
static void legend_at(unsigned k, unsigned cols, double *x, double *y)
{
	*x = LEFT + (double)(k % cols) * ((W - LEFT) / cols);
	*y = TOP + PLOT_H + BOTTOM + 8 + (double)(k / cols) * LEGEND_ROW;
}

/* One legend entry @k of the chart's legend of @cols columns. */
static void legend_item(FILE *f, const char *id, unsigned k, unsigned cols,
			const struct atio_svg_series *s, const char *band_name)
{
	double x, y;

	legend_at(k, cols, &x, &y);
	if (!s)
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"28\" height=\"10\" "
			"fill=\"url(#%s-hatch)\"/>", x, y - 5, id);
	else if (s->mark)
		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\"/>", x + 14, y, colour[s->style % NCOLOUR]);
	else {
		fprintf(f, "<path d=\"M%.1f %.1fh14h14\"", x, y);
		stroke(f, id, s->style, s->thick, s->n <= MARKER_MAX);
		fputs("/>", f);
	}
	fprintf(f, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">", x + 34, y + 4);
	atio_html_escape(f, s ? s->name : band_name);
	fputs("</text>\n", f);
}

static double legend_height(unsigned items, unsigned cols)
{
	return items ? 10 + (double)((items + cols - 1) / cols) * LEGEND_ROW : 0;
}

static void svg_open(FILE *f, const char *id, const char *title, double height)
{
	fprintf(f, "<svg class=\"chart\" data-chart=\"");
	atio_html_escape(f, id);
	fprintf(f, "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %.0f %.0f\" "
		"width=\"%.0f\" height=\"%.0f\" role=\"img\" aria-label=\"", W, height, W, height);
	atio_html_escape(f, title);
	fputs("\">\n", f);
}

void atio_svg_line_chart(FILE *f, const struct atio_svg_chart *c)
{
	struct scale x = { .a = &c->x, .p0 = LEFT, .p1 = W - RIGHT };
	struct scale y = { .a = &c->y, .p0 = TOP + PLOT_H, .p1 = TOP };
	double xlo = 0, xhi = 0, ylo = 0, yhi = 0, height;
	bool xany = false, yany = false;
	unsigned items = c->nseries + (c->nbands ? 1 : 0), longest = 0, cols;

	for (unsigned i = 0; i < c->nseries; i++) {
		const struct atio_svg_series *s = &c->series[i];

		for (unsigned k = 0; k < s->n; k++) {
			if (!usable(&c->x, s->x[k]))
				continue;
			take(&xlo, &xhi, s->x[k], &xany);
			if (usable(&c->y, s->y[k]))
				take(&ylo, &yhi, s->y[k], &yany);
		}
	}
	if (c->x.cover[1] > c->x.cover[0]) {
		take(&xlo, &xhi, c->x.cover[0], &xany);
		take(&xlo, &xhi, c->x.cover[1], &xany);
	}
	for (unsigned i = 0; i < c->nbands; i++) {
		take(&xlo, &xhi, c->bands[i].x0, &xany);
		take(&xlo, &xhi, c->bands[i].x1, &xany);
	}
	for (unsigned i = 0; i < c->nseries; i++)
		longest = chars(c->series[i].name) > longest ? chars(c->series[i].name) : longest;
	if (c->nbands && chars(c->band_name ? c->band_name : "marked") > longest)
		longest = chars(c->band_name ? c->band_name : "marked");
	cols = legend_cols(longest, 28);
	fit(&x, xlo, xhi, xany);
	fit(&y, ylo, yhi, yany);
	height = TOP + PLOT_H + BOTTOM + legend_height(items, cols);
	svg_open(f, c->id, c->title, height);
	defs(f, c->id, c->nseries);
	frame(f, c->title, &x, &y);
	fprintf(f, "<g clip-path=\"url(#%s-clip)\">\n", c->id);
	for (unsigned i = 0; i < c->nbands; i++) {
		double a = px(&x, c->bands[i].x0), b = px(&x, c->bands[i].x1);

		fprintf(f, "<rect class=\"band\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"url(#%s-hatch)\" fill-opacity=\"0.7\"/>\n", a, TOP,
			b - a < 2 ? 2 : b - a, PLOT_H, c->id);
	}
	for (unsigned i = 0, marks = 0; i < c->nseries; i++) {
		const struct atio_svg_series *s = &c->series[i];
		bool pen_up = true;

		fputs("<g class=\"series\" data-name=\"", f);
		atio_html_escape(f, s->name);
		fputs("\"><path class=\"line\" d=\"", f);
		for (unsigned k = 0; k < s->n; k++) {
			if (!usable(&c->x, s->x[k]) || !usable(&c->y, s->y[k])) {
				pen_up = true;
				continue;
			}
			fprintf(f, "%s%.1f %.1f", pen_up ? "M" : "L", px(&x, s->x[k]),
				px(&y, s->y[k]));
			pen_up = false;
		}
		fputs("\"", f);
		if (s->mark)
			fputs(" fill=\"none\" stroke=\"none\"", f);
		else
			stroke(f, c->id, s->style, s->thick, s->n <= MARKER_MAX);
		fputs("/>", f);
		/* A mark: a ring round each point, each mark of the chart a size larger. */
		for (unsigned k = 0; s->mark && k < s->n; k++)
			if (usable(&c->x, s->x[k]) && usable(&c->y, s->y[k]))
				fprintf(f, "<circle class=\"mark\" cx=\"%.1f\" cy=\"%.1f\" r=\"%u\" "
					"fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>",
					px(&x, s->x[k]), px(&y, s->y[k]), 7 + 3 * (marks % 5),
					colour[s->style % NCOLOUR]);
		marks += s->mark;
		fputs("</g>\n", f);
	}
	fputs("</g>\n", f);
	if (!yany)
		fprintf(f, "<text class=\"nodata\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
			"no data</text>\n", W / 2, TOP + PLOT_H / 2);
	for (unsigned i = 0; i < c->nseries; i++)
		legend_item(f, c->id, i, cols, &c->series[i], NULL);
	if (c->nbands)
		legend_item(f, c->id, c->nseries, cols, NULL,
			    c->band_name ? c->band_name : "marked");
	fputs("</svg>\n", f);
}

/* The fill of bar set @s: its colour, and for s > 0 a pattern over it. */
static void bar_patterns(FILE *f, const char *id, unsigned nsets)
{
	static const char *const pat[] = {
		"", "<path d=\"M0 0V6\" stroke=\"#fff\" stroke-width=\"2\"/>",
		"<circle cx=\"3\" cy=\"3\" r=\"1.3\" fill=\"#fff\"/>",
		"<path d=\"M0 3H6M3 0V6\" stroke=\"#fff\" stroke-width=\"1.4\"/>",
	};

	fputs("<defs>\n", f);
	for (unsigned s = 0; s < nsets; s++)
		fprintf(f, "<pattern id=\"%s-p%u\" width=\"6\" height=\"6\" "
			"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
			"<rect width=\"6\" height=\"6\" fill=\"%s\"/>%s</pattern>\n", id, s,
			colour[(s + 2) % NCOLOUR], pat[s % 4]);
	fputs("</defs>\n", f);
}

void atio_svg_bar_chart(FILE *f, const struct atio_svg_bars *b)
{
	static const struct atio_svg_axis yax0 = { .zero = true, .fmt = ATIO_SVG_NUM };
	struct atio_svg_axis yax = yax0;
	struct scale y = { .a = &yax, .p0 = TOP + PLOT_H, .p1 = TOP };
	double lo = 0, hi = 0, gw, bw, height;
	bool any = false;
	unsigned nb = b->ngroups * b->nsets, longest = 0, cols;

	yax.label = b->ylabel;
	for (unsigned i = 0; i < nb; i++) {
		if (isfinite(b->avg[i]))
			take(&lo, &hi, b->avg[i], &any);
		if (isfinite(b->max[i]))
			take(&lo, &hi, b->max[i], &any);
	}
	fit(&y, lo, hi, any);
	for (unsigned s = 0; s < b->nsets; s++)
		longest = chars(b->sets[s]) > longest ? chars(b->sets[s]) : longest;
	cols = legend_cols(longest, 24);
	height = TOP + PLOT_H + BOTTOM + legend_height(b->nsets, cols);
	svg_open(f, b->id, b->title, height);
	bar_patterns(f, b->id, b->nsets);
	frame(f, b->title, NULL, &y);
	gw = (W - LEFT - RIGHT) / (b->ngroups ? b->ngroups : 1);
	bw = gw * 0.8 / (b->nsets ? b->nsets : 1);
	for (unsigned g = 0; g < b->ngroups; g++) {
		double gx = LEFT + gw * g;
		const char *nl = strchr(b->groups[g], '\n');

		fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			gx + gw / 2, TOP + PLOT_H + 16);
		if (nl) {
			char first[128];

			snprintf(first, sizeof(first), "%.*s", (int)(nl - b->groups[g]), b->groups[g]);
			atio_html_escape(f, first);
			fprintf(f, "<tspan x=\"%.1f\" dy=\"14\">", gx + gw / 2);
			atio_html_escape(f, nl + 1);
			fputs("</tspan>", f);
		} else {
			atio_html_escape(f, b->groups[g]);
		}
		fputs("</text>\n", f);
		for (unsigned s = 0; s < b->nsets; s++) {
			unsigned i = g * b->nsets + s;
			double x0 = gx + gw * 0.1 + bw * s, top, cx = x0 + bw / 2;
			char buf[32];

			if (!isfinite(b->avg[i]))
				continue;
			top = px(&y, b->avg[i]);
			fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"url(#%s-p%u)\" stroke=\"#222\"/>\n", x0, top,
				bw - 2, TOP + PLOT_H - top, b->id, s);
			if (isfinite(b->min[i]) && isfinite(b->max[i])) {
				double a = px(&y, b->min[i]), z = px(&y, b->max[i]);

				fprintf(f, "<path class=\"whisker\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh%.1f"
					"M%.1f %.1fh%.1f\" stroke=\"#000\" stroke-width=\"1.3\"/>\n",
					cx - 1, a, z, cx - 1 - bw / 5, a, 2 * bw / 5, cx - 1 - bw / 5, z,
					2 * bw / 5);
			}
			atio_svg_num(buf, sizeof(buf), b->avg[i]);
			if (isfinite(b->max[i]) && px(&y, b->max[i]) < top)
				top = px(&y, b->max[i]);
			fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
				"%s</text>\n", cx - 1, top - 4, buf);
		}
	}
	for (unsigned s = 0; s < b->nsets; s++) {
		double x, ly;

		legend_at(s, cols, &x, &ly);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"24\" height=\"12\" "
			"fill=\"url(#%s-p%u)\" stroke=\"#222\"/><text class=\"legend\" x=\"%.1f\" "
			"y=\"%.1f\">", x, ly - 6, b->id, s, x + 30, ly + 4);
		atio_html_escape(f, b->sets[s]);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
}

/* See svg.h. */
void atio_html_cell_time(FILE *f, double ns)
{
	char buf[32];

	if (!isfinite(ns)) {
		fputs("<td class=\"n\">-</td>", f);
		return;
	}
	atio_svg_time(buf, sizeof(buf), ns);
	fprintf(f, "<td class=\"n\">%s</td>", buf);
}
