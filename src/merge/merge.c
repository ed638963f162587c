/* SPDX-License-Identifier: MIT */
/*
 * atio merge: add up the results of several atio --json documents (the
 * nodes of a cluster run) and render the merge as text or as JSON. The
 * counters and histograms go through atio_stats_merge(), the code that
 * merges the threads of one run, so merging the documents of N nodes gives
 * the histogram one recorder of all their values would have held.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/json.h"
#include "atio/merge/merge.h"
#include "atio/print/pct.h"
#include "atio/merge/merge_check.h"
#include "atio/merge/merge_runs.h"
#include "atio/print/report.h"
#include "atio/base/units.h"


void atio_merge_init(struct atio_merge *m)
{
	memset(m, 0, sizeof(*m));
	atio_stats_init(&m->total);
	atio_dir_stats_init(m->dir);
	atio_merge_steady_init(&m->steady);
}

void atio_merge_free(struct atio_merge *m)
{
	if (m->timeline)
		atio_ival_series_free(m->timeline);
	free(m->timeline);
	m->timeline = NULL;
	for (unsigned i = 0; i < m->ndocs; i++)
		free(m->docs[i].vals);
	free(m->docs);
	m->docs = NULL;
	m->ndocs = m->cap = 0;
	atio_merge_steady_free(&m->steady);
}

/*
 * Fold the intervals of @d into m->timeline: the merge of the timeline so
 * far and @d's (atio_ival_merge() of the two: counts add, histograms
 * merge, rates add, the documents of each interval add up; the stalls are
 * where neither completed anything, which is where no document did). The
 * first document's intervals start it; a document without intervals, or
 * with intervals of another length, ends it (lost_by names it).
 */
static int fold_timeline(struct atio_merge *m, const struct atio_merge_doc *d)
{
	const struct atio_ival_series *in[2];
	struct atio_ival_series *out;
	uint64_t end, len = d->ivals ? d->ivals->interval_ns : 0;
	unsigned n = 0;
	int ret;

	if (m->ndocs == 0)
		m->interval_ns = len;
	if (!m->lost_by && len != m->interval_ns) {
		m->lost_by = d->file;
		m->lost_interval_ns = len;
	}
	if (m->lost_by || !len) {
		if (m->timeline)
			atio_ival_series_free(m->timeline);
		free(m->timeline);
		m->timeline = NULL;
		return 0;
	}
	if (m->timeline)
		in[n++] = m->timeline;
	in[n++] = d->ivals;
	end = m->timeline && m->timeline->end_ns > d->ivals->end_ns ? m->timeline->end_ns
								     : d->ivals->end_ns;
	out = malloc(sizeof(*out));
	if (!out)
		return -ENOMEM;
	atio_ival_series_init(out, len, d->mixed);
	out->merged = true;
	ret = atio_ival_merge(out, in, n, end, true);
	if (ret) {
		atio_ival_series_free(out);
		free(out);
		return ret;
	}
	if (m->timeline)
		atio_ival_series_free(m->timeline);
	free(m->timeline);
	m->timeline = out;
	return 0;
}

/* Keep the line of @d in m->docs[m->ndocs] (not counted yet). */
static int keep_entry(struct atio_merge *m, const struct atio_merge_doc *d)
{
	struct atio_merge_entry *x;

	if (m->ndocs == m->cap) {
		unsigned cap = m->cap ? 2 * m->cap : 16;

		x = realloc(m->docs, cap * sizeof(*x));
		if (!x)
			return -ENOMEM;
		m->docs = x;
		m->cap = cap;
	}
	x = &m->docs[m->ndocs];
	*x = (struct atio_merge_entry){
		.file = d->file, .value = d->value, .time_sec = d->time_sec,
		.start_epoch = d->start_epoch, .end_epoch = d->end_epoch,
		.interrupted = d->interrupted, .ops = d->st.ops, .bytes = d->st.bytes,
		.syncs = d->st.syncs, .has_ivals = d->ivals != NULL, .run = d->run,
	};
	if (d->ivals) {
		struct atio_ival_summary sum;

		x->nvals = atio_ival_count(d->ivals);
		x->vals = malloc((x->nvals ? x->nvals : 1) * sizeof(double));
		if (!x->vals)
			return -ENOMEM;
		for (size_t k = 0; k < x->nvals; k++)
			x->vals[k] = atio_ival_get(d->ivals, k)->value;
		atio_ival_summarise(d->ivals, &sum);
		x->stalls = sum.stalls;
		x->longest_stall_sec = (double)sum.longest_ns / 1e9;
	}
	return 0;
}

