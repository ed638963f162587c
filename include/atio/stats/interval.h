/* SPDX-License-Identifier: MIT */
#ifndef ATIO_INTERVAL_H
#define ATIO_INTERVAL_H

/*
 * What the load did interval by interval (--interval SEC), and when it
 * stalled.
 *
 * Recording. A worker records the latency of each I/O in a dense histogram
 * of the current interval (struct atio_ival_rec.cur), instead of the run's;
 * an I/O belongs to the interval of its completion timestamp, the clock
 * read the worker makes anyway. The only per-I/O addition is a comparison
 * of that timestamp with the next boundary and one store of it (the last
 * completion). When a completion lands past the boundary, the worker
 * closes the interval: the counters' growth since the last close (the
 * run's own ops, bytes and syncs counters) and the histogram's non-empty
 * buckets go into a sparse record at the end of the thread's series; the
 * dense histogram is folded into the run's and emptied. A thread that saw
 * no completion for several intervals closes the missed ones as empty when
 * it next completes, or at its end. The run's histograms are therefore the
 * sum of the intervals', exactly.
 *
 * Stalls. At a boundary the worker also looks at the gap since its last
 * completion: one as long as an interval or more is kept as a [from, to]
 * span. Every gap of an interval or more crosses a boundary, so none is
 * missed. After join, the process's stalls are the spans in which no
 * thread completed anything (the intersection of the threads' gaps, the
 * time after a thread's end counting as quiet), kept when at least one
 * interval long; a cluster's are the intersection of its nodes'.
 *
 * Live. The series' arrays only grow by allocating a larger copy and
 * publishing it; the old one is kept until teardown. A worker publishes
 * the number of records it closed with a release store after writing them,
 * so another thread that loads the count with acquire, then the arrays,
 * may read every record below the count while the worker runs.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "atio/stats/hist.h"
#include "atio/stats/stats.h"

#define ATIO_IVAL_MAX_RETIRED 64

/* The unit of an interval's value: the result's. */
enum atio_ival_unit {
	ATIO_IVAL_MBS,             /* MB/s, 2^20 bytes */
	ATIO_IVAL_IOPS,
	ATIO_IVAL_SYNCS,           /* sync/s */
};

/* One non-empty bucket of a sparse histogram. */
struct atio_ival_bucket {
	uint32_t index;
	uint64_t count;
};

/* A histogram's summary; its buckets are series->b[first .. first + n). */
struct atio_ival_hist {
	uint64_t count, sum, min, max;
	size_t first, n;
};

/* One interval; direction 0 holds everything unless the series is mixed. */
struct atio_ival {
	uint64_t dur_ns;           /* the interval's length (the last may be shorter) */
	uint64_t ops[ATIO_DIRS], bytes[ATIO_DIRS], syncs;
	struct atio_ival_hist h[ATIO_DIRS];
	/* Rates, set by atio_ival_rates() or summed by a merge of documents. */
	double value, mbs, iops, syncs_per_sec;
	unsigned docs;             /* documents that had this interval (merge) */
};

/* A span without completion, in ns from the measured start. */
struct atio_ival_gap {
	uint64_t from, to;
	bool busy;                 /* I/Os were in flight (not a thread's end) */
};

/* A growing array that a reader on another thread may follow (see top). */
struct atio_ival_array {
	void *p;
	size_t n, cap, size;
	void *retired[ATIO_IVAL_MAX_RETIRED];
	unsigned nretired;
};

/* A series of intervals with its stalls. */
struct atio_ival_series {
	uint64_t interval_ns;
	bool mixed;                /* two directions, --mix */
	struct atio_ival_array iv; /* struct atio_ival */
	struct atio_ival_array b;  /* struct atio_ival_bucket */
	struct atio_ival_array gap;/* struct atio_ival_gap: a thread's gaps, or stalls */
	uint64_t end_ns;           /* the end of the series from the measured start */
	bool nomem;                /* a record could not be kept: the series is partial */
	bool merged;               /* a merge of documents: records say how many had them */
};

/* A worker's recorder. Only its worker writes it while running. */
struct atio_ival_rec {
	uint64_t next;             /* tick of the next boundary; UINT64_MAX before start */
	uint64_t last;             /* tick of the last completion */
	uint64_t base;             /* tick of the measured start */
	uint64_t base_ns;          /* the same instant, CLOCK_MONOTONIC ns */
	uint64_t gap_ticks;        /* a gap this long or longer is kept */
	struct atio_hist *cur[ATIO_DIRS]; /* the current interval; [1] with --mix only */
	struct atio_stats *st;     /* the run's counters and histogram */
	struct atio_dir_stats *dir;/* --mix: the directions' */
	uint64_t ops[ATIO_DIRS], bytes[ATIO_DIRS], syncs; /* counters at the last close */
	struct atio_ival_series s;
	size_t closed;             /* records closed, published with release */
	uint64_t k;                /* intervals closed (also those lost without memory) */
	bool started;              /* between atio_ival_rec_start() and _finish() */
};

/*
 * Set @r up for a thread whose run counters are @st (and @dir with --mix,
 * else NULL), intervals of @interval_ns, room for about @expect records.
 * Returns 0 or -ENOMEM.
 */
int atio_ival_rec_init(struct atio_ival_rec *r, struct atio_stats *st,
		       struct atio_dir_stats *dir, uint64_t interval_ns, size_t expect);

/*
 * The measured time starts at CLOCK_MONOTONIC @start_ns: forget what the
 * current histograms hold (the warm-up's) and set the first boundary.
 */
void atio_ival_rec_start(struct atio_ival_rec *r, uint64_t start_ns);

