/* SPDX-License-Identifier: MIT */
/* The cluster driver's results as CSV: see atio/merge/driver_csv.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "atio/merge/driver_csv.h"
#include "atio/merge/merge_csv.h"
#include "atio/print/csv.h"

#define LEAD "row,threads_given,test,iteration,host,status,message"
#define NLEAD 7u
#define MESSAGE_LINES 3u           /* of a failed node's stderr, in its row */

/* The lead columns of a row: what it is and where it stands in the matrix. */
enum { L_ROW, L_THREADS, L_TEST, L_ITERATION, L_HOST, L_STATUS, L_MESSAGE };

int atio_driver_csv_header(char *buf, size_t len)
{
	return atio_csv_columns(buf, len, LEAD, atio_pct_fio, ATIO_PCT_FIO);
}

/* Member @key of @o as a string, or NULL. */
static const char *string(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/*
 * The latency fields of @w from a histogram's figures @h as a merge writes
 * them (nanoseconds: count, min, mean, stdev, fio's percentiles, max).
 */
static void latency(struct atio_csv_row *w, const json_t *h)
{
	const json_t *pct = json_object_get(h, "percentiles");
	char key[32];

	if (!json_is_object(h))
		return;
	w->lat_count = atio_csv_json_count(h, "count");
	w->lat_min = atio_csv_json_number(h, "min") / 1000.0;
	w->lat_mean = atio_csv_json_number(h, "mean") / 1000.0;
	w->lat_stdev = atio_csv_json_number(h, "stdev") / 1000.0;
	for (unsigned i = 0; i < ATIO_PCT_FIO; i++) {
		snprintf(key, sizeof(key), "%.10g", atio_pct_fio[i]);
		w->lat_p[i] = atio_csv_json_number(pct, key) / 1000.0;
	}
	w->lat_max = atio_csv_json_number(h, "max") / 1000.0;
}

/* The figures of direction object @d (a node's, or a merge's) into @w. */
static void direction(struct atio_csv_row *w, const json_t *d, const char *name, double ops)
{
	double dops = atio_csv_json_number(d, "ops");

	w->direction = name;
	w->value = NAN;
	w->unit = NULL;
	w->iops = atio_csv_json_number(d, "iops");
	w->bw_mib_s = atio_csv_json_number(d, "mbs");
	/* MB/s is 2^20 bytes a second: scaling by a power of two is exact. */
	w->bw_bytes_s = w->bw_mib_s * 1048576.0;
	w->ops = atio_csv_json_count(d, "ops");
	w->bytes = atio_csv_json_count(d, "bytes");
	w->syncs = ATIO_CSV_NONE;
	w->share_pct = ops > 0 ? dops * 100.0 / ops : 0.0;
	w->lat_count = ATIO_CSV_NONE;
	w->lat_min = w->lat_mean = w->lat_stdev = w->lat_max = NAN;
	for (unsigned i = 0; i < ATIO_CSV_POINTS; i++)
		w->lat_p[i] = NAN;
	latency(w, json_object_get(d, "latency_ns"));
	w->cpu_user_pct = w->cpu_sys_pct = NAN;
	w->ctx_voluntary = w->ctx_involuntary = ATIO_CSV_NONE;
}

/* @w, then its rows per direction from the objects "read" and "write" of @o. */
static void with_directions(FILE *f, struct atio_csv_row *w, const json_t *o)
{
	double ops = atio_csv_json_number(o, "ops");

	atio_csv_row(f, w, NLEAD, ATIO_PCT_FIO);
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		const json_t *d = json_object_get(o, atio_dir_name(i));

		if (!json_is_object(d))
			continue;
		direction(w, d, atio_dir_name(i), ops);
		atio_csv_row(f, w, NLEAD, ATIO_PCT_FIO);
	}
}

/* What a sum adds up of its nodes' rows. */
struct sums {
	double iops, mbs, bytes_per_sec, cpu_user_pct, cpu_sys_pct;
	uint64_t ctx_voluntary, ctx_involuntary, threads;
};

/* Add @v to *@to when it is a figure. */
static void add(double *to, double v)
{
	*to += isfinite(v) ? v : 0.0;
}

/* Add the count @v to *@to when it is one. */
static void add_count(uint64_t *to, uint64_t v)
{
	*to += v == ATIO_CSV_NONE ? 0 : v;
}

