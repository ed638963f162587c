/* SPDX-License-Identifier: MIT */
/*
 * Metadata runs on atio report's page (atio/page/report_page.h): the
 * phases of an atio --meta --json document (or of atio merge's of them),
 * each with its two rates (the slowest thread or node setting the phase's
 * time, and each one's own rate added up) and the latency of one
 * operation; a table per document, then charts of ops/s and of latency
 * per phase over the documents. A phase too short to time has no rate,
 * as the text says "too fast to measure".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/page/report_page.h"
#include "atio/page/svg.h"

static const char *const pct_key[ATIO_RPCT] = { "p50", "p99", "p99.9", "max" };

/* Member @key of @o as a number, NaN when it is not one. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int atio_rmeta_read(json_t *doc, struct atio_rfile *f, struct atio_error *e)
{
	const json_t *phases = json_object_get(doc, "phases"), *ph;
	const char *workload = json_string_value(json_object_get(json_object_get(doc,
									"settings"),
							    "workload"));
	size_t i;

	if (strcmp(workload, "meta") != 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: settings.workload '%s': "
				      "not a workload atio report knows (meta)", f->path, workload);
	f->phases = calloc(json_array_size(phases) + 1, sizeof(*f->phases));
	if (!f->phases)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", f->path);
	json_array_foreach(phases, i, ph) {
		struct atio_rphase *p = &f->phases[f->nphases];
		const json_t *name = json_object_get(ph, "phase");
		const json_t *lat = json_object_get(ph, "latency_ns");
		double sum = num(ph, "threads_sum_ops_per_sec");

		if (!json_is_string(name) || !isfinite(num(ph, "ops")) ||
		    !isfinite(num(ph, "elapsed_ns")))
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: phases[%zu]: no "
					      "phase, ops or elapsed_ns", f->path, i);
		snprintf(p->name, sizeof(p->name), "%s", json_string_value(name));
		p->ops = num(ph, "ops");
		p->time_s = num(ph, "elapsed_ns") / 1e9;
		p->ops_per_sec = num(ph, "ops_per_sec");
		p->sum_ops_per_sec = isfinite(sum) ? sum : num(ph, "nodes_sum_ops_per_sec");
		p->too_fast = json_is_true(json_object_get(ph, "too_fast"));
		for (unsigned k = 0; k < ATIO_RPCT; k++)
			p->pct[k] = num(lat, "count") > 0 ? num(lat, pct_key[k]) : NAN;
		f->nphases++;
	}
	return 0;
}

/* A rate in a cell: "too fast to measure" for a phase too short to time. */
static void cell_rate(FILE *f, const struct atio_rphase *p, double v)
{
	if (p->too_fast)
		fputs("<td>too fast to measure</td>", f);
	else if (isfinite(v))
		fprintf(f, "<td class=\"n\">%.2f ops/s</td>", v);
	else
		fputs("<td class=\"n\">-</td>", f);
}

