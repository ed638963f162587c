/* SPDX-License-Identifier: MIT */
/*
 * atio merge: documents written by atio_report_json() are read back with
 * atio_merge_read_string(), and merging N of them equals one run that
 * recorded every value itself; anything that is not a whole atio result
 * is refused with exit status 2 and the file's name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "atio/cli/cli.h"
#include "atio/stats/hist.h"
#include "atio/stats/interval.h"
#include "atio/merge/merge.h"
#include "atio/merge/merge_check.h"
#include "atio/merge/merge_runs.h"
#include "atio/print/report.h"
#include "atio/stats/stats.h"

#define NS 1000000000ULL
#define NODES 4

/* One node's run: its options, its one thread and its result. */
struct node {
	struct atio_opts o;
	struct atio_stats th;
	struct atio_result r;
};

static void node_init(struct node *n, unsigned id, unsigned count, bool syncs)
{
	uint64_t x = 88172645463325252ULL + id * 7919;

	memset(n, 0, sizeof(*n));
	n->o.mode = syncs ? ATIO_MODE_FSYNC : ATIO_MODE_READ;
	n->o.random = true;
	n->o.unit = ATIO_UNIT_IOPS;
	n->o.bs = 4096;
	n->o.threads = 1;
	n->o.nfiles = 1;
	n->o.time_ns = 10 * NS;
	n->o.total = 1ULL << 30;
	n->o.qsync = 4;
	n->o.path = "/mnt/dir";
	n->o.seed = UINT64_MAX - id;    /* above 2^63: jansson's integers end there */
	n->o.engine = "sync";
	n->o.iodepth = 1;
	atio_stats_init(&n->th);
	for (unsigned i = 0; i < count; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		atio_hist_record(&n->th.lat, 300 + x % (30 * 1000 * 1000 >> (x % 9)));
		n->th.ops++;
		n->th.bytes += 4096;
		if (syncs && i % 4 == 3) {
			atio_hist_record(&n->th.sync_lat, 40000 + x % 5000000);
			n->th.syncs++;
		}
	}
	n->th.elapsed_ns = 10 * NS + id * 1000;
	n->th.cpu_user_ns = 250000000;
	n->th.cpu_sys_ns = 125000000;
	n->r.opts = &n->o;
	n->r.version = "0.1.0";
	n->r.engine = "sync";
	n->r.nthreads = 1;
	n->r.threads = &n->th;
	atio_stats_init(&n->r.total);
	atio_stats_merge(&n->r.total, &n->th);
	n->r.elapsed_ns = n->th.elapsed_ns;
	n->r.wall_start = (struct timespec){ .tv_sec = 1800000000, .tv_nsec = (long)id * 1000000 };
	n->r.wall_end = (struct timespec){ .tv_sec = 1800000010, .tv_nsec = (long)id * 2000000 };
}

