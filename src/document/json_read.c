/* SPDX-License-Identifier: MIT */
/*
 * Reading an atio --json result back, for atio merge and atio report
 * (an atio merge --json document is read by iterations_read.c). The parsing is
 * jansson's (json_load.c); this file only checks that the document is an atio result
 * and turns it into a struct atio_merge_doc. Every error names the file
 * and the member at fault, so that a user merging fifty files knows which
 * one to look at.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "atio/stats/hist.h"
#include "atio/document/json_read.h"
#include "atio/document/doc.h"
#include "atio/document/doc_steady.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

bool atio_json_unit_ok(const json_t *u)
{
	const char *s = json_string_value(u);

	return s && (strcmp(s, "MB/s") == 0 || strcmp(s, "IOPS") == 0 || strcmp(s, "sync/s") == 0);
}

/* A finite double from 0 up, rounded to the nearest whole number. */
static uint64_t to_u64(double x)
{
	return x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)(x + 0.5);
}

/*
 * A member that must be a number (jansson tells integers from reals; the
 * writer prints 1.0 as 1, so either is accepted). Returns 0 or -EINVAL
 * with @e filled.
 */
static int get_number(json_t *obj, const char *where, const char *key, double *out,
		      const char *name, struct atio_error *e)
{
	json_t *v = json_object_get(obj, key);

	if (!json_is_number(v))
		return BAD("%s: %s%s: missing or not a number", name, where, key);
	*out = json_number_value(v);
	if (!isfinite(*out) || *out < 0)
		return BAD("%s: %s%s: %g is not a count or time", name, where, key, *out);
	return 0;
}

/*
 * True when @v is a whole number from 0 up that a uint64_t holds, stored in
 * @out. The documents are read with every integer as a double (see
 * finish()), exact up to 2^53: 9 PB of bytes, 104 days of nanoseconds.
 */
static bool whole(json_t *v, uint64_t *out)
{
	double x;

	if (!json_is_number(v))
		return false;
	x = json_number_value(v);
	if (!(x >= 0.0) || x >= 18446744073709551616.0 || x != (double)(uint64_t)x)
		return false;
	*out = (uint64_t)x;
	return true;
}

/* A member that must be a whole number from 0 up. */
static int get_uint(json_t *obj, const char *where, const char *key, uint64_t *out,
		    const char *name, struct atio_error *e)
{
	if (!whole(json_object_get(obj, key), out))
		return BAD("%s: %s%s: missing or not a whole number from 0 up", name, where, key);
	return 0;
}

/* An epoch member, which is null when the run never began. */
static int get_epoch(json_t *doc, const char *key, double *out, const char *name,
		     struct atio_error *e)
{
	json_t *v = json_object_get(doc, key);

	if (json_is_null(v)) {
		*out = 0.0;
		return 0;
	}
	return get_number(doc, "", key, out, name, e);
}

/*
 * Histogram @key ("latency_ns" or "sync_latency_ns") into @h: count, min,
 * max, the mean (the sum is mean * count, which the document rounds to the
 * double nearest), and the buckets [index, low, count]. The buckets are
 * checked against this atio's histogram: the same sub_bits, indices in
 * range and ascending, each low the index's lower bound, counts adding up
 * to count.
 */
static int get_hist(json_t *doc, const char *key, struct atio_hist *h, const char *name,
		    struct atio_error *e)
{
	json_t *o = json_object_get(doc, key), *b, *el;
	uint64_t sub = 0, total = 0;
	double mean;
	size_t k;
	long long prev = -1;
	char where[64];

