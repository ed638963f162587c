/* SPDX-License-Identifier: MIT */
/*
 * A cluster's --steady rounds (atio/merge/merge_steady.h): summed round by
 * round and judged by SNIA's criteria; nodes that alone would be judged
 * otherwise than their sum; documents that do not add up are not summed,
 * and fewer rounds in one are said.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "atio/merge/merge_steady.h"

/* A document of @n rounds of @round_sec with figures @v (judge @kind). */
static struct atio_merge_doc *doc(const char *file, enum atio_steady_kind kind, double round_sec,
				  const double *v, unsigned n)
{
	struct atio_merge_doc *d = calloc(1, sizeof(*d));
	struct atio_doc_steady *s = calloc(1, sizeof(*s));

	assert_non_null(d);
	assert_non_null(s);
	d->file = file;
	d->steady = s;
	s->kind = kind;
	s->round_sec = round_sec;
	s->n = s->max_rounds = n;
	s->all = true;
	s->value = calloc(n, sizeof(double));
	s->round = calloc(n, sizeof(*s->round));
	assert_non_null(s->value);
	assert_non_null(s->round);
	for (unsigned k = 0; k < n; k++) {
		/* For lat: v[k] usec over 100 completions, or none when v[k] is NaN. */
		s->round[k] = (struct atio_steady_round){
			.lat_count = isnan(v[k]) ? 0 : 100,
			.lat_sum = isnan(v[k]) ? 0 : (uint64_t)(v[k] * 1000.0 * 100.0),
			.dur_ns = (uint64_t)(round_sec * 1e9),
		};
		s->value[k] = v[k];
	}
	s->steady_at = (unsigned)atio_steady_first(s->value, n, &(struct atio_steady_verdict){ 0 });
	return d;
}

static void doc_free(struct atio_merge_doc *d)
{
	atio_doc_steady_free(d->steady);
	free(d);
}

/* Fold @n documents and judge them. */
static void fold(struct atio_merge_steady *s, struct atio_merge_doc **d, unsigned n)
{
	atio_merge_steady_init(s);
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(atio_merge_steady_add(s, d[i]), 0);
	assert_int_equal(atio_merge_steady_judge(s), 0);
}

/* Two nodes swinging 40% in opposite phase: neither steady alone, their sum flat. */
static void test_opposite_swings(void **state)
{
	const double a[] = { 1000, 1500, 1000, 1500, 1000, 1500, 1000, 1500 };
	const double b[] = { 1500, 1000, 1500, 1000, 1500, 1000, 1500, 1000 };
	struct atio_merge_doc *d[2] = { doc("a", ATIO_STEADY_IOPS, 1, a, 8),
					doc("b", ATIO_STEADY_IOPS, 1, b, 8) };
	struct atio_merge_steady s;

	(void)state;
	assert_int_equal(d[0]->steady->steady_at, 0);
	assert_int_equal(d[1]->steady->steady_at, 0);
	fold(&s, d, 2);
	assert_true(s.judged);
	assert_int_equal(s.n, 8);
	assert_float_equal(s.value[3], 2500, 0);
	assert_int_equal(s.steady_at, 5);
	assert_int_equal(s.v.first, 0);
	assert_float_equal(s.v.avg, 2500, 1e-9);
	assert_float_equal(s.v.range_pct, 0, 1e-9);
	assert_int_equal(s.doc_at[0], 0);
	atio_merge_steady_free(&s);
	doc_free(d[0]);
	doc_free(d[1]);
}

/* One node flat (steady alone at round 5), the other still falling: the sum is not yet. */
static void test_one_settles_later(void **state)
{
	const double a[] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
	const double b[] = { 3000, 2600, 2200, 1800, 1400, 1000, 1000, 1000, 1000 };
	struct atio_merge_doc *d[2] = { doc("a", ATIO_STEADY_IOPS, 1, a, 9),
					doc("b", ATIO_STEADY_IOPS, 1, b, 9) };
	struct atio_merge_steady s;

	(void)state;
	assert_int_equal(d[0]->steady->steady_at, 5);
	fold(&s, d, 2);
	assert_int_equal(s.doc_at[0], 5);
	/* Rounds 5..9 summed: 2400, 2000 x 4: range 19.2%, excursion 15.4%: not yet. */
	assert_int_equal(s.steady_at, 0);
	assert_false(s.v.steady);
	assert_true(s.v.judged);
	atio_merge_steady_free(&s);
	doc_free(d[0]);
	doc_free(d[1]);
}

