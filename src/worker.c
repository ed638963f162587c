/* SPDX-License-Identifier: MIT */
/*
 * One load thread. The worker is the only place that reads clocks and keeps
 * statistics; the engine only moves bytes. Per I/O the loop draws an offset
 * (one multiply for random, an increment for sequential), stamps the write
 * window, reads the clock before and after the engine, and records the
 * latency in its own histogram: no lock, no allocation, no division.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "atio/worker.h"

uint64_t atio_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Where the next I/O goes and how many writes since the last sync. */
struct cursor {
	unsigned seg;              /* current segment (sequential) */
	uint64_t block;            /* next block in it (sequential) */
	struct atio_range segs;    /* random: which segment */
	struct atio_range blocks;  /* random: which block */
	unsigned since_sync;
};

static uint64_t thread_cpu_ns(uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000u + (uint64_t)ru.ru_stime.tv_usec * 1000u;
	return (uint64_t)ru.ru_utime.tv_sec * 1000000000u + (uint64_t)ru.ru_utime.tv_usec * 1000u;
}

static bool stopped(const struct atio_worker *w)
{
	return __atomic_load_n(&w->sh->stop, __ATOMIC_RELAXED);
}

/* Record an I/O failure and ask every other thread to stop. */
static int fail(struct atio_worker *w, const struct atio_req *r, int64_t res)
{
	static const char *const verb[] = { "read", "write", "fsync", "fdatasync" };
	const char *path = "?";
	int err = res < 0 ? (int)-res : EIO;

	for (unsigned s = 0; s < w->nsegs; s++)
		if (w->segs[s].fd == r->fd)
			path = w->sh->ds->files[w->segs[s].file].path;
	if (res >= 0)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, EIO,
			       "%s: short %s at offset %" PRIu64 ": %" PRId64 " of %zu bytes",
			       path, verb[r->op], r->off, res, r->len);
	else if (r->op >= ATIO_REQ_FSYNC)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: %s: %s",
			       path, verb[r->op], strerror(err));
	else
		atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: %s of %zu bytes at offset %" PRIu64 ": %s",
			       path, verb[r->op], r->len, r->off, strerror(err));
	w->failed = true;
	__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
	return -err;
}

/*
 * Hand one request to the engine and wait for it. The sync engine
 * completes in queue(); an engine that queues is submitted and reaped here,
 * one request at a time, until deeper queues come to the worker.
 */
static int64_t execute(struct atio_worker *w, struct atio_req *r)
{
	const struct atio_engine_ops *eng = w->sh->engine;
	int n;

	if (eng->queue(w, r) == ATIO_Q_COMPLETED)
		return r->res;
	n = eng->submit(w);
	if (n >= 0)
		n = eng->reap(w, 1, 1);
	return n < 0 ? n : w->done[0]->res;
}

static void trace(const struct atio_worker *w, const struct atio_req *r, uint64_t ns)
{
	static const char *const name[] = { "pread", "pwrite", "fsync", "fdatasync" };

	fprintf(stderr, "atio: [%u] %s(fd %d, %zu bytes, offset %" PRIu64 ") = %" PRId64
		" in %.3f usec\n", w->id, name[r->op], r->fd, r->len, r->off, r->res, ns / 1e3);
}

/*
 * Sync every file of the thread (one for the usual one-file-per-thread
 * layout), as one timed sync point.
 */
static int sync_point(struct atio_worker *w, enum atio_req_op op, bool tracing)
{
	struct atio_req r = { .op = op };
	uint64_t t0 = atio_now_ns(), t = t0, t1;

	for (unsigned s = 0; s < w->nsegs; s++) {
		if (s > 0 && w->segs[s].fd == w->segs[s - 1].fd)
			continue;
		r.fd = w->segs[s].fd;
		r.res = execute(w, &r);
		if (tracing) {
			trace(w, &r, atio_now_ns() - t);
			t = atio_now_ns();
		}
		if (r.res < 0)
			return fail(w, &r, r.res);
	}
	t1 = atio_now_ns();
	atio_hist_record(&w->st.sync_lat, t1 - t0);
	__atomic_store_n(&w->st.syncs, w->st.syncs + 1, __ATOMIC_RELAXED);
	return 0;
}

/*
 * The loop, until the first completion at or after @end or a stop. Forced
 * inline with a constant @tracing so that the untraced copy carries no
 * trace branch.
 */
static inline __attribute__((always_inline)) int
run_phase(struct atio_worker *w, struct cursor *c, uint64_t end, const bool tracing)
{
	const struct atio_opts *o = w->sh->opts;
	const bool writing = o->mode != ATIO_MODE_READ;
	const bool syncing = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	const enum atio_req_op sync_op = o->mode == ATIO_MODE_FSYNC ? ATIO_REQ_FSYNC
								  : ATIO_REQ_FDATASYNC;
	const uint64_t bs = o->bs;
	struct atio_req r = {
		.op = writing ? ATIO_REQ_WRITE : ATIO_REQ_READ,
		.len = bs,
		.buf = w->rbuf,
	};

	for (;;) {
		const struct atio_segment *seg;
		uint64_t block, t0, t1;
		int64_t res;

		if (o->random) {
			seg = w->nsegs == 1 ? w->segs : &w->segs[atio_prng_below(&w->rng, &c->segs)];
			block = atio_prng_below(&w->rng, &c->blocks);
		} else {
			seg = &w->segs[c->seg];
			block = c->block;
			if (++c->block == seg->blocks) {
				c->block = 0;
				if (++c->seg == w->nsegs)
					c->seg = 0;
			}
		}
		r.fd = seg->fd;
		r.off = seg->start + block * bs;
		if (writing)
			r.buf = atio_pool_take(&w->pool, r.off);

		t0 = atio_now_ns();
		res = execute(w, &r);
		t1 = atio_now_ns();
		if (tracing)
			trace(w, &r, t1 - t0);
		if (res != (int64_t)bs)
			return fail(w, &r, res);

		atio_hist_record(&w->st.lat, t1 - t0);
		__atomic_store_n(&w->st.ops, w->st.ops + 1, __ATOMIC_RELAXED);
		__atomic_store_n(&w->st.bytes, w->st.bytes + bs, __ATOMIC_RELAXED);

		if (syncing && ++c->since_sync == o->qsync) {
			c->since_sync = 0;
			if (sync_point(w, sync_op, tracing))
				return -1;
			t1 = atio_now_ns();
		}
		if (t1 >= end || stopped(w))
			return 0;
	}
}

