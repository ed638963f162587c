/* SPDX-License-Identifier: MIT */
/*
 * The cluster driver's records (atio/merge/driver_record.h): a node's record
 * of one run, an iteration's record and a test's summary, written with
 * atio's JSON writer from the documents atio reads.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/merge/driver_lines.h"
#include "atio/merge/driver_record.h"
#include "atio/stats/hist.h"

/* 2^53: the doubles below it that are whole numbers are exact integers. */
#define EXACT_INT 9007199254740992.0

static void number(struct atio_json *j, const char *key, double v)
{
	if (v == floor(v) && fabs(v) < EXACT_INT)
		atio_json_int(j, key, (int64_t)v);
	else
		atio_json_double(j, key, v);
}

void atio_json_copy(struct atio_json *j, const char *key, const json_t *v)
{
	const char *k;
	const json_t *x;
	size_t i;

	switch (v ? json_typeof(v) : JSON_NULL) {
	case JSON_OBJECT:
		atio_json_object_begin(j, key);
		json_object_foreach((json_t *)v, k, x)
			atio_json_copy(j, k, x);
		atio_json_object_end(j);
		break;
	case JSON_ARRAY:
		atio_json_array_begin(j, key);
		json_array_foreach(v, i, x)
			atio_json_copy(j, NULL, x);
		atio_json_array_end(j);
		break;
	case JSON_STRING:
		atio_json_string(j, key, json_string_value(v));
		break;
	case JSON_INTEGER:
	case JSON_REAL:
		number(j, key, json_number_value(v));
		break;
	case JSON_TRUE:
		atio_json_bool(j, key, true);
		break;
	case JSON_FALSE:
		atio_json_bool(j, key, false);
		break;
	default:
		atio_json_null(j, key);
	}
}

bool atio_json_number_text(struct atio_json *j, const char *key, const char *text)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (!text[0] || *end || errno || !isfinite(v) || strchr(text, 'x') || strchr(text, 'X'))
		return false;
	number(j, key, v);
	return true;
}

int atio_lines_read(const char *path, struct atio_lines *l, struct atio_error *e)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, **more;
	size_t cap = 0;
	ssize_t len;
	int err;

	memset(l, 0, sizeof(*l));
	if (!f)
		return atio_error_set(e, ATIO_EXIT_USAGE, errno, "%s: cannot open: %s", path,
				      strerror(errno));
	while ((len = getline(&line, &cap, f)) >= 0) {
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!len)
			continue;
		more = realloc(l->line, (l->n + 1) * sizeof(*l->line));
		if (!more)
			goto nomem;
		l->line = more;
		l->line[l->n] = strdup(line);
		if (!l->line[l->n])
			goto nomem;
		l->n++;
	}
	err = ferror(f) ? errno : 0;
	free(line);
	fclose(f);
	if (err) {
		atio_lines_free(l);
		return atio_error_set(e, ATIO_EXIT_USAGE, err, "%s: cannot read: %s", path,
				      strerror(err));
	}
	return 0;
nomem:
	free(line);
	fclose(f);
	atio_lines_free(l);
	return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory for its lines", path);
}

void atio_lines_free(struct atio_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	l->line = NULL;
	l->n = 0;
}

static void stderr_lines(struct atio_json *j, const char *why, const struct atio_lines *l)
{
	atio_json_array_begin(j, "stderr");
	if (why && why[0])
		atio_json_string(j, NULL, why);
	for (size_t i = 0; l && i < l->n; i++)
		atio_json_string(j, NULL, l->line[i]);
	atio_json_array_end(j);
}

void atio_record_node_failed(FILE *f, const char *host, int status, const char *why,
			     const struct atio_lines *l)
{
	struct atio_json j;

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_string(&j, "host", host);
	atio_json_bool(&j, "ok", false);
	if (status < 0)
		atio_json_null(&j, "rc");
	else
		atio_json_int(&j, "rc", status);
	stderr_lines(&j, why, l);
	atio_json_object_end(&j);
}

/* Percentiles @h of a histogram in nanoseconds, as microseconds. */
static void latency_us(struct atio_json *j, const char *key, const struct atio_hist *h)
{
	atio_json_object_begin(j, key);
	atio_json_double(j, "p50", (double)atio_hist_percentile(h, 50.0) / 1000.0);
	atio_json_double(j, "p99", (double)atio_hist_percentile(h, 99.0) / 1000.0);
	atio_json_double(j, "p99.9", (double)atio_hist_percentile(h, 99.9) / 1000.0);
	atio_json_object_end(j);
}

