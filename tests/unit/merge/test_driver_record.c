/* SPDX-License-Identifier: MIT */
/*
 * The cluster driver's JSON (atio/merge/driver_record.h): a node's record
 * holds its document's figures, system and stderr lines in the driver's
 * order; an iteration's record its merge and nodes as they were; a test's
 * summary the figures of the iterations; the -o document its settings
 * typed, its nodes, its tests grouped by thread count, and nothing at all
 * when a file, line or setting is wrong. Every output is read back with
 * jansson.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "atio/base/opts.h"
#include "atio/merge/driver_record.h"
#include "atio/document/json_read.h"
#include "atio/print/report.h"
#include "atio/stats/hist.h"

#define NS 1000000000ULL

/* One node's run, as test_merge.c makes them. */
struct node {
	struct atio_opts o;
	struct atio_stats th;
	struct atio_result r;
};

static void node_init(struct node *n, unsigned id)
{
	uint64_t x = 88172645463325252ULL + id * 7919;

	memset(n, 0, sizeof(*n));
	n->o.mode = ATIO_MODE_READ;
	n->o.random = true;
	n->o.unit = ATIO_UNIT_IOPS;
	n->o.bs = 4096;
	n->o.threads = 1;
	n->o.nfiles = 1;
	n->o.time_ns = 10 * NS;
	n->o.total = 1ULL << 30;
	n->o.qsync = 1;
	n->o.path = "/mnt/dir";
	n->o.seed = UINT64_MAX - id;
	n->o.engine = "sync";
	n->o.iodepth = 1;
	atio_stats_init(&n->th);
	for (unsigned i = 0; i < 5000 + id * 100; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		atio_hist_record(&n->th.lat, 300 + x % 3000000);
		n->th.ops++;
		n->th.bytes += 4096;
	}
	n->th.elapsed_ns = 10 * NS + id * 1000;
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

/* Node @id's atio --json document, parsed. */
static json_t *node_doc(unsigned id)
{
	struct node *n = malloc(sizeof(*n));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *doc;

	assert_non_null(n);
	assert_non_null(f);
	node_init(n, id);
	atio_report_json(f, &n->r);
	assert_int_equal(fclose(f), 0);
	doc = json_loads(buf, JSON_DECODE_INT_AS_REAL, NULL);
	assert_non_null(doc);
	free(buf);
	free(n);
	return doc;
}

/* What @write wrote, one line, parsed; *@text keeps the line when not NULL. */
#define CAPTURE(text, write)                                                   \
	({                                                                     \
		char *b_ = NULL;                                               \
		size_t l_ = 0;                                                 \
		FILE *f = open_memstream(&b_, &l_);                            \
		json_t *d_;                                                    \
		char **t_ = (text);                                            \
		assert_non_null(f);                                            \
		write;                                                         \
		assert_int_equal(fclose(f), 0);                                \
		assert_non_null(strchr(b_, '\n'));                             \
		assert_ptr_equal(strchr(b_, '\n'), b_ + l_ - 1);               \
		d_ = json_loads(b_, JSON_DECODE_INT_AS_REAL, NULL);            \
		assert_non_null(d_);                                           \
		if (t_)                                                        \
			*t_ = b_;                                              \
		else                                                           \
			free(b_);                                              \
		d_;                                                            \
	})

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	assert_true(json_is_number(v));
	return json_number_value(v);
}

static const char *str(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	assert_true(json_is_string(v));
	return json_string_value(v);
}

/* The member names of object @o, in order, joined by commas, into @buf. */
static const char *keys(const json_t *o, char *buf, size_t len)
{
	const char *k;
	json_t *v;

	buf[0] = '\0';
	json_object_foreach((json_t *)o, k, v)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? "," : "", k);
	return buf;
}

/* The merge of node @id's one document, and that document into *@doc. */
static void merge_one(unsigned id, struct atio_merge *m, json_t **doc)
{
	struct atio_merge_doc d;
	struct atio_error e = { 0 };

	*doc = node_doc(id);
	atio_merge_init(m);
	assert_int_equal(atio_json_read_run(*doc, "node.json", &d, &e), 0);
	assert_int_equal(atio_merge_add(m, &d, &e), 0);
	atio_merge_doc_free(&d);
}

