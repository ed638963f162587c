/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "atio/base/clock.h"

struct atio_clock atio_clock = { .tsc = false, .mult = 1ULL << 32, .ticks_per_ns = 1.0 };

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* See clock.h. */
uint64_t atio_now_ns(void)
{
	return mono_ns();
}

/* Whether the kernel keeps time with the TSC: then the counter is reliable. */
static bool kernel_uses_tsc(void)
{
	char name[32] = "";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (!f)
		return false;
	if (!fgets(name, sizeof(name), f))
		name[0] = '\0';
	fclose(f);
	return strcmp(name, "tsc\n") == 0;
}

/*
 * Count TSC ticks over about 10 ms of CLOCK_MONOTONIC, busy-waiting so that
 * no sleep's wake-up latency enters the interval. A clock read's jitter of
 * tens of nanoseconds makes the rate wrong by a few parts per million.
 */
bool atio_clock_init(void)
{
#if ATIO_HAVE_TSC
	uint64_t t0, t1, c0, c1;

	if (!kernel_uses_tsc())
		return false;
	t0 = mono_ns();
	c0 = __rdtsc();
	do
		t1 = mono_ns();
	while (t1 - t0 < 10000000u);
	c1 = __rdtsc();
	if (c1 <= c0)
		return false;
	atio_clock.ticks_per_ns = (double)(c1 - c0) / (double)(t1 - t0);
	atio_clock.mult = (uint64_t)((double)(1ULL << 32) / atio_clock.ticks_per_ns);
	atio_clock.tsc = true;
#endif
	return atio_clock.tsc;
}
