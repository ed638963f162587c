/* SPDX-License-Identifier: MIT */
/* Unit tests of --rate's schedule arithmetic (include/atio/run/pace.h). */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "atio/base/clock.h"
#include "atio/run/pace.h"

/* |a - b| <= tol * |b| */
static void assert_near(double a, double b, double tol)
{
	double d = a > b ? a - b : b - a;

	if (d > tol * (b < 0 ? -b : b))
		fail_msg("%.17g is not within %g of %.17g", a, tol, b);
}

/* IOPS: the run's cap shared by the threads; the block size plays no part. */
static void test_interval_iops(void **state)
{
	(void)state;
	assert_near(atio_pace_interval_ns(1000.0, 0, 1, 1), 1e6, 1e-15);
	assert_near(atio_pace_interval_ns(1000.0, 0, 1, 2), 2e6, 1e-15);
	assert_near(atio_pace_interval_ns(2.5, 0, 1, 1), 4e8, 1e-15);
	assert_near(atio_pace_interval_ns(3.0, 0, 1, 1), 1e9 / 3.0, 1e-15);
}

/* MB/s: 2^20 bytes a second per MB, in blocks of the given size. */
static void test_interval_mbs(void **state)
{
	(void)state;
	/* 1 MB/s of 4K blocks: 256 I/Os a second. */
	assert_near(atio_pace_interval_ns(1.0, 4096, 1, 1), 1e9 / 256.0, 1e-15);
	/* 100 MB/s of 1M blocks over 4 threads: 25 a second per thread. */
	assert_near(atio_pace_interval_ns(100.0, 1 << 20, 1, 4), 4e7, 1e-15);
	/* The sync count plays no part in MB/s. */
	assert_near(atio_pace_interval_ns(100.0, 1 << 20, 8, 4), 4e7, 1e-15);
}

/* sync/s: N syncs a second are N * q writes. */
static void test_interval_syncs(void **state)
{
	(void)state;
	assert_near(atio_pace_interval_ns(100.0, 0, 4, 1), 1e9 / 400.0, 1e-15);
	assert_near(atio_pace_interval_ns(100.0, 0, 4, 2), 1e9 / 200.0, 1e-15);
}

/* I/O 0 is due at the start, I/O i at start + i intervals. */
static void test_due_whole(void **state)
{
	struct atio_pace p;

	(void)state;
	atio_pace_init(&p, 12345, 1000.0);
	assert_int_equal(atio_pace_due(&p, 0), 12345);
	assert_int_equal(atio_pace_due(&p, 1), 13345);
	assert_int_equal(atio_pace_due(&p, 1000000), 12345 + 1000000000ULL);
}

/*
 * A fractional interval does not drift: 1/3 tick apart, I/O 3k is due at
 * exactly k ticks, also after a billion I/Os, where adding a rounded
 * interval would be off by millions of ticks.
 */
static void test_due_no_drift(void **state)
{
	struct atio_pace p;

	(void)state;
	atio_pace_init(&p, 0, 1.0 / 3.0);
	for (uint64_t k = 0; k < 1000; k++)
		assert_in_range(atio_pace_due(&p, 3 * k), k > 0 ? k - 1 : 0, k);
	assert_in_range(atio_pace_due(&p, 3000000000ULL), 999999999ULL, 1000000000ULL);
	/* 2.5 GHz ticks, 333.333... ns apart (3 million I/Os a second). */
	atio_pace_init(&p, 0, 2.5 * 1e9 / 3e6);
	assert_in_range(atio_pace_due(&p, 3000000ULL * 3600), 2500000000ULL * 3600 - 1,
			2500000000ULL * 3600);
	/* Ascending: no I/O is due before the one ahead of it. */
	for (uint64_t i = 1; i < 100000; i++)
		assert_true(atio_pace_due(&p, i) >= atio_pace_due(&p, i - 1));
}

/*
 * The longest interval allowed, an hour, of a 5 GHz counter still fits with
 * its fraction, and a day of such I/Os lands where it should.
 */
static void test_due_long_interval(void **state)
{
	struct atio_pace p;
	double ticks = ATIO_PACE_MAX_NS * 5.0 + 0.5;

	(void)state;
	atio_pace_init(&p, 7, ticks);
	assert_int_equal(atio_pace_due(&p, 1), 7 + 18000000000000ULL);
	assert_int_equal(atio_pace_due(&p, 24), 7 + 24 * 18000000000000ULL + 12);
}

/*
 * --arrivals exponential: I/O 0 at the start, the instants rising, their
 * gaps averaging the interval (within 2% over 100000, whose spread is
 * 0.3%), spread as an exponential's (standard deviation the mean, within
 * 5%), the same seed the same instants, another seed others; asking again
 * for the last I/O gives its instant again. atio_pace_init() goes back to
 * the fixed schedule.
 */
static void test_due_exponential(void **state)
{
	struct atio_pace p, q;
	uint64_t prev, last;
	double sum = 0, sq = 0;
	const unsigned n = 100000;

	(void)state;
	atio_pace_init(&p, 1000, 1000.0);
	atio_pace_exponential(&p, 1000.0, 42);
	atio_pace_init(&q, 1000, 1000.0);
	atio_pace_exponential(&q, 1000.0, 42);
	assert_int_equal(atio_pace_due(&p, 0), 1000);
	prev = 1000;
	for (uint64_t i = 1; i <= n; i++) {
		uint64_t t = atio_pace_due(&p, i);
		double gap = (double)(t - prev);

		assert_true(t >= prev);
		sum += gap;
		sq += gap * gap;
		prev = t;
	}
	assert_near(sum / n, 1000.0, 0.02);
	assert_near(sqrt(sq / n - (sum / n) * (sum / n)), 1000.0, 0.05);
	last = atio_pace_due(&p, n);
	assert_int_equal(last, prev);
	assert_int_equal(atio_pace_due(&q, n), last);
	atio_pace_init(&q, 1000, 1000.0);
	atio_pace_exponential(&q, 1000.0, 43);
	assert_true(atio_pace_due(&q, n) != last);
	atio_pace_init(&p, 1000, 1000.0);
	assert_int_equal(atio_pace_due(&p, 5), 6000);
}

/*
 * The wait ends at or after its tick, never before; a wait for an hour
 * with the stop set ends at once with 0, as does the wait for the end.
 */
static void test_wait(void **state)
{
	int stop = 0;
	uint64_t due, t;

	(void)state;
	atio_clock_init();
	for (int i = 0; i < 20; i++) {
		due = atio_ticks() + atio_ns_to_ticks(i % 2 ? 5000 : 300000);
		t = atio_pace_wait(due, &stop);
		assert_true(t >= due);
		assert_true(atio_ticks() >= due);
	}
	assert_true(atio_pace_wait(atio_ticks() - 1, &stop) != 0);
	stop = 1;
	assert_int_equal(atio_pace_wait(atio_ticks() + atio_ns_to_ticks(3600e9), &stop), 0);
	assert_false(atio_pace_idle(UINT64_MAX, &stop));
	assert_true(atio_pace_idle(0, &stop));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_iops),
		cmocka_unit_test(test_due_exponential),
		cmocka_unit_test(test_interval_mbs),
		cmocka_unit_test(test_interval_syncs),
		cmocka_unit_test(test_due_whole),
		cmocka_unit_test(test_due_no_drift),
		cmocka_unit_test(test_due_long_interval),
		cmocka_unit_test(test_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
