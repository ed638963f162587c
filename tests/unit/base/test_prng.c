/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "atio/base/prng.h"

#define SEED UINT64_C(0x5eed0a710)

/* 2^64 mod n, computed in 128 bits, independently of atio_range_init. */
static uint64_t mod_2_64(uint64_t n)
{
	return (uint64_t)(((unsigned __int128)1 << 64) % n);
}

/* atio_prng_below stays in [0, n), and for small n reaches every value. */
static void test_below_in_range(void **state)
{
	static const uint64_t ns[] = {
		1, 2, 3, 7, 1000, (UINT64_C(1) << 32) + 1,
		(UINT64_C(1) << 63) + 5, UINT64_MAX,
	};

	(void)state;
	for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
		struct atio_prng r;
		struct atio_range g;
		uint64_t seen = 0, top = 0;

		atio_prng_seed(&r, SEED, j);
		atio_range_init(&g, ns[j]);
		for (int i = 0; i < 200000; i++) {
			uint64_t v = atio_prng_below(&r, &g);

			assert_true(v < ns[j]);
			if (ns[j] <= 64)
				seen |= UINT64_C(1) << v;
			if (v > top)
				top = v;
		}
		if (ns[j] <= 64)
			assert_true(seen == (UINT64_C(1) << ns[j]) - 1);
		/* not stuck low: the upper half of the range is reached */
		assert_true(top >= (ns[j] - 1) / 2);
	}
}

/* The threshold is 2^64 mod n for chosen and for random n. */
static void test_range_threshold(void **state)
{
	static const uint64_t ns[] = {
		1, 2, 3, 7, 10, 1000, UINT64_C(1) << 32, (UINT64_C(1) << 32) + 1,
		UINT64_C(1) << 63, (UINT64_C(1) << 63) + 1, (UINT64_C(1) << 63) + 5,
		UINT64_C(3) << 62, UINT64_MAX - 1, UINT64_MAX,
	};
	struct atio_prng r;
	struct atio_range g;

	(void)state;
	for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++) {
		atio_range_init(&g, ns[j]);
		assert_true(g.n == ns[j]);
		assert_true(g.threshold == mod_2_64(ns[j]));
		assert_true(g.threshold < ns[j]);
	}
	atio_prng_seed(&r, SEED, 0);
	for (int i = 0; i < 100000; i++) {
		uint64_t n = atio_prng_next(&r) >> (atio_prng_next(&r) % 64);

		if (n == 0)
			continue;
		atio_range_init(&g, n);
		assert_true(g.threshold == mod_2_64(n));
	}
}

/* One way of drawing from [0, n): the generator under test or a bad one. */
struct sampler {
	struct atio_prng r;
	struct atio_range g;
	unsigned bits;             /* 0: atio_prng_below; else top bits % n */
};

static uint64_t draw(struct sampler *s, uint64_t n)
{
	if (s->bits == 0)
		return atio_prng_below(&s->r, &s->g);
	return (atio_prng_next(&s->r) >> (64 - s->bits)) % n;
}

/*
 * Pearson's statistic for @samples draws of @s against the uniform law on
 * [0, n). A draw outside the range makes the statistic infinite-ish.
 */
static double chi_square(struct sampler *s, uint64_t n, uint64_t samples)
{
	uint64_t *count = calloc(n, sizeof(*count));
	double expect = (double)samples / (double)n, chi = 0;

	assert_non_null(count);
	for (uint64_t i = 0; i < samples; i++) {
		uint64_t v = draw(s, n);

		if (v >= n) {
			free(count);
			return 1e300;
		}
		count[v]++;
	}
	for (uint64_t v = 0; v < n; v++) {
		double d = (double)count[v] - expect;

		chi += d * d / expect;
	}
	free(count);
	return chi;
}

/*
 * Statistic of atio_prng_below over @n values (range @range, which the test
 * sets to n - 1 or n + 1 to model an off-by-one), or of a @bits-bit
 * generator reduced by % n when @bits is non-zero.
 */
static double chi_of(uint64_t n, uint64_t range, unsigned bits, uint64_t samples)
{
	struct sampler s = { .bits = bits };

	atio_prng_seed(&s.r, SEED, n);
	atio_range_init(&s.g, range);
	return chi_square(&s, n, samples);
}

/*
 * Thresholds. Under uniformity the statistic is chi-square with n - 1
 * degrees of freedom (mean n - 1, standard deviation sqrt(2(n - 1))).
 * From the regularised incomplete gamma function: P(chi2_9 > 50) = 1.1e-7
 * and P(chi2_999 > 1300) = 3.4e-10, so a correct generator fails these
 * with negligible probability whatever the seed. The same thresholds are
 * far below what the faults below produce with these sample counts:
 * - n = 10, 10^6 draws: an off-by-one that never yields 9 adds
 *   (0 - 10^5)^2 / 10^5 = 10^5 on its own; an 8-bit generator reduced by
 *   % 10 gives values 0..5 26/256 and 6..9 25/256, a 2% bias whose
 *   expected statistic is about 9 + 10^6 * 3.7e-4 = 380.
 * - n = 1000, 2 * 10^6 draws: never yielding 999 adds 2000 over the
 *   999 expected; a 12-bit generator % 1000 gives 0..95 5/4096 and the
 *   rest 4/4096, about 999 + 2 * 10^6 * 5.2e-3 = 11400.
 */
