/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of --dist's samplers and permutation (include/atio/run/dist.h),
 * each from many draws with a fixed seed: deterministic, and each bound
 * one that a wrong sampler misses by far.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/run/dist.h"

static struct atio_dist_spec spec(enum atio_dist_kind kind, double arg)
{
	return (struct atio_dist_spec){ .kind = kind, .arg = arg };
}

/* The permutation: over n ranks, every block exactly once; and it moves with the key. */
static void test_permutation(void **state)
{
	const uint64_t sizes[] = { 1, 2, 3, 5, 64, 1000, 4097, 100003 };
	struct atio_dist_spec z = spec(ATIO_DIST_ZIPF, 1.0);

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], moved = 0;
		unsigned char *hit = calloc(n, 1);
		struct atio_dist d, other;

		atio_dist_init(&d, &z, n, 42);
		atio_dist_init(&other, &z, n, 43);
		for (uint64_t r = 0; r < n; r++) {
			uint64_t b = atio_dist_permute(&d, r);

			assert_true(b < n);
			assert_int_equal(hit[b], 0);
			hit[b] = 1;
			moved += b != atio_dist_permute(&other, r);
		}
		/* Another key, another order: most ranks land elsewhere. */
		if (n >= 1000)
			assert_true(moved > n * 9 / 10);
		free(hit);
	}
}

/*
 * The chi-square statistic's bound at p = 0.001 for @df degrees of
 * freedom (Wilson-Hilferty: within 1% of the table for df >= 10).
 */
static double chi2_bound(double df)
{
	double a = 2.0 / (9.0 * df);

	return df * pow(1.0 - a + 3.0902 * sqrt(a), 3.0);
}

/*
 * zipf: the frequencies of the ranks (drawn without the permutation) pass
 * a chi-square test against k^-theta at p = 0.001, for theta below, at and
 * above 1; ranks with fewer than 5 expected draws are pooled into one bin.
 */
static void check_zipf(double theta, uint64_t n, uint64_t draws)
{
	struct atio_dist_spec z = spec(ATIO_DIST_ZIPF, theta);
	struct atio_dist d;
	struct atio_prng r;
	uint64_t *count = calloc(n, sizeof(*count));
	double sum = 0.0, chi2 = 0.0, pool_e = 0.0, pool_o = 0.0;
	unsigned bins = 0;

	atio_dist_init(&d, &z, n, 1);
	atio_prng_seed(&r, 12345, 0);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t k = atio_dist_place(&d, &r);

		assert_true(k < n);
		count[k]++;
	}
	for (uint64_t k = 1; k <= n; k++)
		sum += pow((double)k, -theta);
	for (uint64_t k = 1; k <= n; k++) {
		double e = (double)draws * pow((double)k, -theta) / sum;

		if (e < 5.0) {
			pool_e += e;
			pool_o += (double)count[k - 1];
			continue;
		}
		chi2 += ((double)count[k - 1] - e) * ((double)count[k - 1] - e) / e;
		bins++;
	}
	if (pool_e > 0.0) {
		chi2 += (pool_o - pool_e) * (pool_o - pool_e) / pool_e;
		bins++;
	}
	print_message("zipf:%g over %" PRIu64 ": chi2 %.1f, %u bins, bound %.1f\n", theta, n,
		      chi2, bins, chi2_bound(bins - 1));
	assert_true(chi2 < chi2_bound(bins - 1));
	free(count);
}

static void test_zipf_frequencies(void **state)
{
	(void)state;
	check_zipf(0.5, 1000, 2000000);
	check_zipf(1.0, 1000, 2000000);
	check_zipf(1.2, 1000, 2000000);
	check_zipf(2.5, 100, 1000000);
}

/* One block: every draw is it, whatever theta. */
static void test_zipf_one(void **state)
{
	struct atio_dist_spec z = spec(ATIO_DIST_ZIPF, 0.3);
	struct atio_dist d;
	struct atio_prng r;

	(void)state;
	atio_dist_init(&d, &z, 1, 1);
	atio_prng_seed(&r, 1, 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(atio_dist_draw(&d, &r), 0);
}

/*
 * Blocks touched: D draws over n blocks touch sum_k 1 - (1 - p_k)^D of
 * them on average. A large file, many draws (the case of a scatter that is
 * not a permutation, which touches a fraction of that): within 2%.
 */
static void check_touched(double theta, uint64_t n, uint64_t draws)
{
	struct atio_dist_spec z = spec(ATIO_DIST_ZIPF, theta);
	struct atio_dist d;
	struct atio_prng r;
	unsigned char *hit = calloc(n, 1);
	double sum = 0.0, want = 0.0;
	uint64_t got = 0;

	atio_dist_init(&d, &z, n, 99);
	atio_prng_seed(&r, 777, 3);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = atio_dist_draw(&d, &r);

		got += !hit[b];
		hit[b] = 1;
	}
	for (uint64_t k = 1; k <= n; k++)
		sum += pow((double)k, -theta);
	for (uint64_t k = 1; k <= n; k++)
		want += -expm1((double)draws * log1p(-pow((double)k, -theta) / sum));
	print_message("zipf:%g, %" PRIu64 " draws over %" PRIu64 " blocks: %" PRIu64
		      " touched, %.0f expected\n", theta, draws, n, got, want);
	assert_true(fabs((double)got - want) < 0.02 * want);
	free(hit);
}

static void test_zipf_touched(void **state)
{
	(void)state;
	check_touched(0.8, 1u << 23, 4000000);
	check_touched(1.1, 1u << 21, 2000000);
}

