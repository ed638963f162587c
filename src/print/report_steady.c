/* SPDX-License-Identifier: MIT */
/*
 * --steady and --precondition in text and JSON (atio/print/report_steady.h),
 * from the rounds the run kept (atio/stats/steady.h). The texts avoid the
 * word of the result line, also inside longer words.
 */
#include <inttypes.h>
#include <math.h>

#include "atio/base/json.h"
#include "atio/base/units.h"
#include "atio/print/report_steady.h"
#include "atio/stats/steady.h"

void atio_report_steady_header(FILE *f, const struct atio_opts *o)
{
	char round[32];

	if (!o->steady)
		return;
	atio_format_time(round, sizeof(round), o->round_ns);
	fprintf(f, "Steady: %s in rounds of %s sec, at most %u; steady when over the last %u "
		"rounds the range (max - min) is within %.0f%% and the least-squares line's "
		"excursion within %.0f%% of their average (SNIA PTS); then the measured time\n",
		atio_steady_name(o->steady), round, o->rounds, ATIO_STEADY_WINDOW,
		ATIO_STEADY_RANGE_PCT, ATIO_STEADY_EXCURSION_PCT);
	if (o->precondition)
		fputs("Precondition: sequential O_DIRECT writes of twice the dataset in 128K "
		      "blocks, whatever the cache mode, before the rounds (SNIA's workload-independent preconditioning)\n", f);
}

void atio_report_steady_text(FILE *f, const struct atio_result *r)
{
	const struct atio_steady *s = r->steady;
	const char *unit;
	char round[32];

	if (!s)
		return;
	unit = atio_steady_unit(s->kind);
	atio_format_time(round, sizeof(round), s->round_ns);
	fprintf(f, "steady: %s in %u round(s) of %s sec: ", atio_steady_name(s->kind), s->n,
		round);
	if (s->steady_at && s->all)
		fprintf(f, "steady at round %u (window: rounds %zu to %u); every round run "
			"(--all-rounds)\n", s->steady_at, s->v.first + 1, s->steady_at);
	else if (s->steady_at)
		fprintf(f, "steady at round %u (window: rounds %zu to %u)\n", s->steady_at,
			s->v.first + 1, s->steady_at);
	else if (s->over)
		fprintf(f, "not steady after %u rounds; the measured time followed anyway\n",
			s->n);
	else
		fputs("cut short before a verdict\n", f);
	fprintf(f, "steady rounds (%s):", unit);
	for (unsigned i = 0; i < s->n; i++)
		if (isnan(s->value[i]))
			fprintf(f, "%s %u: -", i ? "," : "", i + 1);
		else
			fprintf(f, "%s %u: %.2f", i ? "," : "", i + 1, s->value[i]);
	fputc('\n', f);
	if (s->v.judged)
		fprintf(f, "steady window: average %.2f %s, range %.2f (%.2f%% of the average, "
			"at most %.0f%%), excursion %.2f (%.2f%%, at most %.0f%%), slope %.4g %s "
			"a round\n", s->v.avg, unit, s->v.max - s->v.min, s->v.range_pct,
			ATIO_STEADY_RANGE_PCT, fabs(s->v.slope) * (double)(s->v.n - 1),
			s->v.excursion_pct, ATIO_STEADY_EXCURSION_PCT, s->v.slope, unit);
	if (s->preconditioned)
		fprintf(f, "precondition: %.2f MiB written in order in 128K blocks in %.3f sec "
			"before the rounds\n", atio_mib(s->pre_bytes), (double)s->pre_ns / 1e9);
}