void atio_record_node_ok(FILE *f, const char *host, const struct atio_merge *m,
			 const json_t *doc, const struct atio_lines *l)
{
	const struct atio_merge_entry *d = &m->docs[0];
	const json_t *set = json_object_get(doc, "settings");
	const json_t *sys = json_object_get(doc, "system");
	const json_t *res = json_object_get(doc, "result");
	struct atio_json j;

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_string(&j, "host", host);
	atio_json_bool(&j, "ok", true);
	atio_json_double(&j, "value", m->sum);
	atio_json_string(&j, "unit", m->unit);
	atio_json_double(&j, "time_sec", d->time_sec);
	atio_json_uint(&j, "ops", m->total.ops);
	atio_json_uint(&j, "bytes", m->total.bytes);
	atio_json_double(&j, "start_epoch", m->first_start);
	atio_json_double(&j, "end_epoch", m->first_end);
	latency_us(&j, "latency_us", &m->total.lat);
	atio_driver_dirs_json(&j, m);
	/* The rest of its figures and how to run it again, for the CSV (driver_csv.c). */
	atio_json_copy(&j, "iops", json_object_get(res, "iops"));
	atio_json_copy(&j, "mbs", json_object_get(res, "mbs"));
	atio_json_copy(&j, "bytes_per_sec", json_object_get(res, "bytes_per_sec"));
	atio_json_uint(&j, "syncs", m->total.syncs);
	atio_json_copy(&j, "cpu_user_pct", json_object_get(res, "cpu_user_pct"));
	atio_json_copy(&j, "cpu_sys_pct", json_object_get(res, "cpu_sys_pct"));
	atio_json_copy(&j, "ctx_voluntary", json_object_get(res, "ctx_voluntary"));
	atio_json_copy(&j, "ctx_involuntary", json_object_get(res, "ctx_involuntary"));
	atio_merge_json_hist(&j, "latency_ns", &m->total.lat);
	atio_json_copy(&j, "block_size", json_object_get(set, "block_size"));
	atio_json_copy(&j, "seed", json_object_get(set, "seed_string"));
	atio_json_copy(&j, "cmdline", json_object_get(set, "cmdline"));
	if (d->has_ivals) {
		atio_json_array_begin(&j, "interval_values");
		for (size_t k = 0; k < d->nvals; k++)
			atio_json_double(&j, NULL, d->vals[k]);
		atio_json_array_end(&j);
		atio_json_uint(&j, "stalls", d->stalls);
		atio_json_double(&j, "longest_stall_sec", d->longest_stall_sec);
	} else {
		atio_json_null(&j, "interval_values");
		atio_json_null(&j, "stalls");
		atio_json_null(&j, "longest_stall_sec");
	}
	/* What the node resolved: THREADS=auto and -u auto differ by node. */
	atio_json_copy(&j, "threads", json_object_get(set, "threads"));
	atio_json_copy(&j, "total_size", json_object_get(set, "total_size"));
	atio_json_copy(&j, "system", json_is_object(sys) ? sys : NULL);
	atio_json_copy(&j, "filesystem", json_object_get(set, "filesystem"));
	stderr_lines(&j, NULL, l);
	atio_json_object_end(&j);
}

void atio_record_verify_note(const json_t *doc, char *buf, size_t len)
{
	const json_t *v = json_object_get(doc, "verify");
	const json_t *n = json_object_get(v, "bytes_checked");

	buf[0] = '\0';
	if (!json_is_true(json_object_get(v, "ok")) || !json_is_number(n) ||
	    json_number_value(n) < 0 || json_number_value(n) >= EXACT_INT)
		return;
	snprintf(buf, len, "verify: every block %s checked, %.0f bytes, none bad",
		 json_is_true(json_object_get(v, "read_back")) ? "written read back and" : "read",
		 json_number_value(n));
}

