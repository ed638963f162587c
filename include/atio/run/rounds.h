/* SPDX-License-Identifier: MIT */
#ifndef ATIO_RUN_ROUNDS_H
#define ATIO_RUN_ROUNDS_H

/*
 * --steady: the warm-up as rounds (atio/stats/steady.h), whose end the
 * main thread decides while the load runs.
 *
 * Recording. While it warms up, a worker's interval recorder (atio/stats/
 * interval.h) closes rounds instead of intervals: one record a round, on
 * the completion timestamps the loop takes anyway, so that a round costs
 * the hot loop nothing an interval does not. The main thread sums each
 * round over the threads once every thread has closed it, and judges.
 *
 * The end. A worker runs its rounds in slices of a second at most (a
 * round cut into equal parts) and, at the end of each, asks the shared
 * word whether the warm-up ends there. The word holds either the last
 * slice a worker went past, or ATIO_ROUNDS_END with the slice the warm-up
 * ends at. A worker at the end of slice i goes on when the word says a
 * slice i or later was passed, or the end is later; ends when the end is
 * i; else marks i passed (compare and swap) and goes on. The main thread
 * sets the end to the slice after the last one passed: no worker has
 * gone past it, so every worker ends at the same slice, and the measured
 * time of all starts at its instant, as after -w. The main thread reads
 * no round after it sets the end; a worker frees its rounds only after
 * it sees the end, then counts itself in sh->measuring.
 */

#include <stdbool.h>
#include <stdint.h>

struct atio_worker;
struct atio_cursor;

#define ATIO_ROUNDS_END (1ULL << 63)

/* A slice: @round_ns cut into ceil(round / 1 s) equal parts. */
uint64_t atio_rounds_slice_ns(uint64_t round_ns);

/*
 * The worker at the end of slice @i (from 1): whether the warm-up ends
 * there (see above).
 */
bool atio_rounds_pass(uint64_t *word, uint64_t i);

/*
 * The main thread: end the warm-up at the first slice no worker has
 * passed. Returns that slice's index (from 1); the warm-up ends
 * slice_ns * index after its start.
 */
uint64_t atio_rounds_end(uint64_t *word);

/*
 * The worker's warm-up by rounds, from sh->start_ns until the main thread
 * ends it: its counters and rounds then dropped, and its recorder ready
 * for the measured time's intervals. *@start is the measured start.
 * Returns true when the run stopped or failed meanwhile.
 */
bool atio_rounds_run(struct atio_worker *w, struct atio_cursor *c, uint64_t *start);

#endif
