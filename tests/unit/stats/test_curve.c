/* SPDX-License-Identifier: MIT */
/*
 * The curve finders on known curves: flat, straight, saturating, with a
 * dip after the peak, noisy, bending upward; the knee at each percentage,
 * Kneedle's point, and a latency target met by some, all or none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "atio/stats/curve.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_peak(void **state)
{
	const double flat[] = { 5, 5, 5, 5 }, dip[] = { 1, 4, 9, 7, 3 }, one[] = { 2 };

	(void)state;
	assert_int_equal(atio_curve_peak(flat, N(flat)), 0);
	assert_int_equal(atio_curve_peak(dip, N(dip)), 2);
	assert_int_equal(atio_curve_peak(one, 1), 0);
	assert_int_equal(atio_curve_peak(one, 0), -1);
}

static void test_knee(void **state)
{
	/* Saturating: 1000 * (1 - 2^-k) for k = 1..7. */
	const double sat[] = { 500, 750, 875, 937.5, 968.75, 984.375, 992.1875 };
	const double flat[] = { 5, 5, 5 }, line[] = { 1, 2, 3, 4, 5 };

	(void)state;
	assert_int_equal(atio_curve_knee(sat, N(sat), 95), 4);   /* 968.75 >= 942.6 */
	assert_int_equal(atio_curve_knee(sat, N(sat), 90), 3);   /* 937.5 >= 893.0 */
	assert_int_equal(atio_curve_knee(sat, N(sat), 100), 6);
	assert_int_equal(atio_curve_knee(sat, N(sat), 50), 0);
	assert_int_equal(atio_curve_knee(flat, N(flat), 95), 0);
	assert_int_equal(atio_curve_knee(line, N(line), 95), 4);
	assert_int_equal(atio_curve_knee(line, N(line), 60), 2);
	assert_int_equal(atio_curve_knee(sat, N(sat), 0), -1);
	assert_int_equal(atio_curve_knee(sat, N(sat), 101), -1);
}

static void test_kneedle(void **state)
{
	/* A sharp bend at the third point, flat after it. */
	const double bend[] = { 100, 550, 1000, 1010, 1020, 1030 };
	const double sat[] = { 500, 750, 875, 937.5, 968.75, 984.375, 992.1875 };
	const double line[] = { 1, 2, 3, 4, 5, 6 }, up[] = { 1, 2, 4, 8, 16, 32 };
	const double flat[] = { 7, 7, 7, 7 };
	/* Rising to a peak at the fifth point, then falling: only the rise counts. */
	const double dip[] = { 100, 800, 900, 950, 1000, 400, 100 };
	/* The bend of a noisy saturation stays where it is. */
	const double noisy[] = { 100, 560, 990, 1012, 1001, 1025, 1018 };

	(void)state;
	assert_int_equal(atio_curve_kneedle(bend, N(bend), 0.05), 2);
	assert_int_equal(atio_curve_kneedle(sat, N(sat), 0.05), 2);
	assert_int_equal(atio_curve_kneedle(line, N(line), 0.05), -1);
	assert_int_equal(atio_curve_kneedle(up, N(up), 0.05), -1);
	assert_int_equal(atio_curve_kneedle(flat, N(flat), 0.05), -1);
	assert_int_equal(atio_curve_kneedle(dip, N(dip), 0.05), 1);
	assert_int_equal(atio_curve_kneedle(noisy, N(noisy), 0.05), 2);
	assert_int_equal(atio_curve_kneedle(bend, 2, 0.05), -1);
}

static void test_target(void **state)
{
	const double y[] = { 100, 200, 300, 400, 390 };
	const double p99[] = { 1.0, 1.5, 2.0, 5.0, 1.9 };

	(void)state;
	assert_int_equal(atio_curve_target(y, p99, N(y), 2.0), 4);  /* 390 at 1.9 beats 300 */
	assert_int_equal(atio_curve_target(y, p99, N(y), 1.8), 1);
	assert_int_equal(atio_curve_target(y, p99, N(y), 10), 3);
	assert_int_equal(atio_curve_target(y, p99, N(y), 0.5), -1);
}

/* Aims: a percentage of the maximum rounded up, whole from 10, hundredths below. */
static void test_aim(void **state)
{
	(void)state;
	assert_true(atio_curve_aim(2000, 80) == 1600);
	assert_true(atio_curve_aim(2000, 100) == 2000);
	assert_true(atio_curve_aim(1234.5, 10) == 124);    /* 123.45 up */
	assert_true(atio_curve_aim(1234.5, 100) == 1235);
	assert_true(atio_curve_aim(3, 10) == 0.3);         /* not 0.31 */
	assert_true(atio_curve_aim(3.333, 50) == 1.67);    /* 1.6665 up */
	assert_true(atio_curve_aim(99.99, 10) == 10);      /* 9.999: hundredths, 10.00 */
	assert_true(atio_curve_aim(0.001, 10) == 0.01);    /* never 0 */
	assert_true(atio_curve_aim(0, 50) == 0);
	assert_true(atio_curve_aim(100, 0) == 0);
}

/* Held: 99% of the aim or more; the stop rule: strictly over the limit. */
static void test_held_stops(void **state)
{
	(void)state;
	assert_true(atio_curve_held(1000, 1000));
	assert_true(atio_curve_held(1000, 990));
	assert_false(atio_curve_held(1000, 989.9));
	assert_true(atio_curve_held(1000, 1200));
	assert_false(atio_curve_stops(5e6, 5e6));
	assert_true(atio_curve_stops(5.001e6, 5e6));
	assert_false(atio_curve_stops(1e6, 5e6));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_peak),
		cmocka_unit_test(test_knee),
		cmocka_unit_test(test_kneedle),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_aim),
		cmocka_unit_test(test_held_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
