/* SPDX-License-Identifier: MIT */
/* A cluster's --steady rounds summed and judged (atio/merge/merge_steady.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/base/units.h"
#include "atio/merge/merge_steady.h"
#include "atio/print/report_steady.h"

void atio_merge_steady_init(struct atio_merge_steady *s)
{
	memset(s, 0, sizeof(*s));
}

void atio_merge_steady_free(struct atio_merge_steady *s)
{
	free(s->sum);
	free(s->lat_sum);
	free(s->lat_count);
	for (unsigned i = 0; i < s->ndocs; i++)
		free(s->doc_values[i]);
	free(s->doc_values);
	free(s->doc_rounds);
	free(s->doc_at);
	free(s->value);
	atio_merge_steady_init(s);
}

/* Room for @n rounds in the sums, the new ones 0. */
static int grow_rounds(struct atio_merge_steady *s, unsigned n)
{
	double *sum;
	uint64_t *ls, *lc;

	if (n <= s->cap)
		return 0;
	sum = realloc(s->sum, n * sizeof(*sum));
	if (sum)
		s->sum = sum;
	ls = realloc(s->lat_sum, n * sizeof(*ls));
	if (ls)
		s->lat_sum = ls;
	lc = realloc(s->lat_count, n * sizeof(*lc));
	if (lc)
		s->lat_count = lc;
	if (!sum || !ls || !lc)
		return -ENOMEM;
	for (unsigned k = s->cap; k < n; k++) {
		s->sum[k] = 0.0;
		s->lat_sum[k] = s->lat_count[k] = 0;
	}
	s->cap = n;
	return 0;
}

/* Room for one more document's line. */
static int grow_docs(struct atio_merge_steady *s)
{
	unsigned cap = s->doc_cap ? 2 * s->doc_cap : 16, *r, *a;
	double **v;

	if (s->ndocs < s->doc_cap)
		return 0;
	r = realloc(s->doc_rounds, cap * sizeof(*r));
	if (r)
		s->doc_rounds = r;
	a = realloc(s->doc_at, cap * sizeof(*a));
	if (a)
		s->doc_at = a;
	v = realloc(s->doc_values, cap * sizeof(*v));
	if (v)
		s->doc_values = v;
	if (!r || !a || !v)
		return -ENOMEM;
	s->doc_cap = cap;
	return 0;
}

/* Say why the rounds are not summed, the first reason only. */
static void not_summed(struct atio_merge_steady *s, const char *file, const char *what)
{
	if (!s->why[0])
		snprintf(s->why, sizeof(s->why), "%s: %s", file, what);
}

int atio_merge_steady_add(struct atio_merge_steady *s, const struct atio_merge_doc *d)
{
	const struct atio_doc_steady *ds = d->steady;
	char what[160];

	if (grow_docs(s))
		return -ENOMEM;
	s->doc_rounds[s->ndocs] = ds ? ds->n : 0;
	s->doc_at[s->ndocs] = ds ? ds->steady_at : 0;
	s->doc_values[s->ndocs] = NULL;
	if (ds) {
		s->doc_values[s->ndocs] = malloc((ds->n ? ds->n : 1) * sizeof(double));
		if (!s->doc_values[s->ndocs])
			return -ENOMEM;
		if (ds->n)
			memcpy(s->doc_values[s->ndocs], ds->value, ds->n * sizeof(double));
	}
	s->ndocs++;
	if (!ds) {
		if (!s->without)
			s->without = d->file;
		if (s->with)
			not_summed(s, d->file, "no --steady rounds, as the documents before it "
				   "have: the cluster's rounds would lack its figures");
		return 0;
	}
	if (s->without && !s->with)
		not_summed(s, s->without, "no --steady rounds, as the documents after it have: "
			   "the cluster's rounds would lack its figures");
	if (!s->with) {
		s->kind = ds->kind;
		s->round_sec = ds->round_sec;
	} else if (ds->kind != s->kind) {
		snprintf(what, sizeof(what), "its rounds judge %s, the documents before it %s: "
			 "their figures do not add up", atio_steady_name(ds->kind),
			 atio_steady_name(s->kind));
		not_summed(s, d->file, what);
	} else if (fabs(ds->round_sec - s->round_sec) > 1e-9 * s->round_sec) {
		snprintf(what, sizeof(what), "rounds of %g sec, the documents before it %g sec: "
			 "round k is not the same time on both", ds->round_sec, s->round_sec);
		not_summed(s, d->file, what);
	}
	if (ds->kind == ATIO_STEADY_LAT && !ds->round)
		not_summed(s, d->file, "its latency rounds have no counts (an older atio): a "
			   "cluster's mean latency needs each round's completions");
	if (!s->with || ds->n < s->n) {
		s->n = ds->n;
		s->fewest = d->file;
	}
	s->with++;
	if (ds->n > s->most)
		s->most = ds->n;
	if (!ds->all && ds->steady_at && !s->own_end)
		s->own_end = d->file;
	if (grow_rounds(s, ds->n))
		return -ENOMEM;
	for (unsigned k = 0; k < ds->n; k++) {
		if (!isnan(ds->value[k]))
			s->sum[k] += ds->value[k];
		if (ds->round) {
			s->lat_sum[k] += ds->round[k].lat_sum;
			s->lat_count[k] += ds->round[k].lat_count;
		}
	}
	return 0;
}

