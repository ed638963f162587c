/* SPDX-License-Identifier: MIT */
/* Unit tests of the load threads' clock: ticks, and their conversion to ns. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "atio/base/clock.h"

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * One interval measured both ways must agree: the calibration is good to
 * parts per million, so 0.2% leaves room for a clock read being delayed by
 * the scheduler at either end, and still catches a wrong multiplier.
 */
static void test_ticks_agree_with_monotonic(void **state)
{
	for (int i = 0; i < 5; i++) {
		uint64_t n0 = mono_ns(), t0 = atio_ticks(), n1, t1;
		struct timespec d = { 0, 50000000 };
		double a, b;

		nanosleep(&d, NULL);
		t1 = atio_ticks();
		n1 = mono_ns();
		a = (double)atio_ticks_to_ns(t1 - t0);
		b = (double)(n1 - n0);
		if (a > b * 0.998 && a <= b * 1.0001)
			return;
	}
	fail_msg("ticks and CLOCK_MONOTONIC disagree on a 50 ms sleep, five times over");
}

/* ns -> ticks -> ns comes back within a part per million. */
static void test_round_trip(void **state)
{
	static const uint64_t ns[] = { 1000, 1000000, 60000000000ULL, 3600000000000ULL };

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		uint64_t back = atio_ticks_to_ns(atio_ns_to_ticks(ns[i]));
		uint64_t diff = back > ns[i] ? back - ns[i] : ns[i] - back;

		assert_true(diff <= ns[i] / 1000000 + 1);
	}
}

/* Ticks never run backwards on one thread. */
static void test_monotonic(void **state)
{
	uint64_t prev = atio_ticks();

	for (int i = 0; i < 1000000; i++) {
		uint64_t now = atio_ticks();

		assert_true(now >= prev);
		prev = now;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks_agree_with_monotonic),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_monotonic),
	};

	print_message("clock: %s\n", atio_clock_init() ? "TSC" : "CLOCK_MONOTONIC");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