static char *to_json(const struct atio_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	atio_report_json(f, r);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void hist_equal(const struct atio_hist *a, const struct atio_hist *b)
{
	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_memory_equal(a->bucket, b->bucket, sizeof(a->bucket));
	/* The document keeps the mean, not the sum: within a rounding. */
	assert_true(a->sum > b->sum ? a->sum - b->sum <= a->count : b->sum - a->sum <= a->count);
	assert_int_equal(atio_hist_percentile(a, 50), atio_hist_percentile(b, 50));
	assert_int_equal(atio_hist_percentile(a, 99), atio_hist_percentile(b, 99));
	assert_int_equal(atio_hist_percentile(a, 99.9), atio_hist_percentile(b, 99.9));
}

/*
 * N documents merged equal one recorder of everything: the nodes' stats
 * merged directly (what one run holding every value would report).
 */
static void merge_equals_one_run(bool syncs)
{
	struct node *n = calloc(NODES, sizeof(*n));
	struct atio_merge_doc *d = calloc(NODES, sizeof(*d));
	struct atio_stats *all = calloc(1, sizeof(*all));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_error e = { 0 };
	double want_sum = 0;

	assert_non_null(n);
	assert_non_null(d);
	assert_non_null(all);
	assert_non_null(m);
	atio_stats_init(all);
	atio_merge_init(m);
	for (unsigned i = 0; i < NODES; i++) {
		char *text, name[32];

		node_init(&n[i], i, 20000 + i * 3001, syncs);
		atio_stats_merge(all, &n[i].th);
		want_sum += atio_result_value(&n[i].r);
		text = to_json(&n[i].r);
		snprintf(name, 32, "node%u.json", i);
		assert_int_equal(atio_merge_read_string(text, name, &d[i], &e), 0);
		free(text);
		assert_int_equal(d[i].st.ops, n[i].th.ops);
		assert_true(d[i].value == atio_result_value(&n[i].r));
		assert_int_equal(atio_merge_add(m, &d[i], &e), 0);
	}
	assert_int_equal(m->ndocs, NODES);
	assert_int_equal(m->total.ops, all->ops);
	assert_int_equal(m->total.bytes, all->bytes);
	assert_int_equal(m->total.syncs, all->syncs);
	assert_int_equal(m->total.cpu_user_ns, all->cpu_user_ns);
	hist_equal(&m->total.lat, &all->lat);
	hist_equal(&m->total.sync_lat, &all->sync_lat);
	/* The sum of the exact values, in the same order: bit for bit. */
	assert_true(m->sum == want_sum);
	assert_string_equal(m->unit, syncs ? "sync/s" : "IOPS");
	assert_true(m->last_start - m->first_start > 0.0029 &&
		    m->last_start - m->first_start < 0.0031);
	assert_true(m->last_end - m->first_end > 0.0059 && m->last_end - m->first_end < 0.0061);
	free(n);
	free(d);
	free(all);
	atio_merge_free(m);
	free(m);
}

static void test_merge_reads(void **state)
{
	(void)state;
	merge_equals_one_run(false);
}

static void test_merge_syncs(void **state)
{
	(void)state;
	merge_equals_one_run(true);
}

/*
 * --rate documents: their service times merge as the latency does, their
 * caps add up; a document without a cap leaves the sum of caps unsaid.
 */
static void test_merge_capped(void **state)
{
	struct node *n = calloc(NODES + 1, sizeof(*n));
	struct atio_merge_doc *d = calloc(NODES + 1, sizeof(*d));
	struct atio_stats *all = calloc(1, sizeof(*all));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_error e = { 0 };

	(void)state;
	assert_non_null(n);
	assert_non_null(d);
	assert_non_null(all);
	assert_non_null(m);
	atio_stats_init(all);
	atio_merge_init(m);
	for (unsigned i = 0; i <= NODES; i++) {
		char *text, name[32];

		node_init(&n[i], i, 5000 + i * 101, false);
		if (i < NODES) {
			n[i].o.rate = 1000.0 + i;
			n[i].o.rate_text = "1000";
			n[i].o.rate_interval_ns = 1e6;
			for (unsigned k = 0; k < 5000 + i * 101; k++)
				atio_hist_record(&n[i].th.service, 100 + (k * 7919u) % 100000);
			atio_stats_init(&n[i].r.total);
			atio_stats_merge(&n[i].r.total, &n[i].th);
			atio_stats_merge(all, &n[i].th);
		}
		text = to_json(&n[i].r);
		snprintf(name, 32, "node%u.json", i);
		assert_int_equal(atio_merge_read_string(text, name, &d[i], &e), 0);
		free(text);
		assert_true(d[i].target == n[i].o.rate);
		assert_int_equal(d[i].st.service.count, n[i].th.service.count);
		assert_int_equal(atio_merge_add(m, &d[i], &e), 0);
		if (i == NODES - 1) {
			assert_true(m->target == 1000.0 + 1001.0 + 1002.0 + 1003.0);
			assert_int_equal(m->ntargets, NODES);
			hist_equal(&m->total.service, &all->service);
		}
	}
	/* The uncapped document: still merged, the caps no longer all there. */
	assert_int_equal(m->ntargets, NODES);
	assert_int_equal(m->ndocs, NODES + 1);
	hist_equal(&m->total.service, &all->service);
	free(n);
	free(d);
	free(all);
	atio_merge_free(m);
	free(m);
}

/* The text names the sum as at_io_iops would, and each document's share. */
static void test_merge_text(void **state)
{
	struct node *n = calloc(2, sizeof(*n));
	struct atio_merge_doc *d = calloc(2, sizeof(*d));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_error e = { 0 };
	char *buf = NULL, want[128];
	size_t len = 0;
	FILE *f;

	(void)state;
	atio_merge_init(m);
	for (unsigned i = 0; i < 2; i++) {
		char *text;

		node_init(&n[i], i, 1000, false);
		text = to_json(&n[i].r);
		assert_int_equal(atio_merge_read_string(text, i ? "b.json" : "a.json", &d[i], &e), 0);
		free(text);
		assert_int_equal(atio_merge_add(m, &d[i], &e), 0);
	}
	f = open_memstream(&buf, &len);
	atio_merge_text(f, m);
	fclose(f);
	snprintf(want, sizeof(want), "Sum value = { %.5f } IOPS;\n", m->sum);
	assert_true(strncmp(buf, want, strlen(want)) == 0);
	assert_non_null(strstr(buf, "\n[1] "));
	assert_non_null(strstr(buf, ": a.json\n[2] "));
	assert_null(strstr(buf, "rate"));
	free(buf);
	free(n);
	free(d);
	atio_merge_free(m);
	free(m);
}

/* read TEXT as NAME: must fail with exit 2 and a message naming NAME and holding WHY. */
static void refused(const char *text, const char *why)
{
	struct atio_merge_doc *d = calloc(1, sizeof(*d));
	struct atio_error e = { 0 };

	if (atio_merge_read_string(text, "bad.json", d, &e) == 0)
		fail_msg("read, not refused (%s): %.300s", why, strstr(text, "\"result\"") ? strstr(text, "\"result\"") : text);
	assert_int_equal(e.exit, 2);
	if (strncmp(e.msg, "bad.json: ", 10) != 0 || !strstr(e.msg, why))
		fail_msg("message '%s' lacks 'bad.json: ' or '%s'", e.msg, why);
	free(d);
}

/* Replace the first @from in @s with @to; the caller frees. */
static char *replaced(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);
	char *out;

	assert_non_null(p);
	out = malloc(strlen(s) + strlen(to) + 1);
	assert_non_null(out);
	memcpy(out, s, (size_t)(p - s));
	strcpy(out + (p - s), to);
	strcat(out, p + strlen(from));
	return out;
}

