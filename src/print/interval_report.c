/* SPDX-License-Identifier: MIT */
/*
 * Rendering of a series of intervals: the text line after the latency
 * line, the "intervals" array and the "timeline" object of the JSON
 * documents (a run's and atio merge's). The percentiles come from the
 * histogram code (atio_report_json_hist()); nothing here computes one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "atio/stats/interval.h"
#include "atio/base/json.h"
#include "atio/print/report.h"
#include "atio/base/units.h"

#define NS_PER_SEC 1e9

void atio_ival_text(FILE *f, const struct atio_ival_series *s, const char *unit)
{
	struct atio_ival_summary sum;
	char len[32];

	atio_ival_summarise(s, &sum);
	/* As -t and --interval are written: 31622400, not 3.16224e+07. */
	atio_format_time(len, sizeof(len), s->interval_ns);
	fprintf(f, "intervals: %zu x %s s", sum.intervals, len);
	if (sum.full)
		fprintf(f, ": min %.2f, median %.2f, max %.2f %s", sum.rate_min,
			sum.rate_median, sum.rate_max, unit);
	fprintf(f, "; stalls: %zu", sum.stalls);
	if (sum.stalls)
		fprintf(f, ", longest %.3f s at +%.3f s", (double)sum.longest_ns / NS_PER_SEC,
			(double)sum.longest_at_ns / NS_PER_SEC);
	if (s->nomem)
		fputs("; out of memory: the intervals are partial", f);
	fputc('\n', f);
}

/* One direction of a mixed interval: ops, bytes and its histogram. */
static void json_dir(struct atio_json *j, const char *key, const struct atio_ival_series *s,
		     const struct atio_ival *iv, unsigned d, struct atio_hist *h)
{
	atio_json_object_begin(j, key);
	atio_json_uint(j, "ops", iv->ops[d]);
	atio_json_uint(j, "bytes", iv->bytes[d]);
	atio_hist_init(h);
	atio_ival_hist_add(h, s, iv, d);
	atio_report_json_hist(j, "latency_ns", h, true);
	atio_json_object_end(j);
}

