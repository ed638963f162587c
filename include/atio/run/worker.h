/* SPDX-License-Identifier: MIT */
#ifndef ATIO_WORKER_H
#define ATIO_WORKER_H

/*
 * One load thread: it picks offsets, hands requests to its engine, reads the
 * clock around them and records what completed. Everything a worker writes
 * while running is its own; main merges after joining.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "atio/data/check.h"
#include "atio/base/opts.h"
#include "atio/data/dataset.h"
#include "atio/engine/engine.h"
#include "atio/base/error.h"
#include "atio/stats/interval.h"
#include "atio/stats/passes.h"
#include "atio/run/genmap.h"
#include "atio/data/journal.h"
#include "atio/data/pool.h"
#include "atio/base/prng.h"
#include "atio/run/readback.h"
#include "atio/stats/stats.h"

struct atio_sizes;

/* State every worker shares with main, read-only while running but @stop. */
struct atio_shared {
	const struct atio_opts *opts;
	struct atio_dataset *ds;
	const struct atio_engine_ops *engine;
	unsigned depth;            /* --iodepth as the engine will run it */
	pthread_mutex_t gate;      /* held by main until every thread is made */
	pthread_barrier_t ready;   /* workers set up; main may fix the start */
	pthread_barrier_t go;      /* start_ns is fixed */
	uint64_t start_ns;         /* CLOCK_MONOTONIC instant the warm-up starts */
	int stop;                  /* set (atomically) to end the run early */
	int done_fd;               /* eventfd each worker signals on exit */
	struct atio_journal *journal; /* --fsync --verify: the run's journal, else NULL */
	uint64_t run_id;           /* drawn for each run: its writes' keys are its own */
	/* --steady (atio/run/rounds.h) */
	uint64_t rounds_word;      /* the slice last passed, or the end */
	unsigned measuring;        /* workers past the rounds, in their measured time */
};

struct atio_worker {
	/*
	 * What the engine sees (atio/engine/engine.h), first: the engine state, the
	 * file table and buffers engines may register with the kernel in
	 * init(), the requests; w->fds and the like name its fields.
	 */
	union {
		struct atio_engine_io io;
		struct { ATIO_ENGINE_IO_FIELDS };
	};
	unsigned id;
	struct atio_shared *sh;
	pthread_t thread;
	const struct atio_segment *segs;
	unsigned nsegs;
	const struct atio_engine_ops *engine;
	struct atio_req **spare;   /* [depth]: requests not in flight */
	struct atio_req **batch;   /* [depth]: requests queued since the last submit */

	struct atio_prng rng;
	struct atio_pool pool;     /* write data, write modes only */
	struct atio_reduce reduce; /* --compress, --dedup: the pool's data (pool.reduce) */
	void *rbuf;                /* read buffers, depth x block size, read mode only */

	bool setup_failed;         /* buffers or engine could not start */
	bool failed;               /* an I/O failed; see err */
	struct atio_error err;
	struct atio_stats st;
	uint64_t end_ns;           /* CLOCK_MONOTONIC end of the measured time */
	struct atio_ival_rec iv;   /* --interval: the current interval and the series */
	enum atio_end ended;       /* what ended the measured time (atio/run/limits.h) */
	struct atio_pass_rec pass; /* --loops: the passes; pass.h NULL otherwise */

	/* --mix */
	struct atio_dir_stats *dir;  /* [ATIO_DIRS]: reads, writes; NULL in other modes */
	unsigned char *mix_rbuf;   /* read buffers, depth x block size, in the pool's tail */
	uint64_t read_below;       /* a draw below this reads: R% of 2^64 */
	/* an -s mix: atio/run/sizes.h; NULL without one */
	struct atio_sizes *sz;
	/* --verify */
	unsigned char *vks;        /* one block of keystream to compare with */
	struct atio_keystream vctx;
	bool vfailed;              /* a block read was not atio's data for its offset */
	struct atio_check_bad vbad;/* its first bad sector (file unset) */
	struct atio_stamp vfound;  /* the stamp that sector held, if any */
	const char *vpath;         /* its file */
	/* --verify on writes: atio/run/genmap.h, atio/data/journal.h, atio/run/readback.h */
	struct atio_genmap gm;     /* the last write of every block; gm.gen NULL otherwise */
	struct atio_journal_list jl; /* writes since the last completed sync */
	struct atio_readback rb;   /* what reading the blocks back found */
};

/*
 * Set @w up to run as thread @id of @sh: its segments and file table and
 * its PRNG. Buffers and the engine are set up by the thread itself. Runs on
 * main's thread before the worker starts; returns 0 or a negative errno
 * with w->err filled.
 */
int atio_worker_setup(struct atio_worker *w, struct atio_shared *sh, unsigned id);

/*
 * Allocate @w's buffers, on the thread itself so that the pools of many
 * threads are filled in parallel: a read buffer per request, or the write
 * pool, or with --mix both in one allocation (the read buffers in the
 * pool's tail), so that an engine registers one area; with --verify the
 * keystream block, and on writes the generation map and the journal's
 * list. Returns 0, or a negative errno with w->err filled.
 */
int atio_worker_buffers(struct atio_worker *w);

/*
 * Start @w's engine (its init()), on the thread itself, after
 * atio_worker_buffers(). Returns 0, or a negative errno with w->err filled
 * (exit 1) saying why the engine cannot start (atio_engine_why()).
 */
int atio_worker_engine_start(struct atio_worker *w);

/* Whether @w's run is asked to stop (read atomically). */
static inline bool atio_worker_stopped(const struct atio_worker *w)
{
	return __atomic_load_n(&w->sh->stop, __ATOMIC_RELAXED);
}

/*
 * The interval records a run of @o is likely to close, for their first
 * allocation; a long run's arrays grow when an interval closes, never per I/O.
 */
size_t atio_worker_expected_ivals(const struct atio_opts *o);
/* The calling thread's CPU time so far: user nanoseconds, system ones in *@sys. */
uint64_t atio_thread_cpu_ns(uint64_t *sys);

/* Thread body: pthread_create(&w->thread, NULL, atio_worker_main, w). */
void *atio_worker_main(void *arg);

/* Free what atio_worker_setup() allocated. */
void atio_worker_teardown(struct atio_worker *w);


#endif
