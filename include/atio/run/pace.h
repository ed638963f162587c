/* SPDX-License-Identifier: MIT */
#ifndef ATIO_PACE_H
#define ATIO_PACE_H

/*
 * The fixed schedule of --rate N: an open loop. I/O number i of a thread is
 * meant to start at start + i * interval, whatever happened to the I/Os
 * before it. The instant is computed from i, never by adding intervals, so
 * no rounding accumulates: the interval is kept in 1/2^32 of a clock tick
 * and the product i * interval is taken in 128 bits. Over 2^40 I/Os the
 * schedule is off by less than 2^8 ticks.
 *
 * The cap N is in the report's unit and the threads share it evenly:
 *  - IOPS: N I/Os per second for the run, N / threads per thread;
 *  - MB/s: N * 2^20 bytes per second, i.e. N * 2^20 / (threads * block
 *    size) I/Os per second per thread;
 *  - sync/s (--fsync/--fdatasync with --iops): N syncs per second; a sync
 *    follows every q writes, so the writes are scheduled at N * q per
 *    second and the syncs follow them.
 *
 * --arrivals exponential: the gaps between a thread's I/Os are drawn at
 * random, exponentially distributed around the interval (a Poisson
 * process of the same mean). I/O 0 is still due at the start; I/O i+1
 * is due a drawn gap after I/O i. The instants are summed in a double of
 * ticks (exact to a thousandth of a tick over hours of a GHz counter) and
 * drawn only forward, once each: the schedule asks for them in order.
 * Only this path reads the flag, behind a branch the uniform schedule
 * predicts; a run without --rate has no schedule at all.
 *
 * The arithmetic (interval, init, due) reads no clock. The waits below do:
 * they serve the load threads, which alone read clocks.
 */

#include <stdbool.h>
#include <stdint.h>

/* The interval limits a cap may lead to, per thread, in nanoseconds. */
#define ATIO_PACE_MIN_NS 1.0
#define ATIO_PACE_MAX_NS 3600e9

/*
 * A wait longer than ATIO_PACE_SPIN_NS sleeps until that close to its end
 * and spins the rest: with the timer slack at 1 ns, that covers most
 * wake-ups' lateness on a busy virtual machine (a few microseconds, ten at
 * p90). Sleeps are cut into naps of at most ATIO_PACE_NAP_NS, so that a
 * stop is seen within one.
 */
#define ATIO_PACE_SPIN_NS 20000u
#define ATIO_PACE_NAP_NS 100000000u

/* One thread's schedule. */
struct atio_pace {
	uint64_t start;            /* clock ticks: intended start of I/O 0 */
	uint64_t start_ns;         /* the same instant, CLOCK_MONOTONIC ns */
	unsigned __int128 step;    /* the interval in ticks, times 2^32 */
	/* --arrivals exponential */
	bool exponential;
	uint64_t rng;              /* splitmix64 state of the gaps */
	uint64_t at;               /* the I/O whose instant is in @offset */
	double offset;             /* its instant, ticks after @start */
	double mean;               /* the mean gap, ticks */
};

/*
 * Nanoseconds between two scheduled I/Os of one thread, for a cap of
 * @rate (> 0) in the report's unit shared by @threads threads. @bytes is 0
 * when the unit counts operations, else the block size (MB/s); @per_unit
 * is how many scheduled I/Os one counted operation stands for (q writes
 * per sync for sync/s, else 1). The caller judges the result against
 * ATIO_PACE_MIN_NS and ATIO_PACE_MAX_NS.
 */
double atio_pace_interval_ns(double rate, uint64_t bytes, unsigned per_unit,
			     unsigned threads);

/*
 * How many I/Os one thread's schedule of @interval_ns makes due in the span
 * [@from_ns, @to_ns) from its start: I/O k is due at k * @interval_ns, so
 * a span shorter than an interval still holds one when it spans a due
 * instant. 0 for an empty span.
 */
uint64_t atio_pace_count(double interval_ns, uint64_t from_ns, uint64_t to_ns);

/*
 * Set @p to start at tick @start with an interval of @interval_ticks
 * (> 0, at most 2^63 ticks).
 */
void atio_pace_init(struct atio_pace *p, uint64_t start, double interval_ticks);

/*
 * Draw @p's gaps at random from now on (--arrivals exponential): I/O 0 at
 * the start, each next one an exponential gap of the interval's mean
 * after the one before, the gaps drawn from @seed.
 */
void atio_pace_exponential(struct atio_pace *p, double interval_ticks, uint64_t seed);

/* The exponential schedule's instant of I/O @i (>= the last asked). */
uint64_t atio_pace_due_exponential(struct atio_pace *p, uint64_t i);

/* The intended start of I/O @i, in clock ticks; @i never goes back. */
static inline uint64_t atio_pace_due(struct atio_pace *p, uint64_t i)
{
	if (__builtin_expect(p->exponential, 0))
		return atio_pace_due_exponential(p, i);
	return p->start + (uint64_t)(((unsigned __int128)i * p->step) >> 32);
}

/*
 * Start @p at @start_ns (CLOCK_MONOTONIC, now or just past) with an
 * interval of @interval_ns, on the calling thread: the clock read after a
 * wake-up is taken back to @start_ns, so that the schedule starts where it
 * should rather than where the wake-up landed, and the thread's timer slack
 * goes down to 1 ns, so that its sleeps end when asked rather than up to
 * 50 us later.
 */
void atio_pace_start(struct atio_pace *p, uint64_t start_ns, double interval_ns);

/* atio_pace_start(), then atio_pace_exponential() with @seed when @exponential. */
void atio_pace_start_arrivals(struct atio_pace *p, uint64_t start_ns, double interval_ns,
			      bool exponential, uint64_t seed);

/*
 * Wait until tick @due: naps while it is more than ATIO_PACE_SPIN_NS away,
 * then a spin. Returns the clock (ticks, >= @due) at the end, or 0 when
 * *@stop was set meanwhile (read atomically).
 */
uint64_t atio_pace_wait(uint64_t due, const int *stop);

/*
 * Wait in naps until @end_ns (CLOCK_MONOTONIC). Returns true at the end,
 * false as soon as *@stop is seen set.
 */
bool atio_pace_idle(uint64_t end_ns, const int *stop);

#endif
