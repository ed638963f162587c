/* SPDX-License-Identifier: MIT */
/*
 * SNIA's steady state on known series: one that becomes flat, one that
 * keeps rising, one that oscillates beyond 20%, one within the range but
 * not the excursion and the reverse, fewer rounds than the window, a zero
 * average; and the rounds of a run, added one by one until steady or the
 * last.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <cmocka.h>

#include "atio/stats/steady.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_flat(void **state)
{
	/* Fresh-out-of-box high, then settling at 1000: steady over the last five. */
	const double v[] = { 3000, 2200, 1500, 1100, 1010, 995, 1003, 998, 1002 };
	struct atio_steady_verdict r;

	(void)state;
	assert_true(atio_steady_judge(v, N(v), &r));
	assert_true(r.judged);
	assert_int_equal(r.first, 4);
	assert_int_equal(r.n, 5);
	assert_float_equal(r.avg, 1001.6, 1e-9);
	assert_float_equal(r.min, 995, 0);
	assert_float_equal(r.max, 1010, 0);
	assert_float_equal(r.range_pct, 15.0 * 100.0 / 1001.6, 1e-9);
	/* slope: sum((x-2)(y-1001.6)) / 10 = (-2*8.4 - 1*-6.6 + 0 + 1*-3.6 + 2*0.4) / 10 */
	assert_float_equal(r.slope, -1.3, 1e-9);
	assert_float_equal(r.excursion_pct, 1.3 * 4 * 100.0 / 1001.6, 1e-9);
	/* One window earlier it was still falling. */
	assert_false(atio_steady_judge(v, 6, &r));
}

static void test_rising(void **state)
{
	/* +5% a round: judged at every round, never steady, the line always too steep. */
	double v[25];
	struct atio_steady_verdict r;

	(void)state;
	v[0] = 1000;
	for (size_t i = 1; i < N(v); i++)
		v[i] = v[i - 1] * 1.05;
	for (size_t n = 5; n <= N(v); n++) {
		assert_false(atio_steady_judge(v, n, &r));
		assert_true(r.judged);
		assert_true(r.excursion_pct > ATIO_STEADY_EXCURSION_PCT);
	}
}

static void test_oscillating(void **state)
{
	/* 1000 and 1250 in turn: the line is flat, the range 22% of the average. */
	const double v[] = { 1000, 1250, 1000, 1250, 1000, 1250, 1000, 1250 };
	struct atio_steady_verdict r;

	(void)state;
	assert_false(atio_steady_judge(v, N(v), &r));
	assert_true(r.range_pct > ATIO_STEADY_RANGE_PCT);
	assert_true(r.excursion_pct <= ATIO_STEADY_EXCURSION_PCT);
}

static void test_one_criterion(void **state)
{
	/* Range 12% of the average, but a straight rise: excursion 12%. */
	const double slope_only[] = { 940, 970, 1000, 1030, 1060 };
	/* Range 30% of the average, line flat: one outlier in the middle. */
	const double range_only[] = { 1000, 1000, 1300, 1000, 1000 };
	/* Each just within: a range of 20% exactly, an excursion of 10% exactly. */
	const double edge_range[] = { 900, 1100, 1000, 1100, 900 };
	const double edge[] = { 950, 975, 1000, 1025, 1050 };
	struct atio_steady_verdict r;

	(void)state;
	assert_false(atio_steady_judge(slope_only, 5, &r));
	assert_float_equal(r.range_pct, 12.0, 1e-9);
	assert_float_equal(r.excursion_pct, 12.0, 1e-9);
	assert_true(r.range_pct <= ATIO_STEADY_RANGE_PCT);

	assert_false(atio_steady_judge(range_only, 5, &r));
	assert_float_equal(r.slope, 0.0, 1e-9);
	assert_true(r.range_pct > ATIO_STEADY_RANGE_PCT);
	assert_true(r.excursion_pct <= ATIO_STEADY_EXCURSION_PCT);

	assert_true(atio_steady_judge(edge_range, 5, &r));
	assert_float_equal(r.range_pct, 20.0, 0);
	assert_float_equal(r.excursion_pct, 0.0, 1e-9);
	assert_true(atio_steady_judge(edge, 5, &r));
	assert_float_equal(r.range_pct, 10.0, 1e-9);
	assert_float_equal(r.excursion_pct, 10.0, 1e-9);
}

static void test_short_and_zero(void **state)
{
	const double v[] = { 1000, 1000, 1000, 1000 }, zero[] = { 0, 0, 0, 0, 0 };
	struct atio_steady_verdict r;

	(void)state;
	/* Four flat rounds are not a window of five. */
	assert_false(atio_steady_judge(v, N(v), &r));
	assert_false(r.judged);
	assert_int_equal(r.n, 4);
	assert_float_equal(r.avg, 1000, 0);
	assert_false(atio_steady_judge(v, 0, &r));
	assert_int_equal(r.n, 0);
	/* No I/O at all: nothing to judge against, never steady. */
	assert_false(atio_steady_judge(zero, N(zero), &r));
	assert_false(r.judged);
	assert_float_equal(r.range_pct, 0, 0);
}

