/* SPDX-License-Identifier: MIT */
/*
 * Documents of one study on one timeline. Two runs that overlapped on the
 * wall clock (a reader and a writer started 3 s apart) drawn each from
 * its own start would show the writer's flood 3 s early; when the run
 * documents' measured times (start_epoch to end_epoch) overlap, every
 * run's intervals and stalls move to seconds since the earliest start,
 * and the page shows each run's span. Runs that did not overlap stay at
 * their own starts, and the page says so.
 */
#include <math.h>

#include "atio/page/report_page.h"
#include "atio/page/svg.h"

#define W 760.0                    /* the spans' chart: as wide as the others */
#define LEFT 190.0                 /* room for the documents' names */
#define RIGHT 18.0
#define TOP 34.0
#define ROW 26.0

/* The run of document @f that can be placed on the wall clock, or NULL. */
static struct atio_rrun *timed(const struct atio_rfile *f)
{
	if (f->kind != ATIO_RDOC_RUN || f->nruns != 1)
		return NULL;
	struct atio_rrun *r = &f->runs[0];

	return isfinite(r->start_epoch) && isfinite(r->end_epoch) &&
	       r->end_epoch >= r->start_epoch ? r : NULL;
}

/* True when the span of some other timed document shares time with @r's. */
static bool overlaps(const struct atio_rfile *files, unsigned n, const struct atio_rrun *r)
{
	for (unsigned j = 0; j < n; j++) {
		const struct atio_rrun *o = timed(&files[j]);

		if (o && o != r && o->start_epoch < r->end_epoch && r->start_epoch < o->end_epoch)
			return true;
	}
	return false;
}

unsigned atio_report_align(struct atio_rfile *files, unsigned n)
{
	double t0 = INFINITY;
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++)
		if (timed(&files[i]) && overlaps(files, n, timed(&files[i])))
			t0 = fmin(t0, timed(&files[i])->start_epoch);
	if (!isfinite(t0))
		return 0;
	/* The runs that overlap another go on the study's axis; the others stay. */
	for (unsigned i = 0; i < n; i++) {
		struct atio_rrun *r = timed(&files[i]);

		if (!r || !overlaps(files, n, r))
			continue;
		files[i].aligned = true;
		files[i].at = r->start_epoch - t0;
		for (unsigned t = 0; t < r->nint; t++)
			r->mid[t] += files[i].at;
		for (unsigned s = 0; s < r->nstall_list; s++)
			r->stall_start[s] += files[i].at;
		k++;
	}
	return k;
}

void atio_report_wallclock(FILE *f, const struct atio_rfile *files, unsigned n)
{
	unsigned ntimed = 0, k = 0;

	for (unsigned i = 0; i < n; i++)
		ntimed += timed(&files[i]) != NULL;
	if (ntimed < 2)
		return;
	fputs("<h2>On the wall clock</h2>\n", f);
	bool any = false;

	for (unsigned i = 0; i < n; i++)
		any |= files[i].aligned;
	if (!any) {
		fputs("<p class=\"note\">The runs did not overlap in time: each is drawn from "
		      "its own measured start.</p>\n", f);
		return;
	}
	fputs("<p>The runs overlapped in time: their charts share one axis, seconds since the "
	      "earliest measured start, and each run's span is drawn below.</p>\n", f);
	for (unsigned i = 0; i < n; i++)
		if (timed(&files[i]) && !files[i].aligned) {
			fputs("<p class=\"note\">", f);
			atio_html_escape(f, files[i].name);
			fputs(" overlapped none of the others: it is drawn from its own measured "
			      "start.</p>\n", f);
		}
	double end = 0;

	for (unsigned i = 0; i < n; i++)
		if (timed(&files[i]) && files[i].aligned)
			end = fmax(end, files[i].at + timed(&files[i])->end_epoch -
					timed(&files[i])->start_epoch);
	double step = atio_svg_nice_step(end > 0 ? end : 1, 8), top = ceil(end / step) * step;
	double scale = (W - LEFT - RIGHT) / (top > 0 ? top : 1);

	fprintf(f, "<svg class=\"chart\" data-chart=\"spans\" xmlns=\"http://www.w3.org/2000/svg\" "
		"viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" role=\"img\" "
		"aria-label=\"Each run's measured time\">\n<text class=\"title\" x=\"%.1f\" y=\"20\" "
		"text-anchor=\"middle\">Each run's measured time</text>\n", W, TOP + ROW * ntimed + 40,
		W, TOP + ROW * ntimed + 40, W / 2);
	for (double t = 0; t <= top + step / 2; t += step)
		fprintf(f, "<path class=\"grid\" d=\"M%.1f %.1fV%.1f\"/><text class=\"tick\" "
			"x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", LEFT + t * scale,
			TOP, TOP + ROW * ntimed, LEFT + t * scale, TOP + ROW * ntimed + 14, t);
	for (unsigned i = 0; i < n; i++) {
		const struct atio_rrun *r = timed(&files[i]);
		double x0, x1;

		if (!r || !files[i].aligned)
			continue;
		x0 = files[i].at;
		x1 = x0 + (r->end_epoch - r->start_epoch);
		fprintf(f, "<rect class=\"span\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"#9ecae1\" stroke=\"#08306b\"/><text class=\"legend\" "
			"x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", LEFT + x0 * scale, TOP + ROW * k + 4,
			fmax((x1 - x0) * scale, 1), ROW - 8, LEFT - 6, TOP + ROW * k + ROW / 2 + 4);
		atio_html_escape(f, files[i].name);
		fputs("</text>\n", f);
		k++;
	}
	fprintf(f, "<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">time since "
		"the earliest start (s)</text>\n</svg>\n", LEFT + (W - LEFT - RIGHT) / 2,
		TOP + ROW * ntimed + 34);
	fputs("<table><tr><th>document</th><th>starts at</th><th>ends at</th><th>unit</th>"
	      "</tr>\n", f);
	for (unsigned i = 0; i < n; i++) {
		const struct atio_rrun *r = timed(&files[i]);

		if (!r || !files[i].aligned)
			continue;
		fputs("<tr><td class=\"k\">", f);
		atio_html_escape(f, files[i].name);
		fprintf(f, "</td><td class=\"n\">%.3f s</td><td class=\"n\">%.3f s</td><td>",
			files[i].at, files[i].at + r->end_epoch - r->start_epoch);
		atio_html_escape(f, r->unit);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}
