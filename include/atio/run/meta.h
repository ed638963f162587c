/* SPDX-License-Identifier: MIT */
#ifndef ATIO_RUN_META_H
#define ATIO_RUN_META_H

/*
 * The threads of a metadata run (--meta): each works through the phases
 * in the order given, each phase between two barriers with the main
 * thread, so that every thread starts a phase together and the phase ends
 * when its slowest thread does (the main thread drops the caches and
 * updates the tree's mark between them). A thread times each operation
 * into its histogram and its own start and end of the phase; the main
 * thread gathers them into the phase's record (struct atio_meta_rec)
 * while the threads wait for the next phase.
 *
 * The operations, on the tree of atio/data/meta_tree.h:
 *	create  open(O_CREAT|O_EXCL|O_WRONLY), the file's data (--file-size
 *	        bytes from the thread's write pool, stamped as atio's data is,
 *	        atio/data/stamp.h, with a tag of the tree's id and the file's
 *	        number), fsync with --fsync-files, close; --fsync-dir then
 *	        syncs each directory the thread filled, inside the phase's time
 *	stat    stat()
 *	read    open, read whole, close (--verify then checks every sector's
 *	        stamp, and the bytes past the last whole sector)
 *	rename  rename() within its directory, fK to rK (and back next time)
 *	delete  unlink()
 * stat and read go in the order of creation or, with --rand, in an order
 * drawn from the seed; with --neighbour on the files of the next thread
 * (with --shared-by, the same thread of the next member).
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "atio/base/error.h"
#include "atio/base/opts.h"
#include "atio/data/pool.h"
#include "atio/stats/hist.h"
#include "atio/stats/interval.h"
#include "atio/stats/stats.h"

/* A phase below this time is too fast to measure: its figure is not given. */
#define ATIO_META_MIN_NS 300000000ull

/* What the threads share. */
struct atio_meta_shared {
	const struct atio_opts *o;
	const char *top;           /* the tree's top directory */
	uint64_t tree_id;          /* in the tags of the files' data */
	pthread_mutex_t gate;      /* held while the threads are made */
	pthread_barrier_t start, end; /* threads + the main thread */
	/* Set by the main thread before the start barrier. */
	enum atio_meta_phase phase;
	uint64_t phase_ns;         /* the phase's start (atio_now_ns()), its intervals' origin */
	bool renamed;              /* the files are at their second names (rK) */
	bool quit;                 /* no phase: the threads return */
	int stop;                  /* a thread failed, or a signal came: the threads stop at their next file */
	int done_fd;               /* an eventfd each thread adds 1 to at a phase's end, or -1 */
	const char *neighbour_top; /* --neighbour-dir: the tree stat and read go to, or NULL */
	uint64_t neighbour_id;     /* its id, in the tags of its files' data */
	bool neighbour_renamed;    /* its files (--shared-by: the next member's) are at their second names */
};

/* One thread. */
struct atio_meta_worker {
	struct atio_meta_shared *sh;
	unsigned id;
	unsigned gid;              /* its number in the tree: with --shared-by, member * threads + id */
	pthread_t thread;
	char *root;                /* its tree's directory (the shared one with --shared-dir) */
	struct atio_pool pool;     /* the files' data */
	unsigned char *rbuf;       /* a read's buffer, --file-size rounded up to 512 */
	unsigned char *ks;         /* --verify: keystream to check against */
	uint64_t *order;           /* --rand: the order of stat and read; NULL: creation's */
	struct atio_keystream kctx;/* --verify: the cipher's context */
	/* The last phase, for the main thread. */
	struct atio_stats st;      /* its operations; its intervals fold their latency in */
	struct atio_ival_rec iv;   /* its intervals (src/stats/interval.c), as a data run's */
	struct atio_hist lat;
	uint64_t ops, start_ns, end_ns;
	uint64_t cpu_user_ns, cpu_sys_ns;
	bool failed;
	struct atio_error err;
};

/* A phase's record: its figures over every pass (--loops) and thread. */
struct atio_meta_rec {
	enum atio_meta_phase phase;
	uint64_t ops;
	uint64_t elapsed_ns;       /* each pass's, from its first thread's start to its last's end */
	uint64_t shortest_ns;      /* the shortest pass's */
	unsigned passes;
	struct atio_hist lat;
	uint64_t cpu_user_ns, cpu_sys_ns; /* the threads' CPU time in the phase */
	uint64_t *thread_ops;      /* [threads], over the passes */
	uint64_t *thread_ns;       /* [threads]: each thread's own time, over the passes */
	struct atio_ival_series *timeline; /* the threads' intervals merged (the last pass), or NULL */
};

/*
 * Set up thread @id of @sh: its paths, pool, buffers and order. Returns
 * 0 or -errno with w->err filled.
 */
int atio_meta_worker_setup(struct atio_meta_worker *w, struct atio_meta_shared *sh, unsigned id);
void atio_meta_worker_teardown(struct atio_meta_worker *w);

/* The thread: phases until sh->quit (pthread_create's start routine). */
void *atio_meta_worker_main(void *arg);

/* The path of thread @t's tree in @top (or the shared one) into @buf. */
void atio_meta_root(char *buf, size_t len, const char *top, unsigned t, bool shared);

/* The path of file @k of thread @t in its directory, under @root, into @buf. */
void atio_meta_path(char *buf, size_t len, const char *root, const struct atio_opts *o,
		    unsigned t, uint64_t k, bool renamed);

/*
 * Make (@make) or remove the tree's directories for @o, below @top:
 * before create's time, after delete's. Returns 0 or -errno with @e.
 */
int atio_meta_dirs(const char *top, const struct atio_opts *o, bool make, struct atio_error *e);

/*
 * --shared-by: remove this member's own files from the shared tree under
 * @top (at either name; those not there passed over), nothing else.
 * Returns 0 or -errno with @e.
 */
int atio_meta_member_remove(const char *top, const struct atio_opts *o, struct atio_error *e);

/*
 * Before a phase, by the main thread while the @n threads of @w wait at
 * the start barrier: their counters emptied and their intervals begun at
 * this instant, the phase's origin (sh->phase_ns).
 */
void atio_meta_begin(struct atio_meta_worker *w, unsigned n);

void atio_meta_gather(struct atio_meta_rec *rec, struct atio_meta_worker *w, unsigned n);

/* Each thread's own figure of @rec summed: ops over its own time. */
double atio_meta_thread_sum(const struct atio_meta_rec *rec, unsigned threads);

#endif
