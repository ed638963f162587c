/* SPDX-License-Identifier: MIT */
/*
 * A load thread's setting up and tearing down: its requests, file table
 * and interval records (on the main thread), its buffers (on the thread
 * itself), and their release. The thread's run is worker.c's
 * and loop.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/buf.h"
#include "atio/run/fail.h"
#include "atio/run/sizes.h"
#include "atio/run/worker.h"

/*
 * The records a run is likely to close, for --interval's first allocation;
 * a long run's arrays grow when an interval closes, never per I/O.
 */
size_t atio_worker_expected_ivals(const struct atio_opts *o)
{
	uint64_t n = o->time_ns / o->interval_ns + 2;

	return n > 256 ? 256 : (size_t)n;
}

/*
 * --fadvise: the advice on each of @w's segments. The kernel keeps
 * POSIX_FADV_RANDOM and POSIX_FADV_SEQUENTIAL for the open file as a
 * whole, so threads that share a file give it the same advice each.
 */
static int advise(struct atio_worker *w)
{
	const struct atio_opts *o = w->sh->opts;
	static const int advice[] = {
		[ATIO_FADVISE_NORMAL] = POSIX_FADV_NORMAL,
		[ATIO_FADVISE_RANDOM] = POSIX_FADV_RANDOM,
		[ATIO_FADVISE_SEQUENTIAL] = POSIX_FADV_SEQUENTIAL,
	};

	if (o->fadvise == ATIO_FADVISE_NONE || w->engine->no_io)
		return 0;
	for (unsigned s = 0; s < w->nsegs; s++) {
		const struct atio_segment *g = &w->segs[s];
		int err = posix_fadvise(g->fd, (off_t)g->start, (off_t)(g->blocks * o->bs),
					advice[o->fadvise]);

		if (err)
			return atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: cannot give the "
					      "kernel the advice --fadvise %s: %s",
					      atio_worker_path(w, g->fd),
					      atio_fadvise_name(o->fadvise), strerror(err));
	}
	return 0;
}

int atio_worker_setup(struct atio_worker *w, struct atio_shared *sh, unsigned id)
{
	struct atio_dataset *ds = sh->ds;
	struct atio_segment *segs = &ds->segs[ds->first_seg[id]];
	unsigned depth = sh->depth;

	memset(w, 0, sizeof(*w));
	w->id = id;
	w->sh = sh;
	w->engine = sh->engine;
	w->depth = depth;
	w->segs = segs;
	w->nsegs = ds->first_seg[id + 1] - ds->first_seg[id];
	atio_prng_seed(&w->rng, sh->opts->seed, id);
	atio_stats_init(&w->st);

	w->fds = calloc(w->nsegs, sizeof(*w->fds));
	w->reqs = calloc(depth, sizeof(*w->reqs));
	w->done = calloc(depth, sizeof(*w->done));
	w->spare = calloc(depth, sizeof(*w->spare));
	w->batch = calloc(depth, sizeof(*w->batch));
	if (atio_mode_two_way(sh->opts->mode)) {
		w->dir = malloc(ATIO_DIRS * sizeof(*w->dir));
		if (w->dir)
			atio_dir_stats_init(w->dir);
		/* R% of 2^64, rounded down: a draw below it has the chance R/100. */
		w->read_below = (uint64_t)(((unsigned __int128)sh->opts->mix << 64) / 100);
	}
	if (!w->fds || !w->reqs || !w->done || !w->spare || !w->batch ||
	    (atio_mode_two_way(sh->opts->mode) && !w->dir) || atio_sizes_init(w) ||
	    atio_ival_rec_init(&w->iv, &w->st, w->dir, sh->opts->interval_ns,
			       atio_worker_expected_ivals(sh->opts)))
		return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM,
				      "out of memory for thread %u", id);

	/* The thread's file table: each file once, in segment order. */
	for (unsigned s = 0; s < w->nsegs; s++) {
		unsigned i = 0;

		while (i < w->nfds && w->fds[i] != segs[s].fd)
			i++;
		if (i == w->nfds)
			w->fds[w->nfds++] = segs[s].fd;
		segs[s].slot = i;
	}
	for (unsigned i = 0; i < depth; i++) {
		w->reqs[i].index = i;
		w->reqs[i].len = sh->opts->bs;
		w->reqs[i].op = sh->opts->mode == ATIO_MODE_READ ? ATIO_REQ_READ : ATIO_REQ_WRITE;
		w->spare[depth - 1 - i] = &w->reqs[i];
	}
	return advise(w);
}