/* Member @key of the merge document @m as a number; NAN when it has none. */
static double merge_number(const json_t *m, const char *key)
{
	const json_t *v = json_object_get(m, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Histogram figures @h (nanoseconds) of a merge document as microseconds in @key. */
static void merge_us(struct atio_json *j, const char *key, const json_t *h)
{
	atio_json_object_begin(j, key);
	atio_json_double(j, "p50", merge_number(h, "p50") / 1000.0);
	atio_json_double(j, "p99", merge_number(h, "p99") / 1000.0);
	atio_json_double(j, "p99.9", merge_number(h, "p99.9") / 1000.0);
	atio_json_object_end(j);
}

/*
 * The figures per direction and of the sync calls of the merge document
 * @merge, as a node's record has them (atio_driver_dirs_json()): "read"
 * and "write" null unless --mix, "sync_latency_us" null without syncs.
 */
static void merge_dirs(struct atio_json *j, const json_t *merge)
{
	const json_t *sync = json_object_get(merge, "sync_latency_ns");

	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		const json_t *d = json_object_get(merge, atio_dir_name(i));

		if (!json_is_object(d)) {
			atio_json_null(j, atio_dir_name(i));
			continue;
		}
		atio_json_object_begin(j, atio_dir_name(i));
		atio_json_double(j, "iops", merge_number(d, "iops"));
		atio_json_double(j, "mbs", merge_number(d, "mbs"));
		atio_json_copy(j, "ops", json_object_get(d, "ops"));
		atio_json_copy(j, "bytes", json_object_get(d, "bytes"));
		merge_us(j, "latency_us", json_object_get(d, "latency_ns"));
		atio_json_object_end(j);
	}
	if (merge_number(merge, "syncs") > 0 && json_is_object(sync))
		merge_us(j, "sync_latency_us", sync);
	else
		atio_json_null(j, "sync_latency_us");
}

void atio_record_iteration(FILE *f, const struct atio_iteration_info *info,
			   const json_t *merge, json_t *const *nodes, size_t n)
{
	const json_t *lat = json_object_get(merge, "latency_ns"), *u = json_object_get(merge, "unit");
	double p50 = merge_number(lat, "p50"), p99 = merge_number(lat, "p99");
	double skew = merge_number(merge, "start_skew_sec");
	struct atio_json j;

	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_uint(&j, "iteration", info->iteration);
	if (isnan(info->start_at))
		atio_json_null(&j, "start_at");
	else
		atio_json_double(&j, "start_at", info->start_at);
	atio_json_bool(&j, "complete", info->complete);
	atio_json_bool(&j, "concurrent", info->concurrent);
	atio_json_uint(&j, "ok_nodes", info->ok_nodes);
	if (merge) {
		number(&j, "sum", merge_number(merge, "sum"));
		atio_json_string(&j, "unit", json_is_string(u) ? json_string_value(u) : info->unit);
		/* Over more than one node, the skew as the driver compared it. */
		if (merge_number(merge, "documents") > 1 && isfinite(skew))
			skew = round(skew * 1e6) / 1e6;
		atio_json_double(&j, "skew_sec", skew);
		atio_json_double(&j, "end_skew_sec", merge_number(merge, "end_skew_sec"));
	} else {
		atio_json_int(&j, "sum", 0);
		atio_json_string(&j, "unit", info->unit);
		atio_json_null(&j, "skew_sec");
		atio_json_null(&j, "end_skew_sec");
	}
	atio_json_double(&j, "max_skew_sec", info->max_skew_sec);
	if (merge && isfinite(p50) && isfinite(p99) && (p50 != 0 || p99 != 0)) {
		atio_json_object_begin(&j, "latency_us");
		atio_json_double(&j, "p50", p50 / 1000.0);
		atio_json_double(&j, "p99", p99 / 1000.0);
		atio_json_double(&j, "p99.9", merge_number(lat, "p99.9") / 1000.0);
		atio_json_object_end(&j);
	} else {
		atio_json_null(&j, "latency_us");
	}
	merge_dirs(&j, merge);
	atio_json_copy(&j, "merge", merge);
	atio_json_array_begin(&j, "nodes");
	for (size_t i = 0; i < n; i++)
		atio_json_copy(&j, NULL, nodes[i]);
	atio_json_array_end(&j);
	atio_json_object_end(&j);
}

/* The thread count as given: a whole number as a number, auto as a string. */
static void threads(struct atio_json *j, const char *key, const char *t)
{
	if (t[0] && strspn(t, "0123456789") == strlen(t))
		atio_json_uint(j, key, strtoull(t, NULL, 10));
	else
		atio_json_string(j, key, t);
}

void atio_record_test(FILE *f, const struct atio_test_info *info,
		      const struct atio_iterations *s)
{
	double min = NAN, max = NAN, sd = NAN;
	struct atio_json j;

	if (s && s->n) {
		atio_iterations_min_max(s, &min, &max);
		sd = atio_iterations_stddev(s);
	}
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	threads(&j, "threads", info->threads);
	atio_json_string(&j, "test", info->test);
	atio_json_string(&j, "unit", info->unit);
	atio_json_uint(&j, "runs", info->runs);
	atio_json_uint(&j, "complete_iterations", s ? s->n : 0);
	if (s && s->n)
		atio_json_double(&j, "average", atio_iterations_average(s));
	else
		atio_json_null(&j, "average");
	atio_json_double(&j, "min", min);
	atio_json_double(&j, "max", max);
	atio_json_double(&j, "stddev", sd);
	for (unsigned i = 0; i < ATIO_DIRS; i++) {
		double iops, mbs;

		if (!s || !atio_iterations_dir_average(s, i, &iops, &mbs)) {
			atio_json_null(&j, atio_dir_name(i));
			continue;
		}
		atio_json_object_begin(&j, atio_dir_name(i));
		atio_json_double(&j, "average_iops", iops);
		atio_json_double(&j, "average_mbs", mbs);
		atio_json_object_end(&j);
	}
	atio_json_array_begin(&j, "shares");
	for (unsigned i = 0; s && s->n && i < s->nvalues; i++) {
		atio_json_object_begin(&j, NULL);
		atio_json_string(&j, "host", i < info->nhosts ? info->hosts[i] : NULL);
		atio_json_double(&j, "percent", atio_iterations_share(s, i));
		atio_json_object_end(&j);
	}
	atio_json_array_end(&j);
	atio_json_object_end(&j);
}
