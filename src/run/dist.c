/* SPDX-License-Identifier: MIT */
/* Skewed random access: the samplers and the permutation (atio/run/dist.h). */
#include <math.h>

#include "atio/run/dist.h"

/* A uniform double in [0, 1), from the top 53 bits. */
static double uniform(struct atio_prng *r)
{
	return (double)(atio_prng_next(r) >> 11) * 0x1p-53;
}

/* (e^t - 1) / t, and its limit 1 at t = 0, without cancellation. */
static double expm1_by(double t)
{
	return fabs(t) > 1e-8 ? expm1(t) / t : 1.0 + t / 2.0 + t * t / 6.0;
}

/* log(1 + t) / t, and its limit 1 at t = 0. */
static double log1p_by(double t)
{
	return fabs(t) > 1e-8 ? log1p(t) / t : 1.0 - t / 2.0 + t * t / 3.0;
}

/*
 * Zipf on ranks k = 1..n with weight w(k) = k^-theta. The hat is w itself
 * taken on the reals; big_w(x) its integral from 1, (x^(1-theta) - 1) /
 * (1 - theta), which is log x at theta = 1; inv_w() inverts big_w.
 */
static double weight(double theta, double x)
{
	return exp(-theta * log(x));
}

static double big_w(double theta, double x)
{
	double lx = log(x);

	return lx * expm1_by((1.0 - theta) * lx);
}

static double inv_w(double theta, double y)
{
	double t = (1.0 - theta) * y;

	/* Below -1 only by rounding, at the very end of a huge range. */
	if (t <= -1.0)
		t = -1.0 + 0x1p-52;
	return exp(y * log1p_by(t));
}

static void zipf_init(struct atio_dist *d, double theta)
{
	d->theta = theta;
	/* Rank 1's area is exactly its weight, 1: it is always kept. */
	d->h_first = big_w(theta, 1.5) - 1.0;
	d->h_last = big_w(theta, (double)d->n + 0.5);
	/* Draws within this distance above their rank are kept without a test. */
	d->squeeze = 2.0 - inv_w(theta, big_w(theta, 2.5) - weight(theta, 2.0));
}

/* A rank in [0, n), 0 the hottest. */
static uint64_t zipf_rank(const struct atio_dist *d, struct atio_prng *r)
{
	for (;;) {
		double u = d->h_last + uniform(r) * (d->h_first - d->h_last);
		double x = inv_w(d->theta, u);
		double k = floor(x + 0.5);

		if (k < 1.0)
			k = 1.0;
		else if (k > (double)d->n)
			k = (double)d->n;
		if (k - x <= d->squeeze ||
		    u >= big_w(d->theta, k + 0.5) - weight(d->theta, k))
			return (uint64_t)k - 1;
	}
}

static uint64_t pareto_rank(const struct atio_dist *d, struct atio_prng *r)
{
	uint64_t k = (uint64_t)((double)d->n * pow(uniform(r), d->power));

	return k < d->n ? k : d->n - 1;
}

/* Marsaglia's polar method: one standard normal variate of the two it makes. */
static double gauss(struct atio_prng *r)
{
	double u, v, s;

	do {
		u = 2.0 * uniform(r) - 1.0;
		v = 2.0 * uniform(r) - 1.0;
		s = u * u + v * v;
	} while (s >= 1.0 || s == 0.0);
	return u * sqrt(-2.0 * log(s) / s);
}

static uint64_t normal_block(const struct atio_dist *d, struct atio_prng *r)
{
	for (;;) {
		double x = d->mid + d->sd * gauss(r);

		if (x >= 0.0 && x < (double)d->n)
			return (uint64_t)x;
	}
}

static uint64_t zone_block(const struct atio_dist *d, struct atio_prng *r)
{
	uint64_t x = atio_prng_next(r);
	unsigned i = 0;

	while (i + 1 < d->nzones && x >= d->below[i])
		i++;
	return d->start[i] + atio_prng_below(r, &d->blocks[i]);
}

