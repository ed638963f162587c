/* SPDX-License-Identifier: MIT */
/*
 * The tables at the top of atio report's page: the summary (each rate
 * said for what it is: a run's result, a merge's sum, a driver's test's
 * average) and, with several documents, each one's rate and latency over
 * the first's.
 */
#include <math.h>
#include <string.h>

#include "atio/page/report_page.h"
#include "atio/page/svg.h"

static void esc(FILE *f, const char *s)
{
	atio_html_escape(f, s);
}

/* A figure in a table cell. */
static void cell_num(FILE *f, double v, const char *unit)
{
	if (!isfinite(v)) {
		fputs("<td class=\"n\">-</td>", f);
		return;
	}
	fprintf(f, "<td class=\"n\">%.2f%s", v, unit ? " " : "");
	if (unit)
		esc(f, unit);
	fputs("</td>", f);
}


/* The run of document @fl with key @key, or NULL. */
const struct atio_rrun *atio_rfile_find(const struct atio_rfile *fl, const char *key)
{
	for (unsigned r = 0; r < fl->nruns; r++)
		if (strcmp(fl->runs[r].key, key) == 0)
			return &fl->runs[r];
	return NULL;
}

/*
 * What the rate of @r is, for the summary: a run's result, a merge's sum,
 * or a driver's test's average over its counted iterations, with the
 * iteration that its charts show and that iteration's sum.
 */
static void rate_of(FILE *f, const struct atio_rrun *r)
{
	if (r->combined) {
		fputs("the phase's: every job's I/O over its time", f);
		return;
	}
	if (!r->iteration) {
		if (r->ndocs)
			fprintf(f, "sum of %u document%s", r->ndocs, r->ndocs == 1 ? "" : "s");
		else
			fputs("the run's result", f);
		return;
	}
	if (!isfinite(r->value))
		fputs("no average: no iteration was counted", f);
	else if (r->counted)
		fprintf(f, "average of %u iteration%s (of %u run)", r->counted,
			r->counted == 1 ? "" : "s", r->runs);
	else
		fputs("the driver's average", f);
	fprintf(f, "; the charts: iteration %u, sum %.2f ", r->iteration, r->iter_value);
	esc(f, r->unit);
}

static void summary(FILE *f, const struct atio_rfile *files, unsigned n)
{
	unsigned runs = 0;

	for (unsigned i = 0; i < n; i++)
		runs += files[i].nruns;
	if (!runs)
		return;
	fputs("<h2>Summary</h2>\n<table><tr><th>document</th><th>test</th><th>rate</th>"
	      "<th>rate is</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th><th>intervals</th>"
	      "<th>stalls</th><th>longest stall</th></tr>\n", f);
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = 0; k < files[i].nruns; k++) {
			const struct atio_rrun *r = &files[i].runs[k];

			fputs("<tr><td class=\"k\">", f);
			esc(f, files[i].name);
			fputs("</td><td>", f);
			esc(f, r->key[0] ? r->key : "-");
			fputs("</td>", f);
			cell_num(f, r->value, r->unit);
			fputs("<td>", f);
			rate_of(f, r);
			fputs("</td>", f);
			for (unsigned p = 0; p < ATIO_RPCT; p++)
				atio_html_cell_time(f, r->has_pct ? r->pct[p] : NAN);
			fprintf(f, "<td class=\"n\">%u</td>", r->nint);
			if (r->timeline)
				fprintf(f, "<td class=\"n\">%u</td><td class=\"n\">%.3f s</td></tr>\n",
					r->stalls, r->longest_stall);
			else
				fputs("<td class=\"n\">-</td><td class=\"n\">-</td></tr>\n", f);
			atio_report_dir_rows(f, files[i].name, r);
		}
	fputs("</table>\n", f);
}

/* With several documents: each one's rate and p99 over the first's. */
static void ratios(FILE *f, const struct atio_rfile *files, unsigned n, const char **key,
		   unsigned nkeys)
{
	unsigned rows = 0;

	for (unsigned k = 0; k < nkeys; k++)
		for (unsigned i = 1; i < n; i++)
			rows += atio_rfile_find(&files[0], key[k]) && atio_rfile_find(&files[i], key[k]);
	if (!rows) {
		if (n > 1)
			fputs("<p class=\"note\">No test is in the first document and another: "
			      "no ratios.</p>\n", f);
		return;
	}
	fputs("<h2>Ratios to ", f);
	esc(f, files[0].name);
	fputs("</h2>\n<table><tr><th>test</th><th>document</th><th>rate ratio</th>"
	      "<th>p99 ratio</th><th>p99.9 ratio</th></tr>\n", f);
	for (unsigned k = 0; k < nkeys; k++) {
		const struct atio_rrun *a = atio_rfile_find(&files[0], key[k]);

		for (unsigned i = 1; i < n; i++) {
			const struct atio_rrun *b = atio_rfile_find(&files[i], key[k]);

			if (!a || !b)
				continue;
			fputs("<tr><td>", f);
			esc(f, key[k][0] ? key[k] : "-");
			fputs("</td><td class=\"k\">", f);
			esc(f, files[i].name);
			fputs("</td>", f);
			cell_num(f, strcmp(a->unit, b->unit) == 0 && a->value > 0 ?
				 b->value / a->value : NAN, NULL);
			cell_num(f, a->has_pct && b->has_pct && a->pct[1] > 0 ?
				 b->pct[1] / a->pct[1] : NAN, NULL);
			cell_num(f, a->has_pct && b->has_pct && a->pct[2] > 0 ?
				 b->pct[2] / a->pct[2] : NAN, NULL);
			fputs("</tr>\n", f);
		}
	}
	fputs("</table>\n<p class=\"note\">Above 1: the document has the higher rate (or "
	      "latency) than the first.</p>\n", f);
}

void atio_report_summary(FILE *f, const struct atio_rfile *files, unsigned n, const char **key,
			 unsigned nkeys)
{
	summary(f, files, n);
	ratios(f, files, n, key, nkeys);
}