/*
 * The key of thread @id's writes in this run: of the seed, the host and
 * the thread (atio_data_key()), and of the run's own id (sh->run_id), so
 * that no two runs write with one key, not even two of the same --seed
 * (whose offsets are the same). A write's key and generation then name
 * it across runs too: a block of an earlier run, rolled back to, never
 * passes for this run's write of the same generation or a later one
 * (atio/data/journal.h).
 */
static uint64_t pool_key(const struct atio_shared *sh, unsigned id)
{
	return atio_data_key(sh->opts->seed ^ sh->run_id, "pool", id);
}

/* See worker.h. */
int atio_worker_buffers(struct atio_worker *w)
{
	const struct atio_opts *o = w->sh->opts;
	uint64_t key;
	int ret;

	if (o->mode == ATIO_MODE_READ) {
		size_t len = (size_t)o->bs * w->depth;

		w->rbuf = atio_buf_alloc(len, o->thp);
		if (!w->rbuf)
			return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM,
					      "out of memory for %zu bytes of read buffers", len);
		for (unsigned i = 0; i < w->depth; i++)
			w->reqs[i].buf = (char *)w->rbuf + (size_t)i * o->bs;
		w->buf_base = w->rbuf;
		w->buf_len = len;
		w->buf_huge = atio_buf_huge(len, o->thp);
		/* --verify: room to make one block's keystream. */
		if (o->verify && !(w->vks = malloc((size_t)o->bs)))
			return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM,
					      "out of memory for %zu bytes to verify blocks in",
					      (size_t)o->bs);
		return 0;
	}
	key = pool_key(w->sh, w->id);
	ret = atio_pool_init_tail(&w->pool, o->bs, w->depth, o->pool_cover, key, o->thp,
				  atio_mode_two_way(o->mode) ? (size_t)o->bs * w->depth : 0);
	w->mix_rbuf = w->pool.tail;
	if (ret)
		return atio_error_set(&w->err, ATIO_EXIT_FAIL, -ret,
				      "cannot prepare the write buffers: %s", strerror(-ret));
	if (atio_opts_reduced(o)) {
		atio_reduce_plan(&w->reduce, o->compress, o->dedup, o->dedup_unit,
				 w->sh->ds->file_size, o->seed);
		w->pool.reduce = &w->reduce;
	}
	/*
	 * --verify on writes: the map (by unit with an -s mix), keystream for
	 * --mix reads, the journal's list.
	 */
	if (o->verify && (atio_genmap_init(&w->gm, w->nsegs, w->segs[0].blocks *
					   (o->bs / atio_opts_unit(o)), o->thp) ||
			  !(w->vks = malloc((size_t)o->bs)) ||
			  (w->sh->journal && atio_journal_list_init(&w->jl, o->qsync))))
		return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM, "out of memory for "
				      "--verify's map of %" PRIu64 " blocks",
				      (uint64_t)w->nsegs * w->segs[0].blocks);
	w->buf_base = w->pool.base;
	w->buf_len = w->pool.size;
	w->buf_huge = atio_buf_huge(w->buf_len, o->thp);
	return 0;
}

void atio_worker_teardown(struct atio_worker *w)
{
	atio_pool_free(&w->pool);
	atio_buf_free(w->rbuf, w->buf_len);
	free(w->fds);
	free(w->reqs);
	free(w->done);
	free(w->spare);
	free(w->batch);
	free(w->dir);
	free(w->vks);
	atio_keystream_end(&w->vctx);
	atio_ival_rec_free(&w->iv);
	atio_pass_rec_free(&w->pass);
	atio_genmap_free(&w->gm);
	atio_journal_list_free(&w->jl);
	atio_sizes_free(w);
	w->vks = NULL;
	w->dir = NULL;
	w->mix_rbuf = NULL;
	w->rbuf = NULL;
	w->fds = NULL;
	w->reqs = NULL;
	w->done = w->spare = w->batch = NULL;
}

int atio_worker_engine_start(struct atio_worker *w)
{
	char why[320];
	int ret = w->engine->init(&w->io);

	if (ret)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, -ret, "thread %u: the %s engine cannot "
			       "start: %s", w->id, w->engine->name,
			       atio_engine_why(w->engine, -ret, why, sizeof(why)));
	return ret;
}
