/* SPDX-License-Identifier: MIT */
#ifndef ATIO_PERM_H
#define ATIO_PERM_H

/*
 * A keyed permutation of [0, n): a Feistel network of ATIO_PERM_ROUNDS
 * rounds over the smallest power of two not below n, walked again while
 * its result is n or more (cycle-walking). --dist places its ranks with it
 * (atio/run/dist.h); --dedup spreads the copies of a block's content with
 * it (atio/data/reduce.h). Header-only: it runs once per I/O.
 */

#include <stdint.h>

#include "atio/base/prng.h"

#define ATIO_PERM_ROUNDS 4

struct atio_perm {
	uint64_t n;                /* at least 1 */
	unsigned bits;
	uint64_t key[ATIO_PERM_ROUNDS];
};

/* Prepare @p as a permutation of [0, @n) (@n 0 counts as 1) keyed by @key. */
static inline void atio_perm_init(struct atio_perm *p, uint64_t n, uint64_t key)
{
	p->n = n ? n : 1;
	p->bits = 0;
	while (p->bits < 64 && (1ULL << p->bits) < p->n)
		p->bits++;
	for (unsigned i = 0; i < ATIO_PERM_ROUNDS; i++)
		p->key[i] = atio_splitmix64(&key);
}

/* A round of the permutation: 64 well-mixed bits of @x and the round's key. */
static inline uint64_t atio_perm_round(uint64_t x, uint64_t key)
{
	x ^= key;
	x = (x ^ (x >> 31)) * 0x7fb5d329728ea185ULL;
	x = (x ^ (x >> 27)) * 0x81dadef4bc2dd44dULL;
	return x ^ (x >> 33);
}

static inline uint64_t atio_perm_low(unsigned n)
{
	return n >= 64 ? UINT64_MAX : (1ULL << n) - 1;
}

/*
 * One pass of the network over [0, 2^bits): x is a left part of hi bits
 * over a right part of lo bits; a round makes the right part the left one
 * and the left part, mixed with a function of the right one, the right
 * one. Each round is undone from its result, so the whole is a bijection
 * whatever the round function; the halves trade widths when bits is odd.
 */
static inline uint64_t atio_perm_pass(const struct atio_perm *p, uint64_t x)
{
	unsigned lo = p->bits / 2, hi = p->bits - lo;

	for (unsigned i = 0; i < ATIO_PERM_ROUNDS; i++) {
		uint64_t left = x >> lo, right = x & atio_perm_low(lo);
		unsigned t;

		x = right << hi | ((left ^ atio_perm_round(right, p->key[i])) & atio_perm_low(hi));
		t = lo;
		lo = hi;
		hi = t;
	}
	return x;
}

/* The image of @x < n. Starting below n, the walk comes back below n: it is on a cycle of x. */
static inline uint64_t atio_perm_at(const struct atio_perm *p, uint64_t x)
{
	do
		x = atio_perm_pass(p, x);
	while (x >= p->n);
	return x;
}

#endif
