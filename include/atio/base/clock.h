/* SPDX-License-Identifier: MIT */
#ifndef ATIO_CLOCK_H
#define ATIO_CLOCK_H

/*
 * The clock the load threads read around every I/O.
 *
 * A latency needs two clock reads per I/O, which at a million I/Os a second
 * per thread is a cost worth cutting. clock_gettime(CLOCK_MONOTONIC) goes
 * through the vDSO and costs 20 to 50 ns on a virtual machine; reading the
 * time-stamp counter costs a fraction of that. When the kernel itself keeps
 * time with the TSC (its clocksource is "tsc", which it only chooses when
 * the counter is invariant and synchronised across CPUs), atio reads the
 * counter and converts tick differences to nanoseconds with a multiply and
 * a shift calibrated against CLOCK_MONOTONIC at start-up. Anywhere else
 * (another clocksource, another architecture) a tick is a nanosecond of
 * CLOCK_MONOTONIC. Deadlines are converted to ticks once per phase, so the
 * loop compares raw ticks.
 */

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define ATIO_HAVE_TSC 1
#else
#define ATIO_HAVE_TSC 0
#endif

struct atio_clock {
	bool tsc;                  /* ticks are TSC cycles */
	uint64_t mult;             /* ns = ticks * mult >> 32 */
	double ticks_per_ns;
};

extern struct atio_clock atio_clock;

/*
 * Choose and calibrate the clock; call once before any thread reads it.
 * Spends about 10 ms when the TSC is used. Returns whether it is.
 */
bool atio_clock_init(void);

/* CLOCK_MONOTONIC in nanoseconds: the time of events between threads and
 * processes (start, end, signals), not the per-I/O clock. */
uint64_t atio_now_ns(void);

/* Now, in ticks. */
static inline uint64_t atio_ticks(void)
{
	struct timespec ts;

#if ATIO_HAVE_TSC
	if (atio_clock.tsc)
		return __rdtsc();
#endif
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A difference of ticks in nanoseconds. */
static inline uint64_t atio_ticks_to_ns(uint64_t ticks)
{
	if (!atio_clock.tsc)
		return ticks;
	return (uint64_t)(((unsigned __int128)ticks * atio_clock.mult) >> 32);
}

/* A duration in nanoseconds as ticks. */
static inline uint64_t atio_ns_to_ticks(uint64_t ns)
{
	if (!atio_clock.tsc)
		return ns;
	return (uint64_t)((double)ns * atio_clock.ticks_per_ns);
}

#endif