	atio_hist_init(h);
	if (!json_is_object(o))
		return BAD("%s: %s: missing or not an object", name, key);
	snprintf(where, sizeof(where), "%s.", key);
	if (get_uint(o, where, "count", &h->count, name, e) ||
	    get_uint(o, where, "sub_bits", &sub, name, e) ||
	    get_number(o, where, "mean", &mean, name, e))
		return -EINVAL;
	if (sub != ATIO_HIST_SUB_BITS)
		return BAD("%s: %ssub_bits: %llu, this atio's histograms have %u",
			   name, where, (unsigned long long)sub, ATIO_HIST_SUB_BITS);
	b = json_object_get(o, "buckets");
	if (!json_is_array(b))
		return BAD("%s: %sbuckets: missing or not an array", name, where);
	if (h->count == 0) {
		h->min = UINT64_MAX;
		h->max = 0;
		if (json_array_size(b) != 0)
			return BAD("%s: %sbuckets: values in a histogram of count 0", name, where);
		return 0;
	}
	if (get_uint(o, where, "min", &h->min, name, e) ||
	    get_uint(o, where, "max", &h->max, name, e))
		return -EINVAL;
	if (h->min > h->max)
		return BAD("%s: %smin %llu is above max %llu", name, where,
			   (unsigned long long)h->min, (unsigned long long)h->max);
	json_array_foreach(b, k, el) {
		uint64_t i, low, c;

		if (!json_is_array(el) || json_array_size(el) != 3 ||
		    !whole(json_array_get(el, 0), &i) || !whole(json_array_get(el, 1), &low) ||
		    !whole(json_array_get(el, 2), &c))
			return BAD("%s: %sbuckets[%zu]: not [index, low, count]", name, where, k);
		if ((long long)i <= prev || i < atio_hist_index(h->min) ||
		    i > atio_hist_index(h->max))
			return BAD("%s: %sbuckets[%zu]: index %llu out of order, or outside the "
				   "buckets of min and max", name, where, k, (unsigned long long)i);
		if (low != atio_hist_bucket_low((unsigned)i))
			return BAD("%s: %sbuckets[%zu]: low %llu is not the lower bound of "
				   "bucket %llu", name, where, k, (unsigned long long)low,
				   (unsigned long long)i);
		if (c > h->count - total)
			return BAD("%s: %sbuckets: they hold more values than count says (%llu)",
				   name, where, (unsigned long long)h->count);
		h->bucket[i] = c;
		total += c;
		prev = (long long)i;
	}
	if (total != h->count)
		return BAD("%s: %sbuckets: they hold %llu values, count says %llu", name, where,
			   (unsigned long long)total, (unsigned long long)h->count);
	h->sum = (uint64_t)to_u64(mean * (double)h->count);
	return 0;
}

/* The "result" object: unit, value, time and the counters. */
static int get_result(json_t *doc, struct atio_merge_doc *d, const char *name,
		      struct atio_error *e)
{
	json_t *r = json_object_get(doc, "result"), *u;
	double user, sys;

	if (!json_is_object(r))
		return BAD("%s: result: missing or not an object", name);
	u = json_object_get(r, "unit");
	if (!atio_json_unit_ok(u))
		return BAD("%s: result.unit: missing or not MB/s, IOPS or sync/s", name);
	snprintf(d->unit, sizeof(d->unit), "%s", json_string_value(u));
	if (get_number(r, "result.", "value", &d->value, name, e) ||
	    get_number(r, "result.", "time_sec", &d->time_sec, name, e) ||
	    get_uint(r, "result.", "ops", &d->st.ops, name, e) ||
	    get_uint(r, "result.", "bytes", &d->st.bytes, name, e) ||
	    get_uint(r, "result.", "syncs", &d->st.syncs, name, e) ||
	    get_number(r, "result.", "cpu_user_sec", &user, name, e) ||
	    get_number(r, "result.", "cpu_sys_sec", &sys, name, e))
		return -EINVAL;
	d->st.elapsed_ns = (uint64_t)to_u64(d->time_sec * 1e9);
	d->st.cpu_user_ns = (uint64_t)to_u64(user * 1e9);
	d->st.cpu_sys_ns = (uint64_t)to_u64(sys * 1e9);
	return 0;
}

/*
 * --mix: the "read" and "write" objects, both null (or absent, as before
 * --mix existed) or both there, with ops, bytes, iops, mbs and latency_ns;
 * their operations and bytes must add up to the result's.
 */
static int get_dirs(json_t *doc, struct atio_merge_doc *d, const char *name,
		    struct atio_error *e)
{
	json_t *o[ATIO_DIRS];
	char where[24], sub[512];

	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		o[i] = json_object_get(doc, atio_dir_name(i));
		if (o[i] && !json_is_null(o[i]) && !json_is_object(o[i]))
			return BAD("%s: %s: not an object or null", name, atio_dir_name(i));
		if (json_is_null(o[i]))
			o[i] = NULL;
	}
	if (!o[0] != !o[1])
		return BAD("%s: %s without %s: a --mix result has both", name,
			   o[0] ? "read" : "write", o[0] ? "write" : "read");
	d->mixed = o[0] != NULL;
	if (!d->mixed)
		return 0;
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		struct atio_dir_stats *s = &d->dir[i];

		snprintf(where, sizeof(where), "%s.", atio_dir_name(i));
		snprintf(sub, sizeof(sub), "%s: %s", name, atio_dir_name(i));
		if (get_uint(o[i], where, "ops", &s->ops, name, e) ||
		    get_uint(o[i], where, "bytes", &s->bytes, name, e) ||
		    get_number(o[i], where, "iops", &d->dir_iops[i], name, e) ||
		    get_number(o[i], where, "mbs", &d->dir_mbs[i], name, e) ||
		    get_hist(o[i], "latency_ns", &s->lat, sub, e))
			return -EINVAL;
		if (s->lat.count != s->ops)
			return BAD("%s: %s.latency_ns.count: %llu, but %s.ops is %llu", name,
				   atio_dir_name(i), (unsigned long long)s->lat.count, atio_dir_name(i),
				   (unsigned long long)s->ops);
	}
	if (d->dir[0].ops + d->dir[1].ops != d->st.ops ||
	    d->dir[0].bytes + d->dir[1].bytes != d->st.bytes)
		return BAD("%s: read and write do not add up to the result's ops and bytes",
			   name);
	return 0;
}

