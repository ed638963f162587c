/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "atio/stats/hist.h"

/*
 * Make @h empty: no values, no sum, and a minimum of UINT64_MAX so that the
 * first recorded value (or the first merged non-empty histogram) replaces
 * it without a special case.
 */
void atio_hist_init(struct atio_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

/*
 * Add every value of @src to @dst by adding the bucket counts and the
 * counters and combining the extremes. An empty @src (min UINT64_MAX,
 * max 0) leaves @dst unchanged, and merging into a freshly initialised @dst
 * yields an exact copy of @src, so per-thread histograms merged in any
 * order equal one histogram that recorded every value.
 */
void atio_hist_merge(struct atio_hist *dst, const struct atio_hist *src)
{
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (unsigned i = 0; i < ATIO_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

/*
 * Smallest value that atio_hist_index() maps to bucket @i. The first
 * 2 * ATIO_HIST_SUB buckets are exact (low = high = i). Above them, bucket
 * i = k * ATIO_HIST_SUB + s with s in [ATIO_HIST_SUB, 2 * ATIO_HIST_SUB)
 * holds the values whose leading bits are s followed by k free bits, so
 * k = i / ATIO_HIST_SUB - 1 and the lower bound is s << k. For the last
 * bucket that is 255 << 56, which still fits in 64 bits. An @i beyond the
 * table is not a bucket; it is clamped to the last one rather than shifting
 * by 64 or more, which C leaves undefined.
 */
uint64_t atio_hist_bucket_low(unsigned i)
{
	unsigned k;

	if (i >= ATIO_HIST_BUCKETS)
		i = ATIO_HIST_BUCKETS - 1;
	if (i < 2 * ATIO_HIST_SUB)
		return i;
	k = i / ATIO_HIST_SUB - 1;
	return (uint64_t)(i - k * ATIO_HIST_SUB) << k;
}

/*
 * Largest value that atio_hist_index() maps to bucket @i: the lower bound
 * plus the 2^k - 1 values sharing its leading bits. Written as
 * low + (2^k - 1) rather than the next bucket's low minus one, so the last
 * bucket (k = 56) ends at exactly UINT64_MAX without computing 2^64.
 */
uint64_t atio_hist_bucket_high(unsigned i)
{
	unsigned k;

	if (i >= ATIO_HIST_BUCKETS)
		i = ATIO_HIST_BUCKETS - 1;
	if (i < 2 * ATIO_HIST_SUB)
		return i;
	k = i / ATIO_HIST_SUB - 1;
	return atio_hist_bucket_low(i) + ((UINT64_C(1) << k) - 1);
}

/*
 * The 1-based rank ceil(p / 100 * count) for 0 < p < 100, computed without
 * libm. A percentile such as 99.9 is not exact in binary, so the product
 * can land a few ulps above an integer it stands for (999.0000000000001
 * for 99.9% of 1000); a product within a relative 1e-13 of an integer,
 * hundreds of ulps yet far below any gap a decimal percentile creates for
 * realistic counts, is taken as that integer instead of rounding up past
 * it. The result is kept in [1, count], which also keeps a product that
 * rounds up to 2^64 away from an out-of-range conversion.
 */
static uint64_t rank_of(double p, uint64_t count)
{
	double x = p / 100.0 * (double)count;
	uint64_t r;
	double frac;

	if (!(x < (double)count))
		return count;
	if (x < 1.0)
		return 1;
	r = (uint64_t)x;
	frac = x - (double)r;
	if (frac > x * 1e-13)
		r++;
	return r > count ? count : r;
}

/* The value a bucket stands for: its midpoint, clamped to [min, max]. */
static uint64_t bucket_value(const struct atio_hist *h, unsigned i)
{
	uint64_t low = atio_hist_bucket_low(i), high = atio_hist_bucket_high(i);
	uint64_t mid = low + (high - low) / 2;

	return mid < h->min ? h->min : mid > h->max ? h->max : mid;
}

/*
 * The value at percentile @p: walk the buckets, from the one holding the
 * minimum since none below it can be used, until the running count reaches
 * the rank of the wanted value, then report that bucket's midpoint. The
 * midpoint is within half a bucket width, at most 0.39%, of every value in
 * the bucket; clamping it to [min, max] only moves it closer to the true
 * value, which lies in the same range, and makes one-valued histograms
 * exact. p <= 0 (or NaN) gives the minimum and p >= 100 the maximum, both
 * known exactly. An empty histogram gives 0. Should the buckets hold fewer
 * values than count says (a corrupt histogram), the maximum is returned.
 */
uint64_t atio_hist_percentile(const struct atio_hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	if (!(p > 0.0))
		return h->min;
	if (p >= 100.0)
		return h->max;

	rank = rank_of(p, h->count);
	for (unsigned i = atio_hist_index(h->min); i < ATIO_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return bucket_value(h, i);
	}
	return h->max;
}

/*
 * Mean of the recorded values: the exact 64-bit sum divided once, so no
 * rounding accumulates over many values. An empty histogram gives 0
 * rather than a division by zero.
 */
double atio_hist_mean(const struct atio_hist *h)
{
	if (h->count == 0)
		return 0.0;
	return (double)h->sum / (double)h->count;
}

/*
 * See hist.h. The squared deviations are summed in double from the bucket
 * holding the minimum to the one holding the maximum: a few thousand
 * buckets at most, once a report.
 */
double atio_hist_stdev(const struct atio_hist *h)
{
	double mean = atio_hist_mean(h), sum = 0.0;

	if (h->count < 2)
		return 0.0;
	for (unsigned i = atio_hist_index(h->min); i <= atio_hist_index(h->max); i++) {
		double d;

		if (!h->bucket[i])
			continue;
		d = (double)bucket_value(h, i) - mean;
		sum += d * d * (double)h->bucket[i];
	}
	return sqrt(sum / (double)h->count);
}

/* See hist.h. */
uint64_t atio_hist_count_upto(const struct atio_hist *h, uint64_t limit)
{
	uint64_t n = 0;

	if (h->count == 0 || limit < h->min)
		return 0;
	if (limit >= h->max)
		return h->count;
	for (unsigned i = atio_hist_index(h->min); i <= atio_hist_index(h->max); i++)
		if (h->bucket[i] && bucket_value(h, i) <= limit)
			n += h->bucket[i];
	return n;
}