static void test_node_ok(void **state)
{
	static char *lines[] = { "atio: warning: one", "atio: warning: two" };
	const struct atio_lines l = { lines, 2 };
	struct atio_merge m;
	json_t *doc, *rec, *lat;
	char k[512], note[128];

	(void)state;
	merge_one(1, &m, &doc);
	rec = CAPTURE(NULL, atio_record_node_ok(f, "node\"1", &m, doc, &l));
	assert_string_equal(keys(rec, k, sizeof(k)),
			    "host,ok,value,unit,time_sec,ops,bytes,start_epoch,end_epoch,latency_us,"
			    "read,write,sync_latency_us,iops,mbs,bytes_per_sec,syncs,cpu_user_pct,"
			    "cpu_sys_pct,ctx_voluntary,ctx_involuntary,latency_ns,block_size,seed,"
			    "cmdline,interval_values,stalls,longest_stall_sec,threads,total_size,"
			    "system,filesystem,stderr");
	/* The figures and command line the driver's CSV takes, the document's. */
	assert_true(num(rec, "iops") == num(json_object_get(doc, "result"), "iops"));
	assert_true(num(json_object_get(rec, "latency_ns"), "p50") ==
		    num(json_object_get(doc, "latency_ns"), "p50"));
	assert_true(json_equal(json_object_get(rec, "cmdline"),
			       json_object_get(json_object_get(doc, "settings"), "cmdline")));
	/* Neither a --mix run nor one that syncs: no figures per direction or call. */
	assert_true(json_is_null(json_object_get(rec, "read")));
	assert_true(json_is_null(json_object_get(rec, "sync_latency_us")));
	assert_string_equal(str(rec, "host"), "node\"1");
	assert_true(json_is_true(json_object_get(rec, "ok")));
	assert_true(num(rec, "value") == m.sum);
	assert_true(num(rec, "value") == num(json_object_get(doc, "result"), "value"));
	assert_string_equal(str(rec, "unit"), "IOPS");
	assert_true(num(rec, "ops") == 5100);
	assert_true(num(rec, "bytes") == 5100 * 4096.0);
	assert_true(num(rec, "start_epoch") == num(doc, "start_epoch"));
	assert_true(num(rec, "end_epoch") == num(doc, "end_epoch"));
	lat = json_object_get(rec, "latency_us");
	assert_true(num(lat, "p50") ==
		    num(json_object_get(doc, "latency_ns"), "p50") / 1000.0);
	assert_true(num(lat, "p99.9") ==
		    num(json_object_get(doc, "latency_ns"), "p99.9") / 1000.0);
	assert_true(json_is_null(json_object_get(rec, "interval_values")));
	assert_true(json_equal(json_object_get(rec, "system"), json_object_get(doc, "system")) ||
		    json_is_null(json_object_get(doc, "system")));
	assert_true(json_equal(json_object_get(rec, "filesystem"),
			       json_object_get(json_object_get(doc, "settings"), "filesystem")));
	assert_int_equal(json_array_size(json_object_get(rec, "stderr")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(rec, "stderr"), 1)),
			    "atio: warning: two");
	/* No verify object: no note; one with ok and bytes_checked: the note. */
	atio_record_verify_note(doc, note, sizeof(note));
	assert_string_equal(note, "");
	json_object_set_new(doc, "verify", json_pack("{s:b,s:f,s:b}", "ok", 1, "bytes_checked",
						     8192.0, "read_back", 1));
	atio_record_verify_note(doc, note, sizeof(note));
	assert_string_equal(note, "verify: every block written read back and checked, 8192 "
			    "bytes, none bad");
	json_object_set_new(json_object_get(doc, "verify"), "ok", json_false());
	atio_record_verify_note(doc, note, sizeof(note));
	assert_string_equal(note, "");
	json_decref(rec);
	json_decref(doc);
	atio_merge_free(&m);
}

static void test_node_failed(void **state)
{
	static char *lines[] = { "atio: cannot open" };
	const struct atio_lines l = { lines, 1 };
	json_t *rec;
	char k[128];

	(void)state;
	rec = CAPTURE(NULL, atio_record_node_failed(f, "node2", 3, "atio exited with status 3", &l));
	assert_string_equal(keys(rec, k, sizeof(k)), "host,ok,rc,stderr");
	assert_true(json_is_false(json_object_get(rec, "ok")));
	assert_true(num(rec, "rc") == 3);
	assert_int_equal(json_array_size(json_object_get(rec, "stderr")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(rec, "stderr"), 0)),
			    "atio exited with status 3");
	json_decref(rec);
	/* Never answered: rc null, only the lines. */
	rec = CAPTURE(NULL, atio_record_node_failed(f, "node2", -1, NULL, &l));
	assert_true(json_is_null(json_object_get(rec, "rc")));
	assert_int_equal(json_array_size(json_object_get(rec, "stderr")), 1);
	json_decref(rec);
}

