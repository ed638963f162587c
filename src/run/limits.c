/* SPDX-License-Identifier: MIT */
/* --size and --loops: the count of a thread's I/Os and its passes (atio/run/limits.h). */
#include "atio/base/clock.h"
#include "atio/run/limits.h"

uint64_t atio_limits_share_blocks(const struct atio_worker *w)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < w->nsegs; i++)
		n += w->segs[i].blocks;
	return n;
}

/* The I/Os --size and --loops leave to @w; UINT64_MAX for one not given. */
static uint64_t size_ios(const struct atio_opts *o)
{
	return o->size ? o->size / o->bs : UINT64_MAX;
}

static uint64_t loops_ios(const struct atio_worker *w)
{
	const struct atio_opts *o = w->sh->opts;
	uint64_t n = atio_limits_share_blocks(w);

	if (!o->loops)
		return UINT64_MAX;
	return n && o->loops > UINT64_MAX / n ? UINT64_MAX - 1 : o->loops * n;
}

void atio_limits_start(struct atio_worker *w, struct atio_cursor *c)
{
	const struct atio_opts *o = w->sh->opts;
	uint64_t by_size = size_ios(o), by_loops = loops_ios(w);

	w->ended = ATIO_END_TIME;
	if (!o->size && !o->loops)
		return;
	c->limited = true;
	c->left = by_size < by_loops ? by_size : by_loops;
	if (!o->loops)
		return;
	/*
	 * A pass begins at the share's start: the warm-up left the cursor
	 * anywhere, and --verify one block drawn ahead. The permutation is
	 * keyed by the run's seed and the thread: the same order again under
	 * the same --seed.
	 */
	atio_cursor_start(w, c);
	c->ahead = false;
	if (o->random && o->dist.kind == ATIO_DIST_UNIFORM) {
		uint64_t key = o->seed ^ ((uint64_t)w->id * 0x9e3779b97f4a7c15ULL);

		atio_dist_shuffle_init(&c->dist, atio_limits_share_blocks(w), key);
		c->shuffled = true;
	}
	/* Without memory for a pass's histogram the run goes on without its table. */
	if (atio_pass_rec_init(&w->pass, atio_limits_share_blocks(w)) == 0)
		atio_pass_rec_start(&w->pass, &w->st, atio_ticks());
}

void atio_limits_end(struct atio_worker *w, const struct atio_cursor *c, uint64_t t)
{
	const struct atio_opts *o = w->sh->opts;

	if (!c->limited)
		return;
	if (!c->left)
		w->ended = size_ios(o) < loops_ios(w) ? ATIO_END_SIZE : ATIO_END_LOOPS;
	if (w->pass.h) {
		atio_pass_rec_finish(&w->pass, &w->st, t);
		w->st.passes = &w->pass.s;
	}
}
