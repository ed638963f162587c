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

#include "atio/out/report_page.h"
#include "atio/out/svg.h"

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
	/* Every timed run goes on the study's axis, those that overlap none too. */
	for (unsigned i = 0; i < n; i++) {
		struct atio_rrun *r = timed(&files[i]);

		if (!r)
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
	double x[2 * n], y[2 * n];
	struct atio_svg_series s[n];

	fputs("<table><tr><th>document</th><th>starts at</th><th>ends at</th><th>unit</th>"
	      "</tr>\n", f);
	for (unsigned i = 0; i < n; i++) {
		const struct atio_rrun *r = timed(&files[i]);

		if (!r || !files[i].aligned)
			continue;
		x[2 * k] = files[i].at;
		x[2 * k + 1] = files[i].at + (r->end_epoch - r->start_epoch);
		y[2 * k] = y[2 * k + 1] = k + 1;
		s[k] = (struct atio_svg_series){ .name = files[i].name, .n = 2, .x = &x[2 * k],
						 .y = &y[2 * k], .style = k, .thick = true };
		fputs("<tr><td class=\"k\">", f);
		atio_html_escape(f, files[i].name);
		fprintf(f, "</td><td class=\"n\">%.3f s</td><td class=\"n\">%.3f s</td><td>",
			x[2 * k], x[2 * k + 1]);
		atio_html_escape(f, r->unit);
		fputs("</td></tr>\n", f);
		k++;
	}
	fputs("</table>\n", f);
	struct atio_svg_chart c = {
		.id = "spans", .title = "Each run's measured time", .nseries = k, .series = s,
		.x = { .label = "time since the earliest start (s)", .zero = true },
		.y = { .label = "run", .zero = true },
	};
	atio_svg_line_chart(f, &c);
}
