/* SPDX-License-Identifier: MIT */
/* The automatic search of a load: see include/atio/stats/search.h. */
#include "atio/stats/search.h"

void atio_search_init(struct atio_search *s, unsigned top)
{
	*s = (struct atio_search){ .top = top ? top : 1 };
}

void atio_search_add(struct atio_search *s, unsigned load, double value)
{
	if (s->n >= ATIO_SEARCH_MAX)
		return;
	s->load[s->n] = load;
	s->value[s->n++] = value;
}

int atio_search_best(const struct atio_search *s)
{
	int best = -1;

	for (unsigned i = 0; i < s->n; i++)
		if (best < 0 || s->value[i] > s->value[best])
			best = (int)i;
	return best;
}

static bool measured(const struct atio_search *s, unsigned load)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->load[i] == load)
			return true;
	return false;
}

/*
 * Halfway from @at to @to (0: none), when that is a whole load not
 * measured yet at least an eighth of @at away; else 0.
 */
static unsigned halfway(const struct atio_search *s, unsigned at, unsigned to)
{
	unsigned step = to > at ? (to - at) / 2 : (at - to) / 2;
	unsigned mid = to > at ? at + step : at - step;

	if (!to || !step || step * 8 < at || mid == to || measured(s, mid))
		return 0;
	return mid;
}

/* Whether the last point rose above the best before it by more than the noise. */
static bool rose(const struct atio_search *s)
{
	double before = s->value[0];

	for (unsigned i = 1; i + 1 < s->n; i++)
		if (s->value[i] > before)
			before = s->value[i];
	return s->value[s->n - 1] > before * (1 + ATIO_SEARCH_NOISE);
}

unsigned atio_search_next(struct atio_search *s)
{
	unsigned at, below = 0, above = 0, next;
	int best;

	if (s->n == 0)
		return 1;
	if (s->n >= ATIO_SEARCH_MAX)
		return 0;
	if (!s->refining) {
		unsigned last = s->load[s->n - 1];

		if ((s->n == 1 || rose(s)) && last < s->top)
			return last > s->top / 2 ? s->top : last * 2;
		s->refining = true;
	}
	best = atio_search_best(s);
	at = s->load[best];
	/* The measured neighbours of the best load, below and above it. */
	for (unsigned i = 0; i < s->n; i++) {
		if (s->load[i] < at && s->load[i] > below)
			below = s->load[i];
		if (s->load[i] > at && (!above || s->load[i] < above))
			above = s->load[i];
	}
	next = halfway(s, at, below);
	return next ? next : halfway(s, at, above);
}
