/* SPDX-License-Identifier: MIT */
#ifndef ATIO_PASSES_H
#define ATIO_PASSES_H

/*
 * --loops: the figures of each pass over a thread's share, and what ended
 * a thread's measured time.
 *
 * A pass is as many completed I/Os as the thread's share has blocks
 * (struct atio_pass_rec.len). The worker records each latency in the
 * current pass's dense histogram as well as in the run's; when the pass's
 * last I/O completes the pass is closed: its duration, the growth of the
 * thread's counters since the pass began and the histogram's non-empty
 * buckets go into a record of the thread's series (the sparse records of
 * atio/stats/interval.h), and the next pass begins at that completion. A
 * pass cut short by -t or a signal is closed at the thread's end as a
 * partial one. Per I/O this adds a histogram record and a decrement, and
 * only to the runs that give --loops.
 *
 * In a series of passes a record's "docs" counts the threads whose pass it
 * completed: 1 or 0 in a thread's, up to the thread count in their merge.
 */

#include <stdbool.h>
#include <stdint.h>

#include "atio/stats/hist.h"
#include "atio/stats/interval.h"
#include "atio/stats/stats.h"

/* What ended a thread's measured time (a signal is the run's to say). */
enum atio_end {
	ATIO_END_TIME,             /* -t, or a stop */
	ATIO_END_SIZE,             /* --size: the thread moved its bytes */
	ATIO_END_LOOPS,            /* --loops: the thread made its passes */
};

/* "time", "size", "loops". */
const char *atio_end_name(enum atio_end end);

/* A worker's recorder of passes. Only its worker writes it while running. */
struct atio_pass_rec {
	struct atio_hist *h;       /* the current pass's latencies; NULL: no passes kept */
	uint64_t len;              /* I/Os of a pass */
	uint64_t left;             /* I/Os left to complete in the current pass */
	uint64_t start;            /* tick the current pass began */
	uint64_t ops, bytes, syncs;/* the thread's counters when it began */
	struct atio_ival_series s; /* the passes closed, one record each */
};

/*
 * Set @p up for passes of @len I/Os. Returns 0, or -ENOMEM with p->h NULL
 * (the run goes on without a table of passes).
 */
int atio_pass_rec_init(struct atio_pass_rec *p, uint64_t len);

/* The first pass begins at tick @t, the thread's counters being @st's. */
void atio_pass_rec_start(struct atio_pass_rec *p, const struct atio_stats *st, uint64_t t);

/*
 * The current pass ends at tick @t: close it, whole with @whole, into the
 * series, and begin the next. Out of line: the hot loops call it through
 * atio_pass_seen() only.
 */
void atio_pass_rec_close(struct atio_pass_rec *p, const struct atio_stats *st, uint64_t t,
			 bool whole);

/*
 * An I/O of latency @lat completed at tick @t and is counted in @st: into
 * the pass's histogram, closing the pass when it was its last.
 */
static inline __attribute__((always_inline)) void
atio_pass_seen(struct atio_pass_rec *p, const struct atio_stats *st, uint64_t t, uint64_t lat)
{
	atio_hist_record(p->h, lat);
	if (__builtin_expect(--p->left == 0, 0))
		atio_pass_rec_close(p, st, t, true);
}

/* The thread ended at tick @t: a pass begun and not whole is closed as partial. */
void atio_pass_rec_finish(struct atio_pass_rec *p, const struct atio_stats *st, uint64_t t);

void atio_pass_rec_free(struct atio_pass_rec *p);

/*
 * Merge the @n threads' series @in into @out, pass by pass: counters add,
 * histograms merge, the time is the longest thread's, the rates (set with
 * @unit) are the sums of each thread's over its own time, and docs counts
 * the threads that completed the pass. The threads' records get their
 * rates too. Returns 0 or -ENOMEM.
 */
int atio_passes_merge(struct atio_ival_series *out, struct atio_ival_series *const *in,
		      unsigned n, enum atio_ival_unit unit);

#endif
