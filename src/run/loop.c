/* SPDX-License-Identifier: MIT */
/*
 * One load thread's measured loop. The loop is the only place that reads
 * clocks during the run and keeps statistics; the engine only moves bytes.
 * Per I/O the loop aims a request (atio/run/cursor.h), hands it over and
 * records the latency in the thread's own histogram: no lock, no
 * allocation, no division.
 *
 * Two loops. Engines that complete in queue() (sync, null) run one request
 * at a time between two clock reads (include/atio/base/clock.h: the TSC where
 * the kernel trusts it). Asynchronous engines (io_uring, libaio)
 * keep up to --iodepth requests in flight: the worker queues a batch, reads
 * the clock once, submits, reaps whatever completed, reads the clock once
 * more and charges every completion of the batch with it. That is two clock
 * reads per batch, not per I/O, and the latency of each request still runs
 * from its submission to the reap that saw it complete.
 *
 * A thread takes at most --iodepth-batch completions from one reap before
 * it refills the queue. A device that completes requests in bursts (a
 * virtio disk signals once for tens of them) would otherwise get the
 * burst's replacements in one system call, and the block layer holds a
 * batch's requests back until the whole batch has gone through it: the
 * device sits idle for that time. Refilling after every few completions
 * sends the first new requests out at once (doc/performance.md).
 * Completions left in the ring are taken by the next reap without
 * a sleep.
 *
 * Flags. Each loop takes random, --mix, -vvv, --rate, --verify, --dist and
 * an -s mix as constant flags (atio_run_until() below picks the copy), so that a run
 * without one carries none of its branches; what a flag adds is a call to its
 * module behind it. --mix: latency goes to the direction's histogram only;
 * the total one is their merge, made when the thread ends. Syncs
 * (--fsync/--fdatasync): after the q-th write the loop stops queueing
 * until every write has completed, then syncs (atio/run/sync.h). --expand
 * (atio/run/expand.h): a full file is emptied once nothing is in flight.
 * --verify: atio/run/verify.h.
 *
 * --rewrite. A request reads its block; the completion of that read turns
 * it into the write of the block (atio_cursor_write_back()), which is
 * queued at once: on the one-at-a-time loop right after the read, at
 * depth with the next batch. A block's write never starts before its read
 * has completed. Each direction is counted as --mix's are, so the totals
 * count every read and every write; every read is written back, also one
 * that completes after the end of the time. Its own copy of each loop
 * (run_rewritten()) carries these branches; the others carry none.
 *
 * --rate. The thread's I/O number i is not issued before its intended
 * start (include/atio/run/pace.h); the schedule never slips, so when the
 * storage falls behind the I/Os wait here, are issued as soon as there is
 * room (up to the depth at once), and their latency runs from the intended
 * start, not from the submission: the storage's delay shows as latency
 * instead of a quietly lower count. The service time, submission to
 * completion, goes to a second histogram. Waiting for an intended start is
 * a sleep down to the last ATIO_PACE_SPIN_NS, then a spin; at depth the
 * wait is the engine's timed reap, so completions are seen while the
 * thread waits.
 *
 * --size, --loops (atio/run/limits.h): one more constant flag. The
 * cursor counts the I/Os left to issue and the loop ends when none is left
 * (at depth, once what is in flight has completed); --loops also records
 * each latency in the pass's histogram (atio/stats/passes.h).
 *
 * --interval. A latency is recorded in the current interval's histogram,
 * and each completion's timestamp goes to atio_ival_seen() first, which
 * closes the interval when the timestamp is past its end (src/stats/interval.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "atio/base/clock.h"
#include "atio/run/expand.h"
#include "atio/run/fail.h"
#include "atio/run/limits.h"
#include "atio/run/loop.h"
#include "atio/run/sync.h"
#include "atio/run/trace.h"
#include "atio/run/verify.h"
#include "atio/stats/passes.h"

/*
 * Count @r of @w, completed at tick @t and handed over at @issued: its
 * latency goes to the current interval's histogram (the direction's with
 * @mixing), which is folded into the run's when the interval closes
 * (src/stats/interval.c); the caller has called atio_ival_seen() first.
 * With @pacing the latency runs from the intended start @due and the
 * service time from @issued goes to its own histogram. With @limited and
 * --loops, it goes to the pass's histogram too.
 */
