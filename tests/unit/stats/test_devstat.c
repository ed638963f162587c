/* SPDX-License-Identifier: MIT */
/*
 * A device's figures from two snapshots of its stat file: the 11, 15 and 17
 * field sets of the kernels, a shorter set kept as far as it goes, and a
 * counter that went backwards (wrapped) refused as unknown.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "atio/stats/devstat.h"

/* One second apart. */
static void snaps(const char *a, const char *b, struct atio_devsnap *sa, struct atio_devsnap *sb)
{
	sa->ns = 1000000000ull;
	sb->ns = 2000000000ull;
	assert_true(atio_devsnap_parse(a, sa) > 0);
	assert_true(atio_devsnap_parse(b, sb) > 0);
}

static void test_parse(void **state)
{
	struct atio_devsnap s;

	(void)state;
	assert_int_equal(atio_devsnap_parse("  1 2 3 4 5 6 7 8 0 10 11\n", &s), 11);
	assert_int_equal(s.n, 11);
	assert_true(s.f[ATIO_DS_TIME_IN_QUEUE] == 11);
	assert_int_equal(atio_devsnap_parse("1 2 3 4 5 6 7 8 0 10 11 12 13 14 15", &s), 15);
	assert_int_equal(atio_devsnap_parse("1 2 3 4 5 6 7 8 0 10 11 12 13 14 15 16 17\n", &s), 17);
	assert_true(s.f[ATIO_DS_FLUSH_TICKS] == 17);
	assert_int_equal(atio_devsnap_parse("18446744073709551615 2", &s), 2);
	assert_true(s.f[0] == 18446744073709551615ull);
	assert_int_equal(atio_devsnap_parse("", &s), -1);
	assert_int_equal(atio_devsnap_parse("\n", &s), -1);
	assert_int_equal(atio_devsnap_parse("1 2 x", &s), -1);
	assert_int_equal(atio_devsnap_parse("1 -2", &s), -1);
	assert_int_equal(atio_devsnap_parse("99999999999999999999", &s), -1);
}

/* 11 fields: 1000 reads of 4 KiB in a second, 0.5 ms each, a queue of 0.5, half busy. */
static void test_eleven(void **state)
{
	struct atio_devsnap a, b;
	struct atio_devstat_fig f;

	(void)state;
	snaps("100 0 800 50 10 1 80 20 0 100 70",
	      "1100 0 8800 550 210 11 1680 420 3 600 570", &a, &b);
	atio_devstat_figures(&a, &b, &f);
	assert_int_equal(f.fields, 11);
	assert_true(f.elapsed_ns == 1000000000ull);
	assert_true(f.dir[ATIO_DS_READ].known);
	assert_true(f.dir[ATIO_DS_READ].iops == 1000.0);
	assert_true(f.dir[ATIO_DS_READ].bytes_per_sec == 4096000.0);
	assert_true(f.dir[ATIO_DS_READ].merges == 0.0);
	assert_true(f.dir[ATIO_DS_READ].req_bytes == 4096.0);
	assert_true(f.dir[ATIO_DS_READ].await_ms == 0.5);
	/* 200 writes of 4 KiB, 10 merged into them, 2 ms each. */
	assert_true(f.dir[ATIO_DS_WRITE].iops == 200.0);
	assert_true(f.dir[ATIO_DS_WRITE].merges == 10.0);
	assert_true(f.dir[ATIO_DS_WRITE].merges_per_sec == 10.0);
	assert_true(f.dir[ATIO_DS_WRITE].req_bytes == 4096.0);
	assert_true(f.dir[ATIO_DS_WRITE].await_ms == 2.0);
	assert_true(f.aqu_sz == 0.5);
	assert_true(f.util == 0.5);
	assert_true(f.delta[ATIO_DS_IN_FLIGHT] == 3);
	/* No discards nor flushes in 11 fields: unknown, not zero. */
	assert_false(f.dir[ATIO_DS_DISCARD].known);
	assert_true(isnan(f.dir[ATIO_DS_DISCARD].iops));
	assert_true(isnan(f.flush_per_sec));
	assert_false(atio_devstat_known(&f, ATIO_DS_DISCARD_IOS));
}

/* io_ticks a little over the window (tick granularity): busy all the time, not 110%. */
static void test_util_clamp(void **state)
{
	struct atio_devsnap a, b;
	struct atio_devstat_fig f;

	(void)state;
	snaps("100 0 800 50 0 0 0 0 0 100 70", "1100 0 8800 550 0 0 0 0 0 1200 570", &a, &b);
	atio_devstat_figures(&a, &b, &f);
	assert_true(f.elapsed_ns == 1000000000ull);
	assert_true(f.util == 1.0);
}