/* Widen [lo, hi] to take @x in; a run that never began (0) counts not. */
static void widen(double *lo, double *hi, double x, bool first)
{
	if (x == 0.0)
		return;
	if (first || *lo == 0.0 || x < *lo)
		*lo = x;
	if (first || *hi == 0.0 || x > *hi)
		*hi = x;
}

int atio_merge_add(struct atio_merge *m, const struct atio_merge_doc *d, struct atio_error *e)
{
	if (m->ndocs && strcmp(m->unit, d->unit) != 0)
		return atio_error_set(e, ATIO_EXIT_USAGE, 0,
				      "%s: its value is in %s, the documents before it in %s: "
				      "they do not add up", d->file, d->unit, m->unit);
	if (m->ndocs && m->mixed != d->mixed)
		return atio_error_set(e, ATIO_EXIT_USAGE, 0,
				      "%s: %s, the documents before it %s: their read and "
				      "write figures do not add up", d->file,
				      d->mixed ? "a --mix run" : "not a --mix run",
				      m->mixed ? "are --mix runs" : "are not");
	if (!isfinite(m->sum + d->value))
		return atio_error_set(e, ATIO_EXIT_USAGE, 0,
				      "%s: its value %g %s added to the %g %s of the documents "
				      "before it is no longer a number", d->file, d->value,
				      d->unit, m->sum, m->unit);
	if (atio_merge_settings_fold(m, d, e))
		return -EINVAL;
	if (keep_entry(m, d) || fold_timeline(m, d) || atio_merge_steady_add(&m->steady, d) ||
	    atio_merge_steady_judge(&m->steady)) {
		if (m->ndocs < m->cap) {
			free(m->docs[m->ndocs].vals);
			m->docs[m->ndocs].vals = NULL;
		}
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", d->file);
	}
	m->mixed = d->mixed;
	if (d->mixed) {
		atio_dir_stats_merge(m->dir, d->dir);
		for (unsigned i = 0; i < ATIO_DIRS; i++) {
			m->dir_iops[i] += d->dir_iops[i];
			m->dir_mbs[i] += d->dir_mbs[i];
		}
	}
	snprintf(m->unit, sizeof(m->unit), "%s", d->unit);
	widen(&m->first_start, &m->last_start, d->start_epoch, m->ndocs == 0);
	widen(&m->first_end, &m->last_end, d->end_epoch, m->ndocs == 0);
	m->sum += d->value;
	if (d->target > 0) {
		m->target += d->target;
		m->ntargets++;
	}
	m->ndocs++;
	atio_merge_note_window(m);
	if (d->interrupted)
		m->ninterrupted++;
	atio_stats_merge(&m->total, &d->st);
	return 0;
}

/* The share of the sum that @v is, in percent; 0 of a sum of 0. */
static double share(const struct atio_merge *m, double v)
{
	return m->sum > 0.0 ? v / m->sum * 100.0 : 0.0;
}

/*
 * --rate: the summed cap means something only when every document had one;
 * the service times of those that did are merged regardless.
 */
static bool capped(const struct atio_merge *m)
{
	return m->ntargets && m->ntargets == m->ndocs;
}

/* See merge.h. */
void atio_merge_text_latency(FILE *f, const char *name, const struct atio_hist *h, unsigned n)
{
	if (h->count == 0) {
		fprintf(f, "%s (usec): none\n", name);
		return;
	}
	fprintf(f, "%s (usec): min %.2f, mean %.2f, p50 %.2f, p90 %.2f, p99 %.2f, "
		"p99.9 %.2f, max %.2f (merged from %u documents)\n", name,
		(double)h->min / 1000.0, atio_hist_mean(h) / 1000.0,
		(double)atio_hist_percentile(h, 50.0) / 1000.0,
		(double)atio_hist_percentile(h, 90.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.9) / 1000.0, (double)h->max / 1000.0, n);
}

