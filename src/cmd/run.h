/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_RUN_H
#define ATIO_CMD_RUN_H

/*
 * A run, as a step the commands call (src/cmd/run.c): one measured window
 * (warm-up, measured time, final sync, read-back) of the load threads over
 * a prepared dataset, returning its result. Nothing here prints the result
 * or exits; the caller does both. The dataset is prepared once by
 * run_open() and stays open and locked until run_close(), so that a plan
 * can measure one run after another on the same files, each with its page
 * cache dropped first.
 *
 *	run_open()      plan the dataset, survey and fill it, begin its journal
 *	run_measure()   one measured run; its result in a struct run_result
 *	run_result_free()
 *	run_close()     close (and with --remove delete) the files, end the journal
 */

#include <stdbool.h>
#include <stdint.h>

#include "cmd.h"
#include "atio/data/device.h"
#include "atio/data/target.h"
#include "atio/engine/engine.h"
#include "atio/print/report.h"
#include "atio/run/worker.h"
#include "atio/stats/steady.h"

struct run {
	struct atio_opts *o;
	const struct atio_engine_ops *engine;
	struct atio_dataset ds;
	struct atio_journal jn;
	struct watch wt;
	struct atio_fill_stats fs; /* what the survey found and the fill did */
	uint64_t fill_ns;          /* the fill's time */
	int fill_stop;             /* the stop flag of the fill, before any run */
	bool uses_files;           /* false with the null engine: no file made or opened */
	bool planned, opened;
	/* --precondition: what its writes did (src/cmd/steady.c), before the rounds */
	bool preconditioned;
	uint64_t pre_bytes, pre_ns;
};

/* One measured run's outcome; the memory its result points into. */
struct run_result {
	struct atio_result res;
	struct atio_shared sh;     /* what the threads share; the dataset's is @r's */
	struct atio_worker *w;     /* [threads]: kept for res's intervals and --verify's record */
	struct atio_stats *per;    /* [threads]: each thread's figures */
	struct atio_dir_stats *dir;/* [ATIO_DIRS] with --mix, else NULL */
	const struct atio_dir_stats **thread_dir; /* [threads]: each w[i].dir, with --mix */
	struct atio_readback rb;   /* --verify on writes: the read-back */
	struct atio_error flush_err; /* -S: the sync after the time failed (flush_ret) */
	int flush_ret;
	uint64_t end_ns;           /* CLOCK_MONOTONIC end of its last thread; 0: none measured */
	struct atio_steady steady; /* --steady: the rounds (res.steady points to it) */
	uint64_t measure_ns;       /* --steady: the measured start, once the rounds end; else 0 */
	struct atio_device_window *dev; /* the devices under the target, or NULL */
};

/*
 * Plan @o's dataset and, unless the null engine does no I/O, survey, fill
 * and lock it and begin its journal (--fsync --verify). Returns 0, or
 * -errno with @e filled; r->wt.signo says whether a signal cut the fill.
 * run_close() is due after either.
 */
int run_open(struct run *r, struct atio_opts *o, const struct atio_engine_ops *engine,
	     struct atio_error *e);

/*
 * One measured run over the open dataset: the files opened (the first
 * time) and dropped from the page cache (unless --keep-cache), the threads
 * started at one instant (--start-at), their figures merged into
 * out->res, -S's sync and --verify's read-back after the time. Returns 0,
 * or -errno with @e filled when a thread could not start or an I/O or a
 * check of the data failed; out is to be freed either way. A signal is no
 * failure: out->res says where it came. It ends a plan: r->wt.signo stays
 * set, and a caller measures no further run. Each run draws an id of its
 * own for the keys of its writes (atio/run/worker.h).
 */
int run_measure(struct run *r, struct run_result *out, struct atio_error *e);

/*
 * The jobs of one run, measured at once: run_measure() for each of
 * @rs[0..n), their threads started at one instant (each job's own
 * after its --delay) and watched together, so that a signal stops them
 * all; each job's result in @outs[j], to be freed either way. @rs[0]'s
 * watch serves the run; the others' are not used meanwhile.
 */
int run_measure_jobs(struct run *const *rs, struct run_result *outs, unsigned n,
		     struct atio_error *e);

void run_result_free(struct run_result *out);

/*
 * Close the files (with --remove, delete them when no other atio uses
 * them), end the journal, free the plan. Returns 0, or -errno with @e
 * filled when closing failed.
 */
int run_close(struct run *r, struct atio_error *e);

/*
 * What a run's options need before run_open() (src/cmd/cmd_run.c): the
 * seed drawn unless given, the engine chosen and the depth checked, -f
 * identified into @tg (which o->fstype then points into) and, unless the
 * null engine does no I/O or only settings are asked for, judged; the
 * write pools sized. Returns 0, or an exit status with the message said.
 */
int run_setup(struct atio_opts *o, const struct atio_engine_ops **engine,
	      struct atio_target *tg);

/*
 * A signal in the fill: the result of a run in which nothing was measured
 * ("measured": false), for the caller to print.
 */
void run_unmeasured(struct run *r, struct atio_result *res);

#endif