static void test_merge_bad(void **state)
{
	struct node *n = calloc(1, sizeof(*n));
	struct atio_merge_doc *d = calloc(2, sizeof(*d));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_error e = { 0 };
	char *text, *bad;
	size_t len;

	(void)state;
	node_init(n, 0, 5000, false);
	text = to_json(&n->r);
	len = strlen(text);
	/* Cut anywhere: never read as a document. */
	for (size_t cut = 0; cut + 2 < len; cut += len / 37 + 1) {
		char *part = strndup(text, cut);

		refused(part, cut ? "truncated" : "");
		free(part);
	}
	/* Nothing but white space: said to be empty, not cut at column 0. */
	refused("", "bad.json: empty: no JSON document in it");
	refused(" \n\t\r\n", "bad.json: empty: no JSON document in it");
	/* atio's documents that are not a run's result, each said for what it is. */
	refused("{\"atio\": {\"version\": \"0.1.0\"}, \"check\": {\"ok\": true}}",
		"an atio --check result");
	refused("{\"atio\": {\"version\": \"0.1.0\"}, \"settings\": {}, \"prepare\": {}}",
		"an atio --prepare result");
	refused("{\"atio\": {\"version\": \"0.1.0\"}, \"settings\": {}, \"measured\": false, "
		"\"result\": null}", "stopped before its measured time began");
	/* A literal cut short is a truncation too, not a bad token. */
	refused("{\"atio\": {\"version\": \"0.1.0\"}, \"interrupted\": fals", "truncated");
	refused("{\"atio\": {\"version\": \"0.1.0\"}, \"signal\": n", "truncated");
	refused("{\"atio\": {\"version\": \"0.1.0\"}, \"signal\": nil}", "not JSON");
	refused("not json at all", "not JSON");
	refused("{\"name\": \"fio\", \"jobs\": []}", "not an atio --json result");
	refused("[1, 2, 3]", "not an atio --json result");
	refused("{\"atio\": {\"version\": \"0.1.0\"}, \"settings\": {}}", "settings document");
	bad = replaced(text, "\"unit\":\"IOPS\"", "\"unit\":\"GB/s\"");
	refused(bad, "result.unit");
	free(bad);
	bad = replaced(text, "\"sub_bits\":7", "\"sub_bits\":5");
	refused(bad, "latency_ns.sub_bits");
	free(bad);
	bad = replaced(text, "\"latency_ns\":{\"count\":5000", "\"latency_ns\":{\"count\":5001");
	refused(bad, "hold 5000 values, count says 5001");
	free(bad);
	/* More in the buckets than the count: refused before any sum wraps. */
	bad = replaced(text, "\"latency_ns\":{\"count\":5000", "\"latency_ns\":{\"count\":4999");
	refused(bad, "more values than count says (4999)");
	free(bad);
	bad = replaced(text, "\"ops\":5000", "\"ops\":-3");
	refused(bad, "result.ops");
	free(bad);
	/* Units that do not add up. */
	atio_merge_init(m);
	assert_int_equal(atio_merge_read_string(text, "a.json", &d[0], &e), 0);
	n->o.unit = ATIO_UNIT_MBS;
	bad = to_json(&n->r);
	assert_int_equal(atio_merge_read_string(bad, "b.json", &d[1], &e), 0);
	assert_int_equal(atio_merge_add(m, &d[0], &e), 0);
	assert_true(atio_merge_add(m, &d[1], &e) < 0);
	assert_int_equal(e.exit, 2);
	assert_non_null(strstr(e.msg, "b.json: its value is in MB/s"));
	free(bad);
	/* A file that is not there. */
	assert_true(atio_merge_read("/nonexistent/x.json", &d[0], &e) < 0);
	assert_int_equal(e.exit, 2);
	assert_non_null(strstr(e.msg, "/nonexistent/x.json: cannot open"));
	free(text);
	free(n);
	free(d);
	atio_merge_free(m);
	free(m);
}

