/* SPDX-License-Identifier: MIT */
/* The schedule of --rate, and waiting for it: see include/atio/run/pace.h. */
#include <math.h>
#include <sys/prctl.h>
#include <time.h>

#include "atio/base/clock.h"
#include "atio/base/prng.h"
#include "atio/run/pace.h"

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

uint64_t atio_pace_count(double interval_ns, uint64_t from_ns, uint64_t to_ns)
{
	if (!(interval_ns > 0.0) || to_ns <= from_ns)
		return 0;
	return (uint64_t)ceil((double)to_ns / interval_ns) -
	       (uint64_t)ceil((double)from_ns / interval_ns);
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
	p->exponential = false;
	p->step = ((unsigned __int128)whole << 32) + (uint64_t)(frac * 4294967296.0 + 0.5);
}

void atio_pace_start(struct atio_pace *p, uint64_t start_ns, double interval_ns)
{
	struct timespec ts;
	uint64_t ticks = atio_ticks(), now_ns;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	if (now_ns > start_ns)
		ticks -= atio_ns_to_ticks(now_ns - start_ns);
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	atio_pace_init(p, ticks, interval_ns * (atio_clock.tsc ? atio_clock.ticks_per_ns : 1.0));
	p->start_ns = start_ns;
}

void atio_pace_exponential(struct atio_pace *p, double interval_ticks, uint64_t seed)
{
	p->exponential = true;
	p->rng = seed;
	p->at = 0;
	p->offset = 0.0;
	p->mean = interval_ticks;
}

/*
 * A gap of mean m is -m ln(U) for U uniform in (0, 1]: U from the top 53
 * bits of a draw, plus one so that it is never 0.
 */
uint64_t atio_pace_due_exponential(struct atio_pace *p, uint64_t i)
{
	while (p->at < i) {
		double u = (double)((atio_splitmix64(&p->rng) >> 11) + 1) * 0x1p-53;

		p->offset -= p->mean * log(u);
		p->at++;
	}
	return p->start + (uint64_t)p->offset;
}

void atio_pace_start_arrivals(struct atio_pace *p, uint64_t start_ns, double interval_ns,
			      bool exponential, uint64_t seed)
{
	atio_pace_start(p, start_ns, interval_ns);
	if (exponential)
		atio_pace_exponential(p, interval_ns * (atio_clock.tsc ? atio_clock.ticks_per_ns
							: 1.0), seed);
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Sleep @ns (at most a nap) on CLOCK_MONOTONIC; a signal only cuts it short. */
static void nap(uint64_t ns)
{
	struct timespec ts = { .tv_sec = 0,
			       .tv_nsec = (long)(ns < ATIO_PACE_NAP_NS ? ns : ATIO_PACE_NAP_NS) };

	clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

uint64_t atio_pace_wait(uint64_t due, const int *stop)
{
	for (;;) {
		uint64_t now = atio_ticks(), left;

		if (now >= due)
			return now;
		left = atio_ticks_to_ns(due - now);
		if (left <= ATIO_PACE_SPIN_NS) {
			while ((now = atio_ticks()) < due)
				cpu_relax();
			return now;
		}
		if (__atomic_load_n(stop, __ATOMIC_RELAXED))
			return 0;
		nap(left - ATIO_PACE_SPIN_NS);
	}
}

bool atio_pace_idle(uint64_t end_ns, const int *stop)
{
	for (;;) {
		struct timespec ts;
		uint64_t now;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		if (now >= end_ns)
			return true;
		if (__atomic_load_n(stop, __ATOMIC_RELAXED))
			return false;
		nap(end_ns - now);
	}
}
