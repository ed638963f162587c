/* SPDX-License-Identifier: MIT */
/*
 * A sweep's section of atio report's page (atio sweep --json): the
 * throughput-latency chart of a one-axis sweep (x the point's value, y its
 * p50 and p99 on a log scale, one point per sweep point in axis order),
 * the peak, the knee, Kneedle's knee and the target's point marked on the
 * p99 line and named in the legend; a heat map for a two-axis grid; the
 * table of the points and the "use:" line. A curve's steps carry an aim
 * and a held flag: shown when present, a step not held marked on the
 * chart, nothing asked of a sweep without them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/document/json_read.h"
#include "atio/page/report_page.h"
#include "atio/page/svg.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)
#define MAX_AXES 8

/* The choices of a sweep: the member of the document and its legend name. */
static const char *const choice_key[] = { "peak", "knee", "kneedle", "target_point" };
#define NCHOICE (sizeof(choice_key) / sizeof(choice_key[0]))

static double num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int atio_rsweep_check(json_t *doc, const char *path, struct atio_error *e)
{
	json_t *sw = json_object_get(doc, "sweep"), *axes = json_object_get(sw, "axes");
	json_t *pts = json_object_get(doc, "points"), *p, *a;
	size_t i;

	if (!json_is_array(axes) || !json_is_array(pts))
		return BAD("%s: a sweep without sweep.axes or points", path);
	if (json_array_size(axes) > MAX_AXES)
		return BAD("%s: sweep.axes: more than %d axes", path, MAX_AXES);
	json_array_foreach(axes, i, a)
		if (!json_is_string(json_object_get(a, "name")) ||
		    !json_is_array(json_object_get(a, "values")))
			return BAD("%s: sweep.axes[%zu]: no name or values", path, i);
	json_array_foreach(pts, i, p) {
		json_t *v = json_object_get(p, "value"), *u = json_object_get(p, "unit");

		if (!json_is_object(p) || !json_is_object(json_object_get(p, "axes")))
			return BAD("%s: points[%zu]: not a point with axes", path, i);
		if (v && !json_is_null(v) && !json_is_number(v))
			return BAD("%s: points[%zu].value: not a number", path, i);
		if (u && !atio_json_unit_ok(u))
			return BAD("%s: points[%zu].unit: not MB/s, IOPS or sync/s", path, i);
	}
	return 0;
}

/* Point @p's value on axis @name, or "". */
static const char *axis_of(json_t *p, const char *name)
{
	const char *s = json_string_value(json_object_get(json_object_get(p, "axes"), name));

	return s ? s : "";
}

/* The index (from 0) of the point chosen as @key, or -1. */
static int chosen(json_t *doc, const char *key)
{
	double k = num(json_object_get(doc, key), "point");

	return k >= 1 && k == floor(k) && k <= (double)json_array_size(json_object_get(doc, "points"))
	       ? (int)k - 1 : -1;
}

/* The legend name of choice @c of @doc: "peak: -p 4". */
static char *choice_name(json_t *doc, unsigned c)
{
	json_t *sw = json_object_get(doc, "sweep"), *t = json_object_get(sw, "target");
	const char *opts = json_string_value(json_object_get(json_object_get(doc, choice_key[c]),
							   "options"));
	char what[96], lim[32], *s = NULL;

	switch (c) {
	case 0: snprintf(what, sizeof(what), "peak"); break;
	case 1: snprintf(what, sizeof(what), "knee (%g%% of the peak)", num(sw, "knee_pct")); break;
	case 2: snprintf(what, sizeof(what), "Kneedle's knee"); break;
	default:
		atio_svg_time(lim, sizeof(lim), num(t, "limit_ns"));
		snprintf(what, sizeof(what), "target p%g <= %s", num(t, "percentile"), lim);
	}
	return asprintf(&s, "%s: %s", what, opts ? opts : "?") < 0 ? NULL : s;
}

/* A measured point: its value is a number. */
static bool measured(json_t *p)
{
	return json_is_number(json_object_get(p, "value")) &&
	       !json_is_false(json_object_get(p, "measured"));
}

