/* SPDX-License-Identifier: MIT */
/*
 * --steady's rounds as the main thread judges them, and the warning when
 * they never became steady (steady.h). --precondition's writes are
 * precondition.c's.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "steady.h"
#include "atio/base/units.h"
#include "atio/run/rounds.h"
#include "atio/stats/interval.h"

/* Round @k summed over the @n threads of @w, each of which has closed it. */
static void round_sum(const struct atio_worker *w, unsigned n, size_t k,
		      struct atio_steady_round *sum)
{
	memset(sum, 0, sizeof(*sum));
	for (unsigned i = 0; i < n; i++) {
		const struct atio_ival *iv = atio_ival_get(&w[i].iv.s, k);

		for (unsigned d = 0; d < ATIO_DIRS; d++) {
			sum->ops += iv->ops[d];
			sum->bytes += iv->bytes[d];
			sum->lat_sum += iv->h[d].sum;
			sum->lat_count += iv->h[d].count;
		}
		if (iv->dur_ns > sum->dur_ns)
			sum->dur_ns = iv->dur_ns;
	}
}

void steady_tick(struct run_result *out, const char *name)
{
	struct atio_steady *s = &out->steady;
	const struct atio_opts *o = out->sh.opts;
	struct atio_steady_round sum;
	uint64_t slice;

	while (!s->over) {
		size_t k = s->n;

		for (unsigned i = 0; i < o->threads; i++)
			if (atio_ival_rec_closed(&out->w[i].iv) <= k)
				return;
		round_sum(out->w, o->threads, k, &sum);
		atio_steady_add_round(s, &sum);
		if (o->verbose >= 1) {
			char v[32] = "-";

			/* A round of no I/O has no latency: unknown, as in the text and JSON. */
			if (!isnan(s->value[k]))
				snprintf(v, sizeof(v), "%.2f", s->value[k]);
			say("%s%ssteady: round %zu: %s %s%s%s", name, name[0] ? ": " : "", k + 1, v,
			    atio_steady_unit(s->kind), isnan(s->value[k]) ? " (no I/O completed)" : "",
			    s->steady_at == k + 1 ? ": steady" : s->over ? ": the last round" : "");
		}
	}
	/* Over: the warm-up ends at the next slice no thread has passed. */
	if (!out->measure_ns) {
		slice = atio_rounds_slice_ns(o->round_ns);
		s->warm_ns = atio_rounds_end(&out->sh.rounds_word) * slice;
		out->measure_ns = out->sh.start_ns + s->warm_ns;
	}
}

bool steady_measuring(const struct run_result *out)
{
	return __atomic_load_n(&out->sh.measuring, __ATOMIC_ACQUIRE) == out->sh.opts->threads;
}

void steady_warn(const struct run_result *out)
{
	const struct atio_steady *s = &out->steady;
	char round[32];

	if (!s->over || s->steady_at)
		return;
	atio_format_time(round, sizeof(round), s->round_ns);
	if (!s->v.judged && s->v.n == ATIO_STEADY_WINDOW && isnan(s->v.avg)) {
		say("warning: not steady after %u rounds of %s sec: a round of the last %zu "
		    "completed no I/O (its latency unknown); the measured time followed anyway",
		    s->n, round, s->v.n);
		return;
	}
	say("warning: not steady after %u rounds of %s sec: over the last %zu the range was "
	    "%.2f%% and the excursion %.2f%% of the average (at most %.0f%% and %.0f%%); the "
	    "measured time followed anyway", s->n, round, s->v.n, s->v.range_pct,
	    s->v.excursion_pct, ATIO_STEADY_RANGE_PCT, ATIO_STEADY_EXCURSION_PCT);
}
