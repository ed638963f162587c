/* SPDX-License-Identifier: MIT */
/* The schedule of --rate: see include/atio/pace.h. */
#include "atio/pace.h"

#define NS_PER_SEC 1e9
#define MIB 1048576.0

/*
 * Per thread the cap is @rate / @threads in the unit; in I/Os per second
 * that is times @per_unit for an operation count, or times 2^20 / @bytes
 * for MB/s. The interval is its inverse, in nanoseconds.
 */
double atio_pace_interval_ns(double rate, uint64_t bytes, unsigned per_unit,
			     unsigned threads)
{
	double per_thread = rate / (double)threads;
	double ios = bytes ? per_thread * MIB / (double)bytes : per_thread * (double)per_unit;

	return NS_PER_SEC / ios;
}

/*
 * The step is the interval in 32.32 fixed point, rounded to the nearest
 * 2^-32 tick, held in 128 bits so that an hour of a 5 GHz counter still
 * fits with its fraction.
 */
void atio_pace_init(struct atio_pace *p, uint64_t start, double interval_ticks)
{
	uint64_t whole = (uint64_t)interval_ticks;
	double frac = interval_ticks - (double)whole;

	p->start = start;
	p->step = ((unsigned __int128)whole << 32) + (uint64_t)(frac * 4294967296.0 + 0.5);
}