int atio_merge_steady_judge(struct atio_merge_steady *s)
{
	free(s->value);
	s->value = NULL;
	s->judged = false;
	s->steady_at = 0;
	memset(&s->v, 0, sizeof(s->v));
	if (!s->with || s->why[0])
		return 0;
	s->value = calloc(s->n ? s->n : 1, sizeof(*s->value));
	if (!s->value)
		return -ENOMEM;
	for (unsigned k = 0; k < s->n; k++)
		if (s->kind == ATIO_STEADY_LAT)
			s->value[k] = s->lat_count[k] ? (double)s->lat_sum[k] /
				(double)s->lat_count[k] / 1000.0 : NAN;
		else
			s->value[k] = s->sum[k];
	s->judged = true;
	s->steady_at = (unsigned)atio_steady_first(s->value, s->n, &s->v);
	return 0;
}

void atio_merge_steady_note(const struct atio_merge_steady *s, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	if (!s->judged)
		return;
	if (s->n < s->most)
		at += (size_t)snprintf(buf, len, "%s ran %u rounds, another document %u: the "
				       "cluster is judged on the %u rounds every document ran",
				       s->fewest, s->n, s->most, s->n);
	if (s->own_end && at < len)
		snprintf(buf + at, len - at, "%s%s ended its rounds at its own verdict (no "
			 "--all-rounds): its measured time began while the others still ran "
			 "rounds", at ? "; " : "", s->own_end);
}

