/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of src/print/report.c, src/print/report_json.c and src/base/json.c: the result
 * line to the byte, the at_io_iops header, the "rate appears once" rule,
 * and JSON that is valid (parsed back with jansson, duplicate members and
 * trailing text refused, plus a plain check of the one line and of the
 * balance) and carries histograms whose buckets merge exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atio/cli/cli.h"
#include "atio/stats/hist.h"
#include "atio/base/json.h"
#include "atio/print/report.h"
#include "atio/stats/stats.h"

#define NS    1000000000ULL
#define KIB   1024ULL
#define MIB_B (1024ULL * 1024)
#define GIB   (1024ULL * 1024 * 1024)

/* ---- fixtures ------------------------------------------------------- */

#define MAX_THREADS 4

/* Everything one rendered result needs, on the heap: stats are ~116 KiB. */
struct fix {
	struct atio_opts o;
	struct atio_stats th[MAX_THREADS];
	struct atio_result r;
};

/*
 * at_io_iops' defaults as design.md lists them, plus -S because the
 * design's example command line ends with it.
 */
static void default_opts(struct atio_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->mode = ATIO_MODE_READ;
	o->random = false;
	o->direct = false;
	o->unit = ATIO_UNIT_MBS;
	o->bs = 16 * MIB_B;
	o->threads = 1;
	o->nfiles = 1;
	o->time_ns = 60 * NS;
	o->warmup_ns = 0;
	o->total = 16 * GIB;
	o->qsync = 1;
	o->skip_sync = true;
	o->path = "/mnt/dir";
	o->seed = 42;
	o->engine = NULL;          /* not given: the engine that ran is the result's */
	o->iodepth = 1;
	o->iodepth_batch = 1;
	o->thp = true;
}

/* A fixture with @n empty threads and default options. */
static struct fix *fix_new(unsigned n)
{
	struct fix *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	default_opts(&x->o);
	for (unsigned i = 0; i < MAX_THREADS; i++)
		atio_stats_init(&x->th[i]);
	atio_stats_init(&x->r.total);
	x->r.opts = &x->o;
	x->r.version = "0.1.0";
	x->r.engine = "sync";
	x->r.nthreads = n;
	x->r.threads = x->th;
	return x;
}

/* Merge the threads into the total, as main does after joining. */
static void fix_merge(struct fix *x)
{
	atio_stats_init(&x->r.total);
	for (unsigned i = 0; i < x->r.nthreads; i++)
		atio_stats_merge(&x->r.total, &x->th[i]);
	x->r.elapsed_ns = x->r.total.elapsed_ns;
}

/* A deterministic spread of latencies, 1 us .. ~20 ms, for thread @t. */
static void fill_thread(struct atio_stats *s, unsigned t, unsigned n, bool syncs)
{
	uint64_t x = 88172645463325252ULL + t;

	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		atio_hist_record(&s->lat, 1000 + x % (20 * 1000 * 1000 >> (x % 8)));
		s->ops++;
		s->bytes += 4096;
		if (syncs && i % 4 == 3) {
			atio_hist_record(&s->sync_lat, 50000 + x % 3000000);
			s->syncs++;
		}
	}
	s->elapsed_ns = 10 * NS + t * 1000;
	s->cpu_user_ns = 250 * 1000 * 1000;
	s->cpu_sys_ns = 125 * 1000 * 1000;
}

/* ---- capturing output ----------------------------------------------- */

/* Run a renderer of a result into memory; the caller frees the text. */
static char *render(void (*fn)(FILE *, const struct atio_result *), const struct atio_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, r);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Run a settings renderer into memory; the caller frees the text. */
static char *render_opts(void (*fn)(FILE *, const struct atio_opts *, const char *, const char *),
			 const struct atio_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, o, "0.1.0", "sync");
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Line @n (0-based) of @text without its newline, in @out. */
static bool nth_line(const char *text, unsigned n, char *out, size_t len)
{
	const char *p = text;

	while (n--) {
		p = strchr(p, '\n');
		if (!p)
			return false;
		p++;
	}
	if (!*p)
		return false;
	snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
	return true;
}

/* Number of lines of @text (a last line without newline counts). */
static unsigned count_lines(const char *text)
{
	unsigned n = 0;

	for (const char *p = text; *p; p++)
		if (*p == '\n' || !p[1])
			n++;
	return n;
}