/* @text with the first "@key":NUMBER set to @v; the caller frees. */
static char *with_member(const char *text, const char *key, const char *v)
{
	char pat[64], *from, *out, *end;
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(text, pat);
	assert_non_null(p);
	strtod(p + strlen(pat), &end);
	from = strndup(p, (size_t)(end - p));
	assert_int_equal(asprintf(&out, "%s%s", pat, v), (int)(strlen(pat) + strlen(v)));
	end = replaced(text, from, out);
	free(from);
	free(out);
	return end;
}

/*
 * A document whose rates its own counts and times contradict is refused,
 * naming the member, its value and the figures: result.value (1.7e308
 * would make the sum inf; twice the true value would double a node), a
 * --mix direction's iops, an interval's value. A sum that would not be
 * finite is refused too.
 */
static void test_merge_figures(void **state)
{
	struct node *n = calloc(1, sizeof(*n));
	struct atio_merge_doc *d = calloc(1, sizeof(*d));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_dir_stats dir[ATIO_DIRS];
	struct atio_error e = { 0 };
	struct atio_ival_series s, *one = &s;
	struct atio_hist *h = malloc(sizeof(*h));
	struct atio_hist *hh[ATIO_DIRS] = { h, NULL };
	char *text, *bad, v[96], want[160];

	(void)state;
	assert_true(n && d && m && h);
	node_init(n, 0, 5000, false);
	text = to_json(&n->r);
	assert_int_equal(atio_merge_read_string(text, "ok.json", d, &e), 0);
	bad = with_member(text, "value", "1.7e308");
	refused(bad, "result.value is 1.7e+308 IOPS, but its result.ops 5000 over "
		"result.time_sec 10 s make 500 IOPS");
	free(bad);
	snprintf(v, sizeof(v), "%.17g", 2 * d->value);
	bad = with_member(text, "value", v);
	refused(bad, "result.value is 1000");
	free(bad);
	bad = replaced(text, "\"result\":{\"time_sec\":10,", "\"result\":{\"time_sec\":1e-300,");
	refused(bad, "result.time_sec is 1e-300 s");
	free(bad);
	free(text);

	/* --mix: a direction's iops against its ops. */
	atio_dir_stats_init(dir);
	for (unsigned k = 0; k < 1000; k++) {
		atio_hist_record(&dir[k % 3 == 0].lat, 1000 + k);
		dir[k % 3 == 0].ops++;
		dir[k % 3 == 0].bytes += 4096;
	}
	n->o.mode = ATIO_MODE_MIX;
	n->o.mix = 67;
	atio_stats_init(&n->th);
	n->th.ops = 1000;
	n->th.bytes = 1000 * 4096;
	atio_dir_stats_fold(&n->th, dir);
	atio_stats_init(&n->r.total);
	atio_stats_merge(&n->r.total, &n->th);
	n->r.dir = dir;
	text = to_json(&n->r);
	atio_merge_doc_free(d);
	assert_int_equal(atio_merge_read_string(text, "mix.json", d, &e), 0);
	snprintf(v, sizeof(v), "\"read\":{\"ops\":%llu,\"bytes\":%llu,\"iops\":",
		 (unsigned long long)dir[0].ops, (unsigned long long)dir[0].bytes);
	snprintf(want, sizeof(want), "%s1e9,\"y\":", v);
	bad = replaced(text, v, want);
	snprintf(want, sizeof(want), "read.iops is 1000000000 IOPS, but its read.ops %llu over",
		 (unsigned long long)dir[0].ops);
	refused(bad, want);
	free(bad);
	free(text);

	/* An interval's value against its ops and duration. */
	node_init(n, 0, 0, false);
	n->o.interval_ns = NS;
	atio_ival_series_init(one, NS, false);
	for (unsigned k = 0; k < 3; k++) {
		struct atio_ival iv = { .dur_ns = NS, .docs = 1 };

		atio_hist_init(h);
		for (unsigned i = 0; i < 100 + k; i++)
			atio_hist_record(h, 1000 + i);
		iv.ops[0] = h->count;
		iv.bytes[0] = h->count * 4096;
		n->th.ops += h->count;
		n->th.bytes += h->count * 4096;
		atio_hist_merge(&n->th.lat, h);
		assert_int_equal(atio_ival_append(one, &iv, hh), 0);
	}
	one->end_ns = 3 * NS;
	n->th.elapsed_ns = n->r.elapsed_ns = 3 * NS;
	atio_stats_init(&n->r.total);
	atio_stats_merge(&n->r.total, &n->th);
	n->r.thread_ivals = &one;
	assert_int_equal(atio_report_timeline(&n->r), 0);
	text = to_json(&n->r);
	atio_merge_doc_free(d);
	assert_int_equal(atio_merge_read_string(text, "ivals.json", d, &e), 0);
	bad = replaced(text, "\"syncs\":0,\"value\":101,", "\"syncs\":0,\"value\":1.7e308,");
	refused(bad, "intervals[1].value is 1.7e+308 IOPS, but its intervals[1].ops 101 over "
		"duration_sec 1 s make 101 IOPS");
	free(bad);
	free(text);
	atio_report_timeline_free(&n->r);
	atio_ival_series_free(one);

	/* A sum that is no longer a number: refused, naming the document. */
	atio_merge_init(m);
	d->value = 1.7e308;
	assert_int_equal(atio_merge_add(m, d, &e), 0);
	d->file = "second.json";
	assert_true(atio_merge_add(m, d, &e) < 0);
	assert_int_equal(e.exit, 2);
	assert_non_null(strstr(e.msg, "second.json: its value 1.7e+308 IOPS"));
	atio_merge_free(m);
	atio_merge_doc_free(d);
	free(n);
	free(d);
	atio_merge_free(m);
	free(m);
	free(h);
}