/* 15 fields: discards; 17: flushes too. */
static void test_fifteen_seventeen(void **state)
{
	struct atio_devsnap a, b;
	struct atio_devstat_fig f;

	(void)state;
	snaps("0 0 0 0 0 0 0 0 0 0 0 5 0 100 1",
	      "0 0 0 0 0 0 0 0 0 0 0 9 2 2148 9", &a, &b);
	atio_devstat_figures(&a, &b, &f);
	assert_int_equal(f.fields, 15);
	assert_true(f.dir[ATIO_DS_DISCARD].iops == 4.0);
	assert_true(f.dir[ATIO_DS_DISCARD].merges == 2.0);
	assert_true(f.dir[ATIO_DS_DISCARD].req_bytes == 2048.0 * 512.0 / 4.0);
	assert_true(f.dir[ATIO_DS_DISCARD].await_ms == 2.0);
	/* No request read: its size and wait are unknown, its IOPS are 0. */
	assert_true(f.dir[ATIO_DS_READ].iops == 0.0);
	assert_true(isnan(f.dir[ATIO_DS_READ].req_bytes));
	assert_true(isnan(f.dir[ATIO_DS_READ].await_ms));
	assert_true(isnan(f.flush_per_sec));

	snaps("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7 10",
	      "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 57 110", &a, &b);
	atio_devstat_figures(&a, &b, &f);
	assert_int_equal(f.fields, 17);
	assert_true(f.flush_per_sec == 50.0);
	assert_true(f.flush_await_ms == 2.0);

	/* One snapshot of 17 fields, the other of 15: the 15 both have. */
	snaps("0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 7 10",
	      "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0", &a, &b);
	atio_devstat_figures(&a, &b, &f);
	assert_int_equal(f.fields, 15);
	assert_true(isnan(f.flush_per_sec));
}

/* Fewer than 11 fields: what is there is shown. */
static void test_short(void **state)
{
	struct atio_devsnap a, b;
	struct atio_devstat_fig f;

	(void)state;
	snaps("10 0 80 5", "20 0 160 15", &a, &b);
	atio_devstat_figures(&a, &b, &f);
	assert_int_equal(f.fields, 4);
	assert_true(f.dir[ATIO_DS_READ].iops == 10.0);
	assert_true(f.dir[ATIO_DS_READ].await_ms == 1.0);
	assert_false(f.dir[ATIO_DS_WRITE].known);
	assert_true(isnan(f.dir[ATIO_DS_WRITE].iops));
	assert_true(isnan(f.aqu_sz));
	assert_true(isnan(f.util));
}

/* A counter that went backwards (wrapped at 2^32) is unknown, not 2^64 - x. */
static void test_backwards(void **state)
{
	struct atio_devsnap a, b;
	struct atio_devstat_fig f;

	(void)state;
	snaps("4294967290 0 800 50 10 0 80 20 0 4294967000 70",
	      "20 0 8800 40 210 0 1680 420 0 200 570", &a, &b);
	atio_devstat_figures(&a, &b, &f);
	assert_false(f.dir[ATIO_DS_READ].known);
	assert_true(isnan(f.dir[ATIO_DS_READ].iops));
	assert_true(isnan(f.dir[ATIO_DS_READ].req_bytes));
	assert_true(isnan(f.dir[ATIO_DS_READ].await_ms));
	assert_true(f.dir[ATIO_DS_READ].bytes_per_sec == 8000.0 * 512.0);
	assert_true(isnan(f.util));
	assert_false(atio_devstat_known(&f, ATIO_DS_IO_TICKS));
	assert_true(f.dir[ATIO_DS_WRITE].iops == 200.0);
	assert_true(f.aqu_sz == 0.5);
	assert_true(isnan(atio_devstat_per_sec(5, 4, 1000000000ull)));
	assert_true(atio_devstat_per_sec(4, 6, 500000000ull) == 4.0);
}

/* No time between the readings: no per-second figure. */
static void test_no_time(void **state)
{
	struct atio_devsnap a, b;
	struct atio_devstat_fig f;

	(void)state;
	snaps("1 0 8 1 0 0 0 0 0 1 1", "2 0 16 2 0 0 0 0 0 2 2", &a, &b);
	b.ns = a.ns;
	atio_devstat_figures(&a, &b, &f);
	assert_true(isnan(f.dir[ATIO_DS_READ].iops));
	assert_true(isnan(f.util));
	assert_true(f.dir[ATIO_DS_READ].req_bytes == 4096.0);
	assert_true(isnan(atio_devstat_per_sec(1, 2, 0)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_eleven),
		cmocka_unit_test(test_util_clamp),
		cmocka_unit_test(test_fifteen_seventeen),
		cmocka_unit_test(test_short),
		cmocka_unit_test(test_backwards),
		cmocka_unit_test(test_no_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
