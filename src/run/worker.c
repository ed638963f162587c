/* SPDX-License-Identifier: MIT */
/*
 * One load thread. The worker is the only place that reads clocks and keeps
 * statistics; the engine only moves bytes. Per I/O the loop draws an offset
 * (a multiply for random, an increment for sequential), stamps the write
 * window and records the latency in the thread's own histogram: no lock, no
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
 * sends the first new requests out at once (README, "Performance against
 * fio"). Completions left in the ring are taken by the next reap without
 * a sleep.
 *
 * --mix R. Each I/O is a read when the thread's next 64 random bits fall
 * below R% of 2^64 (a comparison with a threshold computed once), else a
 * write taken from the pool and stamped as --write's. Reads use a buffer
 * of their request's own, after the pool in the same allocation (a request
 * that reads keeps its last write's window marked busy until it writes
 * again: one window a request at most, which the pool has room for). Latency
 * goes to the direction's histogram only; the total one is their merge,
 * made when the thread ends. The loops take the mixing as a constant flag,
 * so the other modes' copies carry none of it.
 *
 * Syncs. In --fsync/--fdatasync modes a sync must cover exactly the -q
 * writes before it. The kernel does not order requests in flight, so after
 * the q-th write the worker stops queueing, waits until every write has
 * completed, and only then issues the sync and waits for it.
 *
 * --rate. Each loop has a third constant flag, pacing, and a copy of its own
 * for it, so the runs without a cap carry none of its branches. With it, the
 * thread's I/O number i is not issued before its intended start
 * (include/atio/run/pace.h); the schedule never slips, so when the storage
 * falls behind the I/Os wait here, are issued as soon as there is room (up
 * to the depth at once), and their latency runs from the intended start,
 * not from the submission: the storage's delay shows as latency instead of
 * a quietly lower count. The service time, submission to completion, goes
 * to a second histogram. Waiting for an intended start is a sleep down to
 * the last ATIO_PACE_SPIN_NS, then a spin; at depth the wait is the engine's
 * timed reap, so completions are seen while the thread waits.
 * --expand. Every write appends: a thread owns its files (-n >= -p), each
 * starts empty, and the sequential cursor writes block after block at the
 * end of the file. When the cursor comes back to block 0 of a file that
 * has grown to its share, the worker stops queueing, waits until every
 * append in flight has completed (the file's end is then final), truncates
 * the file to zero and goes on. Appends in flight at depth land at
 * increasing offsets; the file grows as they complete.
 * --interval. A latency is recorded in the current interval's histogram,
 * and each completion's timestamp goes to atio_ival_seen() first, which
 * closes the interval when the timestamp is past its end (src/stats/interval.c).
 *
 * The descriptor table. A thread starts by taking a private copy of the
 * process's table (unshare(CLONE_FILES)), before it opens anything. The
 * kernel looks a descriptor up without taking a reference to its file when
 * no other thread shares the table, as it does for a process of one thread;
 * with a shared table every pread(), pwrite() and sync pays an atomic get
 * and put on the file's count, 4-5% of a 4K read from the page cache here
 * (README, "Performance against fio"). Every file of the run is open
 * before the threads start; what a thread opens itself (its engine's ring)
 * stays in its own table and it closes it. The copies go with the thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "atio/base/buf.h"
#include "atio/base/clock.h"
#include "atio/run/pace.h"
#include "atio/run/expand.h"
#include "atio/run/worker.h"

/* Where the next I/O goes and how many writes since the last sync. */
struct cursor {
	unsigned seg;              /* current segment (sequential) */
	uint64_t block;            /* next block in it (sequential) */
	struct atio_range segs;    /* random: which segment */
	struct atio_range blocks;  /* random: which block */
	unsigned since_sync;
	struct atio_pace pace;     /* --rate: the thread's schedule */
	uint64_t next;             /* --rate: number of the next I/O to issue */
	bool idle;                 /* --rate: every I/O due before the end was issued */
	bool ahead;                /* --verify, random: the next block is drawn */
	unsigned ahead_seg;
	uint64_t ahead_block;
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

/*
 * Why a write of @r stopped after @done bytes: the engine's r->err when it
 * asked the kernel already; else, since the kernel tells only when asked
 * again, write the rest of the block, as any program that loops on write()
 * would, and name its error. The rest is written only when its start stays
 * aligned for O_DIRECT (a multiple of 4 KiB); otherwise, and when the rest
 * goes through, the reason stays unknown and *@err is EIO.
 */
static const char *short_write_reason(const struct atio_worker *w, const struct atio_req *r,
				      int64_t done, int *err)
{
	ssize_t n;

	*err = r->err ? r->err : EIO;
	if (r->err)
		return strerror(r->err);
	if (w->sh->opts->direct && done % 4096)
		return "the rest was not retried";
	do
		n = pwrite(r->fd, (const char *)r->buf + done, r->len - (size_t)done,
			   (off_t)(r->off + (uint64_t)done));
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		*err = errno;
		return strerror(errno);
	}
	return "writing the rest did not fail";
}

