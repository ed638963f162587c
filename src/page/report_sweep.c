/* SPDX-License-Identifier: MIT */
/*
 * A sweep's section of atio report's page, from either source
 * (report_sweep.h): an atio sweep --json document, read here, or a
 * cluster's sweep of a driver's -o document (report_csweep.c). The
 * throughput-latency chart of a one-axis sweep (x the point's value, y
 * its p50 and p99 on a log scale, one point per sweep point in axis
 * order), the peak, the knee, Kneedle's knee and the target's point
 * marked on the p99 line and named in the legend; a cluster's nodes each
 * a thinner p99 line beside the sum's; a heat map for a two-axis grid;
 * the table of the points and the "use:" line. A curve's steps carry an
 * aim and a held flag: shown when present, a step not held marked on the
 * chart, nothing asked of a sweep without them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/document/json_read.h"
#include "atio/page/report_page.h"
#include "atio/page/report_sweep.h"
#include "atio/page/svg.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

/* The choices of a sweep: the member of the document and its legend name. */
static const char *const choice_key[] = { "peak", "knee", "kneedle", "target_point" };
#define NCHOICE ATIO_RSW_CHOICES

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
	if (json_array_size(axes) > ATIO_RSW_AXES)
		return BAD("%s: sweep.axes: more than %d axes", path, ATIO_RSW_AXES);
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

/* The legend name of choice @c of @s: "peak: -p 4". */
static char *choice_name(const struct atio_rsw *s, unsigned c)
{
	char what[96], lim[32], *n = NULL;

	switch (c) {
	case 0: snprintf(what, sizeof(what), "peak"); break;
	case 1: snprintf(what, sizeof(what), "knee (%g%% of the peak)", s->knee_pct); break;
	case 2: snprintf(what, sizeof(what), "Kneedle's knee"); break;
	default:
		atio_svg_time(lim, sizeof(lim), s->target_ns);
		snprintf(what, sizeof(what), "target p%g <= %s", s->target_pct, lim);
	}
	return asprintf(&n, "%s: %s", what, s->pick_opts[c] ? s->pick_opts[c] : "?") < 0 ? NULL : n;
}

/*
 * The throughput-latency chart of a one-axis sweep (or a curve): the
 * (sum's) p50 and p99, each node's p99 beside them, the marks.
 */
static int curve_chart(FILE *f, const struct atio_rsw *s)
{
	unsigned np = s->n, nn = s->nnodes, m = 0, ns = 0, nh = 0;
	double *x = calloc(np + 1, sizeof(double)), *y50 = calloc(np + 1, sizeof(double));
	double *y99 = calloc(np + 1, sizeof(double)), *hx = calloc(2 * np + 1, sizeof(double));
	double *hy = calloc(2 * np + 1, sizeof(double)), mx[NCHOICE], my[NCHOICE];
	double *nx = calloc((size_t)nn * np + 1, sizeof(double));
	double *ny = calloc((size_t)nn * np + 1, sizeof(double));
	struct atio_svg_series *ser = calloc(2 + nn + NCHOICE + 1, sizeof(*ser));
	char **nname = calloc(nn + 1, sizeof(char *)), *names[NCHOICE] = { 0 }, xl[48];
	int ret = 0;

	if (!x || !y50 || !y99 || !hx || !hy || !nx || !ny || !ser || !nname) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < np; i++) {
		const struct atio_rsw_point *p = &s->pt[i];

		if (!p->measured)
			continue;
		x[m] = p->value;
		y50[m] = p->p50;
		y99[m++] = p->p99;
		if (p->held == 0) {
			/* Each on its own: NaN between them lifts the pen. */
			if (nh) {
				hx[nh] = p->value;
				hy[nh++] = NAN;
			}
			hx[nh] = p->value;
			hy[nh++] = p->p99;
		}
	}
	ser[ns++] = (struct atio_svg_series){ .name = nn ? "sum p50" : "p50", .n = m, .x = x,
					      .y = y50, .style = 0, .thick = nn > 0 };
	ser[ns++] = (struct atio_svg_series){ .name = nn ? "sum p99" : "p99", .n = m, .x = x,
					      .y = y99, .style = 1, .thick = nn > 0 };
	/* Each node's own value and p99 at each point it ran; a failed node's left out. */
	for (unsigned k = 0; k < nn; k++) {
		double *kx = nx + (size_t)k * np, *ky = ny + (size_t)k * np;
		unsigned c = 0;

		for (unsigned i = 0; i < np; i++) {
			const struct atio_rsw_point *p = &s->pt[i];

			if (isfinite(p->node_value[k]) && isfinite(p->node_p99[k])) {
				kx[c] = p->node_value[k];
				ky[c++] = p->node_p99[k];
			}
		}
		if (asprintf(&nname[k], "%s p99", s->node[k]) < 0) {
			nname[k] = NULL;
			ret = -ENOMEM;
			goto out;
		}
		/* Thin, and not in the sum's black and vermilion. */
		ser[ns++] = (struct atio_svg_series){ .name = nname[k], .n = c, .x = kx, .y = ky,
						      .style = 2 + k % 6 };
	}
	for (unsigned c = 0; c < NCHOICE; c++) {
		int k = s->pick[c];

		if (k < 0 || !s->pt[k].measured)
			continue;
		names[c] = choice_name(s, c);
		if (!names[c]) {
			ret = -ENOMEM;
			goto out;
		}
		mx[c] = s->pt[k].value;
		my[c] = s->pt[k].p99;
		ser[ns++] = (struct atio_svg_series){ .name = names[c], .n = 1, .x = &mx[c],
						      .y = &my[c], .style = 2 + c, .mark = true };
	}
	if (nh)
		ser[ns++] = (struct atio_svg_series){ .name = "not held: below its aim", .n = nh,
						      .x = hx, .y = hy, .style = 6, .mark = true };
	snprintf(xl, sizeof(xl), "value (%s)", s->unit ? s->unit : "");
	struct atio_svg_chart ch = {
		.id = s->chart_id, .nseries = ns, .series = ser,
		.title = nn ? "Throughput and latency: the cluster's sum and each node's, a point "
			      "per sweep point"
			    : "Throughput and latency: a point per sweep point",
		.x = { .label = xl, .zero = true },
		.y = { .label = "latency (log scale)", .log = true, .fmt = ATIO_SVG_NS },
	};
	atio_svg_line_chart(f, &ch);