static inline __attribute__((always_inline)) void
account(struct atio_worker *w, const struct atio_req *r, uint64_t t, uint64_t issued,
	uint64_t due, bool pacing, bool mixing, bool limited)
{
	uint64_t lat = atio_ticks_to_ns(t - issued);

	if (pacing) {
		atio_hist_record(&w->st.service, lat);
		lat = atio_ticks_to_ns(t - due);
	}
	if (mixing) {
		struct atio_dir_stats *d = &w->dir[r->op];

		atio_hist_record(w->iv.cur[r->op], lat);
		d->ops++;
		d->bytes += r->len;
	} else {
		atio_hist_record(w->iv.cur[0], lat);
	}
	__atomic_store_n(&w->st.ops, w->st.ops + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->st.bytes, w->st.bytes + r->len, __ATOMIC_RELAXED);
	if (limited && w->pass.h)
		atio_pass_seen(&w->pass, &w->st, t, lat);
}

/*
 * --rewrite, one request at a time: write @r's block back now that its
 * read has completed, and count the write. Returns 0, or non-zero on a
 * failure.
 */
static inline __attribute__((always_inline)) int
write_back_inline(struct atio_worker *w, struct atio_req *r, const bool tracing,
		  const bool verifying)
{
	uint64_t t0, t1;

	atio_cursor_write_back(w, r);
	if (tracing)
		atio_trace_submit(w, r);
	t0 = atio_ticks();
	w->engine->queue(&w->io, r);
	t1 = atio_ticks();
	if (verifying)
		atio_verify_issue(w, r);
	if (tracing)
		atio_trace_done(w, r, atio_ticks_to_ns(t1 - t0));
	if (r->res != (int64_t)r->len)
		return atio_worker_fail(w, r, r->res);
	atio_ival_seen(&w->iv, t1, 0);
	account(w, r, t1, t0, 0, false, true, false);
	return verifying ? atio_verify_done(w, r) : 0;
}

/*
 * One request at a time, for engines that complete in queue(), until the
 * first completion at or after @end (in clock ticks), a stop or, with
 * @limited, the last I/O the cursor has left.
 */
static inline __attribute__((always_inline)) int
loop_inline(struct atio_worker *w, struct atio_cursor *c, uint64_t end, const bool random,
	    const bool mixing, const bool tracing, const bool pacing, const bool verifying,
	    const bool distributed, const bool sizing, const bool rewriting, const bool limited)
{
	const struct atio_opts *o = w->sh->opts;
	const bool writing = o->mode != ATIO_MODE_READ;
	const bool syncing = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	const enum atio_req_op sync_op = o->mode == ATIO_MODE_FSYNC ? ATIO_REQ_FSYNC
								  : ATIO_REQ_FDATASYNC;
	enum atio_q (*const queue)(struct atio_engine_io *, struct atio_req *) = w->engine->queue;
	const bool expanding = o->mode == ATIO_MODE_EXPAND;
	struct atio_req *r = &w->reqs[0];

	for (;;) {
		unsigned seg = c->seg;
		uint64_t t0, t1, due = 0;

		if (limited && !c->left)
			return 0;
		if (expanding && atio_expand_full(w, c->seg, c->block) &&
		    atio_expand_restart(w, c->seg, tracing))
			return -1;
		/* --rate: no I/O left before the end (the caller waits out the time), or a stop. */
		if (pacing && !(due = atio_cursor_pace(c, end, &w->sh->stop)))
			return 0;
		/* One I/O at a time: none in flight, so no block is busy. */
		(void)atio_cursor_aim(w, c, r, random, writing, mixing, rewriting, verifying,
				      distributed, sizing);
		if (limited)
			c->left--;
		if (tracing)
			atio_trace_submit(w, r);
		t0 = atio_ticks();
		queue(&w->io, r);
		t1 = atio_ticks();
		if (verifying)
			atio_verify_issue(w, r);
		if (tracing)
			atio_trace_done(w, r, atio_ticks_to_ns(t1 - t0));
		if (r->res != (int64_t)r->len)
			return atio_worker_fail(w, r, r->res);
		atio_ival_seen(&w->iv, t1, pacing ? t0 : 0);
		account(w, r, t1, t0, due, pacing, mixing || rewriting, limited);
		if (expanding)
			atio_expand_grow(w, seg, r->len);
		if (verifying && atio_verify_done(w, r))
			return -1;
		if (rewriting && write_back_inline(w, r, tracing, verifying))
			return -1;
		if (syncing && ++c->since_sync == o->qsync) {
			c->since_sync = 0;
			if (atio_worker_sync(w, sync_op, true, tracing))
				return -1;
			t1 = atio_ticks();
		}
		if (t1 >= end || atio_worker_stopped(w))
			return 0;
	}
}

