/* SPDX-License-Identifier: MIT */
/* atio merge of metadata runs, phase by phase (atio/merge/merge_meta.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/json.h"
#include "atio/document/json_read.h"
#include "atio/merge/merge_meta.h"
#include "atio/print/report.h"
#include "atio/run/meta.h"
#include "atio/print/report_figures.h"

bool atio_merge_meta_is(json_t *doc)
{
	json_t *w = json_object_get(json_object_get(doc, "settings"), "workload");

	return json_is_string(w) && strcmp(json_string_value(w), "meta") == 0;
}

/* The phase named by the string @v, or -1. */
static int phase_of(json_t *v)
{
	return json_is_string(v) ? atio_meta_phase_parse(json_string_value(v),
							 strlen(json_string_value(v))) : -1;
}

/*
 * Fold the intervals of a node's phase @in into @p's timeline: counts and
 * histograms add, rates add, the stalls are where no node did anything. A
 * node without them, or of another interval length, leaves the phase none.
 */
static int fold_intervals(struct atio_merge_meta_phase *p, struct atio_ival_series *in,
			  bool first, struct atio_error *e)
{
	const struct atio_ival_series *two[2];
	struct atio_ival_series *out;
	unsigned n = 0;
	uint64_t end;

	if (!in || p->lost || (!first && (!p->timeline ||
					  p->timeline->interval_ns != in->interval_ns))) {
		p->lost = true;
		if (p->timeline)
			atio_ival_series_free(p->timeline);
		free(p->timeline);
		p->timeline = NULL;
		return 0;
	}
	if (p->timeline)
		two[n++] = p->timeline;
	two[n++] = in;
	end = p->timeline && p->timeline->end_ns > in->end_ns ? p->timeline->end_ns : in->end_ns;
	out = malloc(sizeof(*out));
	if (!out)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	atio_ival_series_init(out, in->interval_ns, false);
	out->merged = true;
	if (atio_ival_merge(out, two, n, end, true)) {
		atio_ival_series_free(out);
		free(out);
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "out of memory");
	}
	if (p->timeline)
		atio_ival_series_free(p->timeline);
	free(p->timeline);
	p->timeline = out;
	return 0;
}

void atio_merge_meta_free(struct atio_merge_meta *m)
{
	for (unsigned i = 0; i < m->nphases; i++) {
		if (m->phase[i].timeline)
			atio_ival_series_free(m->phase[i].timeline);
		free(m->phase[i].timeline);
		m->phase[i].timeline = NULL;
	}
}

static int add_phase(struct atio_merge_meta_phase *p, json_t *ph, const char *name,
		     unsigned i, bool first, struct atio_error *e)
{
	struct atio_ival_series *iv = NULL;
	struct atio_hist h;
	double ops, ns, shortest, value = 0, threads = 0;
	char where[32];
	json_t *fast = json_object_get(ph, "too_fast");
	int ret;

	snprintf(where, sizeof(where), "phases[%u].", i);
	if ((ret = atio_json_get_number(ph, where, "ops", &ops, name, e)) ||
	    (ret = atio_json_get_number(ph, where, "elapsed_ns", &ns, name, e)) ||
	    (ret = atio_json_get_number(ph, where, "shortest_pass_ns", &shortest, name, e)))
		return ret;
	if (!json_is_boolean(fast))
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: %stoo_fast: not true "
				      "or false", name, where);
	if (!json_is_true(fast) &&
	    ((ret = atio_json_get_number(ph, where, "ops_per_sec", &value, name, e)) ||
	     (ret = atio_json_get_number(ph, where, "threads_sum_ops_per_sec", &threads, name,
					 e))))
		return ret;
	if ((ret = atio_json_read_hist(ph, "latency_ns", &h, name, e)))
		return ret;
	if ((ret = atio_json_read_intervals(ph, (uint64_t)ops, (uint64_t)ns, &iv, name, e)))
		return ret;
	ret = fold_intervals(p, iv, first, e);
	if (iv)
		atio_ival_series_free(iv);
	free(iv);
	if (ret)
		return ret;
	if (h.count != (uint64_t)ops)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: %slatency_ns counts %"
				      PRIu64 " operations, ops %.0f", name, where, h.count, ops);
	p->ops += (uint64_t)ops;
	if ((uint64_t)ns > p->elapsed_ns)
		p->elapsed_ns = (uint64_t)ns;
	if (!p->shortest_ns || (uint64_t)shortest < p->shortest_ns)
		p->shortest_ns = (uint64_t)shortest;
	p->nodes_sum += value;
	p->threads_sum += threads;
	p->too_fast += json_is_true(fast);
	atio_hist_merge(&p->lat, &h);
	return 0;
}