/* Occurrences of @needle in @hay, overlapping ones included. */
static unsigned count_str(const char *hay, const char *needle)
{
	unsigned n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * The grep rule: "rate" occurs once in the whole text and that occurrence
 * is on the first line, which is the result line.
 */
static void assert_rate_once(const char *text)
{
	const char *hit = strstr(text, "rate");

	assert_int_equal(count_str(text, "rate"), 1);
	assert_non_null(hit);
	assert_true(memchr(text, '\n', (size_t)(hit - text)) == NULL);
}

/* ---- reading the JSON back, with jansson ----------------------------- */

/*
 * What the tests ask of jansson: a member named twice is an error
 * (JSON_REJECT_DUPLICATES), and so is anything after the one value. NaN,
 * Infinity, leading zeros, a '+' sign, control characters inside strings,
 * unknown escapes, bytes that are not UTF-8 and a \u0000 escape are never
 * JSON to jansson. @flags adds to these (JSON_DECODE_INT_AS_REAL for an
 * integer above 2^63, which jansson's integers cannot hold).
 */
static json_t *jparse(const char *text, size_t flags, json_error_t *je)
{
	return json_loads(text, JSON_REJECT_DUPLICATES | flags, je);
}

/* Member @key of object @o; fails the test when missing. */
static json_t *jget(const json_t *o, const char *key)
{
	json_t *v;

	assert_non_null(o);
	assert_true(json_is_object(o));
	v = json_object_get(o, key);
	if (!v)
		fail_msg("JSON member \"%s\" missing", key);
	return v;
}

/* Element @i of array @a; fails the test when there is none. */
static json_t *jat(const json_t *a, size_t i)
{
	assert_non_null(a);
	assert_true(json_is_array(a));
	assert_true(i < json_array_size(a));
	return json_array_get(a, i);
}

/* An unsigned integer: an integer literal (no '.', no exponent), not negative. */
static uint64_t jv_u64(const json_t *v)
{
	assert_non_null(v);
	assert_true(json_is_integer(v));
	assert_true(json_integer_value(v) >= 0);
	return (uint64_t)json_integer_value(v);
}

static uint64_t ju64(const json_t *o, const char *key)
{
	return jv_u64(jget(o, key));
}

/* Any number, integer or not, as a double. */
static double jdbl(const json_t *o, const char *key)
{
	const json_t *v = jget(o, key);

	assert_true(json_is_number(v));
	return json_number_value(v);
}

static const char *jstr(const json_t *o, const char *key)
{
	const json_t *v = jget(o, key);

	assert_true(json_is_string(v));
	return json_string_value(v);
}

static bool jbool(const json_t *o, const char *key)
{
	const json_t *v = jget(o, key);

	assert_true(json_is_boolean(v));
	return json_is_true(v);
}

/*
 * A plain check besides the parser: outside string literals braces and
 * brackets balance, never go negative and nest at most 64 deep; inside
 * them no raw control character appears, and every backslash starts a
 * valid escape.
 */
static void assert_balanced(const char *text)
{
	int brace = 0, bracket = 0;
	bool in_str = false;

	for (const char *p = text; *p; p++) {
		if (in_str) {
			assert_true((unsigned char)*p >= 0x20);
			if (*p == '\\') {
				p++;
				assert_non_null(strchr("\"\\/bfnrtu", *p));
			} else if (*p == '"') {
				in_str = false;
			}
			continue;
		}
		switch (*p) {
		case '"': in_str = true; break;
		case '{': brace++; break;
		case '}': brace--; break;
		case '[': bracket++; break;
		case ']': bracket--; break;
		}
		assert_true(brace >= 0 && bracket >= 0);
		assert_true(brace + bracket <= 64);
	}
	assert_false(in_str);
	assert_int_equal(brace, 0);
	assert_int_equal(bracket, 0);
}

/*
 * Every JSON document atio writes: one line ending in exactly one newline,
 * balanced, one object that jansson parses strictly (jparse, with @flags
 * added). The caller drops the tree with json_decref().
 */
static json_t *assert_json_flags(const char *text, size_t flags)
{
	size_t len = strlen(text);
	json_error_t je;
	json_t *root;

	assert_true(len > 1);
	assert_int_equal(text[len - 1], '\n');
	assert_true(strchr(text, '\n') == text + len - 1);     /* compact: one line */
	assert_balanced(text);
	root = jparse(text, flags, &je);
	if (!root)
		fail_msg("not strict JSON: %s at line %d column %d", je.text, je.line, je.column);
	assert_true(json_is_object(root));
	return root;
}

static json_t *assert_json(const char *text)
{
	return assert_json_flags(text, 0);
}

/* ---- the result line ------------------------------------------------- */

/* The expected result line, built here with the format the brief fixes. */
static void expect_line(char *buf, size_t len, double sec, double value, const char *unit)
{
	snprintf(buf, len, "time: %f sec; rate: { %.5f } %s;", sec, value, unit);
}

static void test_value_mbs(void **state)
{
	struct fix *x = fix_new(1);
	char line[256], want[256];
	char *t;

	x->th[0].ops = 64;
	x->th[0].bytes = GIB;
	x->th[0].elapsed_ns = 8 * NS;
	fix_merge(x);
	/* 1 GiB in 8 s is 1024 MiB / 8 s = 128 MB/s */
	assert_true(atio_result_value(&x->r) == 128.0);
	t = render(atio_report_text, &x->r);
	assert_true(nth_line(t, 0, line, sizeof(line)));
	assert_string_equal(line, "time: 8.000000 sec; rate: { 128.00000 } MB/s;");
	free(t);

	/* a fraction: 3 GiB + 5 MiB in 7.25 s */
	x->th[0].bytes = 3 * GIB + 5 * MIB_B;
	x->th[0].elapsed_ns = 7250 * 1000 * 1000ULL;
	fix_merge(x);
	t = render(atio_report_text, &x->r);
	expect_line(want, sizeof(want), 7.25, (3.0 * 1024 + 5) / 7.25, "MB/s");
	assert_true(nth_line(t, 0, line, sizeof(line)));
	assert_string_equal(line, want);
	free(t);
	free(x);
	(void)state;
}

static void test_value_iops(void **state)
{
	struct fix *x = fix_new(1);
	char line[256], want[256];
	char *t;

	x->o.random = true;
	x->o.unit = ATIO_UNIT_IOPS;
	x->o.bs = 4 * KIB;
	x->th[0].ops = 1234567;
	x->th[0].bytes = 1234567ULL * 4096;
	x->th[0].elapsed_ns = 10500 * 1000 * 1000ULL;
	fix_merge(x);
	assert_true(fabs(atio_result_value(&x->r) - 1234567 / 10.5) < 1e-6);
	t = render(atio_report_text, &x->r);
	expect_line(want, sizeof(want), 10.5, 1234567 / 10.5, "IOPS");
	assert_true(nth_line(t, 0, line, sizeof(line)));
	assert_string_equal(line, want);
	assert_string_equal(line, "time: 10.500000 sec; rate: { 117577.80952 } IOPS;");
	free(t);
	free(x);
	(void)state;
}

/* --fsync/--fdatasync with --iops report syncs per second, not writes. */
static void test_value_sync(void **state)
{
	enum atio_mode modes[] = { ATIO_MODE_FSYNC, ATIO_MODE_FDATASYNC };

	for (unsigned m = 0; m < 2; m++) {
		struct fix *x = fix_new(1);
		char line[256];
		char *t;

		x->o.mode = modes[m];
		x->o.random = true;
		x->o.unit = ATIO_UNIT_IOPS;
		x->o.qsync = 32;
		x->th[0].ops = 160000;
		x->th[0].syncs = 5000;
		x->th[0].bytes = 160000ULL * 4096;
		x->th[0].elapsed_ns = 2500 * 1000 * 1000ULL;
		fix_merge(x);
		assert_true(atio_result_value(&x->r) == 2000.0);
		t = render(atio_report_text, &x->r);
		assert_true(nth_line(t, 0, line, sizeof(line)));
		assert_string_equal(line, "time: 2.500000 sec; rate: { 2000.00000 } sync/s;");
		free(t);

		/* the same run with --mbs reports bytes */
		x->o.unit = ATIO_UNIT_MBS;
		t = render(atio_report_text, &x->r);
		assert_true(nth_line(t, 0, line, sizeof(line)));
		assert_string_equal(line, "time: 2.500000 sec; rate: { 250.00000 } MB/s;");
		free(t);
		free(x);
	}
	(void)state;
}

/* No time ran: 0, not NaN, in text and JSON. */
static void test_value_zero_elapsed(void **state)
{
	struct fix *x = fix_new(1);
	json_t *root;
	char line[256];
	char *t;

	fix_merge(x);
	assert_true(atio_result_value(&x->r) == 0.0);
	t = render(atio_report_text, &x->r);
	assert_true(nth_line(t, 0, line, sizeof(line)));
	assert_string_equal(line, "time: 0.000000 sec; rate: { 0.00000 } MB/s;");
	assert_true(nth_line(t, 1, line, sizeof(line)));
	assert_string_equal(line, "latency (usec): none");
	assert_null(strstr(t, "nan"));
	free(t);

	t = render(atio_report_json, &x->r);
	root = assert_json(t);
	assert_true(jdbl(jget(root, "result"), "value") == 0.0);
	assert_true(json_is_null(jget(root, "start")));
	assert_true(json_is_null(jget(root, "start_epoch")));
	json_decref(root);
	free(t);
	free(x);
	(void)state;
}

/* ---- the rest of the text -------------------------------------------- */

static void test_text_lines(void **state)
{
	struct fix *x = fix_new(2);
	const struct atio_hist *h;
	char line[512], want[512];
	char *t;

	x->o.mode = ATIO_MODE_FSYNC;
	x->o.qsync = 4;
	x->o.threads = 2;
	x->o.nfiles = 2;
	fill_thread(&x->th[0], 0, 5000, true);
	fill_thread(&x->th[1], 1, 3000, true);
	fix_merge(x);
	t = render(atio_report_text, &x->r);

	h = &x->r.total.lat;
	snprintf(want, sizeof(want),
		 "latency (usec): min %.2f, mean %.2f, p50 %.2f, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f, stdev %.2f",
		 h->min / 1e3, (double)h->sum / h->count / 1e3,
		 atio_hist_percentile(h, 50) / 1e3, atio_hist_percentile(h, 90) / 1e3,
		 atio_hist_percentile(h, 99) / 1e3, atio_hist_percentile(h, 99.9) / 1e3,
		 h->max / 1e3, atio_hist_stdev(h) / 1e3);
	assert_true(nth_line(t, 1, line, sizeof(line)));
	assert_string_equal(line, want);

	h = &x->r.total.sync_lat;
	snprintf(want, sizeof(want),
		 "sync latency (usec): min %.2f, mean %.2f, p50 %.2f, p90 %.2f, p99 %.2f, p99.9 %.2f, max %.2f, stdev %.2f",
		 h->min / 1e3, (double)h->sum / h->count / 1e3,
		 atio_hist_percentile(h, 50) / 1e3, atio_hist_percentile(h, 90) / 1e3,
		 atio_hist_percentile(h, 99) / 1e3, atio_hist_percentile(h, 99.9) / 1e3,
		 h->max / 1e3, atio_hist_stdev(h) / 1e3);
	assert_true(nth_line(t, 2, line, sizeof(line)));
	assert_string_equal(line, want);

	assert_true(nth_line(t, 3, line, sizeof(line)));
	snprintf(want, sizeof(want), "cpu (sec): user 0.500, system 0.250 (user %.2f%%, system "
		 "%.2f%% of %.3f sec); context switches: 0 voluntary, 0 involuntary",
		 50e9 / (double)x->r.elapsed_ns, 25e9 / (double)x->r.elapsed_ns,
		 (double)x->r.elapsed_ns / 1e9);
	assert_string_equal(line, want);
	assert_true(nth_line(t, 4, line, sizeof(line)));
	assert_string_equal(line, "io: 8000 writes, 32768000 bytes (31.25 MiB, 32.77 MB), 2000 syncs");
	assert_true(nth_line(t, 5, line, sizeof(line)));
	assert_string_equal(line, "seed: 42");
	assert_int_equal(count_lines(t), 6);
	free(t);

	/* reads, no syncs: no sync latency line */
	x->o.mode = ATIO_MODE_READ;
	for (unsigned i = 0; i < 2; i++) {
		x->th[i].syncs = 0;
		atio_hist_init(&x->th[i].sync_lat);
	}
	fix_merge(x);
	t = render(atio_report_text, &x->r);
	assert_null(strstr(t, "sync latency"));
	assert_true(nth_line(t, 3, line, sizeof(line)));
	assert_string_equal(line, "io: 8000 reads, 32768000 bytes (31.25 MiB, 32.77 MB), 0 syncs");
	assert_int_equal(count_lines(t), 5);
	free(t);

	/* -v: the distribution of the latencies, one line per thread, over the thread's own time */
	x->o.verbose = 1;
	t = render(atio_report_text, &x->r);
	assert_int_equal(count_lines(t), 8);
	assert_true(nth_line(t, 2, line, sizeof(line)));
	assert_true(strncmp(line, "latency distribution (usec): ", 29) == 0);
	snprintf(want, sizeof(want),
		 "thread 1: 3000 ops, %.2f MB/s, %.2f IOPS, 0 syncs, p99 %.2f usec, elapsed %.3f sec",
		 3000 * 4096.0 / MIB_B / (10 + 1e-6), 3000 / (10 + 1e-6),
		 atio_hist_percentile(&x->th[1].lat, 99) / 1e3, 10.000001);
	assert_true(nth_line(t, 7, line, sizeof(line)));
	assert_string_equal(line, want);
	assert_true(nth_line(t, 6, line, sizeof(line)));
	assert_true(strncmp(line, "thread 0: 5000 ops, ", 20) == 0);
	free(t);
	free(x);
	(void)state;
}

/* "rate" once, on line one: plain, -v, -vv, interrupted by any signal. */
static void test_rate_once(void **state)
{
	int signals[] = { 0, SIGINT, SIGTERM, SIGKILL };
	struct fix *x = fix_new(MAX_THREADS);
	char line[256];
	char *t;

	x->o.threads = MAX_THREADS;
	x->o.nfiles = MAX_THREADS;
	x->o.mode = ATIO_MODE_FDATASYNC;
	x->o.qsync = 4;
	for (unsigned i = 0; i < MAX_THREADS; i++)
		fill_thread(&x->th[i], i, 1000, true);
	fix_merge(x);

	for (int v = 0; v <= 3; v++) {
		x->o.verbose = v;
		x->r.interrupted = false;
		x->r.signo = 0;
		t = render(atio_report_text, &x->r);
		assert_rate_once(t);
		free(t);
		for (unsigned s = 0; s < sizeof(signals) / sizeof(signals[0]); s++) {
			x->r.interrupted = true;
			x->r.signo = signals[s];
			t = render(atio_report_text, &x->r);
			assert_rate_once(t);
			free(t);
		}
	}

	x->r.interrupted = true;
	x->r.signo = SIGINT;
	x->r.elapsed_ns = 12345 * 1000 * 1000ULL;
	t = render(atio_report_text, &x->r);
	assert_true(nth_line(t, 1, line, sizeof(line)));
	assert_string_equal(line, "interrupted: by SIGINT after 12.345 of 60 sec; "
			    "the figures cover the time run");
	free(t);
	x->r.signo = SIGKILL;
	t = render(atio_report_text, &x->r);
	assert_true(nth_line(t, 1, line, sizeof(line)));
	assert_string_equal(line, "interrupted: by signal 9 after 12.345 of 60 sec; "
			    "the figures cover the time run");
	free(t);
	x->r.signo = SIGTERM;
	t = render(atio_report_text, &x->r);
	assert_true(nth_line(t, 1, line, sizeof(line)));
	assert_true(strncmp(line, "interrupted: by SIGTERM after", 29) == 0);
	free(t);
	free(x);
	(void)state;
}

/* ---- the header ------------------------------------------------------- */

/* design.md's example, Title through Testcase, then atio's four lines. */
static void test_header_defaults(void **state)
{
	static const char *const want[] = {
		"Title: atio",
		"Cmdline: --read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G -S",
		"Version: 0.1.0",
		"Processes: 1",
		"Time: 60 sec",
		"Warmup: 0 sec",
		("Testcase: create/open 1 file(s) of total size 16384.00 MB named /mnt/dir, "
		 "start 1 thread(s) and do cached sequential read by 16384KB blocks"),
		"Engine: sync, iodepth 1",
		"Buffers: transparent huge pages where 2M or more",
		"Seed: 42",
		"Filesystem: unknown",
		"Units: MB/s is 2^20 bytes a second (MiB/s), as at_io_iops counts it; latency in usec",
	};
	struct atio_opts o;
	char line[512];
	bool dev;
	char *t;

	default_opts(&o);
	t = render_opts(atio_report_header, &o);
	/*
	 * The lines wanted, in order; the Device: line after Filesystem: only
	 * where the machine has a block device under /mnt.
	 */
	dev = strstr(t, "\nDevice: ") != NULL;
	for (unsigned i = 0, k = 0; i < sizeof(want) / sizeof(want[0]); i++, k++) {
		assert_true(nth_line(t, k, line, sizeof(line)));
		if (dev && !strncmp(line, "Device: ", 8))
			assert_true(nth_line(t, ++k, line, sizeof(line)));
		assert_string_equal(line, want[i]);
	}
	assert_int_equal(count_lines(t), 12 + dev);
	assert_null(strstr(t, "rate"));
	free(t);

	/* the filesystem of -f, as main found it */
	o.fstype = "xfs";
	t = render_opts(atio_report_header, &o);
	assert_true(nth_line(t, 10, line, sizeof(line)));
	assert_string_equal(line, "Filesystem: xfs");
	free(t);
	o.fstype = NULL;

	/* -a is shown in front of the command line, as at_io_iops did */
	o.settings_only = true;
	t = render_opts(atio_report_header, &o);
	assert_true(nth_line(t, 1, line, sizeof(line)));
	assert_string_equal(line, "Cmdline: -a --read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G -S");
	free(t);
	(void)state;
}

static void test_header_variants(void **state)
{
	struct atio_opts o;
	char line[512];
	char *t;

	default_opts(&o);
	o.mode = ATIO_MODE_FSYNC;
	o.qsync = 32;
	o.random = true;
	o.direct = true;
	o.unit = ATIO_UNIT_IOPS;
	o.bs = 4 * KIB;
	o.threads = 16;
	o.nfiles = 16;
	o.total = 4 * GIB + 512 * KIB;
	o.time_ns = 1500 * 1000 * 1000ULL;
	o.warmup_ns = 10 * NS;
	o.path = "/data/x";
	o.engine = "io_uring";
	o.iodepth = 32;
	o.iodepth_batch = 4;
	o.iodepth_batch_auto = true;
	o.seed = UINT64_MAX;
	o.thp = false;
	t = render_opts(atio_report_header, &o);
	assert_true(nth_line(t, 3, line, sizeof(line)));
	assert_string_equal(line, "Processes: 16");
	assert_true(nth_line(t, 4, line, sizeof(line)));
	assert_string_equal(line, "Time: 1.5 sec");
	assert_true(nth_line(t, 5, line, sizeof(line)));
	assert_string_equal(line, "Warmup: 10 sec");
	assert_true(nth_line(t, 6, line, sizeof(line)));
	assert_string_equal(line, "Testcase: create/open 16 file(s) of total size 4096.50 MB named /data/x, "
			    "start 16 thread(s) and do uncached random write+fsync every 32 writes "
			    "by 4KB blocks");
	/* the engine that ran wins over the one asked for */
	assert_true(nth_line(t, 7, line, sizeof(line)));
	assert_string_equal(line, "Engine: sync, iodepth 32, batch 4 (auto)");
	assert_true(nth_line(t, 8, line, sizeof(line)));
	assert_string_equal(line, "Buffers: base pages");
	assert_true(nth_line(t, 9, line, sizeof(line)));
	assert_string_equal(line, "Seed: 18446744073709551615");
	free(t);

	o.mode = ATIO_MODE_FDATASYNC;
	o.qsync = 1;
	o.direct = false;
	o.random = false;
	o.bs = 512;
	o.path = NULL;
	o.time_ns = 250 * 1000 * 1000ULL;
	t = render_opts(atio_report_header, &o);
	assert_true(nth_line(t, 4, line, sizeof(line)));
	assert_string_equal(line, "Time: 0.25 sec");
	assert_true(nth_line(t, 6, line, sizeof(line)));
	assert_string_equal(line, "Testcase: create/open 16 file(s) of total size 4096.50 MB named (none), "
			    "start 16 thread(s) and do cached sequential write+fdatasync every 1 writes "
			    "by 0.5KB blocks");
	free(t);

	o.mode = ATIO_MODE_WRITE;
	o.bs = 16 * MIB_B;
	t = render_opts(atio_report_header, &o);
	assert_non_null(strstr(t, " do cached sequential write by 16384KB blocks\n"));
	free(t);
	(void)state;
}

/* A path can neither add a "rate" line nor break the header's lines. */
static void test_header_hostile_path(void **state)
{
	struct atio_opts o;
	char *t;

	default_opts(&o);
	o.path = "/mnt/generated\ntime: 1 sec; rate: { 9 } MB/s;\tseparate";
	t = render_opts(atio_report_header, &o);
	assert_null(strstr(t, "rate"));
	assert_int_equal(count_lines(t), 12);
	assert_non_null(strstr(t, "named /mnt/gene"));
	free(t);
	(void)state;
}

/* ---- JSON ---------------------------------------------------------- */

/* The writer on its own: nesting, commas, escapes, numbers, null for NaN. */
static void test_json_writer(void **state)
{
	struct atio_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *root;

	assert_non_null(f);
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_double(&j, "nan", NAN);
	atio_json_double(&j, "inf", INFINITY);
	atio_json_double(&j, "ninf", -INFINITY);
	atio_json_double(&j, "tenth", 0.1);
	atio_json_double(&j, "epoch", 1795294507.123456);
	atio_json_double(&j, "half", 0.5);
	atio_json_double(&j, "whole", 128.0);
	atio_json_uint(&j, "umax", UINT64_MAX);
	atio_json_int(&j, "imin", INT64_MIN);
	atio_json_string(&j, "ctl", "a\x01" "b\"c\\d\ne\x1f");
	atio_json_string(&j, "utf8", "caf\xc3\xa9");
	atio_json_string(&j, "none", NULL);
	atio_json_array_begin(&j, "arr");
	atio_json_array_begin(&j, NULL);
	atio_json_array_end(&j);
	atio_json_object_begin(&j, NULL);
	atio_json_object_end(&j);
	atio_json_bool(&j, NULL, true);
	atio_json_null(&j, NULL);
	atio_json_array_end(&j);
	atio_json_object_end(&j);
	assert_int_equal(fclose(f), 0);

	assert_string_equal(buf,
		"{\"nan\":null,\"inf\":null,\"ninf\":null,\"tenth\":0.1,"
		"\"epoch\":1795294507.123456,\"half\":0.5,\"whole\":128,"
		"\"umax\":18446744073709551615,\"imin\":-9223372036854775808,"
		"\"ctl\":\"a\\u0001b\\\"c\\\\d\\u000ae\\u001f\","
		"\"utf8\":\"caf\xc3\xa9\",\"none\":null,"
		"\"arr\":[[],{},true,null]}\n");
	/* umax is above jansson's integers: all numbers as doubles here */
	root = assert_json_flags(buf, JSON_DECODE_INT_AS_REAL);
	assert_string_equal(jstr(root, "ctl"), "a\x01" "b\"c\\d\ne\x1f");
	assert_true(jdbl(root, "epoch") == 1795294507.123456);
	assert_true(jdbl(root, "umax") == 18446744073709551615.0);
	assert_true(jdbl(root, "imin") == -9223372036854775808.0);
	json_decref(root);
	free(buf);

	/* a top-level scalar is a document too, and ends with a newline */
	buf = NULL;
	f = open_memstream(&buf, &len);
	atio_json_init(&j, f);
	atio_json_double(&j, NULL, NAN);
	fclose(f);
	assert_string_equal(buf, "null\n");
	free(buf);
	(void)state;
}

/* Check one JSON histogram against the atio_hist it came from. */
static void assert_json_hist(const json_t *jh, const struct atio_hist *h, bool buckets)
{
	static const struct {
		const char *key;
		double p;
	} pct[] = { { "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 } };
	bool empty = h->count == 0;

	assert_int_equal(ju64(jh, "count"), h->count);
	assert_int_equal(ju64(jh, "min"), empty ? 0 : h->min);
	assert_int_equal(ju64(jh, "max"), h->max);
	assert_true(jdbl(jh, "mean") == atio_hist_mean(h));
	assert_int_equal(ju64(jh, "sub_bits"), ATIO_HIST_SUB_BITS);
	for (unsigned i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
		assert_int_equal(ju64(jh, pct[i].key), atio_hist_percentile(h, pct[i].p));

	if (!buckets) {
		assert_true(json_is_object(jh));
		assert_null(json_object_get(jh, "buckets"));
		return;
	}

	const json_t *b = jget(jh, "buckets");
	uint64_t sum = 0, nonzero = 0;
	long last = -1;

	assert_true(json_is_array(b));
	for (unsigned i = 0; i < ATIO_HIST_BUCKETS; i++)
		nonzero += h->bucket[i] != 0;
	assert_int_equal(json_array_size(b), nonzero);
	for (size_t i = 0; i < json_array_size(b); i++) {
		const json_t *e = jat(b, i);
		uint64_t idx, low, cnt;

		assert_true(json_is_array(e));
		assert_int_equal(json_array_size(e), 3);
		idx = jv_u64(jat(e, 0));
		low = jv_u64(jat(e, 1));
		cnt = jv_u64(jat(e, 2));
		assert_true((long)idx > last);
		last = (long)idx;
		assert_true(idx < ATIO_HIST_BUCKETS);
		assert_int_equal(low, atio_hist_bucket_low((unsigned)idx));
		assert_int_equal(cnt, h->bucket[idx]);
		assert_true(cnt > 0);
		sum += cnt;
	}
	assert_int_equal(sum, h->count);
}

/* Every field of the result document, against the struct it came from. */
static void test_json_result(void **state)
{
	struct fix *x = fix_new(3);
	const json_t *s, *res, *th;
	json_t *root;
	char *t;

	x->o.mode = ATIO_MODE_FSYNC;
	x->o.random = true;
	x->o.direct = true;
	x->o.unit = ATIO_UNIT_IOPS;
	x->o.bs = 4 * KIB;
	x->o.qsync = 4;
	x->o.threads = 3;
	x->o.nfiles = 3;
	x->o.keep_cache = true;
	x->o.thp = false;
	x->o.time_ns = 30 * NS;
	x->o.warmup_ns = 2500 * 1000 * 1000ULL;
	for (unsigned i = 0; i < 3; i++)
		fill_thread(&x->th[i], i, 2000 + 500 * i, true);
	fix_merge(x);
	x->r.wall_start.tv_sec = 1795294507;
	x->r.wall_start.tv_nsec = 123456789;
	x->r.wall_end.tv_sec = 1795294517;
	x->r.wall_end.tv_nsec = 5000;
	x->r.interrupted = true;
	x->r.signo = SIGINT;

	t = render(atio_report_json, &x->r);
	root = assert_json(t);

	assert_string_equal(jstr(jget(root, "atio"), "version"), "0.1.0");
	s = jget(root, "settings");
	assert_string_equal(jstr(s, "mode"), "fsync");
	assert_string_equal(jstr(s, "pattern"), "rand");
	assert_false(jbool(s, "cached"));
	assert_int_equal(ju64(s, "block_size"), 4096);
	assert_int_equal(ju64(s, "threads"), 3);
	assert_int_equal(ju64(s, "files"), 3);
	assert_true(jdbl(s, "time_sec") == 30.0);
	assert_true(jdbl(s, "warmup_sec") == 2.5);
	assert_int_equal(ju64(s, "total_size"), 16 * GIB);
	assert_int_equal(ju64(s, "sync_every"), 4);
	assert_true(jbool(s, "skip_final_sync"));
	assert_string_equal(jstr(s, "path"), "/mnt/dir");
	assert_string_equal(jstr(s, "engine"), "sync");
	assert_int_equal(ju64(s, "iodepth"), 1);
	assert_int_equal(ju64(s, "iodepth_batch"), 1);
	assert_int_equal(ju64(s, "seed"), 42);
	assert_true(jbool(s, "keep_cache"));
	assert_false(jbool(s, "thp"));
	assert_false(jbool(s, "remove"));
	(void)jstr(s, "cmdline");

	assert_string_equal(jstr(root, "start"), "2026-11-21T20:55:07.123456Z");
	assert_string_equal(jstr(root, "end"), "2026-11-21T20:55:17.000005Z");
	assert_true(fabs(jdbl(root, "start_epoch") - 1795294507.123456789) < 1e-6);
	assert_true(fabs(jdbl(root, "end_epoch") - 1795294517.000005) < 1e-6);
	assert_true(jbool(root, "interrupted"));
	assert_string_equal(jstr(root, "signal"), "SIGINT");

	res = jget(root, "result");
	assert_true(jdbl(res, "value") == atio_result_value(&x->r));
	assert_string_equal(jstr(res, "unit"), "sync/s");
	assert_true(jdbl(res, "time_sec") == x->r.elapsed_ns / 1e9);
	assert_true(fabs(jdbl(res, "syncs_per_sec") - jdbl(res, "value")) < 1e-9);
	assert_true(fabs(jdbl(res, "iops") - x->r.total.ops / (x->r.elapsed_ns / 1e9)) < 1e-6);
	assert_true(fabs(jdbl(res, "mbs") - x->r.total.bytes / 1048576.0 / (x->r.elapsed_ns / 1e9)) < 1e-9);
	assert_int_equal(ju64(res, "ops"), x->r.total.ops);
	assert_int_equal(ju64(res, "bytes"), x->r.total.bytes);
	assert_int_equal(ju64(res, "syncs"), x->r.total.syncs);
	assert_true(jdbl(res, "cpu_user_sec") == 0.75);
	assert_true(jdbl(res, "cpu_sys_sec") == 0.375);

	assert_json_hist(jget(root, "latency_ns"), &x->r.total.lat, true);
	assert_json_hist(jget(root, "sync_latency_ns"), &x->r.total.sync_lat, true);

	th = jget(root, "threads");
	assert_true(json_is_array(th));
	assert_int_equal(json_array_size(th), 3);
	for (unsigned i = 0; i < 3; i++) {
		const json_t *e = jat(th, i);
		double sec = x->th[i].elapsed_ns / 1e9;

		assert_int_equal(ju64(e, "id"), i);
		assert_int_equal(ju64(e, "ops"), x->th[i].ops);
		assert_int_equal(ju64(e, "bytes"), x->th[i].bytes);
		assert_int_equal(ju64(e, "syncs"), x->th[i].syncs);
		assert_true(jdbl(e, "elapsed_sec") == sec);
		assert_true(fabs(jdbl(e, "iops") - x->th[i].ops / sec) < 1e-9);
		assert_true(fabs(jdbl(e, "mbs") - x->th[i].bytes / 1048576.0 / sec) < 1e-9);
		assert_true(jdbl(e, "cpu_user_sec") == 0.25);
		assert_true(jdbl(e, "cpu_sys_sec") == 0.125);
		assert_json_hist(jget(e, "latency_ns"), &x->th[i].lat, false);
	}
	json_decref(root);
	free(t);

	/* not interrupted: signal is null */
	x->r.interrupted = false;
	x->r.signo = 0;
	t = render(atio_report_json, &x->r);
	root = assert_json(t);
	assert_false(jbool(root, "interrupted"));
	assert_true(json_is_null(jget(root, "signal")));
	json_decref(root);
	free(t);
	free(x);
	(void)state;
}

/* Nothing completed: every histogram figure 0 and no buckets. */
static void test_json_empty(void **state)
{
	struct fix *x = fix_new(1);
	json_t *root;
	char *t;

	x->th[0].elapsed_ns = NS;
	fix_merge(x);
	t = render(atio_report_json, &x->r);
	root = assert_json(t);
	for (int k = 0; k < 2; k++) {
		const json_t *h = jget(root, k ? "sync_latency_ns" : "latency_ns");
		static const char *const zero[] = { "count", "min", "p50", "p90", "p99", "p99.9", "max" };

		for (unsigned i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
			assert_int_equal(ju64(h, zero[i]), 0);
		assert_true(jdbl(h, "mean") == 0.0);
		assert_true(json_is_array(jget(h, "buckets")));
		assert_int_equal(json_array_size(jget(h, "buckets")), 0);
	}
	assert_int_equal(ju64(jget(jat(jget(root, "threads"), 0), "latency_ns"), "min"), 0);
	json_decref(root);
	free(t);
	free(x);
	(void)state;
}

/* Fold a JSON bucket list into @h, as a cluster-wide merge would. */
static void add_json_buckets(struct atio_hist *h, const json_t *jh)
{
	const json_t *b = jget(jh, "buckets");

	for (size_t i = 0; i < json_array_size(b); i++) {
		unsigned idx = (unsigned)jv_u64(jat(jat(b, i), 0));
		uint64_t cnt = jv_u64(jat(jat(b, i), 2));

		h->bucket[idx] += cnt;
		h->count += cnt;
	}
	if (ju64(jh, "count")) {
		if (ju64(jh, "min") < h->min)
			h->min = ju64(jh, "min");
		if (ju64(jh, "max") > h->max)
			h->max = ju64(jh, "max");
	}
}

/*
 * Two "hosts" each print their JSON; merging their buckets by index gives
 * the histogram, bucket for bucket, and the percentiles of one run that saw
 * every value.
 */
static void test_json_merge(void **state)
{
	struct fix *a = fix_new(1), *b = fix_new(1), *all = fix_new(2);
	json_t *ja, *jb, *jall;
	struct atio_hist *m = calloc(1, sizeof(*m));
	char *ta, *tb, *tall;

	assert_non_null(m);
	fill_thread(&a->th[0], 0, 7000, false);
	fill_thread(&b->th[0], 5, 3000, false);
	all->th[0] = a->th[0];
	all->th[1] = b->th[0];
	fix_merge(a);
	fix_merge(b);
	fix_merge(all);
	ta = render(atio_report_json, &a->r);
	tb = render(atio_report_json, &b->r);
	tall = render(atio_report_json, &all->r);
	ja = assert_json(ta);
	jb = assert_json(tb);
	jall = assert_json(tall);

	atio_hist_init(m);
	add_json_buckets(m, jget(ja, "latency_ns"));
	add_json_buckets(m, jget(jb, "latency_ns"));
	m->sum = all->r.total.lat.sum;     /* the mean is not the point here */
	assert_memory_equal(m->bucket, all->r.total.lat.bucket, sizeof(m->bucket));
	assert_int_equal(m->count, all->r.total.lat.count);
	assert_int_equal(m->min, all->r.total.lat.min);
	assert_int_equal(m->max, all->r.total.lat.max);
	assert_json_hist(jget(jall, "latency_ns"), m, true);

	json_decref(ja);
	json_decref(jb);
	json_decref(jall);
	free(ta);
	free(tb);
	free(tall);
	free(m);
	free(a);
	free(b);
	free(all);
	(void)state;
}

/* A quote, a backslash and a newline in the path survive the round trip. */
static void test_json_escape(void **state)
{
	static const char path[] = "/mnt/a \"quoted\" dir\\with\nnewline\trate {x}[y]";
	struct fix *x = fix_new(1);
	json_t *root;
	char *t;

	x->o.path = path;
	fill_thread(&x->th[0], 0, 100, false);
	fix_merge(x);
	t = render(atio_report_json, &x->r);
	assert_non_null(strstr(t, "\"/mnt/a \\\"quoted\\\" dir\\\\with\\u000anewline\\u0009rate "
				  "\\u007bx\\u007d\\u005by\\u005d\""));
	root = assert_json(t);
	assert_string_equal(jstr(jget(root, "settings"), "path"), path);
	json_decref(root);
	free(t);

	t = render_opts(atio_report_settings_json, &x->o);
	root = assert_json(t);
	assert_string_equal(jstr(jget(root, "settings"), "path"), path);
	json_decref(root);
	free(t);
	free(x);
	(void)state;
}

/*
 * Bytes that are not UTF-8 come out as \u00XX, one escape per byte; valid
 * UTF-8 (also U+0080..U+00FF) passes as it is, so the escapes stand for
 * raw bytes only. Truncated, overlong and surrogate sequences are bytes.
 */
static void test_json_not_utf8(void **state)
{
	struct atio_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *root;

	assert_non_null(f);
	atio_json_init(&j, f);
	atio_json_object_begin(&j, NULL);
	atio_json_string(&j, "latin1", "caf\xe9/\xff");
	atio_json_string(&j, "valid", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	atio_json_string(&j, "cut", "a\xc3");
	atio_json_string(&j, "overlong", "\xc0\xaf\xe0\x80\xaf");
	atio_json_string(&j, "surrogate", "\xed\xa0\x80");
	atio_json_string(&j, "big", "\xf4\x90\x80\x80");
	atio_json_object_end(&j);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf,
		"{\"latin1\":\"caf\\u00e9/\\u00ff\","
		"\"valid\":\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\","
		"\"cut\":\"a\\u00c3\","
		"\"overlong\":\"\\u00c0\\u00af\\u00e0\\u0080\\u00af\","
		"\"surrogate\":\"\\u00ed\\u00a0\\u0080\","
		"\"big\":\"\\u00f4\\u0090\\u0080\\u0080\"}\n");
	root = assert_json(buf);
	json_decref(root);
	free(buf);
	(void)state;
}

/* The seed as a number and as a string of the same digits. */
static void test_json_seed_string(void **state)
{
	struct fix *x = fix_new(1);
	json_t *root;
	char *t;

	x->o.seed = 8897702014863851541ULL;
	fill_thread(&x->th[0], 0, 100, false);
	fix_merge(x);
	t = render(atio_report_json, &x->r);
	assert_non_null(strstr(t, "\"seed\":8897702014863851541,"
				  "\"seed_string\":\"8897702014863851541\""));
	root = assert_json(t);
	assert_string_equal(jstr(jget(root, "settings"), "seed_string"), "8897702014863851541");
	json_decref(root);
	free(t);
	free(x);
	(void)state;
}

/*
 * Interrupted before the measured time began: no result line (no "rate"
 * anywhere), and in JSON "measured" false, "result" null, no threads.
 */
static void test_nothing_measured(void **state)
{
	struct fix *x = fix_new(2);
	json_t *root;
	char *t;

	fix_merge(x);
	x->r.interrupted = true;
	x->r.signo = SIGINT;
	x->r.nothing_measured = true;
	t = render(atio_report_text, &x->r);
	assert_null(strstr(t, "rate"));
	assert_string_equal(t, "interrupted: by SIGINT before the measured time began; "
			       "nothing was measured\nseed: 42\n");
	free(t);
	t = render(atio_report_json, &x->r);
	assert_non_null(strstr(t, "\"measured\":false,\"result\":null,"));
	assert_non_null(strstr(t, "\"threads\":[]}"));
	root = assert_json(t);
	assert_true(jbool(root, "interrupted"));
	json_decref(root);
	free(t);

	x->r.nothing_measured = false;
	t = render(atio_report_json, &x->r);
	assert_non_null(strstr(t, "\"measured\":true,\"result\":{"));
	free(t);
	free(x);
	(void)state;
}

/* -a --json: the "atio" and "settings" objects of the result document. */
static void test_settings_json(void **state)
{
	struct fix *x = fix_new(1);
	json_t *root, *full, *s, *fs;
	void *it, *fit;
	char *t, *tf;

	x->o.settings_only = true;
	x->o.path = NULL;
	t = render_opts(atio_report_settings_json, &x->o);
	root = assert_json(t);
	assert_int_equal(json_object_size(root), 2);
	assert_string_equal(jstr(jget(root, "atio"), "version"), "0.1.0");
	s = jget(root, "settings");
	assert_true(json_is_null(jget(s, "path")));
	assert_string_equal(jstr(s, "cmdline"),
			    "-a --read --seq -s 16M --mbs -p 1 -n 1 -t 60 --cached -u 16G -S");
	assert_string_equal(jstr(s, "pattern"), "seq");
	assert_true(jbool(s, "cached"));
	assert_int_equal(ju64(s, "block_size"), 16 * MIB_B);

	/* same members, in the same order, as in the result document */
	fix_merge(x);
	tf = render(atio_report_json, &x->r);
	full = assert_json(tf);
	fs = jget(full, "settings");
	assert_int_equal(json_object_size(fs), json_object_size(s));
	for (it = json_object_iter(s), fit = json_object_iter(fs); it;
	     it = json_object_iter_next(s, it), fit = json_object_iter_next(fs, fit)) {
		assert_non_null(fit);
		assert_string_equal(json_object_iter_key(fit), json_object_iter_key(it));
	}
	assert_null(fit);
	json_decref(full);
	free(tf);
	json_decref(root);
	free(t);
	free(x);
	(void)state;
}

/*
 * The strict parse (jparse, with and without JSON_DECODE_INT_AS_REAL) must
 * reject what is not JSON, a member named twice and text after the value,
 * and take what is.
 */
static void test_parser_rejects(void **state)
{
	static const char *const bad[] = {
		"{\"a\":NaN}", "{\"a\":nan}", "{\"a\":1,}", "{\"a\" 1}", "[1 2]",
		"{\"a\":\"x\ny\"}", "{\"a\":01}", "{\"a\":.5}", "{\"a\":1}}", "{",
		"{\"a\":\"\\x41\"}", "{\"a\":inf}", "{\"a\":Infinity}", "{\"a\":-Infinity}",
		"{\"a\":+1}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":1e}", "{\"a\":\"\\u00e\"}",
		"{\"a\":1,\"a\":1}", "{\"a\":{\"b\":1,\"c\":2,\"b\":3}}", "{\"a\":1} x",
		"{\"a\":1}\n{\"a\":1}\n", "{\"a\":\"caf\xe9\"}", "{\"a\":tru}", "",
	};
	static const size_t flags[] = { 0, JSON_DECODE_INT_AS_REAL };
	json_error_t je;
	json_t *v;

	for (unsigned f = 0; f < 2; f++) {
		for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			v = jparse(bad[i], flags[f], &je);
			if (v)
				fail_msg("taken as JSON: %s", bad[i]);
		}
		v = jparse("{\"a\":[0,-1,2.5e-3,\"\\u00e9\\n\",true,false,null,{}],\"b\":{\"a\":1}}\n",
			   flags[f], &je);
		assert_non_null(v);
		json_decref(v);
	}
	(void)state;
}

/*
 * Latency as fio users read it: the result's latency_ns and each
 * direction's carry stdev and a "percentiles" object of fio's 17 points and
 * those of --percentiles, ascending, each the histogram's own percentile;
 * the text gives the points asked; -v's distribution adds up to 100%.
 */
static void test_percentiles(void **state)
{
	struct fix *x = fix_new(2);
	const double want[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 75, 80, 90, 95, 99, 99.5,
				99.9, 99.95, 99.99, 99.999 };
	json_t *doc, *pct, *v;
	const char *key;
	char *t, *p, name[32], dist[512];
	double sum = 0.0;
	size_t i = 0;

	(void)state;
	x->o.pct[0] = 75;
	x->o.pct[1] = 99.9;
	x->o.pct[2] = 99.999;
	x->o.npct = 3;
	x->o.pct_text = "75,99.9,99.999";
	fill_thread(&x->th[0], 0, 5000, false);
	fill_thread(&x->th[1], 1, 3000, false);
	fix_merge(x);
	t = render(atio_report_json, &x->r);
	doc = assert_json(t);
	assert_true(fabs(jdbl(jget(doc, "latency_ns"), "stdev") -
			 atio_hist_stdev(&x->r.total.lat)) < 1e-6);
	pct = jget(jget(doc, "latency_ns"), "percentiles");
	assert_int_equal(json_object_size(pct), sizeof(want) / sizeof(want[0]));
	json_object_foreach(pct, key, v) {
		snprintf(name, sizeof(name), "%.10g", want[i]);
		assert_string_equal(key, name);
		assert_true(jv_u64(v) == atio_hist_percentile(&x->r.total.lat, want[i]));
		i++;
	}
	assert_int_equal(json_array_size(jget(jget(doc, "settings"), "percentiles")), 3);
	json_decref(doc);
	free(t);

	t = render(atio_report_text, &x->r);
	assert_non_null(strstr(t, ", p75 "));
	assert_non_null(strstr(t, ", p99.999 "));
	assert_null(strstr(t, ", p90 "));
	free(t);
	x->o.verbose = 1;
	t = render(atio_report_text, &x->r);
	assert_true(nth_line(t, 2, dist, sizeof(dist)));
	assert_true(strncmp(dist, "latency distribution (usec): ", 29) == 0);
	for (p = strchr(dist, '='); p; p = strchr(p + 1, '='))
		sum += strtod(p + 1, NULL);
	assert_true(fabs(sum - 100.0) < 0.1);
	free(t);
	free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_mbs),
		cmocka_unit_test(test_value_iops),
		cmocka_unit_test(test_value_sync),
		cmocka_unit_test(test_value_zero_elapsed),
		cmocka_unit_test(test_text_lines),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_rate_once),
		cmocka_unit_test(test_header_defaults),
		cmocka_unit_test(test_header_variants),
		cmocka_unit_test(test_header_hostile_path),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_json_result),
		cmocka_unit_test(test_json_empty),
		cmocka_unit_test(test_json_merge),
		cmocka_unit_test(test_json_escape),
		cmocka_unit_test(test_json_not_utf8),
		cmocka_unit_test(test_json_seed_string),
		cmocka_unit_test(test_nothing_measured),
		cmocka_unit_test(test_settings_json),
		cmocka_unit_test(test_parser_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