void atio_report_steady_settings_json(struct atio_json *j, const struct atio_opts *o)
{
	if (!o->steady) {
		atio_json_null(j, "steady");
		return;
	}
	atio_json_object_begin(j, "steady");
	atio_json_string(j, "judge", atio_steady_name(o->steady));
	atio_json_double(j, "round_sec", (double)o->round_ns / 1e9);
	atio_json_uint(j, "max_rounds", o->rounds);
	atio_json_uint(j, "window", ATIO_STEADY_WINDOW);
	atio_json_double(j, "range_max_pct", ATIO_STEADY_RANGE_PCT);
	atio_json_double(j, "excursion_max_pct", ATIO_STEADY_EXCURSION_PCT);
	atio_json_bool(j, "precondition", o->precondition);
	atio_json_bool(j, "all_rounds", o->all_rounds);
	atio_json_object_end(j);
}

/* @x, or null when the window was not judged. */
static void judged_double(struct atio_json *j, const char *key, bool judged, double x)
{
	if (judged)
		atio_json_double(j, key, x);
	else
		atio_json_null(j, key);
}

/*
 * What each round did, summed over the threads: the counts its figure
 * comes from, so that the rounds of several documents can be summed
 * (atio merge) and each figure checked against them.
 */
static void round_figures(struct atio_json *j, const struct atio_steady *s)
{
	atio_json_array_begin(j, "round_figures");
	for (unsigned i = 0; s->round && i < s->n; i++) {
		const struct atio_steady_round *r = &s->round[i];

		atio_json_object_begin(j, NULL);
		atio_json_uint(j, "ops", r->ops);
		atio_json_uint(j, "bytes", r->bytes);
		atio_json_uint(j, "latency_sum_ns", r->lat_sum);
		atio_json_uint(j, "latency_count", r->lat_count);
		atio_json_uint(j, "time_ns", r->dur_ns);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
}

void atio_report_steady_window_json(struct atio_json *j, const struct atio_steady_verdict *v)
{
	if (!v->n) {
		atio_json_null(j, "window");
		return;
	}
	atio_json_object_begin(j, "window");
	atio_json_uint(j, "first", v->first + 1);
	atio_json_uint(j, "last", v->first + v->n);
	atio_json_double(j, "average", v->avg);
	atio_json_double(j, "min", v->min);
	atio_json_double(j, "max", v->max);
	atio_json_object_end(j);
}

void atio_report_steady_json(struct atio_json *j, const struct atio_result *r)
{
	const struct atio_steady *s = r->steady;

	if (!s) {
		atio_json_null(j, "steady");
		return;
	}
	atio_json_object_begin(j, "steady");
	atio_json_string(j, "judge", atio_steady_name(s->kind));
	atio_json_string(j, "unit", atio_steady_unit(s->kind));
	atio_json_double(j, "round_sec", (double)s->round_ns / 1e9);
	atio_json_uint(j, "rounds", s->n);
	atio_json_uint(j, "max_rounds", s->max_rounds);
	atio_json_array_begin(j, "values");
	for (unsigned i = 0; i < s->n; i++)
		if (isnan(s->value[i]))
			atio_json_null(j, NULL);
		else
			atio_json_double(j, NULL, s->value[i]);
	atio_json_array_end(j);
	atio_report_steady_window_json(j, &s->v);
	judged_double(j, "range_pct", s->v.judged, s->v.range_pct);
	judged_double(j, "excursion_pct", s->v.judged, s->v.excursion_pct);
	judged_double(j, "slope", s->v.n > 1, s->v.slope);
	atio_json_bool(j, "steady", s->steady_at != 0);
	if (s->steady_at)
		atio_json_uint(j, "steady_at", s->steady_at);
	else
		atio_json_null(j, "steady_at");
	atio_json_bool(j, "over", s->over);
	atio_json_bool(j, "all_rounds", s->all);
	round_figures(j, s);
	if (s->preconditioned) {
		atio_json_object_begin(j, "precondition");
		atio_json_uint(j, "block_size", 128u << 10);
		atio_json_uint(j, "bytes", s->pre_bytes);
		atio_json_double(j, "time_sec", (double)s->pre_ns / 1e9);
		atio_json_object_end(j);
	} else {
		atio_json_null(j, "precondition");
	}
	atio_json_object_end(j);
}