/* The asynchronous loop's state from one round to the next. */
struct depth {
	unsigned nspare;           /* requests not in flight, at the end of w->spare */
	unsigned inflight;
	unsigned back;             /* --rewrite: writes queued back, at the start of w->batch */
	bool want_sync;            /* the q-th write is queued: sync once all completed */
	bool want_empty;           /* --expand: a full file waits for its appends */
	bool ending;               /* time is up (or no I/O is due before it) */
	bool early;                /* --rate: the next I/O is not due yet */
	uint64_t now;              /* --rate: the clock at the round's start */
	uint64_t due;              /* --rate: the next I/O's intended start */
};

/* --rate, at depth: whether the next I/O is due now; else say why not in @d. */
static inline bool due_now(struct atio_cursor *c, struct depth *d, uint64_t end)
{
	switch (atio_cursor_due(c, d->now, end, &d->due)) {
	case ATIO_DUE_NOW:
		return true;
	case ATIO_DUE_LATER:
		d->early = true;
		return false;
	default:
		d->ending = true;
		return false;
	}
}

/*
 * Aim @r and hand it to the engine @eng. Returns false when the engine has
 * no room for it (the cursor is then where it was for --expand, whose
 * skipped append would leave a hole) or, with --verify and --dist, its
 * block is in flight (it is aimed again after the next completion).
 */
static inline __attribute__((always_inline)) bool
issue(struct atio_worker *w, const struct atio_engine_ops *eng, struct atio_cursor *c,
      struct depth *d, struct atio_req *r, const bool random, const bool mixing,
      const bool tracing, const bool pacing, const bool verifying, const bool distributed,
      const bool sizing, const bool rewriting)
{
	const struct atio_opts *o = w->sh->opts;
	const bool expanding = o->mode == ATIO_MODE_EXPAND;
	const struct { unsigned seg; uint64_t block; } was = { c->seg, c->block };

	if (!atio_cursor_aim(w, c, r, random, o->mode != ATIO_MODE_READ, mixing, rewriting,
			     verifying, distributed, sizing))
		return false;
	if (eng->queue(&w->io, r) == ATIO_Q_BUSY) {
		if (expanding) {
			c->seg = was.seg;
			c->block = was.block;
		}
		return false;
	}
	if (verifying)
		atio_verify_issue(w, r);
	if (pacing)
		atio_cursor_issued(c, r, d->due);
	if (expanding)
		atio_expand_grow(w, was.seg, r->len);
	if (tracing)
		atio_trace_submit(w, r);
	return true;
}

/*
 * Queue requests while there is room, the time goes on and nothing waits
 * for the queue to drain (a sync, an --expand restart) or, with --rate,
 * for the next I/O to be due; with @limited, while the cursor has I/Os
 * left (then the time is over). Returns how many are in w->batch, with
 * --rewrite's writes queued back since the last submit first.
 */
