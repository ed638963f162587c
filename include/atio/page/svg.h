/* SPDX-License-Identifier: MIT */
#ifndef ATIO_SVG_H
#define ATIO_SVG_H

/*
 * Charts as inline SVG for atio report (svg.c): line charts over linear or
 * logarithmic axes, bar charts with min-max whiskers. Axes carry labels
 * with units and ticks on "nice" steps (1, 2 or 5 times a power of ten),
 * labelled the SI way (2.5k, 40M; 500 µs, 2 ms). Every series has a
 * colour, a dash pattern and, when it has few points, a marker shape, so
 * that a page printed in grey still tells the series apart; a legend names
 * them. Nothing is fetched and no script runs: the SVG is plain markup,
 * every string from a document escaped.
 *
 * The markup is fixed for the tests that count it: each chart is an
 * <svg class="chart" data-chart=ID>, each series a <g class="series">
 * holding one <path class="line"> whose "d" has one M or L command per
 * point, each marked band a <rect class="band">, each bar a
 * <rect class="bar"> and each whisker a <path class="whisker">.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* How an axis labels its ticks. */
enum atio_svg_fmt {
	ATIO_SVG_NUM,              /* a number, SI-prefixed: 2.5k, 40M */
	ATIO_SVG_NS,               /* nanoseconds shown as a time: 800 ns, 2 ms */
};

struct atio_svg_axis {
	const char *label;         /* with its unit, e.g. "time since start (s)" */
	bool log;                  /* logarithmic (values <= 0 are left out) */
	bool zero;                 /* a linear axis that starts at 0 at most */
	enum atio_svg_fmt fmt;
	double cover[2];           /* a range shown at least, when cover[1] > cover[0] */
};

/* One line: @n points; a y that is NaN leaves a gap. */
struct atio_svg_series {
	const char *name;
	unsigned n;
	const double *x, *y;
	unsigned style;            /* colour, dash and marker index */
	bool thick;                /* drawn wider (a cluster's sum) */
	bool mark;                 /* no line: a ring round each point (a chosen point) */
};

/* An interval of x to shade, e.g. a stall. */
struct atio_svg_band {
	double x0, x1;
};

struct atio_svg_chart {
	const char *id;            /* unique in the page: ids inside derive from it */
	const char *title;
	struct atio_svg_axis x, y;
	unsigned nseries;
	const struct atio_svg_series *series;
	unsigned nbands;
	const struct atio_svg_band *bands;
	const char *band_name;     /* its legend entry, e.g. "stall" */
};

/* A line chart of @c on @f. */
void atio_svg_line_chart(FILE *f, const struct atio_svg_chart *c);

/*
 * Bars in groups: @ngroups groups along x (group g labelled @groups[g],
 * "\n" splitting it over two lines), @nsets bars in each (set s named
 * @sets[s] in the legend). Bar (g, s) is avg[g * nsets + s] with a whisker
 * from min[...] to max[...]; a NaN average draws no bar.
 */
struct atio_svg_bars {
	const char *id, *title, *ylabel;
	unsigned ngroups, nsets;
	const char *const *groups, *const *sets;
	const double *avg, *min, *max;
};

void atio_svg_bar_chart(FILE *f, const struct atio_svg_bars *b);

/*
 * A heat map (svg_heat.c): @nrows rows of @ncols cells, cell (r, c) of
 * value values[r * ncols + c] (NaN: no cell), labelled with it and
 * coloured from light (the lowest) to dark (the highest).
 */
struct atio_svg_heat {
	const char *id, *title, *xlabel, *ylabel;
	unsigned ncols, nrows;
	const char *const *cols, *const *rows;
	const double *values;
};

void atio_svg_heat_map(FILE *f, const struct atio_svg_heat *h);

/* @s on @f with &, <, >, " and ' escaped for HTML text and attributes. */
void atio_html_escape(FILE *f, const char *s);

/*
 * A tick step for @span split in about @parts: 1, 2 or 5 times a power of
 * ten, the smallest such step that gives at most @parts parts.
 */
double atio_svg_nice_step(double span, unsigned parts);

/* @v as a short label in @buf: SI prefix (k, M, G) and up to 3 decimals. */
void atio_svg_num(char *buf, size_t len, double v);

/* @ns nanoseconds as a short time in @buf: "800 ns", "2.5 µs", "12 ms", "1.5 s". */
void atio_svg_time(char *buf, size_t len, double ns);

/* A table cell of latency @ns as atio_svg_time writes it, "-" when not finite. */
void atio_html_cell_time(FILE *f, double ns);

#endif
