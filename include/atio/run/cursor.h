/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CURSOR_H
#define ATIO_CURSOR_H

/*
 * Where and when a load thread's next I/O goes. Per I/O the cursor draws
 * an offset (a multiply for random, an increment for sequential) and, for
 * a write, takes the pool's window of that block; under --rate it says
 * when the I/O is due on the thread's schedule (atio/run/pace.h).
 *
 * --mix R. Each I/O is a read when the thread's next 64 random bits fall
 * below R% of 2^64 (a comparison with a threshold computed once), else a
 * write taken from the pool and stamped as --write's. Reads use a buffer
 * of their request's own, after the pool in the same allocation (a request
 * that reads keeps its last write's window marked busy until it writes
 * again: one window a request at most, which the pool has room for).
 *
 * --rewrite. Each I/O first reads its block into the request's buffer
 * after the pool (as --mix's reads); once that read has completed, the
 * request becomes the write of the same block at the same offset, with
 * the pool's window of the block, stamped with the next generation: new
 * data, not the bytes read.
 *
 * Everything here is inline, for the run loops (src/run/loop.c), which
 * pass their flags as constants: each copy of a loop carries only the
 * branches its run needs.
 */

#include <stdbool.h>
#include <stdint.h>

#include "atio/base/prng.h"
#include "atio/engine/engine.h"
#include "atio/run/dist.h"
#include "atio/run/genmap.h"
#include "atio/run/pace.h"
#include "atio/run/sizes.h"
#include "atio/run/worker.h"

/* Where the next I/O goes and how many writes since the last sync. */
struct atio_cursor {
	unsigned seg;              /* current segment (sequential) */
	uint64_t block;            /* next block in it (sequential) */
	uint64_t step;             /* blocks to the next one: 1, --stride's, or their negative */
	uint64_t lane;             /* --stride: the first block of the current pass over a segment */
	struct atio_range segs;    /* random: which segment */
	struct atio_range blocks;  /* random: which block */
	struct atio_dist dist;     /* --dist: over the share's blocks, segment after segment */
	unsigned since_sync;
	struct atio_pace pace;     /* --rate: the thread's schedule */
	uint64_t next;             /* --rate: number of the next I/O to issue */
	bool idle;                 /* --rate: every I/O due before the end was issued */
	bool ahead;                /* --verify, random: the next block is drawn */
	/* --size, --loops (atio/run/limits.h), in the measured time only */
	bool limited;              /* the run ends after c->left more I/Os */
	bool shuffled;             /* --loops --rand: each pass a permutation of the share */
	uint64_t left;             /* I/Os left to issue */
	unsigned ahead_seg;
	uint64_t ahead_block;
};

/*
 * Sequential order. Each thread goes through its share, segment after
 * segment, adding c->step to the block. With --stride of k blocks a
 * segment is gone through in k lanes: blocks 0, k, 2k, ..., then 1, 1 + k,
 * ..., so that every block is visited once per pass whatever k is.
 * --backward goes through the very same order from its end: the last
 * segment first, the last lane first, each lane from its top down. One
 * add and one compare per I/O; a lane's or segment's end (the block past
 * the segment, or below 0, which wraps past it) is handled out of line.
 */
void atio_cursor_start(const struct atio_worker *w, struct atio_cursor *c);
void atio_cursor_turn(const struct atio_worker *w, struct atio_cursor *c);

/*
 * --dist: prepare the cursor's draw over @w's share, and draw from it: a
 * block of the whole share (atio/run/dist.h), its segment into *@s, its
 * number into *@b; with c->shuffled (--loops with uniform --rand), the
 * next block of the pass's permutation instead. Out of line: a run without
 * either never calls them.
 */
void atio_cursor_dist_start(const struct atio_worker *w, struct atio_cursor *c);
void atio_cursor_skewed(struct atio_worker *w, struct atio_cursor *c, unsigned *s, uint64_t *b);

/*
 * Draw a random block of @w: its segment into *@s, its number into *@b;
 * with @distributed, as --dist says.
 */