static inline __attribute__((always_inline)) unsigned
fill(struct atio_worker *w, const struct atio_engine_ops *eng, struct atio_cursor *c,
     struct depth *d, uint64_t end, const bool random, const bool mixing, const bool tracing,
     const bool pacing, const bool verifying, const bool distributed, const bool sizing,
     const bool rewriting, const bool limited)
{
	const struct atio_opts *o = w->sh->opts;
	const bool syncing = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	const bool expanding = o->mode == ATIO_MODE_EXPAND;
	unsigned nb = rewriting ? d->back : 0;

	while (!d->ending && !d->want_sync && !d->want_empty && d->nspare) {
		struct atio_req *r = w->spare[d->nspare - 1];

		if (limited && !c->left) {
			d->ending = true;
			break;
		}
		if (expanding && atio_expand_full(w, c->seg, c->block)) {
			d->want_empty = true;
			break;
		}
		if (pacing && !due_now(c, d, end))
			break;
		if (!issue(w, eng, c, d, r, random, mixing, tracing, pacing, verifying, distributed,
			   sizing, rewriting))
			break;
		d->nspare--;
		w->batch[nb++] = r;
		if (limited)
			c->left--;
		if (syncing && ++c->since_sync == o->qsync)
			d->want_sync = true;
	}
	return nb;
}

/*
 * Nothing in flight: with --rate and the next I/O not due, sleep until it
 * is; with --expand, empty the full file; after the q-th write, sync (also
 * when the time is up, since those writes count). Returns 1 to go on, else
 * what the loop returns (0 at the end or a stop, non-zero on a failure).
 */
static inline __attribute__((always_inline)) int
drained(struct atio_worker *w, struct atio_cursor *c, struct depth *d, uint64_t end,
	const bool tracing, const bool pacing)
{
	const enum atio_mode mode = w->sh->opts->mode;

	if (pacing && d->early && !d->want_sync)
		return atio_pace_wait(d->due, &w->sh->stop) ? 1 : 0;
	if (d->want_empty) {
		/* Every append has completed: the end of the file is final. */
		d->want_empty = false;
		if (d->ending || atio_ticks() >= end || atio_worker_stopped(w))
			return 0;
		return atio_expand_restart(w, c->seg, tracing) ? -1 : 1;
	}
	if (!d->want_sync)
		return d->ending ? 0 : atio_worker_fail(w, &w->reqs[0], -EBUSY);
	d->want_sync = false;
	c->since_sync = 0;
	if (atio_worker_sync(w, mode == ATIO_MODE_FSYNC ? ATIO_REQ_FSYNC : ATIO_REQ_FDATASYNC,
			     true, tracing))
		return -1;
	return d->ending || atio_ticks() >= end || atio_worker_stopped(w) ? 0 : 1;
}

/*
 * Reap at least one completion, at most @batch. With --rate, room for the
 * next I/O and that I/O not due yet, wait for a completion at most until
 * ATIO_PACE_SPIN_NS before it (then the next round looks without waiting
 * until it is due). Returns the engine's count or negative errno.
 */
static inline __attribute__((always_inline)) int
reap(struct atio_worker *w, const struct atio_engine_ops *eng, const struct depth *d,
     unsigned batch, const bool pacing)
{
	unsigned most = d->inflight < batch ? d->inflight : batch;

	if (pacing && d->early && !d->want_sync && eng->reap_timed) {
		uint64_t left = atio_ticks_to_ns(d->due - d->now);

		left = left > ATIO_PACE_SPIN_NS ? left - ATIO_PACE_SPIN_NS : 0;
		return eng->reap_timed(&w->io, most,
				       left < ATIO_PACE_NAP_NS ? left : ATIO_PACE_NAP_NS);
	}
	return eng->reap(&w->io, 1, most);
}

/*
 * --rewrite at depth: queue the write of @r's block, whose read has
 * completed, to go with the next batch (it stays in flight). Returns 0,
 * or non-zero on a failure.
 */
static inline __attribute__((always_inline)) int
write_back_async(struct atio_worker *w, const struct atio_engine_ops *eng, struct depth *d,
		 struct atio_req *r, const bool tracing, const bool verifying)
{
	atio_cursor_write_back(w, r);
	/* Its read has left the engine: there is room for it. */
	if (eng->queue(&w->io, r) == ATIO_Q_BUSY)
		return atio_worker_fail(w, r, -EBUSY);
	if (verifying)
		atio_verify_issue(w, r);
	if (tracing)
		atio_trace_submit(w, r);
	w->batch[d->back++] = r;
	return 0;
}