/* Record an I/O failure and ask every other thread to stop. */
/* The path of the thread's file open as @fd. */
static const char *path_of(const struct atio_worker *w, int fd)
{
	for (unsigned s = 0; s < w->nsegs; s++)
		if (w->segs[s].fd == fd)
			return w->sh->ds->files[w->segs[s].file].path;
	return "?";
}

/* The index in the dataset of the file open at @fd (for --verify). */
static unsigned file_of(const struct atio_worker *w, int fd)
{
	for (unsigned s = 0; s < w->nsegs; s++)
		if (w->segs[s].fd == fd)
			return w->segs[s].file;
	return 0;
}

static int fail(struct atio_worker *w, const struct atio_req *r, int64_t res)
{
	static const char *const verb[] = { "read", "write", "fsync", "fdatasync" };
	const char *path = path_of(w, r->fd);
	int err = res < 0 ? (int)-res : EIO;

	if (res >= 0 && r->op == ATIO_REQ_WRITE) {
		const char *why = short_write_reason(w, r, res, &err);

		atio_error_set(&w->err, ATIO_EXIT_FAIL, err,
			       "%s: short write at offset %" PRIu64 ": %" PRId64 " of %zu bytes (%s)",
			       path, r->off, res, r->len, why);
	} else if (res >= 0)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, EIO,
			       "%s: short %s at offset %" PRIu64 ": %" PRId64 " of %zu bytes",
			       path, verb[r->op], r->off, res, r->len);
	else if (r->op >= ATIO_REQ_FSYNC)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: %s: %s",
			       path, verb[r->op], strerror(err));
	else
		atio_error_set(&w->err, ATIO_EXIT_FAIL, err,
			       "%s: %s of %zu bytes at offset %" PRIu64 ": %s",
			       path, verb[r->op], r->len, r->off, strerror(err));
	w->failed = true;
	__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
	return -err;
}

/*
 * Hand one request to the engine and wait for it; nothing else may be in
 * flight. Returns the request's result, or a negative errno from the
 * engine itself.
 */
static int64_t execute(struct atio_worker *w, struct atio_req *r)
{
	const struct atio_engine_ops *eng = w->engine;
	int n;

	if (eng->queue(&w->io, r) == ATIO_Q_COMPLETED)
		return r->res;
	n = eng->submit(&w->io);
	if (n >= 0)
		n = eng->reap(&w->io, 1, 1);
	if (n == 0)
		n = -EIO;
	return n < 0 ? n : w->done[0]->res;
}

/*
 * -vvv: a line when a request is handed to the engine, and one when it has
 * completed, with its result and latency. The order of these lines is the
 * order in which the worker saw things happen, which is what a test needs
 * to check that every sync was issued only after its writes completed.
 */
static const char *const op_name[] = { "read", "write", "fsync", "fdatasync" };

static void trace_submit(const struct atio_worker *w, const struct atio_req *r)
{
	fprintf(stderr, "atio: [%u] submit %s(fd %d, %zu bytes, offset %" PRIu64 ")\n",
		w->id, op_name[r->op], r->fd, r->len, r->off);
}

static void trace(const struct atio_worker *w, const struct atio_req *r, uint64_t ns)
{
	fprintf(stderr, "atio: [%u] %s(fd %d, %zu bytes, offset %" PRIu64 ") = %" PRId64
		" in %.3f usec\n", w->id, op_name[r->op], r->fd, r->len, r->off, r->res, ns / 1e3);
}

/* The journal could not be written: the run fails. */
static int journal_fail(struct atio_worker *w, int err)
{
	atio_error_set(&w->err, ATIO_EXIT_FAIL, err, "%s: cannot append to the journal: %s",
		       w->sh->journal->path, strerror(err));
	w->failed = true;
	__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
	return -err;
}