/*
 * Start over with intervals of @interval_ns and room for about @expect
 * records: the records so far are freed and the recorder stops until
 * atio_ival_rec_start(). Only while no other thread reads the series
 * (--steady's rounds end so: atio/run/rounds.h). Without memory for the
 * room, the arrays grow when records close.
 */
void atio_ival_rec_restart(struct atio_ival_rec *r, uint64_t interval_ns, size_t expect);

/*
 * A completion at tick @t is past the next boundary: close every interval
 * up to it. @since, when above the last completion, is when the completing
 * I/O was submitted (--rate: the time before it had nothing in flight).
 * Called from the hot loops through atio_ival_seen() only.
 */
void atio_ival_rec_cross(struct atio_ival_rec *r, uint64_t t, uint64_t since);

/* A completion at tick @t; @since as above (0: I/O was always in flight). */
static inline __attribute__((always_inline)) void
atio_ival_seen(struct atio_ival_rec *r, uint64_t t, uint64_t since)
{
	if (__builtin_expect(t >= r->next, 0))
		atio_ival_rec_cross(r, t, since);
	r->last = t;
}

/*
 * The thread ended at CLOCK_MONOTONIC @end_ns: close what is left, the last
 * interval ending there; with @busy, a gap up to it counts as one with I/O
 * in flight. Before atio_ival_rec_start() (no measured time) it does
 * nothing.
 */
void atio_ival_rec_finish(struct atio_ival_rec *r, uint64_t end_ns, bool busy);

/* The number of records closed, for a reader on another thread. */
static inline size_t atio_ival_rec_closed(const struct atio_ival_rec *r)
{
	return __atomic_load_n(&r->closed, __ATOMIC_ACQUIRE);
}

/* Free what the recorder holds. */
void atio_ival_rec_free(struct atio_ival_rec *r);

/* An empty series of intervals of @interval_ns. */
void atio_ival_series_init(struct atio_ival_series *s, uint64_t interval_ns, bool mixed);
void atio_ival_series_free(struct atio_ival_series *s);

/* Record @i of @s (a reader on another thread: after atio_ival_rec_closed()). */
const struct atio_ival *atio_ival_get(const struct atio_ival_series *s, size_t i);
static inline size_t atio_ival_count(const struct atio_ival_series *s)
{
	return s->iv.n;
}

/*
 * Add to @h (dense) the values of direction @dir of record @iv of @s, or of
 * both directions when @dir is ATIO_DIRS, with atio_hist_merge().
 */
void atio_ival_hist_add(struct atio_hist *h, const struct atio_ival_series *s,
			const struct atio_ival *iv, unsigned dir);

/*
 * Append to @s a record with the counters of @iv and, for each direction,
 * the buckets of dense @h[d] (h[1] with a mixed series only). Returns 0 or
 * -ENOMEM.
 */
int atio_ival_append(struct atio_ival_series *s, const struct atio_ival *iv,
		     struct atio_hist *const h[ATIO_DIRS]);

/* Add a stall or gap [from, to] to @s. Returns 0 or -ENOMEM. */
int atio_ival_add_gap(struct atio_ival_series *s, uint64_t from, uint64_t to, bool busy);

/*
 * Merge the @n series @in (threads of one run, or documents) into @out,
 * index by index: counts add, histograms merge; the i-th record lasts
 * @dur(i) ns (the run's, not a part's). With @sum_rates each record's
 * rates are the sums of the parts' (documents); otherwise call
 * atio_ival_rates() after. @out->end_ns is @end_ns. Stalls: the spans no
 * part completed anything in, at least an interval long, with I/O in
 * flight in one part at least; a part's quiet time runs past its end.
 * Returns 0 or -ENOMEM.
 */
int atio_ival_merge(struct atio_ival_series *out, const struct atio_ival_series *const *in,
		    unsigned n, uint64_t end_ns, bool sum_rates);

/* Set every record's rates from its counts over its duration. */
void atio_ival_rates(struct atio_ival_series *s, enum atio_ival_unit unit);

/* The summary of a series: rate min/median/max over the full intervals, the stalls. */
struct atio_ival_summary {
	size_t intervals, full;    /* all, and those counted in min/median/max */
	double rate_min, rate_median, rate_max;
	size_t stalls;
	uint64_t longest_ns, longest_at_ns;
};

void atio_ival_summarise(const struct atio_ival_series *s, struct atio_ival_summary *sum);

/* Whether record @i saw no completion while inside one of the stalls of @s. */
bool atio_ival_stalled(const struct atio_ival_series *s, size_t i);

/*
 * The text line, e.g. "intervals: 10 x 1 s: min 900.1, median 1000.2, max
 * 1100.3 IOPS; stalls: 1, longest 3.004 s at +4.200 s" (no word "rate").
 */
void atio_ival_text(FILE *f, const struct atio_ival_series *s, const char *unit);

struct atio_json;

/*
 * The "intervals" array of @s: with @buckets (and read/write when mixed)
 * as the run's document has it, or without (threads).
 */
void atio_ival_json(struct atio_json *j, const char *key, const struct atio_ival_series *s,
		    bool buckets);

/* The "timeline" object of @s. */
void atio_ival_json_timeline(struct atio_json *j, const struct atio_ival_series *s);

/*
 * -vv: the line of interval @k summed over the @n series (each must have
 * closed it), into @buf: "1 s: 12.34 MB/s, 3160 IOPS, 0 sync/s, 3160 ops,
 * p99 310.20 usec", the number first being the interval's end from the
 * measured start; with mixed series "; read: ... MB/s, ... IOPS, p99 ...
 * usec; write: ..." after it.
 */
void atio_ival_live_line(char *buf, size_t len, const struct atio_ival_series *const *in,
			 unsigned n, size_t k);

/* The unit named "MB/s", "IOPS" or "sync/s". */
enum atio_ival_unit atio_ival_unit_named(const char *unit);

#endif