/*
 * Account the @n requests of w->done a reap saw completed at tick @t and
 * put them back among the spares; with --rewrite, a read's request goes on
 * as its block's write. Returns 0, or non-zero on a failure.
 */
static inline __attribute__((always_inline)) int
complete(struct atio_worker *w, const struct atio_engine_ops *eng, struct depth *d, int n,
	 uint64_t t, const bool mixing, const bool tracing, const bool pacing,
	 const bool verifying, const bool rewriting, const bool limited)
{
	unsigned back = 0;

	if (n > 0)
		atio_ival_seen(&w->iv, t, pacing ? w->done[0]->issued : 0);
	for (int i = 0; i < n; i++) {
		struct atio_req *r = w->done[i];

		if (tracing)
			atio_trace_done(w, r, atio_ticks_to_ns(t - r->issued));
		if (r->res != (int64_t)r->len)
			return atio_worker_fail(w, r, r->res);
		account(w, r, t, r->issued, r->due, pacing, mixing || rewriting, limited);
		if (verifying && atio_verify_done(w, r))
			return -1;
		if (rewriting && r->op == ATIO_REQ_READ) {
			if (write_back_async(w, eng, d, r, tracing, verifying))
				return -1;
			back++;
			continue;
		}
		w->spare[d->nspare++] = r;
	}
	d->inflight -= (unsigned)n - back;
	return 0;
}

/*
 * Up to w->depth requests in flight, for asynchronous engines, until the
 * first reap at or after @end or a stop; then what is in flight is reaped
 * and counted too, since it was issued inside the measured time.
 */
static inline __attribute__((always_inline)) int
loop_async(struct atio_worker *w, struct atio_cursor *c, uint64_t end, const bool random,
	   const bool mixing, const bool tracing, const bool pacing, const bool verifying,
	   const bool distributed, const bool sizing, const bool rewriting, const bool limited)
{
	const struct atio_engine_ops *eng = w->engine;
	const unsigned batch = w->sh->opts->iodepth_batch < w->depth ? w->sh->opts->iodepth_batch
								     : w->depth;
	struct depth d = { .nspare = w->depth };

	for (;;) {
		unsigned nb;
		uint64_t t;
		int n;

		d.early = false;
		if (pacing)
			d.now = atio_ticks();
		nb = fill(w, eng, c, &d, end, random, mixing, tracing, pacing, verifying,
			  distributed, sizing, rewriting, limited);
		if (nb) {
			t = atio_ticks();
			for (unsigned i = 0; i < nb; i++)
				w->batch[i]->issued = t;
			/* --rewrite: the writes queued back are in flight already. */
			d.inflight += rewriting ? nb - d.back : nb;
			if (rewriting)
				d.back = 0;
			n = eng->submit(&w->io);
			if (n < 0)
				return atio_worker_fail(w, w->batch[0], n);
		}
		if (d.inflight == 0) {
			n = drained(w, c, &d, end, tracing, pacing);
			if (n != 1)
				return n;
			continue;
		}
		n = reap(w, eng, &d, batch, pacing);
		if (n < 0)
			return atio_worker_fail(w, w->batch[0], n);
		t = atio_ticks();
		n = complete(w, eng, &d, n, t, mixing, tracing, pacing, verifying, rewriting,
			     limited);
		if (n)
			return n;
		if (t >= end || atio_worker_stopped(w))
			d.ending = true;
	}
}

/* The loops without --size and --loops: every copy but run_limited()'s. */
static inline __attribute__((always_inline)) int
run_inline(struct atio_worker *w, struct atio_cursor *c, uint64_t end, const bool random,
	   const bool mixing, const bool tracing, const bool pacing, const bool verifying,
	   const bool distributed, const bool sizing, const bool rewriting)
{
	return loop_inline(w, c, end, random, mixing, tracing, pacing, verifying, distributed,
			   sizing, rewriting, false);
}

static inline __attribute__((always_inline)) int
run_async(struct atio_worker *w, struct atio_cursor *c, uint64_t end, const bool random,
	  const bool mixing, const bool tracing, const bool pacing, const bool verifying,
	  const bool distributed, const bool sizing, const bool rewriting)
{
	return loop_async(w, c, end, random, mixing, tracing, pacing, verifying, distributed,
			  sizing, rewriting, false);
}

