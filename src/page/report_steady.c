/* SPDX-License-Identifier: MIT */
/*
 * --steady's rounds on atio report's page (atio/page/report_page.h): the
 * "steady" object of a run document (its own rounds) or of a merge (the
 * cluster's rounds, summed round by round) read back, and drawn as a
 * chart of one point a round with the measurement window shaded and the
 * verdict named above it. A document without rounds shows nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/page/report_page.h"
#include "atio/page/svg.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

/* Member @key of @o as a number, NaN when it is not one. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Member @key of @o as a round (from 1) of @n, or 0 when it is not one. */
static unsigned round_of(const json_t *o, const char *key, unsigned n)
{
	double x = num(o, key);

	return x >= 1 && x <= n && x == floor(x) ? (unsigned)x : 0;
}

void atio_rsteady_free(struct atio_rsteady *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nnodes; i++) {
		free(s->nodes[i].name);
		free(s->nodes[i].rate);
	}
	free(s->nodes);
	free(s->x);
	free(s->value);
	free(s->why);
	free(s);
}

/*
 * The name of the @i-th document merged: the host of the @i-th record of
 * @hosts that succeeded (the driver merges those, in its order), else the
 * last component of documents_merged[i].file, else "document i".
 */
static char *doc_name(json_t *doc, json_t *hosts, size_t i)
{
	const char *file = json_string_value(json_object_get(
		json_array_get(json_object_get(doc, "documents_merged"), i), "file"));
	char buf[64];
	json_t *h;
	size_t k, n = 0;

	json_array_foreach(hosts, k, h)
		if (json_is_true(json_object_get(h, "ok")) && n++ == i &&
		    json_is_string(json_object_get(h, "host")))
			return strdup(json_string_value(json_object_get(h, "host")));
	if (file && !hosts)
		return strdup(strrchr(file, '/') ? strrchr(file, '/') + 1 : file);
	snprintf(buf, sizeof(buf), "document %zu", i + 1);
	return strdup(buf);
}

/* A merge's each_document[]: every document's rounds, lined up with the sum's. */
static int read_nodes(json_t *st, json_t *doc, json_t *hosts, struct atio_rsteady *s,
		      const char *name, struct atio_error *e)
{
	json_t *each = json_object_get(st, "each_document"), *d, *v;
	size_t i, k;

	if (!json_is_array(each) || !s->n)
		return 0;
	s->nodes = calloc(json_array_size(each) + 1, sizeof(*s->nodes));
	if (!s->nodes)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	json_array_foreach(each, i, d) {
		struct atio_rnode *nd = &s->nodes[s->nnodes++];

		nd->name = doc_name(doc, hosts, i);
		nd->rate = malloc(s->n * sizeof(double));
		if (!nd->name || !nd->rate)
			return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
		for (k = 0; k < s->n; k++) {
			v = json_array_get(json_object_get(d, "values"), k);
			nd->rate[k] = json_is_number(v) ? json_number_value(v) : NAN;
		}
	}
	return 0;
}

int atio_rsteady_read(json_t *doc, struct atio_rrun *r, json_t *hosts, const char *name,
		      struct atio_error *e)
{
	json_t *st = json_object_get(doc, "steady"), *vals, *w, *v;
	const char *judge, *unit, *why;
	struct atio_rsteady *s;
	size_t i;

	if (!st || json_is_null(st))
		return 0;
	vals = json_object_get(st, "values");
	judge = json_string_value(json_object_get(st, "judge"));
	unit = json_string_value(json_object_get(st, "unit"));
	if (!json_is_object(st) || !json_is_array(vals) || !judge || !unit)
		return BAD("%s: steady: not an object with judge, unit and values", name);
	s = calloc(1, sizeof(*s));
	if (!s)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	r->steady = s;
	snprintf(s->judge, sizeof(s->judge), "%s", judge);
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
	s->round_sec = num(st, "round_sec");
	s->n = (unsigned)json_array_size(vals);
	s->x = calloc(s->n ? s->n : 1, sizeof(*s->x));
	s->value = calloc(s->n ? s->n : 1, sizeof(*s->value));
	if (!s->x || !s->value)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	json_array_foreach(vals, i, v) {
		s->x[i] = (double)(i + 1);
		s->value[i] = json_is_number(v) ? json_number_value(v) : NAN;
		if (!json_is_number(v) && !json_is_null(v))
			return BAD("%s: steady.values[%zu]: not a number nor null", name, i);
	}
	/* A merge's rounds: the cluster's, unless they could not be summed. */
	s->cluster = json_is_boolean(json_object_get(st, "judged"));
	s->judged = !s->cluster || json_is_true(json_object_get(st, "judged"));
	why = json_string_value(json_object_get(st, "why"));
	if (why && !(s->why = strdup(why)))
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	s->steady_at = round_of(st, "steady_at", s->n);
	w = json_object_get(st, "window");
	s->first = round_of(w, "first", s->n);
	s->last = round_of(w, "last", s->n);
	s->average = num(w, "average");
	s->range_pct = num(st, "range_pct");
	s->excursion_pct = num(st, "excursion_pct");
	return s->cluster ? read_nodes(st, doc, hosts, s, name, e) : 0;
}

