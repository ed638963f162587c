/* SPDX-License-Identifier: MIT */
/*
 * The figures the text report (report.c) and the JSON report
 * (report_json.c) both derive from a struct atio_result: the reported
 * value, per-second rates, the share of a --rate cap, signal and engine
 * names, a thread's time; and the forms both they and the other renderers
 * share: a user-supplied string on a text line, a histogram as JSON. One
 * implementation of each, so the renderings of a run cannot disagree.
 * Nothing here prints to stderr or exits.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "atio/stats/hist.h"
#include "atio/base/json.h"
#include "atio/run/pace.h"
#include "atio/print/pct.h"
#include "atio/print/report.h"
#include "atio/base/units.h"
#include "atio/print/report_figures.h"
#include "atio/stats/steady.h"

#define NS_PER_SEC 1000000000.0

/* See report_figures.h. */
double atio_report_sec(uint64_t ns)
{
	return (double)ns / NS_PER_SEC;
}

/* See report_figures.h. */
double atio_report_per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (double)n / atio_report_sec(ns) : 0.0;
}

/* See report_figures.h. */
double atio_report_mb_per_sec(uint64_t bytes, uint64_t ns)
{
	return atio_mib(atio_report_per_sec(bytes, ns));
}

static bool sync_mode(enum atio_mode m)
{
	return m == ATIO_MODE_FSYNC || m == ATIO_MODE_FDATASYNC;
}

/*
 * The reported value. In the sync modes with --iops the figure users want
 * is how many syncs the storage completed per second (the write count
 * would only be -q times that), hence "sync/s"; otherwise operations or
 * MiB per second. A run of zero length reports 0 rather than NaN.
 */
double atio_result_value(const struct atio_result *r)
{
	const struct atio_opts *o = r->opts;

	if (r->elapsed_ns == 0)
		return 0.0;
	if (o->unit == ATIO_UNIT_MBS)
		return atio_report_mb_per_sec(r->total.bytes, r->elapsed_ns);
	if (sync_mode(o->mode))
		return atio_report_per_sec(r->total.syncs, r->elapsed_ns);
	return atio_report_per_sec(r->total.ops, r->elapsed_ns);
}

/*
 * See report_figures.h. The value over the cap, but never more than the I/Os
 * done over those the schedule made due in the measured time (up to -t:
 * none is due after it). The count of due I/Os rounds up, so over a time
 * that is not a whole number of intervals the value exceeds the cap: a cap
 * of 0.001 IOPS over 1 s makes one I/O due, at the start, and that I/O
 * done is all of it, not 1000 times it. A slow final sync, inside the
 * time, still lowers the share through the value.
 */
double atio_report_reached(const struct atio_result *r)
{
	const struct atio_opts *o = r->opts;
	uint64_t span = r->elapsed_ns < o->time_ns || !o->time_ns ? r->elapsed_ns : o->time_ns;
	uint64_t warm = r->steady ? r->steady->warm_ns : o->warmup_ns;
	uint64_t due = atio_pace_count(o->rate_interval_ns, warm, warm + span);
	double share, done;

	if (!(o->rate > 0))
		return 0.0;
	share = atio_result_value(r) / o->rate;
	done = due ? (double)r->total.ops / ((double)due * o->threads) : share;
	return share < done ? share : done;
}

/* See report.h: a user-supplied string, kept on its line and off grep rate. */
void atio_report_put_text(FILE *f, const char *s)
{
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (strncmp(p, "rate", 4) == 0) {
			fputs("r\\x61", f);
			p++;            /* the loop's p++ then skips the 'a' */
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\x%02x", c);
		} else {
			putc(c, f);
		}
	}
}

/* See report_figures.h. */
const char *atio_report_engine_name(const struct atio_opts *o, const char *engine)
{
	if (engine)
		return engine;
	return o->engine ? o->engine : "(none)";
}