static void test_iteration(void **state)
{
	struct atio_iteration_info info = { .iteration = 2, .start_at = 1800000000.5,
		.complete = true, .concurrent = false, .ok_nodes = 2, .unit = "MB/s",
		.max_skew_sec = 0.01 };
	json_t *merge = json_pack("{s:f,s:s,s:f,s:f,s:f,s:{s:f,s:f,s:f}}", "sum", 123.5, "unit",
				  "IOPS", "documents", 2.0, "start_skew_sec", 0.00123456789,
				  "end_skew_sec", 0.5, "latency_ns", "p50", 1500.0, "p99", 25001.0,
				  "p99.9", 90000.0);
	json_t *nodes[2] = { json_pack("{s:s,s:b,s:[f,f]}", "host", "a", "ok", 1, "v", 1.0, 2.5),
			     json_pack("{s:s,s:b,s:n}", "host", "b", "ok", 0, "rc") };
	json_t *rec, *lat;
	char k[512];

	(void)state;
	rec = CAPTURE(NULL, atio_record_iteration(f, &info, merge, nodes, 2));
	assert_string_equal(keys(rec, k, sizeof(k)),
			    "iteration,start_at,complete,concurrent,ok_nodes,sum,unit,skew_sec,"
			    "end_skew_sec,max_skew_sec,latency_us,read,write,sync_latency_us,merge,"
			    "nodes");
	assert_true(num(rec, "iteration") == 2);
	assert_true(num(rec, "start_at") == 1800000000.5);
	assert_true(json_is_false(json_object_get(rec, "concurrent")));
	assert_true(num(rec, "sum") == 123.5);
	assert_string_equal(str(rec, "unit"), "IOPS");
	/* Over two documents, the skew the driver compared: to the microsecond. */
	assert_true(num(rec, "skew_sec") == 0.001235);
	lat = json_object_get(rec, "latency_us");
	assert_true(num(lat, "p50") == 1.5 && num(lat, "p99") == 25.001 &&
		    num(lat, "p99.9") == 90);
	assert_true(json_equal(json_object_get(rec, "merge"), merge));
	assert_true(json_equal(json_array_get(json_object_get(rec, "nodes"), 0), nodes[0]));
	assert_true(json_equal(json_array_get(json_object_get(rec, "nodes"), 1), nodes[1]));
	json_decref(rec);
	/* No merge: sum 0 in the test's unit, no skew, no latency, no start. */
	info.start_at = NAN;
	rec = CAPTURE(NULL, atio_record_iteration(f, &info, NULL, nodes, 1));
	assert_true(num(rec, "sum") == 0);
	assert_string_equal(str(rec, "unit"), "MB/s");
	assert_true(json_is_null(json_object_get(rec, "start_at")));
	assert_true(json_is_null(json_object_get(rec, "skew_sec")));
	assert_true(json_is_null(json_object_get(rec, "latency_us")));
	assert_true(json_is_null(json_object_get(rec, "merge")));
	assert_int_equal(json_array_size(json_object_get(rec, "nodes")), 1);
	json_decref(rec);
	json_decref(merge);
	json_decref(nodes[0]);
	json_decref(nodes[1]);
}

/* An iteration of two nodes with values @a and @b. */
static void add_iteration(struct atio_iterations *s, double a, double b)
{
	struct atio_iteration it = { .file = "it.json", .nvalues = 2, .sum = a + b };
	struct atio_error e = { 0 };

	snprintf(it.unit, sizeof(it.unit), "IOPS");
	it.values = malloc(2 * sizeof(*it.values));
	assert_non_null(it.values);
	it.values[0] = a;
	it.values[1] = b;
	assert_int_equal(atio_iterations_add(s, &it, &e), 0);
	atio_iteration_free(&it);
}

