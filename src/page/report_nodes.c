/* SPDX-License-Identifier: MIT */
/*
 * The table of nodes of a driver's test on atio report's page
 * (atio/page/report_page.h): for the iteration the charts show, each node's
 * value and its share of the iteration's sum, its p99, how long after the
 * first node its measured time began, and the thread count and dataset
 * size it resolved (THREADS=auto and -u auto make them differ from node
 * to node); a node that failed says so, with its exit status. A --mix
 * test has each node's reads and writes apart; a test that syncs, the
 * latency of its sync calls beside that of its write() calls.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "atio/page/report_page.h"
#include "atio/page/svg.h"

/* Member @key of @o as a number, NaN when it is not one. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* A cell of @v with @decimals and @suffix, "-" when it is not known. */
static void cell(FILE *f, double v, int decimals, const char *suffix)
{
	fputs("<td class=\"n\">", f);
	if (isfinite(v))
		fprintf(f, "%.*f%s", decimals, v, suffix);
	else
		fputc('-', f);
	fputs("</td>", f);
}

/* The earliest start of the nodes that ran: the offsets are from it. */
static double first_start(const json_t *nodes)
{
	double first = INFINITY;
	const json_t *n;
	size_t i;

	json_array_foreach(nodes, i, n) {
		double s = num(n, "start_epoch");

		if (json_is_true(json_object_get(n, "ok")) && s < first)
			first = s;
	}
	return first;
}

void atio_report_nodes(FILE *f, const char *doc_name, const struct atio_rrun *r)
{
	const char *unit = strcmp(r->unit, "MB/s") == 0 ? "MB/s" : "IOPS";
	unsigned cols = 6 + 2 * r->mixed + r->has_sync;
	const json_t *n;
	double first;
	size_t i;

	if (!r->node_records || !json_array_size(r->node_records))
		return;
	first = first_start(r->node_records);
	fputs("<table class=\"nodes\"><caption>", f);
	atio_html_escape(f, doc_name);
	fprintf(f, ": the nodes in iteration %u (sum %.2f ", r->iteration, r->iter_value);
	atio_html_escape(f, r->unit);
	fputs(")</caption>\n<tr><th>node</th><th>value</th><th>share of the sum</th>", f);
	if (r->mixed)
		fprintf(f, "<th>reads (%s)</th><th>writes (%s)</th>", unit, unit);
	fputs(r->has_sync ? "<th>write() p99</th><th>sync p99</th>" : "<th>p99</th>", f);
	fputs("<th>started after the first</th><th>threads</th><th>dataset</th></tr>\n", f);
	json_array_foreach(r->node_records, i, n) {
		const json_t *host = json_object_get(n, "host");
		const json_t *lat = json_object_get(n, "latency_us");
		double v = num(n, "value"), size = num(n, "total_size");

		fputs("<tr><td class=\"k\">", f);
		atio_html_escape(f, json_is_string(host) ? json_string_value(host) : "?");
		fputs("</td>", f);
		if (!json_is_true(json_object_get(n, "ok"))) {
			double rc = num(n, "rc");

			if (isfinite(rc))
				fprintf(f, "<td colspan=\"%u\">failed (exit %.0f)</td></tr>\n", cols,
					rc);
			else
				fprintf(f, "<td colspan=\"%u\">failed</td></tr>\n", cols);
			continue;
		}
		fputs("<td class=\"n\">", f);
		if (isfinite(v))
			fprintf(f, "%.2f ", v);
		atio_html_escape(f, r->unit);
		fputs("</td>", f);
		cell(f, r->iter_value > 0 ? 100.0 * v / r->iter_value : NAN, 1, "%");
		for (unsigned d = 0; r->mixed && d < 2; d++)
			cell(f, num(json_object_get(n, d ? "write" : "read"), unit[0] == 'M' ? "mbs" :
				    "iops"), 2, "");
		cell(f, num(lat, "p99"), 2, " us");
		if (r->has_sync)
			cell(f, num(json_object_get(n, "sync_latency_us"), "p99"), 2, " us");
		cell(f, 1000.0 * (num(n, "start_epoch") - first), 1, " ms");
		cell(f, num(n, "threads"), 0, "");
		cell(f, size / 1048576.0, 2, " MiB");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}
