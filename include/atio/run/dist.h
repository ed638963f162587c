/* SPDX-License-Identifier: MIT */
#ifndef ATIO_DIST_H
#define ATIO_DIST_H

/*
 * --dist: skewed random access over the n blocks of a thread's share.
 *
 * zipf:THETA and pareto:H draw a rank (0 the hottest) and turn it into a
 * block through a keyed permutation of [0, n): every block can be the
 * hottest, and the blocks touched are exactly as many as the ranks drawn.
 * normal:SD% and the hot-spot zones draw a place in the share itself.
 *
 * zipf: P(rank k) is proportional to 1 / (k + 1)^THETA, drawn exactly by
 * rejection-inversion (W. Hörmann, G. Derflinger, "Rejection-inversion to
 * generate variates from monotone discrete distributions", 1996): the
 * rank's area under a hat over [0.5, n + 0.5] is found by inverting the
 * hat's integral, and the draw is kept when it falls in the part of the
 * area that is the rank's own weight. Any THETA > 0, 1 included; under
 * two draws per rank on average, no table, no sum over n.
 *
 * pareto: self-similar: a fraction 1 - H of the ranks (the hottest) gets
 * a fraction H of the I/Os, and so again within them ((1 - H)^2 of the
 * ranks get H^2 of the I/Os, ...): rank = floor(n * U^(log(1 - H) / log H))
 * with U uniform in [0, 1).
 *
 * normal: a Gaussian (Marsaglia's polar method) centred in the middle of
 * the share, with a standard deviation of SD% of the share, drawn again
 * when it falls outside the share.
 *
 * zones: a zone is picked with its share of the I/Os, then a block in it
 * uniformly.
 *
 * The permutation is atio/base/perm.h's: a bijection of [0, n), keyed by
 * the caller.
 *
 * Shuffled passes (--loops with uniform --rand): the i-th block of a pass
 * is the permutation's image of i, so that a pass of n draws touches every
 * block exactly once; each pass is keyed anew from the caller's key and
 * its number, so that no two passes go in the same order.
 */

#include <stdint.h>

#include "atio/base/opts.h"
#include "atio/base/perm.h"
#include "atio/base/prng.h"

struct atio_dist {
	enum atio_dist_kind kind;
	uint64_t n;                /* blocks of the share */
	struct atio_perm perm;     /* the permutation: zipf, pareto */
	/* zipf */
	double theta, h_first, h_last, squeeze;
	/* pareto */
	double power;
	/* normal: in blocks */
	double mid, sd;
	/* zones */
	unsigned nzones;
	uint64_t below[ATIO_DIST_MAX_ZONES];   /* zone i when the next 64 bits are below */
	uint64_t start[ATIO_DIST_MAX_ZONES];
	struct atio_range blocks[ATIO_DIST_MAX_ZONES];
	/* shuffled passes */
	uint64_t base_key;         /* the caller's key */
	uint64_t pass;             /* the current pass, from 0 */
	uint64_t next;             /* the next place in it */
};

/* Prepare @d for @spec over @n >= 1 blocks, its permutation keyed by @key. */
void atio_dist_init(struct atio_dist *d, const struct atio_dist_spec *spec, uint64_t n,
		    uint64_t key);

/* The place in [0, n) drawn from @r: a rank (zipf, pareto) or a block. */
uint64_t atio_dist_place(const struct atio_dist *d, struct atio_prng *r);

/* The permutation's block of rank @x < n. */
uint64_t atio_dist_permute(const struct atio_dist *d, uint64_t x);

/* The next block of the share, in [0, n). */
uint64_t atio_dist_draw(const struct atio_dist *d, struct atio_prng *r);

/*
 * Prepare @d for shuffled passes over @n >= 1 blocks, keyed by @key; then
 * the next block of the current pass (a new pass after n of them).
 */
void atio_dist_shuffle_init(struct atio_dist *d, uint64_t n, uint64_t key);
uint64_t atio_dist_shuffled(struct atio_dist *d);

#endif
