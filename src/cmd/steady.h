/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CMD_STEADY_H
#define ATIO_CMD_STEADY_H

/*
 * --steady and --precondition in the command layer (src/cmd/steady.c):
 * the main thread's side of the rounds (atio/run/rounds.h), the
 * precondition's writes before them, and the warning when the rounds ran
 * out. SNIA's criteria are atio/stats/steady.h's.
 */

#include <stdbool.h>
#include <stdint.h>

#include "run.h"
#include "atio/data/target.h"

/*
 * Each tick of a job that warms up by rounds: sum and judge every round
 * all its threads have closed, in order; once steady (or the last round
 * judged), end the warm-up and set out->measure_ns. With -v a line a
 * round on stderr, after "@name: " when @name is not empty.
 */
void steady_tick(struct run_result *out, const char *name);

/* Whether every thread of @out is past its rounds, in its measured time. */
bool steady_measuring(const struct run_result *out);

/*
 * --precondition: sequential writes of twice the dataset of @o in 128K
 * blocks (each thread's share twice over, in whole blocks), as a write
 * run of its own on the same files, judged by the same rules as any
 * write run (a device needs --allow-device-write and no filesystem on
 * it; files atio did not make are refused): what it wrote and its time
 * in *@bytes and *@ns, for the run that follows (struct run), the signal
 * that ended it in *@signo (0 for none). Returns 0, or an exit status with
 * the message said (130 after a signal).
 */
int steady_precondition(const struct atio_opts *o, const struct atio_engine_ops *engine,
			const struct atio_target *tg, uint64_t *bytes, uint64_t *ns, int *signo);

/* After a run with --steady: the warning when its rounds never became steady. */
void steady_warn(const struct run_result *out);

#endif