/*
 * The zones' bounds in blocks, rounded down from their percentages; a zone
 * that gets I/Os has one block at least. The I/O shares become thresholds
 * on 64 random bits; zones without I/Os are left out.
 */
static void zones_init(struct atio_dist *d, const struct atio_dist_spec *spec)
{
	double at = 0.0, io = 0.0, all = 0.0;

	for (unsigned i = 0; i < spec->nzones; i++)
		all += spec->zone_io[i];
	d->nzones = 0;
	for (unsigned i = 0; i < spec->nzones; i++) {
		uint64_t lo = (uint64_t)((double)d->n * at / 100.0);
		uint64_t hi;

		at += spec->zone_size[i];
		hi = (uint64_t)((double)d->n * at / 100.0);
		if (spec->zone_io[i] <= 0.0)
			continue;
		if (lo >= d->n)
			lo = d->n - 1;
		if (hi > d->n)
			hi = d->n;
		if (hi <= lo)
			hi = lo + 1;
		io += spec->zone_io[i];
		d->start[d->nzones] = lo;
		atio_range_init(&d->blocks[d->nzones], hi - lo);
		d->below[d->nzones] = io >= all ? UINT64_MAX
			: (uint64_t)ldexp(io / all, 64);
		d->nzones++;
	}
}

/* See dist.h. */
uint64_t atio_dist_permute(const struct atio_dist *d, uint64_t x)
{
	return atio_perm_at(&d->perm, x);
}

void atio_dist_init(struct atio_dist *d, const struct atio_dist_spec *spec, uint64_t n,
		    uint64_t key)
{
	*d = (struct atio_dist){ .kind = spec->kind, .n = n ? n : 1, .base_key = key };
	atio_perm_init(&d->perm, d->n, key);
	switch (spec->kind) {
	case ATIO_DIST_ZIPF:
		zipf_init(d, spec->arg);
		break;
	case ATIO_DIST_PARETO:
		d->power = log1p(-spec->arg) / log(spec->arg);
		break;
	case ATIO_DIST_NORMAL:
		d->mid = (double)d->n / 2.0;
		d->sd = (double)d->n * spec->arg / 100.0;
		break;
	case ATIO_DIST_ZONES:
		zones_init(d, spec);
		break;
	default:
		break;
	}
}

uint64_t atio_dist_place(const struct atio_dist *d, struct atio_prng *r)
{
	switch (d->kind) {
	case ATIO_DIST_ZIPF:
		return zipf_rank(d, r);
	case ATIO_DIST_PARETO:
		return pareto_rank(d, r);
	case ATIO_DIST_NORMAL:
		return normal_block(d, r);
	case ATIO_DIST_ZONES:
		return zone_block(d, r);
	default:
		return (uint64_t)((double)d->n * uniform(r)) % d->n;
	}
}

uint64_t atio_dist_draw(const struct atio_dist *d, struct atio_prng *r)
{
	uint64_t x = atio_dist_place(d, r);

	if (d->kind == ATIO_DIST_ZIPF || d->kind == ATIO_DIST_PARETO)
		return atio_dist_permute(d, x);
	return x;
}

void atio_dist_shuffle_init(struct atio_dist *d, uint64_t n, uint64_t key)
{
	const struct atio_dist_spec uniform = { .kind = ATIO_DIST_UNIFORM };

	atio_dist_init(d, &uniform, n, key);
}

/* Pass p's keys come from the caller's key and p, as a thread's from --seed and its id. */
uint64_t atio_dist_shuffled(struct atio_dist *d)
{
	if (d->next == d->n) {
		d->next = 0;
		d->pass++;
		atio_perm_init(&d->perm, d->n, d->base_key ^ (d->pass * 0xbf58476d1ce4e5b9ULL));
	}
	return atio_dist_permute(d, d->next++);
}
