/* SPDX-License-Identifier: MIT */
/*
 * The interval recorder driven with made-up completion timestamps (the
 * clock left at nanoseconds, as it is without the TSC): each completion
 * lands in the interval of its timestamp, intervals missed by a stalled
 * thread are closed empty, the run's histogram is the sum of the
 * intervals', a gap is kept from the last completion to the next, and
 * the stalls of two threads are the spans in which neither completed,
 * however many more pieces the second thread cuts the first's gaps into.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/base/clock.h"
#include "atio/stats/interval.h"

#define MS 1000000ULL
#define SEC 1000000000ULL

/* One thread: its counters and its recorder, started at 0 ns. */
struct thread {
	struct atio_stats st;
	struct atio_ival_rec r;
};

static void thread_init(struct thread *t)
{
	atio_stats_init(&t->st);
	assert_int_equal(atio_ival_rec_init(&t->r, &t->st, NULL, SEC, 8), 0);
	atio_ival_rec_start(&t->r, 0);
	/* The start is the instant 0 of both clocks: ticks are ns here. */
	t->r.base = 0;
	t->r.base_ns = 0;
	t->r.last = 0;
	t->r.next = SEC;
}

/* A read of 4 KiB that completed at @at ns and took @lat ns. */
static void complete(struct thread *t, uint64_t at, uint64_t lat)
{
	atio_ival_seen(&t->r, at, 0);
	atio_hist_record(t->r.cur[0], lat);
	t->st.ops++;
	t->st.bytes += 4096;
}

static uint64_t ops_at(const struct atio_ival_series *s, size_t i)
{
	return atio_ival_get(s, i)->ops[0];
}

static void test_recorder(void **state)
{
	struct thread *t = calloc(1, sizeof(*t));
	struct atio_hist *h = malloc(sizeof(*h));
	const struct atio_ival_gap *g;

	(void)state;
	assert_false(atio_clock.tsc);
	assert_non_null(t);
	assert_non_null(h);
	thread_init(t);
	/* 10 completions in [0, 1), 5 in [1, 2), none until 4.5 s, 3 more. */
	for (unsigned i = 0; i < 10; i++)
		complete(t, i * 90 * MS + 1, 1000 + i);
	for (unsigned i = 0; i < 5; i++)
		complete(t, SEC + i * 100 * MS, 2000);
	assert_int_equal(atio_ival_rec_closed(&t->r), 1);
	complete(t, 4500 * MS, 3500 * MS);
	complete(t, 4600 * MS, 100);
	complete(t, 5000 * MS, 100);   /* exactly on a boundary: the next interval */
	atio_ival_rec_finish(&t->r, 5250 * MS, true);

	assert_int_equal(atio_ival_count(&t->r.s), 6);
	assert_int_equal(atio_ival_rec_closed(&t->r), 6);
	assert_int_equal(ops_at(&t->r.s, 0), 10);
	assert_int_equal(ops_at(&t->r.s, 1), 5);
	assert_int_equal(ops_at(&t->r.s, 2), 0);
	assert_int_equal(ops_at(&t->r.s, 3), 0);
	assert_int_equal(ops_at(&t->r.s, 4), 2);
	assert_int_equal(ops_at(&t->r.s, 5), 1);
	assert_int_equal(atio_ival_get(&t->r.s, 4)->dur_ns, SEC);
	assert_int_equal(atio_ival_get(&t->r.s, 5)->dur_ns, 250 * MS);
	assert_int_equal(t->r.s.end_ns, 5250 * MS);
	/* The run's histogram is what the intervals hold, value for value. */
	assert_int_equal(t->st.lat.count, 18);
	atio_hist_init(h);
	for (size_t i = 0; i < atio_ival_count(&t->r.s); i++)
		atio_ival_hist_add(h, &t->r.s, atio_ival_get(&t->r.s, i), ATIO_DIRS);
	assert_int_equal(h->count, t->st.lat.count);
	assert_int_equal(h->sum, t->st.lat.sum);
	assert_int_equal(h->min, 100);
	assert_int_equal(h->max, 3500 * MS);
	assert_memory_equal(h->bucket, t->st.lat.bucket, sizeof(h->bucket));
	/* The gap: from the last completion (1.4 s) to the next (4.5 s). */
	assert_int_equal(t->r.s.gap.n, 1);
	g = t->r.s.gap.p;
	assert_int_equal(g[0].from, 1400 * MS);
	assert_int_equal(g[0].to, 4500 * MS);
	atio_ival_rec_free(&t->r);
	free(t);
	free(h);
}

/* Completions of @t every @step ms from @from ms to @to ms, inclusive. */
static void complete_every(struct thread *t, uint64_t from, uint64_t to, uint64_t step)
{
	for (uint64_t ms = from; ms <= to; ms += step)
		complete(t, ms * MS, 10);
}

/* Merge two threads' series into @out (ended at @end_ns); its stalls, @want of them. */
static const struct atio_ival_gap *merged_stalls(struct atio_ival_series *out,
						 const struct atio_ival_series *const *in,
						 uint64_t end_ns, size_t want)
{
	atio_ival_series_init(out, SEC, false);
	assert_int_equal(atio_ival_merge(out, in, 2, end_ns, false), 0);
	assert_int_equal(out->gap.n, want);
	return out->gap.p;
}