void atio_ival_json(struct atio_json *j, const char *key, const struct atio_ival_series *s,
		    bool buckets)
{
	struct atio_hist *h = malloc(sizeof(*h));

	atio_json_array_begin(j, key);
	for (size_t i = 0; h && i < atio_ival_count(s); i++) {
		const struct atio_ival *iv = atio_ival_get(s, i);

		atio_json_object_begin(j, NULL);
		atio_json_double(j, "start_sec", (double)(i * s->interval_ns) / NS_PER_SEC);
		atio_json_double(j, "duration_sec", (double)iv->dur_ns / NS_PER_SEC);
		atio_json_uint(j, "ops", iv->ops[0] + iv->ops[1]);
		atio_json_uint(j, "bytes", iv->bytes[0] + iv->bytes[1]);
		atio_json_uint(j, "syncs", iv->syncs);
		atio_json_double(j, "value", iv->value);
		atio_json_double(j, "mbs", iv->mbs);
		atio_json_double(j, "iops", iv->iops);
		atio_json_double(j, "syncs_per_sec", iv->syncs_per_sec);
		atio_json_bool(j, "stalled", atio_ival_stalled(s, i));
		if (iv->docs > 1 || (iv->docs == 1 && s->merged))
			atio_json_uint(j, "documents", iv->docs);
		atio_hist_init(h);
		atio_ival_hist_add(h, s, iv, ATIO_DIRS);
		atio_report_json_hist(j, "latency_ns", h, buckets);
		if (buckets && s->mixed) {
			json_dir(j, "read", s, iv, 0, h);
			json_dir(j, "write", s, iv, 1, h);
		}
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	free(h);
}

void atio_ival_json_timeline(struct atio_json *j, const struct atio_ival_series *s)
{
	struct atio_ival_summary sum;
	const struct atio_ival_gap *g = s->gap.p;

	atio_ival_summarise(s, &sum);
	atio_json_object_begin(j, "timeline");
	atio_json_double(j, "interval_sec", (double)s->interval_ns / NS_PER_SEC);
	atio_json_uint(j, "intervals", sum.intervals);
	atio_json_double(j, "rate_min", sum.rate_min);
	atio_json_double(j, "rate_median", sum.rate_median);
	atio_json_double(j, "rate_max", sum.rate_max);
	atio_json_uint(j, "stalls", sum.stalls);
	atio_json_double(j, "longest_stall_sec", (double)sum.longest_ns / NS_PER_SEC);
	atio_json_array_begin(j, "stall_list");
	for (size_t i = 0; i < s->gap.n; i++) {
		atio_json_object_begin(j, NULL);
		atio_json_double(j, "start_sec", (double)g[i].from / NS_PER_SEC);
		atio_json_double(j, "duration_sec", (double)(g[i].to - g[i].from) / NS_PER_SEC);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	atio_json_bool(j, "complete", !s->nomem);
	atio_json_object_end(j);
}

void atio_ival_live_line(char *buf, size_t len, const struct atio_ival_series *const *in,
			 unsigned n, size_t k)
{
	struct atio_hist *h = malloc(sizeof(*h));
	uint64_t ops = 0, bytes = 0, syncs = 0, dur = 0;
	double sec;

	if (h)
		atio_hist_init(h);
	for (unsigned p = 0; p < n; p++) {
		const struct atio_ival *iv = atio_ival_get(in[p], k);

		ops += iv->ops[0] + iv->ops[1];
		bytes += iv->bytes[0] + iv->bytes[1];
		syncs += iv->syncs;
		if (iv->dur_ns > dur)
			dur = iv->dur_ns;
		if (h)
			atio_ival_hist_add(h, in[p], iv, ATIO_DIRS);
	}
	sec = (double)dur / NS_PER_SEC;
	snprintf(buf, len, "%g s: %.2f MB/s, %.0f IOPS, %.0f sync/s, %llu ops, p99 %.2f usec",
		 (double)(k * in[0]->interval_ns + dur) / NS_PER_SEC,
		 sec > 0 ? (double)bytes / 1048576.0 / sec : 0.0,
		 sec > 0 ? (double)ops / sec : 0.0, sec > 0 ? (double)syncs / sec : 0.0,
		 (unsigned long long)ops, h ? (double)atio_hist_percentile(h, 99.0) / 1000.0 : 0.0);
	/* --mix: each direction apart, after the totals. */
	for (unsigned d = 0; h && in[0]->mixed && d < ATIO_DIRS; d++) {
		size_t at = strlen(buf);

		ops = bytes = 0;
		atio_hist_init(h);
		for (unsigned p = 0; p < n; p++) {
			const struct atio_ival *iv = atio_ival_get(in[p], k);

			ops += iv->ops[d];
			bytes += iv->bytes[d];
			atio_ival_hist_add(h, in[p], iv, d);
		}
		snprintf(buf + at, len - at, "; %s: %.2f MB/s, %.0f IOPS, p99 %.2f usec",
			 atio_dir_name(d), sec > 0 ? (double)bytes / 1048576.0 / sec : 0.0,
			 sec > 0 ? (double)ops / sec : 0.0,
			 (double)atio_hist_percentile(h, 99.0) / 1000.0);
	}
	free(h);
}

enum atio_ival_unit atio_ival_unit_named(const char *unit)
{
	return strcmp(unit, "MB/s") == 0 ? ATIO_IVAL_MBS
		: strcmp(unit, "IOPS") == 0 ? ATIO_IVAL_IOPS : ATIO_IVAL_SYNCS;
}

int atio_report_timeline(struct atio_result *r)
{
	const struct atio_opts *o = r->opts;
	enum atio_ival_unit unit = atio_ival_unit_named(atio_unit_name(o));
	struct atio_ival_series *t;

	if (!r->thread_ivals)
		return 0;
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	atio_ival_series_init(t, o->interval_ns, atio_mode_two_way(o->mode));
	if (atio_ival_merge(t, (const struct atio_ival_series *const *)r->thread_ivals,
			    o->threads, r->elapsed_ns, false)) {
		atio_ival_series_free(t);
		free(t);
		return -ENOMEM;
	}
	atio_ival_rates(t, unit);
	for (unsigned i = 0; i < o->threads; i++)
		atio_ival_rates(r->thread_ivals[i], unit);
	r->timeline = t;
	return 0;
}

void atio_report_timeline_free(struct atio_result *r)
{
	if (r->timeline)
		atio_ival_series_free(r->timeline);
	free(r->timeline);
	r->timeline = NULL;
}
