/* SPDX-License-Identifier: MIT */
#ifndef ATIO_HIST_H
#define ATIO_HIST_H

/*
 * Log-linear latency histogram, in nanoseconds.
 *
 * Derivation. Values below 2^(S+1) (S = ATIO_HIST_SUB_BITS = 7, so below
 * 256 ns) get one bucket each and are exact. A larger value v whose most
 * significant bit is m (2^m <= v < 2^(m+1)) is shifted right by
 * k = m - S bits; v >> k then lies in [2^S, 2^(S+1)), i.e. it keeps the S+1
 * leading bits of v. The bucket index is
 *
 *     index(v) = k * 2^S + (v >> k)
 *
 * which continues exactly where the exact buckets end (k = 0 gives v) and
 * advances by 2^S buckets per power of two. A bucket holds the 2^k values
 * sharing those leading bits, and its lower bound is at least 2^S * 2^k, so
 * a bucket is at most 1/2^S = 0.78% of its lower bound wide. Reporting a
 * bucket's midpoint is therefore off by at most 0.39% from any value in it,
 * inside the 1% the report promises. The largest 64-bit value has m = 63,
 * k = 56 and index 56 * 128 + 255, hence ATIO_HIST_BUCKETS below: 58 KiB per
 * histogram, no clamping, no overflow bucket.
 *
 * Recording is a count-leading-zeros, a shift, an add and four counters: no
 * lock, no allocation, no division. Each thread owns its histograms; they
 * are merged after the threads are joined, and the percentiles are computed
 * only when reporting. Merging adds bucket counts, so a merged histogram is
 * identical to one that recorded every value itself.
 */

#include <stdint.h>
#include <stdbool.h>

#define ATIO_HIST_SUB_BITS 7
#define ATIO_HIST_SUB (1u << ATIO_HIST_SUB_BITS)
#define ATIO_HIST_BUCKETS ((64 - ATIO_HIST_SUB_BITS - 1) * ATIO_HIST_SUB + 2 * ATIO_HIST_SUB)

struct atio_hist {
	uint64_t count;
	uint64_t sum;              /* of all values, for the mean */
	uint64_t min;              /* UINT64_MAX while empty */
	uint64_t max;
	uint64_t bucket[ATIO_HIST_BUCKETS];
};

/* Bucket index of value @v; see the derivation above. */
static inline unsigned atio_hist_index(uint64_t v)
{
	unsigned msb = 63u - (unsigned)__builtin_clzll(v | 1);
	unsigned k = msb > ATIO_HIST_SUB_BITS ? msb - ATIO_HIST_SUB_BITS : 0;

	return (k << ATIO_HIST_SUB_BITS) + (unsigned)(v >> k);
}

/* Record one value (nanoseconds). */
static inline void atio_hist_record(struct atio_hist *h, uint64_t v)
{
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->bucket[atio_hist_index(v)]++;
}

/* Make @h empty. */
void atio_hist_init(struct atio_hist *h);

/* Add every value recorded in @src to @dst. */
void atio_hist_merge(struct atio_hist *dst, const struct atio_hist *src);

/* Smallest and largest value that fall into bucket @i. */
uint64_t atio_hist_bucket_low(unsigned i);
uint64_t atio_hist_bucket_high(unsigned i);

/*
 * The value at percentile @p: the midpoint of the bucket that holds the
 * ceil(p/100 * count)-th smallest value, clamped to [min, max]; p <= 0
 * gives min and p >= 100 gives max exactly. Returns 0 for an empty
 * histogram. The sum behind the mean wraps after 2^64 ns (584 years) of
 * summed latency.
 */
uint64_t atio_hist_percentile(const struct atio_hist *h, double p);

/* Mean of the recorded values, 0 for an empty histogram. */
double atio_hist_mean(const struct atio_hist *h);

/*
 * Standard deviation (of the population) of the recorded values, from the
 * buckets: each value taken as its bucket's midpoint (off by at most 0.39%
 * of it), around the exact mean. Off from the true one by at most 0.39% of
 * the root mean square of the values, sqrt(stdev^2 + mean^2); 0 for fewer
 * than two values. Recording stays as it is: no square in the hot path.
 */
double atio_hist_stdev(const struct atio_hist *h);

/*
 * How many recorded values are at most @limit: every bucket whose midpoint
 * is at most @limit counts whole, so a value within 0.39% of @limit may be
 * counted on the other side of it.
 */
uint64_t atio_hist_count_upto(const struct atio_hist *h, uint64_t limit);

#endif