int atio_merge_meta_add(struct atio_merge_meta *m, json_t *doc, const char *name,
			struct atio_error *e)
{
	json_t *phases = json_object_get(doc, "phases"), *ph;
	json_t *start = json_object_get(doc, "start_epoch"), *end = json_object_get(doc, "end_epoch");
	int fig = phase_of(json_object_get(json_object_get(doc, "settings"), "figure"));
	size_t i;

	if (!atio_merge_meta_is(doc))
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: not the document of a "
				      "metadata run (atio --meta --json): one merge is of one kind",
				      name);
	if (json_is_true(json_object_get(doc, "interrupted")))
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: an interrupted run "
				      "(\"interrupted\": true): its phases did not run whole, and "
				      "are not summed", name);
	if (!json_is_array(phases) || !json_array_size(phases) ||
	    json_array_size(phases) > ATIO_META_MAX_PHASES || fig < 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: no phases, or no figure, "
				      "in a metadata document", name);
	if (m->ndocs && (json_array_size(phases) != m->nphases || (unsigned)fig != m->figure))
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: other phases than the "
				      "first document's: the phases are summed one by one", name);
	json_array_foreach(phases, i, ph) {
		int p = phase_of(json_object_get(ph, "phase"));

		if (p < 0 || (m->ndocs && (enum atio_meta_phase)p != m->phase[i].phase))
			return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: phases[%zu]: %s",
					      name, i, p < 0 ? "no phase named" : "another phase "
					      "than the first document's");
		if (!m->ndocs) {
			m->phase[i] = (struct atio_merge_meta_phase){ .phase = (enum atio_meta_phase)p };
			atio_hist_init(&m->phase[i].lat);
		}
	}
	if (!m->ndocs) {
		m->nphases = (unsigned)json_array_size(phases);
		m->figure = (enum atio_meta_phase)fig;
	}
	json_array_foreach(phases, i, ph) {
		int ret = add_phase(&m->phase[i], ph, name, (unsigned)i, !m->ndocs, e);

		if (ret)
			return ret;
	}
	if (!json_is_number(start) || !json_is_number(end))
		return atio_error_set(e, ATIO_EXIT_USAGE, EINVAL, "%s: start_epoch or end_epoch: "
				      "not a number", name);
	if (!m->ndocs || json_number_value(start) < m->first_start)
		m->first_start = json_number_value(start);
	if (!m->ndocs || json_number_value(start) > m->last_start)
		m->last_start = json_number_value(start);
	if (!m->ndocs || json_number_value(end) < m->first_end)
		m->first_end = json_number_value(end);
	if (!m->ndocs || json_number_value(end) > m->last_end)
		m->last_end = json_number_value(end);
	m->ndocs++;
	return 0;
}

static double wall(const struct atio_merge_meta_phase *p)
{
	return p->elapsed_ns ? (double)p->ops * 1e9 / (double)p->elapsed_ns : 0;
}

static bool too_fast(const struct atio_merge_meta_phase *p)
{
	return p->too_fast || p->shortest_ns < ATIO_META_MIN_NS;
}

static const struct atio_merge_meta_phase *figure(const struct atio_merge_meta *m)
{
	for (unsigned i = 0; i < m->nphases; i++)
		if (m->phase[i].phase == m->figure)
			return &m->phase[i];
	return NULL;
}