/*
 * What a run with --rate adds, read when present: result.target and the
 * service_latency_ns histogram. A document without them had no cap.
 */
static int get_paced(json_t *doc, struct atio_merge_doc *d, const char *name,
		     struct atio_error *e)
{
	json_t *r = json_object_get(doc, "result");

	if (json_object_get(r, "target") &&
	    get_number(r, "result.", "target", &d->target, name, e))
		return -EINVAL;
	if (json_object_get(doc, "service_latency_ns"))
		return get_hist(doc, "service_latency_ns", &d->st.service, name, e);
	return 0;
}

/*
 * Interval @k of "intervals" into a record of @d->ivals: counts, rates,
 * and the histograms (each direction's with --mix) read with get_hist(),
 * so they are checked as the run's are; each must count the interval's ops.
 */
static int get_interval(json_t *o, size_t k, struct atio_merge_doc *d, struct atio_hist *h[2],
			const char *name, struct atio_error *e)
{
	struct atio_ival iv = { .docs = 1 };
	char where[48], sub[512];
	double dur;
	uint64_t ops = 0, bytes = 0;

	snprintf(where, sizeof(where), "intervals[%zu].", k);
	if (!json_is_object(o))
		return BAD("%s: intervals[%zu]: not an object", name, k);
	if (get_number(o, where, "duration_sec", &dur, name, e) ||
	    get_uint(o, where, "ops", &ops, name, e) ||
	    get_uint(o, where, "bytes", &bytes, name, e) ||
	    get_uint(o, where, "syncs", &iv.syncs, name, e) ||
	    get_number(o, where, "value", &iv.value, name, e) ||
	    get_number(o, where, "mbs", &iv.mbs, name, e) ||
	    get_number(o, where, "iops", &iv.iops, name, e) ||
	    get_number(o, where, "syncs_per_sec", &iv.syncs_per_sec, name, e))
		return -EINVAL;
	iv.dur_ns = to_u64(dur * 1e9);
	snprintf(sub, sizeof(sub), "%s: intervals[%zu]", name, k);
	if (get_hist(o, "latency_ns", h[0], sub, e))
		return -EINVAL;
	if (h[0]->count != ops)
		return BAD("%s: %slatency_ns.count: %llu, but ops is %llu", name, where,
			   (unsigned long long)h[0]->count, (unsigned long long)ops);
	iv.ops[0] = ops;
	iv.bytes[0] = bytes;
	for (unsigned i = 0; d->mixed && i < ATIO_DIRS; i++) {
		json_t *x = json_object_get(o, atio_dir_name(i));
		char dw[64];

		snprintf(dw, sizeof(dw), "%s%s.", where, atio_dir_name(i));
		snprintf(sub, sizeof(sub), "%s: intervals[%zu].%s", name, k, atio_dir_name(i));
		if (!json_is_object(x))
			return BAD("%s: %s%s: missing in a --mix result", name, where,
				   atio_dir_name(i));
		if (get_uint(x, dw, "ops", &iv.ops[i], name, e) ||
		    get_uint(x, dw, "bytes", &iv.bytes[i], name, e) ||
		    get_hist(x, "latency_ns", h[i], sub, e))
			return -EINVAL;
	}
	if (d->mixed && (iv.ops[0] + iv.ops[1] != ops || iv.bytes[0] + iv.bytes[1] != bytes))
		return BAD("%s: %sread and write do not add up to its ops and bytes", name, where);
	return atio_ival_append(d->ivals, &iv, h) ? BAD("%s: out of memory", name) : 0;
}