/*
 * Sync every file of the thread (one in the usual one-file-per-thread
 * layout) and wait. With @timed it is a sync point of the workload,
 * recorded in the sync histogram and counted; otherwise the final sync.
 */
static int sync_files(struct atio_worker *w, enum atio_req_op op, bool timed, bool tracing)
{
	struct atio_req r = { .op = op };
	uint64_t t0 = atio_ticks(), t = t0;

	for (unsigned i = 0; i < w->nfds; i++) {
		r.fd = w->fds[i];
		r.slot = i;
		if (tracing)
			trace_submit(w, &r);
		r.res = execute(w, &r);
		if (tracing) {
			uint64_t now = atio_ticks();

			trace(w, &r, atio_ticks_to_ns(now - t));
			t = now;
		}
		if (r.res < 0)
			return fail(w, &r, r.res);
	}
	/* --verify: the journal records what this sync acknowledged (atio/data/journal.h). */
	if (w->jl.recs && w->sh->journal) {
		r.res = atio_journal_commit(w->sh->journal, &w->jl);
		if (r.res < 0)
			return journal_fail(w, (int)-r.res);
	}
	if (timed) {
		uint64_t t1 = atio_ticks();

		atio_ival_seen(&w->iv, t1, 0);
		atio_hist_record(&w->st.sync_lat, atio_ticks_to_ns(t1 - t0));
		__atomic_store_n(&w->st.syncs, w->st.syncs + 1, __ATOMIC_RELAXED);
	}
	return 0;
}

/* Draw a random block: its segment into *@s, its number into *@b. */
static inline void draw(struct atio_worker *w, struct cursor *c, unsigned *s, uint64_t *b)
{
	*s = w->nsegs == 1 ? 0 : (unsigned)atio_prng_below(&w->rng, &c->segs);
	*b = atio_prng_below(&w->rng, &c->blocks);
}

/*
 * Point @r at the next block: offset, file and, for writes, fresh data.
 * With @mixing, first draw whether it reads or writes.
 */