void atio_merge_meta_text(FILE *f, const struct atio_merge_meta *m)
{
	const struct atio_merge_meta_phase *fig = figure(m);

	if (fig)
		atio_report_result_line(f, fig->elapsed_ns, "rate", wall(fig), "ops/s");
	fprintf(f, "merged: %u metadata documents, each phase's operations over its slowest "
		"node's time\n", m->ndocs);
	for (unsigned i = 0; i < m->nphases; i++) {
		const struct atio_merge_meta_phase *p = &m->phase[i];

		fprintf(f, "%s: ", atio_meta_phase_name(p->phase));
		if (too_fast(p))
			fprintf(f, "too fast to measure (on %u of %u nodes)",
				p->too_fast ? p->too_fast : m->ndocs, m->ndocs);
		else if (m->ndocs == 1)
			fprintf(f, "%.2f ops/s wall, %.2f ops/s sum of threads", wall(p),
				p->threads_sum);
		else
			fprintf(f, "%.2f ops/s wall, %.2f ops/s sum of nodes, %.2f ops/s sum of "
				"threads", wall(p), p->nodes_sum, p->threads_sum);
		fprintf(f, ", %" PRIu64 " ops in %.3f sec", p->ops, atio_report_sec(p->elapsed_ns));
		if (p->lat.count)
			fprintf(f, ", latency (usec): p50 %.2f, p99 %.2f, p99.9 %.2f, max %.2f\n",
				(double)atio_hist_percentile(&p->lat, 50.0) / 1000.0,
				(double)atio_hist_percentile(&p->lat, 99.0) / 1000.0,
				(double)atio_hist_percentile(&p->lat, 99.9) / 1000.0,
				(double)p->lat.max / 1000.0);
		else
			fputs(", latency (usec): none\n", f);
	}
	for (unsigned i = 0; i < m->nphases; i++)
		if (m->phase[i].timeline) {
			fprintf(f, "%s ", atio_meta_phase_name(m->phase[i].phase));
			atio_ival_text(f, m->phase[i].timeline, "ops/s");
		}
	if (m->ndocs > 1)
		fprintf(f, "start skew: %.6f s, end skew: %.6f s over %u nodes\n",
			m->last_start - m->first_start, m->last_end - m->first_end, m->ndocs);
}

void atio_merge_meta_json(FILE *f, const struct atio_merge_meta *m)
{
	const struct atio_merge_meta_phase *fig = figure(m);
	struct atio_json j;

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_object_begin(&j, "settings");
	atio_json_string(&j, "workload", "meta");
	atio_json_string(&j, "figure", atio_meta_phase_name(m->figure));
	atio_json_object_end(&j);
	atio_json_uint(&j, "merged", m->ndocs);
	atio_json_double(&j, "start_skew_sec", m->last_start - m->first_start);
	atio_json_double(&j, "end_skew_sec", m->last_end - m->first_end);
	if (fig) {
		atio_json_object_begin(&j, "result");
		atio_json_string(&j, "phase", atio_meta_phase_name(fig->phase));
		atio_json_double(&j, "value", wall(fig));
		atio_json_string(&j, "unit", "ops/s");
		atio_json_uint(&j, "elapsed_ns", fig->elapsed_ns);
		atio_json_object_end(&j);
	}
	atio_json_array_begin(&j, "phases");
	for (unsigned i = 0; i < m->nphases; i++) {
		const struct atio_merge_meta_phase *p = &m->phase[i];

		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "phase", atio_meta_phase_name(p->phase));
		atio_json_uint(&j, "ops", p->ops);
		atio_json_uint(&j, "elapsed_ns", p->elapsed_ns);
		atio_json_uint(&j, "shortest_pass_ns", p->shortest_ns);
		atio_json_bool(&j, "too_fast", too_fast(p));
		if (too_fast(p)) {
			atio_json_null(&j, "ops_per_sec");
			atio_json_null(&j, "nodes_sum_ops_per_sec");
			atio_json_null(&j, "threads_sum_ops_per_sec");
		} else {
			atio_json_double(&j, "ops_per_sec", wall(p));
			atio_json_double(&j, "nodes_sum_ops_per_sec", p->nodes_sum);
			atio_json_double(&j, "threads_sum_ops_per_sec", p->threads_sum);
		}
		atio_report_json_hist(&j, "latency_ns", &p->lat, true);
		if (p->timeline) {
			atio_ival_json(&j, "intervals", p->timeline, true);
			atio_ival_json_timeline(&j, p->timeline);
		} else {
			atio_json_null(&j, "intervals");
			atio_json_null(&j, "timeline");
		}
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_object_end(&j);
	fputc('\n', f);
}
