/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/stats/hist.h"
#include "atio/stats/stats.h"

/*
 * Test-local generator (splitmix64), independent of atio/base/prng.h so that a
 * fault there cannot hide one here. Every test that uses it sets
 * rnd_state first, which keeps each test deterministic in any order.
 */
static uint64_t rnd_state;

static uint64_t rnd(void)
{
	uint64_t z = (rnd_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A histogram on the heap (58 KiB), initialised over non-zero garbage. */
static struct atio_hist *hist_new(void)
{
	struct atio_hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	memset(h, 0xa5, sizeof(*h));
	atio_hist_init(h);
	return h;
}

/*
 * @v lies in its bucket, which is exact below 256 and otherwise at most
 * 1/128 of its lower bound wide.
 */
static void check_value(uint64_t v)
{
	unsigned i = atio_hist_index(v);
	uint64_t low, high;

	assert_true(i < ATIO_HIST_BUCKETS);
	low = atio_hist_bucket_low(i);
	high = atio_hist_bucket_high(i);
	assert_true(low <= v && v <= high);
	if (i < 2 * ATIO_HIST_SUB)
		assert_true(low == v && high == v);
	else
		assert_true(high - low + 1 <= low / 128);
}

/* Every bucket: its bounds map back to it and the buckets tile [0, 2^64). */
static void test_bucket_bounds_all(void **state)
{
	(void)state;
	assert_int_equal(atio_hist_bucket_low(0), 0);
	assert_true(atio_hist_bucket_high(ATIO_HIST_BUCKETS - 1) == UINT64_MAX);
	assert_int_equal(atio_hist_index(UINT64_MAX), ATIO_HIST_BUCKETS - 1);
	for (unsigned i = 0; i < ATIO_HIST_BUCKETS; i++) {
		uint64_t low = atio_hist_bucket_low(i), high = atio_hist_bucket_high(i);

		assert_int_equal(atio_hist_index(low), i);
		assert_int_equal(atio_hist_index(high), i);
		if (i > 0)
			assert_true(low == atio_hist_bucket_high(i - 1) + 1);
		check_value(low);
		check_value(high);
	}
}

/* Around each power of two a new bucket starts, exactly at 2^m. */
static void test_index_powers_of_two(void **state)
{
	(void)state;
	for (unsigned m = 0; m < 64; m++) {
		uint64_t p = UINT64_C(1) << m;

		check_value(p - 1);
		check_value(p);
		check_value(p + 1);
		assert_int_equal(atio_hist_index(p), atio_hist_index(p - 1) + 1);
		assert_true(atio_hist_bucket_low(atio_hist_index(p)) == p);
		assert_true(atio_hist_bucket_high(atio_hist_index(p - 1)) == p - 1);
	}
}

/* Random values of every magnitude; the index never decreases with v. */
static void test_index_random(void **state)
{
	(void)state;
	rnd_state = 1;
	for (int n = 0; n < 1000000; n++) {
		uint64_t v = rnd() >> (rnd() % 64);

		check_value(v);
		if (v != UINT64_MAX)
			assert_true(atio_hist_index(v) <= atio_hist_index(v + 1));
	}
}

/* qsort() order for uint64_t, without the overflow of a subtraction. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Record @v[0..n) and compare with the sorted values: count, min, max and
 * mean exact, p <= 0 and p >= 100 exact, and the 0.001/1/50/90/99/99.9/99.999th
 * percentiles: the midpoint, clamped to [min, max], of the bucket holding
 * the exact value of rank ceil(p/100 * n) (computed here in integers), so
 * in the same bucket as that value and within 1% of it.
 */
static void check_distribution(uint64_t *v, size_t n)
{
	static const uint64_t milli[] = { 1, 1000, 50000, 90000, 99000, 99900, 99999 };
	struct atio_hist *h = hist_new();
	unsigned __int128 sum = 0;

	for (size_t i = 0; i < n; i++) {
		atio_hist_record(h, v[i]);
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_true(h->count == n && h->min == v[0] && h->max == v[n - 1]);
	assert_true(atio_hist_percentile(h, 0) == v[0] && atio_hist_percentile(h, -3) == v[0]);
	assert_true(atio_hist_percentile(h, 100) == v[n - 1] &&
		    atio_hist_percentile(h, 250) == v[n - 1]);
	if (sum <= UINT64_MAX) {   /* else h->sum wrapped, as the header allows */
		double want = (double)(uint64_t)sum / (double)n, got = atio_hist_mean(h);

		assert_true(h->sum == sum);
		assert_true(got - want <= want * 1e-12 && want - got <= want * 1e-12);
	}
	for (size_t j = 0; j < sizeof(milli) / sizeof(milli[0]); j++) {
		uint64_t rank = (milli[j] * n + 99999) / 100000;
		uint64_t exact = v[rank - 1];
		uint64_t got = atio_hist_percentile(h, (double)milli[j] / 1000.0);
		uint64_t err = got > exact ? got - exact : exact - got;
		unsigned b = atio_hist_index(exact);
		uint64_t low = atio_hist_bucket_low(b), high = atio_hist_bucket_high(b);
		uint64_t mid = low + (high - low) / 2;

		mid = mid < v[0] ? v[0] : mid > v[n - 1] ? v[n - 1] : mid;
		assert_true(got == mid);
		assert_int_equal(atio_hist_index(got), b);
		assert_true((double)err <= 0.01 * (double)exact);
		if (exact < 2 * ATIO_HIST_SUB)
			assert_true(got == exact);
	}
	free(h);
}

/* The distributions: wide uniform, log-normal-ish, log-uniform, top range. */
static void test_percentile_distributions(void **state)
{
	enum { NVAL = 200000 };
	uint64_t *v = malloc(NVAL * sizeof(*v));

	(void)state;
	assert_non_null(v);
	rnd_state = 2;

	for (size_t i = 0; i < NVAL; i++)
		v[i] = rnd() % UINT64_C(1000000000000);
	check_distribution(v, NVAL);

	/*
	 * exp of a roughly normal variable, without libm: the binary exponent
	 * is a sum of four uniforms (bell-shaped over [0, 48]) and the value
	 * is uniform within the octave [2^e, 2^(e + 1)) it picks.
	 */
	for (size_t i = 0; i < NVAL; i++) {
		unsigned e = 0;

		for (int t = 0; t < 4; t++)
			e += (unsigned)(rnd() % 13);
		v[i] = (UINT64_C(1) << e) | (rnd() & ((UINT64_C(1) << e) - 1));
	}
	check_distribution(v, NVAL);

	for (size_t i = 0; i < NVAL; i++)
		v[i] = rnd() >> (rnd() % 64);
	check_distribution(v, NVAL);

	for (size_t i = 0; i < NVAL; i++)
		v[i] = UINT64_MAX - (rnd() >> 4);
	check_distribution(v, NVAL);
	free(v);
}

/*
 * Constant, single and two-valued data. Clamping to [min, max] makes a
 * constant exact whether it sits at the top (2^30 - 1) or the bottom (2^30)
 * of its bucket.
 */
static void test_percentile_few_values(void **state)
{
	/* 1000 values: the first @split equal to @a, the rest to @b */
	static const struct { uint64_t a, b, split; } two[] = {
		{ 123456789, 0, 1000 }, { (1 << 30) - 1, 0, 1000 }, { 1 << 30, 0, 1000 },
		{ 7, 0, 1000 }, { 100, 1000000000, 950 },
		{ 0, UINT64_MAX, 500 }, { 1000003, 1000004, 990 },
	};
	uint64_t v[1000];

	(void)state;
	for (size_t j = 0; j < sizeof(two) / sizeof(two[0]); j++) {
		for (size_t i = 0; i < 1000; i++)
			v[i] = i < two[j].split ? two[j].a : two[j].b;
		check_distribution(v, 1000);
	}
	check_distribution((uint64_t[]){ 5000000007 }, 1);
	check_distribution((uint64_t[]){ 0 }, 1);
	check_distribution((uint64_t[]){ 1000000000, 100 }, 2);
	check_distribution((uint64_t[]){ 255, 256 }, 2);
}

/*
 * The rank is ceil(p/100 * count) for every percentile with three decimals,
 * even where p/100 * count in doubles lands just above an integer (99.9% of
 * 1000 is 999.0000000000001). Values below 256 are exact, so bucket r - 1
 * holding @w values each makes the answer (rank - 1) / w exactly.
 */
static void test_percentile_rank(void **state)
{
	static const uint64_t sizes[][2] = {
		{ 1, 1 }, { 7, 1 }, { 200, 1 }, { 256, 1 }, { 200, 5 }, { 250, 4000 },
	};

	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t nv = sizes[s][0], w = sizes[s][1], n = nv * w;
		struct atio_hist *h = hist_new();

		for (uint64_t x = 0; x < nv; x++)
			for (uint64_t c = 0; c < w; c++)
				atio_hist_record(h, x);
		for (uint64_t k = 1; k < 100000; k++) {
			uint64_t rank = (k * n + 99999) / 100000;

			assert_int_equal(atio_hist_percentile(h, (double)k / 1000.0),
					 (rank - 1) / w);
		}
		free(h);
	}
}

/*
 * Per-thread histograms merged in any order equal, byte for byte, one that
 * recorded everything; merging into an empty one copies, and merging an
 * empty one changes nothing.
 */
static void test_merge(void **state)
{
	enum { NT = 8, ONE = NT, ALL, REV, NH };
	struct atio_hist *h[NH];

	(void)state;
	for (int t = 0; t < NH; t++)
		h[t] = hist_new();
	rnd_state = 3;
	for (int i = 0; i < 300000; i++) {
		uint64_t v = rnd() >> (rnd() % 64);

		atio_hist_record(h[ONE], v);
		atio_hist_record(h[rnd() % (NT - 1)], v);  /* h[NT - 1] stays empty */
	}
	for (int t = 0; t < NT; t++) {
		atio_hist_merge(h[ALL], h[t]);
		atio_hist_merge(h[REV], h[NT - 1 - t]);
	}
	assert_memory_equal(h[ALL], h[ONE], sizeof(struct atio_hist));
	assert_memory_equal(h[REV], h[ONE], sizeof(struct atio_hist));

	atio_hist_init(h[ALL]);
	atio_hist_merge(h[ALL], h[ONE]);
	assert_memory_equal(h[ALL], h[ONE], sizeof(struct atio_hist));
	atio_hist_merge(h[ALL], h[NT - 1]);
	assert_memory_equal(h[ALL], h[ONE], sizeof(struct atio_hist));
	assert_true(h[NT - 1]->count == 0 && h[NT - 1]->min == UINT64_MAX);
	for (int t = 0; t < NH; t++)
		free(h[t]);
}

/* An empty histogram, also after merging only empty ones, answers 0. */
static void test_empty(void **state)
{
	struct atio_hist *h = hist_new(), *e = hist_new();

	(void)state;
	assert_true(h->count == 0 && h->sum == 0 && h->max == 0 && h->min == UINT64_MAX);
	for (unsigned i = 0; i < ATIO_HIST_BUCKETS; i++)
		assert_true(h->bucket[i] == 0);
	atio_hist_merge(h, e);
	assert_memory_equal(h, e, sizeof(*h));
	assert_true(atio_hist_percentile(h, 50) == 0);
	assert_true(atio_hist_percentile(h, 0) == 0 && atio_hist_percentile(h, 100) == 0);
	assert_true(atio_hist_mean(h) == 0.0);
	free(h);
	free(e);
}

/*
 * atio_stats_init empties everything. atio_stats_merge adds the counters
 * and CPU times, merges both histograms and keeps the longer elapsed time,
 * whichever side holds it.
 */
static void test_stats(void **state)
{
	struct {
		struct atio_stats a, b;
		struct atio_hist lat, sync_lat;
	} *t = malloc(sizeof(*t));

	(void)state;
	assert_non_null(t);
	memset(t, 0x5a, sizeof(*t));
	atio_stats_init(&t->a);
	atio_stats_init(&t->b);
	atio_hist_init(&t->lat);
	atio_hist_init(&t->sync_lat);
	assert_true(t->a.ops == 0 && t->a.bytes == 0 && t->a.syncs == 0 && t->a.elapsed_ns == 0 &&
		    t->a.cpu_user_ns == 0 && t->a.cpu_sys_ns == 0);
	assert_memory_equal(&t->a.lat, &t->lat, sizeof(t->lat));
	assert_memory_equal(&t->a.sync_lat, &t->lat, sizeof(t->lat));

	t->a = (struct atio_stats){ .ops = 10, .bytes = 40960, .syncs = 2, .elapsed_ns = 5000,
		.cpu_user_ns = 300, .cpu_sys_ns = 700, .lat = t->lat, .sync_lat = t->lat };
	t->b = (struct atio_stats){ .ops = 3, .bytes = 12288, .syncs = 1, .elapsed_ns = 9000,
		.cpu_user_ns = 11, .cpu_sys_ns = 13, .lat = t->lat, .sync_lat = t->lat };
	rnd_state = 4;
	for (int i = 0; i < 1000; i++) {
		uint64_t v = rnd() % 100000000, w = rnd() % 1000000;

		atio_hist_record(i % 3 ? &t->a.lat : &t->b.lat, v);
		atio_hist_record(&t->lat, v);
		atio_hist_record(i % 5 ? &t->b.sync_lat : &t->a.sync_lat, w);
		atio_hist_record(&t->sync_lat, w);
	}

	atio_stats_merge(&t->a, &t->b);
	assert_true(t->a.ops == 13 && t->a.bytes == 53248 && t->a.syncs == 3);
	assert_true(t->a.cpu_user_ns == 311 && t->a.cpu_sys_ns == 713);
	assert_int_equal(t->a.elapsed_ns, 9000);    /* the longer src wins */
	assert_memory_equal(&t->a.lat, &t->lat, sizeof(t->lat));
	assert_memory_equal(&t->a.sync_lat, &t->sync_lat, sizeof(t->sync_lat));

	t->b.elapsed_ns = 100;
	atio_stats_merge(&t->a, &t->b);
	assert_int_equal(t->a.elapsed_ns, 9000);    /* a shorter one does not */
	assert_int_equal(t->a.ops, 16);
	free(t);
}

/* The population standard deviation of @n values, exactly as a reference. */
static double stdev_of(const uint64_t *v, size_t n)
{
	double mean = 0.0, sum = 0.0;

	for (size_t i = 0; i < n; i++)
		mean += (double)v[i];
	mean /= (double)n;
	for (size_t i = 0; i < n; i++)
		sum += ((double)v[i] - mean) * ((double)v[i] - mean);
	return sqrt(sum / (double)n);
}

/*
 * The standard deviation from the buckets: exact below 256 ns (one value a
 * bucket), 0 for one value or none, and elsewhere within the bound hist.h
 * states: 0.39% of the values' root mean square, over spreads wide and
 * narrow and after a merge.
 */
static void test_stdev(void **state)
{
	struct atio_hist *h = hist_new(), *g = hist_new();
	static uint64_t v[20000];
	const uint64_t small[] = { 3, 7, 7, 100, 255 };
	double want, rms;

	(void)state;
	assert_true(atio_hist_stdev(h) == 0.0);
	atio_hist_record(h, 123456);
	assert_true(atio_hist_stdev(h) == 0.0);
	atio_hist_init(h);
	for (size_t i = 0; i < 5; i++)
		atio_hist_record(h, small[i]);
	assert_true(fabs(atio_hist_stdev(h) - stdev_of(small, 5)) < 1e-9);
	for (unsigned spread = 0; spread < 3; spread++) {
		atio_hist_init(h);
		atio_hist_init(g);
		rnd_state = 42 + spread;
		for (size_t i = 0; i < 20000; i++) {
			/* 100 us +- 1%, 1 us to 10 ms, and two far modes */
			v[i] = spread == 0 ? 99000 + rnd() % 2000
			     : spread == 1 ? 1000 + rnd() % 10000000
			     : (i % 10 ? 20000 : 5000000) + rnd() % 1000;
			atio_hist_record(i % 2 ? h : g, v[i]);
		}
		atio_hist_merge(h, g);
		want = stdev_of(v, 20000);
		rms = sqrt(want * want + atio_hist_mean(h) * atio_hist_mean(h));
		if (fabs(atio_hist_stdev(h) - want) > rms / 256.0)
			fail_msg("spread %u: stdev %.3f, exactly %.3f, bound %.3f", spread,
				 atio_hist_stdev(h), want, rms / 256.0);
	}
	free(h);
	free(g);
}

/* Counting up to a limit: whole buckets by their midpoint, the ends exact. */
static void test_count_upto(void **state)
{
	struct atio_hist *h = hist_new();

	(void)state;
	assert_int_equal(atio_hist_count_upto(h, 1000), 0);
	for (uint64_t x = 1; x <= 100; x++)
		atio_hist_record(h, x * 1000);   /* 1 us .. 100 us */
	assert_int_equal(atio_hist_count_upto(h, 999), 0);
	assert_int_equal(atio_hist_count_upto(h, 100000), 100);
	assert_int_equal(atio_hist_count_upto(h, UINT64_MAX), 100);
	/* 50 us: 50 values at or below it, give or take the one in 0.39% of it */
	assert_in_range(atio_hist_count_upto(h, 50000), 49, 51);
	assert_in_range(atio_hist_count_upto(h, 10000), 9, 11);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_bounds_all),
		cmocka_unit_test(test_index_powers_of_two),
		cmocka_unit_test(test_index_random),
		cmocka_unit_test(test_percentile_distributions),
		cmocka_unit_test(test_percentile_few_values),
		cmocka_unit_test(test_percentile_rank),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_stdev),
		cmocka_unit_test(test_count_upto),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