/* A node's record @n: its rows, added to @s when it gave a result. */
static void node(FILE *f, struct atio_csv_row *w, const json_t *n, struct sums *s)
{
	const json_t *err = json_object_get(n, "stderr"), *line;
	struct atio_csv_row r = *w;
	char said[1024] = "";
	size_t i;

	r.lead[L_ROW] = "node";
	r.lead[L_HOST] = string(n, "host");
	r.direction = "all";
	if (!json_is_true(json_object_get(n, "ok"))) {
		r.lead[L_STATUS] = "FAILURE";
		/* Why, and what atio said: its first lines, one field. */
		json_array_foreach(err, i, line)
			if (i < MESSAGE_LINES && json_is_string(line))
				snprintf(said + strlen(said), sizeof(said) - strlen(said), "%s%s",
					 said[0] ? "; " : "", json_string_value(line));
		r.lead[L_MESSAGE] = said;
		atio_csv_row(f, &r, NLEAD, ATIO_PCT_FIO);
		return;
	}
	r.lead[L_STATUS] = "SUCCESS";
	r.lead[L_MESSAGE] = NULL;
	r.job = 1;
	r.start_epoch = atio_csv_json_number(n, "start_epoch");
	r.time_s = atio_csv_json_number(n, "time_sec");
	r.value = atio_csv_json_number(n, "value");
	r.unit = string(n, "unit");
	r.iops = atio_csv_json_number(n, "iops");
	r.bw_mib_s = atio_csv_json_number(n, "mbs");
	r.bw_bytes_s = atio_csv_json_number(n, "bytes_per_sec");
	r.ops = atio_csv_json_count(n, "ops");
	r.bytes = atio_csv_json_count(n, "bytes");
	r.syncs = atio_csv_json_count(n, "syncs");
	r.share_pct = 100.0;
	latency(&r, json_object_get(n, "latency_ns"));
	r.cpu_user_pct = atio_csv_json_number(n, "cpu_user_pct");
	r.cpu_sys_pct = atio_csv_json_number(n, "cpu_sys_pct");
	r.ctx_voluntary = atio_csv_json_count(n, "ctx_voluntary");
	r.ctx_involuntary = atio_csv_json_count(n, "ctx_involuntary");
	r.threads = atio_csv_json_count(n, "threads");
	r.block_size = atio_csv_json_count(n, "block_size");
	r.seed = string(n, "seed");
	r.cmdline = string(n, "cmdline");
	add(&s->iops, r.iops);
	add(&s->mbs, r.bw_mib_s);
	add(&s->bytes_per_sec, r.bw_bytes_s);
	add(&s->cpu_user_pct, r.cpu_user_pct);
	add(&s->cpu_sys_pct, r.cpu_sys_pct);
	add_count(&s->ctx_voluntary, r.ctx_voluntary);
	add_count(&s->ctx_involuntary, r.ctx_involuntary);
	add_count(&s->threads, r.threads);
	with_directions(f, &r, n);
}

/* An iteration's record @it: a row per node, then its sum's. */
static void iteration(FILE *f, const struct atio_csv_row *w, const json_t *it)
{
	const json_t *merge = json_object_get(it, "merge"), *n;
	struct atio_csv_row r = *w;
	struct sums s = { 0 };
	char no[24];
	size_t i;

	snprintf(no, sizeof(no), "%.0f", atio_csv_json_number(it, "iteration"));
	r.lead[L_ITERATION] = no;
	json_array_foreach(json_object_get(it, "nodes"), i, n)
		node(f, &r, n, &s);
	r.lead[L_ROW] = "sum";
	r.lead[L_STATUS] = !json_is_true(json_object_get(it, "complete")) ? "INCOMPLETE" :
			   !json_is_true(json_object_get(it, "concurrent")) ? "NOT CONCURRENT" :
			   "complete";
	r.direction = "all";
	r.start_epoch = atio_csv_json_number(merge, "first_start_epoch");
	r.value = atio_csv_json_number(it, "sum");
	r.unit = string(it, "unit");
	if (json_is_object(merge)) {
		r.iops = s.iops;
		r.bw_mib_s = s.mbs;
		r.bw_bytes_s = s.bytes_per_sec;
		r.ops = atio_csv_json_count(merge, "ops");
		r.bytes = atio_csv_json_count(merge, "bytes");
		r.syncs = atio_csv_json_count(merge, "syncs");
		r.share_pct = 100.0;
		latency(&r, json_object_get(merge, "latency_ns"));
		r.cpu_user_pct = s.cpu_user_pct;
		r.cpu_sys_pct = s.cpu_sys_pct;
		r.ctx_voluntary = s.ctx_voluntary;
		r.ctx_involuntary = s.ctx_involuntary;
		r.threads = s.threads;
	}
	with_directions(f, &r, merge);
}

/* A test of the document: its iterations, then its average's row. */
static void test(FILE *f, const char *threads, const json_t *t)
{
	const json_t *it;
	struct atio_csv_row r;
	double complete = atio_csv_json_number(t, "complete_iterations");
	size_t i;

	atio_csv_row_empty(&r);
	r.lead[L_THREADS] = threads;
	r.lead[L_TEST] = string(t, "test");
	json_array_foreach(json_object_get(t, "iterations"), i, it)
		iteration(f, &r, it);
	r.lead[L_ROW] = "average";
	r.lead[L_STATUS] = complete < atio_csv_json_number(t, "runs") ? "INCOMPLETE" : "complete";
	r.direction = "all";
	r.value = atio_csv_json_number(t, "average");
	r.unit = string(t, "unit");
	atio_csv_row(f, &r, NLEAD, ATIO_PCT_FIO);
	for (unsigned k = 0; k < ATIO_DIRS; k++) {
		const json_t *d = json_object_get(t, atio_dir_name(k));

		if (!json_is_object(d))
			continue;
		r.direction = atio_dir_name(k);
		r.value = NAN;
		r.unit = NULL;
		r.iops = atio_csv_json_number(d, "average_iops");
		r.bw_mib_s = atio_csv_json_number(d, "average_mbs");
		r.bw_bytes_s = r.bw_mib_s * 1048576.0;
		atio_csv_row(f, &r, NLEAD, ATIO_PCT_FIO);
	}
}

int atio_driver_csv_rows(FILE *f, const json_t *doc, struct atio_error *e)
{
	const json_t *results = json_object_get(doc, "results"), *g, *t;
	char threads[24];
	size_t i, k;

	if (!json_is_object(doc) || !json_is_array(results))
		return atio_error_set(e, ATIO_EXIT_USAGE, 0, "not the driver's -o document (no "
				      "\"results\" array)");
	json_array_foreach(results, i, g) {
		const json_t *n = json_object_get(g, "threads");

		if (json_is_string(n))
			snprintf(threads, sizeof(threads), "%s", json_string_value(n));
		else
			snprintf(threads, sizeof(threads), "%.0f", atio_csv_json_number(g, "threads"));
		json_array_foreach(json_object_get(g, "tests"), k, t)
			test(f, threads, t);
	}
	return 0;
}