/*
 * --interval: "intervals" and "timeline" when the document has them (atio
 * before them wrote neither: then d->ivals stays NULL). The intervals must
 * add up to the result's ops; the stalls are timeline.stall_list.
 */
static int get_intervals(json_t *doc, struct atio_merge_doc *d, const char *name,
			 struct atio_error *e)
{
	json_t *a = json_object_get(doc, "intervals"), *t = json_object_get(doc, "timeline");
	json_t *el, *sl;
	struct atio_hist *h[2] = { malloc(sizeof(struct atio_hist)),
				   malloc(sizeof(struct atio_hist)) };
	double isec, last_end = 0;
	uint64_t ops = 0;
	size_t k;
	int ret = 0;

	if (!a && !t)
		goto out;
	if (!h[0] || !h[1]) {
		ret = BAD("%s: out of memory", name);
		goto out;
	}
	if (!json_is_array(a) || !json_is_object(t)) {
		ret = BAD("%s: intervals and timeline: not an array and an object", name);
		goto out;
	}
	if (get_number(t, "timeline.", "interval_sec", &isec, name, e)) {
		ret = -EINVAL;
		goto out;
	}
	/* What --interval takes: 0.1 s to 366 days. */
	if (isec < 0.1 - 1e-9 || isec > 366.0 * 86400) {
		ret = BAD("%s: timeline.interval_sec: %g is not from 0.1 s to 366 days", name,
			  isec);
		goto out;
	}
	d->ivals = malloc(sizeof(*d->ivals));
	if (!d->ivals) {
		ret = BAD("%s: out of memory", name);
		goto out;
	}
	atio_ival_series_init(d->ivals, to_u64(isec * 1e9), d->mixed);
	d->ivals->end_ns = d->st.elapsed_ns;
	json_array_foreach(a, k, el) {
		if ((ret = get_interval(el, k, d, h, name, e)) != 0)
			goto out;
		ops += atio_ival_get(d->ivals, k)->ops[0] + atio_ival_get(d->ivals, k)->ops[1];
	}
	if (ops != d->st.ops) {
		ret = BAD("%s: intervals: their ops add up to %llu, result.ops is %llu", name,
			  (unsigned long long)ops, (unsigned long long)d->st.ops);
		goto out;
	}
	sl = json_object_get(t, "stall_list");
	if (!json_is_array(sl)) {
		ret = BAD("%s: timeline.stall_list: missing or not an array", name);
		goto out;
	}
	json_array_foreach(sl, k, el) {
		double from, dur;

		if (get_number(el, "timeline.stall_list[].", "start_sec", &from, name, e) ||
		    get_number(el, "timeline.stall_list[].", "duration_sec", &dur, name, e)) {
			ret = -EINVAL;
			goto out;
		}
		/* The merge intersects sorted, disjoint spans (interval.c). */
		if (from < last_end || from + dur > 366.0 * 86400 * 1000) {
			ret = BAD("%s: timeline.stall_list[%zu]: starts at %g s, before the end "
				  "of the stall before it, or beyond any run", name, k, from);
			goto out;
		}
		last_end = from + dur;
		if (atio_ival_add_gap(d->ivals, to_u64(from * 1e9), to_u64((from + dur) * 1e9),
				      true)) {
			ret = BAD("%s: out of memory", name);
			goto out;
		}
	}
out:
	free(h[0]);
	free(h[1]);
	return ret;
}

int atio_json_read_intervals(json_t *obj, uint64_t ops, uint64_t elapsed_ns,
			     struct atio_ival_series **out, const char *name,
			     struct atio_error *e)
{
	struct atio_merge_doc d = { .st = { .ops = ops, .elapsed_ns = elapsed_ns } };
	int ret;

	*out = NULL;
	if (json_is_null(json_object_get(obj, "intervals")) &&
	    json_is_null(json_object_get(obj, "timeline")))
		return 0;
	ret = get_intervals(obj, &d, name, e);
	if (ret && d.ivals) {
		atio_ival_series_free(d.ivals);
		free(d.ivals);
		d.ivals = NULL;
	}
	*out = d.ivals;
	return ret;
}

void atio_merge_doc_free(struct atio_merge_doc *d)
{
	if (d->ivals)
		atio_ival_series_free(d->ivals);
	free(d->ivals);
	d->ivals = NULL;
	atio_doc_steady_free(d->steady);
	d->steady = NULL;
}

/*
 * What identifies the run of @doc (struct atio_merge_run): its host, its
 * seed and its start; what a document lacks is left empty, not compared.
 */