static void test_stalls(void **state)
{
	static const uint64_t want[] = { 18, 11, 6, 0, 10, 20 };
	struct thread *t = calloc(2, sizeof(*t));
	const struct atio_ival_series *in[2];
	struct atio_ival_series out;
	struct atio_ival_summary sum;
	const struct atio_ival_gap *g;

	(void)state;
	assert_non_null(t);
	thread_init(&t[0]);
	thread_init(&t[1]);
	/* Thread 0 quiet over [1.0, 4.0] s, thread 1 over [2.5, 5.0] s. */
	complete_every(&t[0], 100, 1000, 100);
	complete_every(&t[0], 4000, 5900, 100);
	complete_every(&t[1], 100, 2500, 100);
	complete_every(&t[1], 5000, 5900, 100);
	atio_ival_rec_finish(&t[0].r, 6 * SEC, true);
	atio_ival_rec_finish(&t[1].r, 6 * SEC, true);
	in[0] = &t[0].r.s;
	in[1] = &t[1].r.s;
	atio_ival_series_init(&out, SEC, false);
	assert_int_equal(atio_ival_merge(&out, in, 2, 6 * SEC, false), 0);
	atio_ival_rates(&out, ATIO_IVAL_IOPS);
	assert_int_equal(atio_ival_count(&out), 6);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(atio_ival_get(&out, i)->ops[0], want[i]);
		assert_true(atio_ival_get(&out, i)->value == (double)want[i]);
	}
	/* Neither completed over [2.5, 4.0]: one stall of 1.5 s. */
	assert_int_equal(out.gap.n, 1);
	g = out.gap.p;
	assert_int_equal(g[0].from, 2500 * MS);
	assert_int_equal(g[0].to, 4000 * MS);
	atio_ival_summarise(&out, &sum);
	assert_int_equal(sum.stalls, 1);
	assert_int_equal(sum.longest_ns, 1500 * MS);
	assert_int_equal(sum.longest_at_ns, 2500 * MS);
	/* [3, 4) saw nothing inside the stall; [2, 3) had completions. */
	assert_true(atio_ival_stalled(&out, 3));
	assert_false(atio_ival_stalled(&out, 2));
	assert_int_equal(sum.full, 6);
	assert_true(sum.rate_min == 0.0);
	assert_true(sum.rate_median == 10.5);
	assert_true(sum.rate_max == 20.0);
	/* A thread stalled up to its end: the stall runs to the run's end. */
	atio_ival_series_free(&out);
	atio_ival_rec_free(&t[0].r);
	atio_ival_rec_free(&t[1].r);
	thread_init(&t[0]);
	thread_init(&t[1]);
	complete_every(&t[0], 100, 1000, 100);
	complete_every(&t[1], 100, 1500, 100);
	atio_ival_rec_finish(&t[0].r, 3 * SEC, true);
	atio_ival_rec_finish(&t[1].r, 3500 * MS, true);
	g = merged_stalls(&out, in, 3500 * MS, 1);
	assert_int_equal(g[0].from, 1500 * MS);
	assert_int_equal(g[0].to, 3500 * MS);
	atio_ival_series_free(&out);
	atio_ival_rec_free(&t[0].r);
	atio_ival_rec_free(&t[1].r);
	free(t);
}

/*
 * Thread 0 quiet over [0.5, 60) s, thread 1 over 50 spans of 1 s, [1, 2),
 * [3, 4), ... [99, 100): the stalls are the 30 spans of thread 1 inside
 * thread 0's gap, many more than thread 0 has gaps (the merge once wrote
 * them over the end of an array sized by thread 0's).
 */
static void test_stalls_many(void **state)
{
	struct atio_ival_series in[2], out;
	const struct atio_ival_series *pin[2] = { &in[0], &in[1] };
	const struct atio_ival_gap *g;

	(void)state;
	for (unsigned p = 0; p < 2; p++) {
		atio_ival_series_init(&in[p], SEC, false);
		in[p].end_ns = 100 * SEC;
	}
	assert_int_equal(atio_ival_add_gap(&in[0], 500 * MS, 60 * SEC, true), 0);
	for (uint64_t i = 0; i < 50; i++)
		assert_int_equal(atio_ival_add_gap(&in[1], (1 + 2 * i) * SEC, (2 + 2 * i) * SEC,
						   true), 0);
	g = merged_stalls(&out, pin, 100 * SEC, 30);
	for (uint64_t i = 0; i < 30; i++) {
		assert_int_equal(g[i].from, (1 + 2 * i) * SEC);
		assert_int_equal(g[i].to, (2 + 2 * i) * SEC);
	}
	/* The other way round: the same stalls. */
	pin[0] = &in[1];
	pin[1] = &in[0];
	atio_ival_series_free(&out);
	g = merged_stalls(&out, pin, 100 * SEC, 30);
	assert_int_equal(g[29].from, 59 * SEC);
	assert_int_equal(g[29].to, 60 * SEC);
	atio_ival_series_free(&out);
	atio_ival_series_free(&in[0]);
	atio_ival_series_free(&in[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorder),
		cmocka_unit_test(test_stalls),
		cmocka_unit_test(test_stalls_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
