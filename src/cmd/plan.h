/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_PLAN_H
#define ATIO_CMD_PLAN_H

/*
 * A plan (src/cmd/plan.c): the phases of one invocation, run one after
 * another, each a run of one or more jobs at once. On the command line
 * `--and` starts another job of the same run and `--then` the next phase;
 * `--jobs FILE` reads them from a file, one job per line in the same
 * option syntax, a line `--then` between phases. Each job is a whole
 * command line of its own: nothing passes from one job to the next.
 */

#include <stdbool.h>

#include "atio/base/error.h"
#include "atio/base/opts.h"
#include "atio/data/target.h"
#include "atio/engine/engine.h"

struct plan_job {
	struct atio_opts o;
	char **argv;               /* the job's words, argv[0] a program name */
	int argc;
	char where[64];            /* "job 2 of phase 1", or "FILE:LINE", for messages */
	const struct atio_engine_ops *engine;
	struct atio_target tg;     /* what -f is: o.fstype points into it */
};

struct plan_phase {
	struct plan_job *jobs;
	unsigned njobs;
};

struct plan {
	struct plan_phase *phases;
	unsigned nphases;
	char *text;                /* --jobs: the file's text, which argv points into */
};

#define PLAN_MAX_JOBS 64      /* jobs of one run */
#define PLAN_MAX_PHASES 1000

/* Whether @argv names a plan: --and, --then or --jobs among its words. */
bool plan_wanted(int argc, char **argv);

/*
 * Cut @argv into phases and jobs (or read --jobs' file) and parse each job
 * with the run's options. Returns 0, or an exit status with @e's message
 * naming the job (or the file and line) and the bad value.
 */
int plan_read(struct plan *p, int argc, char **argv, struct atio_error *e);

void plan_free(struct plan *p);

#endif