/*
 * --verify: one copy per loop, the other flags variables. This and the
 * next are functions of their own, so that the copies of the plain runs
 * are compiled alone: in one function with them, the plain --write loop
 * took 8 to 10 more instructions an I/O.
 */
static __attribute__((noinline)) int run_checked(struct atio_worker *w, struct atio_cursor *c,
						 uint64_t end, bool random, bool mixing,
						 bool tracing, bool distributed)
{
	bool pacing = w->sh->opts->rate > 0;

	if (w->engine->async)
		return run_async(w, c, end, random, mixing, tracing, pacing, true, distributed,
				 false, false);
	return run_inline(w, c, end, random, mixing, tracing, pacing, true, distributed, false,
			  false);
}

/* --dist: one copy per loop, the other flags variables. */
static __attribute__((noinline)) int run_skewed(struct atio_worker *w, struct atio_cursor *c,
						uint64_t end, bool mixing, bool tracing)
{
	bool pacing = w->sh->opts->rate > 0;

	if (w->engine->async)
		return run_async(w, c, end, true, mixing, tracing, pacing, false, true, false, false);
	return run_inline(w, c, end, true, mixing, tracing, pacing, false, true, false, false);
}

/* --rewrite: one copy per loop, the other flags variables; never --rate, --mix nor a -s mix. */
static __attribute__((noinline)) int run_rewritten(struct atio_worker *w, struct atio_cursor *c,
						   uint64_t end, bool random, bool tracing,
						   bool distributed)
{
	bool verifying = w->sh->opts->verify;

	if (w->engine->async)
		return run_async(w, c, end, random, false, tracing, false, verifying, distributed,
				 false, true);
	return run_inline(w, c, end, random, false, tracing, false, verifying, distributed,
			  false, true);
}

/* The plain copies: no --verify, --dist, -s mix nor --rewrite. */
static inline __attribute__((always_inline)) int
plain_async(struct atio_worker *w, struct atio_cursor *c, uint64_t end, const bool random,
	    const bool mixing, const bool tracing, const bool pacing)
{
	return run_async(w, c, end, random, mixing, tracing, pacing, false, false, false, false);
}

static inline __attribute__((always_inline)) int
plain_inline(struct atio_worker *w, struct atio_cursor *c, uint64_t end, const bool random,
	     const bool mixing, const bool tracing, const bool pacing)
{
	return run_inline(w, c, end, random, mixing, tracing, pacing, false, false, false, false);
}

/* An -s mix (atio/run/sizes.h): one copy per loop, the other flags variables. */
static __attribute__((noinline)) int run_sized(struct atio_worker *w, struct atio_cursor *c,
					       uint64_t end, bool random, bool mixing,
					       bool tracing)
{
	bool pacing = w->sh->opts->rate > 0, verifying = w->sh->opts->verify;

	/* The common case, random reads or writes alone, without the others' branches. */
	if (random && !mixing && !tracing && !pacing && !verifying)
		return w->engine->async
			? run_async(w, c, end, true, false, false, false, false, false, true, false)
			: run_inline(w, c, end, true, false, false, false, false, false, true, false);
	if (w->engine->async)
		return run_async(w, c, end, random, mixing, tracing, pacing, verifying, false,
				 true, false);
	return run_inline(w, c, end, random, mixing, tracing, pacing, verifying, false, true,
			  false);
}

/*
 * --size, --loops: a copy per loop and pattern for plain reads and
 * writes, one per loop for the rest, the other flags variables (--verify
 * and --dist among them).
 */
