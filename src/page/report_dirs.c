/* SPDX-License-Identifier: MIT */
/*
 * The figures per direction of a --mix run and the latency of a run's
 * sync calls on atio report's page (atio/page/report_page.h): read from a
 * run's or a merge's document, and shown as rows of the summary under the
 * run's, each named for what it is. A run that syncs has two latencies:
 * its write() calls' (a few microseconds into the page cache) and its
 * fsync() or fdatasync() calls' (the one that reaches the storage).
 */
#include <math.h>
#include <string.h>

#include "atio/page/report_page.h"
#include "atio/page/svg.h"

static const char *const pct_key[ATIO_RPCT] = { "p50", "p99", "p99.9", "max" };
static const char *const dir_key[2] = { "read", "write" };

/* Member @key of @o as a number, NaN when it is not one. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The percentiles a histogram object wrote, NaN without a count. */
static bool figures(const json_t *lat, double *out)
{
	bool any = num(lat, "count") > 0;

	for (unsigned p = 0; p < ATIO_RPCT; p++)
		out[p] = any ? num(lat, pct_key[p]) : NAN;
	return any;
}

void atio_rrun_read_dirs(json_t *doc, struct atio_rrun *r)
{
	const json_t *res = json_object_get(doc, "result");
	double syncs = num(json_is_object(res) ? res : doc, "syncs");
	bool mbs = strcmp(r->unit, "MB/s") == 0;

	r->mixed = json_is_object(json_object_get(doc, dir_key[0])) &&
		   json_is_object(json_object_get(doc, dir_key[1]));
	for (unsigned d = 0; r->mixed && d < 2; d++) {
		const json_t *o = json_object_get(doc, dir_key[d]);

		r->dir_value[d] = num(o, mbs ? "mbs" : "iops");
		figures(json_object_get(o, "latency_ns"), r->dir_pct[d]);
	}
	r->has_sync = syncs > 0 &&
		      figures(json_object_get(doc, "sync_latency_ns"), r->sync_pct);
}

/* One row of the summary: @what of @r, its rate @v (NaN: none) and its latency @pct. */
static void row(FILE *f, const char *doc_name, const struct atio_rrun *r, const char *what,
		double v, const char *unit, const char *is, const double *pct)
{
	fputs("<tr class=\"sub\"><td class=\"k\">", f);
	atio_html_escape(f, doc_name);
	fputs("</td><td>", f);
	if (r->key[0]) {
		atio_html_escape(f, r->key);
		fputs(": ", f);
	}
	atio_html_escape(f, what);
	fputs("</td><td class=\"n\">", f);
	if (isfinite(v)) {
		fprintf(f, "%.2f ", v);
		atio_html_escape(f, unit);
	} else {
		fputc('-', f);
	}
	fputs("</td><td>", f);
	atio_html_escape(f, is);
	fputs("</td>", f);
	for (unsigned p = 0; p < ATIO_RPCT; p++)
		atio_html_cell_time(f, pct[p]);
	fputs("<td class=\"n\">-</td><td class=\"n\">-</td><td class=\"n\">-</td></tr>\n", f);
}

void atio_report_dir_rows(FILE *f, const char *doc_name, const struct atio_rrun *r)
{
	const char *unit = strcmp(r->unit, "MB/s") == 0 ? "MB/s" : "IOPS";

	for (unsigned d = 0; r->mixed && d < 2; d++)
		row(f, doc_name, r, dir_key[d], r->dir_value[d], unit,
		    d ? "its writes alone; latency of the writes" :
			"its reads alone; latency of the reads", r->dir_pct[d]);
	if (r->has_sync)
		row(f, doc_name, r, "sync latency", NAN, "",
		    "latency of the fsync()/fdatasync() calls (the row above: of the "
		    "write() calls)", r->sync_pct);
}
