/* SPDX-License-Identifier: MIT */
#ifndef ATIO_LIMITS_H
#define ATIO_LIMITS_H

/*
 * --size and --loops: ends of a thread's measured time besides -t.
 *
 * --size N: each thread moves N bytes (N / -s I/Os; --mix counts reads and
 * writes, the sync modes their writes). --loops N: each thread goes N
 * times over its whole share, a pass being as many I/Os as the share has
 * blocks: in order with --seq (every block once, whatever --stride and
 * --backward), and with --rand a permutation of the share drawn anew for
 * each pass (atio/run/dist.h), so that every block is touched exactly once
 * a pass; with --dist a pass is that many draws of the distribution.
 *
 * Both become a count of I/Os the cursor has left to issue, the smaller
 * of the two; the thread ends at the first of that count, -t and a stop.
 * The warm-up counts toward none of them: the count, the passes and the
 * sequential position start with the measured time. Without -t no time
 * limit applies (the caller passes ATIO_LIMITS_NO_END).
 */

#include <stdint.h>

#include "atio/run/cursor.h"
#include "atio/run/worker.h"

/* The end instant of a measured time without a time limit. */
#define ATIO_LIMITS_NO_END UINT64_MAX

/*
 * The measured time of @w begins: with --size or --loops, set @c's count
 * and, with --loops, start @c over at the share's first block (or the first
 * pass's permutation) and the first pass's record. Without either, nothing.
 */
void atio_limits_start(struct atio_worker *w, struct atio_cursor *c);

/*
 * The measured time of @w ended at tick @t: what ended it into w->ended,
 * a partial pass closed, the passes given to w->st.
 */
void atio_limits_end(struct atio_worker *w, const struct atio_cursor *c, uint64_t t);

/* The blocks of @w's share: the I/Os of one pass. */
uint64_t atio_limits_share_blocks(const struct atio_worker *w);

#endif