static __attribute__((noinline)) int run_limited(struct atio_worker *w, struct atio_cursor *c,
						 uint64_t end, bool random, bool mixing,
						 bool tracing, bool distributed)
{
	bool pacing = w->sh->opts->rate > 0, verifying = w->sh->opts->verify;

	if (!pacing && !verifying && !mixing && !tracing && !distributed) {
		if (w->engine->async)
			return random ? loop_async(w, c, end, true, false, false, false, false,
						   false, false, false, true)
				      : loop_async(w, c, end, false, false, false, false, false,
						   false, false, false, true);
		return random ? loop_inline(w, c, end, true, false, false, false, false, false,
					    false, false, true)
			      : loop_inline(w, c, end, false, false, false, false, false, false,
					    false, false, true);
	}
	if (w->engine->async)
		return loop_async(w, c, end, random, mixing, tracing, pacing, verifying,
				  distributed, false, false, true);
	return loop_inline(w, c, end, random, mixing, tracing, pacing, verifying, distributed,
			   false, false, true);
}

/*
 * The plain copies, the asynchronous engines' and the others' each in a
 * function of its own: in one with every copy, the register allocation of
 * the hot loops suffered (7 more instructions an I/O for --seq reads).
 */
static __attribute__((noinline)) int run_plain_async(struct atio_worker *w, struct atio_cursor *c,
						     uint64_t end, bool random, bool mixing,
						     bool tracing)
{
	/* --rate: one copy per loop; the trace flag stays a variable. */
	if (w->sh->opts->rate > 0)
		return random ? plain_async(w, c, end, true, mixing, tracing, true)
			      : plain_async(w, c, end, false, mixing, tracing, true);
	if (tracing)
		return plain_async(w, c, end, random, mixing, true, false);
	if (mixing)
		return random ? plain_async(w, c, end, true, true, false, false)
			      : plain_async(w, c, end, false, true, false, false);
	return random ? plain_async(w, c, end, true, false, false, false)
		      : plain_async(w, c, end, false, false, false, false);
}

static __attribute__((noinline)) int run_plain_inline(struct atio_worker *w,
						      struct atio_cursor *c, uint64_t end,
						      bool random, bool mixing, bool tracing)
{
	if (w->sh->opts->rate > 0)
		return random ? plain_inline(w, c, end, true, mixing, tracing, true)
			      : plain_inline(w, c, end, false, mixing, tracing, true);
	if (tracing)
		return plain_inline(w, c, end, random, mixing, true, false);
	if (mixing)
		return random ? plain_inline(w, c, end, true, true, false, false)
			      : plain_inline(w, c, end, false, true, false, false);
	return random ? plain_inline(w, c, end, true, false, false, false)
		      : plain_inline(w, c, end, false, false, false, false);
}

/* The loops compare clock ticks: the deadline is converted once, here. */
int atio_run_until(struct atio_worker *w, struct atio_cursor *c, uint64_t end_ns)
{
	bool random = w->sh->opts->random, tracing = w->sh->opts->verbose >= 3;
	bool mixing = w->sh->opts->mode == ATIO_MODE_MIX;
	bool distributed = random && (w->sh->opts->dist.kind != ATIO_DIST_UNIFORM || c->shuffled);
	uint64_t now_ns = atio_now_ns(), end = atio_ticks();

	if (end_ns > now_ns)
		end += atio_ns_to_ticks(end_ns - now_ns);
	/*
	 * --rate: the deadline on the schedule's own footing, so that an I/O
	 * due exactly at the end is not issued by a clock read's jitter.
	 */
	if (w->sh->opts->rate > 0 && end_ns > c->pace.start_ns)
		end = c->pace.start + atio_ns_to_ticks(end_ns - c->pace.start_ns);
	/* --size, --loops without -t: no deadline (atio/run/limits.h). */
	if (end_ns == ATIO_LIMITS_NO_END)
		end = UINT64_MAX;

	if (c->limited)
		return run_limited(w, c, end, random, mixing, tracing, distributed);
	if (w->sh->opts->mode == ATIO_MODE_REWRITE)
		return run_rewritten(w, c, end, random, tracing, distributed);
	if (w->sz)
		return run_sized(w, c, end, random, mixing, tracing);
	if (w->sh->opts->verify)
		return run_checked(w, c, end, random, mixing, tracing, distributed);
	if (distributed)
		return run_skewed(w, c, end, mixing, tracing);
	if (w->engine->async)
		return run_plain_async(w, c, end, random, mixing, tracing);
	return run_plain_inline(w, c, end, random, mixing, tracing);
}