/* The verdict in words, above the chart. */
static void verdict(FILE *f, const char *doc_name, const struct atio_rsteady *s)
{
	fputs("<p class=\"steady-verdict\">", f);
	atio_html_escape(f, doc_name);
	fprintf(f, ": %s's rounds, judged on ", s->cluster ? "the cluster" : "the run");
	atio_html_escape(f, s->judge);
	fputs(": ", f);
	if (!s->judged) {
		fputs("not judged: ", f);
		atio_html_escape(f, s->why ? s->why : "the documents' rounds could not be summed");
	} else if (s->steady_at) {
		fprintf(f, "<strong>steady at round %u</strong> (measurement window: rounds %u to "
			"%u; average %.2f ", s->steady_at, s->first, s->last, s->average);
		atio_html_escape(f, s->unit);
		fprintf(f, ", range %.2f%% and excursion %.2f%% of it, at most 20%% and 10%%)",
			s->range_pct, s->excursion_pct);
	} else {
		fprintf(f, "<strong>not steady after %u rounds</strong>", s->n);
		if (isfinite(s->range_pct))
			fprintf(f, " (the last window, rounds %u to %u: range %.2f%% and excursion "
				"%.2f%% of its average, at most 20%% and 10%%)", s->first, s->last,
				s->range_pct, s->excursion_pct);
	}
	fputs("</p>\n", f);
}

void atio_report_steady(FILE *f, const char *doc_name, const struct atio_rrun *r, unsigned k,
			unsigned i)
{
	const struct atio_rsteady *s = r->steady;
	struct atio_svg_series line[1 + 16];
	unsigned nl = 1;
	struct atio_svg_band band;
	struct atio_svg_chart c;
	char id[32], title[256], ylabel[64], round[32];

	if (!s)
		return;
	verdict(f, doc_name, s);
	if (!s->n)
		return;
	snprintf(id, sizeof(id), "steady-%u-%u", k, i);
	snprintf(round, sizeof(round), "%g", s->round_sec);
	snprintf(title, sizeof(title), "Steady state: %s per round of %s s%s%s",
		 s->judge, round, r->key[0] ? ": " : "", r->key);
	snprintf(ylabel, sizeof(ylabel), "%s of the round (%s)",
		 strcmp(s->judge, "lat") ? s->judge : "mean latency", s->unit);
	line[0] = (struct atio_svg_series){ .name = s->cluster ? "cluster sum, a round"
							       : "the run, a round",
					    .n = s->n, .x = s->x, .y = s->value, .thick = s->cluster };
	/* Each node's own rounds beside the sum (of iops and mbs: parts of it), 16 at most. */
	for (unsigned d = 0; d < s->nnodes && nl < 1 + 16; d++, nl++)
		line[nl] = (struct atio_svg_series){ .name = s->nodes[d].name, .n = s->n,
						     .x = s->x, .y = s->nodes[d].rate,
						     .style = nl };
	/* The window shaded: its rounds' points and half a round each side. */
	band = (struct atio_svg_band){ s->first - 0.5, s->last + 0.5 };
	c = (struct atio_svg_chart){
		.id = id, .title = title, .nseries = nl, .series = line,
		.x = { .label = "round", .cover = { 0.5, s->n + 0.5 } },
		.y = { .label = ylabel, .zero = true },
		.nbands = s->judged && s->first ? 1 : 0, .bands = &band,
		.band_name = s->steady_at ? "measurement window: steady"
					  : "last window: not steady",
	};
	atio_svg_line_chart(f, &c);
	if (s->nnodes > nl - 1)
		fprintf(f, "<p class=\"note\">The rounds of the first %u of the %u documents are "
			"drawn beside the sum; every one's are in the document "
			"(steady.each_document).</p>\n", nl - 1, s->nnodes);
}