#define CHI_10_MAX 50.0
#define CHI_1000_MAX 1300.0

static void test_chi_square_10(void **state)
{
	(void)state;
	assert_true(chi_of(10, 10, 0, 1000000) < CHI_10_MAX);
	/* the test must be able to fail: */
	assert_true(chi_of(10, 9, 0, 1000000) > CHI_10_MAX);
	assert_true(chi_of(10, 11, 0, 1000000) > CHI_10_MAX);
	assert_true(chi_of(10, 10, 8, 1000000) > CHI_10_MAX);
}

static void test_chi_square_1000(void **state)
{
	(void)state;
	assert_true(chi_of(1000, 1000, 0, 2000000) < CHI_1000_MAX);
	assert_true(chi_of(1000, 999, 0, 2000000) > CHI_1000_MAX);
	assert_true(chi_of(1000, 1001, 0, 2000000) > CHI_1000_MAX);
	assert_true(chi_of(1000, 1000, 12, 2000000) > CHI_1000_MAX);
}

/* Same seed and stream repeat; other streams and seeds do not. */
static void test_seed_streams(void **state)
{
	enum { N = 10000 };
	struct atio_prng a, b, c, d;
	int same_stream = 0, same_seed = 0;

	(void)state;
	atio_prng_seed(&a, SEED, 3);
	atio_prng_seed(&b, SEED, 3);
	atio_prng_seed(&c, SEED, 4);
	atio_prng_seed(&d, SEED + 1, 3);
	for (int i = 0; i < N; i++) {
		uint64_t x = atio_prng_next(&a);

		assert_true(x == atio_prng_next(&b));
		same_stream += x == atio_prng_next(&c);
		same_seed += x == atio_prng_next(&d);
	}
	/* a 64-bit coincidence has probability N * 2^-64 */
	assert_int_equal(same_stream, 0);
	assert_int_equal(same_seed, 0);

	/* xoshiro's all-zero state would output zeros forever */
	for (uint64_t seed = 0; seed < 64; seed++)
		for (uint64_t stream = 0; stream < 64; stream++) {
			atio_prng_seed(&a, seed, stream);
			assert_true(a.s[0] | a.s[1] | a.s[2] | a.s[3]);
		}
}

/*
 * Draw @calls values from [0, n) while a shadow generator replays the raw
 * draws each call consumed: every rejected draw must have a low product
 * half under the threshold, the accepted one must not and must give the
 * value returned. Returns the fraction of raw draws rejected; @part counts
 * values in each of @nparts equal slices of [0, n).
 */
static double replay(uint64_t n, int calls, uint64_t *part, unsigned nparts)
{
	struct atio_prng r, shadow;
	struct atio_range g;
	uint64_t draws = 0;

	atio_prng_seed(&r, SEED, n);
	shadow = r;
	atio_range_init(&g, n);
	for (int i = 0; i < calls; i++) {
		uint64_t v = atio_prng_below(&r, &g);
		unsigned __int128 m;
		int steps = 0;

		assert_true(v < n);
		for (;;) {
			m = (unsigned __int128)atio_prng_next(&shadow) * n;
			steps++;
			assert_true(steps < 100);
			if (!memcmp(&shadow, &r, sizeof(r)))
				break;
			assert_true((uint64_t)m < g.threshold);
		}
		assert_true((uint64_t)m >= g.threshold);
		assert_true((uint64_t)(m >> 64) == v);
		draws += (uint64_t)steps;
		part[(unsigned)((unsigned __int128)v * nparts / n)]++;
	}
	return (double)(draws - (uint64_t)calls) / (double)draws;
}

/*
 * Ranges near 2^64 force the rejection path. For n = 2^63 + 1 the
 * threshold is 2^63 - 1, so half the raw draws are rejected; for
 * n = 3 * 2^62 it is 2^62, a quarter. Both still yield uniform values:
 * with 200000 calls a slice's share has a standard deviation near 0.001,
 * so 0.01 is about nine of them, while "% n" on 3 * 2^62 would put half of
 * the values in the first third.
 */
static void test_rejection(void **state)
{
	uint64_t halves[2] = { 0 }, thirds[3] = { 0 };
	double rej;

	(void)state;
	rej = replay((UINT64_C(1) << 63) + 1, 200000, halves, 2);
	assert_true(rej > 0.48 && rej < 0.52);
	for (int j = 0; j < 2; j++)
		assert_true(halves[j] > 200000 * 0.49 && halves[j] < 200000 * 0.51);

	rej = replay(UINT64_C(3) << 62, 200000, thirds, 3);
	assert_true(rej > 0.23 && rej < 0.27);
	for (int j = 0; j < 3; j++)
		assert_true(thirds[j] > 200000 * (1.0 / 3 - 0.01) &&
			    thirds[j] < 200000 * (1.0 / 3 + 0.01));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* first: a wrong threshold can make later tests loop forever */
		cmocka_unit_test(test_range_threshold),
		cmocka_unit_test(test_below_in_range),
		cmocka_unit_test(test_chi_square_10),
		cmocka_unit_test(test_chi_square_1000),
		cmocka_unit_test(test_seed_streams),
		cmocka_unit_test(test_rejection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