static inline void atio_cursor_draw(struct atio_worker *w, struct atio_cursor *c,
				    bool distributed, unsigned *s, uint64_t *b)
{
	if (distributed) {
		atio_cursor_skewed(w, c, s, b);
		return;
	}
	*s = w->nsegs == 1 ? 0 : (unsigned)atio_prng_below(&w->rng, &c->segs);
	*b = atio_prng_below(&w->rng, &c->blocks);
}

/*
 * An -s mix (atio/run/sizes.h): point @r at @w's next I/O, its size drawn
 * from the mix: at random (@random) or from the sequential cursor, a
 * write (@writing) of the pool's data, a read of --mix (@mixing) into its
 * read buffer, its units' map index with @verifying.
 */
static inline __attribute__((always_inline)) bool
atio_cursor_sized(struct atio_worker *w, struct atio_cursor *c, struct atio_req *r, bool random,
		  bool writing, bool mixing, bool verifying)
{
	const struct atio_sizes *z = w->sz;
	const struct atio_sizes_dir *d = &z->dir[z->per_dir && writing];
	uint64_t x = atio_prng_next(&w->rng), unit;
	const struct atio_segment *seg;
	unsigned i = 0, s;

	while (i + 1 < d->n && x >= d->below[i])
		i++;
	r->len = d->len[i];
	if (random) {
		do {
			s = w->nsegs == 1 ? 0 : (unsigned)atio_prng_below(&w->rng, &c->segs);
			unit = atio_prng_below(&w->rng, &d->places[i]) * d->units[i];
		} while (verifying && w->gm.gen &&
			 atio_sizes_busy(&w->gm, s * z->seg_units + unit, d->units[i]));
	} else {
		if (c->block + d->units[i] > z->seg_units) {
			c->block = 0;
			if (++c->seg == w->nsegs)
				c->seg = 0;
		}
		s = c->seg;
		unit = c->block;
		c->block += d->units[i];
	}
	seg = &w->segs[s];
	r->fd = seg->fd;
	r->slot = seg->slot;
	r->off = seg->start + unit * z->unit;
	if (verifying)
		r->block = s * z->seg_units + unit;
	if (writing)
		r->buf = atio_pool_take_len(&w->pool, r->index, s * z->seg_units + unit, r->off,
					    seg->tag, r->len);
	else if (mixing)
		r->buf = w->mix_rbuf + (size_t)r->index * w->sh->opts->bs;
	return true;
}

/*
 * Point @r at @w's next block: offset, file and, for writes (@writing),
 * fresh data. With @mixing, first draw whether it reads or writes. With
 * @rewriting, it reads, and r->block says which block of the share for
 * atio_cursor_write_back(). With
 * @distributed (--dist, with @random), the block comes from the run's
 * distribution instead of a uniform draw. With
 * @verifying on writes (w->gm.gen set), never two I/Os of a block in
 * flight (atio/run/genmap.h): blocks are drawn one I/O ahead, so that the
 * next one's map word is fetched while this one is issued. A uniform draw
 * of a block in flight is drawn again; a --dist draw is kept and false
 * returned, for the caller to retry once an I/O has completed: drawing
 * again would take I/Os away from the hot blocks, which are the ones most
 * often in flight. True otherwise. With @sizing (an -s mix, never with
 * @distributed), the size and place come from atio/run/sizes.h.
 */