/* The throughput-latency chart of a one-axis sweep (or a curve). */
static int curve_chart(FILE *f, json_t *doc, const char *unit, unsigned index)
{
	json_t *pts = json_object_get(doc, "points"), *p;
	size_t np = json_array_size(pts), i;
	double *x = calloc(np + 1, sizeof(double)), *y50 = calloc(np + 1, sizeof(double));
	double *y99 = calloc(np + 1, sizeof(double)), *nx = calloc(np + 1, sizeof(double));
	double *ny = calloc(np + 1, sizeof(double)), mx[NCHOICE], my[NCHOICE];
	struct atio_svg_series s[2 + NCHOICE + 1];
	char *names[NCHOICE] = { 0 }, id[32], xl[48];
	unsigned m = 0, ns = 0, nn = 0;
	int ret = 0;

	if (!x || !y50 || !y99 || !nx || !ny) {
		ret = -ENOMEM;
		goto out;
	}
	json_array_foreach(pts, i, p) {
		if (!measured(p))
			continue;
		x[m] = num(p, "value");
		y50[m] = num(p, "p50_ns");
		y99[m++] = num(p, "p99_ns");
		if (json_is_false(json_object_get(p, "held"))) {
			/* Each on its own: NaN between them lifts the pen. */
			if (nn) {
				nx[nn] = x[m - 1];
				ny[nn++] = NAN;
			}
			nx[nn] = x[m - 1];
			ny[nn++] = y99[m - 1];
		}
	}
	s[ns++] = (struct atio_svg_series){ .name = "p50", .n = m, .x = x, .y = y50, .style = 0 };
	s[ns++] = (struct atio_svg_series){ .name = "p99", .n = m, .x = x, .y = y99, .style = 1 };
	for (unsigned c = 0; c < NCHOICE; c++) {
		int k = chosen(doc, choice_key[c]);

		if (k < 0 || !measured(json_array_get(pts, (size_t)k)))
			continue;
		names[c] = choice_name(doc, c);
		if (!names[c]) {
			ret = -ENOMEM;
			goto out;
		}
		mx[c] = num(json_array_get(pts, (size_t)k), "value");
		my[c] = num(json_array_get(pts, (size_t)k), "p99_ns");
		s[ns++] = (struct atio_svg_series){ .name = names[c], .n = 1, .x = &mx[c],
						    .y = &my[c], .style = 2 + c, .mark = true };
	}
	if (nn)
		s[ns++] = (struct atio_svg_series){ .name = "not held: below its aim", .n = nn,
						    .x = nx, .y = ny, .style = 6, .mark = true };
	snprintf(id, sizeof(id), "sweep-%u", index);
	snprintf(xl, sizeof(xl), "value (%s)", unit);
	struct atio_svg_chart ch = {
		.id = id, .title = "Throughput and latency: a point per sweep point",
		.nseries = ns, .series = s, .x = { .label = xl, .zero = true },
		.y = { .label = "latency (log scale)", .log = true, .fmt = ATIO_SVG_NS },
	};
	atio_svg_line_chart(f, &ch);
out:
	for (unsigned c = 0; c < NCHOICE; c++)
		free(names[c]);
	free(x), free(y50), free(y99), free(nx), free(ny);
	return ret;
}

/* The heat map of a two-axis grid: columns the first axis, rows the second. */
static int heat(FILE *f, json_t *doc, const char *unit, unsigned index)
{
	json_t *axes = json_object_get(json_object_get(doc, "sweep"), "axes");
	json_t *a0 = json_array_get(axes, 0), *a1 = json_array_get(axes, 1), *p, *v;
	json_t *c0 = json_object_get(a0, "values"), *c1 = json_object_get(a1, "values");
	unsigned nc = (unsigned)json_array_size(c0), nr = (unsigned)json_array_size(c1);
	const char *n0 = json_string_value(json_object_get(a0, "name"));
	const char *n1 = json_string_value(json_object_get(a1, "name"));
	const char **cols = calloc(nc + 1, sizeof(char *)), **rows = calloc(nr + 1, sizeof(char *));
	double *val = calloc((size_t)nc * nr + 1, sizeof(double));
	char id[32], title[96], xl[64], yl[64];
	size_t i;

	if (!cols || !rows || !val) {
		free(cols), free(rows), free(val);
		return -ENOMEM;
	}
	json_array_foreach(c0, i, v)
		cols[i] = json_is_string(v) ? json_string_value(v) : "?";
	json_array_foreach(c1, i, v)
		rows[i] = json_is_string(v) ? json_string_value(v) : "?";
	for (i = 0; i < (size_t)nc * nr; i++)
		val[i] = NAN;
	json_array_foreach(json_object_get(doc, "points"), i, p) {
		unsigned c, r;

		if (!measured(p))
			continue;
		for (c = 0; c < nc && strcmp(cols[c], axis_of(p, n0)) != 0; c++)
			;
		for (r = 0; r < nr && strcmp(rows[r], axis_of(p, n1)) != 0; r++)
			;
		if (c < nc && r < nr)
			val[r * nc + c] = num(p, "value");
	}
	snprintf(id, sizeof(id), "heat-%u", index);
	snprintf(title, sizeof(title), "Value (%s) per point of the grid", unit);
	snprintf(xl, sizeof(xl), "%s (%s)", n0, json_string_value(json_object_get(a0, "option")) ?: "");
	snprintf(yl, sizeof(yl), "%s (%s)", n1, json_string_value(json_object_get(a1, "option")) ?: "");
	struct atio_svg_heat h = {
		.id = id, .title = title, .xlabel = xl, .ylabel = yl, .ncols = nc, .nrows = nr,
		.cols = cols, .rows = rows, .values = val,
	};
	atio_svg_heat_map(f, &h);
	free(cols), free(rows), free(val);
	return 0;
}