static inline __attribute__((always_inline)) void
aim(struct atio_worker *w, struct cursor *c, struct atio_req *r, bool random, bool writing,
    bool mixing, bool verifying)
{
	const struct atio_segment *seg;
	uint64_t block;

	if (mixing) {
		writing = atio_prng_next(&w->rng) >= w->read_below;
		r->op = writing ? ATIO_REQ_WRITE : ATIO_REQ_READ;
		if (!writing)
			r->buf = w->mix_rbuf + (size_t)r->index * r->len;
	}

	if (random && verifying && w->gm.gen) {
		/*
		 * --verify on writes: never two I/Os of a block in flight
		 * (atio/run/genmap.h). Blocks are drawn one I/O ahead, so that the
		 * next one's map word is fetched while this one is issued.
		 */
		unsigned s;
		uint64_t b;

		do {
			if (!c->ahead)
				draw(w, c, &c->ahead_seg, &c->ahead_block);
			s = c->ahead_seg;
			b = c->ahead_block;
			draw(w, c, &c->ahead_seg, &c->ahead_block);
			c->ahead = true;
			__builtin_prefetch(&w->gm.gen[c->ahead_seg * w->gm.seg_blocks +
						      c->ahead_block], 1, 0);
		} while (atio_genmap_busy(&w->gm, s * w->gm.seg_blocks + b));
		seg = &w->segs[s];
		block = b;
	} else if (random) {
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
	r->fd = seg->fd;
	r->slot = seg->slot;
	r->off = seg->start + block * r->len;
	if (verifying)
		r->block = (uint64_t)(seg - w->segs) * w->gm.seg_blocks + block;
	/* The pool's window of the block's place in the thread's whole share. */
	if (writing)
		r->buf = atio_pool_take(&w->pool, r->index,
					(uint64_t)(seg - w->segs) * seg->blocks + block, r->off,
					seg->tag);
}

/*
 * --verify on writes: the engine took @r; mark its block in flight and,
 * for a write, note its generation (the pool's last) in the map and in
 * the list the journal takes at the next completed sync.
 */
static inline void verify_issue(struct atio_worker *w, const struct atio_req *r)
{
	bool write = r->op == ATIO_REQ_WRITE;

	if (!w->gm.gen)
		return;
	atio_genmap_issue(&w->gm, r->block, write ? w->pool.gen : 0);
	if (write && w->jl.recs)
		atio_journal_note(&w->jl, w->segs[r->block / w->gm.seg_blocks].file, r->off,
				  w->pool.gen, w->pool.key);
}

/*
 * --expand: whether the next block is the first of its segment while the
 * segment's file holds what an earlier pass appended. The file is then
 * emptied (atio_expand_restart()) before that block is written.
 */
static inline bool expand_full(const struct atio_worker *w, const struct cursor *c)
{
	return c->block == 0 && w->sh->ds->files[w->segs[c->seg].file].grown != 0;
}

/* --expand: a block of @len bytes was handed over for segment @s's file. */
static inline void expand_grow(struct atio_worker *w, unsigned s, uint64_t len)
{
	w->sh->ds->files[w->segs[s].file].grown += len;
}

/*
 * Count a completed read or write; with @mixing in its direction too.
 * The latency goes to the current interval's histogram (the direction's
 * with @mixing), which is folded into the run's when the interval closes
 * (src/stats/interval.c); the caller has called atio_ival_seen() first.
 */
static inline __attribute__((always_inline)) void
account(struct atio_worker *w, uint64_t lat, uint64_t bytes, enum atio_req_op op,
	bool mixing)
{
	if (mixing) {
		struct atio_dir_stats *d = &w->dir[op];

		atio_hist_record(w->iv.cur[op], lat);
		d->ops++;
		d->bytes += bytes;
	} else {
		atio_hist_record(w->iv.cur[0], lat);
	}
	__atomic_store_n(&w->st.ops, w->st.ops + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&w->st.bytes, w->st.bytes + bytes, __ATOMIC_RELAXED);
}

/*
 * Count a completed read or write under --rate: @lat from its intended
 * start, @service from its submission.
 */
static inline __attribute__((always_inline)) void
account_paced(struct atio_worker *w, uint64_t lat, uint64_t service, uint64_t bytes,
	      enum atio_req_op op, bool mixing)
{
	atio_hist_record(&w->st.service, service);
	account(w, lat, bytes, op, mixing);
}

/* Wait until tick @due, or a stop (then 0); see atio_pace_wait(). */
static inline uint64_t pace_wait(const struct atio_worker *w, uint64_t due)
{
	return atio_pace_wait(due, &w->sh->stop);
}

/*
 * --verify: check the block @r read against its stamps. On the first bad
 * sector the run fails (every thread stops) with one message naming the
 * file, the sector's offset and what it holds instead of atio's data for
 * that offset; w->vbad and w->vfound keep it for the JSON record.
 */
static __attribute__((noinline)) int verify(struct atio_worker *w, const struct atio_req *r)
{
	char what[160], want[80] = "atio's data for that offset";
	uint32_t code = 0;
	int ret;

	/* --verify on writes: a write is checked when read back after the run. */
	if (w->gm.gen) {
		atio_genmap_done(&w->gm, r->block);
		if (r->op == ATIO_REQ_WRITE)
			return 0;
		code = atio_genmap_last(&w->gm, r->block);
	}
	ret = atio_check_block(r->buf, r->len, r->off, w->sh->ds, file_of(w, r->fd), &w->vctx,
			       w->vks, &w->vbad, &w->vfound);
	/* --mix: a block written in the run holds its last write. */
	for (size_t i = 0; code && ret == 0 && i < r->len; i += ATIO_SECTOR) {
		uint64_t gen = atio_genmap_gen(code, w->pool.gen);

		ret = atio_check_write((const char *)r->buf + i, gen, w->pool.key, false,
				       &w->vbad, &w->vfound);
		w->vbad.off = r->off + i;
		snprintf(want, sizeof(want), "the write of generation %" PRIu64, gen);
	}
	if (ret == 0)
		return 0;
	if (ret < 0)
		atio_error_set(&w->err, ATIO_EXIT_FAIL, -ret, "verify: cannot make the keystream "
			       "to compare with: %s", strerror(-ret));
	else {
		atio_check_describe(what, sizeof(what), &w->vbad, &w->vfound);
		atio_error_set(&w->err, ATIO_EXIT_FAIL, EILSEQ,
			       "verify: %s: offset %" PRIu64 " (in the %zu-byte block read at %"
			       PRIu64 "): expected %s, found %s",
			       path_of(w, r->fd), w->vbad.off, r->len, r->off, want, what);
		w->vpath = path_of(w, r->fd);
		w->vfailed = true;
	}
	w->failed = true;
	__atomic_store_n(&w->sh->stop, 1, __ATOMIC_RELAXED);
	return -1;
}

/*
 * One request at a time, for engines that complete in queue(), until the
 * first completion at or after @end (in clock ticks) or a stop. Forced
 * inline with constant flags so that each copy carries only the branches
 * its run needs.
 */
static inline __attribute__((always_inline)) int
run_inline(struct atio_worker *w, struct cursor *c, uint64_t end, const bool random,
	   const bool mixing, const bool tracing, const bool pacing, const bool verifying)
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

		if (expanding && expand_full(w, c) && atio_expand_restart(w, c->seg, tracing))
			return -1;
		if (pacing) {
			/* No I/O left before the end: the caller waits out the time. */
			due = atio_pace_due(&c->pace, c->next);
			if (due >= end) {
				c->idle = true;
				return 0;
			}
			if (!pace_wait(w, due))
				return 0;
			c->next++;
		}
		aim(w, c, r, random, writing, mixing, verifying);
		if (tracing)
			trace_submit(w, r);
		t0 = atio_ticks();
		queue(&w->io, r);
		t1 = atio_ticks();
		if (verifying)
			verify_issue(w, r);
		if (tracing)
			trace(w, r, atio_ticks_to_ns(t1 - t0));
		if (r->res != (int64_t)r->len)
			return fail(w, r, r->res);
		atio_ival_seen(&w->iv, t1, pacing ? t0 : 0);
		if (pacing)
			account_paced(w, atio_ticks_to_ns(t1 - due), atio_ticks_to_ns(t1 - t0),
				      r->len, r->op, mixing);
		else
			account(w, atio_ticks_to_ns(t1 - t0), r->len, r->op, mixing);
		if (expanding)
			expand_grow(w, seg, r->len);
		if (verifying && verify(w, r))
			return -1;

		if (syncing && ++c->since_sync == o->qsync) {
			c->since_sync = 0;
			if (sync_files(w, sync_op, true, tracing))
				return -1;
			t1 = atio_ticks();
		}
		if (t1 >= end || stopped(w))
			return 0;
	}
}