static void test_rounds(void **state)
{
	const double flat[] = { 2000, 1500, 1000, 1000, 1000, 1000, 1000, 1000 };
	struct atio_opts o = { .steady = ATIO_STEADY_IOPS, .rounds = 6,
			       .round_ns = ATIO_STEADY_ROUND_NS };
	struct atio_steady s;
	unsigned i;

	(void)state;
	assert_int_equal(atio_steady_init(&s, &o), 0);
	for (i = 0; !atio_steady_add(&s, flat[i]); i++)
		;
	/* Rounds 3..7 would be flat, but the sixth is the last: not steady. */
	assert_int_equal(i, 5);
	assert_int_equal(s.n, 6);
	assert_true(s.over);
	assert_int_equal(s.steady_at, 0);
	assert_false(s.v.steady);
	assert_true(atio_steady_add(&s, 1000));
	assert_int_equal(s.n, 6);
	atio_steady_free(&s);

	o.rounds = 25;
	assert_int_equal(atio_steady_init(&s, &o), 0);
	for (i = 0; !atio_steady_add(&s, flat[i]); i++)
		;
	assert_int_equal(s.steady_at, 7);
	assert_int_equal(s.v.first, 2);
	assert_true(s.v.steady);
	atio_steady_free(&s);
}

static void test_value(void **state)
{
	struct atio_steady_round r = { .ops = 5000, .bytes = 5000 * 4096ULL, .lat_sum = 5000 * 200000ULL,
				       .lat_count = 5000, .dur_ns = 2000000000ULL };
	struct atio_steady_round none = { 0 };

	(void)state;
	assert_float_equal(atio_steady_value(ATIO_STEADY_IOPS, &r), 2500, 1e-9);
	assert_float_equal(atio_steady_value(ATIO_STEADY_MBS, &r), 2500 * 4096.0 / 1048576.0, 1e-9);
	assert_float_equal(atio_steady_value(ATIO_STEADY_LAT, &r), 200, 1e-9);
	assert_float_equal(atio_steady_value(ATIO_STEADY_IOPS, &none), 0, 0);
	/* No I/O completed: the latency is unknown, not a perfect 0. */
	assert_true(isnan(atio_steady_value(ATIO_STEADY_LAT, &none)));
	assert_string_equal(atio_steady_name(ATIO_STEADY_LAT), "lat");
	assert_string_equal(atio_steady_unit(ATIO_STEADY_MBS), "MB/s");
}

/* A round of unknown latency in the window: never judged, never steady. */
static void test_unknown_round(void **state)
{
	double v[] = { 100, 100, NAN, 100, 100, 100, 100, 100, 100, 100 };
	struct atio_steady_verdict r;

	(void)state;
	assert_false(atio_steady_judge(v, 5, &r));
	assert_false(r.judged);
	assert_false(atio_steady_judge(v, 7, &r));
	assert_false(r.judged);
	/* Out of the window: judged again, and steady. */
	assert_true(atio_steady_judge(v, 8, &r));
	assert_true(r.judged);
}

/*
 * --all-rounds: the rounds go on once steady, the first steady window kept;
 * atio_steady_first() finds that window in a whole series, as the rounds
 * found it one after another.
 */
static void test_all_rounds(void **state)
{
	const double v[] = { 2000, 1500, 1000, 1000, 1000, 1000, 1000, 1000, 400, 1000 };
	struct atio_opts o = { .steady = ATIO_STEADY_IOPS, .rounds = 10, .all_rounds = true,
			       .round_ns = ATIO_STEADY_ROUND_NS };
	struct atio_steady_verdict r;
	struct atio_steady s;
	unsigned i;

	(void)state;
	assert_int_equal(atio_steady_init(&s, &o), 0);
	for (i = 0; !atio_steady_add(&s, v[i]); i++)
		;
	assert_int_equal(s.n, 10);
	assert_int_equal(s.steady_at, 7);
	/* The window kept is the first steady one, not the last (which is not). */
	assert_int_equal(s.v.first, 2);
	assert_true(s.v.steady);
	atio_steady_free(&s);
	assert_int_equal(atio_steady_first(v, N(v), &r), 7);
	assert_int_equal(r.first, 2);
	assert_int_equal(atio_steady_first(v, 6, &r), 0);
	assert_false(r.steady);
	assert_int_equal(atio_steady_first(v, 3, &r), 0);
	assert_false(r.judged);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_rising),
		cmocka_unit_test(test_oscillating),
		cmocka_unit_test(test_one_criterion),
		cmocka_unit_test(test_short_and_zero),
		cmocka_unit_test(test_rounds),
		cmocka_unit_test(test_value),
		cmocka_unit_test(test_unknown_round),
		cmocka_unit_test(test_all_rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