/*
 * --mix documents: each node's reads and writes, as its run records them
 * (each latency in its direction, the total histogram their merge), are
 * read back and merged per direction into exactly what one recorder of
 * every node's reads (and writes) holds. A plain document among them, or
 * a direction that does not add up to the totals, is refused.
 */
static void test_merge_mix(void **state)
{
	struct node *n = calloc(NODES, sizeof(*n));
	struct atio_dir_stats *dir = calloc(NODES * ATIO_DIRS, sizeof(*dir));
	struct atio_dir_stats *all = calloc(ATIO_DIRS, sizeof(*all));
	struct atio_merge_doc *d = calloc(NODES + 1, sizeof(*d));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_error e = { 0 };
	char *text, *bad, num[64], *p;

	(void)state;
	assert_non_null(n);
	assert_non_null(dir);
	assert_non_null(all);
	assert_non_null(d);
	assert_non_null(m);
	atio_dir_stats_init(all);
	atio_merge_init(m);
	for (unsigned i = 0; i < NODES; i++) {
		struct atio_dir_stats *nd = &dir[i * ATIO_DIRS];
		uint64_t x = 0x9e3779b97f4a7c15ULL * (i + 1);

		node_init(&n[i], i, 0, false);
		n[i].o.mode = ATIO_MODE_MIX;
		n[i].o.mix = 70;
		atio_dir_stats_init(nd);
		for (unsigned k = 0; k < 10000 + i * 777; k++) {
			unsigned w;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			w = x % 10 >= 7;
			atio_hist_record(&nd[w].lat, 500 + x % (w ? 900000 : 90000));
			nd[w].ops++;
			nd[w].bytes += 4096;
		}
		atio_stats_init(&n[i].th);
		n[i].th.ops = nd[0].ops + nd[1].ops;
		n[i].th.bytes = nd[0].bytes + nd[1].bytes;
		n[i].th.elapsed_ns = 10 * NS;
		atio_dir_stats_fold(&n[i].th, nd);
		atio_stats_init(&n[i].r.total);
		atio_stats_merge(&n[i].r.total, &n[i].th);
		n[i].r.dir = nd;
		atio_dir_stats_merge(all, nd);
		text = to_json(&n[i].r);
		assert_int_equal(atio_merge_read_string(text, "mix.json", &d[i], &e), 0);
		assert_true(d[i].mixed);
		for (unsigned k = 0; k < ATIO_DIRS; k++) {
			assert_int_equal(d[i].dir[k].ops, nd[k].ops);
			assert_int_equal(d[i].dir[k].bytes, nd[k].bytes);
			hist_equal(&d[i].dir[k].lat, &nd[k].lat);
		}
		assert_int_equal(atio_merge_add(m, &d[i], &e), 0);
		/* A read count that does not add up to the result's is refused. */
		if (i == 0) {
			snprintf(num, sizeof(num), "\"read\":{\"ops\":%llu,",
				 (unsigned long long)nd[0].ops);
			p = strstr(text, num);
			assert_non_null(p);
			bad = replaced(text, num, "\"read\":{\"ops\":1,");
			refused(bad, "read");
			free(bad);
			bad = replaced(text, ",\"write\":{", ",\"write\":null,\"x\":{");
			refused(bad, "read without write");
			free(bad);
		}
		free(text);
	}
	assert_true(m->mixed);
	for (unsigned k = 0; k < ATIO_DIRS; k++) {
		assert_int_equal(m->dir[k].ops, all[k].ops);
		assert_int_equal(m->dir[k].bytes, all[k].bytes);
		hist_equal(&m->dir[k].lat, &all[k].lat);
	}
	assert_int_equal(m->dir[0].ops + m->dir[1].ops, m->total.ops);

	/* A plain document after them: refused, naming it. */
	node_init(&n[0], 0, 1000, false);
	text = to_json(&n[0].r);
	assert_int_equal(atio_merge_read_string(text, "plain.json", &d[NODES], &e), 0);
	assert_false(d[NODES].mixed);
	assert_true(atio_merge_add(m, &d[NODES], &e) < 0);
	assert_int_equal(e.exit, 2);
	assert_non_null(strstr(e.msg, "plain.json: not a --mix run"));
	free(text);
	free(n);
	free(dir);
	free(all);
	free(d);
	atio_merge_free(m);
	free(m);
}