static int run_until(struct atio_worker *w, struct cursor *c, uint64_t end)
{
	if (w->sh->opts->verbose >= 3)
		return run_phase(w, c, end, true);
	return run_phase(w, c, end, false);
}

/* The final sync of a write test: inside the measured time unless -S. */
static int final_sync(struct atio_worker *w)
{
	struct atio_req r = { .op = ATIO_REQ_FSYNC };

	for (unsigned s = 0; s < w->nsegs; s++) {
		uint64_t t0 = atio_now_ns();

		if (s > 0 && w->segs[s].fd == w->segs[s - 1].fd)
			continue;
		r.fd = w->segs[s].fd;
		r.res = execute(w, &r);
		if (w->sh->opts->verbose >= 3)
			trace(w, &r, atio_now_ns() - t0);
		if (r.res < 0)
			return fail(w, &r, r.res);
	}
	return 0;
}

int atio_worker_setup(struct atio_worker *w, struct atio_shared *sh, unsigned id)
{
	const struct atio_dataset *ds = sh->ds;

	memset(w, 0, sizeof(*w));
	w->id = id;
	w->sh = sh;
	w->segs = &ds->segs[ds->first_seg[id]];
	w->nsegs = ds->first_seg[id + 1] - ds->first_seg[id];
	atio_prng_seed(&w->rng, sh->opts->seed, id);
	atio_stats_init(&w->st);
	return 0;
}

/*
 * Allocate the thread's buffers on the thread itself, so that the pools of
 * many threads are filled in parallel. Returns 0 or a negative errno.
 */
static int alloc_buffers(struct atio_worker *w)
{
	const struct atio_opts *o = w->sh->opts;
	int ret;

	if (o->mode == ATIO_MODE_READ) {
		if (posix_memalign(&w->rbuf, 4096, o->bs))
			return atio_error_set(&w->err, ATIO_EXIT_FAIL, ENOMEM,
					      "out of memory for a %" PRIu64 "-byte read buffer", o->bs);
		memset(w->rbuf, 0, o->bs);
		return 0;
	}
	ret = atio_pool_init(&w->pool, o->bs, o->iodepth,
			     atio_data_key(o->seed, "pool", w->id));
	if (ret)
		return atio_error_set(&w->err, ATIO_EXIT_FAIL, -ret,
				      "cannot prepare the write buffers: %s", strerror(-ret));
	return 0;
}

static void wait_until(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

void *atio_worker_main(void *arg)
{
	struct atio_worker *w = arg;
	struct atio_shared *sh = w->sh;
	const struct atio_opts *o = sh->opts;
	struct cursor c = { 0 };
	uint64_t start, end, user0, sys0, user1, sys1;
	uint64_t one = 1;
	bool engine_up = false;

	if (alloc_buffers(w) == 0) {
		if (sh->engine->init(w) == 0)
			engine_up = true;
		else
			atio_error_set(&w->err, ATIO_EXIT_FAIL, EIO, "engine %s failed to start",
				       sh->engine->name);
	}
	w->setup_failed = !engine_up;
	atio_range_init(&c.segs, w->nsegs);
	atio_range_init(&c.blocks, w->segs[0].blocks);

	pthread_barrier_wait(&sh->ready);
	pthread_barrier_wait(&sh->go);
	if (w->setup_failed || stopped(w))
		goto out;

	wait_until(sh->start_ns);
	start = sh->start_ns;
	if (o->warmup_ns) {
		bool quit;

		start += o->warmup_ns;
		quit = run_until(w, &c, start) || stopped(w);

		/* What the warm-up did is never reported, even when it is cut short. */
		atio_stats_init(&w->st);
		if (quit)
			goto out;
	}
	end = start + o->time_ns;
	user0 = thread_cpu_ns(&sys0);
	if (run_until(w, &c, end) == 0 && o->mode != ATIO_MODE_READ && !o->skip_sync)
		final_sync(w);
	w->end_ns = atio_now_ns();
	user1 = thread_cpu_ns(&sys1);
	w->st.elapsed_ns = w->end_ns - start;
	w->st.cpu_user_ns = user1 - user0;
	w->st.cpu_sys_ns = sys1 - sys0;
out:
	if (engine_up)
		sh->engine->cleanup(w);
	/* An eventfd write of 1 cannot fail short of a kernel bug. */
	(void)!write(sh->done_fd, &one, sizeof(one));
	return NULL;
}

void atio_worker_teardown(struct atio_worker *w)
{
	atio_pool_free(&w->pool);
	free(w->rbuf);
	w->rbuf = NULL;
}
