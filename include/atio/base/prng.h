/* SPDX-License-Identifier: MIT */
#ifndef ATIO_PRNG_H
#define ATIO_PRNG_H

/*
 * Per-thread pseudo-random numbers for offsets: xoshiro256** seeded through
 * splitmix64. Header-only because it runs once per I/O.
 *
 * Offsets must be uniform over a range of n blocks. Reducing a 64-bit value
 * with "x % n" costs a division per I/O and is biased; instead
 * atio_prng_below() takes the high 64 bits of the 128-bit product x * n
 * (Lemire, "Fast Random Integer Generation in an Interval", 2019) and
 * rejects the few products whose low half falls under 2^64 mod n. That
 * threshold needs one division, done once by atio_range_init(), never per
 * I/O. A draw is rejected with probability below n / 2^64: about 1 in 2^32
 * draws for the 2^32 blocks of a 16 TiB file of 4 KiB blocks.
 */

#include <stdint.h>

struct atio_prng {
	uint64_t s[4];
};

/* A range [0, n) prepared for atio_prng_below(); n >= 1. */
struct atio_range {
	uint64_t n;
	uint64_t threshold;        /* 2^64 mod n */
};

static inline uint64_t atio_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Seed a generator from the run's seed and a stream number (the thread
 * index), so that every thread draws a different, repeatable sequence.
 */
static inline void atio_prng_seed(struct atio_prng *r, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);

	for (int i = 0; i < 4; i++)
		r->s[i] = atio_splitmix64(&x);
}

static inline uint64_t atio_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* Next 64 uniformly distributed bits. */
static inline uint64_t atio_prng_next(struct atio_prng *r)
{
	uint64_t *s = r->s;
	uint64_t out = atio_rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = atio_rotl64(s[3], 45);
	return out;
}

/* Prepare [0, n) for atio_prng_below(). n must be at least 1. */
static inline void atio_range_init(struct atio_range *g, uint64_t n)
{
	g->n = n;
	g->threshold = (0 - n) % n;
}

/* A uniformly distributed integer in [0, g->n), without division. */
static inline uint64_t atio_prng_below(struct atio_prng *r, const struct atio_range *g)
{
	for (;;) {
		unsigned __int128 m = (unsigned __int128)atio_prng_next(r) * g->n;

		if ((uint64_t)m >= g->threshold)
			return (uint64_t)(m >> 64);
	}
}

#endif