static void test_summary(void **state)
{
	static const char *const hosts[] = { "n1", "n2" };
	struct atio_test_info info = { .threads = "8", .test = "randread", .unit = "IOPS",
		.runs = 3, .hosts = hosts, .nhosts = 2 };
	struct atio_iterations s;
	json_t *sum, *sh;
	char k[512];

	(void)state;
	atio_iterations_init(&s);
	add_iteration(&s, 1, 9);
	add_iteration(&s, 5, 15);
	sum = CAPTURE(NULL, atio_record_test(f, &info, &s));
	assert_string_equal(keys(sum, k, sizeof(k)), "threads,test,unit,runs,complete_iterations,"
			    "average,min,max,stddev,read,write,shares");
	assert_true(num(sum, "threads") == 8);
	assert_true(num(sum, "runs") == 3 && num(sum, "complete_iterations") == 2);
	assert_true(num(sum, "average") == 15 && num(sum, "min") == 10 && num(sum, "max") == 20);
	assert_true(fabs(num(sum, "stddev") - sqrt(50.0)) < 1e-12);
	sh = json_object_get(sum, "shares");
	assert_int_equal(json_array_size(sh), 2);
	assert_string_equal(str(json_array_get(sh, 1), "host"), "n2");
	assert_true(num(json_array_get(sh, 0), "percent") == 20);
	json_decref(sum);
	/* No counted iteration: no figure, no share; auto stays a word. */
	info.threads = "auto";
	sum = CAPTURE(NULL, atio_record_test(f, &info, NULL));
	assert_string_equal(str(sum, "threads"), "auto");
	assert_true(num(sum, "complete_iterations") == 0);
	assert_true(json_is_null(json_object_get(sum, "average")));
	assert_true(json_is_null(json_object_get(sum, "stddev")));
	assert_int_equal(json_array_size(json_object_get(sum, "shares")), 0);
	json_decref(sum);
	atio_iterations_free(&s);
}

/* A new file in /tmp holding @text; its name into @path (room for 40). */
static void temp_file(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/atio-test-driver.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *settings[] = {
	"atio_version=atio 0.1.0", "time_sec=60", "file_size=16G", "threads=1 08 auto",
	"iterations=03", "blocksize=4K", "remote_binaries_path=/opt/atio",
	"remote_pcs_mount_path=/mnt/t", "node_dir=subdir", "pause_sec=0.5", "tests=seqread randwrite",
	"atio_opts=--rate 5 \"x\"", "warmup_time_sec=5", "start_margin_sec=2", "overrun_sec=60",
	"ready_timeout_sec=120", "max_skew_percent=1", "profile=at_io", "node_cap=",
};
#define NSET (sizeof(settings) / sizeof(settings[0]))

/* atio_record_matrix() with the files given; the document or NULL, and its message. */
static json_t *matrix(char *const *set, size_t nset, const char *nodes, const char *results,
		      struct atio_error *e)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *d = NULL;
	int ret;

	assert_non_null(f);
	ret = atio_record_matrix(f, set, nset, nodes, results, true, 1, e);
	assert_int_equal(fclose(f), 0);
	if (ret) {
		assert_int_equal(len, 0);    /* nothing half written */
		assert_int_equal(e->exit, 2);
	} else {
		d = json_loads(buf, JSON_DECODE_INT_AS_REAL, NULL);
		assert_non_null(d);
		assert_ptr_equal(strchr(buf, '\n'), buf + len - 1);
	}
	free(buf);
	return d;
}