static inline __attribute__((always_inline)) bool
atio_cursor_aim(struct atio_worker *w, struct atio_cursor *c, struct atio_req *r, bool random,
		bool writing, bool mixing, bool rewriting, bool verifying, bool distributed,
		bool sizing)
{
	const struct atio_segment *seg;
	uint64_t block;

	if (rewriting) {
		writing = false;
		r->op = ATIO_REQ_READ;
		r->buf = w->mix_rbuf + (size_t)r->index * r->len;
	}
	if (mixing) {
		writing = atio_prng_next(&w->rng) >= w->read_below;
		r->op = writing ? ATIO_REQ_WRITE : ATIO_REQ_READ;
		if (!writing && !sizing)
			r->buf = w->mix_rbuf + (size_t)r->index * r->len;
	}
	if (sizing)
		return atio_cursor_sized(w, c, r, random, writing, mixing, verifying);

	if (random && verifying && w->gm.gen) {
		unsigned s;
		uint64_t b;

		do {
			if (!c->ahead)
				atio_cursor_draw(w, c, distributed, &c->ahead_seg, &c->ahead_block);
			c->ahead = true;
			s = c->ahead_seg;
			b = c->ahead_block;
			if (distributed && atio_genmap_busy(&w->gm, s * w->gm.seg_blocks + b))
				return false;
			atio_cursor_draw(w, c, distributed, &c->ahead_seg, &c->ahead_block);
			__builtin_prefetch(&w->gm.gen[c->ahead_seg * w->gm.seg_blocks +
						      c->ahead_block], 1, 0);
		} while (!distributed && atio_genmap_busy(&w->gm, s * w->gm.seg_blocks + b));
		seg = &w->segs[s];
		block = b;
	} else if (random && distributed) {
		unsigned s;
		uint64_t b;

		atio_cursor_skewed(w, c, &s, &b);
		seg = &w->segs[s];
		block = b;
	} else if (random) {
		seg = w->nsegs == 1 ? w->segs : &w->segs[atio_prng_below(&w->rng, &c->segs)];
		block = atio_prng_below(&w->rng, &c->blocks);
	} else {
		seg = &w->segs[c->seg];
		block = c->block;
		c->block += c->step;
		if (__builtin_expect(c->block >= seg->blocks, 0))
			atio_cursor_turn(w, c);
	}
	r->fd = seg->fd;
	r->slot = seg->slot;
	r->off = seg->start + block * r->len;
	if (verifying)
		r->block = (uint64_t)(seg - w->segs) * w->gm.seg_blocks + block;
	else if (rewriting)
		r->block = (uint64_t)(seg - w->segs) * seg->blocks + block;
	/* The pool's window of the block's place in the thread's whole share. */
	if (writing)
		r->buf = atio_pool_take(&w->pool, r->index,
					(uint64_t)(seg - w->segs) * seg->blocks + block, r->off,
					seg->tag);
	return true;
}

/*
 * --rewrite: @r's read of its block has completed; make it the write of
 * that block at the same offset, with the pool's next data for it.
 */
static inline void atio_cursor_write_back(struct atio_worker *w, struct atio_req *r)
{
	const struct atio_segment *seg = w->nsegs == 1 ? w->segs
		: &w->segs[r->block / w->segs[0].blocks];

	r->op = ATIO_REQ_WRITE;
	r->buf = atio_pool_take(&w->pool, r->index, r->block, r->off, seg->tag);
}

/*
 * --rate, one request at a time: wait until the next I/O is due and count
 * it issued. Returns its intended start (clock ticks); 0 when none is due
 * before tick @end (c->idle is then set: the caller waits out the time) or
 * when *@stop was set during the wait.
 */
static inline uint64_t atio_cursor_pace(struct atio_cursor *c, uint64_t end, const int *stop)
{
	uint64_t due = atio_pace_due(&c->pace, c->next);

	if (due >= end) {
		c->idle = true;
		return 0;
	}
	if (!atio_pace_wait(due, stop))
		return 0;
	c->next++;
	return due;
}

/* What atio_cursor_due() found of the next I/O. */
enum atio_due { ATIO_DUE_NOW, ATIO_DUE_LATER, ATIO_DUE_NEVER };

/*
 * --rate, at depth: whether the next I/O is due at tick @now. Its intended
 * start goes to *@due; ATIO_DUE_NEVER (c->idle set) when it is at or past
 * @end, ATIO_DUE_LATER when it is after @now. The caller that issues it
 * calls atio_cursor_issued().
 */
static inline enum atio_due atio_cursor_due(struct atio_cursor *c, uint64_t now, uint64_t end,
					    uint64_t *due)
{
	*due = atio_pace_due(&c->pace, c->next);
	if (*due >= end) {
		c->idle = true;
		return ATIO_DUE_NEVER;
	}
	return *due > now ? ATIO_DUE_LATER : ATIO_DUE_NOW;
}

/* --rate, at depth: @r, due at tick @due, was handed to the engine. */
static inline void atio_cursor_issued(struct atio_cursor *c, struct atio_req *r, uint64_t due)
{
	r->due = due;
	c->next++;
}

#endif
