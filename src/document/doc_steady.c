/* SPDX-License-Identifier: MIT */
/* A run document's --steady rounds read back and checked (atio/document/doc_steady.h). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "atio/document/doc_steady.h"

#define BAD(...) atio_error_set(e, ATIO_EXIT_USAGE, 0, __VA_ARGS__)

void atio_doc_steady_free(struct atio_doc_steady *s)
{
	if (!s)
		return;
	free(s->value);
	free(s->round);
	free(s);
}

/* Member @key of @obj as a whole number from 0 up that a uint64_t holds. */
static bool get_count(json_t *obj, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(obj, key);
	double x = json_is_number(v) ? json_number_value(v) : -1.0;

	if (!(x >= 0.0) || x >= 9007199254740992.0 || x != floor(x))
		return false;
	*out = (uint64_t)x;
	return true;
}

/* Member @key of @obj as a whole number of rounds, at most ATIO_STEADY_MAX_ROUNDS. */
static bool get_rounds(json_t *obj, const char *key, unsigned *out)
{
	uint64_t v;

	if (!get_count(obj, key, &v) || v > ATIO_STEADY_MAX_ROUNDS)
		return false;
	*out = (unsigned)v;
	return true;
}

/* Whether @a and @b agree to the digits a document's doubles keep. */
static bool same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)) + 1e-12;
}

/* The rounds' counts, "round_figures", each checked against its figure. */
static int read_figures(json_t *st, const char *name, struct atio_doc_steady *s,
			struct atio_error *e)
{
	json_t *a = json_object_get(st, "round_figures"), *r;
	size_t i;

	if (!a)
		return 0;               /* an older document: its figures alone */
	if (!json_is_array(a) || json_array_size(a) != s->n)
		return BAD("%s: steady.round_figures: not an array of its %u rounds", name, s->n);
	s->round = calloc(s->n ? s->n : 1, sizeof(*s->round));
	if (!s->round)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	json_array_foreach(a, i, r) {
		struct atio_steady_round *x = &s->round[i];

		if (!json_is_object(r) || !get_count(r, "ops", &x->ops) ||
		    !get_count(r, "bytes", &x->bytes) ||
		    !get_count(r, "latency_sum_ns", &x->lat_sum) ||
		    !get_count(r, "latency_count", &x->lat_count) ||
		    !get_count(r, "time_ns", &x->dur_ns))
			return BAD("%s: steady.round_figures[%zu]: not an object of whole ops, "
				   "bytes, latency_sum_ns, latency_count and time_ns", name, i);
		if (!same(atio_steady_value(s->kind, x), s->value[i]))
			return BAD("%s: steady.values[%zu]: %g, but its round's counts give %g %s",
				   name, i, s->value[i], atio_steady_value(s->kind, x),
				   atio_steady_unit(s->kind));
	}
	return 0;
}

static int read_steady(json_t *st, const char *name, struct atio_doc_steady *s,
		       struct atio_error *e)
{
	const char *judge = json_string_value(json_object_get(st, "judge"));
	json_t *vals = json_object_get(st, "values"), *v, *w;
	uint64_t at = 0;
	size_t i;

	s->kind = !judge ? ATIO_STEADY_NONE : !strcmp(judge, "iops") ? ATIO_STEADY_IOPS
		: !strcmp(judge, "mbs") ? ATIO_STEADY_MBS
		: !strcmp(judge, "lat") ? ATIO_STEADY_LAT : ATIO_STEADY_NONE;
	if (!s->kind)
		return BAD("%s: steady.judge: missing or not iops, mbs or lat", name);
	v = json_object_get(st, "round_sec");
	s->round_sec = json_is_number(v) ? json_number_value(v) : 0.0;
	if (!(s->round_sec > 0.0) || !isfinite(s->round_sec))
		return BAD("%s: steady.round_sec: missing or not a time above 0", name);
	if (!get_rounds(st, "rounds", &s->n) || !get_rounds(st, "max_rounds", &s->max_rounds) ||
	    s->n > s->max_rounds)
		return BAD("%s: steady.rounds, max_rounds: missing, or not rounds from 0 to %u "
			   "with rounds the lower", name, ATIO_STEADY_MAX_ROUNDS);
	if (!json_is_array(vals) || json_array_size(vals) != s->n)
		return BAD("%s: steady.values: not an array of its %u rounds' figures", name, s->n);
	s->value = calloc(s->n ? s->n : 1, sizeof(*s->value));
	if (!s->value)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	json_array_foreach(vals, i, v) {
		if (json_is_null(v) && s->kind == ATIO_STEADY_LAT) {
			s->value[i] = NAN;
			continue;
		}
		s->value[i] = json_is_number(v) ? json_number_value(v) : -1.0;
		if (!(s->value[i] >= 0.0) || !isfinite(s->value[i]))
			return BAD("%s: steady.values[%zu]: not a figure from 0 up", name, i);
	}
	s->all = json_is_true(json_object_get(st, "all_rounds"));
	s->over = json_is_true(json_object_get(st, "over"));
	v = json_object_get(st, "steady_at");
	if (!json_is_null(v) && (!get_count(st, "steady_at", &at) || at < ATIO_STEADY_WINDOW ||
				 at > s->n))
		return BAD("%s: steady.steady_at: not null nor a round from %u to its %u rounds",
			   name, ATIO_STEADY_WINDOW, s->n);
	s->steady_at = (unsigned)at;
	w = json_object_get(st, "window");
	if (json_is_object(w) && (!get_rounds(w, "first", &s->first) ||
				  !get_rounds(w, "last", &s->last) || s->first < 1 ||
				  s->first > s->last || s->last > s->n))
		return BAD("%s: steady.window: first and last are not rounds of its %u", name, s->n);
	return read_figures(st, name, s, e);
}

int atio_doc_steady_read(json_t *doc, const char *name, struct atio_doc_steady **out,
			 struct atio_error *e)
{
	json_t *st = json_object_get(doc, "steady");
	struct atio_doc_steady *s;
	int ret;

	*out = NULL;
	if (!st || json_is_null(st))
		return 0;
	if (!json_is_object(st))
		return BAD("%s: steady: not an object nor null", name);
	s = calloc(1, sizeof(*s));
	if (!s)
		return atio_error_set(e, ATIO_EXIT_FAIL, ENOMEM, "%s: out of memory", name);
	ret = read_steady(st, name, s, e);
	if (ret) {
		atio_doc_steady_free(s);
		return -EINVAL;
	}
	*out = s;
	return 0;
}