/*
 * --interval: each node's intervals (a missing last one on one node) and
 * its stalls, written by atio_report_json() and read back, merge index by
 * index into what one recorder of every value holds per interval; the
 * cluster's stall is the span in which no node completed anything; a
 * document without intervals merges with none.
 */
#define IVALS 5

static void test_merge_intervals(void **state)
{
	struct node *n = calloc(NODES, sizeof(*n));
	struct atio_merge_doc *d = calloc(NODES, sizeof(*d));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_hist *all = calloc(IVALS, sizeof(*all)), *h = malloc(sizeof(*h));
	struct atio_ival_series *s = calloc(NODES, sizeof(*s));
	struct atio_error e = { 0 };
	uint64_t ops[IVALS] = { 0 }, x = 88172645463325252ULL;
	double values[IVALS] = { 0 };
	const struct atio_ival_gap *g;
	char *text, msg[512];

	(void)state;
	assert_true(n && d && m && all && h && s);
	atio_merge_init(m);
	for (unsigned k = 0; k < IVALS; k++)
		atio_hist_init(&all[k]);
	for (unsigned i = 0; i < NODES; i++) {
		unsigned count = i == NODES - 1 ? IVALS - 1 : IVALS;
		struct atio_ival_series *one = &s[i];
		struct atio_hist *hh[ATIO_DIRS] = { h, NULL };
		static char names[NODES][32];
		char *name = names[i];

		node_init(&n[i], i, 0, false);
		n[i].o.interval_ns = NS;
		atio_ival_series_init(one, NS, false);
		for (unsigned k = 0; k < count; k++) {
			struct atio_ival iv = { .dur_ns = NS, .docs = 1 };

			atio_hist_init(h);
			for (unsigned v = 0; v < 1000 + i * 100 + k * 10; v++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				atio_hist_record(h, 500 + x % (5000000 >> (x % 7)));
				atio_hist_record(&all[k], 500 + x % (5000000 >> (x % 7)));
			}
			iv.ops[0] = h->count;
			iv.bytes[0] = h->count * 4096;
			ops[k] += h->count;
			n[i].th.ops += h->count;
			n[i].th.bytes += h->count * 4096;
			atio_hist_merge(&n[i].th.lat, h);
			assert_int_equal(atio_ival_append(one, &iv, hh), 0);
		}
		/* Every node quiet over [2.2, 4] s at least; node 1 alone earlier. */
		if (i == 1)
			assert_int_equal(atio_ival_add_gap(one, NS / 10, 3 * NS / 2, true), 0);
		assert_int_equal(atio_ival_add_gap(one, i ? 22 * NS / 10 : 2 * NS,
						   i ? 45 * NS / 10 : 4 * NS, true), 0);
		one->end_ns = count * NS;
		n[i].th.elapsed_ns = one->end_ns;
		n[i].r.elapsed_ns = one->end_ns;
		atio_stats_init(&n[i].r.total);
		atio_stats_merge(&n[i].r.total, &n[i].th);
		n[i].r.thread_ivals = &one;
		assert_int_equal(atio_report_timeline(&n[i].r), 0);
		for (unsigned k = 0; k < count; k++)
			values[k] += atio_ival_get(n[i].r.timeline, k)->value;
		text = to_json(&n[i].r);
		snprintf(name, 32, "node%u.json", i);
		assert_int_equal(atio_merge_read_string(text, name, &d[i], &e), 0);
		free(text);
		assert_non_null(d[i].ivals);
		assert_int_equal(atio_ival_count(d[i].ivals), count);
		assert_int_equal(atio_merge_add(m, &d[i], &e), 0);
		atio_report_timeline_free(&n[i].r);
	}
	assert_non_null(m->timeline);
	assert_int_equal(atio_ival_count(m->timeline), IVALS);
	for (unsigned k = 0; k < IVALS; k++) {
		const struct atio_ival *iv = atio_ival_get(m->timeline, k);

		assert_int_equal(iv->ops[0], ops[k]);
		assert_int_equal(iv->bytes[0], ops[k] * 4096);
		assert_int_equal(iv->docs, k == IVALS - 1 ? NODES - 1 : NODES);
		/* Rates add: the sum of the documents' values, as they hold them. */
		assert_true(iv->value == values[k]);
		atio_hist_init(h);
		atio_ival_hist_add(h, m->timeline, iv, ATIO_DIRS);
		hist_equal(h, &all[k]);
	}
	/* The cluster stall: [2.2, 4] s, where no node completed anything. */
	assert_int_equal(m->timeline->gap.n, 1);
	g = m->timeline->gap.p;
	assert_int_equal(g[0].from, 22 * NS / 10);
	assert_int_equal(g[0].to, 4 * NS);
	assert_true(atio_ival_stalled(m->timeline, 2) == false); /* it had I/O */

	/* A document without intervals (an older atio): merged, no timeline, said. */
	atio_merge_free(m);
	atio_merge_init(m);
	node_init(&n[0], 0, 1000, false);
	n[0].o.interval_ns = NS;
	text = to_json(&n[0].r);
	atio_merge_doc_free(&d[0]);
	assert_int_equal(atio_merge_read_string(text, "old.json", &d[0], &e), 0);
	free(text);
	assert_null(d[0].ivals);
	for (unsigned i = NODES; i-- > 0;)
		assert_int_equal(atio_merge_add(m, &d[i], &e), 0);
	assert_null(m->timeline);
	assert_int_equal(atio_merge_warnings(m), 1);
	atio_merge_warning(m, 0, msg, sizeof(msg));
	assert_string_equal(msg, "the intervals are left out: node3.json has intervals of 1 s, "
			    "old.json has no intervals (a run without --interval); they are "
			    "summed only when every document has intervals of one length");
	atio_merge_free(m);
	for (unsigned i = 0; i < NODES; i++) {
		atio_merge_doc_free(&d[i]);
		atio_ival_series_free(&s[i]);
	}
	free(n);
	free(d);
	atio_merge_free(m);
	free(m);
	free(all);
	free(h);
	free(s);
}