static void cell_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "<td class=\"n\">%.2f</td>", v);
	else
		fputs("<td class=\"n\">-</td>", f);
}

/* The table of the points, with a curve's aim and held when there are. */
static void table(FILE *f, json_t *doc)
{
	json_t *axes = json_object_get(json_object_get(doc, "sweep"), "axes");
	json_t *pts = json_object_get(doc, "points"), *p, *a;
	bool aim = false;
	size_t i, k;
	int pick[NCHOICE];

	for (unsigned c = 0; c < NCHOICE; c++)
		pick[c] = chosen(doc, choice_key[c]);
	json_array_foreach(pts, i, p)
		aim |= json_object_get(p, "aim") != NULL || json_object_get(p, "held") != NULL;
	fputs("<table><tr><th>point</th>", f);
	json_array_foreach(axes, k, a) {
		fputs("<th>", f);
		atio_html_escape(f, json_string_value(json_object_get(a, "name")));
		fputs("</th>", f);
	}
	fputs("<th>value</th><th>unit</th>", f);
	if (aim)
		fputs("<th>aim</th><th>held</th>", f);
	fputs("<th>p50</th><th>p99</th><th>p99.9</th><th>CPU %</th><th>chosen as</th></tr>\n", f);
	json_array_foreach(pts, i, p) {
		json_t *held = json_object_get(p, "held");
		const char *sep = "";

		fprintf(f, "<tr><td class=\"n\">%zu</td>", i + 1);
		json_array_foreach(axes, k, a) {
			fputs("<td>", f);
			atio_html_escape(f, axis_of(p, json_string_value(json_object_get(a, "name"))));
			fputs("</td>", f);
		}
		cell_num(f, measured(p) ? num(p, "value") : NAN);
		fputs("<td>", f);
		atio_html_escape(f, json_string_value(json_object_get(p, "unit")));
		fputs("</td>", f);
		if (aim) {
			cell_num(f, num(p, "aim"));
			fprintf(f, "<td>%s</td>", json_is_boolean(held) ?
				(json_is_true(held) ? "yes" : "<b>not held</b>") : "-");
		}
		atio_html_cell_time(f, num(p, "p50_ns"));
		atio_html_cell_time(f, num(p, "p99_ns"));
		atio_html_cell_time(f, num(p, "p99.9_ns"));
		cell_num(f, num(p, "cpu_pct"));
		fputs("<td>", f);
		for (unsigned c = 0; c < NCHOICE; c++)
			if (pick[c] == (int)i) {
				fprintf(f, "%s%s", sep, c == 3 ? "target" : choice_key[c]);
				sep = ", ";
			}
		if (!measured(p))
			fputs(json_is_true(json_object_get(p, "interrupted")) ? "interrupted"
									      : "not run", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

int atio_report_sweep(FILE *f, const struct atio_rfile *fl, unsigned index)
{
	json_t *doc = fl->doc, *axes = json_object_get(json_object_get(doc, "sweep"), "axes");
	json_t *pts = json_object_get(doc, "points"), *p;
	const char *unit = NULL, *use = json_string_value(json_object_get(doc, "use"));
	size_t naxes = json_array_size(axes), i, run = 0;
	int ret = 0;

	json_array_foreach(pts, i, p) {
		if (!unit && measured(p))
			unit = json_string_value(json_object_get(p, "unit"));
		run += measured(p);
	}
	fputs("<h2>Sweep: ", f);
	atio_html_escape(f, fl->name);
	fputs("</h2>\n", f);
	fprintf(f, "<p>%zu point%s measured of %zu", run, run == 1 ? "" : "s",
		json_array_size(pts));
	if (json_is_false(json_object_get(doc, "complete")))
		fputs(": the sweep was stopped before its end", f);
	fputs(".</p>\n", f);
	if (!run) {
		fputs("<p class=\"note\">No point was measured: no chart.</p>\n", f);
	} else if (naxes == 2) {
		/*
		 * A heat map rather than grouped bars: every cell says its figure,
		 * both axes read the same way, and a 7 by 7 grid stays a
		 * readable table where 49 bars would not.
		 */
		ret = heat(f, doc, unit ? unit : "", index);
	} else if (naxes <= 1) {
		ret = curve_chart(f, doc, unit ? unit : "", index);
	} else {
		fprintf(f, "<p class=\"note\">A grid of %zu axes: no chart, its points are in the "
			"table.</p>\n", naxes);
	}
	table(f, doc);
	if (use) {
		fputs("<p>use: <code>", f);
		atio_html_escape(f, use);
		fputs("</code></p>\n", f);
	}
	return ret;
}