/*
 * The text form. Every line starts with a fixed word so that a script can
 * pick one (the driver reads them); the word "rate" is on none of them.
 */
void atio_merge_text(FILE *f, const struct atio_merge *m)
{
	const struct atio_stats *t = &m->total;

	if (m->sequential) {
		fprintf(f, "Passes: %u, one after another: tabulated, not summed\n", m->ndocs);
		fprintf(f, "documents: %u, interrupted: %u\n", m->ndocs, m->ninterrupted);
		fprintf(f, "time: first start %.6f, last done %.6f\n", m->first_start, m->last_end);
	} else {
		fprintf(f, "Sum value = { %.5f } %s;\n", m->sum, m->unit);
		for (unsigned i = 0; m->mixed && i < ATIO_DIRS; i++)
			atio_report_dir_text(f, atio_dir_name(i), &m->dir[i], t->ops,
					     m->dir_iops[i], m->dir_mbs[i], NULL);
		fprintf(f, "documents: %u, interrupted: %u\n", m->ndocs, m->ninterrupted);
		fprintf(f, "start skew: %.6f s (first %.6f, last %.6f)\n",
			m->last_start - m->first_start, m->first_start, m->last_start);
		fprintf(f, "end skew: %.6f s (first done %.6f, last done %.6f)\n",
			m->last_end - m->first_end, m->first_end, m->last_end);
	}
	if (capped(m) && !m->sequential)
		fprintf(f, "cap: %.5f %s summed over %u documents; reached %.1f%%\n",
			m->target, m->unit, m->ntargets, m->sum / m->target * 100.0);
	/* Beside the sync calls' own, the latency is that of the write() calls. */
	atio_merge_text_latency(f, t->syncs ? "write latency" : "latency", &t->lat, m->ndocs);
	if (t->service.count > 0)
		atio_merge_text_latency(f, "service", &t->service, m->ndocs);
	if (t->syncs > 0)
		atio_merge_text_latency(f, "sync latency", &t->sync_lat, m->ndocs);
	if (m->timeline && !m->sequential)
		atio_ival_text(f, m->timeline, m->unit);
	if (!m->sequential)
		atio_merge_steady_text(f, "", &m->steady);
	fprintf(f, "io: %" PRIu64 " ops, %" PRIu64 " bytes (%.2f MiB), %" PRIu64 " syncs\n",
		t->ops, t->bytes, atio_mib(t->bytes), t->syncs);
	fprintf(f, "cpu (sec): user %.3f, system %.3f\n", (double)t->cpu_user_ns / 1e9,
		(double)t->cpu_sys_ns / 1e9);
	for (unsigned i = 0; i < m->ndocs; i++) {
		const struct atio_merge_entry *d = &m->docs[i];

		fprintf(f, "[%u] %.6f %s over %.6f s, ", i + 1, d->value, m->unit, d->time_sec);
		if (!m->sequential)
			fprintf(f, "share %.2f%%, ", share(m, d->value));
		fprintf(f, "start %+.6f s, end %+.6f s%s: ",
			d->start_epoch ? d->start_epoch - m->first_start : 0.0,
			d->end_epoch ? d->end_epoch - (m->sequential ? m->first_start : m->first_end)
				     : 0.0,
			d->interrupted ? " (interrupted)" : "");
		/* The name last: whatever it holds cannot shift the fields. */
		for (const char *p = d->file; *p; p++)
			putc((unsigned char)*p < 0x20 ? '?' : *p, f);
		putc('\n', f);
	}
}

/* See merge.h. */
void atio_merge_json_hist(struct atio_json *j, const char *key, const struct atio_hist *h)
{
	bool empty = h->count == 0;

	atio_json_object_begin(j, key);
	atio_json_uint(j, "count", h->count);
	atio_json_uint(j, "min", empty ? 0 : h->min);
	atio_json_double(j, "mean", atio_hist_mean(h));
	atio_json_uint(j, "p50", atio_hist_percentile(h, 50.0));
	atio_json_uint(j, "p90", atio_hist_percentile(h, 90.0));
	atio_json_uint(j, "p99", atio_hist_percentile(h, 99.0));
	atio_json_uint(j, "p99.9", atio_hist_percentile(h, 99.9));
	atio_json_uint(j, "max", empty ? 0 : h->max);
	atio_pct_json(j, h, NULL);
	atio_json_object_end(j);
}

