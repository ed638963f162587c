/* SPDX-License-Identifier: MIT */
/*
 * The driver's lines per direction and per kind of call
 * (atio/merge/driver_lines.h), from one merge: a node's document alone, or
 * the nodes of one iteration together.
 */
#include "atio/merge/driver_lines.h"
#include "atio/stats/hist.h"

/* p50, p99 and p99.9 of @h in microseconds, as the driver's lines have them. */
static void percentiles(FILE *f, const struct atio_hist *h)
{
	fprintf(f, "p50 %.2f, p99 %.2f, p99.9 %.2f",
		(double)atio_hist_percentile(h, 50.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.0) / 1000.0,
		(double)atio_hist_percentile(h, 99.9) / 1000.0);
}

static void line_end(FILE *f, const struct atio_merge *m, bool merged)
{
	if (merged)
		fprintf(f, " (merged from %u nodes)", m->ndocs);
	putc('\n', f);
}

void atio_driver_lines(FILE *f, const char *key, const struct atio_merge *m, bool merged)
{
	const struct atio_stats *t = &m->total;

	for (unsigned i = 0; m->mixed && i < ATIO_DIRS; i++) {
		if (key)
			fprintf(f, "%s\t", key);
		fprintf(f, "%s: %.2f IOPS, %.2f MB/s, latency (usec): ", atio_dir_name(i),
			m->dir_iops[i], m->dir_mbs[i]);
		if (m->dir[i].lat.count)
			percentiles(f, &m->dir[i].lat);
		else
			fputs("none", f);
		line_end(f, m, merged);
	}
	if (t->syncs == 0)
		return;
	if (key)
		fprintf(f, "%s\t", key);
	fputs("write latency (usec): ", f);
	percentiles(f, &t->lat);
	line_end(f, m, merged);
	if (key)
		fprintf(f, "%s\t", key);
	fputs("sync latency (usec): ", f);
	percentiles(f, &t->sync_lat);
	line_end(f, m, merged);
}

/* Percentiles of @h, in nanoseconds, as microseconds in member @key. */
static void latency_us(struct atio_json *j, const char *key, const struct atio_hist *h)
{
	atio_json_object_begin(j, key);
	atio_json_double(j, "p50", (double)atio_hist_percentile(h, 50.0) / 1000.0);
	atio_json_double(j, "p99", (double)atio_hist_percentile(h, 99.0) / 1000.0);
	atio_json_double(j, "p99.9", (double)atio_hist_percentile(h, 99.9) / 1000.0);
	atio_json_object_end(j);
}

void atio_driver_dirs_json(struct atio_json *j, const struct atio_merge *m)
{
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		if (!m->mixed) {
			atio_json_null(j, atio_dir_name(i));
			continue;
		}
		atio_json_object_begin(j, atio_dir_name(i));
		atio_json_double(j, "iops", m->dir_iops[i]);
		atio_json_double(j, "mbs", m->dir_mbs[i]);
		atio_json_uint(j, "ops", m->dir[i].ops);
		atio_json_uint(j, "bytes", m->dir[i].bytes);
		latency_us(j, "latency_us", &m->dir[i].lat);
		atio_merge_json_hist(j, "latency_ns", &m->dir[i].lat);
		atio_json_object_end(j);
	}
	if (m->total.syncs)
		latency_us(j, "sync_latency_us", &m->total.sync_lat);
	else
		atio_json_null(j, "sync_latency_us");
}