/* pareto: the hottest 1 - H of the ranks get H of the draws, within 1 point. */
static void test_pareto(void **state)
{
	const double hs[] = { 0.8, 0.9, 0.6 };

	(void)state;
	for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++) {
		struct atio_dist_spec p = spec(ATIO_DIST_PARETO, hs[i]);
		struct atio_dist d;
		struct atio_prng r;
		const uint64_t n = 100000, draws = 1000000;
		uint64_t hot = 0, hotter = 0;

		atio_dist_init(&d, &p, n, 5);
		atio_prng_seed(&r, 31, 0);
		for (uint64_t j = 0; j < draws; j++) {
			uint64_t k = atio_dist_place(&d, &r);

			assert_true(k < n);
			hot += k < (uint64_t)((1.0 - hs[i]) * (double)n);
			hotter += k < (uint64_t)((1.0 - hs[i]) * (1.0 - hs[i]) * (double)n);
		}
		assert_true(fabs((double)hot / (double)draws - hs[i]) < 0.01);
		assert_true(fabs((double)hotter / (double)draws - hs[i] * hs[i]) < 0.01);
	}
}

/* normal: mean in the middle, deviation within 2% of the one asked, all inside. */
static void test_normal(void **state)
{
	const double sds[] = { 10.0, 5.0, 1.0 };

	(void)state;
	for (size_t i = 0; i < sizeof(sds) / sizeof(sds[0]); i++) {
		struct atio_dist_spec s = spec(ATIO_DIST_NORMAL, sds[i]);
		struct atio_dist d;
		struct atio_prng r;
		const uint64_t n = 1000000, draws = 1000000;
		double sum = 0.0, sq = 0.0, mean, sd, want = sds[i] / 100.0 * (double)n;

		atio_dist_init(&d, &s, n, 0);
		atio_prng_seed(&r, 8, 1);
		for (uint64_t j = 0; j < draws; j++) {
			/* The block's middle: the place drawn, within half a block. */
			double x = (double)atio_dist_draw(&d, &r) + 0.5;

			sum += x;
			sq += x * x;
		}
		mean = sum / (double)draws;
		sd = sqrt(sq / (double)draws - mean * mean);
		print_message("normal:%g%%: mean %.1f, sd %.1f, asked %.1f\n", sds[i], mean, sd,
			      want);
		assert_true(fabs(mean - (double)n / 2.0) < 0.01 * want);
		assert_true(fabs(sd - want) < 0.02 * want);
	}
}

/* Hot spots: each zone's share of the draws within 1 point, none in a gap. */
static void test_zones(void **state)
{
	/* 90% to the first 10%, none to the next 10%, 5% to the next 20%, the rest on the rest. */
	struct atio_dist_spec s = { .kind = ATIO_DIST_ZONES, .nzones = 4,
				    .zone_io = { 90, 0, 5, 5 }, .zone_size = { 10, 10, 20, 60 } };
	const double lo[] = { 0, 10, 20, 40 }, hi[] = { 10, 20, 40, 100 };
	struct atio_dist d;
	struct atio_prng r;
	const uint64_t n = 12345, draws = 1000000;
	uint64_t count[4] = { 0 };

	(void)state;
	atio_dist_init(&d, &s, n, 0);
	atio_prng_seed(&r, 2, 2);
	for (uint64_t j = 0; j < draws; j++) {
		double at = 100.0 * (double)atio_dist_draw(&d, &r) / (double)n;

		for (int z = 0; z < 4; z++)
			if (at >= lo[z] && at < hi[z])
				count[z]++;
	}
	for (int z = 0; z < 4; z++)
		assert_true(fabs(100.0 * (double)count[z] / (double)draws - s.zone_io[z]) < 1.0);
	assert_int_equal(count[1], 0);
}

/* The same seed, the same draws. */
static void test_repeatable(void **state)
{
	struct atio_dist_spec z = spec(ATIO_DIST_ZIPF, 1.0);
	struct atio_dist d;
	struct atio_prng a, b;

	(void)state;
	atio_dist_init(&d, &z, 1u << 20, 3);
	atio_prng_seed(&a, 9, 0);
	atio_prng_seed(&b, 9, 0);
	for (int i = 0; i < 10000; i++)
		assert_int_equal(atio_dist_draw(&d, &a), atio_dist_draw(&d, &b));
}

/*
 * --loops --rand: each pass of n draws touches every block exactly once,
 * and the passes go in other orders; the same key, the same passes.
 */
static void test_shuffled(void **state)
{
	const uint64_t sizes[] = { 1, 2, 7, 64, 1000, 4097 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n = sizes[i], moved = 0;
		uint64_t *first = calloc(n, sizeof(*first));
		unsigned char *hit = calloc(n, 1);
		struct atio_dist d, again;

		assert_non_null(first);
		assert_non_null(hit);
		atio_dist_shuffle_init(&d, n, 42);
		atio_dist_shuffle_init(&again, n, 42);
		for (unsigned pass = 0; pass < 3; pass++) {
			memset(hit, 0, n);
			for (uint64_t r = 0; r < n; r++) {
				uint64_t b = atio_dist_shuffled(&d);

				assert_true(b < n);
				assert_int_equal(hit[b], 0);
				hit[b] = 1;
				assert_int_equal(atio_dist_shuffled(&again), b);
				if (pass == 0)
					first[r] = b;
				else if (pass == 1)
					moved += b != first[r];
			}
		}
		/* The second pass in another order than the first. */
		if (n >= 1000)
			assert_true(moved > n * 9 / 10);
		free(first);
		free(hit);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_permutation),
		cmocka_unit_test(test_zipf_frequencies),
		cmocka_unit_test(test_zipf_one),
		cmocka_unit_test(test_zipf_touched),
		cmocka_unit_test(test_pareto),
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_zones),
		cmocka_unit_test(test_repeatable),
		cmocka_unit_test(test_shuffled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