/* A document's rate per interval and its stalls, in documents_merged[]. */
static void json_doc_intervals(struct atio_json *j, const struct atio_merge_entry *d)
{
	atio_json_array_begin(j, "interval_values");
	for (size_t k = 0; k < d->nvals; k++)
		atio_json_double(j, NULL, d->vals[k]);
	atio_json_array_end(j);
	atio_json_uint(j, "stalls", d->stalls);
	atio_json_double(j, "longest_stall_sec", d->longest_stall_sec);
}

void atio_merge_json(FILE *f, const struct atio_merge *m)
{
	struct atio_json j;

	atio_json_init(&j, f);
	atio_merge_json_value(&j, NULL, m);
}

/* See merge.h. */
void atio_merge_json_value(struct atio_json *j, const char *key, const struct atio_merge *m)
{
	const struct atio_stats *t = &m->total;

	atio_json_object_begin(j, key);
	atio_json_double(j, "sum", m->sum);
	atio_json_string(j, "unit", m->unit);
	atio_json_uint(j, "documents", m->ndocs);
	atio_json_uint(j, "interrupted", m->ninterrupted);
	atio_json_double(j, "start_skew_sec", m->last_start - m->first_start);
	atio_json_double(j, "end_skew_sec", m->last_end - m->first_end);
	atio_json_double(j, "first_start_epoch", m->first_start);
	atio_json_double(j, "last_start_epoch", m->last_start);
	atio_json_double(j, "first_end_epoch", m->first_end);
	atio_json_double(j, "last_end_epoch", m->last_end);
	atio_json_uint(j, "ops", t->ops);
	atio_json_uint(j, "bytes", t->bytes);
	atio_json_uint(j, "syncs", t->syncs);
	atio_json_double(j, "cpu_user_sec", (double)t->cpu_user_ns / 1e9);
	atio_json_double(j, "cpu_sys_sec", (double)t->cpu_sys_ns / 1e9);
	atio_merge_json_hist(j, "latency_ns", &t->lat);
	atio_merge_json_hist(j, "sync_latency_ns", &t->sync_lat);
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		const char *dir = atio_dir_name(i);

		if (m->mixed)
			atio_report_dir_json(j, dir, &m->dir[i], t->ops, m->dir_iops[i],
					     m->dir_mbs[i], false, NULL);
		else
			atio_json_null(j, dir);
	}
	if (capped(m)) {
		atio_json_double(j, "target", m->target);
		atio_json_double(j, "target_reached", m->sum / m->target);
	}
	if (t->service.count > 0)
		atio_merge_json_hist(j, "service_latency_ns", &t->service);
	if (m->timeline) {
		atio_ival_json(j, "intervals", m->timeline, true);
		atio_ival_json_timeline(j, m->timeline);
	}
	atio_merge_steady_json(j, &m->steady);
	atio_json_array_begin(j, "documents_merged");
	for (unsigned i = 0; i < m->ndocs; i++) {
		const struct atio_merge_entry *docs = m->docs;

		atio_json_object_begin(j, NULL);
		atio_json_string(j, "file", docs[i].file);
		atio_json_double(j, "value", docs[i].value);
		atio_json_double(j, "time_sec", docs[i].time_sec);
		atio_json_double(j, "share_percent", share(m, docs[i].value));
		atio_json_double(j, "start_epoch", docs[i].start_epoch);
		atio_json_double(j, "end_epoch", docs[i].end_epoch);
		atio_json_bool(j, "interrupted", docs[i].interrupted);
		atio_json_uint(j, "ops", docs[i].ops);
		atio_json_uint(j, "bytes", docs[i].bytes);
		atio_json_uint(j, "syncs", docs[i].syncs);
		if (docs[i].has_ivals)
			json_doc_intervals(j, &docs[i]);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	atio_json_object_end(j);
}