/*
 * One run summed once, runs summed only when they ran at one time
 * (merge_runs.c): a document given twice is refused whatever the
 * options; one whose measured time shares no instant with another's is
 * refused unless the merge is unaligned or sequential; trailing data
 * after a document is said as such.
 */
static void test_merge_runs(void **state)
{
	struct node *n = calloc(3, sizeof(*n));
	struct atio_merge_doc *d = calloc(3, sizeof(*d));
	struct atio_merge *m = calloc(1, sizeof(*m));
	struct atio_error e = { 0 };
	char *text[3], *trail;

	(void)state;
	assert_non_null(n);
	assert_non_null(d);
	assert_non_null(m);
	for (unsigned i = 0; i < 3; i++) {
		node_init(&n[i], i, 1000, false);
		if (i == 2) {   /* begins 10 s after the others ended */
			n[i].r.wall_start.tv_sec += 20;
			n[i].r.wall_end.tv_sec += 20;
		}
		text[i] = to_json(&n[i].r);
		assert_int_equal(atio_merge_read_string(text[i], i == 2 ? "late.json" : "a.json",
							&d[i], &e), 0);
	}
	assert_string_not_equal(d[0].run.seed, d[1].run.seed);
	for (unsigned mode = 0; mode < 3; mode++) {
		atio_merge_init(m);
		m->unaligned = mode == 1;
		m->sequential = mode == 2;
		assert_int_equal(atio_merge_check_run(m, &d[0], &e), 0);
		assert_int_equal(atio_merge_add(m, &d[0], &e), 0);
		/* The same run again: refused in every mode. */
		assert_true(atio_merge_check_run(m, &d[0], &e) < 0);
		assert_int_equal(e.exit, 2);
		assert_non_null(strstr(e.msg, "given twice: a run is summed once"));
		assert_int_equal(atio_merge_check_run(m, &d[1], &e), 0);
		assert_int_equal(atio_merge_add(m, &d[1], &e), 0);
		if (mode == 0) {
			assert_true(atio_merge_check_run(m, &d[2], &e) < 0);
			assert_int_equal(e.exit, 2);
			assert_non_null(strstr(e.msg, "late.json [1800000020."));
			assert_non_null(strstr(e.msg, "share no instant"));
		} else {
			assert_int_equal(atio_merge_check_run(m, &d[2], &e), 0);
		}
		atio_merge_free(m);
	}
	trail = malloc(strlen(text[0]) + 3);
	assert_non_null(trail);
	atio_merge_doc_free(&d[2]);
	sprintf(trail, "%snu", text[0]);
	assert_true(atio_merge_read_string(trail, "t.json", &d[2], &e) < 0);
	assert_non_null(strstr(e.msg, "t.json: trailing data after the JSON document"));
	sprintf(trail, "%s \n", text[0]);
	assert_int_equal(atio_merge_read_string(trail, "t.json", &d[2], &e), 0);
	free(trail);
	for (unsigned i = 0; i < 3; i++) {
		atio_merge_doc_free(&d[i]);
		free(text[i]);
	}
	free(m);
	free(d);
	free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_merge_reads),
		cmocka_unit_test(test_merge_syncs),
		cmocka_unit_test(test_merge_text),
		cmocka_unit_test(test_merge_capped),
		cmocka_unit_test(test_merge_bad),
		cmocka_unit_test(test_merge_figures),
		cmocka_unit_test(test_merge_mix),
		cmocka_unit_test(test_merge_intervals),
		cmocka_unit_test(test_merge_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
