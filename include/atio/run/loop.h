/* SPDX-License-Identifier: MIT */
#ifndef ATIO_LOOP_H
#define ATIO_LOOP_H

/*
 * One load thread's measured loop: it moves requests between the thread
 * and its engine, reads the clock around them and accounts what completed.
 * What plugs into it (the cursor, pacing, verify, the journal, expand,
 * syncs, tracing) is called behind flags fixed once for the run.
 */

#include <stdint.h>

#include "atio/run/cursor.h"
#include "atio/run/worker.h"

/*
 * Run @w's workload from cursor @c until @end_ns (CLOCK_MONOTONIC) or the
 * run's stop, with the loop and flags this run needs: the first completion
 * at or after the end ends it, and at depth what is in flight then is
 * reaped and counted too. Under --rate, c->idle is set when every I/O due
 * before the end was issued (the caller waits out the time). Returns 0, or
 * non-zero when the thread failed (w->err filled, every thread asked to
 * stop).
 */
int atio_run_until(struct atio_worker *w, struct atio_cursor *c, uint64_t end_ns);

#endif
