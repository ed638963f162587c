/* SPDX-License-Identifier: MIT */
/*
 * The turns of a sequential pass: a lane's end, a segment's; and --dist's
 * draws (atio/run/cursor.h).
 */
#include "atio/run/cursor.h"

/* Lanes of a segment of @blocks blocks with a step of @k: min(k, blocks). */
static uint64_t lanes(uint64_t blocks, uint64_t k)
{
	return k < blocks ? k : blocks;
}

/* The highest block of lane @lane (< blocks) with step @k. */
static uint64_t lane_top(uint64_t blocks, uint64_t k, uint64_t lane)
{
	return lane + (blocks - 1 - lane) / k * k;
}

static uint64_t stride_blocks(const struct atio_worker *w)
{
	const struct atio_opts *o = w->sh->opts;

	return o->stride ? o->stride / o->bs : 1;
}

void atio_cursor_start(const struct atio_worker *w, struct atio_cursor *c)
{
	uint64_t k = stride_blocks(w);
	uint64_t blocks;

	if (!w->sh->opts->backward) {
		c->seg = 0;
		c->lane = c->block = 0;
		c->step = k;
		return;
	}
	c->seg = w->nsegs - 1;
	blocks = w->segs[c->seg].blocks;
	c->lane = lanes(blocks, k) - 1;
	c->block = lane_top(blocks, k, c->lane);
	c->step = -k;
}

void atio_cursor_turn(const struct atio_worker *w, struct atio_cursor *c)
{
	uint64_t k = stride_blocks(w);
	uint64_t blocks = w->segs[c->seg].blocks;

	if (!w->sh->opts->backward) {
		if (++c->lane < lanes(blocks, k)) {
			c->block = c->lane;
			return;
		}
		c->lane = c->block = 0;
		if (++c->seg == w->nsegs)
			c->seg = 0;
		return;
	}
	if (c->lane > 0) {
		c->lane--;
		c->block = lane_top(blocks, k, c->lane);
		return;
	}
	c->seg = c->seg ? c->seg - 1 : w->nsegs - 1;
	blocks = w->segs[c->seg].blocks;
	c->lane = lanes(blocks, k) - 1;
	c->block = lane_top(blocks, k, c->lane);
}

/*
 * The share is the thread's segments one after the other, all of the same
 * number of blocks. The permutation is keyed by --seed and the thread when
 * --seed is given, else by the thread alone: the hot blocks stay where they
 * are from run to run and move only with --seed.
 */
void atio_cursor_dist_start(const struct atio_worker *w, struct atio_cursor *c)
{
	const struct atio_opts *o = w->sh->opts;
	uint64_t key = (o->seed_given ? o->seed : 0) ^ ((uint64_t)w->id * 0x9e3779b97f4a7c15ULL);

	atio_dist_init(&c->dist, &o->dist, (uint64_t)w->nsegs * w->segs[0].blocks, key);
}

void atio_cursor_skewed(struct atio_worker *w, struct atio_cursor *c, unsigned *s, uint64_t *b)
{
	uint64_t x = c->shuffled ? atio_dist_shuffled(&c->dist) : atio_dist_draw(&c->dist, &w->rng);
	uint64_t per = w->segs[0].blocks;

	if (w->nsegs == 1) {
		*s = 0;
		*b = x;
		return;
	}
	*s = (unsigned)(x / per);
	*b = x % per;
}