/* The table of the phases of metadata document @fl. */
static void table(FILE *f, const struct atio_rfile *fl)
{
	const char *who = json_is_number(json_object_get(fl->doc, "merged")) ? "node" : "thread";

	fputs("<table class=\"phases\"><caption>", f);
	atio_html_escape(f, fl->name);
	fprintf(f, ": the phases</caption>\n<tr><th>phase</th><th>operations</th><th>time</th>"
		"<th>ops/s (the slowest %s sets the time)</th><th>ops/s (each %s's own, added "
		"up)</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th></tr>\n", who, who);
	for (unsigned i = 0; i < fl->nphases; i++) {
		const struct atio_rphase *p = &fl->phases[i];

		fputs("<tr><td class=\"k\">", f);
		atio_html_escape(f, p->name);
		fprintf(f, "</td><td class=\"n\">%.0f</td><td class=\"n\">%.3f s</td>", p->ops,
			p->time_s);
		cell_rate(f, p, p->ops_per_sec);
		cell_rate(f, p, p->sum_ops_per_sec);
		for (unsigned k = 0; k < ATIO_RPCT; k++)
			atio_html_cell_time(f, p->pct[k]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The phase named @name of @fl, or NULL. */
static const struct atio_rphase *phase(const struct atio_rfile *fl, const char *name)
{
	for (unsigned i = 0; i < fl->nphases; i++)
		if (strcmp(fl->phases[i].name, name) == 0)
			return &fl->phases[i];
	return NULL;
}

/* The phases' names over the metadata documents, each once, in order: their number. */
static unsigned phase_names(const struct atio_rfile *files, unsigned n, const char **out,
			    unsigned max)
{
	unsigned k = 0;

	for (unsigned d = 0; d < n; d++)
		for (unsigned i = 0; files[d].kind == ATIO_RDOC_META && i < files[d].nphases; i++) {
			unsigned j = 0;

			while (j < k && strcmp(out[j], files[d].phases[i].name) != 0)
				j++;
			if (j == k && k < max)
				out[k++] = files[d].phases[i].name;
		}
	return k;
}

/* The points of the latency chart: p50, p99 and p99.9 (max would flatten them). */
#define LAT_POINTS 3u

/* The two charts over @docs[@nd] (metadata documents) and the phases @names[@np]. */
static void charts(FILE *f, const struct atio_rfile *const *docs, unsigned nd,
		   const char *const *names, unsigned np)
{
	unsigned nl = nd * LAT_POINTS;
	double *avg = calloc((size_t)np * nl, sizeof(double));
	double *none = calloc((size_t)np * nl, sizeof(double));
	const char **sets = calloc(nl, sizeof(*sets));
	char **labels = calloc(nl, sizeof(*labels));
	struct atio_svg_bars b = { .groups = names, .ngroups = np };
	double top = 0;

	if (!avg || !none || !sets || !labels)
		goto out;
	for (unsigned i = 0; i < np * nl; i++)
		none[i] = NAN;
	for (unsigned d = 0; d < nd; d++) {
		sets[d] = docs[d]->name;
		for (unsigned g = 0; g < np; g++) {
			const struct atio_rphase *p = phase(docs[d], names[g]);

			avg[g * nd + d] = p && !p->too_fast ? p->ops_per_sec : NAN;
		}
	}
	b.id = "meta-rate";
	b.title = "Operations a second per phase (the slowest thread or node sets the time)";
	b.ylabel = "ops/s";
	b.nsets = nd;
	b.sets = sets;
	b.avg = avg;
	b.min = b.max = none;
	atio_svg_bar_chart(f, &b);
	for (unsigned d = 0; d < nd; d++)
		for (unsigned k = 0; k < LAT_POINTS; k++) {
			unsigned s = d * LAT_POINTS + k;
			size_t len = strlen(docs[d]->name) + 16;

			labels[s] = malloc(len);
			if (!labels[s])
				goto out;
			if (nd > 1)
				snprintf(labels[s], len, "%s: %s", docs[d]->name, pct_key[k]);
			else
				snprintf(labels[s], len, "%s", pct_key[k]);
			sets[s] = labels[s];
			for (unsigned g = 0; g < np; g++) {
				const struct atio_rphase *p = phase(docs[d], names[g]);

				avg[g * nl + s] = p ? p->pct[k] / 1000.0 : NAN;
			}
		}
	/* In milliseconds when the bars reach 10 ms: "44.4" rather than "44.433k". */
	for (unsigned i = 0; i < np * nl; i++)
		top = isfinite(avg[i]) && avg[i] > top ? avg[i] : top;
	for (unsigned i = 0; top >= 10000.0 && i < np * nl; i++)
		avg[i] /= 1000.0;
	b.id = "meta-latency";
	b.title = "Latency of one operation per phase";
	b.ylabel = top >= 10000.0 ? "latency (ms)" : "latency (us)";
	b.nsets = nl;
	atio_svg_bar_chart(f, &b);
out:
	for (unsigned s = 0; labels && s < nl; s++)
		free(labels[s]);
	free(labels), free(sets), free(avg), free(none);
}

void atio_report_meta(FILE *f, const struct atio_rfile *files, unsigned n)
{
	const struct atio_rfile **docs = calloc(n ? n : 1, sizeof(*docs));
	const char *names[16];
	unsigned nd = 0, np;

	for (unsigned i = 0; docs && i < n; i++)
		if (files[i].kind == ATIO_RDOC_META)
			docs[nd++] = &files[i];
	np = phase_names(files, n, names, 16);
	if (nd && np) {
		fputs("<h2>Metadata: the phases</h2>\n<p class=\"note\">Each phase's ops/s two "
		      "ways: with the slowest thread (or node) setting the phase's time, as "
		      "mdtest reports it, and each one's own rate added up. A phase too short to "
		      "time says so instead of a rate.</p>\n", f);
		for (unsigned d = 0; d < nd; d++)
			table(f, docs[d]);
		charts(f, docs, nd, names, np);
	}
	free(docs);
}