static void test_matrix(void **state)
{
	char nodes[40], sum[40], rec1[40], rec2[40], results[40], bad[40], text[512], k[256];
	struct atio_error e = { 0 };
	json_t *d, *set, *res, *t;
	char *wrong[NSET];

	(void)state;
	temp_file(nodes, "n1\t-0.25\t/opt/atio/atio\nn2\tunknown\t\t/mnt/t/node-n2\n");
	temp_file(sum, "{\"threads\":1,\"test\":\"seqread\",\"unit\":\"MB/s\",\"runs\":1}\n");
	temp_file(rec1, "{\"iteration\":1,\"sum\":5}\n{\"iteration\":2,\"sum\":6}\n");
	temp_file(rec2, "{\"iteration\":1,\"sum\":7}\n");
	snprintf(text, sizeof(text), "1\twarmup\t\t%s\n1\tseqread\t%s\t%s\nauto\tseqread\t\t%s\n",
		 rec2, sum, rec1, rec2);
	temp_file(results, text);
	d = matrix(settings, NSET, nodes, results, &e);
	assert_string_equal(keys(d, k, sizeof(k)), "settings,nodes,results,interrupted,exit_status");
	set = json_object_get(d, "settings");
	assert_int_equal(json_object_size(set), NSET);
	assert_true(num(set, "time_sec") == 60 && num(set, "iterations") == 3 &&
		    num(set, "pause_sec") == 0.5);
	assert_true(json_is_number(json_array_get(json_object_get(set, "threads"), 1)));
	assert_true(json_number_value(json_array_get(json_object_get(set, "threads"), 1)) == 8);
	assert_string_equal(json_string_value(json_array_get(json_object_get(set, "threads"), 2)),
			    "auto");
	assert_string_equal(json_string_value(json_array_get(json_object_get(set, "tests"), 1)),
			    "randwrite");
	assert_string_equal(str(set, "atio_opts"), "--rate 5 \"x\"");
	assert_true(json_is_null(json_object_get(set, "node_cap")));
	t = json_object_get(d, "nodes");
	assert_true(num(json_array_get(t, 0), "clock_offset_sec") == -0.25);
	assert_true(json_is_null(json_object_get(json_array_get(t, 1), "clock_offset_sec")));
	assert_true(json_is_null(json_object_get(json_array_get(t, 1), "atio")));
	assert_null(json_object_get(json_array_get(t, 0), "test_dir"));
	assert_string_equal(str(json_array_get(t, 1), "test_dir"), "/mnt/t/node-n2");
	assert_string_equal(str(set, "node_dir"), "subdir");
	res = json_object_get(d, "results");
	assert_int_equal(json_array_size(res), 2);     /* 1 thread, then auto */
	assert_string_equal(str(json_array_get(res, 1), "threads"), "auto");
	t = json_object_get(json_array_get(res, 0), "tests");
	assert_int_equal(json_array_size(t), 2);
	assert_string_equal(keys(json_array_get(t, 0), k, sizeof(k)), "test,iterations");
	assert_string_equal(keys(json_array_get(t, 1), k, sizeof(k)),
			    "threads,test,unit,runs,iterations");
	assert_int_equal(json_array_size(json_object_get(json_array_get(t, 1), "iterations")), 2);
	assert_true(json_is_true(json_object_get(d, "interrupted")));
	assert_true(num(d, "exit_status") == 1);
	json_decref(d);

	/* A setting missing, unknown, or not a number; a bad line: refused, named. */
	memcpy(wrong, settings, sizeof(wrong));
	assert_null(matrix(wrong, NSET - 1, nodes, results, &e));
	assert_non_null(strstr(e.msg, "node_cap"));
	wrong[1] = "time_sec=sixty";
	assert_null(matrix(wrong, NSET, nodes, results, &e));
	assert_non_null(strstr(e.msg, "time_sec=sixty: not a number"));
	wrong[1] = "colour=blue";
	assert_null(matrix(wrong, NSET, nodes, results, &e));
	assert_non_null(strstr(e.msg, "colour=blue"));
	temp_file(bad, "n1 0 atio\n");
	assert_null(matrix(settings, NSET, bad, results, &e));
	assert_non_null(strstr(e.msg, bad));
	assert_non_null(strstr(e.msg, "line 1"));
	unlink(bad);
	temp_file(bad, "n1\t0\tatio\t/d\n" "n2\t0\tatio\t/d\tmore\n");
	assert_null(matrix(settings, NSET, bad, results, &e));
	assert_non_null(strstr(e.msg, "line 2"));
	unlink(bad);
	temp_file(bad, "{\"iteration\":1}\n{\"iteration\":\n");
	snprintf(text, sizeof(text), "1\tseqread\t\t%s\n", bad);
	unlink(results);
	temp_file(results, text);
	assert_null(matrix(settings, NSET, nodes, results, &e));
	assert_non_null(strstr(e.msg, bad));
	assert_non_null(strstr(e.msg, "line 2"));
	unlink(bad);
	assert_null(matrix(settings, NSET, nodes, "/nonexistent/results", &e));
	assert_non_null(strstr(e.msg, "/nonexistent/results: cannot open"));
	unlink(nodes);
	unlink(sum);
	unlink(rec1);
	unlink(rec2);
	unlink(results);
}

/* A copy reads back equal: nesting, order, big and small numbers, escapes. */
static void test_copy(void **state)
{
	const char *in = "{\"a\":[1,2.5,-3,1e300,18446744073709551615,null,true,false],"
			 "\"b\":{\"c\":\"q\\\"\\\\\\n\",\"d\":{}},\"e\":[]}";
	json_t *v = json_loads(in, JSON_DECODE_INT_AS_REAL, NULL), *out;
	char *text = NULL, k[64];

	(void)state;
	assert_non_null(v);
	out = CAPTURE(&text, {
		struct atio_json j;

		atio_json_init(&j, f);
		atio_json_copy(&j, NULL, v);
	});
	assert_true(json_equal(v, out));
	assert_string_equal(keys(out, k, sizeof(k)), "a,b,e");
	assert_non_null(strstr(text, "[1,2.5,-3,"));   /* whole numbers as integers */
	free(text);
	json_decref(out);
	json_decref(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_ok),
		cmocka_unit_test(test_node_failed),
		cmocka_unit_test(test_iteration),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
