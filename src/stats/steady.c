/* SPDX-License-Identifier: MIT */
/* SNIA's steady state over a series of rounds (atio/stats/steady.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "atio/stats/steady.h"

/*
 * The least-squares slope of y against x = 0, 1, ... n-1:
 * sum((x - mx)(y - my)) / sum((x - mx)^2), with mx = (n - 1) / 2.
 */
static double slope(const double *y, size_t n, double my)
{
	double mx = (double)(n - 1) / 2.0, sxy = 0.0, sxx = 0.0;

	for (size_t i = 0; i < n; i++) {
		sxy += ((double)i - mx) * (y[i] - my);
		sxx += ((double)i - mx) * ((double)i - mx);
	}
	return sxx > 0.0 ? sxy / sxx : 0.0;
}

bool atio_steady_judge(const double *v, size_t n, struct atio_steady_verdict *out)
{
	size_t w = n < ATIO_STEADY_WINDOW ? n : ATIO_STEADY_WINDOW;
	const double *y = v + (n - w);
	double sum = 0.0;

	memset(out, 0, sizeof(*out));
	out->first = n - w;
	out->n = w;
	if (!w)
		return false;
	out->min = out->max = y[0];
	for (size_t i = 0; i < w; i++) {
		sum += y[i];
		if (y[i] < out->min)
			out->min = y[i];
		if (y[i] > out->max)
			out->max = y[i];
	}
	out->avg = sum / (double)w;
	out->slope = slope(y, w, out->avg);
	/* A round of unknown value (NaN) in the window: never judged, so never steady. */
	out->judged = w == ATIO_STEADY_WINDOW && out->avg > 0.0 && !isnan(out->avg);
	if (!out->judged)
		return false;
	out->range_pct = (out->max - out->min) * 100.0 / out->avg;
	out->excursion_pct = fabs(out->slope) * (double)(w - 1) * 100.0 / out->avg;
	out->steady = out->range_pct <= ATIO_STEADY_RANGE_PCT &&
		      out->excursion_pct <= ATIO_STEADY_EXCURSION_PCT;
	return out->steady;
}

size_t atio_steady_first(const double *v, size_t n, struct atio_steady_verdict *out)
{
	for (size_t k = ATIO_STEADY_WINDOW; k <= n; k++)
		if (atio_steady_judge(v, k, out))
			return k;
	atio_steady_judge(v, n, out);
	return 0;
}

double atio_steady_value(enum atio_steady_kind kind, const struct atio_steady_round *r)
{
	double sec = (double)r->dur_ns / 1e9;

	if (kind == ATIO_STEADY_LAT)
		/* No I/O completed: its latency is unknown, not 0 (a perfect round). */
		return r->lat_count ? (double)r->lat_sum / (double)r->lat_count / 1000.0 : NAN;
	if (!(sec > 0.0))
		return 0.0;
	if (kind == ATIO_STEADY_MBS)
		return (double)r->bytes / 1048576.0 / sec;
	return (double)r->ops / sec;
}

const char *atio_steady_name(enum atio_steady_kind kind)
{
	return kind == ATIO_STEADY_MBS ? "mbs" : kind == ATIO_STEADY_LAT ? "lat" : "iops";
}

const char *atio_steady_unit(enum atio_steady_kind kind)
{
	return kind == ATIO_STEADY_MBS ? "MB/s" : kind == ATIO_STEADY_LAT ? "usec" : "IOPS";
}

int atio_steady_init(struct atio_steady *s, const struct atio_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->kind = o->steady;
	s->round_ns = o->round_ns;
	s->max_rounds = o->rounds;
	s->all = o->all_rounds;
	s->value = calloc(o->rounds ? o->rounds : 1, sizeof(*s->value));
	s->round = calloc(o->rounds ? o->rounds : 1, sizeof(*s->round));
	if (s->value && s->round)
		return 0;
	atio_steady_free(s);
	return -ENOMEM;
}

void atio_steady_free(struct atio_steady *s)
{
	free(s->value);
	free(s->round);
	s->value = NULL;
	s->round = NULL;
}

bool atio_steady_add(struct atio_steady *s, double value)
{
	if (s->over || s->n >= s->max_rounds)
		return true;
	s->value[s->n++] = value;
	if (!s->steady_at && atio_steady_judge(s->value, s->n, &s->v))
		s->steady_at = s->n;
	s->over = (s->steady_at && !s->all) || s->n == s->max_rounds;
	return s->over;
}

bool atio_steady_add_round(struct atio_steady *s, const struct atio_steady_round *r)
{
	if (s->round && s->n < s->max_rounds && !s->over)
		s->round[s->n] = *r;
	return atio_steady_add(s, atio_steady_value(s->kind, r));
}