/*
 * Up to w->depth requests in flight, for asynchronous engines, until the
 * first reap at or after @end or a stop; then what is in flight is reaped
 * and counted too, since it was issued inside the measured time.
 */
static inline __attribute__((always_inline)) int
run_async(struct atio_worker *w, struct cursor *c, uint64_t end, const bool random,
	  const bool mixing, const bool tracing, const bool pacing, const bool verifying)
{
	const struct atio_opts *o = w->sh->opts;
	const struct atio_engine_ops *eng = w->engine;
	const bool writing = o->mode != ATIO_MODE_READ;
	const bool syncing = o->mode == ATIO_MODE_FSYNC || o->mode == ATIO_MODE_FDATASYNC;
	const enum atio_req_op sync_op = o->mode == ATIO_MODE_FSYNC ? ATIO_REQ_FSYNC
								  : ATIO_REQ_FDATASYNC;
	const bool expanding = o->mode == ATIO_MODE_EXPAND;
	const unsigned batch = o->iodepth_batch < w->depth ? o->iodepth_batch : w->depth;
	unsigned nspare = w->depth, inflight = 0;
	bool want_sync = false, want_empty = false, ending = false;

	for (;;) {
		unsigned nb = 0;
		uint64_t t, now = 0, due = 0;
		bool early = false;        /* pacing: the next I/O is not due yet */
		int n;

		if (pacing)
			now = atio_ticks();
		while (!ending && !want_sync && !want_empty && nspare) {
			struct atio_req *r = w->spare[nspare - 1];
			unsigned was_seg = c->seg;
			uint64_t was_block = c->block;

			/* --expand: a full file is emptied once nothing is in flight. */
			if (expanding && expand_full(w, c)) {
				want_empty = true;
				break;
			}
			if (pacing) {
				due = atio_pace_due(&c->pace, c->next);
				if (due >= end) {
					c->idle = true;
					ending = true;
					break;
				}
				if (due > now) {
					early = true;
					break;
				}
			}
			aim(w, c, r, random, writing, mixing, verifying);
			if (eng->queue(&w->io, r) == ATIO_Q_BUSY) {
				/* The block goes out later: an append skipped would leave a hole. */
				if (expanding) {
					c->seg = was_seg;
					c->block = was_block;
				}
				break;
			}
			if (verifying)
				verify_issue(w, r);
			if (pacing) {
				r->due = due;
				c->next++;
			}
			if (expanding)
				expand_grow(w, was_seg, r->len);
			if (tracing)
				trace_submit(w, r);
			nspare--;
			w->batch[nb++] = r;
			if (syncing && ++c->since_sync == o->qsync)
				want_sync = true;
		}
		if (nb) {
			t = atio_ticks();
			for (unsigned i = 0; i < nb; i++)
				w->batch[i]->issued = t;
			inflight += nb;
			n = eng->submit(&w->io);
			if (n < 0)
				return fail(w, w->batch[0], n);
		}
		if (pacing && inflight == 0 && early && !want_sync) {
			/* Nothing in flight and the next I/O not due: sleep. */
			if (!pace_wait(w, due))
				return 0;
			continue;
		}
		if (inflight == 0 && want_empty) {
			/* Every append has completed: the end of the file is final. */
			want_empty = false;
			if (ending || atio_ticks() >= end || stopped(w))
				return 0;
			if (atio_expand_restart(w, c->seg, tracing))
				return -1;
			continue;
		}
		if (inflight == 0) {
			if (!want_sync)
				return ending ? 0 : fail(w, &w->reqs[0], -EBUSY);
			/*
			 * Every write before the sync has completed: now sync,
			 * also when the time is up, since those writes count.
			 */
			want_sync = false;
			c->since_sync = 0;
			if (sync_files(w, sync_op, true, tracing))
				return -1;
			if (ending || atio_ticks() >= end || stopped(w))
				return 0;
			continue;
		}

		if (pacing && early && !want_sync && eng->reap_timed) {
			/*
			 * Room for the next I/O, which is not due yet: wait for a
			 * completion at most until ATIO_PACE_SPIN_NS before it, then
			 * look without waiting until it is due.
			 */
			uint64_t left = atio_ticks_to_ns(due - now);

			left = left > ATIO_PACE_SPIN_NS ? left - ATIO_PACE_SPIN_NS : 0;
			n = eng->reap_timed(&w->io, inflight < batch ? inflight : batch,
					    left < ATIO_PACE_NAP_NS ? left : ATIO_PACE_NAP_NS);
		} else {
			n = eng->reap(&w->io, 1, inflight < batch ? inflight : batch);
		}
		if (n < 0)
			return fail(w, w->batch[0], n);
		t = atio_ticks();
		if (n > 0)
			atio_ival_seen(&w->iv, t, pacing ? w->done[0]->issued : 0);
		for (int i = 0; i < n; i++) {
			struct atio_req *r = w->done[i];
			uint64_t lat = atio_ticks_to_ns(t - r->issued);

			if (tracing)
				trace(w, r, lat);
			if (r->res != (int64_t)r->len)
				return fail(w, r, r->res);
			if (pacing)
				account_paced(w, atio_ticks_to_ns(t - r->due), lat, r->len, r->op,
					      mixing);
			else
				account(w, lat, r->len, r->op, mixing);
			if (verifying && verify(w, r))
				return -1;
			w->spare[nspare++] = r;
		}
		inflight -= (unsigned)n;
		if (t >= end || stopped(w))
			ending = true;
	}
}