out:
	for (unsigned c = 0; c < NCHOICE; c++)
		free(names[c]);
	for (unsigned k = 0; nname && k < nn; k++)
		free(nname[k]);
	free(nname), free(ser), free(nx), free(ny);
	free(x), free(y50), free(y99), free(hx), free(hy);
	return ret;
}

/* The heat map of a two-axis grid: columns the first axis, rows the second. */
static int heat(FILE *f, const struct atio_rsw *s)
{
	json_t *a0 = json_array_get(s->axes, 0), *a1 = json_array_get(s->axes, 1), *v;
	json_t *c0 = json_object_get(a0, "values"), *c1 = json_object_get(a1, "values");
	unsigned nc = (unsigned)json_array_size(c0), nr = (unsigned)json_array_size(c1);
	const char *n0 = json_string_value(json_object_get(a0, "name"));
	const char *n1 = json_string_value(json_object_get(a1, "name"));
	const char **cols = calloc(nc + 1, sizeof(char *)), **rows = calloc(nr + 1, sizeof(char *));
	double *val = calloc((size_t)nc * nr + 1, sizeof(double));
	char title[96], xl[64], yl[64];
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
	for (i = 0; i < s->n; i++) {
		const struct atio_rsw_point *p = &s->pt[i];
		unsigned c, r;

		if (!p->measured)
			continue;
		for (c = 0; c < nc && strcmp(cols[c], p->axis[0]) != 0; c++)
			;
		for (r = 0; r < nr && strcmp(rows[r], p->axis[1]) != 0; r++)
			;
		if (c < nc && r < nr)
			val[r * nc + c] = p->value;
	}
	snprintf(title, sizeof(title), "%s (%s) per point of the grid",
		 s->nnodes ? "The cluster's sum" : "Value", s->unit ? s->unit : "");
	snprintf(xl, sizeof(xl), "%s (%s)", n0 ? n0 : "?",
		 json_string_value(json_object_get(a0, "option")) ?: "");
	snprintf(yl, sizeof(yl), "%s (%s)", n1 ? n1 : "?",
		 json_string_value(json_object_get(a1, "option")) ?: "");
	struct atio_svg_heat h = {
		.id = s->heat_id, .title = title, .xlabel = xl, .ylabel = yl, .ncols = nc,
		.nrows = nr, .cols = cols, .rows = rows, .values = val,
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

static void cell_text(FILE *f, const char *s)
{
	fputs("<td>", f);
	atio_html_escape(f, s);
	fputs("</td>", f);
}

static void cell_head(FILE *f, const char *s)
{
	fputs("<th>", f);
	atio_html_escape(f, s);
	fputs("</th>", f);
}

/* A node's cell at point @p: its value (and a curve step's cap), or failed. */
static void cell_node(FILE *f, const struct atio_rsw_point *p, unsigned k)
{
	if (p->node_failed[k]) {
		fputs("<td><b>failed</b></td>", f);
		return;
	}
	if (!isfinite(p->node_value[k])) {
		fputs("<td class=\"n\">-</td>", f);
		return;
	}
	fprintf(f, "<td class=\"n\">%.2f", p->node_value[k]);
	if (isfinite(p->node_cap[k]))
		fprintf(f, " (cap %.10g)", p->node_cap[k]);
	fputs("</td>", f);
}

/* The table of the points: a curve's aim and held, a cluster's nodes. */
static void table(FILE *f, const struct atio_rsw *s)
{
	bool aim = false, step = false;

	for (unsigned i = 0; i < s->n; i++) {
		aim |= s->pt[i].held >= 0 || isfinite(s->pt[i].aim);
		step |= s->pt[i].step != NULL;
	}
	fputs("<table><tr><th>point</th>", f);
	if (step)
		fputs("<th>step</th>", f);
	for (unsigned a = 0; a < s->naxes; a++)
		cell_head(f, json_string_value(json_object_get(json_array_get(s->axes, a), "name")));
	fputs(s->nnodes ? "<th>sum</th><th>unit</th>" : "<th>value</th><th>unit</th>", f);
	if (aim)
		fputs("<th>aim</th><th>held</th>", f);
	fputs("<th>p50</th><th>p99</th><th>p99.9</th>", f);
	if (s->nnodes)
		for (unsigned k = 0; k < s->nnodes; k++)
			cell_head(f, s->node[k]);
	else
		fputs("<th>CPU %</th>", f);
	fputs("<th>chosen as</th></tr>\n", f);
	for (unsigned i = 0; i < s->n; i++) {
		const struct atio_rsw_point *p = &s->pt[i];
		const char *sep = "";

		fprintf(f, "<tr><td class=\"n\">%u</td>", i + 1);
		if (step)
			cell_text(f, p->step ? p->step : "");
		for (unsigned a = 0; a < s->naxes; a++)
			cell_text(f, p->axis[a]);
		cell_num(f, p->measured ? p->value : NAN);
		cell_text(f, p->measured && s->unit ? s->unit : "");
		if (aim) {
			cell_num(f, p->aim);
			fprintf(f, "<td>%s</td>", p->held < 0 ? "-" :
				p->held ? "yes" : "<b>not held</b>");
		}
		atio_html_cell_time(f, p->p50);
		atio_html_cell_time(f, p->p99);
		atio_html_cell_time(f, p->p999);
		if (s->nnodes)
			for (unsigned k = 0; k < s->nnodes; k++)
				cell_node(f, p, k);
		else
			cell_num(f, p->cpu);
		fputs("<td>", f);
		for (unsigned c = 0; c < NCHOICE; c++)
			if (s->pick[c] == (int)i) {
				fprintf(f, "%s%s", sep, c == 3 ? "target" : choice_key[c]);
				sep = ", ";
			}
		if (!p->measured)
			atio_html_escape(f, p->why);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

int atio_rsw_section(FILE *f, const struct atio_rsw *s)
{
	unsigned run = 0;
	int ret = 0;

	for (unsigned i = 0; i < s->n; i++)
		run += s->pt[i].measured;
	fputs("<h2>", f);
	atio_html_escape(f, s->title);
	fputs("</h2>\n", f);
	fprintf(f, "<p>%u point%s measured of %u.</p>\n", run, run == 1 ? "" : "s", s->n);
	if (s->note) {
		fputs("<p class=\"note\">", f);
		atio_html_escape(f, s->note);
		fputs("</p>\n", f);
	}
	if (!run) {
		fputs("<p class=\"note\">No point was measured: no chart.</p>\n", f);
	} else if (s->naxes == 2) {
		/*
		 * A heat map rather than grouped bars: every cell says its figure,
		 * both axes read the same way, and a 7 by 7 grid stays a
		 * readable table where 49 bars would not.
		 */
		ret = heat(f, s);
	} else if (s->naxes <= 1) {
		ret = curve_chart(f, s);
	} else {
		fprintf(f, "<p class=\"note\">A grid of %u axes: no chart, its points are in the "
			"table.</p>\n", s->naxes);
	}
	table(f, s);
	if (s->use) {
		fputs("<p>use: <code>", f);
		atio_html_escape(f, s->use);
		fputs("</code></p>\n", f);
	}
	return ret;
}

void atio_rsw_free(struct atio_rsw *s)
{
	for (unsigned c = 0; c < NCHOICE; c++)
		free(s->pick_opts[c]);
	for (unsigned i = 0; s->pt && i < s->n; i++) {
		free(s->pt[i].node_value), free(s->pt[i].node_p99);
		free(s->pt[i].node_cap), free(s->pt[i].node_failed);
	}
	free(s->pt), free(s->node), free(s->note), free(s->use);
	memset(s, 0, sizeof(*s));
}

/* A point of an atio sweep --json document: its value is a number. */
static bool measured(json_t *p)
{
	return json_is_number(json_object_get(p, "value")) &&
	       !json_is_false(json_object_get(p, "measured"));
}

/* The index (from 0) of the point @doc chose as @key, or -1. */
static int chosen(json_t *doc, const char *key)
{
	double k = num(json_object_get(doc, key), "point");

	return k >= 1 && k == floor(k) && k <= (double)json_array_size(json_object_get(doc, "points"))
	       ? (int)k - 1 : -1;
}

/* atio sweep --json document @fl as a sweep to draw. */
static int from_doc(const struct atio_rfile *fl, unsigned index, struct atio_rsw *s)
{
	json_t *doc = fl->doc, *sw = json_object_get(doc, "sweep"), *p, *a;
	json_t *pts = json_object_get(doc, "points"), *t = json_object_get(sw, "target");
	const char *use = json_string_value(json_object_get(doc, "use"));
	size_t i, k;

	snprintf(s->title, sizeof(s->title), "Sweep: %s", fl->name);
	snprintf(s->chart_id, sizeof(s->chart_id), "sweep-%u", index);
	snprintf(s->heat_id, sizeof(s->heat_id), "heat-%u", index);
	s->axes = json_object_get(sw, "axes");
	s->naxes = (unsigned)json_array_size(s->axes);
	s->knee_pct = num(sw, "knee_pct");
	if (json_is_object(t)) {
		s->target_pct = num(t, "percentile");
		s->target_ns = num(t, "limit_ns");
	}
	s->n = (unsigned)json_array_size(pts);
	s->pt = calloc(s->n + 1, sizeof(*s->pt));
	if (!s->pt)
		return -ENOMEM;
	json_array_foreach(pts, i, p) {
		struct atio_rsw_point *q = &s->pt[i];
		json_t *held = json_object_get(p, "held");

		json_array_foreach(s->axes, k, a) {
			const char *v = json_string_value(json_object_get(json_object_get(p, "axes"),
				json_string_value(json_object_get(a, "name"))));

			q->axis[k] = v ? v : "";
		}
		q->measured = measured(p);
		if (!q->measured)
			snprintf(q->why, sizeof(q->why), "%s",
				 json_is_true(json_object_get(p, "interrupted")) ? "interrupted"
										 : "not run");
		if (!s->unit && q->measured)
			s->unit = json_string_value(json_object_get(p, "unit"));
		q->value = num(p, "value");
		q->p50 = num(p, "p50_ns");
		q->p99 = num(p, "p99_ns");
		q->p999 = num(p, "p99.9_ns");
		q->cpu = num(p, "cpu_pct");
		q->aim = num(p, "aim");
		q->held = json_is_boolean(held) ? json_is_true(held) : -1;
	}
	for (unsigned c = 0; c < NCHOICE; c++) {
		const char *o = json_string_value(json_object_get(json_object_get(doc, choice_key[c]),
								  "options"));

		s->pick[c] = chosen(doc, choice_key[c]);
		if (o && !(s->pick_opts[c] = strdup(o)))
			return -ENOMEM;
	}
	if (json_is_false(json_object_get(doc, "complete")) &&
	    !(s->note = strdup("The sweep was stopped before its end.")))
		return -ENOMEM;
	if (use && !(s->use = strdup(use)))
		return -ENOMEM;
	return 0;
}

int atio_report_sweep(FILE *f, const struct atio_rfile *fl, unsigned index)
{
	struct atio_rsw s = { 0 };
	int ret = from_doc(fl, index, &s);

	if (!ret)
		ret = atio_rsw_section(f, &s);
	atio_rsw_free(&s);
	return ret;
}
