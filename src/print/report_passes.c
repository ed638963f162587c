/* SPDX-License-Identifier: MIT */
/*
 * --size and --loops in the header and the result: their limits, what
 * ended the run, and with --loops the table of passes (xdd's pass table):
 * one line, or JSON object, a pass over the threads' shares, from the
 * threads' series merged pass by pass (atio/stats/passes.h). The combined
 * figure is the result line's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "atio/base/json.h"
#include "atio/base/units.h"
#include "atio/print/report.h"
#include "atio/stats/passes.h"
#include "atio/print/report_figures.h"

int atio_report_passes(struct atio_result *r)
{
	const struct atio_opts *o = r->opts;
	struct atio_ival_series **in, *out;
	unsigned n = 0;
	int ret;

	if (!o->loops || !r->threads)
		return 0;
	in = calloc(r->nthreads, sizeof(*in));
	out = malloc(sizeof(*out));
	if (!in || !out) {
		free(in);
		free(out);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < r->nthreads; i++)
		if (r->threads[i].passes)
			in[n++] = r->threads[i].passes;
	ret = atio_passes_merge(out, in, n, atio_ival_unit_named(atio_unit_name(o)));
	free(in);
	if (ret) {
		atio_ival_series_free(out);
		free(out);
		return ret;
	}
	r->passes = out;
	return 0;
}

void atio_report_passes_free(struct atio_result *r)
{
	if (!r->passes)
		return;
	atio_ival_series_free(r->passes);
	free(r->passes);
	r->passes = NULL;
}

/*
 * The header's line, e.g. "Limits: 1G a thread (4G in all), 2 passes over
 * each thread's share (random: each a permutation of it), -t 60 sec; the
 * first reached ends the run, the warm-up counting toward none".
 */
void atio_report_limits_header(FILE *f, const struct atio_opts *o)
{
	char a[24], b[24], t[32];

	if (!o->size && !o->loops)
		return;
	fputs("Limits: ", f);
	if (o->size) {
		atio_format_size(a, sizeof(a), o->size);
		if (o->size <= UINT64_MAX / o->threads)
			atio_format_size(b, sizeof(b), o->size * o->threads);
		else
			snprintf(b, sizeof(b), "more than 16E");
		fprintf(f, "%s a thread (%s in all)%s", a, b, o->loops ? ", " : "");
	}
	if (o->loops)
		fprintf(f, "%" PRIu64 " %s over each thread's share%s", o->loops,
			o->loops == 1 ? "pass" : "passes",
			!o->random ? "" : o->dist_text ? " (each as many --dist draws as it has blocks)"
			: " (random: each a permutation of it)");
	atio_format_time(t, sizeof(t), o->time_ns);
	if (o->time_ns)
		fprintf(f, ", -t %s sec", t);
	fputs("; the first reached ends the run, the warm-up counting toward none\n", f);
}

const char *atio_report_ended(const struct atio_result *r)
{
	return r->signo ? "signal" : atio_end_name(r->ended);
}

/* The latency percentile @p in ns of pass @iv of @s, from its buckets, in @h. */
static uint64_t pass_percentile(const struct atio_ival_series *s, const struct atio_ival *iv,
				double p, struct atio_hist *h)
{
	atio_hist_init(h);
	atio_ival_hist_add(h, s, iv, ATIO_DIRS);
	return atio_hist_percentile(h, p);
}

/* Whether every thread completed pass @iv. */
static bool whole(const struct atio_result *r, const struct atio_ival *iv)
{
	return iv->docs == r->nthreads;
}

/*
 * "ended: loops", with what each limit was, and with --loops one line a
 * pass: "pass 1: 0.512 sec, 1234.56 IOPS, 4.82 MB/s, 262144 ops, p99
 * 12.34 usec", "(partial)" after one cut short. Nothing without --size or
 * --loops. No word of the result line.
 */
void atio_report_passes_text(FILE *f, const struct atio_result *r)
{
	const struct atio_opts *o = r->opts;
	const struct atio_ival_series *s = r->passes;
	struct atio_hist *h;

	if (!o->size && !o->loops)
		return;
	fprintf(f, "ended: %s\n", atio_report_ended(r));
	if (!s)
		return;
	h = malloc(sizeof(*h));
	for (size_t i = 0; h && i < atio_ival_count(s); i++) {
		const struct atio_ival *iv = atio_ival_get(s, i);

		fprintf(f, "pass %zu: %.3f sec, %.2f %s, %.2f MB/s, %" PRIu64 " ops, p99 %.2f usec%s\n",
			i + 1, atio_report_sec(iv->dur_ns), iv->value, atio_unit_name(o), iv->mbs,
			iv->ops[0], (double)pass_percentile(s, iv, 99.0, h) / 1000.0,
			whole(r, iv) ? "" : " (partial)");
	}
	free(h);
	if (s->nomem)
		fputs("passes: out of memory for some of them: the table is partial\n", f);
}

/*
 * JSON: "ended" (always), and "passes": an array of {pass, whole,
 * time_sec, value, mbs, iops, ops, bytes, syncs, latency_ns} with
 * --loops, else null.
 */
void atio_report_passes_json(struct atio_json *j, const struct atio_result *r)
{
	const struct atio_ival_series *s = r->passes;
	struct atio_hist *h;

	atio_json_string(j, "ended", atio_report_ended(r));
	if (!s) {
		atio_json_null(j, "passes");
		return;
	}
	h = malloc(sizeof(*h));
	atio_json_array_begin(j, "passes");
	for (size_t i = 0; h && i < atio_ival_count(s); i++) {
		const struct atio_ival *iv = atio_ival_get(s, i);

		atio_json_object_begin(j, NULL);
		atio_json_uint(j, "pass", i + 1);
		atio_json_bool(j, "whole", whole(r, iv));
		atio_json_double(j, "time_sec", atio_report_sec(iv->dur_ns));
		atio_json_double(j, "value", iv->value);
		atio_json_double(j, "mbs", iv->mbs);
		atio_json_double(j, "iops", iv->iops);
		atio_json_uint(j, "ops", iv->ops[0]);
		atio_json_uint(j, "bytes", iv->bytes[0]);
		atio_json_uint(j, "syncs", iv->syncs);
		atio_hist_init(h);
		atio_ival_hist_add(h, s, iv, ATIO_DIRS);
		atio_report_json_hist(j, "latency_ns", h, false);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	free(h);
}
