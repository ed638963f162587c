/* SPDX-License-Identifier: MIT */
/*
 * --mix: the figures of each direction, reads and writes, as text lines
 * below the result line and as JSON objects, for a run (report.c and
 * report_json.c) and for a merge of runs (merge.c) alike. Percentiles are
 * the histogram's own (atio_hist_percentile()). No line written here holds
 * the word the result line alone may hold: scripts grep for it.
 */
#include <inttypes.h>

#include "atio/base/json.h"
#include "atio/print/pct.h"
#include "atio/print/report.h"


/* @part of @whole in percent; 0 of nothing. */
static double share(uint64_t part, uint64_t whole)
{
	return whole ? (double)part * 100.0 / (double)whole : 0.0;
}

void atio_report_dir_text(FILE *f, const char *name, const struct atio_dir_stats *d,
			  uint64_t total_ops, double iops, double mbs, const struct atio_opts *o)
{
	const struct atio_hist *h = &d->lat;

	fprintf(f, "%s: %.2f IOPS, %.2f MB/s, %" PRIu64 " ops, %" PRIu64 " bytes, share %.2f%%, "
		"latency (usec): ", name, iops, mbs, d->ops, d->bytes, share(d->ops, total_ops));
	if (h->count == 0) {
		fputs("none\n", f);
		return;
	}
	atio_pct_text(f, h, o);
	putc('\n', f);
}

void atio_report_dir_json(struct atio_json *j, const char *key, const struct atio_dir_stats *d,
			  uint64_t total_ops, double iops, double mbs, bool buckets,
			  const struct atio_opts *o)
{
	atio_json_object_begin(j, key);
	atio_json_uint(j, "ops", d->ops);
	atio_json_uint(j, "bytes", d->bytes);
	atio_json_double(j, "iops", iops);
	atio_json_double(j, "mbs", mbs);
	atio_json_double(j, "share", share(d->ops, total_ops));
	atio_report_json_latency(j, "latency_ns", &d->lat, buckets, o);
	/* MB/s is 2^20 bytes a second: scaling by a power of two is exact. */
	atio_json_double(j, "bytes_per_sec", mbs * 1048576.0);
	atio_json_object_end(j);
}
