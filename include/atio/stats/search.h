/* SPDX-License-Identifier: MIT */
#ifndef ATIO_STATS_SEARCH_H
#define ATIO_STATS_SEARCH_H

/*
 * The automatic search of a load (atio sweep --search, src/stats/search.c):
 * which queue depth or thread count to measure next, from the values of
 * those measured, in the manner of seastar's iotune.
 *
 * Doubling: 1, 2, 4 ... while each new point's value rises above the best
 * of the points before it by more than the noise, ATIO_SEARCH_NOISE of
 * that best (a rise of 5% or less is taken for the run-to-run spread of
 * one load, not a gain), up to the search's highest load.
 *
 * Refining: then, around the best point (the highest value), the load
 * halfway to its lower measured neighbour, then halfway to its upper one,
 * each only when it is a whole load not measured yet and at least an
 * eighth of the best load away from it (closer loads differ by less than
 * the noise can tell); after each point the best is taken again, so the
 * search narrows in on the peak by halves. It ends when no such load is
 * left.
 */

#include <stdbool.h>

#define ATIO_SEARCH_MAX 64
#define ATIO_SEARCH_NOISE 0.05

struct atio_search {
	unsigned top;              /* the highest load tried */
	unsigned n;
	unsigned load[ATIO_SEARCH_MAX];
	double value[ATIO_SEARCH_MAX];
	bool refining;             /* the doubling is over */
};

/* Start a search of loads 1..@top (@top >= 1). */
void atio_search_init(struct atio_search *s, unsigned top);

/* The point of load @load measured @value (the load atio_search_next() gave). */
void atio_search_add(struct atio_search *s, unsigned load, double value);

/* The next load to measure, or 0 when the search is over. */
unsigned atio_search_next(struct atio_search *s);

/* The index of the best point so far (the highest value, the first of equals); -1 for none. */
int atio_search_best(const struct atio_search *s);

#endif