/*
 * Run the workload until @end_ns (CLOCK_MONOTONIC) with the loop and flags
 * this run needs. The loops compare clock ticks: the deadline is converted
 * once, here.
 */
static int run_until(struct atio_worker *w, struct cursor *c, uint64_t end_ns)
{
	bool random = w->sh->opts->random, tracing = w->sh->opts->verbose >= 3;
	bool mixing = w->sh->opts->mode == ATIO_MODE_MIX;
	uint64_t now_ns = atio_now_ns(), end = atio_ticks();

	if (end_ns > now_ns)
		end += atio_ns_to_ticks(end_ns - now_ns);
	/*
	 * --rate: the deadline on the schedule's own footing, so that an I/O
	 * due exactly at the end is not issued by a clock read's jitter.
	 */
	if (w->sh->opts->rate > 0 && end_ns > c->pace.start_ns)
		end = c->pace.start + atio_ns_to_ticks(end_ns - c->pace.start_ns);

	if (w->sh->opts->verify) {
		/* --verify: one copy per loop; the other flags stay variables. */
		bool pacing = w->sh->opts->rate > 0;

		if (w->engine->async)
			return run_async(w, c, end, random, mixing, tracing, pacing, true);
		return run_inline(w, c, end, random, mixing, tracing, pacing, true);
	}
	if (w->sh->opts->rate > 0) {
		/* --rate: one copy per loop; the trace flag stays a variable. */
		if (w->engine->async)
			return random ? run_async(w, c, end, true, mixing, tracing, true, false)
				      : run_async(w, c, end, false, mixing, tracing, true, false);
		return random ? run_inline(w, c, end, true, mixing, tracing, true, false)
			      : run_inline(w, c, end, false, mixing, tracing, true, false);
	}
	if (w->engine->async) {
		if (tracing)
			return run_async(w, c, end, random, mixing, true, false, false);
		if (mixing)
			return random ? run_async(w, c, end, true, true, false, false, false)
				      : run_async(w, c, end, false, true, false, false, false);
		return random ? run_async(w, c, end, true, false, false, false, false)
			      : run_async(w, c, end, false, false, false, false, false);
	}
	if (tracing)
		return run_inline(w, c, end, random, mixing, true, false, false);
	if (mixing)
		return random ? run_inline(w, c, end, true, true, false, false, false)
			      : run_inline(w, c, end, false, true, false, false, false);
	return random ? run_inline(w, c, end, true, false, false, false, false)
		      : run_inline(w, c, end, false, false, false, false, false);
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
	bool engine_up, flushed = false;

	/* A private descriptor table (see the top of this file); without one, only slower. */
	(void)unshare(CLONE_FILES);
	engine_up = atio_worker_buffers(w) == 0 && atio_worker_engine_start(w) == 0;
	w->setup_failed = !engine_up;
	atio_range_init(&c.segs, w->nsegs);
	atio_range_init(&c.blocks, w->segs[0].blocks);

	pthread_barrier_wait(&sh->ready);
	pthread_barrier_wait(&sh->go);
	if (w->setup_failed || stopped(w))
		goto out;

	wait_until(sh->start_ns);
	if (o->rate > 0)
		atio_pace_start(&c.pace, sh->start_ns, o->rate_interval_ns);
	start = sh->start_ns;
	if (o->warmup_ns) {
		bool quit;

		start += o->warmup_ns;
		quit = run_until(w, &c, start) || stopped(w);
		/* What the warm-up did is never reported, even when it is cut short. */
		atio_stats_init(&w->st);
		if (w->dir)
			atio_dir_stats_init(w->dir);
		if (quit)
			goto out;
	}
	atio_ival_rec_start(&w->iv, start);
	end = start + o->time_ns;
	user0 = thread_cpu_ns(&sys0);
	/*
	 * --rate: a thread that did every I/O due before the end (and synced)
	 * waits for the end, and its time is the whole time: it did all the
	 * schedule asked inside it, and a late wake-up at the end is no I/O's
	 * doing.
	 */
	c.idle = false;
	if (run_until(w, &c, end) == 0 && o->mode != ATIO_MODE_READ && !o->skip_sync)
		flushed = sync_files(w, ATIO_REQ_FSYNC, false, o->verbose >= 3) == 0;
	w->end_ns = atio_now_ns();
	if (c.idle && !w->failed)
		w->end_ns = atio_pace_idle(end, &sh->stop) && w->end_ns < end ? end
										 : atio_now_ns();
	user1 = thread_cpu_ns(&sys1);
	/*
	 * An idle --rate thread had nothing in flight at its end; a thread
	 * whose final flush completed ended with it: the flush's intervals
	 * show no I/O, but the flush is the end of the time, not a stall.
	 */
	atio_ival_rec_finish(&w->iv, w->end_ns, !c.idle && !flushed);
	if (w->dir)
		atio_dir_stats_fold(&w->st, w->dir);
	w->st.elapsed_ns = w->end_ns - start;
	w->st.cpu_user_ns = user1 - user0;
	w->st.cpu_sys_ns = sys1 - sys0;
out:
	if (engine_up)
		w->engine->cleanup(&w->io);
	/* An eventfd write of 1 cannot fail short of a kernel bug. */
	(void)!write(sh->done_fd, &one, sizeof(one));
	return NULL;
}