/* The cluster's mean latency: all completions' mean, not a sum of means. */
static void test_latency(void **state)
{
	const double a[] = { 100, 100, 100, 100, 100 };
	const double b[] = { 300, 300, NAN, 300, 300 };
	struct atio_merge_doc *d[2] = { doc("a", ATIO_STEADY_LAT, 1, a, 5),
					doc("b", ATIO_STEADY_LAT, 1, b, 5) };
	struct atio_merge_steady s;

	(void)state;
	fold(&s, d, 2);
	assert_float_equal(s.value[0], 200, 1e-9);
	/* A round of b without completions: the cluster's is a's alone. */
	assert_float_equal(s.value[2], 100, 1e-9);
	assert_int_equal(s.steady_at, 0);
	atio_merge_steady_free(&s);
	/* Without the rounds' counts (an older document) latency is not summed. */
	free(d[1]->steady->round);
	d[1]->steady->round = NULL;
	fold(&s, d, 2);
	assert_false(s.judged);
	assert_non_null(strstr(s.why, "b: its latency rounds have no counts"));
	atio_merge_steady_free(&s);
	doc_free(d[0]);
	doc_free(d[1]);
}

/* Documents that do not add up round by round: not summed, and why. */
static void test_not_summed(void **state)
{
	const double v[] = { 1000, 1000, 1000, 1000, 1000, 1000 };
	struct atio_merge_doc *d[3] = { doc("a", ATIO_STEADY_IOPS, 1, v, 6),
					doc("b", ATIO_STEADY_IOPS, 2, v, 6),
					doc("c", ATIO_STEADY_MBS, 1, v, 6) };
	struct atio_merge_doc none = { .file = "plain" };
	struct atio_merge_doc *mixed[2] = { d[0], &none };
	struct atio_merge_steady s;
	char buf[2048];

	(void)state;
	fold(&s, d, 2);
	assert_false(s.judged);
	assert_non_null(strstr(s.why, "b: rounds of 2 sec, the documents before it 1 sec"));
	atio_merge_steady_free(&s);
	fold(&s, (struct atio_merge_doc *[]){ d[0], d[2] }, 2);
	assert_false(s.judged);
	assert_non_null(strstr(s.why, "c: its rounds judge mbs"));
	atio_merge_steady_free(&s);
	fold(&s, mixed, 2);
	assert_false(s.judged);
	assert_non_null(strstr(s.why, "plain: no --steady rounds"));
	atio_merge_steady_note(&s, buf, sizeof(buf));
	assert_string_equal(buf, "");
	atio_merge_steady_free(&s);
	/* No document with rounds: nothing to say. */
	fold(&s, (struct atio_merge_doc *[]){ &none }, 1);
	assert_false(atio_merge_steady_any(&s));
	atio_merge_steady_free(&s);
	for (unsigned i = 0; i < 3; i++)
		doc_free(d[i]);
}

/* A document of fewer rounds: judged on the rounds every one ran, and said. */
static void test_fewer_rounds(void **state)
{
	const double v[] = { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000 };
	struct atio_merge_doc *d[2] = { doc("long", ATIO_STEADY_IOPS, 1, v, 8),
					doc("short", ATIO_STEADY_IOPS, 1, v, 6) };
	struct atio_merge_steady s;
	char buf[2048];

	(void)state;
	d[1]->steady->all = false;
	fold(&s, d, 2);
	assert_true(s.judged);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.steady_at, 5);
	atio_merge_steady_note(&s, buf, sizeof(buf));
	assert_non_null(strstr(buf, "short ran 6 rounds, another document 8"));
	assert_non_null(strstr(buf, "short ended its rounds at its own verdict"));
	atio_merge_steady_free(&s);
	doc_free(d[0]);
	doc_free(d[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opposite_swings),
		cmocka_unit_test(test_one_settles_later),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_not_summed),
		cmocka_unit_test(test_fewer_rounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
