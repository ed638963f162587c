/* SPDX-License-Identifier: MIT */
#ifndef ATIO_ENGINE_H
#define ATIO_ENGINE_H

/*
 * The seam between the worker, which measures, and the backends, which only
 * move bytes. An engine never reads a clock and never keeps statistics.
 *
 * Contract. The worker fills a struct atio_req and calls queue():
 *  - ATIO_Q_COMPLETED: the request is done and r->res holds its result;
 *  - ATIO_Q_QUEUED: the engine holds it until submit() sends it and reap()
 *    returns it;
 *  - ATIO_Q_BUSY: no room; the worker reaps before queueing again.
 * reap() waits for at least @min and returns at most @max completed requests,
 * stored in w->done[0 .. n), and returns n or a negative errno.
 * r->res is the byte count transferred (the whole length, an engine retries
 * short transfers itself and reports a short count only at end of file) or
 * a negative errno; for a sync, 0 or a negative errno.
 * An engine may leave the sending to reap(): the worker always reaps after
 * it submits, as long as requests are in flight.
 * init() and cleanup() run on the worker's own thread; init() may use the
 * worker's file table (w->fds, r->slot) and buffer area (w->buf_base,
 * w->buf_len) to register them with the kernel.
 * probe() tells, without a worker, whether the kernel lets the engine run:
 * 0 or a negative errno.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "atio/base/error.h"

/*
 * What an engine sees of a load thread: its state, its file table, the
 * memory its requests point into and its requests. A struct atio_worker
 * (atio/run/worker.h) holds one as its first member, so that the worker hands
 * its engine this and the engine knows nothing of the rest of it.
 */
#define ATIO_ENGINE_IO_FIELDS \
	void *engine_data;         /* the engine's private state */ \
	int *fds;                  /* the thread's files; r->slot indexes this */ \
	unsigned nfds; \
	void *buf_base;            /* every buffer a request can point into */ \
	size_t buf_len; \
	bool buf_huge;             /* buf_base is advised for huge pages (THP is on) */ \
	unsigned depth;            /* requests in flight at most */ \
	struct atio_req *reqs;     /* [depth] */ \
	struct atio_req **done;    /* [depth]: completions handed back by reap() */

struct atio_req;

struct atio_engine_io {
	ATIO_ENGINE_IO_FIELDS
};

enum atio_req_op {
	ATIO_REQ_READ,
	ATIO_REQ_WRITE,
	ATIO_REQ_FSYNC,
	ATIO_REQ_FDATASYNC,
};

struct atio_req {
	enum atio_req_op op;
	int fd;
	unsigned slot;             /* index of fd in the worker's file table */
	unsigned index;            /* index of the request in the worker's array */
	void *buf;
	size_t len;
	uint64_t off;
	int64_t res;
	int err;                   /* with a short res: why the rest failed, if known */
	uint64_t issued;           /* the worker's business: clock ticks */
	uint64_t due;              /* --rate: intended start, clock ticks */
	uint64_t block;            /* --verify on writes: the block's word in the map */
};

enum atio_q {
	ATIO_Q_COMPLETED,
	ATIO_Q_QUEUED,
	ATIO_Q_BUSY,
};

struct atio_engine_ops {
	const char *name;
	bool async;                /* requests complete in reap(), not in queue() */
	bool no_io;                /* touches no file: no dataset, no target checks */
	unsigned max_iodepth;      /* requests one thread can have in flight */
	/*
	 * --iodepth-batch by default for random O_DIRECT I/O at depth (see
	 * atio_opts_batch() in cli.h); 0 for engines that run one request at
	 * a time.
	 */
	unsigned direct_batch;
	int (*probe)(void);
	/*
	 * Optional: the largest depth the kernel lets @threads threads run at
	 * once, into *@max, when @depth is above it: -E2BIG; 0 when @depth
	 * runs; another negative errno when the kernel cannot tell.
	 */
	int (*depth_limit)(unsigned threads, unsigned depth, unsigned *max);
	int (*init)(struct atio_engine_io *w);
	enum atio_q (*queue)(struct atio_engine_io *w, struct atio_req *r);
	int (*submit)(struct atio_engine_io *w);
	int (*reap)(struct atio_engine_io *w, unsigned min, unsigned max);
	void (*cleanup)(struct atio_engine_io *w);
	/*
	 * Optional, for --rate at depth: like reap(w, 1, max), but return 0
	 * when nothing has completed within @timeout_ns (0: look and return
	 * at once), so that the worker can issue the next scheduled I/O in
	 * time while others are in flight. The worker measures the time; the
	 * engine only passes the timeout to the kernel.
	 */
	int (*reap_timed)(struct atio_engine_io *w, unsigned max, uint64_t timeout_ns);
};

extern const struct atio_engine_ops atio_engine_sync;
extern const struct atio_engine_ops atio_engine_null;
#if ATIO_HAVE_LIBURING
extern const struct atio_engine_ops atio_engine_io_uring;
#endif
#if ATIO_HAVE_LIBAIO
extern const struct atio_engine_ops atio_engine_libaio;
#endif

/* Whether @name is one of the engines atio knows, built in or not. */
bool atio_engine_known(const char *name);

/* The engine called @name among those built in, or NULL. */
const struct atio_engine_ops *atio_engine_find(const char *name);

/* Names of the engines built in, separated by "|", for messages and --help. */
const char *atio_engine_names(void);

/*
 * What @err, from @eng's probe or its start on a thread, most likely means,
 * for a message: a kernel switch or policy, a kernel limit (for io_uring's
 * ENOMEM as a user other than root, RLIMIT_MEMLOCK and its value), else
 * strerror(). The text is in @buf (of @len bytes) or static.
 */
const char *atio_engine_why(const struct atio_engine_ops *eng, int err, char *buf, size_t len);

/*
 * Pick the engine for a run. With @name (--engine) that engine, which must
 * be built in and accepted by the kernel. Without it, sync at depth 1; at a
 * greater depth io_uring, else libaio, else sync (then *@depth becomes 1).
 * *@why gets a sentence saying what was chosen and why, for stderr, when
 * the choice is worth a line (a default at depth > 1). Returns the engine,
 * or NULL with @e filled (exit 1: the backend is not available).
 */
const struct atio_engine_ops *atio_engine_choose(const char *name, unsigned *depth,
						 char *why, size_t whylen,
						 struct atio_error *e);

/*
 * Check before the run that @threads threads of @eng can each have @depth
 * I/Os in flight, as the kernel allows (io_uring's ring size, libaio's
 * fs.aio-max-nr). Returns 0, or a negative errno with @e filled (exit 2,
 * naming the depth and the limit).
 */
int atio_engine_check_depth(const struct atio_engine_ops *eng, unsigned threads,
			    unsigned depth, struct atio_error *e);

#endif