void atio_merge_steady_text(FILE *f, const char *prefix, const struct atio_merge_steady *s)
{
	const char *unit = atio_steady_unit(s->kind);
	char round[32], note[2 * ATIO_MERGE_STEADY_WHY];

	if (!atio_merge_steady_any(s))
		return;
	atio_format_time(round, sizeof(round), (uint64_t)(s->round_sec * 1e9 + 0.5));
	fprintf(f, "%ssteady (cluster of %u documents): %s", prefix, s->ndocs,
		atio_steady_name(s->kind));
	if (!s->judged) {
		fprintf(f, ": not judged: %s\n", s->why);
		return;
	}
	fprintf(f, " in %u round(s) of %s sec: ", s->n, round);
	if (s->steady_at)
		fprintf(f, "steady at round %u (window: rounds %zu to %u)\n", s->steady_at,
			s->v.first + 1, s->steady_at);
	else
		fprintf(f, "not steady after %u rounds\n", s->n);
	/* lat: the mean of every document's completions, not a sum of means. */
	fprintf(f, "%ssteady rounds %s (%s):", prefix,
		s->kind == ATIO_STEADY_LAT ? "of all completions" : "summed", unit);
	for (unsigned k = 0; k < s->n; k++)
		if (isnan(s->value[k]))
			fprintf(f, "%s %u: -", k ? "," : "", k + 1);
		else
			fprintf(f, "%s %u: %.2f", k ? "," : "", k + 1, s->value[k]);
	fputc('\n', f);
	if (s->v.judged)
		fprintf(f, "%ssteady window: average %.2f %s, range %.2f (%.2f%% of the average, "
			"at most %.0f%%), excursion %.2f (%.2f%%, at most %.0f%%)\n", prefix,
			s->v.avg, unit, s->v.max - s->v.min, s->v.range_pct, ATIO_STEADY_RANGE_PCT,
			fabs(s->v.slope) * (double)(s->v.n - 1), s->v.excursion_pct,
			ATIO_STEADY_EXCURSION_PCT);
	fprintf(f, "%ssteady of each document alone:", prefix);
	for (unsigned i = 0; i < s->ndocs; i++)
		if (s->doc_at[i])
			fprintf(f, "%s [%u] round %u", i ? "," : "", i + 1, s->doc_at[i]);
		else
			fprintf(f, "%s [%u] not steady in %u", i ? "," : "", i + 1, s->doc_rounds[i]);
	fputc('\n', f);
	atio_merge_steady_note(s, note, sizeof(note));
	if (note[0])
		fprintf(f, "%ssteady note: %s\n", prefix, note);
}

/* Figures @v[0..n) as member "values", NaN as null. */
static void values(struct atio_json *j, const double *v, unsigned n)
{
	atio_json_array_begin(j, "values");
	for (unsigned k = 0; k < n; k++)
		if (isnan(v[k]))
			atio_json_null(j, NULL);
		else
			atio_json_double(j, NULL, v[k]);
	atio_json_array_end(j);
}

void atio_merge_steady_json(struct atio_json *j, const struct atio_merge_steady *s)
{
	char note[2 * ATIO_MERGE_STEADY_WHY];

	if (!atio_merge_steady_any(s)) {
		atio_json_null(j, "steady");
		return;
	}
	atio_json_object_begin(j, "steady");
	atio_json_string(j, "judge", atio_steady_name(s->kind));
	atio_json_string(j, "unit", atio_steady_unit(s->kind));
	atio_json_double(j, "round_sec", s->round_sec);
	atio_json_uint(j, "documents", s->with);
	atio_json_bool(j, "judged", s->judged);
	if (s->judged)
		atio_json_null(j, "why");
	else
		atio_json_string(j, "why", s->why);
	atio_json_uint(j, "rounds", s->judged ? s->n : 0);
	values(j, s->value, s->judged ? s->n : 0);
	if (s->judged)
		atio_report_steady_window_json(j, &s->v);
	else
		atio_json_null(j, "window");
	if (s->v.judged) {
		atio_json_double(j, "range_pct", s->v.range_pct);
		atio_json_double(j, "excursion_pct", s->v.excursion_pct);
	} else {
		atio_json_null(j, "range_pct");
		atio_json_null(j, "excursion_pct");
	}
	atio_json_bool(j, "steady", s->steady_at != 0);
	if (s->steady_at)
		atio_json_uint(j, "steady_at", s->steady_at);
	else
		atio_json_null(j, "steady_at");
	/* Each document's own rounds and verdict, in the order merged. */
	atio_json_array_begin(j, "each_document");
	for (unsigned i = 0; i < s->ndocs; i++) {
		atio_json_object_begin(j, NULL);
		atio_json_uint(j, "rounds", s->doc_rounds[i]);
		if (s->doc_at[i])
			atio_json_uint(j, "steady_at", s->doc_at[i]);
		else
			atio_json_null(j, "steady_at");
		values(j, s->doc_values[i], s->doc_values[i] ? s->doc_rounds[i] : 0);
		atio_json_object_end(j);
	}
	atio_json_array_end(j);
	atio_merge_steady_note(s, note, sizeof(note));
	if (note[0])
		atio_json_string(j, "note", note);
	else
		atio_json_null(j, "note");
	atio_json_object_end(j);
}