static void get_run(json_t *doc, struct atio_merge_doc *d)
{
	const char *host = json_string_value(json_object_get(json_object_get(doc, "system"),
							     "hostname"));
	const char *seed = json_string_value(json_object_get(json_object_get(doc, "settings"),
							     "seed_string"));

	snprintf(d->run.host, sizeof(d->run.host), "%s", host ? host : "");
	snprintf(d->run.seed, sizeof(d->run.seed), "%s", seed ? seed : "");
	d->run.start_epoch = d->start_epoch;
}

/* Everything but the parsing: @doc is the parsed document. */
static int from_json(json_t *doc, const char *name, struct atio_merge_doc *d,
		     struct atio_error *e)
{
	json_t *a = json_object_get(doc, "atio"), *in;

	if (!json_is_object(doc) || !json_is_object(a) ||
	    !json_is_string(json_object_get(a, "version")))
		return BAD("%s: not an atio --json result (no \"atio\": {\"version\"} in it)", name);
	if (json_is_object(json_object_get(doc, "plan")))
		return BAD("%s: a plan's document (of --and, --then or --jobs, or their merge), "
			   "not a single run's: only atio merge takes plans, job by job", name);
	if (json_is_object(json_object_get(doc, "check")))
		return BAD("%s: an atio --check result (a dataset's check), not a run's: it has "
			   "no rate to add", name);
	if (json_is_object(json_object_get(doc, "prepare")))
		return BAD("%s: an atio --prepare result (a dataset's fill), not a run's: it has "
			   "no rate to add", name);
	if (json_is_false(json_object_get(doc, "measured")))
		return BAD("%s: a run stopped before its measured time began: it measured "
			   "nothing to add", name);
	if (!json_object_get(doc, "result"))
		return BAD("%s: an atio settings document (-a --json), not a result", name);
	in = json_object_get(doc, "interrupted");
	if (!json_is_boolean(in))
		return BAD("%s: interrupted: missing or not true/false", name);
	d->interrupted = json_is_true(in);
	if (get_result(doc, d, name, e) ||
	    get_epoch(doc, "start_epoch", &d->start_epoch, name, e) ||
	    get_epoch(doc, "end_epoch", &d->end_epoch, name, e) ||
	    get_hist(doc, "latency_ns", &d->st.lat, name, e) ||
	    get_hist(doc, "sync_latency_ns", &d->st.sync_lat, name, e) ||
	    get_dirs(doc, d, name, e) ||
	    get_paced(doc, d, name, e) ||
	    get_intervals(doc, d, name, e) ||
	    atio_doc_steady_read(doc, name, &d->steady, e))
		return -EINVAL;
	atio_merge_settings_read(doc, &d->set);
	get_run(doc, d);
	return atio_merge_check_figures(d, e);
}

int atio_json_get_number(json_t *obj, const char *where, const char *key, double *out,
			 const char *name, struct atio_error *e)
{
	return get_number(obj, where, key, out, name, e);
}

int atio_json_read_hist(json_t *obj, const char *key, struct atio_hist *h, const char *name,
			struct atio_error *e)
{
	return get_hist(obj, key, h, name, e);
}

int atio_json_read_run(json_t *doc, const char *name, struct atio_merge_doc *d,
		       struct atio_error *e)
{
	int ret;

	memset(d, 0, sizeof(*d));
	atio_stats_init(&d->st);
	atio_dir_stats_init(d->dir);
	d->file = name;
	ret = from_json(doc, name, d, e);
	if (ret)
		atio_merge_doc_free(d);
	return ret;
}

int atio_merge_read(const char *path, struct atio_merge_doc *d, struct atio_error *e)
{
	json_t *doc;
	int ret;

	memset(d, 0, sizeof(*d));
	atio_stats_init(&d->st);
	atio_dir_stats_init(d->dir);
	d->file = path;
	ret = atio_json_read_file(path, &doc, e);
	if (ret)
		return ret;
	ret = atio_json_read_run(doc, path, d, e);
	json_decref(doc);
	return ret;
}

int atio_merge_read_string(const char *text, const char *name, struct atio_merge_doc *d,
			   struct atio_error *e)
{
	json_t *doc;
	int ret;

	memset(d, 0, sizeof(*d));
	atio_stats_init(&d->st);
	atio_dir_stats_init(d->dir);
	d->file = name;
	ret = atio_json_read_text(text, name, &doc, e);
	if (ret)
		return ret;
	ret = atio_json_read_run(doc, name, d, e);
	json_decref(doc);
	return ret;
}