/* See report_figures.h. */
const char *atio_report_signal_name(int signo, char *buf, size_t len)
{
	switch (signo) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGQUIT:
		return "SIGQUIT";
	default:
		snprintf(buf, len, "signal %d", signo);
		return buf;
	}
}

/* See report_figures.h. */
uint64_t atio_report_thread_ns(const struct atio_result *r, const struct atio_stats *s)
{
	return s->elapsed_ns ? s->elapsed_ns : r->elapsed_ns;
}

/*
 * A histogram in nanoseconds: count, exact min/mean/max, the percentiles
 * as atio_hist_percentile() gives them, and, when @buckets, every non-empty
 * bucket as [index, lowest value, count]. With @pct, before the buckets,
 * the standard deviation and the percentiles of fio and of @o's
 * --percentiles (atio_pct_json()).
 *
 * The buckets are what makes results mergeable: the bucket index of a value
 * depends on the value alone (and on sub_bits, written alongside), so adding
 * the counts of equal indices across threads, runs or hosts yields exactly
 * the histogram a single recorder of all those values would have held, and
 * its percentiles are the true cluster-wide percentiles, not an average of
 * per-host ones. "low" is redundant with the index but lets a reader that
 * does not know the index formula still place each bucket.
 *
 * An empty histogram writes count 0, zeros for every figure (its min is
 * UINT64_MAX internally) and an empty bucket list.
 */
static void json_hist(struct atio_json *j, const char *key, const struct atio_hist *h,
		      bool buckets, bool pct, const struct atio_opts *o)
{
	bool empty = h->count == 0;

	atio_json_object_begin(j, key);
	atio_json_uint(j, "count", h->count);
	atio_json_uint(j, "min", empty ? 0 : h->min);
	atio_json_double(j, "mean", empty ? 0.0 : atio_hist_mean(h));
	atio_json_uint(j, "p50", empty ? 0 : atio_hist_percentile(h, 50.0));
	atio_json_uint(j, "p90", empty ? 0 : atio_hist_percentile(h, 90.0));
	atio_json_uint(j, "p99", empty ? 0 : atio_hist_percentile(h, 99.0));
	atio_json_uint(j, "p99.9", empty ? 0 : atio_hist_percentile(h, 99.9));
	atio_json_uint(j, "max", empty ? 0 : h->max);
	atio_json_uint(j, "sub_bits", ATIO_HIST_SUB_BITS);
	if (pct)
		atio_pct_json(j, h, o);
	if (buckets) {
		atio_json_array_begin(j, "buckets");
		for (unsigned i = 0; i < ATIO_HIST_BUCKETS && !empty; i++) {
			if (!h->bucket[i])
				continue;
			atio_json_array_begin(j, NULL);
			atio_json_uint(j, NULL, i);
			atio_json_uint(j, NULL, atio_hist_bucket_low(i));
			atio_json_uint(j, NULL, h->bucket[i]);
			atio_json_array_end(j);
		}
		atio_json_array_end(j);
	}
	atio_json_object_end(j);
}

/* See report.h. */
void atio_report_json_latency(struct atio_json *j, const char *key, const struct atio_hist *h,
			      bool buckets, const struct atio_opts *o)
{
	json_hist(j, key, h, buckets, true, o);
}

/* See report.h: json_hist() for every renderer of a histogram. */
void atio_report_json_hist(struct atio_json *j, const char *key, const struct atio_hist *h,
			   bool buckets)
{
	json_hist(j, key, h, buckets, false, NULL);
}

/* See report.h. */
void atio_result_rates(const struct atio_result *r, double *mbs, double *iops, double *cpu_pct)
{
	const struct atio_stats *t = &r->total;

	*mbs = atio_report_mb_per_sec(t->bytes, r->elapsed_ns);
	*iops = atio_report_per_sec(t->ops, r->elapsed_ns);
	*cpu_pct = 100.0 * atio_report_per_sec(t->cpu_user_ns + t->cpu_sys_ns, r->elapsed_ns) / 1e9;
}
