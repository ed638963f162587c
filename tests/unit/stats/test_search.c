/* SPDX-License-Identifier: MIT */
/*
 * The automatic search's decisions on known value sequences: where the
 * doubling stops (a rise above the noise, one within it, a fall, the top),
 * and the loads the refinement then measures around the best point.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "atio/stats/search.h"

/*
 * Run a search of loads 1..@top on the curve @f (value of each load, up
 * to 256), writing the loads it measures, in order, into @seen. Returns
 * how many.
 */
static unsigned walk(unsigned top, double (*f)(unsigned), unsigned *seen)
{
	struct atio_search s;
	unsigned load, n = 0;

	atio_search_init(&s, top);
	while ((load = atio_search_next(&s)) != 0) {
		assert_true(load >= 1 && load <= top);
		seen[n++] = load;
		atio_search_add(&s, load, f(load));
		assert_true(n < ATIO_SEARCH_MAX);
	}
	return n;
}

static void assert_loads(const unsigned *seen, unsigned n, const unsigned *want, unsigned m)
{
	assert_int_equal(n, m);
	for (unsigned i = 0; i < m; i++)
		if (seen[i] != want[i])
			fail_msg("load %u: %u measured, %u expected", i, seen[i], want[i]);
}

/* Saturating at 16: 100 per load up to 16, then flat. */
static double sat16(unsigned d)
{
	return 100.0 * (d < 16 ? d : 16);
}

/* A peak at 24 that falls after it. */
static double peak24(unsigned d)
{
	return d <= 24 ? 10.0 * d : 240.0 - 5.0 * (d - 24);
}

/* Rising by 4% a doubling: within the noise from the start. */
static double slow(unsigned d)
{
	double v = 1000;

	for (unsigned x = 1; x < d; x *= 2)
		v *= 1.04;
	return v;
}

/* Linear to the end. */
static double linear(unsigned d)
{
	return (double)d;
}

static void test_saturating(void **state)
{
	/*
	 * 1..16 double; 32 is flat with 16 (not above the noise): the best is
	 * 16 (the first of equals). Below it: 12 (halfway to 8, worse), 14
	 * (halfway to 12, an eighth of 16 away); 15 would be nearer. Above it:
	 * 24 (halfway to 32, equal: not better), 20, 18; 17 would be nearer.
	 */
	const unsigned want[] = { 1, 2, 4, 8, 16, 32, 12, 14, 24, 20, 18 };
	unsigned seen[ATIO_SEARCH_MAX], n;

	(void)state;
	n = walk(64, sat16, seen);
	assert_loads(seen, n, want, sizeof(want) / sizeof(want[0]));
}

static void test_peak_between(void **state)
{
	/*
	 * 32 still rises over 16 (200 against 160, 25% more); 64 falls (40):
	 * the doubling ends. The best, 32, has the neighbours 16 and 64:
	 * halfway down is 24 (240, the new best); around 24, 20 below (worse)
	 * and 28 above (worse); 22 and 26 are nearer than an eighth of 24.
	 */
	const unsigned want[] = { 1, 2, 4, 8, 16, 32, 64, 24, 20, 28 };
	unsigned seen[ATIO_SEARCH_MAX], n;

	(void)state;
	n = walk(64, peak24, seen);
	assert_loads(seen, n, want, sizeof(want) / sizeof(want[0]));
}

static void test_noise(void **state)
{
	/* 2 is 4% above 1: no rise; the best is 2, 1 below it, nothing halfway. */
	const unsigned want[] = { 1, 2 };
	unsigned seen[ATIO_SEARCH_MAX], n;

	(void)state;
	n = walk(64, slow, seen);
	assert_loads(seen, n, want, sizeof(want) / sizeof(want[0]));
}

static void test_top(void **state)
{
	/* Rising to the top, 48 (not a power of two): the last doubling is 48. */
	const unsigned want[] = { 1, 2, 4, 8, 16, 32, 48, 40 };
	unsigned seen[ATIO_SEARCH_MAX], n;

	(void)state;
	n = walk(48, linear, seen);
	assert_loads(seen, n, want, sizeof(want) / sizeof(want[0]));
}

static void test_best(void **state)
{
	struct atio_search s;

	(void)state;
	atio_search_init(&s, 8);
	assert_int_equal(atio_search_best(&s), -1);
	atio_search_add(&s, 1, 5);
	atio_search_add(&s, 2, 7);
	atio_search_add(&s, 4, 7);
	assert_int_equal(atio_search_best(&s), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_saturating),
		cmocka_unit_test(test_peak_between),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_top),
		cmocka_unit_test(test_best),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
